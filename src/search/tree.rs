//! The search tree: nodes and edges in two flat arrays, within a memory
//! cap. Decision nodes have one edge per legal action; a flip leads to a
//! chance node with one edge per distinct identity the flip may show,
//! weighted by its count in the face-down pool.

use super::game::{GameState, Label};
use crate::action::Action;
use crate::piece::{Colour, Kind, NUM_KINDS, Piece};
use crate::position::Position;

/// "No node".
pub const NONE: u32 = u32::MAX;

/// A game-theoretic value proven by the solver, from the point of view of
/// the player who moved into the node.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[repr(u8)]
pub enum Proven {
    /// Not proven.
    #[default]
    Unknown,
    /// The mover wins with best play.
    Win,
    /// The mover loses with best play.
    Loss,
    /// A draw with best play.
    Draw,
}

impl Proven {
    /// The same result from the other player's side.
    pub fn flip(self) -> Proven {
        match self {
            Proven::Win => Proven::Loss,
            Proven::Loss => Proven::Win,
            other => other,
        }
    }

    /// The exact value, if proven.
    pub fn value(self) -> Option<f32> {
        match self {
            Proven::Unknown => None,
            Proven::Win => Some(1.0),
            Proven::Loss => Some(-1.0),
            Proven::Draw => Some(0.0),
        }
    }
}

/// One root action's statistics: visits, mean value for the side to move,
/// and its proven result for the side to move.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct RootStat<A = Action> {
    /// The action.
    pub action: A,
    /// Iterations through it.
    pub visits: u32,
    /// Mean result for the side to move, in [-1, 1].
    pub q: f32,
    /// Its proven result for the side to move.
    pub proven: Proven,
    /// Its prior probability.
    pub prior: f32,
}

/// A node: statistics from the point of view of the player who moved into it.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Iterations through this node.
    pub visits: u32,
    /// Sum of the results of those iterations for the mover, in [-1, 1] each.
    pub value: f32,
    /// First edge in the edge array.
    pub first_edge: u32,
    /// Number of edges (0 until expanded).
    pub num_edges: u16,
    /// Edges have been created.
    pub expanded: bool,
    /// A chance node (a flip whose identity is drawn).
    pub chance: bool,
    /// The game is over here.
    pub terminal: bool,
    /// Solver result.
    pub proven: Proven,
    /// Iterations in flight through this node (threads sharing the tree),
    /// each counted as a lost visit by selection until its result arrives.
    pub pending: u16,
}

impl Node {
    fn new(chance: bool) -> Node {
        Node {
            visits: 0,
            value: 0.0,
            first_edge: 0,
            num_edges: 0,
            expanded: false,
            chance,
            terminal: false,
            proven: Proven::Unknown,
            pending: 0,
        }
    }

    /// Mean result for the mover.
    #[inline]
    pub fn q(&self) -> f32 {
        if self.visits == 0 { 0.0 } else { self.value / self.visits as f32 }
    }

    /// Visits and mean result as selection sees them: the iterations in
    /// flight counted as losses (exactly [`Node::q`] when none is).
    #[inline]
    pub fn with_pending(&self) -> (u32, f32) {
        let visits = self.visits + u32::from(self.pending);
        let q = if visits == 0 { 0.0 } else { (self.value - f32::from(self.pending)) / visits as f32 };
        (visits, q)
    }
}

/// An edge: an action (decision nodes), a shown identity (the chance
/// nodes of flips) or a referee's verdict (the outcome nodes of attacks).
/// Eight bytes: the statistics live in the child node, created on the
/// edge's first visit, so that the many edges never visited (flips in the
/// opening) cost little memory. The label is written only by the typed
/// constructors, so each reader finds the kind it expects.
#[derive(Clone, Copy, Debug)]
pub struct Edge {
    label: u16,
    prior: u16,
    /// The child node, or [`NONE`].
    pub child: u32,
}

impl Edge {
    fn new(label: u16, prior: f32) -> Edge {
        Edge { label, prior: (prior.clamp(0.0, 1.0) * 65535.0).round() as u16, child: NONE }
    }

