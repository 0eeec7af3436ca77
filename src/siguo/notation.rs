//! The four-player notation of the protocol (protocol.md, *Four-player
//! notation*): the position string, the deployment string of an arm, bare
//! actions, the board drawn by `d`, and the game state the protocol
//! carries (the position, the plies played and the pieces removed).
//!
//! The position string has six fields separated by white space:
//!
//! 1. the board: the 17 rows of RULES-4P.md §1.4's drawing grid from the
//!    top (North's back row) down, separated by `/`; within a row, from
//!    left to right, a piece (a seat letter `s e n w` and a kind `1`-`9`,
//!    `B`, `M`, `F` or `?`) or a number for a run of empty points; the rows
//!    describe 5, 5, 5, 5, 5, 5, 15, 12, 15, 12, 15, 5, 5, 5, 5, 5, 5
//!    points (the middle rows: West's six points, the centre's three on
//!    rows 7, 9 and 11, East's six);
//! 2. the seat to move, `s e n w`;
//! 3. the quiet-ply counter (plies since the last attack);
//! 4. the ply count (moves and attacks since the deployment);
//! 5. the pieces removed by attacks, concatenated (`s9e3n?`), or `-`;
//! 6. the seats out, in the order they went out (`en`), or `-`.
//!
//! The empty board before the deployment:
//! `5/5/5/5/5/5/15/12/15/12/15/5/5/5/5/5/5 s 0 0 - -`.
//!
//! An arm's deployment string is the arm's six ranks from the front (rank
//! 6) to the back (rank 1), each from file `a` to `e` as the arm's owner
//! sees them, in the board's row syntax: South's `s5s3s7s4s6/s51s31s7/...`
//! reads like Red's two-player deployment string, and is checked by the
//! two-player deployment rules on the arm mapped onto Red's half.

use std::fmt;

use super::action::Action;
use super::position::{OutReason, Piece, Position, one_seat};
use super::rules::SiguoRules;
use super::token::{ApplyError, SiguoToken};
use super::topology::{ARM_POINTS, CAMPS, HQS, NUM_POINTS, Point, PointError, Region, Seat};
use crate::board::Point as TwoPoint;
use crate::deployment::{Deployment, DeploymentError};
use crate::piece::{Colour, Kind, NUM_KINDS, PIECES_PER_SIDE};
use crate::rules::Mode;

/// Side of the drawing grid (RULES-4P.md §1.4).
pub const GRID: usize = 17;

/// The drawing grid position `(x, y)` of a point (RULES-4P.md §1.4: x to
/// the right, y downwards, North at the top).
pub const fn grid_xy(p: Point) -> (usize, usize) {
    let (i, r) = (p.file() as usize, p.rank() as usize);
    match p.region() {
        Region::Arm(Seat::South) => (6 + i, 17 - r),
        Region::Arm(Seat::West) => (r - 1, 6 + i),
        Region::Arm(Seat::North) => (10 - i, r - 1),
        Region::Arm(Seat::East) => (17 - r, 10 - i),
        Region::Centre => (6 + 2 * i, 12 - 2 * r),
    }
}

/// The points of each row of the grid from the top, left to right: the
/// reading order of the position string's board.
pub fn grid_rows() -> Vec<Vec<Point>> {
    let mut cells = [[None; GRID]; GRID];
    for p in Point::all() {
        let (x, y) = grid_xy(p);
        cells[y][x] = Some(p);
    }
    cells.iter().map(|row| row.iter().flatten().copied().collect()).collect()
}

