//! The `greedy` player. For each legal action it adds the expected material
//! the action wins now (the piece-value table of `exchange`, averaged over what
//! it cannot see of a hidden piece) and subtracts the most the opponent can
//! then win with one attack (so it prefers flips and moves that do not
//! expose its pieces). In rule sets with deployment a move forward earns a
//! little, so that it advances when nothing else matters. Ties are broken at
//! random.

use super::{Choice, over_flip};
use crate::action::{Action, ActionKind};
use crate::exchange::{WIN, forecast_attack};
use crate::piece::Colour;
use crate::position::Position;
use crate::random::Rng;

/// Centipawns per rank a move advances (rule sets with deployment only).
const ADVANCE: f32 = 3.0;

/// The most the side to move can win with one attack (0 if nothing pays).
fn best_attack(pos: &Position, buf: &mut Vec<Action>) -> f32 {
    buf.clear();
    pos.legal_actions(buf);
    buf.iter()
        .filter(|a| a.kind() == ActionKind::Attack)
        .map(|a| forecast_attack(pos, a.from(), a.to()).expected_gain())
        .fold(0.0, f32::max)
}

/// The greedy score of `action` for the side to move.
pub fn score(pos: &Position, action: Action, buf: &mut Vec<Action>) -> f32 {
    match action.kind() {
        ActionKind::Flip => -over_flip(pos, action, |child| best_attack(child, buf)),
        ActionKind::Move => {
            let mut child = pos.clone();
            child.play_move(action.from(), action.to());
            let mut s = -best_attack(&child, buf);
            if pos.rules().has_deployment() {
                let forward = i32::from(action.to().rank()) - i32::from(action.from().rank());
                let sign = if pos.side_to_move() == Some(Colour::Red) { 1.0 } else { -1.0 };
                s += sign * forward as f32 * ADVANCE;
            }
            s
        }
        ActionKind::Attack => {
            let f = forecast_attack(pos, action.from(), action.to());
            super::attack_score(f.prob, f.weighted_gain, WIN, |o| {
                let mut child = pos.clone();
                child.play_attack(action.from(), action.to(), o, None);
                best_attack(&child, buf)
            })
        }
    }
}

/// The greedy choice, or `None` when there is no legal action.
pub fn choose(pos: &Position, rng: &mut Rng) -> Option<Choice> {
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    if actions.is_empty() {
        return None;
    }
    if pos.side_to_move().is_none() {
        // The first flip of a flip game: every point is alike to this player.
        return super::uniform(&actions, rng);
    }
    let mut buf = Vec::new();
    super::best_scored(&actions, rng, |a| score(pos, a, &mut buf))
}
