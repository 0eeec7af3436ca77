//! A four-seat position: pieces of seats S, E, N, W (kind known or not) on
//! the 129 points, the side to move, the seats already out and why, the
//! quiet-ply counter, the rules; and the game flow of RULES-4P.md §4: a
//! captured flag takes its owner out with all its pieces (item 5); after
//! an action the mover and the attacked seat are taken out at once if left
//! without a legal action (items 6, 9); the turn passes to the next seat
//! still in, which is taken out in turn if it has no legal action (items 3,
//! 6, 9); a team with both seats out loses (item 8), both teams out at once
//! is a draw (item 9); the quiet limit draws (§5 row 7).
//!
//! Text form (for tests and debugging; the protocol's position string is
//! `notation::SiguoSetup`): `<side> <out> [q<quiet>] <piece>...`, the side to move as a seat letter,
//! the seats out as letters or `-`, then every piece as point, `:`, the
//! owner's letter in lower case and the kind (`1`..`9`, `B`, `M`, `F`, or
//! `?` when unknown), in point order: `S - Sb1:sF Sc2:s9 Ca1:e1`. The
//! quiet-ply count, when not 0, follows the seats out: `E - q12 Sb1:sF ...`.
//! Why a seat is out is not written (it reads back as [`OutReason::Given`]).

use std::fmt;
use std::str::FromStr;

use super::action::Action;
use super::bitset::PointSet;
use super::rules::SiguoRules;
use super::topology::{NUM_POINTS, Point, PointError, Seat};
use crate::combat::{Outcome, combat};
use crate::deployment::Deployment;
use crate::piece::{Colour, Kind};
use crate::rules::Rules;

/// A piece: its seat and, if known, its kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    /// The owner.
    pub seat: Seat,
    /// The kind, `None` when unknown (another seat's piece in a `classic` view).
    pub kind: Option<Kind>,
}

impl Piece {
    /// A piece of `seat` of this kind.
    pub const fn new(seat: Seat, kind: Option<Kind>) -> Piece {
        Piece { seat, kind }
    }
}

/// A team of two partners (RULES-4P.md §4 item 1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Team {
    /// South and North.
    SouthNorth,
    /// East and West.
    EastWest,
}

impl Team {
    /// The team of `seat`.
    pub const fn of(seat: Seat) -> Team {
        if seat.index() % 2 == 0 { Team::SouthNorth } else { Team::EastWest }
    }

    /// The two seats of the team.
    pub const fn seats(self) -> [Seat; 2] {
        match self {
            Team::SouthNorth => [Seat::South, Seat::North],
            Team::EastWest => [Seat::East, Seat::West],
        }
    }

    /// The other team.
    pub const fn other(self) -> Team {
        match self {
            Team::SouthNorth => Team::EastWest,
            Team::EastWest => Team::SouthNorth,
        }
    }

    /// The team as one of the search's two sides: South-North as Red,
    /// East-West as Blue (a team's result is both partners' result).
    pub const fn side(self) -> Colour {
        match self {
            Team::SouthNorth => Colour::Red,
            Team::EastWest => Colour::Blue,
        }
    }

    /// The name used in records: `SN` or `EW`.
    pub const fn name(self) -> &'static str {
        match self {
            Team::SouthNorth => "SN",
            Team::EastWest => "EW",
        }
    }
}

/// Why a seat is out (RULES-4P.md §4 items 5-7).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum OutReason {
    /// Its flag was captured.
    FlagCaptured,
    /// It had no legal action.
    NoLegalAction,
    /// It resigned.
    Resigned,
    /// Taken out by hand ([`Position::eliminate`], or out in a position's text).
    Given,
}

impl OutReason {
    /// The name used in records.
    pub const fn name(self) -> &'static str {
        match self {
            OutReason::FlagCaptured => "flag",
            OutReason::NoLegalAction => "noaction",
            OutReason::Resigned => "resign",
            OutReason::Given => "given",
        }
    }
}

/// Why a four-player game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SiguoEndReason {
    /// A team has both seats out; the reason the last of them went out.
    TeamOut(OutReason),
    /// The quiet-ply limit was reached (a draw).
    QuietLimit,
}