/// Why a four-player string does not read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SiguoNotationError {
    /// A field is missing.
    Missing(&'static str),
    /// Text after the last field.
    Trailing(String),
    /// The board does not have 17 rows (a deployment: 6 ranks).
    Rows {
        /// What is read.
        what: &'static str,
        /// Rows found.
        found: usize,
        /// Rows expected.
        expected: usize,
    },
    /// A row that does not describe its points.
    Row {
        /// The row, from 1.
        row: usize,
        /// Points described.
        found: usize,
        /// Points in the row.
        expected: usize,
    },
    /// A character that is neither a piece nor a run of empty points.
    Char {
        /// The row, from 1.
        row: usize,
        /// What was there.
        text: String,
    },
    /// Not a seat letter where one is expected.
    Seat(String),
    /// Not a number where one is expected.
    Number(&'static str, String),
    /// The removed pieces are not pieces.
    Removed(String),
    /// The seats out are not seat letters, or name one twice.
    Out(String),
    /// A bare action is not `<point>-<point>` or `<point>x<point>`.
    Action(String),
    /// A bad point.
    Point(PointError),
}

impl fmt::Display for SiguoNotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SiguoNotationError::Missing(what) => write!(f, "missing {what}"),
            SiguoNotationError::Trailing(t) => write!(f, "unexpected '{t}' after the seats out"),
            SiguoNotationError::Rows { what, found, expected } => {
                write!(f, "{what} has {found} rows separated by '/', expected {expected}")
            }
            SiguoNotationError::Row { row, found, expected } => {
                write!(f, "bad row {row}: {found} points, expected {expected}")
            }
            SiguoNotationError::Char { row, text } => {
                write!(f, "bad row {row}: '{text}' is not a piece (s, e, n, w and a kind) or a run of empty points")
            }
            SiguoNotationError::Seat(s) => write!(f, "'{s}': the seat to move is s, e, n or w"),
            SiguoNotationError::Number(what, s) => write!(f, "'{s}': the {what} is a number"),
            SiguoNotationError::Removed(s) => write!(f, "'{s}': removed pieces are pieces like s9e?, or '-'"),
            SiguoNotationError::Out(s) => write!(f, "'{s}': the seats out are distinct seat letters, or '-'"),
            SiguoNotationError::Action(s) => write!(f, "'{s}': an action is like Sa3-Sa4 or Sa6xCa1"),
            SiguoNotationError::Point(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SiguoNotationError {}

impl From<PointError> for SiguoNotationError {
    fn from(e: PointError) -> Self {
        SiguoNotationError::Point(e)
    }
}

/// A piece token of the position string: `sM`, `e?`.
pub fn piece_text(p: Piece) -> String {
    format!("{}{}", p.seat.to_char().to_ascii_lowercase(), p.kind.map_or('?', Kind::to_char))
}

/// A seat letter of piece tokens: lower case only.
fn piece_seat(c: char) -> Option<Seat> {
    if c.is_ascii_lowercase() { Seat::from_char(c) } else { None }
}

/// Reads a run of pieces (no empty runs): the removed-pieces field.
fn parse_pieces(text: &str) -> Option<Vec<Piece>> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() % 2 != 0 {
        return None;
    }
    chars
        .chunks(2)
        .map(|c| {
            let seat = piece_seat(c[0])?;
            let kind = if c[1] == '?' { None } else { Some(Kind::from_char(c[1])?) };
            Some(Piece::new(seat, kind))
        })
        .collect()
}

/// Reads one row of `expected` points: pieces and runs of empty points.
fn parse_row(text: &str, row: usize, expected: usize) -> Result<Vec<Option<Piece>>, SiguoNotationError> {
    let bad = |at: &str| SiguoNotationError::Char { row, text: at.to_owned() };
    let mut cells = Vec::with_capacity(expected);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some(seat) = piece_seat(c) {
            let k = rest[1..].chars().next().ok_or_else(|| bad(rest))?;
            let kind =
                if k == '?' { None } else { Some(Kind::from_char(k).ok_or_else(|| bad(&rest[..1 + k.len_utf8()]))?) };
            cells.push(Some(Piece::new(seat, kind)));
            rest = &rest[1 + k.len_utf8()..];
        } else if c.is_ascii_digit() && c != '0' {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let n: usize = rest[..digits].parse().map_err(|_| bad(&rest[..digits]))?;
            if cells.len() + n > expected {
                return Err(SiguoNotationError::Row { row, found: cells.len() + n, expected });
            }
            cells.extend(std::iter::repeat_n(None, n));
            rest = &rest[digits..];
        } else {
            return Err(bad(&rest[..c.len_utf8()]));
        }
    }
    if cells.len() != expected {
        return Err(SiguoNotationError::Row { row, found: cells.len(), expected });
    }
    Ok(cells)
}

