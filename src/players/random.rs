//! The `random` player: uniform over the legal actions.

use super::Choice;
use crate::position::Position;
use crate::random::Rng;

/// A legal action drawn uniformly, or `None` when there is none.
pub fn choose(pos: &Position, rng: &mut Rng) -> Option<Choice> {
    let mut actions = Vec::new();
    pos.legal_actions(&mut actions);
    super::uniform(&actions, rng)
}
