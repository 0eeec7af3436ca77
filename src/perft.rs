//! Perft: counting the leaves of the game tree to a fixed depth, the check
//! that move generation and apply agree with an independent count.
//!
//! A flip branches once per distinct (colour, kind) left in the face-down
//! pool, so on positions with face-down pieces the count is of the public
//! game tree. Attacks need both identities; a `classic` view, where enemy
//! kinds are unknown, supports depth 1 only.

use std::fmt;

use crate::action::{Action, ActionKind};
use crate::combat::Outcome;
use crate::piece::{Colour, Kind, Piece};
use crate::position::Position;

/// Why a perft cannot be computed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PerftError {
    /// Depth above 1 with pieces of unknown kind on the board.
    HiddenKinds {
        /// The depth asked for.
        depth: u32,
    },
}

impl fmt::Display for PerftError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PerftError::HiddenKinds { depth } => write!(
                f,
                "perft {depth}: this position has pieces of unknown kind, whose attacks need a referee; only depth 1 is supported"
            ),
        }
    }
}

impl std::error::Error for PerftError {}

fn has_hidden_kinds(pos: &Position) -> bool {
    Colour::BOTH.into_iter().any(|c| pos.pieces_of(c, None).any())
}

fn check(pos: &Position, depth: u32) -> Result<(), PerftError> {
    if depth > 1 && has_hidden_kinds(pos) { Err(PerftError::HiddenKinds { depth }) } else { Ok(()) }
}

/// Calls `f` with every child of `pos` reached by `action`: one per pool
/// identity for a flip, one otherwise.
#[inline]
pub fn for_each_child(pos: &Position, action: Action, mut f: impl FnMut(&Position)) {
    match action.kind() {
        ActionKind::Flip => {
            for c in Colour::BOTH {
                for k in Kind::ALL {
                    if pos.pool_count(c, k) > 0 {
                        let mut child = pos.clone();
                        child.play_flip(action.from(), Piece::new(c, k));
                        f(&child);
                    }
                }
            }
        }
        ActionKind::Move => {
            let mut child = pos.clone();
            child.play_move(action.from(), action.to());
            f(&child);
        }
        ActionKind::Attack => {
            let mut child = pos.clone();
            let outcome = pos.attack_outcome(action.from(), action.to()).unwrap_or(Outcome::DefenderWins);
            child.play_attack(action.from(), action.to(), outcome, None);
            f(&child);
        }
    }
}

fn inner(pos: &Position, depth: u32, lists: &mut [Vec<Action>], stop: &dyn Fn() -> bool) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_leaves(),
        _ => {
            let Some((list, rest)) = lists.split_first_mut() else {
                return 0;
            };
            if depth >= 3 && stop() {
                return 0;
            }
            list.clear();
            pos.legal_actions(list);
            let mut total = 0;
            for &a in list.iter() {
                for_each_child(pos, a, |child| total += inner(child, depth - 1, rest, stop));
            }
            total
        }
    }
}

/// Number of leaf action sequences of length `depth` (chance outcomes of
/// flips included) from `pos`; 0 below a finished game.
///
/// # Errors
/// [`PerftError::HiddenKinds`] for depth above 1 on a position with pieces
/// of unknown kind.
pub fn perft(pos: &Position, depth: u32) -> Result<u64, PerftError> {
    check(pos, depth)?;
    let mut lists = vec![Vec::new(); depth as usize + 1];
    Ok(inner(pos, depth, &mut lists, &|| false))
}

/// Perft split by first action, in generation order.
///
/// # Errors
/// As [`perft`]; depth 0 has no first action and gives an empty list.
pub fn divide(pos: &Position, depth: u32) -> Result<Vec<(Action, u64)>, PerftError> {
    divide_until(pos, depth, &|| false)
}

/// [`divide`] that gives up (with partial, meaningless counts) as soon as
/// `stop` returns true; the caller knows it asked to stop.
///
/// # Errors
/// As [`perft`].
pub fn divide_until(pos: &Position, depth: u32, stop: &dyn Fn() -> bool) -> Result<Vec<(Action, u64)>, PerftError> {
    check(pos, depth)?;
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    let mut lists = vec![Vec::new(); depth as usize];
    Ok(actions
        .into_iter()
        .map(|a| {
            let mut n = 0;
            for_each_child(pos, a, |child| n += inner(child, depth - 1, &mut lists, stop));
            (a, n)
        })
        .collect())
}