/// Writes one row: pieces, and a number for each run of empty points.
fn write_row(out: &mut String, cells: impl Iterator<Item = Option<Piece>>) {
    let mut run = 0;
    for c in cells {
        match c {
            None => run += 1,
            Some(p) => {
                if run > 0 {
                    out.push_str(&run.to_string());
                    run = 0;
                }
                out.push_str(&piece_text(p));
            }
        }
    }
    if run > 0 {
        out.push_str(&run.to_string());
    }
}

/// A four-player position string as read, before the rules check it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SiguoSetup {
    /// What stands on each point, by point index.
    pub cells: Vec<Option<Piece>>,
    /// The seat to move.
    pub side: Seat,
    /// Plies since the last attack.
    pub quiet: u16,
    /// Plies since the deployment.
    pub ply: u32,
    /// Pieces removed by attacks.
    pub removed: Vec<Piece>,
    /// The seats out, in the order they went out.
    pub out: Vec<Seat>,
}

/// Reads a position string (module documentation); the rules check it in
/// [`SiguoSetup::state`].
///
/// # Errors
/// The first field that does not read.
pub fn parse_siguo_setup(text: &str) -> Result<SiguoSetup, SiguoNotationError> {
    let f: Vec<&str> = text.split_whitespace().collect();
    let get = |i: usize, name: &'static str| f.get(i).copied().ok_or(SiguoNotationError::Missing(name));
    let board = get(0, "board")?;
    let rows: Vec<&str> = board.split('/').collect();
    let grid = grid_rows();
    if rows.len() != grid.len() {
        return Err(SiguoNotationError::Rows { what: "the board", found: rows.len(), expected: grid.len() });
    }
    let mut cells = vec![None; NUM_POINTS];
    for (i, (text, points)) in rows.iter().zip(&grid).enumerate() {
        for (p, c) in points.iter().zip(parse_row(text, i + 1, points.len())?) {
            cells[p.index()] = c;
        }
    }
    let side_text = get(1, "seat to move")?;
    let side = one_seat(side_text).ok_or_else(|| SiguoNotationError::Seat(side_text.to_owned()))?;
    let number = |i: usize, name: &'static str| -> Result<u64, SiguoNotationError> {
        let t = get(i, name)?;
        if !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(SiguoNotationError::Number(name, t.to_owned()));
        }
        t.parse().map_err(|_| SiguoNotationError::Number(name, t.to_owned()))
    };
    let quiet = u16::try_from(number(2, "quiet-ply counter")?)
        .map_err(|_| SiguoNotationError::Number("quiet-ply counter", f[2].to_owned()))?;
    let ply =
        u32::try_from(number(3, "ply count")?).map_err(|_| SiguoNotationError::Number("ply count", f[3].to_owned()))?;
    let removed_text = get(4, "removed pieces")?;
    let removed = if removed_text == "-" {
        Vec::new()
    } else {
        parse_pieces(removed_text)
            .filter(|r| !r.is_empty())
            .ok_or_else(|| SiguoNotationError::Removed(removed_text.to_owned()))?
    };
    let out_text = get(5, "seats out")?;
    let mut out = Vec::new();
    if out_text != "-" {
        for c in out_text.chars() {
            match Seat::from_char(c) {
                Some(s) if !out.contains(&s) => out.push(s),
                _ => return Err(SiguoNotationError::Out(out_text.to_owned())),
            }
        }
    }
    if f.len() > 6 {
        return Err(SiguoNotationError::Trailing(f[6..].join(" ")));
    }
    Ok(SiguoSetup { cells, side, quiet, ply, removed, out })
}

impl std::str::FromStr for SiguoSetup {
    type Err = SiguoNotationError;

    fn from_str(s: &str) -> Result<SiguoSetup, SiguoNotationError> {
        parse_siguo_setup(s)
    }
}

impl fmt::Display for SiguoSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = grid_rows()
            .iter()
            .map(|points| {
                let mut s = String::new();
                write_row(&mut s, points.iter().map(|p| self.cells[p.index()]));
                s
            })
            .collect();
        let lower = |s: Seat| s.to_char().to_ascii_lowercase();
        let mut removed = self.removed.clone();
        removed.sort_by_key(|p| (p.seat, p.kind.map_or(NUM_KINDS, Kind::index)));
        let removed: String = removed.into_iter().map(piece_text).collect();
        let out: String = self.out.iter().map(|&s| lower(s)).collect();
        write!(
            f,
            "{} {} {} {} {} {}",
            rows.join("/"),
            lower(self.side),
            self.quiet,
            self.ply,
            if removed.is_empty() { "-" } else { &removed },
            if out.is_empty() { "-" } else { &out }
        )
    }
}

