//! The baseline players behind `go` (`random`, `greedy`, `expert`; `flat`
//! lives with the search): real players in every rule set, and the
//! yardsticks stronger players are measured against.

pub mod expert;
pub mod greedy;
pub mod random;
pub mod setup;

use std::fmt;
use std::str::FromStr;

use crate::action::Action;
use crate::perft::for_each_child;
use crate::position::Position;

/// How `go` picks its action (the `Player` option).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PlayerKind {
    /// Monte Carlo tree search (the default once the search lands).
    Mcts,
    /// One ply: the best immediate exchange, then safety.
    Greedy,
    /// Uniform over the legal actions.
    Random,
    /// Flat Monte Carlo: no tree, each root action sampled with the tree
    /// search's evaluation (a baseline).
    Flat,
    /// One ply with a knowledgeable evaluation over the belief: exchanges,
    /// reply threats, the flag race (the strongest baseline).
    Expert,
}

impl PlayerKind {
    /// All players, in option order.
    pub const ALL: [PlayerKind; 5] =
        [PlayerKind::Mcts, PlayerKind::Greedy, PlayerKind::Random, PlayerKind::Flat, PlayerKind::Expert];

    /// The option value.
    pub const fn name(self) -> &'static str {
        match self {
            PlayerKind::Mcts => "mcts",
            PlayerKind::Greedy => "greedy",
            PlayerKind::Random => "random",
            PlayerKind::Flat => "flat",
            PlayerKind::Expert => "expert",
        }
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PlayerKind {
    type Err = String;

    fn from_str(s: &str) -> Result<PlayerKind, String> {
        PlayerKind::ALL.into_iter().find(|p| p.name() == s).ok_or_else(|| format!("unknown player '{s}'"))
    }
}

/// What a one-shot player chose.
#[derive(Clone, Copy, Debug)]
pub struct Choice {
    /// The action.
    pub action: Action,
    /// Its evaluation for the mover, centipawn-like (0 when the player has none).
    pub score: f32,
    /// Actions (or cases) evaluated.
    pub nodes: u64,
}

/// The expectation of `value` over the positions the flip `action` may
/// lead to, each weighted by the share of its identity in the face-down
/// pool of `pos`.
pub fn over_flip(pos: &Position, action: Action, mut value: impl FnMut(&Position) -> f32) -> f32 {
    let total: f32 = pos.pool().iter().flatten().map(|&n| f32::from(n)).sum();
    let mut s = 0.0;
    for_each_child(pos, action, |child| {
        // Which identity this child shows: the flipped point's piece.
        let shown = child.cell(action.from()).piece();
        let n = shown.and_then(|p| p.kind.map(|k| pos.pool_count(p.colour, k))).unwrap_or(0);
        s += f32::from(n) / total.max(1.0) * value(child);
    });
    s
}
