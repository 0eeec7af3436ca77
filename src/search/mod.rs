//! Search: the tree search behind `go` (and the flat Monte Carlo baseline
//! in [`flat`]). A [`Searcher`] is owned by the engine and moved onto the
//! search thread for each `go`; it takes its own [`Limits`], reports
//! [`Event`]s through a callback (so that they are testable without a
//! process) and answers with a [`Report`]. It knows nothing of the
//! protocol: the engine turns its reports into lines.

pub mod bench;
pub mod core;
pub mod evaluate;
pub mod flat;
pub mod four;
pub mod game;
pub mod ismcts;
pub mod leaf;
pub mod mcts;
pub mod params;
pub mod priors;
pub mod report;
pub mod time;
pub mod tree;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::action::{Action, Token};
use crate::belief::sampler::WorldSampler;
use crate::belief::{self, BeliefSettings};
use crate::position::{Position, View};
use crate::random::rng;
use game::GameState;
use ismcts::IsWorker;
use mcts::{SharedWorker, Worker};
use params::{Parallel, ParamOverrides, Params};
pub use report::{Event, Line, Progress, Report};
use report::{Reporter, choose, merge_roots};
pub use time::Limits;
use time::Stopper;
use tree::{Edge, Proven, RootStat, Tree};

/// The search's settings from the engine's options (and the root
/// actions `go searchmoves` allows).
#[derive(Clone, PartialEq, Debug)]
pub struct SearchConfig<A = Action> {
    /// Search threads.
    pub threads: usize,
    /// Memory cap for the search trees, MiB.
    pub hash_mb: usize,
    /// Seed of this search (already resolved from the `Seed` option).
    pub seed: u64,
    /// Milliseconds kept back from every move for communication.
    pub move_overhead: u64,
    /// Changes to the constants tuned for the rule set (`SearchParams`).
    pub params: ParamOverrides,
    /// How the belief about hidden enemy pieces is formed (`classic`).
    pub belief: BeliefSettings,
    /// In `classic`, report the belief before answering (`ShowBelief`).
    pub show_belief: bool,
    /// Report this many best root actions, each with its line (`MultiPV`).
    pub multipv: usize,
    /// Report every root action's statistics with each progress report
    /// (`ShowRootStats`).
    pub root_stats: bool,
    /// Search only these root actions (`go searchmoves`); empty: all.
    pub searchmoves: Vec<A>,
}

impl<A> Default for SearchConfig<A> {
    fn default() -> SearchConfig<A> {
        SearchConfig {
            threads: 1,
            hash_mb: 64,
            seed: 1,
            move_overhead: 30,
            params: ParamOverrides::default(),
            belief: BeliefSettings::default(),
            show_belief: false,
            multipv: 1,
            root_stats: false,
            searchmoves: Vec::new(),
        }
    }
}