/// Why the rules refuse a position string.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SiguoSetupError {
    /// A piece of a seat that is out stands on the board.
    SeatOutOnBoard(Point),
    /// The seat to move is out while the game goes on.
    SideOut(Seat),
    /// A piece of unknown kind in `siguo-open`.
    UnknownKind(Point),
    /// A removed piece of unknown kind in `siguo-open`.
    UnknownRemoved(Piece),
    /// A seat accounts for more pieces of a kind than it has.
    TooMany(Piece, u8),
    /// A seat still in does not account for its 25 pieces.
    Total(Seat, u8),
    /// A flag off its seat's headquarters, or a landmine off its seat's
    /// last two ranks (neither ever moves).
    Immovable(Point, Piece),
    /// At ply 0: a piece outside its own arm.
    OutsideArm(Point, Piece),
    /// At ply 0: something removed or a seat out.
    NotAStart(&'static str),
    /// At ply 0: an arm breaks a deployment rule.
    Deployment(Seat, String),
    /// More quiet plies than plies.
    Quiet(u16, u32),
}

impl fmt::Display for SiguoSetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SiguoSetupError::SeatOutOnBoard(p) => write!(f, "{p}: a piece of a seat that is out"),
            SiguoSetupError::SideOut(s) => write!(f, "{s} is to move but out, and the game goes on"),
            SiguoSetupError::UnknownKind(p) => write!(f, "{p}: a piece of unknown kind in siguo-open"),
            SiguoSetupError::UnknownRemoved(p) => {
                write!(f, "removed {}: a piece of unknown kind in siguo-open", piece_text(*p))
            }
            SiguoSetupError::TooMany(p, n) => write!(f, "too many {}: {n}", piece_text(*p)),
            SiguoSetupError::Total(s, n) => {
                write!(f, "{s} accounts for {n} pieces on the board and removed, a seat has {PIECES_PER_SIDE}")
            }
            SiguoSetupError::Immovable(p, pc) => write!(
                f,
                "{} on {p}: a flag stands on its seat's headquarters and a landmine on its seat's last two ranks",
                piece_text(*pc)
            ),
            SiguoSetupError::OutsideArm(p, pc) => write!(f, "{} on {p} at ply 0: outside its arm", piece_text(*pc)),
            SiguoSetupError::NotAStart(what) => write!(f, "at ply 0 {what}"),
            SiguoSetupError::Deployment(s, e) => write!(f, "{s}'s deployment: {e}"),
            SiguoSetupError::Quiet(q, p) => write!(f, "quiet-ply counter {q} exceeds the ply count {p}"),
        }
    }
}

impl std::error::Error for SiguoSetupError {}

/// The arm point of `seat` that plays the part of the two-player point `p`
/// of Red's half (RULES-4P.md §1.2: an arm is laid out like Red's half).
fn arm_of_red(seat: Seat, p: TwoPoint) -> Option<Point> {
    Point::arm(seat, p.file(), p.rank() + 1)
}

/// The two-player point of Red's half that an arm point plays the part of.
fn red_of_arm(p: Point) -> Option<TwoPoint> {
    match p.region() {
        Region::Arm(_) => TwoPoint::new(p.file(), p.rank() - 1),
        Region::Centre => None,
    }
}

/// A deployment error of the two-player rules, with the arm's point named.
fn deployment_error_text(seat: Seat, e: &DeploymentError) -> String {
    let text = e.to_string();
    let at = match e {
        DeploymentError::WrongColour(p)
        | DeploymentError::UnknownKind(p)
        | DeploymentError::OutsideHalf(p)
        | DeploymentError::InCamp(p)
        | DeploymentError::Empty(p)
        | DeploymentError::FlagOutsideHq(p)
        | DeploymentError::MineOutsideBackRanks(p)
        | DeploymentError::BombOnFrontRank(p) => Some(*p),
        DeploymentError::Count { .. } => None,
    };
    match at.and_then(|p| arm_of_red(seat, p).map(|q| (p, q))) {
        Some((p, q)) => text.replace(&p.to_string(), &q.to_string()).replace("side's half", "seat's arm"),
        None => text.replace("a side has", "a seat has"),
    }
}

