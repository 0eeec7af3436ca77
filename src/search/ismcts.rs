//! Information Set MCTS (single observer) for `classic`: the tree is built
//! over what the engine observes; each iteration draws a world (a kind for
//! every enemy piece) from the belief, only actions legal in that world may
//! be chosen, and each edge counts how often it was available (its
//! exploration term uses that count instead of the parent's visits).
//! Opponent moves inside the tree are chosen by the same statistics among
//! the actions legal in the sampled world. An attack leads to an outcome
//! node whose branches are the referee's verdicts (`+`, `-`, `=`, and a
//! capture of the flag), each followed as the sampled world decides it.

use super::SearchWorker;
use super::leaf::{LeafEval, for_red};
use super::mcts::{Params, Step};
use super::priors;
use super::tree::{Edge, NONE, Proven, Tree, label_action};
use crate::action::{Action, ActionKind};
use crate::belief::Belief;
use crate::belief::sampler::WorldSampler;
use crate::bench::Rng;
use crate::board::Bitboard;
use crate::board::Point;
use crate::combat::Outcome;
use crate::movegen::ActionSink;
use crate::piece::{Colour, Kind};
use crate::position::Position;

/// Outcome-node labels: the three verdicts, and `+` that took the flag.
const FLAG_TAKEN: u16 = 3;

/// Legal actions of a world, by origin, for membership tests.
#[derive(Clone, Copy)]
struct LegalSet {
    moves: [Bitboard; 60],
    attacks: [Bitboard; 60],
}

impl ActionSink for LegalSet {
    fn flips(&mut self, _points: Bitboard) {}

    fn piece(&mut self, from: Point, moves: Bitboard, attacks: Bitboard) {
        self.moves[from.index()] = moves;
        self.attacks[from.index()] = attacks;
    }
}

impl LegalSet {
    fn of(pos: &Position) -> LegalSet {
        let mut s = LegalSet { moves: [Bitboard::EMPTY; 60], attacks: [Bitboard::EMPTY; 60] };
        pos.generate(&mut s);
        s
    }

    fn contains(&self, a: Action) -> bool {
        match a.kind() {
            ActionKind::Move => self.moves[a.from().index()].contains(a.to()),
            ActionKind::Attack => self.attacks[a.from().index()].contains(a.to()),
            ActionKind::Flip => false,
        }
    }
}

/// One ISMCTS thread.
pub struct IsWorker {
    tree: Tree,
    avail: Vec<u32>,
    rng: Rng,
    params: Params,
    seldepth: u32,
    belief: Belief,
    sampler: WorldSampler,
    leaf_eval: LeafEval,
    actions: Vec<Action>,
    scratch: Vec<Action>,
    priors: Vec<f32>,
    path: Vec<Step>,
}

impl IsWorker {
    /// A worker for the view at `tree`'s root, drawing worlds from `sampler`.
    pub fn new(tree: Tree, rng: Rng, params: Params, belief: Belief, sampler: WorldSampler) -> IsWorker {
        IsWorker {
            avail: vec![0; tree.edges.len()],
            tree,
            rng,
            params,
            seldepth: 0,
            belief,
            sampler,
            leaf_eval: LeafEval::new(params.playout_plies),
            actions: Vec::with_capacity(256),
            scratch: Vec::with_capacity(256),
            priors: Vec::with_capacity(256),
            path: Vec::with_capacity(64),
        }
    }

