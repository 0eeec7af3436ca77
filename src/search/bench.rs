//! `bench`: the search on fixed positions with a fixed seed, a fixed visit
//! budget for the best root action, and one thread. The node total is a signature that changes only when
//! search behaviour changes; the speed is the machine's.

use std::time::Instant;

use super::params::{Parallel, ParamOverrides};
use super::{Control, Limits, SearchConfig, Searcher};
use crate::belief::BeliefSettings;
use crate::position::{Position, View};
use crate::random::seeded_position;
use crate::rules::Rules;

/// Each bench search stops when its most visited root action has this many
/// visits, so the iterations it takes (the signature) follow search behaviour.
pub const BENCH_VISITS: u32 = 4_000;

/// The bench positions: openings and middle games of `flip` and `open`
/// (public games: a player's view is the position).
pub fn positions() -> Vec<View> {
    let public = [(Rules::FLIP, 101, 1), (Rules::FLIP, 102, 20), (Rules::FLIP, 103, 60), (Rules::FLIP, 104, 120)]
        .into_iter()
        .chain([(Rules::OPEN, 105, 0), (Rules::OPEN, 106, 40), (Rules::OPEN, 107, 100)])
        .map(|(rules, seed, plies)| View::told(seeded_position(rules, seed, plies)));
    std::iter::once(View::told(Position::flip_start(Rules::FLIP))).chain(public).collect()
}

/// Runs the bench, reporting a line per position; returns the total nodes
/// and nodes per second.
pub fn run(report: &mut dyn FnMut(String), control: &Control) -> (u64, u64) {
    // A cap in case a search never concentrates.
    let limits = Limits { nodes: Some(200_000), best_visits: Some(BENCH_VISITS), ..Limits::default() };
    search_all(&positions(), &limits, "bench", report, control)
}

/// Searches each of `positions` afresh with one thread and seed 1 under
/// `limits`, reporting `<label> position <i> nodes <n> bestmove <a>` for
/// each; returns the total nodes and nodes per second.
fn search_all(
    positions: &[View],
    limits: &Limits,
    label: &str,
    report: &mut dyn FnMut(String),
    control: &Control,
) -> (u64, u64) {
    // The engine's own belief, soft evidence included, so that the classic
    // signature follows the shipped evidence too.
    let belief = BeliefSettings::default();
    let cfg = SearchConfig { threads: 1, hash_mb: 64, seed: 1, move_overhead: 0, belief, ..SearchConfig::default() };
    let mut total = 0u64;
    let start = Instant::now();
    for (i, pos) in positions.iter().enumerate() {
        if control.stopped() {
            break;
        }
        let result = Searcher::new().go(pos, limits, &cfg, control, &mut |_| {});
        let nodes = result.last.nodes;
        total += nodes;
        let best = result.best.map_or_else(|| "none".to_owned(), |a| a.to_string());
        report(format!("{label} position {} nodes {nodes} bestmove {best}", i + 1));
    }
    let ms = start.elapsed().as_millis() as u64;
    (total, total * 1000 / ms.max(1))
}

/// The classic bench views: Red's view (Blue's pieces hidden, Blue's
/// removed pieces unnamed) of seeded random games, opening to late middle
/// game.
pub fn classic_views() -> Vec<View> {
    [(111, 0), (112, 30), (113, 100), (114, 200)].into_iter().map(|(seed, plies)| classic_view(seed, plies)).collect()
}

/// Red's view of a seeded random `classic` game after `plies` plies.
fn classic_view(seed: u64, plies: u32) -> View {
    seeded_position(Rules::CLASSIC, seed, plies).view_for(crate::piece::Colour::Red)
}

/// The classic bench: the information-set search on [`classic_views`]
/// as [`run`] searches (one thread, fixed seed, stop at `BENCH_VISITS / 2`
/// visits of the best action). Its node total is a signature of the
/// classic search as [`run`]'s is of the others.
pub fn classic(report: &mut dyn FnMut(String), control: &Control) -> (u64, u64) {
    let limits = Limits { nodes: Some(50_000), best_visits: Some(BENCH_VISITS / 2), ..Limits::default() };
    search_all(&classic_views(), &limits, "classic bench", report, control)
}

