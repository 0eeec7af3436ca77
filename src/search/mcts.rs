//! One MCTS worker: selection with PUCT and domain priors, chance nodes
//! for flips (the identity drawn from the face-down pool), evaluation of new
//! leaves by the static evaluation, backpropagation, and the MCTS-Solver
//! (proven wins and losses propagated up the tree).
//!
//! Values are kept from the point of view of the player who moved into a
//! node. Nothing in the tree depends on a face-down identity except through
//! a chance node that drew it from the public pool.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rand::RngExt;

use super::SearchWorker;
use super::leaf::{LeafEval, for_red};
use super::priors;
use super::tree::{Edge, NONE, Proven, Tree, label_action, label_piece, piece_label};
use crate::action::{Action, ActionKind};
use crate::bench::Rng;
use crate::board::Point;
use crate::piece::{Colour, Kind, Piece};
use crate::position::Position;
use crate::rules::Mode;

/// Tunable constants of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Exploration constant of PUCT.
    pub cpuct: f32,
    /// First-play urgency: an unvisited action is valued at the parent's
    /// value minus this.
    pub fpu_reduction: f32,
    /// Use the priors (false: uniform priors).
    pub use_priors: bool,
    /// Use the solver.
    pub solver: bool,
    /// Plies of light playout before the static evaluation at a new leaf.
    pub playout_plies: u32,
    /// How several threads search (`flip` and `open`; `classic` always
    /// searches one tree per thread).
    pub parallel: Parallel,
}

/// How several search threads share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// One tree per thread, the roots merged at the end.
    Root,
    /// One tree shared behind a lock, with virtual loss.
    Tree,
}

impl Default for Params {
    fn default() -> Params {
        Params::for_mode(Mode::Open)
    }
}

impl Params {
    /// The constants tuned for a rule set (self-play at 3000 iterations a
    /// move: in `flip` a lower exploration and no first-play reduction, the
    /// flips' chance values being noisy; in `open` more exploration). In
    /// `flip` a 6-ply light playout runs before the static evaluation: at
    /// equal time (50 ms a move, 200 games) the static-only search scored
    /// about 41% against it; in `open` playouts changed nothing at equal
    /// iterations (49.2%), so they are not worth their cost there.
    pub fn for_mode(mode: Mode) -> Params {
        let base = Params {
            cpuct: 2.5,
            fpu_reduction: 0.3,
            use_priors: true,
            solver: true,
            playout_plies: 0,
            parallel: Parallel::Root,
        };
        match mode {
            Mode::Flip => Params { cpuct: 1.4, fpu_reduction: 0.0, playout_plies: 6, ..base },
            Mode::Classic | Mode::Open => base,
        }
    }
}

/// Changes to the tuned [`Params`], from the `SearchParams` option: words
/// `cpuct=<f>`, `fpu=<f>`, `priors=<bool>`, `solver=<bool>`,
/// `playout=<plies>`, `parallel=root|tree`, separated by spaces (for
/// measuring what each technique adds).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ParamOverrides {
    cpuct: Option<f32>,
    fpu_reduction: Option<f32>,
    use_priors: Option<bool>,
    solver: Option<bool>,
    playout_plies: Option<u32>,
    parallel: Option<Parallel>,
}

impl ParamOverrides {
    /// Parses the option's value (empty: no change).
    ///
    /// # Errors
    /// A message naming the word that is not understood.
    pub fn parse(text: &str) -> Result<ParamOverrides, String> {
        let mut o = ParamOverrides::default();
        for word in text.split_whitespace() {
            let (k, v) = word.split_once('=').ok_or_else(|| format!("'{word}' is not name=value"))?;
            let bad = || format!("'{word}': bad value");
            match k {
                "cpuct" => o.cpuct = Some(v.parse().ok().filter(|x: &f32| x.is_finite() && *x >= 0.0).ok_or_else(bad)?),
                "fpu" => o.fpu_reduction = Some(v.parse().ok().filter(|x: &f32| x.is_finite()).ok_or_else(bad)?),
                "priors" => o.use_priors = Some(v.parse().map_err(|_| bad())?),
                "solver" => o.solver = Some(v.parse().map_err(|_| bad())?),
                "playout" => o.playout_plies = Some(v.parse().ok().filter(|x| *x <= 200).ok_or_else(bad)?),
                "parallel" => {
                    o.parallel = Some(match v {
                        "root" => Parallel::Root,
                        "tree" => Parallel::Tree,
                        _ => return Err(bad()),
                    });
                }
                _ => {
                    return Err(format!(
                        "unknown search parameter '{k}' (cpuct, fpu, priors, solver, playout, parallel)"
                    ));
                }
            }
        }
        Ok(o)
    }

