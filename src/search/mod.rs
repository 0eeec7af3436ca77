//! Search: what runs behind `go`. A [`Searcher`] is owned by the engine
//! and moved onto the search thread for each `go`; it dispatches to the
//! player chosen with the `Player` option and reports through a callback,
//! so that info lines are testable without a process.

pub mod bench;
pub mod core;
pub mod evaluate;
pub mod flat;
pub mod ismcts;
pub mod leaf;
pub mod mcts;
pub mod params;
pub mod priors;
pub mod time;
pub mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::action::{Action, ActionKind, Token};
use crate::belief::Belief;
use crate::belief::sampler::WorldSampler;
use crate::piece::Colour;
use crate::players::{Choice, PlayerKind, greedy, random};
use crate::position::Position;
use crate::protocol::{Go, Info, Response, Score};
use crate::random::rng;
use ismcts::IsWorker;
use mcts::{SharedWorker, Worker};
use params::{Parallel, ParamOverrides, Params};
use time::Limits;
use tree::{Proven, Tree};

/// Search settings from the options.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SearchConfig {
    /// Which player.
    pub player: PlayerKind,
    /// Search threads.
    pub threads: usize,
    /// Memory cap for the search tree, MiB.
    pub hash_mb: usize,
    /// Seed of this search (already resolved from the `Seed` option).
    pub seed: u64,
    /// Milliseconds kept back from every move for communication.
    pub move_overhead: u64,
    /// Stop once the most visited root action has this many visits (the
    /// bench's limit: the iterations it takes depend on search behaviour).
    pub best_visits: Option<u32>,
}

impl Default for SearchConfig {
    fn default() -> SearchConfig {
        SearchConfig {
            player: PlayerKind::Mcts,
            threads: 1,
            hash_mb: 64,
            seed: 1,
            move_overhead: 30,
            best_visits: None,
        }
    }
}

/// Flags the engine loop sets while a search runs.
#[derive(Debug, Default)]
pub struct Control {
    /// Stop as soon as possible and answer.
    pub stop: AtomicBool,
    /// The opponent played the pondered move: switch to normal timing.
    pub ponderhit: AtomicBool,
    /// Set by the worker when its job is over, just before its last lines.
    pub done: AtomicBool,
}

impl Control {
    /// Whether `stop` was received.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether `ponderhit` was received.
    pub fn ponder_hit(&self) -> bool {
        self.ponderhit.load(Ordering::Relaxed)
    }
}

/// What a search answers.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The chosen action, `None` when there is no legal action.
    pub best: Option<Action>,
    /// The expected reply, if the player has one.
    pub ponder: Option<Action>,
    /// The last info line sent.
    pub info: Info,
}

/// Maps a material-like evaluation (centipawns) to win/draw/loss per mille
/// for players without a game-result estimate.
pub fn wdl_from_cp(cp: f32) -> (u32, u32, u32) {
    let w = (1000.0 / (1.0 + (-cp / 400.0).exp())).round() as u32;
    (w.min(1000), 0, 1000 - w.min(1000))
}

/// Worlds sampled to estimate the belief reported by `ShowBelief` and `d`.
pub const BELIEF_SAMPLES: usize = 4000;

/// An `info belief` line: the kinds with a chance, most likely first.
pub fn belief_line(at: crate::board::Point, p: &[f32; crate::piece::NUM_KINDS]) -> crate::protocol::Belief {
    let mut kinds: Vec<(crate::piece::Kind, f64)> = crate::piece::Kind::ALL
        .into_iter()
        .filter(|k| p[k.index()] > 0.0)
        .map(|k| (k, f64::from(p[k.index()])))
        .collect();
    kinds.sort_by(|a, b| b.1.total_cmp(&a.1));
    crate::protocol::Belief { at, kinds }
}

/// One search thread's iterations, on its own tree or on one it shares.
pub trait SearchWorker: Send {
    /// One iteration.
    fn iterate(&mut self);
    /// Runs `f` on its tree.
    fn with_tree<R>(&self, f: impl FnOnce(&Tree) -> R) -> R;
    /// Gives the tree back (kept for reuse); `None` from a worker that
    /// shares its tree with one still holding it.
    fn into_tree(self) -> Option<Tree>;
    /// Deepest ply reached.
    fn seldepth(&self) -> u32;
    /// Whether the workers of a search share one tree (their roots are then
    /// not merged).
    fn shares_tree(&self) -> bool {
        false
    }
}

