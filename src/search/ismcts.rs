//! Information Set MCTS (single observer) for `classic`: the tree is built
//! over what the engine observes; each iteration draws a world (a kind for
//! every enemy piece) from the belief, only actions legal in that world may
//! be chosen, and each edge counts how often it was available (its
//! exploration term uses that count instead of the parent's visits).
//! Opponent moves inside the tree are chosen by the same statistics among
//! the actions legal in the sampled world. An attack leads to an outcome
//! node whose branches are the referee's verdicts (`+`, `-`, `=`, and a
//! capture of the flag), each followed as the sampled world decides it.

use rand::RngExt;

use super::core::{Core, Pick, Reached, Step, Terminal, Walk};
use super::leaf::LeafEval;
use super::params::Params;
use super::priors::{DeepPriors, Played, RootPriors};
use super::tree::{Edge, Tree};
use crate::action::{Action, ActionKind};
use crate::belief::Belief;
use crate::belief::sampler::WorldSampler;
use crate::board::Bitboard;
use crate::board::Point;
use crate::board::topology::NUM_POINTS;
use crate::combat::{Outcome, attack_allowed};
use crate::movegen::ActionSink;
use crate::piece::{Colour, Kind, Piece};
use crate::position::Position;
use crate::random::Rng;

/// Outcome-node labels: the three verdicts (`Outcome as u16`), and `+`
/// that took the flag.
const FLAG_TAKEN: u16 = 3;
/// Branches of an outcome node, equally likely a priori (the world decides).
const VERDICTS: u16 = 4;

