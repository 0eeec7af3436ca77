//! What a search tells: its progress while it runs (throttled here, in one
//! place), the belief it reports in `classic`, and its answer. These are the
//! search's own types; the engine turns them into protocol lines.

use std::time::{Duration, Instant};

use super::evaluate::SCALE;
use super::game::Label;
use super::tree::{Proven, RootStat};
use crate::action::Action;
use crate::board::Point;
use crate::piece::NUM_KINDS;

/// At most one progress report a second when the depth has not grown.
const INTERVAL: Duration = Duration::from_secs(1);
/// Values are clamped this far inside ±1 before the inverse squashing.
const Q_LIMIT: f32 = 0.999;
/// The score of a proven win, in centipawns.
pub const PROVEN_CP: i32 = 10_000;

/// The state of a search (of a two-player game unless the action type is
/// named).
#[derive(Clone, PartialEq, Debug)]
pub struct Progress<A = Action> {
    /// Length of the principal variation.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Iterations so far.
    pub nodes: u64,
    /// Time since the search was asked for.
    pub elapsed: Duration,
    /// The best action's mean value for the side to move, in [-1, 1].
    pub q: f32,
    /// The best action's proven result for the side to move.
    pub proven: Proven,
    /// Per mille of the memory cap in use, for searches with a tree.
    pub hashfull: Option<u32>,
    /// The principal variation.
    pub pv: Vec<A>,
    /// With `MultiPV` above 1: the best root actions, best first (the first
    /// is the one above), each with its principal variation.
    pub lines: Vec<Line<A>>,
    /// With `ShowRootStats`: every root action's statistics, in the order
    /// of [`rank`].
    pub root: Vec<RootStat<A>>,
}

impl<A> Default for Progress<A> {
    fn default() -> Progress<A> {
        Progress {
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            q: 0.0,
            proven: Proven::Unknown,
            hashfull: None,
            pv: Vec::new(),
            lines: Vec::new(),
            root: Vec::new(),
        }
    }
}

/// One root action as an analysis line: its statistics and the principal
/// variation that starts with it.
#[derive(Clone, PartialEq, Debug)]
pub struct Line<A = Action> {
    /// The action's statistics.
    pub stat: RootStat<A>,
    /// The action, then the most visited line below it.
    pub pv: Vec<A>,
}

/// The score in centipawns of a mean value `q` for the side to move:
/// `SCALE * atanh(q)`, the inverse of the evaluation's squashing;
/// ±[`PROVEN_CP`] when proven.
pub fn centipawns(q: f32, proven: Proven) -> i32 {
    match proven {
        Proven::Win => PROVEN_CP,
        Proven::Loss => -PROVEN_CP,
        Proven::Draw => 0,
        Proven::Unknown => (SCALE * q.clamp(-Q_LIMIT, Q_LIMIT).atanh()).round() as i32,
    }
}

/// Win, draw and loss per mille for the side to move (`q` split between
/// win and loss; exact when proven).
pub fn wdl(q: f32, proven: Proven) -> (u32, u32, u32) {
    match proven {
        Proven::Win => (1000, 0, 0),
        Proven::Loss => (0, 0, 1000),
        Proven::Draw => (0, 1000, 0),
        Proven::Unknown => {
            let w = ((1.0 + q.clamp(-Q_LIMIT, Q_LIMIT)) * 500.0).round() as u32;
            (w, 0, 1000 - w)
        }
    }
}

impl<A> Progress<A> {
    /// Iterations per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / (self.elapsed.as_millis() as u64).max(1)
    }

    /// The score in centipawns ([`centipawns`] of the best action).
    pub fn centipawns(&self) -> i32 {
        centipawns(self.q, self.proven)
    }

    /// Win, draw and loss per mille for the side to move ([`wdl`] of the
    /// best action).
    pub fn wdl(&self) -> (u32, u32, u32) {
        wdl(self.q, self.proven)
    }
}

