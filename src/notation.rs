//! The notation every tool and GUI relies on (documented in `protocol.md`):
//! points, pieces, position strings, deployments, actions and history
//! tokens. Parsed with `nom`; every error is typed and says what is wrong
//! and where. Printing is the `Display` of each type, and [`board_text`]
//! draws a position as a board for people.

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::{take_while_m_n, take_while1};
use nom::character::complete::{anychar, char, one_of};
use nom::combinator::{map, map_opt, opt, value};
use nom::multi::many0;
use nom::{IResult, Parser};

use crate::action::{Action, Token};
use crate::board::Point;
use crate::board::topology::{CAMPS, FILES, HQS, NUM_POINTS, RANKS};
use crate::combat::Outcome;
use crate::deployment::{Deployment, DeploymentError};
use crate::piece::{Colour, Kind, Piece};
use crate::position::{Cell, Position, PositionError, Setup};
use crate::rules::Rules;

/// A syntax error in notation.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotationError {
    /// Not a point `a1`..`e12`.
    Point(String),
    /// Not a piece such as `r9`, `bF` or `r?`.
    Piece(String),
    /// Not an action (`c3`, `a4-a5`, `a6xa7`).
    Action(String),
    /// Not a history token (an action, `c3=r9`, `a6xa7+`, `a6xa7+b3`).
    Token(String),
    /// The board field does not have 12 ranks.
    RankCount(usize),
    /// A rank does not describe exactly 5 points.
    RankWidth {
        /// The board rank (1..=12).
        rank: u8,
        /// How many points it described.
        points: usize,
    },
    /// An unexpected character in a rank.
    RankChar {
        /// The board rank (1..=12).
        rank: u8,
        /// 1-based position of the character within the rank's text.
        column: usize,
        /// The character.
        found: char,
    },
    /// A field of the position string is missing.
    Missing(&'static str),
    /// The side to move is not `r`, `b` or `-`.
    Side(String),
    /// A counter is not a number in range.
    Number {
        /// Which counter.
        field: &'static str,
        /// What was there.
        found: String,
    },
    /// The removed-pieces field is malformed.
    Removed(String),
    /// Extra text after the last field.
    Trailing(String),
    /// A deployment does not have six ranks.
    DeploymentRanks(usize),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Point(s) => write!(f, "bad point '{s}' (expected a1..e12)"),
            NotationError::Piece(s) => write!(f, "bad piece '{s}' (expected r or b, then 1-9, B, M, F or ?)"),
            NotationError::Action(s) => write!(f, "bad action '{s}' (expected c3, a4-a5 or a6xa7)"),
            NotationError::Token(s) => write!(f, "bad history token '{s}'"),
            NotationError::RankCount(n) => write!(f, "bad board: {n} ranks, expected 12 separated by '/'"),
            NotationError::RankWidth { rank, points } => write!(f, "bad rank {rank}: {points} points"),
            NotationError::RankChar { rank, column, found } => {
                write!(f, "bad rank {rank}: unexpected '{found}' at character {column}")
            }
            NotationError::Missing(field) => write!(f, "missing {field}"),
            NotationError::Side(s) => write!(f, "bad side to move '{s}' (expected r, b or -)"),
            NotationError::Number { field, found } => write!(f, "bad {field} '{found}'"),
            NotationError::Removed(s) => write!(f, "bad removed pieces '{s}' (expected pieces such as r9bM, or -)"),
            NotationError::Trailing(s) => write!(f, "unexpected '{s}' after the position"),
            NotationError::DeploymentRanks(n) => write!(f, "bad deployment: {n} ranks, expected 6 separated by '/'"),
        }
    }
}

impl std::error::Error for NotationError {}

/// A position string that is malformed or breaks the rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionStringError {
    /// Malformed.
    Notation(NotationError),
    /// Well formed but impossible under the rules.
    Rules(PositionError),
}

impl fmt::Display for PositionStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionStringError::Notation(e) => e.fmt(f),
            PositionStringError::Rules(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionStringError {}

/// A deployment string that is malformed or illegal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DeploymentStringError {
    /// Malformed.
    Notation(NotationError),
    /// Well formed but illegal.
    Rules(DeploymentError),
}

impl fmt::Display for DeploymentStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeploymentStringError::Notation(e) => e.fmt(f),
            DeploymentStringError::Rules(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for DeploymentStringError {}

type Res<'a, T> = IResult<&'a str, T>;

fn colour(i: &str) -> Res<'_, Colour> {
    map_opt(anychar, Colour::from_char).parse(i)
}

fn kind(i: &str) -> Res<'_, Kind> {
    map_opt(anychar, Kind::from_char).parse(i)
}

