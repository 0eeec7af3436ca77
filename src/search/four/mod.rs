//! The four-player search (`siguo`, `siguo-open`): the one search core
//! ([`crate::search::core`]) over four-player positions, the two teams as
//! its two sides (a win for a team is a win for both partners), with the
//! same threads, time management, `Hash` and reports as the two-player
//! search ([`crate::search`]'s job loop).
//!
//! - [`walk`]: Information Set MCTS over the seat's view, worlds drawn from
//!   the seat's belief about the other three seats
//!   ([`crate::siguo::belief`]);
//! - [`evaluate`]: the static evaluation at new leaves;
//! - this module: how a four-player position and action meet the core
//!   ([`GameState`], [`Label`]), the priors, and [`go`].

pub mod evaluate;
pub mod walk;

use std::time::Instant;

use super::game::{GameState, Label, uniform};
use super::priors::{
    ATTACK_RANGE, DECISIVE_ATTACK, ESCAPE_MAX, ESCAPE_PER_UNIT, GAIN_PER_UNIT, UNKNOWN_PIECE_VALUE, softmax,
};
use super::report::Reporter;
use super::tree::Tree;
use super::{Control, Event, Job, Limits, MIB, MIN_TREE_BYTES, Report, SearchConfig, restrict_root, thread_seed};
use crate::piece::Colour;
use crate::random::rng;
use crate::siguo::belief::SiguoBelief;
use crate::siguo::exchange::{FLAG_VALUE, Pools, expected_gain, value};
use crate::siguo::topology::NUM_POINTS;
use crate::siguo::{Action, Point, PointSet, Position, SiguoToken, Team};
use walk::SiguoWalk;

/// Seeds the world samplers apart from the search threads.
const SAMPLER_SEED: u64 = 0x4a4a_4a4a;

impl Label for Action {
    /// `(from * 129 + to) * 2 + attack`: below 33,282.
    #[inline]
    fn to_label(self) -> u16 {
        ((self.from.index() * NUM_POINTS + self.to.index()) * 2 + usize::from(self.attack)) as u16
    }

    #[inline]
    fn from_label(label: u16) -> Action {
        let l = usize::from(label);
        let (pair, attack) = (l / 2, l % 2 == 1);
        let point = |i: usize| Point::from_index(i).unwrap_or_else(|| unreachable!("a label's point is below 129"));
        Action { from: point(pair / NUM_POINTS), to: point(pair % NUM_POINTS), attack }
    }

    fn is_label(label: u16) -> bool {
        let pair = usize::from(label) / 2;
        pair < NUM_POINTS * NUM_POINTS && pair / NUM_POINTS != pair % NUM_POINTS
    }
}

impl GameState for Position {
    type Action = Action;

    #[inline]
    fn mover(&self) -> Option<Colour> {
        Some(Team::of(self.side_to_move()).side())
    }

    #[inline]
    fn legal(&self, out: &mut Vec<Action>) {
        self.legal_actions(out);
    }

    fn priors(&self, actions: &[Action], use_priors: bool, scratch: &mut Vec<Action>, out: &mut Vec<f32>) {
        if use_priors {
            priors(self, actions, scratch, out);
        } else {
            uniform(actions.len(), out);
        }
    }

    /// The reply in a four-player line is another seat's: nothing to ponder.
    fn ponderable(_: Action) -> bool {
        false
    }
}

/// An attack expected to win at least this much (a flag) is decisive.
const DECISIVE_GAIN: f32 = FLAG_VALUE * 0.5;

/// The points of the side to move's pieces that one of its opponents could
/// attack now with a positive expected gain.
pub fn threatened(pos: &Position, pools: &Pools, scratch: &mut Vec<Action>) -> PointSet {
    let mut out = PointSet::EMPTY;
    for o in pos.side_to_move().opponents() {
        scratch.clear();
        pos.generate_for(o, scratch);
        for a in scratch.iter().filter(|a| a.attack) {
            if !out.contains(a.to) && expected_gain(pos, pools, a.from, a.to) > 0.0 {
                out.insert(a.to);
            }
        }
    }
    out
}