    /// A decision edge for `action`, with prior probability `prior` (stored
    /// to 1/65535).
    pub fn action<A: Label>(action: A, prior: f32) -> Edge {
        Edge::new(action.to_label(), prior)
    }

    /// A chance edge for a flip showing `piece` (of known kind).
    pub fn piece(piece: Piece, prior: f32) -> Edge {
        Edge::new((piece.colour.index() * NUM_KINDS + piece.kind.map_or(0, Kind::index)) as u16, prior)
    }

    /// An outcome edge for verdict number `verdict`.
    pub fn verdict(verdict: u16, prior: f32) -> Edge {
        Edge::new(verdict, prior)
    }

    /// The action of a decision edge, of a game whose actions are `A`.
    #[inline]
    pub fn decode<A: Label>(&self) -> A {
        debug_assert!(A::is_label(self.label), "edge label {} is not an action", self.label);
        A::from_label(self.label)
    }

    /// The action of a decision edge of a two-player tree.
    #[inline]
    pub fn as_action(&self) -> Action {
        self.decode()
    }

    /// The identity shown by a chance edge of a flip.
    #[inline]
    pub fn as_piece(&self) -> Piece {
        let l = usize::from(self.label);
        Piece::new(Colour::from_index(l / NUM_KINDS), Kind::ALL[l % NUM_KINDS])
    }

    /// The raw label (for comparing trees edge by edge).
    #[inline]
    pub fn label(&self) -> u16 {
        self.label
    }

    /// The prior probability.
    #[inline]
    pub fn prior(&self) -> f32 {
        f32::from(self.prior) * (1.0 / 65535.0)
    }

    /// Replaces the prior probability (stored to 1/65535).
    pub fn set_prior(&mut self, prior: f32) {
        self.prior = Edge::new(self.label, prior).prior;
    }
}

/// The tree, over positions of a game (the two-player [`Position`] unless
/// named).
#[derive(Clone, Debug)]
pub struct Tree<P = Position> {
    /// All nodes; the root is node 0.
    pub nodes: Vec<Node>,
    /// All edges.
    pub edges: Vec<Edge>,
    /// The position at the root.
    pub root_pos: P,
    cap_bytes: usize,
}

impl Tree {
    /// The node reached from the root by play leading to `target`, searched
    /// among the nodes already in the tree (up to the ply count of
    /// `target`), or `None`.
    pub fn find(&self, target: &Position) -> Option<u32> {
        if self.root_pos == *target {
            return Some(0);
        }
        self.find_below(0, &self.root_pos, None, target)
    }

    fn find_below(&self, n: u32, pos: &Position, flip: Option<crate::board::Point>, target: &Position) -> Option<u32> {
        let node = &self.nodes[n as usize];
        if !node.expanded || pos.ply() >= target.ply() && flip.is_none() {
            return None;
        }
        for e in self.edges_of(n) {
            if e.child == NONE {
                continue;
            }
            let mut child = pos.clone();
            let mut next_flip = None;
            if let Some(at) = flip {
                child.play_flip(at, e.as_piece());
            } else {
                let a = e.as_action();
                if a.kind() == crate::action::ActionKind::Flip {
                    next_flip = Some(a.from());
                } else {
                    child.play_known(a, None);
                }
            }
            if next_flip.is_none() && child == *target {
                return Some(e.child);
            }
            if let Some(found) = self.find_below(e.child, &child, next_flip, target) {
                return Some(found);
            }
        }
        None
    }
}

impl<P: GameState> Tree<P> {
    /// A tree with just a root, growing to at most `cap_bytes`.
    pub fn new(root_pos: P, cap_bytes: usize) -> Tree<P> {
        let mut nodes = Vec::with_capacity(1024);
        nodes.push(Node::new(false));
        Tree { nodes, edges: Vec::with_capacity(4096), root_pos, cap_bytes }
    }

    /// Changes the memory cap (a tree kept from an earlier search).
    pub fn set_cap(&mut self, cap_bytes: usize) {
        self.cap_bytes = cap_bytes;
    }

    /// Bytes in use.
    pub fn bytes(&self) -> usize {
        self.nodes.len() * std::mem::size_of::<Node>() + self.edges.len() * std::mem::size_of::<Edge>()
    }