fn kind_or_unknown(i: &str) -> Res<'_, Option<Kind>> {
    alt((value(None, char('?')), map(kind, Some))).parse(i)
}

fn piece(i: &str) -> Res<'_, Piece> {
    map((colour, kind_or_unknown), |(colour, kind)| Piece { colour, kind }).parse(i)
}

fn known_piece(i: &str) -> Res<'_, Piece> {
    map((colour, kind), |(c, k)| Piece::new(c, k)).parse(i)
}

fn point(i: &str) -> Res<'_, Point> {
    map_opt((one_of("abcde"), take_while_m_n(1, 2, |c: char| c.is_ascii_digit())), |(file, rank): (char, &str)| {
        if rank.starts_with('0') {
            return None;
        }
        let r: u8 = rank.parse().ok()?;
        Point::new(file as u8 - b'a', r.checked_sub(1)?)
    })
    .parse(i)
}

/// One item of a rank: a run of empty points, a face-down piece or a piece.
#[derive(Clone, Copy)]
enum RankItem {
    Empty(usize),
    Cell(Cell),
}

fn rank_item(i: &str) -> Res<'_, RankItem> {
    alt((
        map(one_of("12345"), |c| RankItem::Empty(c as usize - '0' as usize)),
        value(RankItem::Cell(Cell::FaceDown), char('?')),
        map(piece, |p| RankItem::Cell(Cell::Piece(p))),
    ))
    .parse(i)
}

/// Runs `parser` on the whole of `s`, mapping any failure to `err`.
fn whole<'a, T>(
    mut parser: impl Parser<&'a str, Output = T, Error = nom::error::Error<&'a str>>,
    s: &'a str,
    err: impl FnOnce() -> NotationError,
) -> Result<T, NotationError> {
    match parser.parse(s) {
        Ok(("", v)) => Ok(v),
        _ => Err(err()),
    }
}

/// Parses one rank's text into its five cells. `rank` is the board rank
/// (1..=12), used in errors.
fn parse_rank(text: &str, rank: u8) -> Result<[Cell; FILES as usize], NotationError> {
    let (rest, items) = many0(rank_item).parse(text).map_err(|_| NotationError::RankWidth { rank, points: 0 })?;
    if let Some(found) = rest.chars().next() {
        return Err(NotationError::RankChar {
            rank,
            column: text[..text.len() - rest.len()].chars().count() + 1,
            found,
        });
    }
    let mut cells = Vec::with_capacity(FILES as usize);
    for item in items {
        match item {
            RankItem::Empty(n) => cells.extend(std::iter::repeat_n(Cell::Empty, n)),
            RankItem::Cell(c) => cells.push(c),
        }
    }
    <[Cell; FILES as usize]>::try_from(cells.as_slice())
        .map_err(|_| NotationError::RankWidth { rank, points: cells.len() })
}

/// Writes cells as rank text: pieces, `?` and digits for runs of empties.
fn write_rank(f: &mut impl fmt::Write, cells: impl Iterator<Item = Cell>) -> fmt::Result {
    let mut empties = 0;
    for c in cells {
        if c == Cell::Empty {
            empties += 1;
            continue;
        }
        if empties > 0 {
            write!(f, "{empties}")?;
            empties = 0;
        }
        match c {
            Cell::FaceDown => f.write_char('?')?,
            Cell::Piece(p) => write!(f, "{p}")?,
            Cell::Empty => {}
        }
    }
    if empties > 0 {
        write!(f, "{empties}")?;
    }
    Ok(())
}

fn rank_cells(cells: &[Cell; NUM_POINTS], rank: u8) -> impl Iterator<Item = Cell> + '_ {
    (0..FILES).filter_map(move |f| Point::new(f, rank)).map(|p| cells[p.index()])
}

/// Parses a point such as `c3` or `e12`.
///
/// # Errors
/// [`NotationError::Point`].
pub fn parse_point(s: &str) -> Result<Point, NotationError> {
    whole(point, s, || NotationError::Point(s.to_owned()))
}

/// Parses a piece such as `r9`, `bF` or `b?`.
///
/// # Errors
/// [`NotationError::Piece`].
pub fn parse_piece(s: &str) -> Result<Piece, NotationError> {
    whole(piece, s, || NotationError::Piece(s.to_owned()))
}

fn action(i: &str) -> Res<'_, Action> {
    map((point, opt((one_of("-x"), point))), |(from, rest)| match rest {
        None => Action::flip(from),
        Some(('-', to)) => Action::moving(from, to),
        Some((_, to)) => Action::attack(from, to),
    })
    .parse(i)
}