/// What a search reports while it runs.
#[derive(Clone, PartialEq, Debug)]
pub enum Event<A = Action> {
    /// How far it has come.
    Progress(Progress<A>),
    /// In `classic`, the probability of each kind for the enemy piece at a
    /// point (reported before the answer when asked for).
    Belief(Point, [f32; NUM_KINDS]),
}

/// A search's answer.
#[derive(Clone, PartialEq, Debug)]
pub struct Report<A = Action> {
    /// The chosen action, `None` when there is no legal action.
    pub best: Option<A>,
    /// The expected reply, if the search has one.
    pub ponder: Option<A>,
    /// The last progress reported.
    pub last: Progress<A>,
}

/// Throttles progress reports: one when the principal variation grows, else
/// at most one a second.
pub(crate) struct Reporter<'a, A = Action> {
    sink: &'a mut dyn FnMut(Event<A>),
    last: Instant,
    depth: usize,
}

impl<'a, A: Label> Reporter<'a, A> {
    /// A reporter whose first interval starts at `start`.
    pub(crate) fn new(sink: &'a mut dyn FnMut(Event<A>), start: Instant) -> Reporter<'a, A> {
        Reporter { sink, last: start, depth: 0 }
    }

    /// Reports `progress()` if due: `depth` (a principal variation's length)
    /// is deeper than any reported, or a second has passed. `None` for
    /// `depth`: only the second counts.
    pub(crate) fn tick(&mut self, depth: Option<usize>, progress: impl FnOnce() -> Progress<A>) {
        let deeper = depth.is_some_and(|d| d > self.depth);
        if deeper || self.last.elapsed() >= INTERVAL {
            if let Some(d) = depth {
                self.depth = self.depth.max(d);
            }
            self.send(Event::Progress(progress()));
            self.last = Instant::now();
        }
    }

    /// Reports `event` now.
    pub(crate) fn send(&mut self, event: Event<A>) {
        if let Event::Progress(p) = &event {
            log::debug!(
                "search: {} iterations, {} ms, depth {} seldepth {}, best {} q {:.3} ({:?})",
                p.nodes,
                p.elapsed.as_millis(),
                p.depth,
                p.seldepth,
                p.pv.first().map_or_else(|| "none".to_owned(), ToString::to_string),
                p.q,
                p.proven
            );
        }
        (self.sink)(event);
    }
}

/// Combines the root statistics of several trees: per action, the visits
/// added, the mean value weighted by visits, the first proven result.
pub fn merge_roots<A: Label>(roots: impl IntoIterator<Item = Vec<RootStat<A>>>) -> Vec<RootStat<A>> {
    let mut merged: Vec<RootStat<A>> = Vec::new();
    for stats in roots {
        for s in stats {
            match merged.iter_mut().find(|m| m.action == s.action) {
                Some(m) => {
                    let total = m.visits + s.visits;
                    if total > 0 {
                        m.q = (m.q * m.visits as f32 + s.q * s.visits as f32) / total as f32;
                    }
                    m.visits = total;
                    if m.proven == Proven::Unknown {
                        m.proven = s.proven;
                    }
                }
                None => merged.push(s),
            }
        }
    }
    merged
}

/// Root statistics from best to worst: proven wins first (most visited
/// first), then the actions not proven lost, then those proven lost, each
/// group by visits and then by value. Among equals the later action comes
/// first, so that the first is [`choose`]'s.
pub fn rank<A: Label>(stats: &[RootStat<A>]) -> Vec<RootStat<A>> {
    // Values compared in millionths, so that the sort sees a total order;
    // a proven win's value does not count.
    let key = |s: &RootStat<A>| match s.proven {
        Proven::Win => (true, true, s.visits, 0),
        p => (false, p != Proven::Loss, s.visits, (s.q * 1e6) as i64),
    };
    let mut ranked = stats.to_vec();
    ranked.sort_by_key(key);
    ranked.reverse();
    ranked
}

/// The action to play from root statistics: a proven win, else the most
/// visited action not proven lost (ties by value).
pub fn choose<A: Label>(stats: &[RootStat<A>]) -> Option<RootStat<A>> {
    rank(stats).first().copied()
}