    /// Whether adding `nodes` nodes and `edges` edges would pass the cap.
    #[inline]
    pub fn would_overflow(&self, nodes: usize, edges: usize) -> bool {
        self.bytes() + nodes * std::mem::size_of::<Node>() + edges * std::mem::size_of::<Edge>() > self.cap_bytes
    }

    /// Per mille of the cap in use.
    pub fn permille_full(&self) -> u32 {
        (self.bytes() as u64 * 1000 / self.cap_bytes.max(1) as u64).min(1000) as u32
    }

    /// Adds a node and returns its index.
    #[inline]
    pub fn add_node(&mut self, chance: bool) -> u32 {
        self.nodes.push(Node::new(chance));
        (self.nodes.len() - 1) as u32
    }

    /// Creates the child of edge `slot` (a global edge index) if the cap
    /// leaves room for it; returns it.
    pub fn add_child(&mut self, slot: usize, chance: bool) -> Option<u32> {
        if self.would_overflow(1, 0) {
            return None;
        }
        let child = self.add_node(chance);
        self.edges[slot].child = child;
        Some(child)
    }

    /// The edges of node `n`.
    #[inline]
    pub fn edges_of(&self, n: u32) -> &[Edge] {
        let node = &self.nodes[n as usize];
        let start = node.first_edge as usize;
        &self.edges[start..start + usize::from(node.num_edges)]
    }

    /// Gives node `n` its edges.
    pub fn set_edges(&mut self, n: u32, edges: impl Iterator<Item = Edge>) {
        let first = self.edges.len();
        self.edges.extend(edges);
        let node = &mut self.nodes[n as usize];
        node.first_edge = first as u32;
        node.num_edges = (self.edges.len() - first) as u16;
        node.expanded = true;
    }

    /// Keeps only the subtree under `n`, rooted at `pos`, in place: the
    /// nodes and edge blocks still reachable slide down over the rest in
    /// their order, so nothing is allocated or copied twice (copying a
    /// `Hash`-sized tree into fresh memory took 100 ms and more between
    /// `go` and the first iteration). Edge order within a node is kept, so
    /// the search from the result is the search from [`Tree::subtree`].
    pub fn reroot(mut self, n: u32, pos: P) -> Tree<P> {
        const REACHED: u32 = NONE - 1;
        let len = self.nodes.len();
        if n as usize >= len || len >= REACHED as usize {
            return Tree::new(pos, self.cap_bytes);
        }
        // New indices in the old order. A child is always created after its
        // parent, so one forward pass from `n` meets every reachable node
        // after its parent; were that ever not so, copy instead.
        let mut map = vec![NONE; len];
        map[n as usize] = REACHED;
        let mut blocks = Vec::new();
        let mut kept = 0u32;
        for i in n as usize..len {
            if map[i] == NONE {
                continue;
            }
            map[i] = kept;
            kept += 1;
            let node = self.nodes[i];
            if !node.expanded {
                continue;
            }
            blocks.push((node.first_edge, i as u32));
            for e in self.edges_of(i as u32) {
                if e.child == NONE {
                    continue;
                }
                if e.child as usize <= i {
                    return self.subtree(n, pos);
                }
                map[e.child as usize] = REACHED;
            }
        }
        for (i, &to) in map.iter().enumerate().skip(n as usize) {
            if to != NONE {
                self.nodes[to as usize] = self.nodes[i];
            }
        }
        self.nodes.truncate(kept as usize);
        // Edge blocks in their old order, each moved down to the end of the
        // blocks kept before it.
        blocks.sort_unstable();
        let mut end = 0usize;
        for (first, old) in blocks {
            let node = &mut self.nodes[map[old as usize] as usize];
            let (first, count) = (first as usize, usize::from(node.num_edges));
            node.first_edge = end as u32;
            self.edges.copy_within(first..first + count, end);
            for e in &mut self.edges[end..end + count] {
                if e.child != NONE {
                    e.child = map[e.child as usize];
                }
            }
            end += count;
        }
        self.edges.truncate(end);
        self.root_pos = pos;
        self
    }

