//! A four-seat position, as much as move generation and perft need: pieces
//! of seats S, E, N, W (kind known or not) on the 129 points, the side to
//! move, the seats already out, and a simple apply (RULES-4P.md §4 items
//! 3-5: the turn passes to the next seat still in; a captured flag takes
//! its owner's pieces off the board).
//!
//! Text form (for tests and debugging; the protocol's notation comes
//! later): `<side> <out> <piece>...`, the side to move as a seat letter,
//! the seats out as letters or `-`, then every piece as point, `:`, the
//! owner's letter in lower case and the kind (`1`..`9`, `B`, `M`, `F`, or
//! `?` when unknown), in point order: `S - Sb1:sF Sc2:s9 Ca1:e1`.

use std::fmt;
use std::str::FromStr;

use super::bitset::PointSet;
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

/// Pieces on the board, the side to move and the seats out.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    cells: [Option<Piece>; NUM_POINTS],
    seats: [PointSet; 4],
    side: Seat,
    out: [bool; 4],
    mines_removed: [u8; 4],
    rules: Rules,
}

impl Position {
    /// An empty board with `side` to move and every seat in.
    pub fn empty(rules: Rules, side: Seat) -> Position {
        Position {
            cells: [None; NUM_POINTS],
            seats: [PointSet::EMPTY; 4],
            side,
            out: [false; 4],
            mines_removed: [0; 4],
            rules,
        }
    }

    /// The start: each seat's arm holds its deployment (one side's half of
    /// the two-player board, read in that side's own terms: its back row is
    /// the arm's rank 1, its left the arm's file a), South to move.
    pub fn start(rules: Rules, deployments: &[Deployment; 4]) -> Position {
        let mut pos = Position::empty(rules, Seat::South);
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

    /// The rules in force.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
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
        self.out[seat.index()]
    }

    /// Takes `seat` out of the game and all its pieces off the board
    /// (RULES-4P.md §4 item 5).
    pub fn eliminate(&mut self, seat: Seat) {
        self.out[seat.index()] = true;
        for p in self.seats[seat.index()] {
            self.cells[p.index()] = None;
        }
        self.seats[seat.index()] = PointSet::EMPTY;
    }

    /// Whether a team has lost both its seats: the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        (self.out[0] && self.out[2]) || (self.out[1] && self.out[3])
    }

    /// Whether all three of `seat`'s landmines are gone (for the flag rule
    /// of `flip`-like settings; counted by [`Position::play_attack`] only).
    #[inline]
    pub fn mines_cleared(&self, seat: Seat) -> bool {
        self.mines_removed[seat.index()] >= Kind::Mine.count()
    }

    /// What `seat` sees in `classic`: the kinds of every other seat's
    /// pieces (partner included) unknown.
    pub fn view(&self, seat: Seat) -> Position {
        let mut v = self.clone();
        for p in self.occupied() - self.pieces(seat) {
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
        let dk = d.kind?;
        let outcome = combat(&self.rules, a, dk, self.mines_cleared(d.seat));
        Some(if a == Kind::Bomb && dk == Kind::Flag && outcome == Outcome::AttackerWins {
            Outcome::BothRemoved
        } else {
            outcome
        })
    }

    /// Moves the piece at `from` to `to` and passes the turn.
    pub fn play_move(&mut self, from: Point, to: Point) {
        let piece = self.cell(from);
        self.put(from, None);
        self.put(to, piece);
        self.pass_turn();
    }

    /// Resolves an attack from `from` on `to` with `outcome`, takes out the
    /// owner of a flag removed, and passes the turn.
    pub fn play_attack(&mut self, from: Point, to: Point, outcome: Outcome) {
        let attacker = self.cell(from);
        let defender = self.cell(to);
        self.put(from, None);
        if outcome.defender_removed() {
            self.put(to, None);
            if let Some(d) = defender {
                match d.kind {
                    Some(Kind::Mine) => {
                        let m = &mut self.mines_removed[d.seat.index()];
                        *m = m.saturating_add(1);
                    }
                    Some(Kind::Flag) => self.eliminate(d.seat),
                    _ => {}
                }
            }
        }
        if !outcome.attacker_removed() {
            self.put(to, attacker);
        }
        self.pass_turn();
    }

    /// Gives the turn to the next seat in turn order still in.
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

fn one_seat(s: &str) -> Option<Seat> {
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
    pub fn parse(text: &str, rules: Rules) -> Result<Position, PositionError> {
        let mut words = text.split_whitespace();
        let side_word = words.next().unwrap_or("");
        let side = one_seat(side_word).ok_or_else(|| PositionError::Side(side_word.to_owned()))?;
        let mut pos = Position::empty(rules, side);
        let out_word = words.next().ok_or_else(|| PositionError::Out(String::new()))?;
        if out_word != "-" {
            for c in out_word.chars() {
                let s = Seat::from_char(c).ok_or_else(|| PositionError::Out(out_word.to_owned()))?;
                pos.out[s.index()] = true;
            }
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