/// The searcher: one per engine, kept between searches (its trees are
/// reused when the next position follows from the last one).
#[derive(Debug, Default)]
pub struct Searcher {
    trees: Vec<Tree>,
    /// Constants of the tree search; `None`: those tuned for the rule set.
    pub params: Option<Params>,
    /// Changes to those constants (the `SearchParams` option).
    pub overrides: ParamOverrides,
    /// In classic, believe only the counts (no inference), for measuring
    /// what the inference adds.
    pub uniform_belief: bool,
    /// In classic, report the belief (`info belief`) before answering.
    pub show_belief: bool,
    /// In classic, weigh sampled worlds by the soft evidence (where pieces
    /// started, how they behaved) on top of the hard facts.
    pub soft_evidence: bool,
    game: Option<(Position, Vec<Token>)>,
}

const MIB: usize = 1 << 20;

/// The search's score as reported: centipawns are `SCALE * atanh(q)`, the
/// inverse of the evaluation's squashing; win/draw/loss per mille split `q`.
pub fn report_score(q: f32, proven: Proven) -> Score {
    match proven {
        Proven::Win => Score { cp: 10_000, wdl: Some((1000, 0, 0)) },
        Proven::Loss => Score { cp: -10_000, wdl: Some((0, 0, 1000)) },
        Proven::Draw => Score { cp: 0, wdl: Some((0, 1000, 0)) },
        Proven::Unknown => {
            let q = q.clamp(-0.999, 0.999);
            let cp = (evaluate::SCALE * q.atanh()).round() as i32;
            let w = ((1.0 + q) * 500.0).round() as u32;
            Score { cp, wdl: Some((w, 0, 1000 - w)) }
        }
    }
}

/// Combined root statistics of all workers: per action, visits, mean value
/// for the side to move, proven result.
fn merge_roots<W: SearchWorker>(workers: &[W]) -> Vec<(Action, u32, f32, Proven)> {
    let mut merged: Vec<(Action, u32, f32, Proven)> = Vec::new();
    let distinct = if workers.first().is_some_and(SearchWorker::shares_tree) { 1 } else { workers.len() };
    for w in &workers[..distinct] {
        for (a, n, q, p) in w.with_tree(Tree::root_stats) {
            match merged.iter_mut().find(|m| m.0 == a) {
                Some(m) => {
                    let total = m.1 + n;
                    if total > 0 {
                        m.2 = (m.2 * m.1 as f32 + q * n as f32) / total as f32;
                    }
                    m.1 = total;
                    if m.3 == Proven::Unknown {
                        m.3 = p;
                    }
                }
                None => merged.push((a, n, q, p)),
            }
        }
    }
    merged
}

/// The action to play from merged root statistics: a proven win, else the
/// most visited action not proven lost (ties by value).
fn choose(stats: &[(Action, u32, f32, Proven)]) -> Option<(Action, u32, f32, Proven)> {
    let win = stats.iter().filter(|s| s.3 == Proven::Win).max_by_key(|s| s.1);
    if let Some(w) = win {
        return Some(*w);
    }
    let key = |s: &&(Action, u32, f32, Proven)| (s.3 != Proven::Loss, s.1, (s.2 * 1e6) as i64);
    stats.iter().max_by_key(key).copied()
}

impl Searcher {
    /// A fresh searcher.
    pub fn new() -> Searcher {
        Searcher::default()
    }

    /// Forgets everything learned from earlier searches (`newgame`).
    pub fn clear(&mut self) {
        self.trees.clear();
    }

    /// Memory held by the trees kept from the last search, in bytes.
    pub fn tree_bytes(&self) -> usize {
        self.trees.iter().map(Tree::bytes).sum()
    }

    /// The trees kept from the last search (one per thread).
    pub fn trees(&self) -> &[Tree] {
        &self.trees
    }

