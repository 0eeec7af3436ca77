//! Four-player perft: the number of move/attack sequences of a given length
//! from a position, each attack resolved by the kinds of the two pieces
//! (two-player combat rules, a bomb and a flag both removed), under the game
//! flow of [`Position::play_move`] / [`Position::play_attack`] (RULES-4P.md
//! §4): a captured flag takes its owner out with all its pieces, the mover
//! and the attacked seat left without a legal action are out at once, the
//! turn passes to the next seat still in (one without a legal action is
//! taken out when its turn comes), a finished game (a team out, or the
//! quiet limit reached) has no actions.
//!
//! Step 1 counted a stuck seat's node as 0 leaves instead of taking it
//! out, and had no quiet limit; the numbers pinned in
//! tests/data/siguo-perft.txt are unchanged under the game flow (they
//! start with a quiet count of 0 and go 4 plies deep). Pieces of unknown kind need a referee for their attacks: such
//! positions support depth 1 only.

use super::action::Action;
use super::position::Position;
use crate::combat::Outcome;

/// Why a perft cannot be computed: the two-player perft's error (a depth
/// above 1 with pieces of unknown kind).
pub use crate::perft::PerftError;

/// The position after `action`, attacks resolved by kinds (an attack whose
/// outcome is unknown counts as failed).
pub fn child(pos: &Position, action: Action) -> Position {
    let mut next = pos.clone();
    if action.attack {
        let outcome = pos.attack_outcome(action.from, action.to).unwrap_or(Outcome::DefenderWins);
        next.play_attack(action.from, action.to, outcome);
    } else {
        next.play_move(action.from, action.to);
    }
    next
}

fn inner(pos: &Position, depth: u32, lists: &mut [Vec<Action>], stop: &dyn Fn() -> bool) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_actions(),
        _ if stop() => 0,
        _ => {
            let Some((list, rest)) = lists.split_first_mut() else {
                return 0;
            };
            list.clear();
            pos.legal_actions(list);
            list.iter().map(|&a| inner(&child(pos, a), depth - 1, rest, stop)).sum()
        }
    }
}

/// Number of action sequences of length `depth` from `pos`.
///
/// # Errors
/// [`PerftError::HiddenKinds`] for depth above 1 on a position with pieces
/// of unknown kind.
pub fn perft(pos: &Position, depth: u32) -> Result<u64, PerftError> {
    if depth > 1 && pos.has_hidden_kinds() {
        return Err(PerftError::HiddenKinds { depth });
    }
    let mut lists = vec![Vec::new(); depth as usize];
    Ok(inner(pos, depth, &mut lists, &|| false))
}

/// Perft split by first action, in generation order.
///
/// # Errors
/// As [`perft`]; depth 0 gives an empty list.
pub fn divide(pos: &Position, depth: u32) -> Result<Vec<(Action, u64)>, PerftError> {
    divide_until(pos, depth, &|| false)
}

/// [`divide`] that gives up (with partial, meaningless counts) as soon as
/// `stop` returns true; the caller knows it asked to stop.
///
/// # Errors
/// As [`perft`].
pub fn divide_until(pos: &Position, depth: u32, stop: &dyn Fn() -> bool) -> Result<Vec<(Action, u64)>, PerftError> {
    if depth > 1 && pos.has_hidden_kinds() {
        return Err(PerftError::HiddenKinds { depth });
    }
    if depth == 0 {
        return Ok(Vec::new());
    }
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    let mut lists = vec![Vec::new(); depth as usize];
    Ok(actions.into_iter().map(|a| (a, inner(&child(pos, a), depth - 1, &mut lists, stop))).collect())
}