    /// `p` with the overrides applied.
    pub fn apply(&self, p: Params) -> Params {
        Params {
            cpuct: self.cpuct.unwrap_or(p.cpuct),
            fpu_reduction: self.fpu_reduction.unwrap_or(p.fpu_reduction),
            use_priors: self.use_priors.unwrap_or(p.use_priors),
            solver: self.solver.unwrap_or(p.solver),
            playout_plies: self.playout_plies.unwrap_or(p.playout_plies),
            parallel: self.parallel.unwrap_or(p.parallel),
        }
    }
}

/// One step of an iteration's path: the node and the player who moved into
/// it (`None`: the root before the first flip).
#[derive(Clone, Copy, Debug)]
pub(super) struct Step {
    pub(super) node: u32,
    pub(super) mover: Option<Colour>,
}

/// What a descent reached: an exact value (a proven node), or a position to
/// evaluate, with the node just created for it (and its mover) if any.
/// (Returned once per iteration, on the stack: boxing would allocate.)
#[allow(clippy::large_enum_variant)]
enum Reached {
    Exact(f32),
    Leaf { pos: Position, created: Option<(u32, Option<Colour>)> },
}

impl Reached {
    /// The node the descent created, with its mover.
    fn created(&self) -> Option<(u32, Option<Colour>)> {
        match self {
            Reached::Leaf { created, .. } => *created,
            Reached::Exact(_) => None,
        }
    }
}

/// The state of one search thread apart from the tree: its random numbers,
/// constants, scratch buffers and the path of the current iteration. Every
/// method takes the tree it works on, owned ([`Worker`]) or shared behind a
/// lock ([`SharedWorker`]).
#[derive(Debug)]
struct Core {
    rng: Rng,
    params: Params,
    seldepth: u32,
    leaf_eval: LeafEval,
    actions: Vec<Action>,
    scratch: Vec<Action>,
    priors: Vec<f32>,
    path: Vec<Step>,
}

/// One searcher thread with a tree of its own (root parallelism: the roots
/// of the threads' trees are merged when the search ends).
pub struct Worker {
    /// Its tree.
    pub tree: Tree,
    core: Core,
}

impl Core {
    fn new(rng: Rng, params: Params) -> Core {
        Core {
            rng,
            params,
            seldepth: 0,
            leaf_eval: LeafEval::new(params.playout_plies),
            actions: Vec::with_capacity(256),
            scratch: Vec::with_capacity(256),
            priors: Vec::with_capacity(256),
            path: Vec::with_capacity(64),
        }
    }

    fn expand(&mut self, tree: &mut Tree, node: u32, pos: &Position) -> bool {
        self.actions.clear();
        pos.legal_actions(&mut self.actions);
        if tree.would_overflow(0, self.actions.len()) {
            return false;
        }
        priors::for_node(pos, &self.actions, self.params.use_priors, &mut self.scratch, &mut self.priors);
        let edges = self.actions.iter().zip(&self.priors).map(|(a, &prior)| Edge::new(a.to_u16(), prior));
        tree.set_edges(node, edges);
        true
    }

    fn expand_chance(tree: &mut Tree, node: u32, pos: &Position) -> bool {
        if tree.would_overflow(0, pos.pool_distinct() as usize) {
            return false;
        }
        let total: f32 = pos.pool().iter().flatten().map(|&n| f32::from(n)).sum();
        let mut edges = Vec::with_capacity(24);
        for c in Colour::BOTH {
            for k in Kind::ALL {
                let n = pos.pool_count(c, k);
                if n > 0 {
                    edges.push(Edge::new(piece_label(Piece::new(c, k)), f32::from(n) / total));
                }
            }
        }
        tree.set_edges(node, edges.into_iter());
        true
    }

