//! Priors for the actions of a decision node, from cheap domain knowledge
//! (progressive bias): the expected value of an exchange, escaping a known
//! threat, the risk of a flip next to one's own strong pieces.

use crate::action::{Action, ActionKind};
use crate::board::Bitboard;
use crate::board::topology::ADJACENT;
use crate::exchange::{WIN, forecast_attack, value};
use crate::position::Position;

/// Softmax temperature over the heuristic scores.
const TEMPERATURE: f32 = 1.0;

/// Heuristic scores in "logit" units, one per action, into `out`.
pub fn scores(pos: &Position, actions: &[Action], scratch: &mut Vec<Action>, out: &mut Vec<f32>) {
    out.clear();
    let Some(us) = pos.side_to_move() else {
        out.resize(actions.len(), 0.0);
        return;
    };
    let them = us.opposite();
    // Points of ours the enemy could attack profitably now.
    scratch.clear();
    pos.with_side_to_move(them).legal_actions(scratch);
    let mut threatened = Bitboard::EMPTY;
    for a in scratch.iter().filter(|a| a.kind() == ActionKind::Attack) {
        if forecast_attack(pos, a.from(), a.to()).expected_gain() > 0.0 {
            threatened.insert(a.to());
        }
    }
    let ours = pos.pieces(us);
    for &a in actions {
        let h = match a.kind() {
            ActionKind::Attack => {
                let g = forecast_attack(pos, a.from(), a.to()).expected_gain();
                if g >= WIN * 0.5 { 8.0 } else { (g / 150.0).clamp(-3.0, 4.0) }
            }
            ActionKind::Move => {
                if threatened.contains(a.from()) {
                    let v = pos.kind_at(a.from()).map_or(100.0, value);
                    (v / 300.0).min(2.0)
                } else {
                    0.0
                }
            }
            ActionKind::Flip => {
                // A flip next to our strong pieces may show an enemy that beats them.
                let near = ADJACENT[a.from().index()] & ours;
                let exposed: f32 = near.into_iter().filter_map(|p| pos.kind_at(p)).map(value).sum();
                -(exposed / 1500.0).min(1.5)
            }
        };
        out.push(h / TEMPERATURE);
    }
    // Softmax in place.
    let max = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0;
    for x in out.iter_mut() {
        *x = (*x - max).exp();
        sum += *x;
    }
    for x in out.iter_mut() {
        *x /= sum;
    }
}

/// The priors a worker gives a new node's edges: the heuristic [`scores`],
/// or uniform when the `priors` search parameter is off.
pub fn for_node(pos: &Position, actions: &[Action], use_priors: bool, scratch: &mut Vec<Action>, out: &mut Vec<f32>) {
    if use_priors {
        scores(pos, actions, scratch, out);
    } else {
        out.clear();
        out.resize(actions.len(), 1.0 / actions.len().max(1) as f32);
    }
}
