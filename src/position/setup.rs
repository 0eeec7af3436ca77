//! Positions from parsed position strings: the [`Setup`], its validation
//! against the rules ([`PositionError`]) and the way back.

use std::fmt;

use crate::board::Point;
use crate::board::topology::{BACK_TWO_RANKS, CAMPS, FRONT_RANK, HALVES, NUM_POINTS, OWN_HQS};
use crate::piece::{Colour, Kind, PIECES_PER_SIDE, Piece};
use crate::rules::{Mode, Rules};

use super::cell::{FACEDOWN_CODE, slot};
use super::{Cell, Position, SLOTS, UNKNOWN_SLOT};

/// A position as written in a position string, before validation.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// The 60 cells, by point index.
    pub cells: [Cell; NUM_POINTS],
    /// Side to move; `None` before the first flip of a `flip` game.
    pub side: Option<Colour>,
    /// Consecutive plies without a flip or a removal.
    pub quiet: u16,
    /// Plies played since the start.
    pub ply: u32,
    /// Pieces removed from the board.
    pub removed: Vec<Piece>,
}

/// Why a position string was rejected by the rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// A face-down piece outside `flip`.
    FaceDownOutsideFlip(Point),
    /// A face-down piece on a camp (pieces are never dealt there and never move face down).
    FaceDownInCamp(Point),
    /// A piece of unknown kind where every piece is shown.
    UnknownKind(Point, Mode),
    /// A removed piece of unknown kind where every piece is shown.
    UnknownRemoved(Piece, Mode),
    /// More pieces of a kind than a side has.
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many the position accounts for (board and removed).
        found: u8,
    },
    /// A side's pieces on board and removed do not add up to 25.
    WrongTotal {
        /// The side.
        colour: Colour,
        /// How many it has on board and removed.
        found: u8,
    },
    /// In `flip`, the face-down pieces and the pieces not accounted for differ.
    FaceDownCount {
        /// Face-down pieces on the board.
        found: u32,
        /// Pieces neither face up nor removed.
        expected: u32,
    },
    /// Side `-` outside `flip`, or after the first flip.
    SideUnassigned,
    /// A flag outside its side's headquarters (`classic`, `open`).
    FlagOutsideHq(Point),
    /// A landmine outside its side's last two ranks (`classic`, `open`).
    MineOutsideBackRanks(Point),
    /// At ply 0: a piece on a camp.
    StartInCamp(Point),
    /// At ply 0: a piece outside its side's half (`classic`, `open`).
    StartOutsideHalf(Point),
    /// At ply 0: a bomb on its side's front rank (`classic`, `open`).
    StartBombFrontRank(Point),
    /// At ply 0: removed pieces.
    StartRemoved,
    /// The quiet counter exceeds the ply count.
    QuietAbovePly,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::FaceDownOutsideFlip(p) => {
                write!(f, "face-down piece at {p}: only flip has face-down pieces")
            }
            PositionError::FaceDownInCamp(p) => write!(f, "face-down piece at {p}: camps start empty"),
            PositionError::UnknownKind(p, m) => {
                write!(f, "piece of unknown kind at {p}: {} shows every piece", m.name())
            }
            PositionError::UnknownRemoved(pc, m) => write!(f, "removed piece {pc}: {} shows every piece", m.name()),
            PositionError::TooMany { piece, found } => {
                let max = piece.kind.map_or(0, Kind::count);
                write!(f, "too many {piece}: {found} (a side has {max})")
            }
            PositionError::WrongTotal { colour, found } => {
                write!(f, "{colour} has {found} pieces on the board and removed (a side has {PIECES_PER_SIDE})")
            }
            PositionError::FaceDownCount { found, expected } => {
                write!(f, "{found} face-down pieces, but {expected} pieces are neither face up nor removed")
            }
            PositionError::SideUnassigned => {
                f.write_str("side '-' (colours not assigned) is only valid in flip before the first flip")
            }
            PositionError::FlagOutsideHq(p) => write!(f, "flag at {p} is not on its side's headquarters"),
            PositionError::MineOutsideBackRanks(p) => write!(f, "landmine at {p} is not on its side's last two ranks"),
            PositionError::StartInCamp(p) => write!(f, "piece at {p} on a camp at the start (ply 0)"),
            PositionError::StartOutsideHalf(p) => {
                write!(f, "piece at {p} outside its side's half at the start (ply 0)")
            }
            PositionError::StartBombFrontRank(p) => {
                write!(f, "bomb at {p} on its side's front rank at the start (ply 0)")
            }
            PositionError::StartRemoved => f.write_str("removed pieces at the start (ply 0)"),
            PositionError::QuietAbovePly => f.write_str("quiet-ply counter above the ply count"),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// Builds a position from a parsed position string, checking it against
    /// the rules.
    ///
    /// # Errors
    /// A [`PositionError`] saying what breaks the rules, and where.
    pub fn from_setup(setup: &Setup, rules: Rules) -> Result<Position, PositionError> {
        let mut pos = Position::blank(rules, setup.side);
        pos.quiet = setup.quiet;
        pos.ply = setup.ply;
        if u32::from(setup.quiet) > setup.ply {
            return Err(PositionError::QuietAbovePly);
        }
        let flip = rules.mode == Mode::Flip;
        for p in Point::all() {
            match setup.cells[p.index()] {
                Cell::Empty => {}
                Cell::FaceDown => {
                    if !flip {
                        return Err(PositionError::FaceDownOutsideFlip(p));
                    }
                    if CAMPS.contains(p) {
                        return Err(PositionError::FaceDownInCamp(p));
                    }
                    pos.cells[p.index()] = FACEDOWN_CODE;
                    pos.facedown.insert(p);
                }
                Cell::Piece(pc) => {
                    if pc.kind.is_none() && rules.mode != Mode::Classic {
                        return Err(PositionError::UnknownKind(p, rules.mode));
                    }
                    pos.put(p, pc);
                }
            }
        }
        for &pc in &setup.removed {
            if pc.kind.is_none() && rules.mode != Mode::Classic {
                return Err(PositionError::UnknownRemoved(pc, rules.mode));
            }
            pos.removed[pc.colour.index()][slot(pc.kind)] += 1;
        }
        // Counts per kind and per side.
        let mut unaccounted = 0u32;
        for c in Colour::BOTH {
            let mut total = 0u32;
            for k in Kind::ALL {
                let found = pos.by_kind[c.index()][k.index()].count() + u32::from(pos.removed[c.index()][k.index()]);
                if found > u32::from(k.count()) {
                    return Err(PositionError::TooMany { piece: Piece::new(c, k), found: found.min(255) as u8 });
                }
                total += found;
            }
            total += pos.by_kind[c.index()][UNKNOWN_SLOT].count() + u32::from(pos.removed[c.index()][UNKNOWN_SLOT]);
            if total > u32::from(PIECES_PER_SIDE) || (!flip && total != u32::from(PIECES_PER_SIDE)) {
                return Err(PositionError::WrongTotal { colour: c, found: total.min(255) as u8 });
            }
            unaccounted += u32::from(PIECES_PER_SIDE) - total;
        }
        if flip {
            if pos.facedown.count() != unaccounted {
                return Err(PositionError::FaceDownCount { found: pos.facedown.count(), expected: unaccounted });
            }
            for c in Colour::BOTH {
                for k in Kind::ALL {
                    pos.pool[c.index()][k.index()] =
                        k.count() - pos.by_kind[c.index()][k.index()].count() as u8 - pos.removed[c.index()][k.index()];
                }
            }
            pos.pool_distinct = pos.count_pool_distinct();
        }
        if setup.side.is_none() && (!flip || (pos.by_colour[0] | pos.by_colour[1]).any() || unaccounted != 50) {
            return Err(PositionError::SideUnassigned);
        }
        if !flip {
            for c in Colour::BOTH {
                let ci = c.index();
                if let Some(p) = (pos.by_kind[ci][Kind::Flag.index()] - OWN_HQS[ci]).first() {
                    return Err(PositionError::FlagOutsideHq(p));
                }
                if let Some(p) = (pos.by_kind[ci][Kind::Mine.index()] - BACK_TWO_RANKS[ci]).first() {
                    return Err(PositionError::MineOutsideBackRanks(p));
                }
            }
        }
        if setup.ply == 0 {
            if !setup.removed.is_empty() {
                return Err(PositionError::StartRemoved);
            }
            if let Some(p) = (pos.occupied() & CAMPS).first() {
                return Err(PositionError::StartInCamp(p));
            }
            if !flip {
                for c in Colour::BOTH {
                    let ci = c.index();
                    if let Some(p) = (pos.by_colour[ci] - HALVES[ci]).first() {
                        return Err(PositionError::StartOutsideHalf(p));
                    }
                    if let Some(p) = (pos.by_kind[ci][Kind::Bomb.index()] & FRONT_RANK[ci]).first() {
                        return Err(PositionError::StartBombFrontRank(p));
                    }
                }
            }
        }
        pos.debug_check();
        Ok(pos)
    }

    /// The position as a parsed position string.
    pub fn to_setup(&self) -> Setup {
        let mut cells = [Cell::Empty; NUM_POINTS];
        for p in Point::all() {
            cells[p.index()] = self.cell(p);
        }
        let mut removed = Vec::new();
        for c in Colour::BOTH {
            for s in 0..SLOTS {
                for _ in 0..self.removed[c.index()][s] {
                    removed.push(Piece { colour: c, kind: Kind::from_index(s) });
                }
            }
        }
        Setup { cells, side: self.side, quiet: self.quiet, ply: self.ply, removed }
    }
}
