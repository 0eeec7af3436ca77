//! The four-player [`Walk`]: Information Set MCTS over the seat's view, as
//! the two-player hidden walk ([`crate::search::ismcts`]) does it. Each
//! iteration draws a world (a kind for every piece the seat does not see,
//! one sampler per unseen seat); only actions legal in that world may be
//! chosen, each edge counting how often it was available; an attack leads
//! to an outcome node whose branches are the referee's verdicts (`+`, `-`,
//! `=`, and a flag taken, by a winner or by a bomb), each followed as the
//! world decides it. In `siguo-open` every world is the position itself.
//!
//! The view follows the world's game flow ([`Position::follow_flow`]): a
//! world may leave a seat without an action where the view, not knowing
//! the kinds, cannot tell. Where a node's seat to move is not the world's,
//! or the world's seat has no action among the node's, the descent ends
//! with the world's evaluation.

use super::evaluate::Valuer;
use crate::belief::sampler::{STEPS_PER_WORLD, WorldSampler};
use crate::combat::Outcome;
use crate::piece::{Colour, Kind};
use crate::random::Rng;
use crate::search::core::{Core, Pick, Reached, Step, Terminal, Walk, parent_sqrt};
use crate::search::tree::{Edge, Tree};
use crate::siguo::belief::SiguoBelief;
use crate::siguo::movegen::ActionSink;
use crate::siguo::topology::{NUM_POINTS, Point};
use crate::siguo::{Action, Piece, PointSet, Position, Seat, Team};

/// Outcome-node labels: the three verdicts (`Outcome as u16`), a flag
/// taken by a winning attacker, and a flag taken by a bomb (both removed).
const FLAG_TAKEN: u16 = 3;
const FLAG_BOMBED: u16 = 4;
/// Branches of an outcome node, equally likely a priori (the world decides).
const VERDICTS: u16 = 5;

/// No piece: an empty slot of [`LegalSet::slot`].
const NO_PIECE: u8 = u8::MAX;

/// The legal actions of one seat in a world, by piece, for membership
/// tests: each origin's slot in a short list.
struct LegalSet {
    slot: [u8; NUM_POINTS],
    pieces: Vec<(Point, PointSet, PointSet)>,
}

impl Default for LegalSet {
    fn default() -> LegalSet {
        LegalSet { slot: [NO_PIECE; NUM_POINTS], pieces: Vec::with_capacity(32) }
    }
}

impl ActionSink for LegalSet {
    fn piece(&mut self, from: Point, moves: PointSet, attacks: PointSet) {
        self.slot[from.index()] = self.pieces.len() as u8;
        self.pieces.push((from, moves, attacks));
    }
}

impl LegalSet {
    fn fill(&mut self, pos: &Position) {
        for (from, _, _) in self.pieces.drain(..) {
            self.slot[from.index()] = NO_PIECE;
        }
        pos.generate(self);
    }

    fn contains(&self, a: Action) -> bool {
        match self.slot[a.from.index()] {
            NO_PIECE => false,
            i => {
                let (_, moves, attacks) = self.pieces[usize::from(i)];
                if a.attack { attacks.contains(a.to) } else { moves.contains(a.to) }
            }
        }
    }
}

/// The result of a finished four-player game for the search core.
pub fn terminal(pos: &Position) -> Option<Terminal> {
    pos.outcome().map(|r| Terminal { winner: r.winner.map(Team::side) })
}

/// The walk: the seat's belief and a sampler per unseen seat, the world
/// of this iteration and the view beside it, the last attack's verdict.
pub struct SiguoWalk {
    belief: SiguoBelief,
    samplers: Vec<WorldSampler>,
    world: Position,
    view: Position,
    verdict: u16,
    /// Per edge, how often its action was legal when its node was visited
    /// at a seat whose kinds the root seat does not see.
    avail: Vec<u32>,
    legal: LegalSet,
    valuer: Valuer,
}

impl SiguoWalk {
    /// A walk over `root` (the seat's view) with `belief` and its samplers.
    pub fn new(root: &Position, belief: SiguoBelief, samplers: Vec<WorldSampler>, valuer: Valuer) -> SiguoWalk {
        SiguoWalk {
            valuer,
            belief,
            samplers,
            world: root.clone(),
            view: root.clone(),
            verdict: 0,
            avail: Vec::new(),
            legal: LegalSet::default(),
        }
    }

    /// Whether the world decides which actions of `seat` are legal (its
    /// kinds are drawn).
    fn drawn(&self, seat: Seat) -> bool {
        self.belief.seats.iter().any(|s| s.seat == seat)
    }