    /// Picks the edge to follow at decision node `node` (PUCT; proven wins
    /// first, proven losses last).
    /// Iterations in flight on a shared tree count as lost visits
    /// ([`super::tree::Node::with_pending`]): the virtual loss that keeps
    /// threads apart.
    fn select(&self, tree: &Tree, node: u32) -> usize {
        let (n_visits, n_q) = tree.nodes[node as usize].with_pending();
        let sqrt_n = (n_visits.max(1) as f32).sqrt();
        // The node's value is for the player who moved into it; the side to move sees its negation.
        let fpu = -n_q - self.params.fpu_reduction;
        let mut best = 0;
        let mut best_score = f32::NEG_INFINITY;
        for (i, e) in tree.edges_of(node).iter().enumerate() {
            let (q, visits) = if e.child == NONE {
                (fpu, 0)
            } else {
                let c = &tree.nodes[e.child as usize];
                let (visits, q) = c.with_pending();
                match c.proven {
                    Proven::Win => return i,
                    Proven::Loss => (-10.0, visits),
                    Proven::Draw => (0.0, visits),
                    Proven::Unknown => (q, visits),
                }
            };
            let score = q + self.params.cpuct * e.prior() * sqrt_n / (1 + visits) as f32;
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        best
    }

    /// Draws a chance edge with the exact weight of its identity's count in
    /// the face-down pool of `pos` (the position before the flip).
    fn sample_chance(&mut self, tree: &Tree, node: u32, pos: &Position) -> usize {
        let edges = tree.edges_of(node);
        let total: u32 = pos.pool().iter().flatten().map(|&n| u32::from(n)).sum();
        let mut r = self.rng.random_range(0..total.max(1));
        for (i, e) in edges.iter().enumerate() {
            let p = label_piece(e.label);
            let n = p.kind.map_or(0, |k| u32::from(pos.pool_count(p.colour, k)));
            if r < n {
                return i;
            }
            r -= n;
        }
        edges.len().saturating_sub(1)
    }

    /// Selection and expansion from the root down to a proven node or a
    /// position to evaluate; the path is left in `self.path`. With
    /// `virtual_loss`, the path's nodes count the pending iteration as a loss.
    fn descend(&mut self, tree: &mut Tree, virtual_loss: bool) -> Reached {
        let mut pos = tree.root_pos.clone();
        self.path.clear();
        let root_mover = pos.side_to_move().map(Colour::opposite);
        self.path.push(Step { node: 0, mover: root_mover });
        let mut node = 0u32;
        let mut pending: Option<Point> = None;
        let reached = loop {
            let n = tree.nodes[node as usize];
            let mover = self.path.last().and_then(|p| p.mover);
            if let Some(v) = n.proven.value() {
                break Reached::Exact(for_red(v, mover));
            }
            if n.chance {
                let at = pending.take().unwrap_or(Point::from_index_unchecked(0));
                if !n.expanded && !Core::expand_chance(tree, node, &pos) {
                    if let Some(pc) = pos.sample_pool(&mut self.rng) {
                        pos.play_flip(at, pc);
                    }
                    break Reached::Leaf { pos, created: None };
                }
                let i = self.sample_chance(tree, node, &pos);
                let slot = tree.nodes[node as usize].first_edge as usize + i;
                let e = tree.edges[slot];
                let pc = label_piece(e.label);
                pos.play_flip(at, pc);
                // Before the first flip the flipper's colour is what it shows.
                let flipper = mover.or(Some(pc.colour));
                if let Some(last) = self.path.last_mut() {
                    last.mover = flipper;
                }
                if e.child == NONE {
                    let Some(child) = tree.add_child(slot, false) else {
                        break Reached::Leaf { pos, created: None };
                    };
                    self.path.push(Step { node: child, mover: flipper });
                    break Reached::Leaf { pos, created: Some((child, flipper)) };
                }
                node = e.child;
                self.path.push(Step { node, mover: flipper });
                continue;
            }
            if !n.expanded && !self.expand(tree, node, &pos) {
                break Reached::Leaf { pos, created: None };
            }
            // A finished game another thread reached first and has not yet marked.
            if tree.nodes[node as usize].num_edges == 0 {
                break Reached::Leaf { pos, created: None };
            }
            let side = pos.side_to_move();
            let i = self.select(tree, node);
            let slot = tree.nodes[node as usize].first_edge as usize + i;
            let e = tree.edges[slot];
            let a = label_action(e.label);
            let is_flip = a.kind() == ActionKind::Flip;
            if is_flip {
                pending = Some(a.from());
            } else {
                pos.play_known(a, None);
            }
            if e.child == NONE {
                let Some(child) = tree.add_child(slot, is_flip) else {
                    if is_flip {
                        if let Some(pc) = pos.sample_pool(&mut self.rng) {
                            pos.play_flip(a.from(), pc);
                        }
                    }
                    break Reached::Leaf { pos, created: None };
                };
                self.path.push(Step { node: child, mover: side });
                if is_flip {
                    node = child;
                    continue;
                }
                break Reached::Leaf { pos, created: Some((child, side)) };
            }
            node = e.child;
            self.path.push(Step { node, mover: side });
        };
        self.seldepth = self.seldepth.max(self.path.len() as u32 - 1);
        if virtual_loss {
            for step in &self.path {
                let n = &mut tree.nodes[step.node as usize];
                n.pending = n.pending.saturating_add(1);
            }
        }
        reached
    }

    /// The value for Red of what the descent reached, and `Some(winner)`
    /// when it is a finished game (needs no tree).
    fn evaluate(&mut self, reached: &Reached) -> (f32, Option<Option<Colour>>) {
        match reached {
            Reached::Exact(v) => (*v, None),
            Reached::Leaf { pos, .. } => self.leaf_eval.value(pos, &mut self.rng),
        }
    }

    /// Marks a new node that is a finished game, adds the result to the
    /// path (taking back the virtual loss) and runs the solver.
    fn backup(
        &mut self,
        tree: &mut Tree,
        created: Option<(u32, Option<Colour>)>,
        value: f32,
        end: Option<Option<Colour>>,
        virtual_loss: bool,
    ) {
        if let (Some((child, mover)), Some(winner)) = (created, end) {
            let proven = match (winner, mover) {
                (None, _) => Proven::Draw,
                (Some(w), Some(m)) if w == m => Proven::Win,
                _ => Proven::Loss,
            };
            let n = &mut tree.nodes[child as usize];
            n.terminal = true;
            n.proven = proven;
        }
        for step in &self.path {
            let n = &mut tree.nodes[step.node as usize];
            if virtual_loss {
                n.pending = n.pending.saturating_sub(1);
            }
            n.visits += 1;
            n.value += for_red(value, step.mover);
        }
        if self.params.solver {
            self.solve_path(tree);
        }
    }

    /// Propagates proven results up the path of the last iteration.
    fn solve_path(&self, tree: &mut Tree) {
        for k in (0..self.path.len()).rev() {
            let step = self.path[k];
            let node = tree.nodes[step.node as usize];
            if node.proven != Proven::Unknown {
                continue;
            }
            // Unexpanded nodes prove nothing; the root before the first flip
            // has no mover to prove anything for.
            if !node.expanded || step.mover.is_none() {
                return;
            }
            let proven = if node.chance { prove_chance(tree, step.node) } else { prove_decision(tree, step.node) };
            if proven == Proven::Unknown {
                return;
            }
            tree.nodes[step.node as usize].proven = proven;
        }
    }
}

/// A decision node, for its mover: lost if the side to move has a proven
/// win; won if every action is a proven loss for the side to move.
fn prove_decision(tree: &Tree, idx: u32) -> Proven {
    let mut all_lost = true;
    let mut any_draw = false;
    for e in tree.edges_of(idx) {
        if e.child == NONE {
            all_lost = false;
            continue;
        }
        match tree.nodes[e.child as usize].proven {
            Proven::Win => return Proven::Loss,
            Proven::Loss => {}
            Proven::Draw => any_draw = true,
            Proven::Unknown => all_lost = false,
        }
    }
    match (all_lost, any_draw) {
        (true, false) => Proven::Win,
        (true, true) => Proven::Draw,
        _ => Proven::Unknown,
    }
}

/// A chance node: proven when every identity leads to the same proven result.
fn prove_chance(tree: &Tree, idx: u32) -> Proven {
    let mut result = None;
    for e in tree.edges_of(idx) {
        if e.child == NONE {
            return Proven::Unknown;
        }
        let p = tree.nodes[e.child as usize].proven;
        if p == Proven::Unknown || result.is_some_and(|r| r != p) {
            return Proven::Unknown;
        }
        result = Some(p);
    }
    result.unwrap_or(Proven::Unknown)
}

impl Worker {
    /// A worker on `tree`.
    pub fn new(tree: Tree, rng: Rng, params: Params) -> Worker {
        Worker { tree, core: Core::new(rng, params) }
    }