/// Parses an action: a flip `c3`, a move `a4-a5` or an attack `a6xa7`.
///
/// # Errors
/// [`NotationError::Action`].
pub fn parse_action(s: &str) -> Result<Action, NotationError> {
    whole(action, s, || NotationError::Action(s.to_owned()))
}

/// The referee's verdict on an attack: `+` or `-` optionally naming the
/// loser, or `=`.
fn verdict(i: &str) -> Res<'_, (Outcome, Option<Piece>)> {
    alt((
        map_opt((one_of("+-"), opt(known_piece)), |(c, loser)| Outcome::from_char(c).map(|o| (o, loser))),
        value((Outcome::BothRemoved, None), char('=')),
    ))
    .parse(i)
}

fn token(i: &str) -> Res<'_, Token> {
    alt((
        map((point, char('='), piece), |(at, _, piece)| Token::Show { at, piece }),
        map((point, char('x'), point, verdict), |(from, _, to, (outcome, loser))| Token::Attack {
            from,
            to,
            outcome,
            loser,
        }),
        map(action, Token::Action),
    ))
    .parse(i)
}

/// Parses a history token: an action, a flip with what it showed (`c3=r9`),
/// a reveal (`d12=bF`), an attack with its outcome (`a6xa7+`, `a6xa7-`,
/// `a6xa7=`) and optionally the loser's piece after `+` or `-` (`a6xa7+b3`).
///
/// # Errors
/// [`NotationError::Token`].
pub fn parse_token(s: &str) -> Result<Token, NotationError> {
    whole(token, s, || NotationError::Token(s.to_owned()))
}

fn field(i: &str) -> Res<'_, &str> {
    take_while1(|c: char| !c.is_whitespace()).parse(i)
}

fn fields(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s.trim_start();
    while let Ok((r, f)) = field(rest) {
        out.push(f);
        rest = r.trim_start();
    }
    out
}

/// Parses the board field: 12 ranks from rank 12 down to rank 1.
fn parse_board(text: &str) -> Result<[Cell; NUM_POINTS], NotationError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != RANKS as usize {
        return Err(NotationError::RankCount(ranks.len()));
    }
    let mut cells = [Cell::Empty; NUM_POINTS];
    for (row, body) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - row as u8;
        for (f, c) in parse_rank(body, rank + 1)?.into_iter().enumerate() {
            if let Some(p) = Point::new(f as u8, rank) {
                cells[p.index()] = c;
            }
        }
    }
    Ok(cells)
}

fn number<T: std::str::FromStr>(s: &str, field: &'static str) -> Result<T, NotationError> {
    let digits =
        whole(take_while1(|c: char| c.is_ascii_digit()), s, || NotationError::Number { field, found: s.to_owned() })?;
    digits.parse().map_err(|_| NotationError::Number { field, found: s.to_owned() })
}

/// Parses a position string into its parts, without checking them against
/// the rules: `<board> <side> <quiet> <ply> <removed>`.
///
/// # Errors
/// A [`NotationError`] saying which field is wrong.
pub fn parse_setup(s: &str) -> Result<Setup, NotationError> {
    let f = fields(s);
    let get = |i: usize, name: &'static str| f.get(i).copied().ok_or(NotationError::Missing(name));
    let cells = parse_board(get(0, "board")?)?;
    let side_text = get(1, "side to move")?;
    let side = match side_text {
        "r" => Some(Colour::Red),
        "b" => Some(Colour::Blue),
        "-" => None,
        other => return Err(NotationError::Side(other.to_owned())),
    };
    let quiet = number(get(2, "quiet-ply counter")?, "quiet-ply counter")?;
    let ply = number(get(3, "ply count")?, "ply count")?;
    let removed_text = get(4, "removed pieces")?;
    let removed = if removed_text == "-" {
        Vec::new()
    } else {
        whole(many0(piece), removed_text, || NotationError::Removed(removed_text.to_owned()))?
    };
    if removed.is_empty() && removed_text != "-" {
        return Err(NotationError::Removed(removed_text.to_owned()));
    }
    if f.len() > 5 {
        return Err(NotationError::Trailing(f[5..].join(" ")));
    }
    Ok(Setup { cells, side, quiet, ply, removed })
}

/// Parses a position string and checks it against `rules`.
///
/// # Errors
/// [`PositionStringError`]: malformed, or impossible under the rules.
pub fn parse_position(s: &str, rules: Rules) -> Result<Position, PositionStringError> {
    let setup = parse_setup(s).map_err(PositionStringError::Notation)?;
    Position::from_setup(&setup, rules).map_err(PositionStringError::Rules)
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..RANKS).rev() {
            write_rank(f, rank_cells(&self.cells, rank))?;
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = match self.side {
            Some(c) => c.to_char(),
            None => '-',
        };
        write!(f, " {side} {} {} ", self.quiet, self.ply)?;
        if self.removed.is_empty() { f.write_str("-") } else { self.removed.iter().try_for_each(|p| write!(f, "{p}")) }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_setup().fmt(f)
    }
}