/// Legal actions of a world, by origin, for membership tests.
#[derive(Clone, Copy)]
struct LegalSet {
    moves: [Bitboard; NUM_POINTS],
    attacks: [Bitboard; NUM_POINTS],
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
        let mut s = LegalSet { moves: [Bitboard::EMPTY; NUM_POINTS], attacks: [Bitboard::EMPTY; NUM_POINTS] };
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

/// Whether `a`, an action of the view's side to move whose pieces the
/// world shares with the view, is legal in `world`: a move always is, an
/// attack unless the rules forbid it on the defender's kind.
fn own_action_legal(world: &Position, a: Action) -> bool {
    if a.kind() != ActionKind::Attack {
        return true;
    }
    let (Some(attacker), Some(defender), Some(us)) =
        (world.kind_at(a.from()), world.kind_at(a.to()), world.side_to_move())
    else {
        return false;
    };
    attack_allowed(world.rules(), attacker, defender, world.mines_cleared(us.opposite()))
}

/// The walk of the refereed hidden game: a world drawn from the belief
/// for each iteration, the engine's view beside it, and the verdict of the
/// last attack (the branch its outcome node follows).
pub struct Hidden {
    belief: Belief,
    sampler: WorldSampler,
    world: Position,
    view: Position,
    verdict: u16,
    /// Per edge, how often its action was legal when its node was visited:
    /// the parent count of its exploration term.
    avail: Vec<u32>,
    /// Whether the root side's Marshal had won a combat before the root.
    exposed_at_root: bool,
    /// Whether it has, by the current point of the iteration.
    exposed: bool,
    /// What the enemy may believe of the root side's own pieces, and worlds
    /// of it: drawn in the share `ownview` of the iterations, whose results
    /// only the enemy's statistics take.
    own: Option<(Belief, WorldSampler)>,
    /// The leaf evaluator (of the sampled world).
    leaf: LeafEval,
    /// The root's expert priors whose temperature grows with the root's
    /// visits, and the visits at which they are next recomputed.
    root_priors: Option<(RootPriors, u32)>,
    /// The expert's priors below the root, the iteration's actions so far
    /// (as many as they need), and new priors waiting for the tree to be
    /// writable (node, priors in its edges' order).
    deep: Option<DeepPriors>,
    trail: Vec<Played>,
    pending: Vec<(u32, Vec<f32>)>,
}

/// The root's priors are recomputed each time its visits grow by this
/// factor.
const RETUNE_STEP: f32 = 1.1;

/// What a bomb's attack on an exposed Marshal costs, by the nearest bomb's
/// distance in actions (index 1: it can attack now), centipawns.
const EXPOSED_DANGER: [f32; 6] = [0.0, 550.0, 275.0, 140.0, 70.0, 35.0];

/// The danger to `side`'s Marshal in `world` from the enemy's bombs (none
/// while it stands in a camp, where no piece can attack it: no bomb is
/// any number of actions from it).
fn bomb_danger(world: &Position, side: Colour) -> f32 {
    let Some(marshal) = world.pieces_of(side, Some(Kind::Marshal)).first() else {
        return 0.0;
    };
    let bombs = world.pieces_of(side.opposite(), Some(Kind::Bomb));
    if bombs.is_empty() {
        return 0.0;
    }
    let dist = crate::distance::actions_to(world, marshal, side.opposite(), EXPOSED_DANGER.len() as u8 - 1);
    bombs.into_iter().filter_map(|b| EXPOSED_DANGER.get(usize::from(dist[b.index()]))).fold(0.0, |a, &d| f32::max(a, d))
}

/// Whether `viewer`'s Marshal won a combat in `history` from `base` (the
/// enemy then knows it beat that piece): a public hint of where it stands.
pub fn marshal_exposed(base: &Position, history: &[crate::action::Token], viewer: Colour) -> bool {
    let mut pos = base.clone();
    for t in history {
        let before = pos.pieces_of(viewer, Some(Kind::Marshal)).first();
        if pos.apply_token(*t).is_err() {
            return false;
        }
        if let (crate::action::Token::Attack { from, to, .. }, Some(m)) = (t, before) {
            let after = pos.pieces_of(viewer, Some(Kind::Marshal)).first();
            let won = (*from == m && after == Some(*to)) || (*to == m && after == Some(m));
            if won {
                return true;
            }
        }
    }
    false
}

/// What the enemy of `viewer` may believe of `viewer`'s own pieces in
/// `view`, and a sampler of it, when `ownview` asks for it and the game's
/// history leads to `view` (without the history the enemy's knowledge is
/// not known; `None`).
pub fn own_view(
    game: Option<(&Position, &[crate::action::Token])>,
    view: &Position,
    viewer: Colour,
    params: &Params,
    rng: &mut Rng,
) -> Option<(Belief, WorldSampler)> {
    if params.own_view == 0.0 {
        return None;
    }
    let (base, history) = game?;
    let (belief, end) = Belief::of_own_pieces(base, viewer, history).ok()?;
    if end != *view {
        return None;
    }
    let sampler = WorldSampler::new(&belief, None, rng)?;
    Some((belief, sampler))
}

/// One ISMCTS thread.
pub type IsWorker = super::core::Worker<Hidden, Tree>;

impl IsWorker {
    /// A worker for the view at `tree`'s root, drawing worlds from `sampler`.
    pub fn new(
        tree: Tree,
        rng: Rng,
        params: Params,
        belief: Belief,
        sampler: WorldSampler,
        exposed_at_root: bool,
        own: Option<(Belief, WorldSampler)>,
    ) -> IsWorker {
        let walk = Hidden {
            exposed_at_root,
            exposed: exposed_at_root,
            avail: vec![0; tree.edges.len()],
            world: tree.root_pos.clone(),
            view: tree.root_pos.clone(),
            belief,
            sampler,
            verdict: 0,
            own,
            leaf: LeafEval::new(&params),
            root_priors: None,
            deep: None,
            trail: Vec::new(),
            pending: Vec::new(),
        };
        Self::with_walk(tree, rng, params, walk)
    }