/// One seat's deployment on its arm: the two-player deployment of Red
/// that the arm reads as (module documentation).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ArmDeployment {
    /// The seat.
    pub seat: Seat,
    /// The same pieces on Red's half of the two-player board.
    pub red: Deployment,
}

impl ArmDeployment {
    /// `red` (a deployment of Red) on `seat`'s arm.
    pub fn new(seat: Seat, red: Deployment) -> ArmDeployment {
        ArmDeployment { seat, red }
    }

    /// The pieces on the arm's points.
    pub fn pieces(&self) -> impl Iterator<Item = (Point, Piece)> + '_ {
        self.red.pieces().filter_map(|(p, pc)| Some((arm_of_red(self.seat, p)?, Piece::new(self.seat, pc.kind))))
    }

    /// Reads a deployment string; the seat letters say whose.
    ///
    /// # Errors
    /// The text does not read, holds several seats, or breaks a
    /// deployment rule (the message names the arm's points).
    pub fn parse(text: &str) -> Result<ArmDeployment, String> {
        let text = text.trim();
        let seat = text.chars().find_map(piece_seat).ok_or_else(|| format!("'{text}': no piece"))?;
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() != 6 {
            let e = SiguoNotationError::Rows { what: "a deployment", found: ranks.len(), expected: 6 };
            return Err(e.to_string());
        }
        let mut placed = Vec::new();
        for (i, body) in ranks.iter().enumerate() {
            let rank = 6 - i as u8;
            for (file, c) in parse_row(body, i + 1, 5).map_err(|e| e.to_string())?.into_iter().enumerate() {
                let Some(pc) = c else { continue };
                let p = Point::arm(seat, file as u8, rank).ok_or("bad point")?;
                if pc.seat != seat {
                    return Err(format!("{p}: a deployment holds the pieces of one seat"));
                }
                let q = red_of_arm(p).ok_or("bad point")?;
                placed.push((q, crate::piece::Piece { colour: Colour::Red, kind: pc.kind }));
            }
        }
        Deployment::new(Colour::Red, &placed)
            .map(|red| ArmDeployment { seat, red })
            .map_err(|e| deployment_error_text(seat, &e))
    }
}

impl fmt::Display for ArmDeployment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut cells = [None; ARM_POINTS];
        for (p, pc) in self.pieces() {
            cells[p.index() % ARM_POINTS] = Some(pc);
        }
        let ranks: Vec<String> = (0..6)
            .rev()
            .map(|r| {
                let mut s = String::new();
                write_row(&mut s, cells[5 * r..5 * r + 5].iter().copied());
                s
            })
            .collect();
        f.write_str(&ranks.join("/"))
    }
}

/// Reads a bare action: `Sa3-Sa4`, `Sa6xCa1` (points in either case).
///
/// # Errors
/// [`SiguoNotationError::Action`] or a bad point.
pub fn parse_siguo_action(s: &str) -> Result<Action, SiguoNotationError> {
    let (Some(from), Some(sep), Some(to)) = (s.get(..3), s.get(3..4), s.get(4..)) else {
        return Err(SiguoNotationError::Action(s.to_owned()));
    };
    let (from, to): (Point, Point) = (from.parse()?, to.parse()?);
    match sep {
        "-" => Ok(Action::moving(from, to)),
        "x" | "X" => Ok(Action::attacking(from, to)),
        _ => Err(SiguoNotationError::Action(s.to_owned())),
    }
}

/// A four-player game as the protocol carries it: the position, the plies
/// played since the deployment and the pieces removed by attacks (as the
/// viewer knows them).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SiguoState {
    /// The position (the viewer's: unknown kinds are `?`).
    pub pos: Position,
    /// Moves and attacks since the deployment.
    pub ply: u32,
    /// Pieces removed by attacks.
    pub removed: Vec<Piece>,
}

