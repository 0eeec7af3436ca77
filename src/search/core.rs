//! The search core every worker shares: one iteration is a descent through
//! the tree (decision steps chosen by PUCT, chance steps chosen by the
//! game), the evaluation of what it reached, and the backup of the result
//! along the path, with the MCTS-Solver where results are exact.
//!
//! What differs between the searches is a [`Walk`]: the game state an
//! iteration carries down the tree and how it answers at each kind of
//! node. The public walk (`flip`, `open`, [`super::mcts`]) plays on the
//! true position and draws flips at chance nodes; the hidden walk
//! (`classic`, [`super::ismcts`]) plays on a sampled world and its public
//! view, with the referee's verdicts at chance nodes. A [`Worker`] is a
//! walk, a [`Core`] and a tree it owns or shares.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::SearchWorker;
use super::game::GameState;
use super::leaf::for_red;
use super::params::Params;
use super::tree::{Edge, NONE, Node, Proven, Tree};
use crate::piece::Colour;
use crate::random::Rng;

/// Selection's value of a child proven lost for the side choosing it: below
/// any real value in [-1, 1], so it is chosen only when nothing else is left.
const PROVEN_LOSS_Q: f32 = -10.0;

/// Room reserved for the actions, priors and path of one iteration.
const ACTIONS_CAPACITY: usize = 256;
const PATH_CAPACITY: usize = 64;

/// A finished game: its winner, `None` for a draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Terminal {
    /// The winner, `None` for a draw.
    pub winner: Option<Colour>,
}

impl Terminal {
    /// The result for Red: 1, 0 or -1.
    pub fn value_for_red(self) -> f32 {
        self.winner.map_or(0.0, |w| for_red(1.0, Some(w)))
    }

    /// The proven result for the player who moved into the node.
    pub fn proven_for(self, mover: Option<Colour>) -> Proven {
        match (self.winner, mover) {
            (None, _) => Proven::Draw,
            (Some(w), Some(m)) if w == m => Proven::Win,
            _ => Proven::Loss,
        }
    }
}

/// One step of an iteration's path: the node and the player who moved into
/// it (`None`: the root before the first flip).
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The node.
    pub node: u32,
    /// Who moved into it.
    pub mover: Option<Colour>,
}

/// Where a descent ended.
#[derive(Clone, Copy, Debug)]
pub enum Reached {
    /// A value for Red known without evaluation (a proven node, or a world
    /// where the side to move has no action).
    Exact(f32),
    /// A position to evaluate, with the node just created for it, if any.
    Leaf(Option<Step>),
}

/// Where one step of a descent leads.
#[derive(Clone, Copy, Debug)]
enum Next {
    /// Along edge `i` of the node, to a child whose mover is `mover` and
    /// which is a chance node when `chance_next`.
    Edge { i: usize, mover: Option<Colour>, chance_next: bool },
    /// Nowhere: the descent ends.
    End(Reached),
}

/// What a walk answers at a decision node.
#[derive(Clone, Copy, Debug)]
pub enum Pick {
    /// Follow this edge (index among the node's edges).
    Edge(usize),
    /// End the descent here.
    Stop(Reached),
}

/// The game state one iteration carries down the tree, and the choices
/// that depend on it.
pub trait Walk: Send {
    /// The positions of the tree's decision nodes.
    type Pos: GameState;

    /// Whether proven results are exact for this walk: the solver then
    /// propagates them and selection takes a proven win at once (the
    /// hidden walk uses them only as values, legality varying by world).
    const SOLVES: bool;

    /// Adjusts the tree before an iteration (nothing by default).
    fn prepare(&mut self, _tree: &mut Tree<Self::Pos>) {}

    /// Sets the state to the root position for a new iteration.
    fn begin(&mut self, core: &mut Core<Self::Pos>, root: &Self::Pos);

    /// The position whose legal actions are a decision node's edges.
    fn public(&self) -> &Self::Pos;

    /// A game over in [`Walk::public`] before any action (`None`: go on).
    fn finished(&self) -> Option<Terminal>;

    /// At chance node `node` (expanded here if need be): the edge to follow
    /// and the mover of its child; `None` when the tree is full (the
    /// descent then ends at a leaf).
    fn chance(
        &mut self,
        core: &mut Core<Self::Pos>,
        tree: &mut Tree<Self::Pos>,
        node: u32,
    ) -> Option<(usize, Option<Colour>)>;

    /// At expanded decision node `node`: the edge to follow.
    fn select(&mut self, core: &Core<Self::Pos>, tree: &Tree<Self::Pos>, node: u32) -> Pick;