/// Prior probabilities of `actions` into `out`: a softmax over heuristic
/// scores, with the two-player priors' constants
/// ([`crate::search::priors`]): an
/// attack by its expected gain (a flag within reach decisive), a move by
/// the value of the piece it takes out of a profitable attack.
pub fn priors(pos: &Position, actions: &[Action], scratch: &mut Vec<Action>, out: &mut Vec<f32>) {
    out.clear();
    let pools = Pools::of(pos);
    let threats = threatened(pos, &pools, scratch);
    for a in actions {
        let h = if a.attack {
            let g = expected_gain(pos, &pools, a.from, a.to);
            if g >= DECISIVE_GAIN { DECISIVE_ATTACK } else { (g / GAIN_PER_UNIT).clamp(ATTACK_RANGE.0, ATTACK_RANGE.1) }
        } else if threats.contains(a.from) {
            let v = pos.cell(a.from).and_then(|pc| pc.kind).map_or(UNKNOWN_PIECE_VALUE, value);
            (v / ESCAPE_PER_UNIT).min(ESCAPE_MAX)
        } else {
            0.0
        };
        out.push(h);
    }
    softmax(out);
}

/// What a four-player search is asked: the seat to move's view now, and
/// the history it was told since `start` (its belief is read from it).
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The view the history starts from.
    pub start: &'a Position,
    /// Whether `start` is the deployed board before any ply.
    pub at_deployment: bool,
    /// The history since `start`, as the seat was told it.
    pub history: &'a [SiguoToken],
    /// The view now, the seat to move being the engine's.
    pub view: &'a Position,
}

impl<'a> Request<'a> {
    /// What `referee` told `seat` of a game it started at the deployment.
    pub fn told_by(referee: &'a crate::siguo::SiguoReferee, seat: crate::siguo::Seat) -> Request<'a> {
        Request {
            start: referee.start(seat),
            at_deployment: true,
            history: referee.told(seat),
            view: referee.view(seat),
        }
    }
}

/// The belief of the seat to move of `req.view`: from the history when it
/// leads to the view, from the view alone otherwise.
pub fn belief_of(req: &Request<'_>) -> SiguoBelief {
    let viewer = req.view.side_to_move();
    SiguoBelief::from_history(req.start, viewer, req.history, req.at_deployment)
        .ok()
        .filter(|(_, end)| end == req.view)
        .map_or_else(|| SiguoBelief::new(req.view, viewer, req.at_deployment && req.history.is_empty()), |(b, _)| b)
}

/// Searches `req.view` for its seat to move under `limits`, reporting
/// through `report`, and answers; returns at its limits or on
/// `control.stop` (with `infinite` or `ponder`, not before `stop`).
pub fn go(
    req: &Request<'_>,
    limits: &Limits,
    cfg: &SearchConfig<Action>,
    control: &Control,
    report: &mut dyn FnMut(Event<Action>),
) -> Report<Action> {
    let start = Instant::now();
    let pos = req.view;
    let threads = cfg.threads.max(1);
    let cap = (cfg.hash_mb.max(1) * MIB / threads).max(MIN_TREE_BYTES);
    let params = cfg.params.apply(super::params::Params::for_four_players(pos.rules().mode));
    let mut r = rng(cfg.seed ^ SAMPLER_SEED);
    // A history whose facts leave no world: the view's facts alone.
    let (belief, samplers) = [belief_of(req), SiguoBelief::new(pos, pos.side_to_move(), false)]
        .into_iter()
        .find_map(|b| b.samplers(&mut r).map(|s| (b, s)))
        .unwrap_or_else(|| {
            (SiguoBelief { viewer: pos.side_to_move(), seats: Vec::new(), contradictions: 0 }, Vec::new())
        });
    let valuer = evaluate::Valuer::new(&params, Team::of(pos.side_to_move()));
    let workers = (0..threads)
        .map(|i| {
            let mut tree = Tree::new(pos.clone(), cap);
            restrict_root(&mut tree, &cfg.searchmoves, &params);
            let walk = SiguoWalk::new(pos, belief.clone(), samplers.clone(), valuer);
            super::core::Worker::with_walk(tree, rng(thread_seed(cfg.seed, i)), params, walk)
        })
        .collect();
    let job = Job { pos, limits, cfg, control, start };
    let mut reporter = Reporter::new(report, start);
    job.run(workers, &mut reporter).0
}