/// The ranks of `colour`'s half in printing order (Red 6..1, Blue 12..7), 0-based.
fn deployment_ranks(colour: Colour) -> [u8; 6] {
    match colour {
        Colour::Red => [5, 4, 3, 2, 1, 0],
        Colour::Blue => [11, 10, 9, 8, 7, 6],
    }
}

/// Parses a deployment of `colour`: its six ranks in position-string rank
/// syntax, in printing order (Red: ranks 6 down to 1; Blue: 12 down to 7),
/// separated by `/`, camps as empty.
///
/// # Errors
/// [`DeploymentStringError`]: malformed or illegal.
pub fn parse_deployment(s: &str, colour: Colour) -> Result<Deployment, DeploymentStringError> {
    let s = s.trim();
    let ranks: Vec<&str> = s.split('/').collect();
    if ranks.len() != 6 {
        return Err(DeploymentStringError::Notation(NotationError::DeploymentRanks(ranks.len())));
    }
    let mut placed = Vec::with_capacity(25);
    for (body, rank) in ranks.iter().zip(deployment_ranks(colour)) {
        let cells = parse_rank(body, rank + 1).map_err(DeploymentStringError::Notation)?;
        for (f, c) in cells.into_iter().enumerate() {
            let Some(p) = Point::new(f as u8, rank) else { continue };
            match c {
                Cell::Empty => {}
                Cell::FaceDown => {
                    return Err(DeploymentStringError::Rules(DeploymentError::UnknownKind(p)));
                }
                Cell::Piece(pc) => placed.push((p, pc)),
            }
        }
    }
    Deployment::new(colour, &placed).map_err(DeploymentStringError::Rules)
}

impl fmt::Display for Deployment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let colour = self.colour();
        for (i, rank) in deployment_ranks(colour).into_iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            let cells = (0..FILES).filter_map(|file| Point::new(file, rank)).map(|p| match self.kind_at(p) {
                Some(k) if !CAMPS.contains(p) => Cell::Piece(Piece::new(colour, k)),
                _ => Cell::Empty,
            });
            write_rank(f, cells)?;
        }
        Ok(())
    }
}

/// The board drawn in text, with the position string, the side to move,
/// the rules and (in `flip`) the face-down pool.
pub fn board_text(pos: &Position) -> String {
    let mut s = String::from("     a   b   c   d   e\n");
    for rank in (0..RANKS).rev() {
        s.push_str(&format!("{:>3} ", rank + 1));
        for file in 0..5 {
            let Some(p) = Point::new(file, rank) else { continue };
            let cell = match pos.cell(p) {
                Cell::Empty if CAMPS.contains(p) => "()".to_owned(),
                Cell::Empty if HQS.contains(p) => "[]".to_owned(),
                Cell::Empty => " .".to_owned(),
                Cell::FaceDown => " ?".to_owned(),
                Cell::Piece(pc) => pc.to_string(),
            };
            s.push_str(&format!(" {cell} "));
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
    }
    s.push_str(&format!("fen {pos}\n"));
    let side = match pos.side_to_move() {
        Some(c) => format!("side to move: {c}"),
        None => "side to move: not assigned (the first flip decides)".to_owned(),
    };
    s.push_str(&side);
    s.push('\n');
    let r = pos.rules();
    s.push_str(&format!(
        "rules: {} (quiet limit {}, {})\n",
        r.variant().map_or_else(|| format!("{} with toggles", r.mode.name()), |v| v.name().to_owned()),
        r.quiet_limit,
        r.quiet_result.name()
    ));
    if pos.facedown().any() {
        let mut pool = String::new();
        for c in Colour::BOTH {
            for k in Kind::ALL {
                let n = pos.pool_count(c, k);
                if n > 0 {
                    pool.push_str(&format!(" {}{}x{n}", c.to_char(), k.to_char()));
                }
            }
        }
        s.push_str(&format!("face-down pool ({}):{pool}\n", pos.facedown().count()));
    }
    if r.has_deployment() && pos.occupied().is_empty() {
        // Not a game without actions: one that has not begun.
        s.push_str("not deployed yet: the board is empty (go setup, then position fen)\n");
    } else if let Some(result) = pos.outcome() {
        s.push_str(&format!("game over: {result}\n"));
    }
    s
}