    /// Plays `action`; returns whether a chance node follows it.
    fn play(&mut self, action: <Self::Pos as GameState>::Action) -> bool;

    /// Completes the state when the descent stops between an action and its
    /// chance node.
    fn settle(&mut self, rng: &mut Rng);

    /// The value for Red of the leaf reached, and its result when the game
    /// is over there in a way the node may keep (`created` is the node the
    /// descent made for it).
    fn evaluate(&mut self, core: &mut Core<Self::Pos>, created: Option<Step>) -> (f32, Option<Terminal>);
}

/// The state of one search thread apart from its walk and its tree: its
/// random numbers, constants, scratch buffers, and the path of the current
/// iteration.
#[derive(Debug)]
pub struct Core<P: GameState> {
    pub(super) rng: Rng,
    pub(super) params: Params,
    pub(super) seldepth: u32,
    actions: Vec<P::Action>,
    scratch: Vec<P::Action>,
    priors: Vec<f32>,
    pub(super) path: Vec<Step>,
    /// Nodes moved into by this player take nothing from the current
    /// iteration (set by the walk when it begins one; `None`: all do).
    pub(super) blind_mover: Option<Colour>,
}

impl<P: GameState> Core<P> {
    /// A core drawing from `rng`, with `params`.
    pub fn new(rng: Rng, params: Params) -> Core<P> {
        Core {
            rng,
            params,
            seldepth: 0,
            actions: Vec::with_capacity(ACTIONS_CAPACITY),
            scratch: Vec::with_capacity(ACTIONS_CAPACITY),
            priors: Vec::with_capacity(ACTIONS_CAPACITY),
            path: Vec::with_capacity(PATH_CAPACITY),
            blind_mover: None,
        }
    }

    /// Gives decision node `node` one edge per legal action of `pos`, with
    /// priors; `false` when the tree has no room for them.
    fn expand(&mut self, tree: &mut Tree<P>, node: u32, pos: &P) -> bool {
        self.actions.clear();
        pos.legal(&mut self.actions);
        if tree.would_overflow(0, self.actions.len()) {
            return false;
        }
        pos.priors(&self.actions, self.params.use_priors, &mut self.scratch, &mut self.priors);
        let edges = self.actions.iter().zip(&self.priors).map(|(a, &prior)| Edge::action(*a, prior));
        tree.set_edges(node, edges);
        true
    }

    /// PUCT at decision node `node`: the edge maximising its value plus the
    /// exploration bonus, the parent's count for an edge given by
    /// `sqrt_count` (`None`: the edge is not available now). Iterations in
    /// flight on a shared tree count as lost visits
    /// ([`Node::with_pending`]): the virtual loss that keeps threads apart.
    /// With `exact_proven`, a proven win is taken at once and a proven loss
    /// chosen last.
    pub fn select(
        &self,
        tree: &Tree<P>,
        node: u32,
        exact_proven: bool,
        mut sqrt_count: impl FnMut(usize) -> Option<f32>,
    ) -> Option<usize> {
        // The node's value is for the player who moved into it; the side to move sees its negation.
        let fpu = -tree.nodes[node as usize].with_pending().1 - self.params.fpu_reduction;
        // `usize::MAX`: no edge yet (cheaper in this hot loop than an Option).
        let mut best = usize::MAX;
        let mut best_score = f32::NEG_INFINITY;
        for (i, e) in tree.edges_of(node).iter().enumerate() {
            let Some(sqrt_n) = sqrt_count(i) else {
                continue;
            };
            let (q, visits) = if e.child == NONE {
                (fpu, 0)
            } else {
                let c = &tree.nodes[e.child as usize];
                let (visits, q) = c.with_pending();
                let q = match c.proven {
                    Proven::Unknown => q,
                    Proven::Win if exact_proven => return Some(i),
                    Proven::Loss if exact_proven => PROVEN_LOSS_Q,
                    p => p.value().unwrap_or(q),
                };
                (q, visits)
            };
            let score = q + self.params.cpuct * e.prior() * sqrt_n / (1 + visits) as f32;
            if score > best_score {
                best_score = score;
                best = i;
            }
        }
        (best != usize::MAX).then_some(best)
    }

    /// The step at chance node `node`: the branch the walk draws (a flip's
    /// identity, an attack's verdict).
    fn chance_step<W: Walk<Pos = P>>(&mut self, tree: &mut Tree<P>, walk: &mut W, node: u32) -> Next {
        match walk.chance(self, tree, node) {
            Some((i, mover)) => Next::Edge { i, mover, chance_next: false },
            None => Next::End(Reached::Leaf(None)),
        }
    }

