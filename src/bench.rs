//! Benchmarks of the rules core: move generation throughput (perft with
//! bulk counting at the last ply) and random playouts, from fixed seeded
//! positions, with stable signatures.

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::action::{Action, ActionKind};
use crate::deployment::Deployment;
use crate::perft::perft;
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

/// The fixed perft benchmark positions: (name, position, depth).
pub fn perft_suite() -> Vec<(&'static str, Position, u32)> {
    vec![
        ("flip start", Position::flip_start(Rules::FLIP), 3),
        ("flip ply 40", seeded_position(Rules::FLIP, 1, 40), 4),
        ("flip ply 120", seeded_position(Rules::FLIP, 2, 120), 5),
        ("open start", seeded_position(Rules::OPEN, 3, 0), 5),
        ("open ply 60", seeded_position(Rules::OPEN, 4, 60), 5),
        ("classic ply 30", seeded_position(Rules::CLASSIC, 5, 30), 5),
    ]
}

/// Result of one benchmark line.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// What was measured.
    pub name: String,
    /// Leaves (perft) or plies (playouts): the signature part.
    pub count: u64,
    /// Wall time.
    pub time: Duration,
}

impl BenchLine {
    /// Count per second.
    pub fn rate(&self) -> f64 {
        self.count as f64 / self.time.as_secs_f64().max(1e-9)
    }
}

/// Perft with bulk counting over the fixed suite.
pub fn movegen_bench() -> Vec<BenchLine> {
    perft_suite()
        .into_iter()
        .map(|(name, pos, depth)| {
            let start = Instant::now();
            let count = perft(&pos, depth).unwrap_or(0);
            BenchLine { name: format!("perft {depth} {name}"), count, time: start.elapsed() }
        })
        .collect()
}

/// Copy-make throughput: every legal action of each suite position made on
/// a copy, `rounds` times.
pub fn apply_bench(rounds: u32) -> BenchLine {
    let suite = perft_suite();
    let mut lists: Vec<(Position, Vec<Action>)> = suite
        .into_iter()
        .map(|(_, pos, _)| {
            let mut v = Vec::new();
            pos.legal_actions(&mut v);
            (pos, v)
        })
        .collect();
    let mut r = rng(1);
    // Give flips a fixed identity so the loop measures apply, not sampling.
    let shown: Vec<_> = lists.iter().map(|(p, _)| p.sample_pool(&mut r)).collect();
    let start = Instant::now();
    let mut made = 0u64;
    let mut checksum = 0u64;
    for _ in 0..rounds {
        for ((pos, actions), shown) in lists.iter_mut().zip(&shown) {
            for &a in actions.iter() {
                let mut child = pos.clone();
                child.play_known(a, *shown);
                checksum = checksum.wrapping_add(u64::from(child.quiet()));
                made += 1;
            }
        }
    }
    std::hint::black_box(checksum);
    BenchLine { name: format!("copy-make x{} B", std::mem::size_of::<Position>()), count: made, time: start.elapsed() }
}

/// Random playouts from fixed starts: `games` games of `rules`, seeded.
pub fn playout_bench(rules: Rules, games: u64) -> BenchLine {
    let mut buf = Vec::with_capacity(256);
    let mut plies = 0u64;
    let mut r = rng(0x5eed);
    let starts: Vec<Position> = (0..games).map(|_| random_start(rules, &mut r)).collect();
    let start = Instant::now();
    for mut pos in starts {
        plies += u64::from(random_playout(&mut pos, &mut r, 2000, &mut buf));
    }
    BenchLine {
        name: format!("random playouts {} x{games}", rules.variant().map_or("custom", |v| v.name())),
        count: plies,
        time: start.elapsed(),
    }
}