    /// Searches `pos` under the limits of `go`, reporting info lines through
    /// `report`, and returns the answer. Returns when its limits are reached
    /// or `control.stop` is set; with `infinite` or `ponder` it never
    /// answers before `stop` (or, pondering, `ponderhit`).
    pub fn go(
        &mut self,
        pos: &Position,
        go: &Go,
        cfg: &SearchConfig,
        control: &Control,
        report: &mut dyn FnMut(Response),
    ) -> SearchResult {
        // The clock runs from here: re-rooting the kept tree and (classic)
        // reading the belief from the history are part of the move's time.
        let start = Instant::now();
        match cfg.player {
            PlayerKind::Mcts => self.mcts(pos, go, cfg, control, report, start),
            PlayerKind::Flat => {
                let plies = self.params_for(pos).playout_plies;
                flat::search(pos, go, cfg, plies, control, report, start)
            }
            PlayerKind::Random | PlayerKind::Greedy => {
                let mut r = rng(cfg.seed);
                let choice = if cfg.player == PlayerKind::Random {
                    random::choose(pos, &mut r)
                } else {
                    greedy::choose(pos, &mut r)
                };
                let info = one_shot_info(choice, start.elapsed());
                report(Response::Info(info.clone()));
                wait_for_release(go, control, &info, report);
                SearchResult { best: choice.map(|c| c.action), ponder: None, info }
            }
        }
    }

    fn params_for(&self, pos: &Position) -> Params {
        self.overrides.apply(self.params.unwrap_or_else(|| Params::for_mode(pos.rules().mode)))
    }

    /// Takes the trees kept from the last search, re-rooted at `pos` where
    /// it follows from their root, fresh otherwise.
    fn trees_for(&mut self, pos: &Position, threads: usize, cap: usize) -> Vec<Tree> {
        let mut old = std::mem::take(&mut self.trees).into_iter();
        (0..threads)
            .map(|_| {
                let reused = old.next().and_then(|t| {
                    let n = t.find(pos)?;
                    Some(if n == 0 { t } else { t.reroot(n, pos.clone()) })
                });
                let mut t = reused.unwrap_or_else(|| Tree::new(pos.clone(), cap));
                t.set_cap(cap);
                t
            })
            .collect()
    }

    fn mcts(
        &mut self,
        pos: &Position,
        go: &Go,
        cfg: &SearchConfig,
        control: &Control,
        report: &mut dyn FnMut(Response),
        start: Instant,
    ) -> SearchResult {
        let threads = cfg.threads.max(1);
        // `Hash` split among the trees of a search.
        let cap_for = |trees: usize| (cfg.hash_mb.max(1) * MIB / trees).max(64 * 1024);
        let cap = cap_for(threads);
        let params = self.params_for(pos);
        if let Some(viewer) = pos.side_to_move().filter(|&s| pos.pieces_of(s.opposite(), None).any()) {
            // A classic view: information-set search over sampled worlds.
            let belief = self.belief_for(pos, viewer);
            let mut r = rng(cfg.seed ^ 0x5a5a_5a5a);
            let weights = (self.soft_evidence && !self.uniform_belief)
                .then(|| crate::belief::evidence::EvidenceModel::shipped().weights(&belief, pos.ply()));
            if let Some(sampler) = WorldSampler::new(&belief, weights.clone(), &mut r) {
                self.trees.clear();
                let workers = (0..threads)
                    .map(|i| {
                        let tree = Tree::new(pos.clone(), cap);
                        IsWorker::new(tree, rng(thread_seed(cfg.seed, i)), params, belief.clone(), sampler.clone())
                    })
                    .collect();
                let (result, _) = run(pos, go, cfg, control, report, workers, start);
                if self.show_belief {
                    for (at, p) in crate::belief::marginals(&belief, weights, BELIEF_SAMPLES, &mut r) {
                        report(Response::Belief(belief_line(at, &p)));
                    }
                }
                return result;
            }
        }
        if params.parallel == Parallel::Tree && threads > 1 {
            // One tree for all threads, within the whole of `Hash`.
            let cap = cap_for(1);
            let tree = self.trees_for(pos, 1, cap).pop().unwrap_or_else(|| Tree::new(pos.clone(), cap));
            let shared = Arc::new(Mutex::new(tree));
            let workers = (0..threads)
                .map(|i| SharedWorker::new(Arc::clone(&shared), rng(thread_seed(cfg.seed, i)), params))
                .collect();
            drop(shared);
            let (result, trees) = run(pos, go, cfg, control, report, workers, start);
            self.trees = trees;
            return result;
        }
        let workers = self
            .trees_for(pos, threads, cap)
            .into_iter()
            .enumerate()
            .map(|(i, tree)| Worker::new(tree, rng(thread_seed(cfg.seed, i)), params))
            .collect();
        let (result, trees) = run(pos, go, cfg, control, report, workers, start);
        self.trees = trees;
        result
    }