/// Iterations per second of the tree search from `pos` with `threads`
/// threads sharing the work as `parallel` says, over `nodes` iterations,
/// with a memory cap large enough that the tree never fills.
pub fn speed(pos: &View, threads: usize, parallel: Parallel, nodes: u64) -> u64 {
    let cfg = SearchConfig {
        threads,
        hash_mb: 4096,
        seed: 1,
        move_overhead: 0,
        params: ParamOverrides { parallel: Some(parallel), ..ParamOverrides::default() },
        ..SearchConfig::default()
    };
    let start = Instant::now();
    let result = Searcher::new().go(pos, &Limits::nodes(nodes), &cfg, &Control::default(), &mut |_| {});
    let n = result.last.nodes;
    (n as f64 / start.elapsed().as_secs_f64()) as u64
}

/// Worlds per second drawn for a `classic` middle-game view (Red's view of
/// a seeded random game after `plies` plies): the chain's steps and the
/// full-knowledge position of each world.
pub fn worlds(plies: u32, count: usize) -> (u64, usize) {
    use crate::belief::Belief;
    use crate::belief::sampler::WorldSampler;
    use crate::piece::Colour;
    let view = classic_view(31, plies);
    let belief = Belief::new(&view, Colour::Red);
    let mut r = crate::random::rng(7);
    let Some(mut s) = WorldSampler::new(&belief, None, &mut r) else {
        return (0, 0);
    };
    let start = Instant::now();
    let mut checksum = 0usize;
    for _ in 0..count {
        s.next(&mut r);
        checksum += usize::from(s.world(&view, &belief).quiet());
    }
    std::hint::black_box(checksum);
    ((count as f64 / start.elapsed().as_secs_f64()) as u64, belief.pieces.iter().filter(|e| e.at.is_some()).count())
}

/// The four-player bench: South's view of seeded random `siguo` games (the
/// history it was told, from the deployment) and one `siguo-open`
/// position, searched as [`run`] searches (one thread, seed 1, stop at
/// `BENCH_VISITS / 2` visits of the best action). Its node total is the
/// four-player search's signature.
pub fn siguo(report: &mut dyn FnMut(String), control: &Control) -> (u64, u64) {
    use crate::random::seeded_siguo_game;
    use crate::siguo::SiguoRules;
    let limits = Limits { nodes: Some(50_000), best_visits: Some(BENCH_VISITS / 2), ..Limits::default() };
    let cfg = SearchConfig { threads: 1, hash_mb: 64, seed: 1, move_overhead: 0, ..SearchConfig::default() };
    let games = [(SiguoRules::CLASSIC, 121, 0), (SiguoRules::CLASSIC, 122, 40), (SiguoRules::CLASSIC, 123, 160)]
        .into_iter()
        .chain([(SiguoRules::OPEN, 124, 80)])
        .map(|(rules, seed, plies)| seeded_siguo_game(rules, seed, plies));
    let (mut total, start) = (0u64, Instant::now());
    for (i, referee) in games.enumerate() {
        if control.stopped() {
            break;
        }
        let seat = referee.truth().side_to_move();
        let req = super::four::Request::told_by(&referee, seat);
        let result = super::four::go(&req, &limits, &cfg, control, &mut |_| {});
        total += result.last.nodes;
        let best = result.best.map_or_else(|| "none".to_owned(), |a| a.to_string());
        report(format!("siguo bench position {} nodes {} bestmove {best}", i + 1, result.last.nodes));
    }
    let ms = start.elapsed().as_millis() as u64;
    (total, total * 1000 / ms.max(1))
}

/// Iterations per second of the four-player search on the view of the
/// seat to move after `plies` random plies of a seeded `siguo` game, with
/// `threads` threads (root parallelism), over `nodes` iterations.
pub fn siguo_speed(plies: u32, threads: usize, nodes: u64) -> u64 {
    let referee = crate::random::seeded_siguo_game(crate::siguo::SiguoRules::CLASSIC, 7, plies);
    let seat = referee.truth().side_to_move();
    let req = super::four::Request::told_by(&referee, seat);
    let cfg = SearchConfig { threads, hash_mb: 4096, seed: 1, move_overhead: 0, ..SearchConfig::default() };
    let start = Instant::now();
    let result = super::four::go(&req, &Limits::nodes(nodes), &cfg, &Control::default(), &mut |_| {});
    (result.last.nodes as f64 / start.elapsed().as_secs_f64()) as u64
}