    /// Its tree.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// One iteration from the root.
    pub fn iterate(&mut self) {
        let reached = self.core.descend(&mut self.tree, false);
        let (value, end) = self.core.evaluate(&reached);
        let created = reached.created();
        self.core.backup(&mut self.tree, created, value, end, false);
    }
}

impl SearchWorker for Worker {
    fn iterate(&mut self) {
        Worker::iterate(self);
    }

    fn with_tree<R>(&self, f: impl FnOnce(&Tree) -> R) -> R {
        f(&self.tree)
    }

    fn into_tree(self) -> Option<Tree> {
        Some(self.tree)
    }

    fn seldepth(&self) -> u32 {
        self.core.seldepth
    }
}

/// One of several searcher threads sharing one tree behind a lock (tree
/// parallelism): selection, expansion and the backup happen under the
/// lock, the leaf's evaluation (the playout) outside it, and a virtual loss
/// on the pending path keeps the threads apart.
pub struct SharedWorker {
    tree: Arc<Mutex<Tree>>,
    core: Core,
}

fn lock(tree: &Mutex<Tree>) -> MutexGuard<'_, Tree> {
    tree.lock().unwrap_or_else(PoisonError::into_inner)
}

impl SharedWorker {
    /// A worker on the shared `tree`.
    pub fn new(tree: Arc<Mutex<Tree>>, rng: Rng, params: Params) -> SharedWorker {
        SharedWorker { tree, core: Core::new(rng, params) }
    }
}