impl SiguoState {
    /// The empty board before the deployment, the first seat to move.
    pub fn start(rules: SiguoRules) -> SiguoState {
        SiguoState { pos: Position::empty(rules, rules.first_seat), ply: 0, removed: Vec::new() }
    }

    /// The position string.
    pub fn setup(&self) -> SiguoSetup {
        let mut out: Vec<Seat> = Seat::ALL.into_iter().filter(|&s| self.pos.is_out(s)).collect();
        out.sort_by_key(|&s| self.pos.out_order(s));
        SiguoSetup {
            cells: Point::all().map(|p| self.pos.cell(p)).collect(),
            side: self.pos.side_to_move(),
            quiet: self.pos.quiet(),
            ply: self.ply,
            removed: self.removed.clone(),
            out,
        }
    }

    /// Takes in a history token (see [`Position::apply_token`]), counting
    /// the ply and the pieces an attack removes (named when the token or
    /// the view names them).
    ///
    /// # Errors
    /// [`ApplyError`]; the state is then unchanged.
    pub fn apply(&mut self, token: SiguoToken) -> Result<(), ApplyError> {
        let mut lost = Vec::new();
        if let SiguoToken::Attack { from, to, outcome, loser } = token {
            let (a, d) = (self.pos.cell(from), self.pos.cell(to));
            use crate::combat::Outcome::*;
            match outcome {
                AttackerWins => lost.extend(loser.or(d)),
                DefenderWins => lost.extend(loser.or(a)),
                BothRemoved => lost.extend(a.into_iter().chain(d)),
            }
        }
        self.pos.apply_token(token)?;
        if token.is_ply() {
            self.ply += 1;
        }
        self.removed.extend(lost);
        Ok(())
    }

    /// Whether nothing is deployed yet: an empty board before any ply.
    pub fn not_deployed(&self) -> bool {
        self.ply == 0 && self.pos.occupied().is_empty()
    }
}

impl fmt::Display for SiguoState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.setup())
    }
}

impl SiguoSetup {
    /// The game state this string describes under `rules`, checked as
    /// protocol.md says (*Four-player position string*).
    ///
    /// # Errors
    /// The first rule the string breaks.
    pub fn state(&self, rules: SiguoRules) -> Result<SiguoState, SiguoSetupError> {
        let mut pos = Position::empty(rules, self.side);
        for &s in &self.out {
            pos.eliminate(s);
        }
        let open = rules.base.mode != Mode::Classic;
        let mut counts = [[0u8; NUM_KINDS + 1]; 4];
        for p in Point::all() {
            let Some(pc) = self.cells[p.index()] else { continue };
            if pos.is_out(pc.seat) {
                return Err(SiguoSetupError::SeatOutOnBoard(p));
            }
            if open && pc.kind.is_none() {
                return Err(SiguoSetupError::UnknownKind(p));
            }
            let home = Region::Arm(pc.seat) == p.region();
            let back_two = home && p.rank() <= 2;
            match pc.kind {
                Some(Kind::Flag) if !(home && HQS.contains(p)) => return Err(SiguoSetupError::Immovable(p, pc)),
                Some(Kind::Mine) if !back_two => return Err(SiguoSetupError::Immovable(p, pc)),
                _ => {}
            }
            pos.put(p, Some(pc));
        }
        for &pc in self.cells.iter().flatten().chain(&self.removed) {
            if open && pc.kind.is_none() {
                return Err(SiguoSetupError::UnknownRemoved(pc));
            }
            let n = &mut counts[pc.seat.index()][pc.kind.map_or(NUM_KINDS, Kind::index)];
            *n += 1;
            if let Some(k) = pc.kind.filter(|k| *n > k.count()) {
                return Err(SiguoSetupError::TooMany(Piece::new(pc.seat, Some(k)), *n));
            }
        }
        let empty_start = self.ply == 0 && self.removed.is_empty() && pos.occupied().is_empty();
        for s in Seat::ALL.into_iter().filter(|&s| !pos.is_out(s)) {
            let total: u8 = counts[s.index()].iter().sum();
            if total != PIECES_PER_SIDE && !empty_start {
                return Err(SiguoSetupError::Total(s, total));
            }
        }
        if self.ply == 0 && !empty_start {
            self.check_deployments(&pos)?;
        }
        if u32::from(self.quiet) > self.ply {
            return Err(SiguoSetupError::Quiet(self.quiet, self.ply));
        }
        pos.set_quiet(self.quiet);
        let over = pos.team_out(super::Team::SouthNorth) || pos.team_out(super::Team::EastWest);
        if pos.is_out(self.side) && !over {
            return Err(SiguoSetupError::SideOut(self.side));
        }
        Ok(SiguoState { pos, ply: self.ply, removed: self.removed.clone() })
    }

