//! Benchmarks of the rules core: move generation throughput (perft with
//! bulk counting at the last ply) and random playouts, from fixed seeded
//! positions, with stable signatures.

use std::time::{Duration, Instant};

use crate::action::Action;
use crate::perft::perft;
use crate::position::Position;
use crate::random::{random_playout, random_start, rng, seeded_position};
use crate::rules::Rules;

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

/// The four-player perft benchmark positions (`siguo-open`, every kind
/// known): a seeded start and the same kind of game after 60 random plies.
pub fn siguo_perft_suite() -> Vec<(&'static str, crate::siguo::Position, u32)> {
    use crate::random::seeded_siguo_game;
    use crate::siguo::SiguoRules;
    vec![
        ("siguo-open start", seeded_siguo_game(SiguoRules::OPEN, 3, 0).truth().clone(), 5),
        ("siguo-open ply 60", seeded_siguo_game(SiguoRules::OPEN, 4, 60).truth().clone(), 5),
    ]
}

/// Four-player perft over [`siguo_perft_suite`] (leaves counted in bulk at
/// the last ply, as for two players).
pub fn siguo_movegen_bench() -> Vec<BenchLine> {
    siguo_perft_suite()
        .into_iter()
        .map(|(name, pos, depth)| {
            let start = Instant::now();
            let count = crate::siguo::perft::perft(&pos, depth).unwrap_or(0);
            BenchLine { name: format!("perft {depth} {name}"), count, time: start.elapsed() }
        })
        .collect()
}

/// Random four-player playouts: `games` games of `siguo-open` from random
/// deployments, seeded, to their end (the quiet limit included).
pub fn siguo_playout_bench(games: u64) -> BenchLine {
    use rand::RngExt;
    let mut buf = Vec::with_capacity(256);
    let mut plies = 0u64;
    let mut r = rng(0x5eed);
    let starts: Vec<_> =
        (0..games).map(|_| crate::random::random_siguo_start(crate::siguo::SiguoRules::OPEN, &mut r)).collect();
    let start = Instant::now();
    for mut pos in starts {
        while !pos.is_over() {
            buf.clear();
            pos.legal_actions(&mut buf);
            let Some(&a) = buf.get(r.random_range(0..buf.len().max(1))) else { break };
            if pos.play(a, None).is_err() {
                break;
            }
            plies += 1;
        }
    }
    BenchLine { name: format!("random playouts siguo-open x{games}"), count: plies, time: start.elapsed() }
}
