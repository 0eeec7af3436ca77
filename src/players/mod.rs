//! The baseline players behind `go` (`random`, `greedy`, `expert`; `flat`
//! lives with the search): real players in every rule set, and the
//! yardsticks stronger players are measured against.

pub mod expert;
pub mod greedy;
pub mod random;
pub mod setup;
pub mod siguo;

use std::fmt;
use std::str::FromStr;

use crate::action::Action;
use crate::combat::Outcome;
use crate::perft::for_each_child;
use crate::position::Position;
use crate::random::Rng;
use rand::RngExt;

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

/// What a one-shot player chose (a two-player action unless named).
#[derive(Clone, Copy, Debug)]
pub struct Choice<A = Action> {
    /// The action.
    pub action: A,
    /// Its evaluation for the mover, centipawn-like (0 when the player has none).
    pub score: f32,
    /// Actions (or cases) evaluated.
    pub nodes: u64,
}

/// One of `actions` drawn uniformly (`None` when there is none).
pub fn uniform<A: Copy>(actions: &[A], rng: &mut Rng) -> Option<Choice<A>> {
    if actions.is_empty() {
        return None;
    }
    let action = actions[rng.random_range(0..actions.len())];
    Some(Choice { action, score: 0.0, nodes: actions.len() as u64 })
}

/// The action of `actions` with the best `score`, ties broken at random (a
/// uniform draw in [0, 1) added to each score; `None` when there is none).
pub fn best_scored<A: Copy>(actions: &[A], rng: &mut Rng, mut score: impl FnMut(A) -> f32) -> Option<Choice<A>> {
    let mut best: Option<(f32, A, f32)> = None;
    for &a in actions {
        let s = score(a);
        let key = s + rng.random::<f32>();
        if best.is_none_or(|(k, _, _)| key > k) {
            best = Some((key, a, s));
        }
    }
    best.map(|(_, action, score)| Choice { action, score, nodes: actions.len() as u64 })
}

/// The one-ply score of an attack over its outcomes (their chances
/// `prob` and the material each wins times its chance, `weighted_gain`,
/// indexed by `Outcome as usize`): each outcome's gain less its chance
/// times the best reply after it (`reply`); `win` at once where an outcome
/// certainly takes a flag (its gain reaches `win`).
pub fn attack_score(prob: [f32; 3], weighted_gain: [f32; 3], win: f32, mut reply: impl FnMut(Outcome) -> f32) -> f32 {
    let mut s = 0.0;
    for o in Outcome::ALL {
        let p = prob[o as usize];
        if p == 0.0 {
            continue;
        }
        let gain = weighted_gain[o as usize];
        if gain >= p * win {
            return win;
        }
        s += gain - p * reply(o);
    }
    s
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