    /// The belief behind a classic view: from the game history when it
    /// leads to `pos`, from `pos` alone otherwise.
    fn belief_for(&self, pos: &Position, viewer: Colour) -> Belief {
        if self.uniform_belief {
            return Belief::uniform(pos, viewer);
        }
        if let Some((base, history)) = &self.game {
            if let Ok((belief, end)) = Belief::from_history(base, viewer, history) {
                if end == *pos {
                    return belief;
                }
            }
        }
        Belief::new(pos, viewer)
    }

    /// Tells the searcher the history behind the next positions it will be
    /// asked to search (the engine's `position` command).
    pub fn set_game(&mut self, base: Position, history: Vec<Token>) {
        self.game = Some((base, history));
    }
}

/// The seed of search thread `i` (the first thread's is the search's).
fn thread_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_add(0x9e37_79b9_7f4a_7c15u64.wrapping_mul(i as u64))
}

/// Runs `workers` (the first on this thread, each other on a thread of its
/// own) under the limits of `go`, the clock started at `start`; returns the
/// answer and the trees.
fn run<W: SearchWorker>(
    pos: &Position,
    go: &Go,
    cfg: &SearchConfig,
    control: &Control,
    report: &mut dyn FnMut(Response),
    workers: Vec<W>,
    start: Instant,
) -> (SearchResult, Vec<Tree>) {
    let mut legal = Vec::new();
    pos.legal_actions(&mut legal);
    let single = legal.len() == 1;
    let stop_all = AtomicBool::new(false);
    let total = AtomicU64::new(0);
    let threads = workers.len();
    let mut workers = workers.into_iter();
    let Some(mut w) = workers.next() else {
        let info = Info::default();
        return (SearchResult { best: legal.first().copied(), ponder: None, info }, Vec::new());
    };
    let mut finished: Vec<W> = Vec::with_capacity(threads);
    let mut info = Info::default();
    let mut merged = Vec::new();
    std::thread::scope(|s| {
        let helpers: Vec<_> = workers
            .map(|mut h| {
                let stop_all = &stop_all;
                let total = &total;
                s.spawn(move || {
                    while !stop_all.load(Ordering::Relaxed) && !control.stopped() {
                        h.iterate();
                        total.fetch_add(1, Ordering::Relaxed);
                    }
                    h
                })
            })
            .collect();
        let mut limits = Limits::new(go, pos.side_to_move(), cfg.move_overhead, start);
        let mut last_report = start;
        let mut reported_depth = 0;
        let mut i = 0u64;
        loop {
            if control.stopped() {
                break;
            }
            w.iterate();
            i += 1;
            let nodes = total.fetch_add(1, Ordering::Relaxed) + 1;
            if !limits.bounded(control) {
                if i % 1024 == 0 && last_report.elapsed() >= Duration::from_secs(1) {
                    report(Response::Info(snapshot(&w, nodes, start, &[])));
                    last_report = Instant::now();
                }
                continue;
            }
            if limits.nodes.is_some_and(|n| nodes >= n) || (single && nodes >= 1) {
                break;
            }
            if w.with_tree(|t| t.nodes[0].proven) != Proven::Unknown {
                break;
            }
            if i % 64 != 0 {
                continue;
            }
            let (stats, pv) = w.with_tree(|t| (t.root_stats(), t.pv(64)));
            if cfg.best_visits.is_some_and(|v| stats.iter().any(|s| s.1 >= v)) {
                break;
            }
            if go.depth.is_some_and(|d| pv.len() as u32 >= d) {
                break;
            }
            if pv.len() > reported_depth || last_report.elapsed() >= Duration::from_secs(1) {
                reported_depth = reported_depth.max(pv.len());
                report(Response::Info(snapshot(&w, nodes, start, &[])));
                last_report = Instant::now();
            }
            if limits.time_up(&stats.iter().map(|s| s.1).collect::<Vec<_>>()) {
                break;
            }
        }
        stop_all.store(true, Ordering::Relaxed);
        finished.push(w);
        for h in helpers {
            if let Ok(h) = h.join() {
                finished.push(h);
            }
        }
        // Read after the helpers' last iterations.
        let nodes = total.load(Ordering::Relaxed);
        merged = merge_roots(&finished);
        info = snapshot(&finished[0], nodes, start, &merged);
    });
    // Hold the answer while pondering or searching infinitely.
    wait_for_release(go, control, &info, report);
    report(Response::Info(info.clone()));
    let best = choose(&merged).map(|m| m.0).or_else(|| legal.first().copied());
    let pv = finished.first().map(|w| w.with_tree(|t| t.pv(2))).unwrap_or_default();
    let ponder = match (best, pv.as_slice()) {
        (Some(b), [first, reply]) if *first == b && b.kind() != ActionKind::Flip => Some(*reply),
        _ => None,
    };
    let trees = finished.into_iter().filter_map(SearchWorker::into_tree).collect();
    (SearchResult { best, ponder, info }, trees)
}