impl SiguoEndReason {
    /// The name used in records: the seat's out reason, or `quietlimit`.
    pub const fn name(self) -> &'static str {
        match self {
            SiguoEndReason::TeamOut(r) => r.name(),
            SiguoEndReason::QuietLimit => "quietlimit",
        }
    }
}

/// The result of a finished four-player game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SiguoResult {
    /// The winning team, `None` for a draw.
    pub winner: Option<Team>,
    /// Why the game ended.
    pub reason: SiguoEndReason,
}

impl fmt::Display for SiguoResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(t) => write!(f, "{} wins ({})", t.name(), self.reason.name()),
            None => write!(f, "draw ({})", self.reason.name()),
        }
    }
}

/// Why [`Position::play`] refused an action.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SiguoPlayError {
    /// The game is over.
    GameOver,
    /// Not a legal action of the side to move.
    Illegal(Action),
    /// An attack whose outcome the kinds do not decide needs the referee's.
    OutcomeNeeded(Action),
}

impl fmt::Display for SiguoPlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SiguoPlayError::GameOver => f.write_str("the game is over"),
            SiguoPlayError::Illegal(a) => write!(f, "{a} is not a legal action of the side to move"),
            SiguoPlayError::OutcomeNeeded(a) => write!(f, "attack {a} needs the referee's outcome (+, - or =)"),
        }
    }
}

impl std::error::Error for SiguoPlayError {}

/// The outcome of an `attacker` attacking a `defender` under the
/// two-player combat rules, except that a bomb meeting a flag removes both
/// (RULES-4P.md §5 row 15); `mines_cleared`: the defender's seat has lost
/// all its landmines.
pub fn siguo_combat(rules: &Rules, attacker: Kind, defender: Kind, mines_cleared: bool) -> Outcome {
    let outcome = combat(rules, attacker, defender, mines_cleared);
    if attacker == Kind::Bomb && defender == Kind::Flag && outcome == Outcome::AttackerWins {
        Outcome::BothRemoved
    } else {
        outcome
    }
}

/// Pieces on the board, the side to move, the seats out and the rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    cells: [Option<Piece>; NUM_POINTS],
    seats: [PointSet; 4],
    side: Seat,
    /// Per seat, when out: the order it went out in (1 first) and why.
    out: [Option<(u8, OutReason)>; 4],
    mines_removed: [u8; 4],
    quiet: u16,
    rules: SiguoRules,
}

impl Position {
    /// An empty board with `side` to move and every seat in.
    pub fn empty(rules: impl Into<SiguoRules>, side: Seat) -> Position {
        Position {
            cells: [None; NUM_POINTS],
            seats: [PointSet::EMPTY; 4],
            side,
            out: [None; 4],
            mines_removed: [0; 4],
            quiet: 0,
            rules: rules.into(),
        }
    }

    /// The start: each seat's arm holds its deployment (one side's half of
    /// the two-player board, read in that side's own terms: its back row is
    /// the arm's rank 1, its left the arm's file a), the rules'
    /// [`SiguoRules::first_seat`] (South by default) to move.
    pub fn start(rules: impl Into<SiguoRules>, deployments: &[Deployment; 4]) -> Position {
        let rules = rules.into();
        let mut pos = Position::empty(rules, rules.first_seat);
        for (seat, d) in Seat::ALL.into_iter().zip(deployments) {
            for (p, piece) in d.pieces() {
                let (file, rank) = match d.colour() {
                    Colour::Red => (p.file(), p.rank() + 1),
                    Colour::Blue => (4 - p.file(), 12 - p.rank()),
                };
                if let Some(q) = Point::arm(seat, file, rank) {
                    pos.put(q, Some(Piece::new(seat, piece.kind)));
                }
            }
        }
        pos
    }