    /// The worker with the root's expert priors `root`: recomputed as the
    /// root's visits grow when their temperature grows, and carried below
    /// the root when `expertdepth` asks for it (`None`: neither).
    pub fn with_root_priors(mut self, root: Option<RootPriors>) -> IsWorker {
        self.walk.deep = root.as_ref().and_then(|r| DeepPriors::new(r, &self.core.params));
        self.walk.root_priors = root.filter(RootPriors::grows).map(|r| {
            let from = r.temp_from();
            (r, from)
        });
        self
    }
}

impl Hidden {
    /// The expert's priors for the root side's node `node` below the root
    /// when it has just reached the visits that earn them (written to the
    /// tree before the next iteration).
    fn deep_priors(&mut self, tree: &Tree, node: u32) {
        let Some(deep) = &mut self.deep else {
            return;
        };
        let n = self.trail.len();
        if node == 0 || n == 0 || n > deep.plies || tree.nodes[node as usize].visits != deep.visits {
            return;
        }
        let edges: Vec<(Action, f32)> = tree.edges_of(node).iter().map(|e| (e.as_action(), e.prior())).collect();
        let priors = deep.priors(&self.view, &self.trail, &edges);
        self.pending.push((node, priors));
    }
}

impl Walk for Hidden {
    type Pos = Position;
    const SOLVES: bool = false;

    /// The root's expert priors at the temperature of its visits, when
    /// they have grown enough since the last time.
    fn prepare(&mut self, tree: &mut Tree) {
        for (node, priors) in self.pending.drain(..) {
            let first = tree.nodes[node as usize].first_edge as usize;
            for (e, &p) in tree.edges[first..first + priors.len()].iter_mut().zip(&priors) {
                e.set_prior(p);
            }
        }
        let Some((priors, next)) = &mut self.root_priors else {
            return;
        };
        let visits = tree.nodes[0].visits;
        if visits < *next || !tree.nodes[0].expanded {
            return;
        }
        *next = (visits as f32 * RETUNE_STEP) as u32 + 1;
        let new = priors.at(priors.temperature(visits));
        let first = tree.nodes[0].first_edge as usize;
        let count = usize::from(tree.nodes[0].num_edges);
        for e in &mut tree.edges[first..first + count] {
            if let Some(&(_, p)) = new.iter().find(|(a, _)| *a == e.as_action()) {
                e.set_prior(p);
            }
        }
    }

    fn begin(&mut self, core: &mut Core<Position>, root: &Position) {
        self.sampler.walk(core.params.world_steps as usize, &mut core.rng);
        self.world = self.sampler.world(root, &self.belief);
        self.view = root.clone();
        self.exposed = self.exposed_at_root;
        self.trail.clear();
        core.blind_mover = None;
        if let Some((own, sampler)) = &mut self.own {
            if core.rng.random::<f32>() < core.params.own_view {
                // Our pieces as the enemy may believe them; only its
                // statistics learn from this iteration.
                sampler.walk(core.params.world_steps as usize, &mut core.rng);
                let side = self.belief.viewer;
                for (e, &k) in own.pieces.iter().zip(sampler.assignment()) {
                    if let Some(p) = e.at.filter(|&p| self.world.kind_at(p) != Some(k)) {
                        self.world.reveal(p, Piece::new(side, k));
                    }
                }
                core.blind_mover = Some(side);
            }
        }
    }

    fn public(&self) -> &Position {
        &self.view
    }

    fn finished(&self) -> Option<Terminal> {
        self.view.outcome_without_actions().map(|r| Terminal { winner: r.winner })
    }

    fn chance(&mut self, core: &mut Core<Position>, tree: &mut Tree, node: u32) -> Option<(usize, Option<Colour>)> {
        if !tree.nodes[node as usize].expanded {
            if tree.would_overflow(0, usize::from(VERDICTS)) {
                return None;
            }
            tree.set_edges(node, (0..VERDICTS).map(|l| Edge::verdict(l, 1.0 / f32::from(VERDICTS))));
        }
        // The outcome node's mover is the attacker's.
        Some((usize::from(self.verdict), core.path.last().and_then(|s| s.mover)))
    }

