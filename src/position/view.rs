//! Other views of a position: another side to move, what one side sees of
//! the enemy in `classic`, and removed pieces forgotten or named; and the
//! [`View`] type, what a player may know, which is all the search takes.

use std::ops::Deref;

use crate::board::Bitboard;
use crate::piece::{Colour, Kind, Piece};
use crate::rules::Mode;

use super::cell::slot;
use super::{Position, UNKNOWN_SLOT};

/// What one player may know of a game: the position as it was told to it.
/// The search takes only a `View`, so that it cannot be handed the truth by
/// mistake: a view comes from what the protocol said ([`View::told`], the
/// engine's `position` command) or from the truth through the referee's
/// hiding ([`Position::view_for`]). It reads as a [`Position`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct View(Position);

impl View {
    /// The position a player was told (a position string and history from
    /// the protocol, where `classic` enemy pieces are already of unknown
    /// kind; in `flip` and `open` everything on the board is public).
    pub fn told(pos: Position) -> View {
        View(pos)
    }

    /// The position the view reads as.
    pub fn position(&self) -> &Position {
        &self.0
    }
}

impl Deref for View {
    type Target = Position;

    fn deref(&self) -> &Position {
        &self.0
    }
}

impl Position {
    /// What `viewer` may know of this true position, as a referee tells it:
    /// in `classic` the enemy's pieces on the board and its removed pieces
    /// of unknown kind; in `flip` and `open` the position itself (its
    /// face-down identities are in the public pool, not on the board).
    pub fn view_for(&self, viewer: Colour) -> View {
        if self.rules().mode != Mode::Classic {
            return View(self.clone());
        }
        let enemy = viewer.opposite();
        let mut view = self.hide_enemy(viewer, Bitboard::EMPTY);
        for k in Kind::ALL {
            for _ in 0..view.removed_count(enemy, Some(k)) {
                view.forget_removed(Piece::new(enemy, k));
            }
        }
        View(view)
    }

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