impl SearchWorker for SharedWorker {
    fn iterate(&mut self) {
        let reached = self.core.descend(&mut lock(&self.tree), true);
        let (value, end) = self.core.evaluate(&reached);
        let created = reached.created();
        self.core.backup(&mut lock(&self.tree), created, value, end, true);
    }

    fn with_tree<R>(&self, f: impl FnOnce(&Tree) -> R) -> R {
        f(&lock(&self.tree))
    }

    /// The tree, from the last of the workers sharing it to give it up.
    fn into_tree(self) -> Option<Tree> {
        Arc::try_unwrap(self.tree).ok().map(|m| m.into_inner().unwrap_or_else(PoisonError::into_inner))
    }

    fn seldepth(&self) -> u32 {
        self.core.seldepth
    }

    fn shares_tree(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One thread on a shared tree takes every virtual loss back: its tree
    /// is the owned worker's, iteration for iteration.
    #[test]
    fn a_shared_worker_alone_grows_the_same_tree() {
        let pos = crate::bench::seeded_position(crate::rules::Rules::FLIP, 3, 20);
        let params = Params::for_mode(Mode::Flip);
        let mut owned = Worker::new(Tree::new(pos.clone(), 64 << 20), crate::bench::rng(9), params);
        let shared = Arc::new(Mutex::new(Tree::new(pos, 64 << 20)));
        let mut one = SharedWorker::new(Arc::clone(&shared), crate::bench::rng(9), params);
        for _ in 0..3000 {
            owned.iterate();
            SearchWorker::iterate(&mut one);
        }
        drop(one);
        let t = lock(&shared);
        assert_eq!(t.nodes.len(), owned.tree.nodes.len());
        for (a, b) in t.nodes.iter().zip(&owned.tree.nodes) {
            assert_eq!(a.visits, b.visits);
            assert!((a.value - b.value).abs() < 1e-3, "{} against {}", a.value, b.value);
        }
    }

    #[test]
    fn search_params_override_only_what_they_name() {
        let tuned = Params::for_mode(Mode::Flip);
        assert_eq!(ParamOverrides::parse("").unwrap().apply(tuned), tuned);
        let p = ParamOverrides::parse("priors=false  cpuct=3").unwrap().apply(tuned);
        assert!(!p.use_priors && p.cpuct == 3.0);
        assert_eq!(
            (p.solver, p.fpu_reduction, p.playout_plies),
            (tuned.solver, tuned.fpu_reduction, tuned.playout_plies)
        );
        for bad in ["cpuct", "cpuct=x", "cpuct=-1", "solver=maybe", "depth=3", "playout=999"] {
            assert!(ParamOverrides::parse(bad).is_err(), "{bad}");
        }
    }
}
