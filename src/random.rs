//! The random number generator every seeded component uses, and the
//! seeded positions built with it: random legal plies, random playouts,
//! random starts and positions reached by a fixed seed.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::action::{Action, ActionKind};
use crate::deployment::Deployment;
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::Rules;

/// The generator every seeded component uses (pinned algorithm).
pub type Rng = Xoshiro256PlusPlus;

/// A generator from a 64-bit seed.
pub fn rng(seed: u64) -> Rng {
    Xoshiro256PlusPlus::seed_from_u64(seed)
}

/// Plays one uniformly random legal action, drawing a flip's identity from
/// the pool. Returns the action, or `None` when the game is over.
#[inline]
pub fn random_step(pos: &mut Position, rng: &mut Rng, buf: &mut Vec<Action>) -> Option<Action> {
    buf.clear();
    pos.legal_actions(buf);
    if buf.is_empty() {
        return None;
    }
    let a = buf[rng.random_range(0..buf.len())];
    let shown = if a.kind() == ActionKind::Flip { pos.sample_pool(rng) } else { None };
    pos.play_known(a, shown);
    Some(a)
}

/// Plays random legal actions until the game ends or `max_plies` were played.
/// Returns the number of plies played.
pub fn random_playout(pos: &mut Position, rng: &mut Rng, max_plies: u32, buf: &mut Vec<Action>) -> u32 {
    let mut n = 0;
    while n < max_plies && random_step(pos, rng, buf).is_some() {
        n += 1;
    }
    n
}

/// The start of a game of `rules`, with random deployments drawn from
/// `rng` when the rules have a deployment.
pub fn random_start(rules: Rules, rng: &mut Rng) -> Position {
    if rules.has_deployment() {
        let red = Deployment::random(Colour::Red, rng);
        let blue = Deployment::random(Colour::Blue, rng);
        Position::from_deployments(rules, &red, &blue)
    } else {
        Position::flip_start(rules)
    }
}

/// A position reached by `plies` random plies from a random start (fixed
/// seed); if the game ends earlier the search restarts with the next seed.
pub fn seeded_position(rules: Rules, seed: u64, plies: u32) -> Position {
    let mut buf = Vec::new();
    for s in seed.. {
        let mut r = rng(s);
        let mut pos = random_start(rules, &mut r);
        if random_playout(&mut pos, &mut r, plies, &mut buf) == plies && pos.outcome().is_none() {
            return pos;
        }
    }
    unreachable!("an unbounded seed range always finds a position")
}

/// A four-player start of `rules` with four random deployments from `rng`.
pub fn random_siguo_start(rules: crate::siguo::SiguoRules, rng: &mut Rng) -> crate::siguo::Position {
    let d: [Deployment; 4] = std::array::from_fn(|_| Deployment::random(Colour::Red, rng));
    crate::siguo::Position::start(rules, &d)
}

/// A refereed four-player game of `rules` after `plies` uniformly random
/// actions from a random start (fixed seed); if the game ends earlier the
/// next seed is tried.
pub fn seeded_siguo_game(rules: crate::siguo::SiguoRules, seed: u64, plies: u32) -> crate::siguo::SiguoReferee {
    let mut buf = Vec::new();
    'seeds: for s in seed.. {
        let mut r = rng(s);
        let mut referee = crate::siguo::SiguoReferee::new(random_siguo_start(rules, &mut r));
        for _ in 0..plies {
            buf.clear();
            referee.truth().legal_actions(&mut buf);
            if buf.is_empty() || referee.outcome().is_some() {
                continue 'seeds;
            }
            let a = buf[r.random_range(0..buf.len())];
            if referee.play(a).is_err() {
                continue 'seeds;
            }
        }
        if referee.outcome().is_none() {
            return referee;
        }
    }
    unreachable!("an unbounded seed range always finds a game")
}