    /// The two-player settings in force (mode, combat, mines, the flag).
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules.base
    }

    /// The four-player rules in force, two-player settings included.
    #[inline]
    pub fn settings(&self) -> &SiguoRules {
        &self.rules
    }

    /// Plies played since the last attack (moves only; skipped seats do
    /// not count).
    #[inline]
    pub fn quiet(&self) -> u16 {
        self.quiet
    }

    /// Sets the quiet-ply counter.
    pub fn set_quiet(&mut self, quiet: u16) {
        self.quiet = quiet;
    }

    /// What stands on `p`.
    #[inline]
    pub fn cell(&self, p: Point) -> Option<Piece> {
        self.cells[p.index()]
    }

    /// Puts `piece` (or nothing) on `p`, replacing what stood there.
    pub fn put(&mut self, p: Point, piece: Option<Piece>) {
        if let Some(old) = self.cells[p.index()] {
            self.seats[old.seat.index()].remove(p);
        }
        if let Some(new) = piece {
            self.seats[new.seat.index()].insert(p);
        }
        self.cells[p.index()] = piece;
    }

    /// The points holding pieces of `seat`.
    #[inline]
    pub fn pieces(&self, seat: Seat) -> PointSet {
        self.seats[seat.index()]
    }

    /// Every occupied point.
    #[inline]
    pub fn occupied(&self) -> PointSet {
        self.seats[0] | self.seats[1] | self.seats[2] | self.seats[3]
    }

    /// The seat to move.
    #[inline]
    pub fn side_to_move(&self) -> Seat {
        self.side
    }

    /// Sets the seat to move.
    pub fn set_side_to_move(&mut self, seat: Seat) {
        self.side = seat;
    }

    /// Whether `seat` is out of the game.
    #[inline]
    pub fn is_out(&self, seat: Seat) -> bool {
        self.out[seat.index()].is_some()
    }

    /// Why `seat` is out, if it is.
    #[inline]
    pub fn out_reason(&self, seat: Seat) -> Option<OutReason> {
        self.out[seat.index()].map(|(_, r)| r)
    }

    /// The order `seat` went out in (1 for the first seat out), if it is out.
    #[inline]
    pub fn out_order(&self, seat: Seat) -> Option<u8> {
        self.out[seat.index()].map(|(o, _)| o)
    }

    /// Takes `seat` out of the game and all its pieces off the board
    /// (RULES-4P.md §4 item 5), by hand: the turn does not move.
    pub fn eliminate(&mut self, seat: Seat) {
        self.take_out(seat, OutReason::Given);
    }

    pub(super) fn take_out(&mut self, seat: Seat, reason: OutReason) {
        if self.is_out(seat) {
            return;
        }
        let order = self.out.iter().flatten().count() as u8 + 1;
        self.out[seat.index()] = Some((order, reason));
        for p in self.seats[seat.index()] {
            self.cells[p.index()] = None;
        }
        self.seats[seat.index()] = PointSet::EMPTY;
    }

    /// Takes out every seat `truth` has out and this position has not (in
    /// `truth`'s order, for its reasons), and gives the turn to `truth`'s
    /// seat to move: a view following the game flow of a world drawn for
    /// it, where a seat may be left without an action that the view, not
    /// knowing the kinds, cannot see.
    pub fn follow_flow(&mut self, truth: &Position) {
        let mut outs: Vec<(u8, Seat, OutReason)> = Seat::ALL
            .into_iter()
            .filter(|&s| !self.is_out(s))
            .filter_map(|s| truth.out[s.index()].map(|(o, r)| (o, s, r)))
            .collect();
        outs.sort_unstable();
        for (_, seat, reason) in outs {
            self.take_out(seat, reason);
        }
        self.side = truth.side;
    }

    /// Whether a team has both its seats out.
    #[inline]
    pub fn team_out(&self, team: Team) -> bool {
        team.seats().iter().all(|&s| self.is_out(s))
    }

    /// Whether the game is over: a team out, or the quiet limit reached.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.team_out(Team::SouthNorth) || self.team_out(Team::EastWest) || self.quiet_limit_reached()
    }

    #[inline]
    fn quiet_limit_reached(&self) -> bool {
        self.rules.quiet_limit > 0 && self.quiet >= self.rules.quiet_limit
    }

    /// The result once the game is over (RULES-4P.md §4 items 8-9, §5
    /// row 7): the other team wins when a team has both seats out, the
    /// reason being why the last of them went out; both teams out is a
    /// draw; else the quiet limit draws. `None` while the game goes on.
    pub fn outcome(&self) -> Option<SiguoResult> {
        let last = |t: Team| t.seats().iter().filter_map(|s| self.out[s.index()]).max();
        match (self.team_out(Team::SouthNorth), self.team_out(Team::EastWest)) {
            (true, true) => {
                let r = last(Team::SouthNorth).max(last(Team::EastWest)).map_or(OutReason::Given, |(_, r)| r);
                Some(SiguoResult { winner: None, reason: SiguoEndReason::TeamOut(r) })
            }
            (true, false) | (false, true) => {
                let loser = if self.team_out(Team::SouthNorth) { Team::SouthNorth } else { Team::EastWest };
                let r = last(loser).map_or(OutReason::Given, |(_, r)| r);
                Some(SiguoResult { winner: Some(loser.other()), reason: SiguoEndReason::TeamOut(r) })
            }
            (false, false) if self.quiet_limit_reached() => {
                Some(SiguoResult { winner: None, reason: SiguoEndReason::QuietLimit })
            }
            (false, false) => None,
        }
    }

    /// Whether all three of `seat`'s landmines are gone (for the flag rule
    /// of `flip`-like settings; counted by [`Position::play_attack`] only).
    #[inline]
    pub fn mines_cleared(&self, seat: Seat) -> bool {
        self.mines_removed[seat.index()] >= Kind::Mine.count()
    }

    /// Counts one more landmine of `seat` removed.
    pub(super) fn count_mine_removed(&mut self, seat: Seat) {
        let m = &mut self.mines_removed[seat.index()];
        *m = m.saturating_add(1);
    }

    /// What `seat` sees in `classic`: the kinds of every other seat's
    /// pieces unknown, the partner's included unless
    /// [`SiguoRules::partner_visible`] (RULES-4P.md §5 row 6).
    pub fn view(&self, seat: Seat) -> Position {
        let mut v = self.clone();
        let mut seen = self.pieces(seat);
        if self.rules.partner_visible {
            seen |= self.pieces(seat.partner());
        }
        for p in self.occupied() - seen {
            if let Some(pc) = v.cells[p.index()].as_mut() {
                pc.kind = None;
            }
        }
        v
    }

    /// Whether any piece on the board is of unknown kind.
    pub fn has_hidden_kinds(&self) -> bool {
        self.cells.iter().flatten().any(|pc| pc.kind.is_none())
    }

    /// The outcome of the piece at `from` attacking the piece at `to`
    /// under the two-player combat rules, except that a bomb meeting a flag
    /// removes both (RULES-4P.md §5 row 15); `None` unless both are there
    /// with known kinds.
    pub fn attack_outcome(&self, from: Point, to: Point) -> Option<Outcome> {
        let a = self.cell(from)?.kind?;
        let d = self.cell(to)?;
        Some(siguo_combat(&self.rules.base, a, d.kind?, self.mines_cleared(d.seat)))
    }

    /// Moves the piece at `from` to `to` and runs the game flow (RULES-4P.md
    /// §4 item 9): the mover is taken out if left without a legal action,
    /// then the turn passes on. No legality check.
    pub fn play_move(&mut self, from: Point, to: Point) {
        let piece = self.cell(from);
        let mover = piece.map_or(self.side, |p| p.seat);
        self.put(from, None);
        self.put(to, piece);
        self.quiet = self.quiet.saturating_add(1);
        self.after_action(mover, None);
    }

    /// Resolves an attack from `from` on `to` with `outcome` and runs the
    /// game flow (RULES-4P.md §4 item 9): the owner of a flag removed is
    /// taken out, then the mover and the attacked seat if left without a
    /// legal action, then the turn passes on. No legality check.
    pub fn play_attack(&mut self, from: Point, to: Point, outcome: Outcome) {
        let attacker = self.cell(from);
        let defender = self.cell(to);
        let mover = attacker.map_or(self.side, |p| p.seat);
        self.put(from, None);
        if outcome.defender_removed() {
            self.put(to, None);
        }
        if !outcome.attacker_removed() {
            self.put(to, attacker);
        }
        self.quiet = 0;
        if outcome.defender_removed() {
            if let Some(d) = defender {
                match d.kind {
                    Some(Kind::Mine) => {
                        let m = &mut self.mines_removed[d.seat.index()];
                        *m = m.saturating_add(1);
                    }
                    Some(Kind::Flag) => self.take_out(d.seat, OutReason::FlagCaptured),
                    _ => {}
                }
            }
        }
        self.after_action(mover, defender.map(|d| d.seat));
    }

    /// Plays `action` for the side to move after checking it is legal; an
    /// attack takes `outcome` (the referee's) or, when `None`, the outcome
    /// the two kinds decide.
    ///
    /// # Errors
    /// [`SiguoPlayError`]: the game is over, the action is not legal, or an
    /// attack's outcome is neither given nor decided by known kinds. The
    /// position is then unchanged.
    pub fn play(&mut self, action: Action, outcome: Option<Outcome>) -> Result<(), SiguoPlayError> {
        if self.is_over() {
            return Err(SiguoPlayError::GameOver);
        }
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        if !legal.contains(&action) {
            return Err(SiguoPlayError::Illegal(action));
        }
        if action.attack {
            let o = outcome
                .or_else(|| self.attack_outcome(action.from, action.to))
                .ok_or(SiguoPlayError::OutcomeNeeded(action))?;
            self.play_attack(action.from, action.to, o);
        } else {
            self.play_move(action.from, action.to);
        }
        Ok(())
    }

    /// `seat` resigns (RULES-4P.md §4 item 7), in turn or not: it is taken
    /// out with all its pieces; if it was to move, the turn passes on.
    pub fn resign(&mut self, seat: Seat) {
        if self.is_out(seat) || self.is_over() {
            return;
        }
        self.take_out(seat, OutReason::Resigned);
        if self.side == seat {
            self.advance_turn();
        }
    }

    /// RULES-4P.md §4 item 9 after the combat and the flag: the mover and
    /// the attacked seat, each checked on the position the action left,
    /// are taken out if without a legal action; then, unless the game is
    /// over, the turn passes on.
    fn after_action(&mut self, mover: Seat, attacked: Option<Seat>) {
        let stuck = [Some(mover), attacked].map(|s| s.filter(|&s| !self.is_out(s) && !self.can_act(s)));
        for s in stuck.into_iter().flatten() {
            self.take_out(s, OutReason::NoLegalAction);
        }
        self.advance_turn();
    }

    /// Passes the turn to the next seat still in, taking out each seat
    /// that has no legal action when its turn comes (RULES-4P.md §4 items
    /// 6, 9); stops once a team is out. At the quiet limit the turn still
    /// passes on, but nobody is taken out: the game is drawn.
    fn advance_turn(&mut self) {
        for _ in 0..4 {
            if self.team_out(Team::SouthNorth) || self.team_out(Team::EastWest) {
                return;
            }
            self.pass_turn();
            if self.is_out(self.side) || self.quiet_limit_reached() || self.can_act(self.side) {
                return;
            }
            let s = self.side;
            self.take_out(s, OutReason::NoLegalAction);
        }
    }

    /// Gives the turn to the next seat in turn order still in (no
    /// elimination; the game flow is in [`Position::play_move`] and
    /// [`Position::play_attack`]).
    pub fn pass_turn(&mut self) {
        for k in 1..=4 {
            let s = Seat::from_index(self.side.index() + k);
            if !self.is_out(s) {
                self.side = s;
                return;
            }
        }
    }
}

