//! Other views of a position: another side to move, what one side sees of
//! the enemy in `classic`, and removed pieces forgotten or named.

use crate::board::Bitboard;
use crate::piece::{Colour, Piece};

use super::cell::slot;
use super::{Position, UNKNOWN_SLOT};

impl Position {
    /// The same position with `side` to move (a null move, for asking what
    /// the other side threatens). Counters are unchanged.
    pub fn with_side_to_move(&self, side: Colour) -> Position {
        let mut p = self.clone();
        p.side = Some(side);
        p
    }

    /// What `viewer` sees of this position in `classic`: the enemy's pieces
    /// on the board with their kinds hidden, except where `keep` says the
    /// kind is known. Removed pieces keep their kinds (the caller decides
    /// what the viewer learned about them).
    pub fn hide_enemy(&self, viewer: Colour, keep: Bitboard) -> Position {
        let mut view = self.clone();
        let enemy = viewer.opposite();
        for p in self.by_colour[enemy.index()] - keep {
            view.take(p);
            view.put(p, Piece::unknown(enemy));
        }
        view
    }

    /// Moves the removed-piece record of `piece` to "unknown kind" (what a
    /// viewer who never learned its identity knows).
    pub fn forget_removed(&mut self, piece: Piece) {
        let ci = piece.colour.index();
        let s = slot(piece.kind);
        if s != UNKNOWN_SLOT && self.removed[ci][s] > 0 {
            self.removed[ci][s] -= 1;
            self.removed[ci][UNKNOWN_SLOT] += 1;
        }
    }

    /// The inverse of [`Position::forget_removed`]: one removed piece of
    /// `piece`'s colour and unknown kind is recorded as `piece` (a world
    /// sampled for a `classic` view names every removed piece).
    pub fn name_removed(&mut self, piece: Piece) {
        let ci = piece.colour.index();
        let s = slot(piece.kind);
        if s != UNKNOWN_SLOT && self.removed[ci][UNKNOWN_SLOT] > 0 {
            self.removed[ci][UNKNOWN_SLOT] -= 1;
            self.removed[ci][s] += 1;
        }
    }
}