impl SearchConfig {
    /// The constants for a position of these rules: tuned for its rule set,
    /// with the overrides applied.
    pub fn params_for(&self, pos: &Position) -> Params {
        self.params.apply(Params::for_mode(pos.rules().mode))
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

/// Worlds sampled to estimate the belief reported by `ShowBelief` and `d`.
pub const BELIEF_SAMPLES: usize = 4000;

/// Longest principal variation reported.
const PV_MAX: usize = 64;
/// Iterations between two looks at the limits and the root.
const CHECK_EVERY: u64 = 64;
/// Iterations between two looks at the clock when no limit applies.
const UNBOUNDED_CHECK_EVERY: u64 = 1024;
/// A tree never gets less than this, however many share `Hash`.
pub(crate) const MIN_TREE_BYTES: usize = 64 * 1024;
/// Seeds the classic world sampler apart from the search threads.
const SAMPLER_SEED: u64 = 0x5a5a_5a5a;
/// Spreads the seeds of the search threads (the golden ratio, 64 bits).
const THREAD_SEED_STEP: u64 = 0x9e37_79b9_7f4a_7c15;
pub(crate) const MIB: usize = 1 << 20;

/// One search thread's iterations, on its own tree or on one it shares.
pub trait SearchWorker: Send {
    /// The positions of its tree.
    type Pos: GameState;
    /// One iteration.
    fn iterate(&mut self);
    /// Runs `f` on its tree.
    fn with_tree<R>(&self, f: impl FnOnce(&Tree<Self::Pos>) -> R) -> R;
    /// Gives the tree back (kept for reuse); `None` from a worker that
    /// shares its tree with one still holding it.
    fn into_tree(self) -> Option<Tree<Self::Pos>>;
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
    game: Option<(Position, Vec<Token>)>,
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

    /// Tells the searcher the history behind the next positions it will be
    /// asked to search (the engine's `position` command).
    pub fn set_game(&mut self, base: Position, history: Vec<Token>) {
        self.game = Some((base, history));
    }

    /// Searches `view` under `limits`, reporting through `report`, and
    /// answers. Returns when its limits are reached or `control.stop` is
    /// set; with `infinite` or `ponder` it never answers before `stop` (or,
    /// pondering, `ponderhit`).
    pub fn go(
        &mut self,
        view: &View,
        limits: &Limits,
        cfg: &SearchConfig,
        control: &Control,
        report: &mut dyn FnMut(Event),
    ) -> Report {
        // The clock runs from here: re-rooting the kept tree and (classic)
        // reading the belief from the history are part of the move's time.
        let start = Instant::now();
        let pos = view.position();
        let job = Job { pos, limits, cfg, control, start };
        let threads = cfg.threads.max(1);
        // `Hash` split among the trees of a search.
        let cap_for = |trees: usize| (cfg.hash_mb.max(1) * MIB / trees).max(MIN_TREE_BYTES);
        let cap = cap_for(threads);
        let params = cfg.params_for(pos);
        let seeded = |i: usize| rng(thread_seed(cfg.seed, i));
        if let Some(viewer) = belief::viewer_of(pos) {
            // A classic view: information-set search over sampled worlds.
            let game = self.game.as_ref().map(|(base, history)| (base, history.as_slice()));
            let (belief, weights) = belief::for_view(game, pos, viewer, cfg.belief);
            let mut r = rng(cfg.seed ^ SAMPLER_SEED);
            if let Some(sampler) = WorldSampler::new(&belief, weights.clone(), &mut r) {
                self.trees.clear();
                let root = priors::with_expert(pos, game, cfg.belief, &params, &mut r);
                let exposed = params.exposed_risk != 0.0
                    && game.is_some_and(|(base, history)| ismcts::marshal_exposed(base, history, viewer));
                let own = ismcts::own_view(game, pos, viewer, &params, &mut r);
                let workers = (0..threads)
                    .map(|i| {
                        let mut tree = Tree::new(pos.clone(), cap);
                        if let Some(root) = &root {
                            let priors = root.at(root.temperature(0));
                            tree.set_edges(0, priors.into_iter().map(|(a, p)| Edge::action(a, p)));
                        }
                        restrict_root(&mut tree, &cfg.searchmoves, &params);
                        IsWorker::new(tree, seeded(i), params, belief.clone(), sampler.clone(), exposed, own.clone())
                            .with_root_priors(root.clone())
                    })
                    .collect();
                let mut reporter = Reporter::new(report, start);
                let (result, _) = job.run(workers, &mut reporter);
                if cfg.show_belief {
                    for (at, p) in belief::marginals(&belief, weights, BELIEF_SAMPLES, &mut r) {
                        reporter.send(Event::Belief(at, p));
                    }
                }
                return result;
            }
        }
        let mut reporter = Reporter::new(report, start);
        let (result, trees) = if params.parallel == Parallel::Tree && threads > 1 {
            // One tree for all threads, within the whole of `Hash`.
            let mut tree = self.reuse_or_new(pos, cap_for(1));
            restrict_root(&mut tree, &cfg.searchmoves, &params);
            let shared = Arc::new(Mutex::new(tree));
            let workers = (0..threads).map(|i| SharedWorker::new(Arc::clone(&shared), seeded(i), params)).collect();
            drop(shared);
            job.run(workers, &mut reporter)
        } else {
            let workers = (0..threads)
                .map(|i| {
                    let mut tree = self.reuse_or_new(pos, cap);
                    restrict_root(&mut tree, &cfg.searchmoves, &params);
                    Worker::new(tree, seeded(i), params)
                })
                .collect();
            job.run(workers, &mut reporter)
        };
        // A tree whose root lost actions to `searchmoves` would search only
        // those if the next `go` reused it.
        self.trees = if cfg.searchmoves.is_empty() { trees } else { Vec::new() };
        result
    }

    /// The next tree kept from the last search, re-rooted at `pos` where it
    /// follows from its root; a fresh one otherwise.
    fn reuse_or_new(&mut self, pos: &Position, cap: usize) -> Tree {
        let kept = (!self.trees.is_empty()).then(|| self.trees.remove(0));
        let reused = kept.and_then(|t| {
            let n = t.find(pos)?;
            Some(if n == 0 { t } else { t.reroot(n, pos.clone()) })
        });
        let mut t = reused.unwrap_or_else(|| Tree::new(pos.clone(), cap));
        t.set_cap(cap);
        t
    }
}

/// Restricts the root of `tree` to `allowed` (nothing to do when empty),
/// expanding it first, with the priors its expansion would have.
pub(crate) fn restrict_root<P: GameState>(tree: &mut Tree<P>, allowed: &[P::Action], params: &Params) {
    if allowed.is_empty() {
        return;
    }
    if !tree.nodes[0].expanded {
        let mut legal = Vec::new();
        tree.root_pos.legal(&mut legal);
        let (mut scratch, mut priors) = (Vec::new(), Vec::new());
        tree.root_pos.priors(&legal, params.use_priors, &mut scratch, &mut priors);
        tree.set_edges(0, legal.iter().zip(&priors).map(|(&a, &p)| Edge::action(a, p)));
    }
    tree.keep_root_actions(allowed);
}

/// The seed of search thread `i` (the first thread's is the search's).
pub(crate) fn thread_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_add(THREAD_SEED_STEP.wrapping_mul(i as u64))
}

/// One search: what to search, within which limits, since when.
pub(crate) struct Job<'a, P: GameState = Position> {
    pub(crate) pos: &'a P,
    pub(crate) limits: &'a Limits,
    pub(crate) cfg: &'a SearchConfig<P::Action>,
    pub(crate) control: &'a Control,
    pub(crate) start: Instant,
}