fn kind_char(k: Option<Kind>) -> char {
    k.map_or('?', Kind::to_char)
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.side)?;
        let out: String = Seat::ALL.into_iter().filter(|&s| self.is_out(s)).map(Seat::to_char).collect();
        f.write_str(if out.is_empty() { "-" } else { &out })?;
        if self.quiet > 0 {
            write!(f, " q{}", self.quiet)?;
        }
        for p in Point::all() {
            if let Some(pc) = self.cell(p) {
                write!(f, " {p}:{}{}", pc.seat.to_char().to_ascii_lowercase(), kind_char(pc.kind))?;
            }
        }
        Ok(())
    }
}

/// Why a position's text does not read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// No side to move, or not a seat letter.
    Side(String),
    /// The seats-out field is missing or holds something else than seat letters or `-`.
    Out(String),
    /// `q` not followed by a quiet-ply count (0 to 65535).
    Quiet(String),
    /// A piece token is not `<point>:<seat><kind>`.
    Token(String),
    /// A bad point in a piece token.
    Point(PointError),
    /// Two pieces on one point.
    Twice(Point),
    /// A piece of a seat that is out.
    SeatOut(Point),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Side(s) => write!(f, "'{s}': the side to move is S, E, N or W"),
            PositionError::Out(s) => write!(f, "'{s}': the seats out are seat letters, or '-' for none"),
            PositionError::Quiet(s) => write!(f, "'{s}': the quiet-ply count is q and a number from 0 to 65535"),
            PositionError::Token(s) => write!(f, "'{s}': a piece is <point>:<seat><kind>, like Sb1:sF"),
            PositionError::Point(e) => write!(f, "{e}"),
            PositionError::Twice(p) => write!(f, "{p} holds two pieces"),
            PositionError::SeatOut(p) => write!(f, "{p}: a piece of a seat that is out"),
        }
    }
}

