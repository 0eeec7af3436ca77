//! The tree search of the public games (`flip`, `open`): PUCT with domain
//! priors over the true position, chance nodes for flips (the identity
//! drawn from the face-down pool), evaluation of new leaves, and the
//! MCTS-Solver. The iteration itself is the [`super::core`]'s; this is its
//! [`Walk`].
//!
//! Values are kept from the point of view of the player who moved into a
//! node. Nothing in the tree depends on a face-down identity except through
//! a chance node that drew it from the public pool.

use std::sync::{Arc, Mutex};

use rand::RngExt;

use super::core::{Core, Pick, Reached, Step, Terminal, TreeHolder, Walk, parent_sqrt};
use super::leaf::LeafEval;
use super::params::Params;
use super::tree::{Edge, Tree};
use crate::action::{Action, ActionKind};
use crate::board::Point;
use crate::piece::{Colour, Kind, Piece};
use crate::position::Position;
use crate::random::Rng;

/// The walk of the public games: the true position, the point of a flip
/// whose identity the next chance node draws, and the leaf evaluator.
#[derive(Debug)]
pub struct Public {
    pos: Position,
    pending_flip: Option<Point>,
    leaf: LeafEval,
}

/// One searcher thread with a tree of its own (root parallelism: the roots
/// of the threads' trees are merged when the search ends).
pub type Worker = super::core::Worker<Public, Tree>;

/// One of several searcher threads sharing one tree behind a lock (tree
/// parallelism), a virtual loss on the pending path keeping them apart.
pub type SharedWorker = super::core::Worker<Public, Arc<Mutex<Tree>>>;

impl<H: TreeHolder<Position>> super::core::Worker<Public, H> {
    /// A worker on `tree`, drawing from `rng`.
    pub fn new(tree: H, rng: Rng, params: Params) -> Self {
        let pos = tree.with(|t| t.root_pos.clone());
        Self::with_walk(tree, rng, params, Public { pos, pending_flip: None, leaf: LeafEval::new(&params) })
    }
}

/// Gives chance node `node` one edge per identity in the face-down pool of
/// `pos`, weighted by its count; `false` when the tree has no room.
fn expand_chance(tree: &mut Tree, node: u32, pos: &Position) -> bool {
    if tree.would_overflow(0, pos.pool_distinct() as usize) {
        return false;
    }
    let total: f32 = pos.pool().iter().flatten().map(|&n| f32::from(n)).sum();
    let mut edges = Vec::with_capacity(2 * crate::piece::NUM_KINDS);
    for c in Colour::BOTH {
        for k in Kind::ALL {
            let n = pos.pool_count(c, k);
            if n > 0 {
                edges.push(Edge::piece(Piece::new(c, k), f32::from(n) / total));
            }
        }
    }
    tree.set_edges(node, edges.into_iter());
    true
}

/// Draws a chance edge of `node` with the exact weight of its identity's
/// count in the face-down pool of `pos` (the position before the flip).
fn sample_chance(rng: &mut Rng, tree: &Tree, node: u32, pos: &Position) -> usize {
    let edges = tree.edges_of(node);
    let total: u32 = pos.pool().iter().flatten().map(|&n| u32::from(n)).sum();
    let mut r = rng.random_range(0..total.max(1));
    for (i, e) in edges.iter().enumerate() {
        let p = e.as_piece();
        let n = p.kind.map_or(0, |k| u32::from(pos.pool_count(p.colour, k)));
        if r < n {
            return i;
        }
        r -= n;
    }
    edges.len().saturating_sub(1)
}

impl Walk for Public {
    type Pos = Position;
    const SOLVES: bool = true;

    fn begin(&mut self, _: &mut Core<Position>, root: &Position) {
        self.pos = root.clone();
        self.pending_flip = None;
    }

    fn public(&self) -> &Position {
        &self.pos
    }

    fn finished(&self) -> Option<Terminal> {
        // The leaf evaluation finds finished games; they are then marked.
        None
    }

    fn chance(&mut self, core: &mut Core<Position>, tree: &mut Tree, node: u32) -> Option<(usize, Option<Colour>)> {
        // A chance node is entered only through a flip's edge.
        let at = self.pending_flip?;
        if !tree.nodes[node as usize].expanded && !expand_chance(tree, node, &self.pos) {
            self.settle(&mut core.rng);
            return None;
        }
        let i = sample_chance(&mut core.rng, tree, node, &self.pos);
        let pc = tree.edges_of(node)[i].as_piece();
        self.pos.play_flip(at, pc);
        self.pending_flip = None;
        // Before the first flip the flipper's colour is what it shows.
        let last = core.path.last_mut()?;
        let flipper = last.mover.or(Some(pc.colour));
        last.mover = flipper;
        Some((i, flipper))
    }

    fn select(&mut self, core: &Core<Position>, tree: &Tree, node: u32) -> Pick {
        let n = &tree.nodes[node as usize];
        // A finished game another thread reached first and has not yet marked.
        if n.num_edges == 0 {
            return Pick::Stop(Reached::Leaf(None));
        }
        let sqrt_n = parent_sqrt(n);
        core.select(tree, node, true, |_| Some(sqrt_n)).map_or(Pick::Stop(Reached::Leaf(None)), Pick::Edge)
    }

    fn play(&mut self, a: Action) -> bool {
        if a.kind() == ActionKind::Flip {
            self.pending_flip = Some(a.from());
            return true;
        }
        self.pos.play_known(a, None);
        false
    }

    fn settle(&mut self, rng: &mut Rng) {
        if let Some(at) = self.pending_flip.take() {
            if let Some(pc) = self.pos.sample_pool(rng) {
                self.pos.play_flip(at, pc);
            }
        }
    }

    fn evaluate(&mut self, core: &mut Core<Position>, _: Option<Step>) -> (f32, Option<Terminal>) {
        self.leaf.value(&self.pos, &mut core.rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Mode;
    use crate::search::SearchWorker;

    /// One thread on a shared tree takes every virtual loss back: its tree
    /// is the owned worker's, iteration for iteration.
    #[test]
    fn a_shared_worker_alone_grows_the_same_tree() {
        let pos = crate::random::seeded_position(crate::rules::Rules::FLIP, 3, 20);
        let params = Params::for_mode(Mode::Flip);
        let mut owned = Worker::new(Tree::new(pos.clone(), 64 << 20), crate::random::rng(9), params);
        let shared = Arc::new(Mutex::new(Tree::new(pos, 64 << 20)));
        let mut one = SharedWorker::new(Arc::clone(&shared), crate::random::rng(9), params);
        for _ in 0..3000 {
            owned.iterate();
            SearchWorker::iterate(&mut one);
        }
        drop(one);
        let t = shared.lock().expect("not poisoned");
        assert_eq!(t.nodes.len(), owned.tree.nodes.len());
        for (a, b) in t.nodes.iter().zip(&owned.tree.nodes) {
            assert_eq!(a.visits, b.visits);
            assert!((a.value - b.value).abs() < 1e-3, "{} against {}", a.value, b.value);
        }
    }
}