    /// The step at decision node `node` (expanded here if need be): the
    /// action the walk selects, played on its state.
    fn decision_step<W: Walk<Pos = P>>(&mut self, tree: &mut Tree<P>, walk: &mut W, node: u32) -> Next {
        if let Some(t) = walk.finished() {
            return Next::End(Reached::Exact(t.value_for_red()));
        }
        if !tree.nodes[node as usize].expanded && !self.expand(tree, node, walk.public()) {
            return Next::End(Reached::Leaf(None));
        }
        let mover = walk.public().mover();
        match walk.select(self, tree, node) {
            Pick::Edge(i) => {
                let chance_next = walk.play(tree.edges_of(node)[i].decode());
                Next::Edge { i, mover, chance_next }
            }
            Pick::Stop(r) => Next::End(r),
        }
    }

    /// Selection and expansion from the root down to a proven node or a
    /// position to evaluate; the path is left in `self.path`. With
    /// `virtual_loss`, the path's nodes count the pending iteration as a loss.
    fn descend<W: Walk<Pos = P>>(&mut self, tree: &mut Tree<P>, walk: &mut W, virtual_loss: bool) -> Reached {
        walk.prepare(tree);
        walk.begin(self, &tree.root_pos);
        self.path.clear();
        let root_mover = tree.root_pos.mover().map(Colour::opposite);
        self.path.push(Step { node: 0, mover: root_mover });
        let mut node = 0u32;
        // Actions taken (a chance node's branch is not one).
        let mut plies = 0u32;
        let reached = loop {
            let n = tree.nodes[node as usize];
            if let Some(v) = n.proven.value() {
                break Reached::Exact(for_red(v, self.path.last().and_then(|p| p.mover)));
            }
            let next = if n.chance { self.chance_step(tree, walk, node) } else { self.decision_step(tree, walk, node) };
            let (i, mover, chance_next) = match next {
                Next::Edge { i, mover, chance_next } => (i, mover, chance_next),
                Next::End(r) => break r,
            };
            if !n.chance {
                plies += 1;
            }
            // The step may have expanded the node: read its edges afresh.
            let slot = tree.nodes[node as usize].first_edge as usize + i;
            let child = match tree.edges[slot].child {
                NONE => match tree.add_child(slot, chance_next) {
                    Some(child) => child,
                    None => {
                        walk.settle(&mut self.rng);
                        break Reached::Leaf(None);
                    }
                },
                existing => {
                    self.path.push(Step { node: existing, mover });
                    node = existing;
                    continue;
                }
            };
            // A new node: a chance node is drawn at once, anything else is
            // the leaf to evaluate.
            let step = Step { node: child, mover };
            self.path.push(step);
            if !chance_next {
                break Reached::Leaf(Some(step));
            }
            node = child;
        };
        self.seldepth = self.seldepth.max(plies);
        if virtual_loss {
            for step in &self.path {
                let n = &mut tree.nodes[step.node as usize];
                n.pending = n.pending.saturating_add(1);
            }
        }
        reached
    }

    /// Marks a new node that is a finished game, adds the result to the
    /// path (taking back the virtual loss) and, where results are exact,
    /// runs the solver.
    fn backup(&mut self, tree: &mut Tree<P>, created: Option<Step>, value: f32, end: Option<Terminal>, flags: Backup) {
        if let (Some(step), Some(t)) = (created, end) {
            let n = &mut tree.nodes[step.node as usize];
            n.terminal = true;
            n.proven = t.proven_for(step.mover);
        }
        for step in &self.path {
            let n = &mut tree.nodes[step.node as usize];
            if flags.virtual_loss {
                n.pending = n.pending.saturating_sub(1);
            }
            if self.blind_mover.is_some() && step.mover == self.blind_mover {
                continue;
            }
            n.visits += 1;
            n.value += for_red(value, step.mover);
        }
        if flags.solves && self.params.solver {
            self.solve_path(tree);
        }
    }