/// The info line for the current state of the main worker (and, at the
/// end, the merged root statistics of all workers).
fn snapshot<W: SearchWorker>(w: &W, nodes: u64, start: Instant, merged: &[(Action, u32, f32, Proven)]) -> Info {
    let ms = start.elapsed().as_millis() as u64;
    let (own, mut pv, hashfull) = w.with_tree(|t| {
        let own = if merged.is_empty() { t.root_stats() } else { Vec::new() };
        (own, t.pv(64), t.permille_full())
    });
    let stats = if merged.is_empty() { &own } else { merged };
    let best = choose(stats);
    if let Some(b) = best {
        if pv.first() != Some(&b.0) {
            pv = vec![b.0];
        }
    }
    Info {
        depth: Some(pv.len() as u32),
        seldepth: Some(w.seldepth()),
        nodes: Some(nodes),
        nps: Some(nodes * 1000 / ms.max(1)),
        time: Some(ms),
        score: Some(best.map_or(Score { cp: 0, wdl: Some((500, 0, 500)) }, |b| report_score(b.2, b.3))),
        hashfull: Some(hashfull),
        pv,
    }
}

fn one_shot_info(choice: Option<Choice>, elapsed: Duration) -> Info {
    let nodes = choice.map_or(0, |c| c.nodes);
    let ms = elapsed.as_millis() as u64;
    let cp = choice.map_or(0.0, |c| c.score).clamp(-10_000.0, 10_000.0);
    Info {
        depth: Some(1),
        seldepth: Some(1),
        nodes: Some(nodes),
        nps: Some(nodes * 1000 / ms.max(1)),
        time: Some(ms),
        score: Some(Score { cp: cp.round() as i32, wdl: Some(wdl_from_cp(cp)) }),
        hashfull: None,
        pv: choice.map(|c| vec![c.action]).unwrap_or_default(),
    }
}

/// Holds the answer of an instant player while `go infinite` or `go ponder`
/// is in force, repeating the info line every second.
pub(crate) fn wait_for_release(go: &Go, control: &Control, info: &Info, report: &mut dyn FnMut(Response)) {
    let mut last = Instant::now();
    loop {
        let released = control.stopped() || !(go.infinite || go.ponder && !control.ponder_hit());
        if released {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
        if last.elapsed() >= Duration::from_secs(1) {
            report(Response::Info(info.clone()));
            last = Instant::now();
        }
    }
}