    /// The world's value, ending a descent the view cannot follow.
    fn world_value(&self) -> Pick {
        Pick::Stop(Reached::Exact(self.valuer.value_for_sn(&self.world)))
    }
}

impl Walk for SiguoWalk {
    type Pos = Position;
    const SOLVES: bool = false;

    fn begin(&mut self, core: &mut Core<Position>, root: &Position) {
        self.view.clone_from(root);
        self.world.clone_from(root);
        for s in &mut self.samplers {
            s.walk(STEPS_PER_WORLD, &mut core.rng);
        }
        self.belief.name_pieces(&mut self.world, &self.samplers);
    }

    fn public(&self) -> &Position {
        &self.view
    }

    /// A game won or lost in the view (a team out); a draw is not final
    /// here, its value being the searching team's (`contempt`).
    fn finished(&self) -> Option<Terminal> {
        terminal(&self.view).filter(|t| t.winner.is_some())
    }

    fn chance(
        &mut self,
        core: &mut Core<Position>,
        tree: &mut Tree<Position>,
        node: u32,
    ) -> Option<(usize, Option<Colour>)> {
        if !tree.nodes[node as usize].expanded {
            if tree.would_overflow(0, usize::from(VERDICTS)) {
                return None;
            }
            tree.set_edges(node, (0..VERDICTS).map(|l| Edge::verdict(l, 1.0 / f32::from(VERDICTS))));
        }
        // The outcome node's mover is the attacker's.
        Some((usize::from(self.verdict), core.path.last().and_then(|s| s.mover)))
    }

    fn select(&mut self, core: &Core<Position>, tree: &Tree<Position>, node: u32) -> Pick {
        let side = self.view.side_to_move();
        let edges = tree.edges_of(node);
        // The node was expanded for another seat in another world.
        let node_seat = edges.first().and_then(|e| self.view.cell(e.decode::<Action>().from)).map(|pc| pc.seat);
        if node_seat != Some(side) || self.world.side_to_move() != side {
            return self.world_value();
        }
        let picked = if self.drawn(side) {
            self.legal.fill(&self.world);
            let first = tree.nodes[node as usize].first_edge as usize;
            self.avail.resize(self.avail.len().max(tree.edges.len()), 0);
            let (avail, legal) = (&mut self.avail, &self.legal);
            core.select(tree, node, false, |i| {
                legal.contains(edges[i].decode()).then(|| {
                    avail[first + i] += 1;
                    (avail[first + i] as f32).sqrt()
                })
            })
        } else {
            let sqrt_n = parent_sqrt(&tree.nodes[node as usize]);
            core.select(tree, node, false, |_| Some(sqrt_n))
        };
        picked.map_or_else(|| self.world_value(), Pick::Edge)
    }

    fn play(&mut self, a: Action) -> bool {
        if !a.attack {
            self.world.play_move(a.from, a.to);
            self.view.play_move(a.from, a.to);
            self.view.follow_flow(&self.world);
            return false;
        }
        // Every piece of a world has a kind, so every legal attack has an outcome.
        let outcome = self.world.attack_outcome(a.from, a.to);
        debug_assert!(outcome.is_some(), "attack {a} without an outcome in a world");
        let outcome = outcome.unwrap_or(Outcome::DefenderWins);
        let defender = self.world.cell(a.to);
        let flag = defender.is_some_and(|d| d.kind == Some(Kind::Flag)) && outcome.defender_removed();
        self.verdict = match (flag, outcome) {
            (true, Outcome::AttackerWins) => FLAG_TAKEN,
            (true, _) => FLAG_BOMBED,
            _ => outcome as u16,
        };
        if let Some(d) = defender.filter(|_| flag) {
            // The view learns the flag only when it is taken.
            self.view.put(a.to, Some(Piece::new(d.seat, Some(Kind::Flag))));
        }
        self.world.play_attack(a.from, a.to, outcome);
        self.view.play_attack(a.from, a.to, outcome);
        self.view.follow_flow(&self.world);
        true
    }

    fn settle(&mut self, _: &mut Rng) {}

    /// A finished game in the view (a team out, the quiet limit) is the
    /// same in every world, so a new node keeps it; otherwise the world is
    /// evaluated.
    fn evaluate(&mut self, _: &mut Core<Position>, created: Option<Step>) -> (f32, Option<Terminal>) {
        if created.is_some() {
            if let Some(t) = self.finished() {
                return (t.value_for_red(), Some(t));
            }
        }
        (self.valuer.value_for_sn(&self.world), None)
    }
}
