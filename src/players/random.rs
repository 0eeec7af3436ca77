//! The `random` player: uniform over the legal actions.

use rand::RngExt;

use super::Choice;
use crate::position::Position;
use crate::random::Rng;

/// A legal action drawn uniformly, or `None` when there is none.
pub fn choose(pos: &Position, rng: &mut Rng) -> Option<Choice> {
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    if actions.is_empty() {
        return None;
    }
    let action = actions[rng.random_range(0..actions.len())];
    Some(Choice { action, score: 0.0, nodes: actions.len() as u64 })
}