    /// Its tree.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    fn set_edges(&mut self, node: u32, edges: impl Iterator<Item = Edge>) {
        self.tree.set_edges(node, edges);
        self.avail.resize(self.tree.edges.len(), 0);
    }

    /// Edges for every action legal in some world: the view's actions
    /// (pieces of unknown kind move as any movable piece could).
    fn expand(&mut self, node: u32, view: &Position) -> bool {
        self.actions.clear();
        view.legal_actions(&mut self.actions);
        if self.tree.would_overflow(0, self.actions.len()) {
            return false;
        }
        priors::for_node(view, &self.actions, self.params.use_priors, &mut self.scratch, &mut self.priors);
        let edges: Vec<Edge> = self.actions.iter().zip(&self.priors).map(|(a, &p)| Edge::new(a.to_u16(), p)).collect();
        self.set_edges(node, edges.into_iter());
        true
    }

    /// Selection among the edges legal in the world, with availability
    /// counts; `None` when no edge is legal there.
    fn select(&mut self, node: u32, legal: &LegalSet) -> Option<usize> {
        let n = self.tree.nodes[node as usize];
        let fpu = -n.q() - self.params.fpu_reduction;
        let first = n.first_edge as usize;
        let mut best = None;
        let mut best_score = f32::NEG_INFINITY;
        for i in 0..usize::from(n.num_edges) {
            let e = self.tree.edges[first + i];
            if !legal.contains(label_action(e.label)) {
                continue;
            }
            self.avail[first + i] += 1;
            let (q, visits) = if e.child == NONE {
                (fpu, 0)
            } else {
                let c = &self.tree.nodes[e.child as usize];
                (c.proven.value().unwrap_or_else(|| c.q()), c.visits)
            };
            let sqrt_avail = (self.avail[first + i] as f32).sqrt();
            let score = q + self.params.cpuct * e.prior() * sqrt_avail / (1 + visits) as f32;
            if score > best_score {
                best_score = score;
                best = Some(i);
            }
        }
        best
    }

    /// The value for Red of a position of this world seen for the first
    /// time; a finished game in the view (flag taken, quiet limit) is
    /// marked on the node, being the same in every world.
    fn new_leaf(&mut self, child: u32, view: &Position, world: &Position, mover: Option<Colour>) -> f32 {
        if let Some(r) = view.outcome_without_actions() {
            let n = &mut self.tree.nodes[child as usize];
            n.terminal = true;
            n.proven = match (r.winner, mover) {
                (None, _) => Proven::Draw,
                (Some(w), Some(m)) if w == m => Proven::Win,
                _ => Proven::Loss,
            };
            return r.winner.map_or(0.0, |w| for_red(1.0, Some(w)));
        }
        self.leaf_eval.value(world, &mut self.rng).0
    }

    /// One iteration: draw a world, descend, evaluate, back up.
    pub fn iterate(&mut self) {
        self.sampler.walk(crate::belief::sampler::STEPS_PER_WORLD, &mut self.rng);
        let mut world = self.sampler.world(&self.tree.root_pos, &self.belief);
        let mut view = self.tree.root_pos.clone();
        self.path.clear();
        self.path.push(Step { node: 0, mover: view.side_to_move().map(Colour::opposite) });
        let mut node = 0u32;
        let mut verdict = 0u16;
        let value: f32;
        loop {
            let n = self.tree.nodes[node as usize];
            let mover = self.path.last().and_then(|s| s.mover);
            if let Some(v) = n.proven.value() {
                value = for_red(v, mover);
                break;
            }
            if n.chance {
                if !n.expanded {
                    if self.tree.would_overflow(0, 4) {
                        value = self.leaf_eval.value(&world, &mut self.rng).0;
                        break;
                    }
                    self.set_edges(node, (0..4).map(|l| Edge::new(l, 0.25)));
                }
                let slot = self.tree.nodes[node as usize].first_edge as usize + usize::from(verdict);
                let child = self.tree.edges[slot].child;
                if child == NONE {
                    let Some(c) = self.tree.add_child(slot, false) else {
                        value = self.leaf_eval.value(&world, &mut self.rng).0;
                        break;
                    };
                    self.path.push(Step { node: c, mover });
                    value = self.new_leaf(c, &view, &world, mover);
                    break;
                }
                node = child;
                self.path.push(Step { node, mover });
                continue;
            }
            if let Some(r) = view.outcome_without_actions() {
                value = r.winner.map_or(0.0, |w| for_red(1.0, Some(w)));
                break;
            }
            if !n.expanded && !self.expand(node, &view) {
                value = self.leaf_eval.value(&world, &mut self.rng).0;
                break;
            }
            let side = view.side_to_move();
            let legal = LegalSet::of(&world);
            let Some(i) = self.select(node, &legal) else {
                // No legal action in this world: the side to move loses.
                value = side.map_or(0.0, |s| for_red(-1.0, Some(s)));
                break;
            };
            let slot = self.tree.nodes[node as usize].first_edge as usize + i;
            let e = self.tree.edges[slot];
            let a = label_action(e.label);
            let is_attack = a.kind() == ActionKind::Attack;
            if is_attack {
                let outcome = world.attack_outcome(a.from(), a.to()).unwrap_or(Outcome::DefenderWins);
                let flag = world.kind_at(a.to()) == Some(Kind::Flag) && outcome == Outcome::AttackerWins;
                let loser = flag.then(|| world.cell(a.to()).piece()).flatten();
                verdict = if flag { FLAG_TAKEN } else { outcome as u16 };
                world.play_attack(a.from(), a.to(), outcome, None);
                // The view learns the flag only when it is taken.
                view.play_attack(a.from(), a.to(), outcome, loser);
            } else {
                world.play_known(a, None);
                view.play_known(a, None);
            }
            if e.child == NONE {
                let Some(c) = self.tree.add_child(slot, is_attack) else {
                    value = self.leaf_eval.value(&world, &mut self.rng).0;
                    break;
                };
                self.path.push(Step { node: c, mover: side });
                if is_attack {
                    node = c;
                    continue;
                }
                value = self.new_leaf(c, &view, &world, side);
                break;
            }
            node = e.child;
            self.path.push(Step { node, mover: side });
        }
        self.seldepth = self.seldepth.max(self.path.len() as u32 - 1);
        for step in &self.path {
            let n = &mut self.tree.nodes[step.node as usize];
            n.visits += 1;
            n.value += for_red(value, step.mover);
        }
    }
}

impl SearchWorker for IsWorker {
    fn iterate(&mut self) {
        IsWorker::iterate(self);
    }

    fn with_tree<R>(&self, f: impl FnOnce(&Tree) -> R) -> R {
        f(&self.tree)
    }

    fn into_tree(self) -> Option<Tree> {
        Some(self.tree)
    }

    fn seldepth(&self) -> u32 {
        self.seldepth
    }
}