    /// Selection among the edges legal in the world, with availability
    /// counts; no edge legal there: the side to move loses.
    ///
    /// The root side's own actions need no generation: its pieces are the
    /// same in the world as in the view and so is every point's occupancy,
    /// so each of its view's actions is legal in the world but an attack
    /// the rules forbid on the defender's kind there (a flag or a mine;
    /// none in the usual rules). Not when the iteration drew our pieces as
    /// the enemy may believe them, nor in a world whose game is over (no
    /// action is legal there).
    fn select(&mut self, core: &Core<Position>, tree: &Tree, node: u32) -> Pick {
        let own = core.blind_mover.is_none()
            && self.view.side_to_move() == Some(self.belief.viewer)
            && self.world.outcome_without_actions().is_none();
        if own {
            self.deep_priors(tree, node);
        }
        let legal = (!own).then(|| LegalSet::of(&self.world));
        debug_assert!(
            !own || {
                let all = LegalSet::of(&self.world);
                tree.edges_of(node)
                    .iter()
                    .all(|e| all.contains(e.as_action()) == own_action_legal(&self.world, e.as_action()))
            },
            "the root side's actions in the world"
        );
        let first = tree.nodes[node as usize].first_edge as usize;
        self.avail.resize(self.avail.len().max(tree.edges.len()), 0);
        let world = &self.world;
        let avail = &mut self.avail;
        let edges = tree.edges_of(node);
        let picked = core.select(tree, node, false, |i| {
            let a = edges[i].as_action();
            let ok = match &legal {
                Some(l) => l.contains(a),
                None => own_action_legal(world, a),
            };
            ok.then(|| {
                avail[first + i] += 1;
                (avail[first + i] as f32).sqrt()
            })
        });
        match picked {
            Some(i) => Pick::Edge(i),
            None => {
                let loser = self.view.side_to_move();
                Pick::Stop(Reached::Exact(Terminal { winner: loser.map(Colour::opposite) }.value_for_red()))
            }
        }
    }

    fn play(&mut self, a: Action) -> bool {
        let recorded = self.deep.as_ref().is_some_and(|d| self.trail.len() < d.plies);
        if recorded {
            let (attacker, defender) = (self.view.kind_at(a.from()), self.view.kind_at(a.to()));
            let ours = self.view.side_to_move() == Some(self.belief.viewer);
            let cleared = self.view.side_to_move().is_some_and(|s| self.view.mines_cleared(s.opposite()));
            self.trail.push(Played { action: a, ours, attacker, defender, cleared, verdict: None });
        }
        if a.kind() != ActionKind::Attack {
            self.world.play_known(a, None);
            self.view.play_known(a, None);
            return false;
        }
        // Every piece of a world has a kind, so every legal attack has an outcome.
        let outcome = self.world.attack_outcome(a.from(), a.to());
        debug_assert!(outcome.is_some(), "attack {a} without an outcome in a world");
        let outcome = outcome.unwrap_or(Outcome::DefenderWins);
        let flag = self.world.kind_at(a.to()) == Some(Kind::Flag) && outcome == Outcome::AttackerWins;
        let loser = flag.then(|| self.world.cell(a.to()).piece()).flatten();
        self.verdict = if flag { FLAG_TAKEN } else { outcome as u16 };
        // The root side's Marshal shows itself by winning.
        let root_side = self.belief.viewer;
        let marshal_won = match outcome {
            Outcome::AttackerWins => self.world.cell(a.from()).piece(),
            Outcome::DefenderWins => self.world.cell(a.to()).piece(),
            _ => None,
        }
        .is_some_and(|p| p.colour == root_side && p.kind == Some(Kind::Marshal));
        self.exposed |= marshal_won;
        if recorded {
            if let Some(p) = self.trail.last_mut() {
                p.verdict = Some(outcome);
            }
        }
        self.world.play_attack(a.from(), a.to(), outcome, None);
        // The view learns the flag only when it is taken.
        self.view.play_attack(a.from(), a.to(), outcome, loser);
        true
    }