    /// At ply 0: nothing removed, nobody out, every piece in its own arm
    /// off the camps, and each arm whose kinds are all known a legal
    /// deployment under the two-player rules.
    fn check_deployments(&self, pos: &Position) -> Result<(), SiguoSetupError> {
        if !self.removed.is_empty() {
            return Err(SiguoSetupError::NotAStart("nothing has been removed"));
        }
        if !self.out.is_empty() {
            return Err(SiguoSetupError::NotAStart("no seat is out"));
        }
        for s in Seat::ALL {
            let mut placed = Vec::new();
            for p in pos.pieces(s) {
                let pc = pos.cell(p).unwrap_or(Piece::new(s, None));
                if p.region() != Region::Arm(s) {
                    return Err(SiguoSetupError::OutsideArm(p, pc));
                }
                let Some(q) = red_of_arm(p) else { continue };
                if CAMPS.contains(p) {
                    let e = DeploymentError::InCamp(q);
                    return Err(SiguoSetupError::Deployment(s, deployment_error_text(s, &e)));
                }
                if let Some(kind) = pc.kind {
                    placed.push((q, crate::piece::Piece::new(Colour::Red, kind)));
                }
            }
            if placed.len() == pos.pieces(s).count() as usize {
                Deployment::new(Colour::Red, &placed)
                    .map_err(|e| SiguoSetupError::Deployment(s, deployment_error_text(s, &e)))?;
            }
        }
        Ok(())
    }
}

/// The board drawn by `d`: the grid of RULES-4P.md §1.4, each point four
/// characters wide (`  sM`, `  e?`, an empty camp `  ()`, an empty HQ
/// `  []`, an empty post `   .`), then the position string, the seat to
/// move, the rules, the seats out and why, the pieces removed, and whether
/// the game is over or not yet deployed.
pub fn siguo_board_text(state: &SiguoState) -> String {
    let pos = &state.pos;
    let mut cells = vec![vec![String::from("    "); GRID]; GRID];
    for p in Point::all() {
        let (x, y) = grid_xy(p);
        cells[y][x] = match pos.cell(p) {
            Some(pc) => format!("  {}", piece_text(pc)),
            None if CAMPS.contains(p) => "  ()".to_owned(),
            None if HQS.contains(p) => "  []".to_owned(),
            None => "   .".to_owned(),
        };
    }
    let mut s = String::new();
    for row in cells {
        let line: String = row.concat();
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s.push_str(&format!("fen {state}\n"));
    s.push_str(&format!("side to move: {}\n", pos.side_to_move()));
    let r = pos.settings();
    s.push_str(&format!(
        "rules: {} (quiet limit {}, first seat {}, partner visible {}, centre transit only {}, own camps only {})\n",
        if r.base.mode == Mode::Classic { "siguo" } else { "siguo-open" },
        r.quiet_limit,
        r.first_seat,
        r.partner_visible,
        r.centre_transit_only,
        r.own_camps_only
    ));
    let mut out: Vec<Seat> = Seat::ALL.into_iter().filter(|&s| pos.is_out(s)).collect();
    out.sort_by_key(|&s| pos.out_order(s));
    if !out.is_empty() {
        let list: Vec<String> = out
            .iter()
            .map(|&seat| match pos.out_reason(seat) {
                Some(reason) if reason != OutReason::Given => format!("{seat} ({})", reason.name()),
                _ => seat.to_string(),
            })
            .collect();
        s.push_str(&format!("out: {}\n", list.join(" ")));
    }
    if state.not_deployed() {
        s.push_str("not deployed yet: the board is empty (go setup for each seat, then position fen)\n");
    } else if let Some(result) = pos.outcome() {
        s.push_str(&format!("game over: {result}\n"));
    }
    s
}
