//! What stands on a point, and its packed one-byte code in a position;
//! placing and lifting a face-up piece keep the codes and the bitboards in step.

use crate::board::Point;
use crate::piece::{Colour, Kind, NUM_KINDS, Piece};

use super::Position;

/// Index used for "kind unknown" in per-kind tables.
pub const UNKNOWN_SLOT: usize = NUM_KINDS;
/// Per-kind table width: the twelve kinds and "unknown".
pub const SLOTS: usize = NUM_KINDS + 1;

/// What stands on a point.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A face-down piece: colour and kind unknown (`?`).
    FaceDown,
    /// A piece of known colour; its kind may be unknown (`r?`).
    Piece(Piece),
}

impl Cell {
    /// The piece, if the cell holds a face-up one.
    pub const fn piece(self) -> Option<Piece> {
        match self {
            Cell::Piece(p) => Some(p),
            _ => None,
        }
    }
}

pub(super) const EMPTY_CODE: u8 = 0;
pub(super) const FACEDOWN_CODE: u8 = 1;

#[inline]
pub(super) const fn slot(kind: Option<Kind>) -> usize {
    match kind {
        Some(k) => k as usize,
        None => UNKNOWN_SLOT,
    }
}

#[inline]
const fn encode(p: Piece) -> u8 {
    2 + (p.colour as u8) * SLOTS as u8 + slot(p.kind) as u8
}

#[inline]
pub(super) const fn decode(code: u8) -> Cell {
    match code {
        EMPTY_CODE => Cell::Empty,
        FACEDOWN_CODE => Cell::FaceDown,
        _ => {
            let v = (code - 2) as usize;
            Cell::Piece(Piece { colour: Colour::from_index(v / SLOTS), kind: Kind::from_index(v % SLOTS) })
        }
    }
}

impl Position {
    #[inline]
    pub(super) fn put(&mut self, p: Point, pc: Piece) {
        self.cells[p.index()] = encode(pc);
        self.by_colour[pc.colour.index()].insert(p);
        self.by_kind[pc.colour.index()][slot(pc.kind)].insert(p);
    }

    #[inline]
    pub(super) fn take(&mut self, p: Point) -> Piece {
        let code = self.cells[p.index()];
        debug_assert!(code >= 2, "no face-up piece at {p}");
        let v = (code - 2) as usize;
        let (ci, s) = (v / SLOTS, v % SLOTS);
        self.cells[p.index()] = EMPTY_CODE;
        self.by_colour[ci].remove(p);
        self.by_kind[ci][s].remove(p);
        Piece { colour: Colour::from_index(ci), kind: Kind::from_index(s) }
    }
}
