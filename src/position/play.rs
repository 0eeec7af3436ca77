//! Playing actions without legality checks: flips, moves, attacks,
//! reveals, and the outcome of an attack between known pieces.

use crate::action::{Action, ActionKind};
use crate::board::Point;
use crate::combat::{self, Outcome};
use crate::piece::{Colour, Piece};

use super::Position;
use super::cell::{EMPTY_CODE, slot};

impl Position {
    #[inline]
    fn end_ply(&mut self, mover: Colour, quiet: bool) {
        self.side = Some(mover.opposite());
        self.quiet = if quiet { self.quiet.saturating_add(1) } else { 0 };
        self.ply += 1;
    }

    /// Flips the face-down piece at `at`, which shows `piece` (known kind,
    /// still in the pool). No legality check (see [`Position::apply_token`]).
    #[inline]
    pub fn play_flip(&mut self, at: Point, piece: Piece) {
        debug_assert!(self.facedown.contains(at));
        let k = piece.kind.expect("a flip shows a known piece");
        let n = &mut self.pool[piece.colour.index()][k.index()];
        debug_assert!(*n > 0);
        *n -= 1;
        if *n == 0 {
            self.pool_distinct -= 1;
        }
        self.facedown.remove(at);
        self.put(at, piece);
        let mover = self.side.unwrap_or(piece.colour);
        self.end_ply(mover, false);
    }

    /// Moves the piece at `from` to the empty point `to`. No legality check.
    #[inline]
    pub fn play_move(&mut self, from: Point, to: Point) {
        let pc = self.take(from);
        debug_assert!(self.cells[to.index()] == EMPTY_CODE);
        self.put(to, pc);
        self.end_ply(pc.colour, true);
    }

    /// Resolves the attack `from`x`to` with `outcome`. `loser`, when given,
    /// names the piece that lost (a revealed identity), and is what the
    /// removed list records. No legality check.
    #[inline]
    pub fn play_attack(&mut self, from: Point, to: Point, outcome: Outcome, loser: Option<Piece>) {
        let att = self.take(from);
        match outcome {
            Outcome::AttackerWins => {
                let def = self.take(to);
                self.record_removed(loser.unwrap_or(def));
                self.put(to, att);
            }
            Outcome::DefenderWins => self.record_removed(loser.unwrap_or(att)),
            Outcome::BothRemoved => {
                let def = self.take(to);
                self.record_removed(att);
                self.record_removed(def);
            }
        }
        self.end_ply(att.colour, false);
    }

    #[inline]
    fn record_removed(&mut self, pc: Piece) {
        self.removed[pc.colour.index()][slot(pc.kind)] += 1;
    }

    /// Plays `action` in a position where every piece it touches is known
    /// (`open`, a referee's truth, a determinized search world); flips take
    /// their identity from `shown`.
    #[inline]
    pub fn play_known(&mut self, action: Action, shown: Option<Piece>) {
        match action.kind() {
            ActionKind::Flip => {
                if let Some(pc) = shown {
                    self.play_flip(action.from(), pc);
                }
            }
            ActionKind::Move => self.play_move(action.from(), action.to()),
            ActionKind::Attack => {
                let outcome = self.attack_outcome(action.from(), action.to()).unwrap_or(Outcome::DefenderWins);
                self.play_attack(action.from(), action.to(), outcome, None);
            }
        }
    }

    /// Replaces the piece of unknown kind at `at` by `piece` (a reveal).
    pub fn reveal(&mut self, at: Point, piece: Piece) {
        self.take(at);
        self.put(at, piece);
    }

    /// The outcome of attacking `to` from `from` when both kinds are known.
    #[inline]
    pub fn attack_outcome(&self, from: Point, to: Point) -> Option<Outcome> {
        let att = self.cell(from).piece()?;
        let def = self.cell(to).piece()?;
        Some(combat::combat(&self.rules, att.kind?, def.kind?, self.mines_cleared(def.colour)))
    }
}