impl<P: GameState> Job<'_, P> {
    /// Runs `workers` (the first on this thread, each other on a thread of
    /// its own) until the limits; returns the answer and the trees.
    pub(crate) fn run<W: SearchWorker<Pos = P>>(
        &self,
        workers: Vec<W>,
        reporter: &mut Reporter<P::Action>,
    ) -> (Report<P::Action>, Vec<Tree<P>>) {
        let mut legal = Vec::new();
        self.pos.legal(&mut legal);
        // A single legal action is answered at once; a single one allowed by
        // `searchmoves` is searched (the GUI asked for its evaluation).
        let single = legal.len() == 1;
        if !self.cfg.searchmoves.is_empty() && legal.iter().any(|a| self.cfg.searchmoves.contains(a)) {
            legal.retain(|a| self.cfg.searchmoves.contains(a));
        }
        let stop_all = AtomicBool::new(false);
        let total = AtomicU64::new(0);
        let threads = workers.len();
        let mut workers = workers.into_iter();
        let Some(main) = workers.next() else {
            return (Report { best: legal.first().copied(), ponder: None, last: Progress::default() }, Vec::new());
        };
        let mut finished: Vec<W> = Vec::with_capacity(threads);
        let mut merged = Vec::new();
        let control = self.control;
        std::thread::scope(|s| {
            let helpers: Vec<_> = workers
                .map(|mut h| {
                    let (stop_all, total) = (&stop_all, &total);
                    s.spawn(move || {
                        while !stop_all.load(Ordering::Relaxed) && !control.stopped() {
                            h.iterate();
                            total.fetch_add(1, Ordering::Relaxed);
                        }
                        h
                    })
                })
                .collect();
            finished.push(self.search(main, &total, single, reporter));
            stop_all.store(true, Ordering::Relaxed);
            finished.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
            merged = if finished[0].shares_tree() {
                finished[0].with_tree(Tree::root_stats)
            } else {
                merge_roots(finished.iter().map(|w| w.with_tree(Tree::root_stats)))
            };
        });
        // Read after the helpers' last iterations.
        let last = self.progress(&finished[0], total.load(Ordering::Relaxed), Some(&merged));
        // Hold the answer while pondering or searching infinitely.
        hold(self.limits, control, &mut || reporter.send(Event::Progress(last.clone())));
        reporter.send(Event::Progress(last.clone()));
        let best = choose(&merged).map(|m| m.action).or_else(|| legal.first().copied());
        let pv = match best {
            Some(b) => finished[0].with_tree(|t| t.pv_of(b, 2)),
            None => Vec::new(),
        };
        let ponder = match (best, pv.as_slice()) {
            (Some(b), [_, reply]) if P::ponderable(b) => Some(*reply),
            _ => None,
        };
        let trees = finished.into_iter().filter_map(SearchWorker::into_tree).collect();
        (Report { best, ponder, last }, trees)
    }

    /// The main thread's iterations until a limit is reached or `stop`.
    fn search<W: SearchWorker<Pos = P>>(
        &self,
        mut w: W,
        total: &AtomicU64,
        single: bool,
        reporter: &mut Reporter<P::Action>,
    ) -> W {
        let mut stopper = Stopper::new(self.limits, self.pos.mover(), self.cfg.move_overhead, self.start);
        log::info!("search: {} thread(s), {}", self.cfg.threads.max(1), stopper.budget());
        let mut i = 0u64;
        let why = loop {
            if self.control.stopped() {
                break "stop";
            }
            w.iterate();
            i += 1;
            let nodes = total.fetch_add(1, Ordering::Relaxed) + 1;
            if !stopper.bounded(self.control) {
                if i % UNBOUNDED_CHECK_EVERY == 0 {
                    let depth = w.with_tree(|t| t.pv(PV_MAX).len());
                    reporter.tick(Some(depth), || self.progress(&w, nodes, None));
                }
                continue;
            }
            if stopper.nodes.is_some_and(|n| nodes >= n) {
                break "the node limit";
            }
            if single && nodes >= 1 {
                break "a single legal action";
            }
            if w.with_tree(|t| t.nodes[0].proven) != Proven::Unknown {
                break "the root is proven";
            }
            if i % CHECK_EVERY != 0 {
                continue;
            }
            let (stats, depth) = w.with_tree(|t| (t.root_stats(), t.pv(PV_MAX).len()));
            if self.limits.best_visits.is_some_and(|v| stats.iter().any(|s| s.visits >= v)) {
                break "the best action's visit limit";
            }
            if self.limits.depth.is_some_and(|d| depth as u32 >= d) {
                break "the depth limit";
            }
            reporter.tick(Some(depth), || self.progress(&w, nodes, None));
            if let Some(t) = stopper.why_time_up(&stats.iter().map(|s| s.visits).collect::<Vec<_>>()) {
                break t.text();
            }
        };
        let (n, ms) = (total.load(Ordering::Relaxed), self.start.elapsed().as_millis());
        log::info!("search: stopped after {n} iterations, {ms} ms: {why}");
        w
    }

    /// The progress of the main worker `w` (and, at the end, the `merged`
    /// root statistics of all workers): the best action's value and line,
    /// and the analysis lines asked for.
    fn progress<W: SearchWorker<Pos = P>>(
        &self,
        w: &W,
        nodes: u64,
        merged: Option<&[RootStat<P::Action>]>,
    ) -> Progress<P::Action> {
        let cfg = self.cfg;
        let lines = cfg.multipv.max(1);
        w.with_tree(|t| {
            let own;
            let stats = match merged {
                Some(m) => m,
                None => {
                    own = t.root_stats();
                    &own
                }
            };
            let ranked = report::rank(stats);
            let pv_of = |s: &RootStat<P::Action>| t.pv_of(s.action, PV_MAX);
            let best = ranked.first();
            let pv = best.map(pv_of).unwrap_or_default();
            let depth = pv.len() as u32;
            let multi = if lines > 1 {
                ranked.iter().take(lines).map(|s| Line { stat: *s, pv: pv_of(s) }).collect()
            } else {
                Vec::new()
            };
            Progress {
                depth,
                // The line may run through a kept tree deeper than this
                // search's own iterations went.
                seldepth: w.seldepth().max(depth),
                nodes,
                elapsed: self.start.elapsed(),
                q: best.map_or(0.0, |b| b.q),
                proven: best.map_or(Proven::Unknown, |b| b.proven),
                hashfull: Some(t.permille_full()),
                pv,
                lines: multi,
                root: if cfg.root_stats { ranked.clone() } else { Vec::new() },
            }
        })
    }
}

/// Holds an answer while `infinite` or `ponder` is in force (until `stop`,
/// or `ponderhit` when pondering), calling `every_second` each second.
pub fn hold(limits: &Limits, control: &Control, every_second: &mut dyn FnMut()) {
    let mut last = Instant::now();
    loop {
        let released = control.stopped() || !(limits.infinite || limits.ponder && !control.ponder_hit());
        if released {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
        if last.elapsed() >= Duration::from_secs(1) {
            every_second();
            last = Instant::now();
        }
    }
}