impl std::error::Error for PositionError {}

impl From<PointError> for PositionError {
    fn from(e: PointError) -> Self {
        PositionError::Point(e)
    }
}

/// A single seat letter, either case.
pub(super) fn one_seat(s: &str) -> Option<Seat> {
    let mut c = s.chars();
    match (c.next(), c.next()) {
        (Some(ch), None) => Seat::from_char(ch),
        _ => None,
    }
}

impl Position {
    /// Reads the text form of the module documentation under `rules`.
    ///
    /// # Errors
    /// The first field that does not read, or two pieces on a point, or a
    /// piece of a seat out.
    pub fn parse(text: &str, rules: impl Into<SiguoRules>) -> Result<Position, PositionError> {
        let mut words = text.split_whitespace();
        let side_word = words.next().unwrap_or("");
        let side = one_seat(side_word).ok_or_else(|| PositionError::Side(side_word.to_owned()))?;
        let mut pos = Position::empty(rules, side);
        let out_word = words.next().ok_or_else(|| PositionError::Out(String::new()))?;
        if out_word != "-" {
            let mut listed = [false; 4];
            for c in out_word.chars() {
                let s = Seat::from_char(c).ok_or_else(|| PositionError::Out(out_word.to_owned()))?;
                listed[s.index()] = true;
            }
            // In seat order, whatever the text's: the text prints and reads back the same.
            for s in Seat::ALL.into_iter().filter(|s| listed[s.index()]) {
                pos.take_out(s, OutReason::Given);
            }
        }
        let mut words = words.peekable();
        if let Some(w) = words.next_if(|w| w.starts_with(['q', 'Q'])) {
            pos.quiet = w[1..].parse().map_err(|_| PositionError::Quiet(w.to_owned()))?;
        }
        for w in words {
            let bad = || PositionError::Token(w.to_owned());
            let (point, piece) = w.split_once(':').ok_or_else(bad)?;
            let p: Point = point.parse()?;
            let mut pc = piece.chars();
            let (Some(sc), Some(kc), None) = (pc.next(), pc.next(), pc.next()) else {
                return Err(bad());
            };
            let seat = Seat::from_char(sc).ok_or_else(bad)?;
            let kind = if kc == '?' { None } else { Some(Kind::from_char(kc).ok_or_else(bad)?) };
            if pos.cell(p).is_some() {
                return Err(PositionError::Twice(p));
            }
            if pos.is_out(seat) {
                return Err(PositionError::SeatOut(p));
            }
            pos.put(p, Some(Piece::new(seat, kind)));
        }
        Ok(pos)
    }
}

impl FromStr for Position {
    type Err = PositionError;

    /// [`Position::parse`] under `classic` rules.
    fn from_str(s: &str) -> Result<Position, PositionError> {
        Position::parse(s, Rules::CLASSIC)
    }
}