    fn settle(&mut self, _: &mut Rng) {}

    /// A finished game in the view (flag taken, quiet limit) is the same
    /// in every world, so a new node keeps it; otherwise the world is
    /// evaluated (its own game end depends on the world, not kept).
    fn evaluate(&mut self, core: &mut Core<Position>, created: Option<Step>) -> (f32, Option<Terminal>) {
        if created.is_some() {
            if let Some(t) = self.finished() {
                return (t.value_for_red(), Some(t));
            }
        }
        let v = self.leaf.value(&self.world, &mut core.rng).0;
        let w = core.params.exposed_risk;
        if w == 0.0 || !self.exposed {
            return (v, None);
        }
        // The exposed Marshal's danger, against the root side (in Red's terms).
        let side = self.belief.viewer;
        let cp = w * bomb_danger(&self.world, side) / super::evaluate::SCALE;
        let for_side = super::leaf::for_red(v, Some(side)).clamp(-0.999, 0.999);
        (super::leaf::for_red((for_side.atanh() - cp).tanh(), Some(side)), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_setup;
    use crate::protocol::parse_tokens;
    use crate::rules::Rules;

    /// Red's view of a classic start: Red's Marshal on e6, Blue unknown.
    const VIEW: &str = "b?b?b?b?b?/b?b?b?b?b?/b?1b?1b?/b?b?1b?b?/b?1b?1b?/b?b?b?b?b?/r7r6r5r4r9/r11r81r6/r2r31r3r1/r21r21r7/r5r4r3rBrM/rBrFrMrMr1 r 0 0 -";

    fn exposed(history: &str) -> bool {
        let base = Position::from_setup(&parse_setup(VIEW).unwrap(), Rules::CLASSIC).unwrap();
        marshal_exposed(&base, &parse_tokens(history).unwrap(), Colour::Red)
    }

    #[test]
    fn a_marshal_that_wins_a_combat_is_exposed() {
        assert!(!exposed(""));
        assert!(exposed("e6xe7+"), "it won attacking");
        assert!(!exposed("e6xe7-"), "it lost");
        assert!(!exposed("e6xe7="), "both fell");
        assert!(!exposed("d6xd7+"), "another piece won");
        assert!(exposed("b6-b5 e7xe6-"), "it won defending");
        assert!(!exposed("b6-b5 e7xe6+"), "it lost defending");
    }

    /// A world with Blue's pieces known (Red's deployment mirrored, a bomb
    /// on e8, the Marshal on e7) after `moves`.
    fn world(moves: &str) -> Position {
        let blue = "bBbFbMbMb1/b5b4b3b6bM/b21b21b7/b2b31b3b1/b11b81bB/b7b6b5b4b9";
        let red = "r7r6r5r4r9/r11r81r6/r2r31r3r1/r21r21r7/r5r4r3rBrM/rBrFrMrMr1";
        let setup = parse_setup(&format!("{blue}/{red} r 0 0 -")).unwrap();
        let mut pos = Position::from_setup(&setup, Rules::CLASSIC).unwrap();
        for t in parse_tokens(moves).unwrap() {
            pos.apply_token(t).unwrap();
        }
        pos
    }

    #[test]
    fn a_marshal_in_a_camp_is_out_of_the_bombs_reach() {
        // Blue's Marshal steps into the camp d8 and its bomb comes to e7.
        let danger = |red: [&str; 2]| bomb_danger(&world(&format!("{} e7-d8 {} e8-e7", red[0], red[1])), Colour::Red);
        // Red's Marshal on e6: the bomb attacks it now.
        assert_eq!(danger(["a6-b5", "b5-a6"]), EXPOSED_DANGER[1]);
        // On e5, a post: the bomb slides down the railway through e6.
        assert_eq!(danger(["e5-d5", "e6-e5"]), EXPOSED_DANGER[1]);
        // In the camp d5, as near, nothing may attack it.
        assert_eq!(danger(["e6-d5", "a6-b5"]), 0.0);
    }
}