    /// Propagates proven results up the path of the last iteration.
    fn solve_path(&self, tree: &mut Tree<P>) {
        for step in self.path.iter().rev() {
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

/// How a backup treats the path.
#[derive(Clone, Copy, Debug)]
struct Backup {
    virtual_loss: bool,
    solves: bool,
}

/// A decision node, for its mover: lost if the side to move has a proven
/// win; won if every action is a proven loss for the side to move.
fn prove_decision<P: GameState>(tree: &Tree<P>, idx: u32) -> Proven {
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

/// A chance node: proven when every branch leads to the same proven result.
fn prove_chance<P: GameState>(tree: &Tree<P>, idx: u32) -> Proven {
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

/// Where a worker's tree lives: owned, or shared with other threads behind
/// a lock (tree parallelism).
pub trait TreeHolder<P>: Send {
    /// Whether other workers use the same tree (virtual loss applies, and
    /// their roots are not merged).
    const SHARED: bool;
    /// Runs `f` on the tree.
    fn with<R>(&self, f: impl FnOnce(&Tree<P>) -> R) -> R;
    /// Runs `f` on the tree, mutably.
    fn with_mut<R>(&mut self, f: impl FnOnce(&mut Tree<P>) -> R) -> R;
    /// The tree, from its owner or the last of the workers sharing it.
    fn into_tree(self) -> Option<Tree<P>>;
}

impl<P: Send> TreeHolder<P> for Tree<P> {
    const SHARED: bool = false;

    fn with<R>(&self, f: impl FnOnce(&Tree<P>) -> R) -> R {
        f(self)
    }

    fn with_mut<R>(&mut self, f: impl FnOnce(&mut Tree<P>) -> R) -> R {
        f(self)
    }

    fn into_tree(self) -> Option<Tree<P>> {
        Some(self)
    }
}

fn lock<P>(tree: &Mutex<Tree<P>>) -> MutexGuard<'_, Tree<P>> {
    tree.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<P: Send> TreeHolder<P> for Arc<Mutex<Tree<P>>> {
    const SHARED: bool = true;

    fn with<R>(&self, f: impl FnOnce(&Tree<P>) -> R) -> R {
        f(&lock(self))
    }

    fn with_mut<R>(&mut self, f: impl FnOnce(&mut Tree<P>) -> R) -> R {
        f(&mut lock(self))
    }

    fn into_tree(self) -> Option<Tree<P>> {
        Arc::try_unwrap(self).ok().map(|m| m.into_inner().unwrap_or_else(PoisonError::into_inner))
    }
}

/// One search thread: a walk, a core, and the tree it grows. Selection,
/// expansion and the backup happen on the tree (under the lock when it is
/// shared), the leaf's evaluation outside it.
pub struct Worker<W: Walk, H = Tree<<W as Walk>::Pos>> {
    /// The tree.
    pub tree: H,
    pub(super) core: Core<W::Pos>,
    pub(super) walk: W,
}

impl<W: Walk, H: TreeHolder<W::Pos>> Worker<W, H> {
    /// A worker with `walk` on `tree`.
    pub fn with_walk(tree: H, rng: Rng, params: Params, walk: W) -> Worker<W, H> {
        Worker { tree, core: Core::new(rng, params), walk }
    }

    /// One iteration from the root.
    pub fn iterate(&mut self) {
        let Worker { tree, core, walk } = self;
        let reached = tree.with_mut(|t| core.descend(t, walk, H::SHARED));
        let (value, end, created) = match reached {
            Reached::Exact(v) => (v, None, None),
            Reached::Leaf(created) => {
                let (v, end) = walk.evaluate(core, created);
                (v, end, created)
            }
        };
        let flags = Backup { virtual_loss: H::SHARED, solves: W::SOLVES };
        tree.with_mut(|t| core.backup(t, created, value, end, flags));
    }
}

impl<W: Walk> Worker<W, Tree<W::Pos>> {
    /// Its tree.
    pub fn tree(&self) -> &Tree<W::Pos> {
        &self.tree
    }
}

impl<W: Walk, H: TreeHolder<W::Pos>> SearchWorker for Worker<W, H> {
    type Pos = W::Pos;

    fn iterate(&mut self) {
        Worker::iterate(self);
    }

    fn with_tree<R>(&self, f: impl FnOnce(&Tree<W::Pos>) -> R) -> R {
        self.tree.with(f)
    }

    fn into_tree(self) -> Option<Tree<W::Pos>> {
        self.tree.into_tree()
    }

    fn seldepth(&self) -> u32 {
        self.core.seldepth
    }

    fn shares_tree(&self) -> bool {
        H::SHARED
    }
}

/// The parent count of every edge at a node, as plain PUCT uses it.
pub fn parent_sqrt(node: &Node) -> f32 {
    (node.with_pending().0.max(1) as f32).sqrt()
}