    /// Copies the subtree under `n` into a new tree rooted at `pos` (the
    /// simple form of [`Tree::reroot`], which tests compare it with).
    pub fn subtree(&self, n: u32, pos: P) -> Tree<P> {
        let mut t = Tree::new(pos, self.cap_bytes);
        t.nodes[0] = self.nodes[n as usize];
        let mut stack = vec![(n, 0u32)];
        while let Some((old, new)) = stack.pop() {
            let node = self.nodes[old as usize];
            if !node.expanded {
                continue;
            }
            let first = t.edges.len() as u32;
            for e in self.edges_of(old) {
                let mut e = *e;
                if e.child != NONE {
                    let child_new = t.nodes.len() as u32;
                    t.nodes.push(self.nodes[e.child as usize]);
                    stack.push((e.child, child_new));
                    e.child = child_new;
                }
                t.edges.push(e);
            }
            t.nodes[new as usize].first_edge = first;
        }
        t
    }

    /// The root's actions with their visits, mean values for the side to
    /// move, and proven results (for the side to move).
    pub fn root_stats(&self) -> Vec<RootStat<P::Action>> {
        if !self.nodes[0].expanded {
            return Vec::new();
        }
        self.edges_of(0)
            .iter()
            .map(|e| {
                let (action, prior) = (e.decode(), e.prior());
                match e.child {
                    NONE => RootStat { action, visits: 0, q: 0.0, proven: Proven::Unknown, prior },
                    c => {
                        let n = &self.nodes[c as usize];
                        RootStat { action, visits: n.visits, q: n.q(), proven: n.proven, prior }
                    }
                }
            })
            .collect()
    }

    /// The principal variation: most-visited edges from the root, through
    /// the most-visited branch at chance and outcome nodes.
    pub fn pv(&self, max_len: usize) -> Vec<P::Action> {
        let mut pv = Vec::new();
        self.extend_pv(0, max_len, &mut pv);
        pv
    }

    /// The principal variation that starts with the root action `action`:
    /// that action, then the most-visited line below it; empty when the
    /// root has no such action.
    pub fn pv_of(&self, action: P::Action, max_len: usize) -> Vec<P::Action> {
        let root = self.nodes[0];
        if !root.expanded || max_len == 0 {
            return Vec::new();
        }
        let Some(e) = self.edges_of(0).iter().find(|e| e.decode::<P::Action>() == action) else {
            return Vec::new();
        };
        let mut pv = vec![action];
        if e.child != NONE {
            self.extend_pv(e.child, max_len, &mut pv);
        }
        pv
    }

    /// Extends `pv` from node `node` down the most-visited edges, to at
    /// most `max_len` actions.
    fn extend_pv(&self, mut node: u32, max_len: usize, pv: &mut Vec<P::Action>) {
        while pv.len() < max_len {
            let n = &self.nodes[node as usize];
            if !n.expanded {
                break;
            }
            let best = self
                .edges_of(node)
                .iter()
                .filter(|e| e.child != NONE)
                .max_by_key(|e| self.nodes[e.child as usize].visits);
            let Some(e) = best else { break };
            if !n.chance {
                pv.push(e.decode());
            }
            node = e.child;
        }
    }

    /// Restricts the root to the actions in `allowed` (`go searchmoves`):
    /// the root's edges for them move to the front of its block, in their
    /// order, and the others are no longer its edges. Returns how many it
    /// kept; with none of `allowed` among its edges (or an unexpanded root)
    /// the root is left as it was.
    pub fn keep_root_actions(&mut self, allowed: &[P::Action]) -> usize {
        let root = self.nodes[0];
        if !root.expanded {
            return 0;
        }
        let start = root.first_edge as usize;
        let block = &mut self.edges[start..start + usize::from(root.num_edges)];
        let (mut kept, mut rest): (Vec<Edge>, Vec<Edge>) =
            block.iter().partition(|e| allowed.contains(&e.decode::<P::Action>()));
        let n = kept.len();
        if n == 0 {
            return 0;
        }
        kept.append(&mut rest);
        block.copy_from_slice(&kept);
        self.nodes[0].num_edges = n as u16;
        n
    }
}
