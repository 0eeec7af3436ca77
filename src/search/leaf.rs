//! Valuing a leaf: a finished game is exact; otherwise an optional short
//! playout with a light policy (favourable captures first, else random),
//! then the static evaluation. Shared by the tree search and the flat
//! Monte Carlo player, so that both use the same evaluation.

use rand::RngExt;

use super::core::Terminal;
use super::evaluate::{Weights, evaluate};
use super::params::Params;
use crate::action::{Action, ActionKind};
use crate::exchange::forecast_attack;
use crate::movegen::Grouped;
use crate::piece::Colour;
use crate::position::Position;
use crate::random::Rng;

/// A value for Red, from a value for `mover` (`None`: the root before the
/// first flip, where it does not matter).
#[inline]
pub fn for_red(v: f32, mover: Option<Colour>) -> f32 {
    if mover == Some(Colour::Blue) { -v } else { v }
}

/// Leaf evaluation with its scratch buffers.
#[derive(Debug)]
pub struct LeafEval {
    /// Plies of playout before the static evaluation (0: static only).
    pub playout_plies: u32,
    /// The light playout policy: the best favourable capture with this
    /// probability, else a uniformly random action.
    pub capture_first: f32,
    /// The static evaluation's tuned weights.
    pub weights: Weights,
    actions: Grouped,
    scratch: Grouped,
}

impl LeafEval {
    /// An evaluator with the playout and evaluation weights of `params`.
    pub fn new(params: &Params) -> LeafEval {
        LeafEval {
            playout_plies: params.playout_plies,
            capture_first: params.playout_capture,
            weights: Weights::of(params),
            actions: Grouped::new(),
            scratch: Grouped::new(),
        }
    }

    /// The value of `pos` for Red, and its result when `pos` itself is a
    /// finished game.
    pub fn value(&mut self, pos: &Position, rng: &mut Rng) -> (f32, Option<Terminal>) {
        if let Some(t) = self.finished(pos) {
            return (t.value_for_red(), Some(t));
        }
        if self.playout_plies == 0 {
            return (for_red(evaluate(pos, &self.actions, &mut self.scratch, &self.weights), pos.side_to_move()), None);
        }
        (self.playout(pos.clone(), rng), None)
    }

    /// The result of `pos` if the game is over there (flag taken, quiet
    /// limit, or no legal action: the side to move loses); otherwise its
    /// legal actions are left in `self.actions`.
    fn finished(&mut self, pos: &Position) -> Option<Terminal> {
        if let Some(r) = pos.outcome_without_actions() {
            return Some(Terminal { winner: r.winner });
        }
        self.actions.of(pos);
        self.actions.is_empty().then(|| Terminal { winner: pos.side_to_move().map(Colour::opposite) })
    }

    fn playout(&mut self, mut pos: Position, rng: &mut Rng) -> f32 {
        for _ in 0..self.playout_plies {
            // `self.actions` is not empty here: `finished` said so.
            let Some(a) = self.light_policy(&pos, rng) else { break };
            let shown = if a.kind() == ActionKind::Flip { pos.sample_pool(rng) } else { None };
            pos.play_known(a, shown);
            if let Some(t) = self.finished(&pos) {
                return t.value_for_red();
            }
        }
        for_red(evaluate(&pos, &self.actions, &mut self.scratch, &self.weights), pos.side_to_move())
    }

    /// Picks an action among `self.actions` (non-empty) for `pos`.
    fn light_policy(&self, pos: &Position, rng: &mut Rng) -> Option<Action> {
        if rng.random::<f32>() < self.capture_first {
            let best = self
                .actions
                .attacks()
                .map(|a| (forecast_attack(pos, a.from(), a.to()).expected_gain(), a))
                .filter(|(g, _)| *g > 0.0)
                .max_by(|x, y| x.0.total_cmp(&y.0));
            if let Some((_, a)) = best {
                return Some(a);
            }
        }
        self.actions.nth(rng.random_range(0..self.actions.len()))
    }
}
