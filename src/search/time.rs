//! Time management: how long a search may run, from its limits and
//! clocks and the `MoveOverhead` option.

use std::time::{Duration, Instant};

use super::Control;
use crate::piece::Colour;

/// What bounds a search (the engine reads them from `go`): time, clocks,
/// iterations, depth, or nothing until stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// Search exactly this long, milliseconds.
    pub movetime: Option<u64>,
    /// Each side's clock, milliseconds (indexed by [`Colour::index`]).
    pub time: [Option<u64>; 2],
    /// Each side's increment per move, milliseconds.
    pub inc: [Option<u64>; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Stop after this many iterations.
    pub nodes: Option<u64>,
    /// Stop when the principal variation reaches this many plies.
    pub depth: Option<u32>,
    /// Stop once the most visited root action has this many visits (the
    /// bench's limit: the iterations it takes depend on search behaviour).
    pub best_visits: Option<u32>,
    /// Search until stopped.
    pub infinite: bool,
    /// Search in the opponent's time until the pondered move is played.
    pub ponder: bool,
}

impl Limits {
    /// Stop after `n` iterations.
    pub fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }

    /// Stop after `ms` milliseconds.
    pub fn movetime(ms: u64) -> Limits {
        Limits { movetime: Some(ms), ..Limits::default() }
    }

    /// The clock and increment of `mover` (`None` before the first flip
    /// of a flip game: the first player's clock is Red's).
    pub fn clock_of(&self, mover: Option<Colour>) -> (Option<u64>, Option<u64>) {
        let side = mover.unwrap_or(Colour::Red).index();
        (self.time[side], self.inc[side])
    }

    /// Whether a search under these limits ends on its own with `mover` to
    /// move: not `infinite` or `ponder`, and a movetime, nodes, depth or
    /// the mover's clock ([`Limits::clock_of`]).
    pub fn ends_on_its_own(&self, mover: Option<Colour>) -> bool {
        if self.infinite || self.ponder {
            return false;
        }
        self.clock_of(mover).0.is_some()
            || self.movetime.is_some()
            || self.nodes.is_some()
            || self.depth.is_some()
            || self.best_visits.is_some()
    }
}

/// When a search should stop on its own.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Budget {
    /// The time the search aims to use; it may stop earlier when one action
    /// clearly dominates, or run on to `hard` when the choice is unstable.
    pub soft: Option<Duration>,
    /// The time it must never exceed.
    pub hard: Option<Duration>,
}

/// Moves assumed left in the game when `movestogo` is not given.
pub const DEFAULT_MOVES_LEFT: u64 = 30;
/// The share of the increment a move plans to spend (numerator, denominator).
const INC_SPENT: (u64, u64) = (3, 4);
/// One move may take at most the clock divided by this (unless it is the
/// last before the control).
const CLOCK_SHARE_MAX: u64 = 3;
/// The hard limit as a multiple of the soft one.
const HARD_OVER_SOFT: u64 = 3;

impl Budget {
    /// No time limit (node or depth limits, `infinite`).
    pub const UNLIMITED: Budget = Budget { soft: None, hard: None };

    /// The budget for the side `mover` (`None` before the first flip of a
    /// flip game: the first player's clock is Red's).
    pub fn new(go: &Limits, mover: Option<Colour>, overhead_ms: u64) -> Budget {
        if go.infinite {
            return Budget::UNLIMITED;
        }
        if let Some(mt) = go.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return Budget { soft: Some(t), hard: Some(t) };
        }
        let (time, inc) = go.clock_of(mover);
        let Some(time) = time else {
            return Budget::UNLIMITED;
        };
        let inc = inc.unwrap_or(0);
        let left = time.saturating_sub(overhead_ms);
        let moves = go.movestogo.map_or(DEFAULT_MOVES_LEFT, |m| u64::from(m.max(1)));
        // Spend a share of what is left plus most of the increment; never
        // more than a third of the clock on one move (all of it if this is
        // the last move before the control).
        let soft = (left / moves + inc * INC_SPENT.0 / INC_SPENT.1).min(left);
        let cap = if moves == 1 { left } else { left / CLOCK_SHARE_MAX };
        let hard = (soft * HARD_OVER_SOFT).min(cap.max(soft)).max(1);
        Budget { soft: Some(Duration::from_millis(soft.max(1))), hard: Some(Duration::from_millis(hard)) }
    }
}

/// Stop between the soft and hard limits once the best action leads the
/// second by this factor in visits.
const STABLE_LEAD: f64 = 1.3;
/// Never run past this multiple of the soft limit.
const SOFT_OVERRUN: f64 = 2.0;
/// No early stop before this share of the soft limit has passed.
const EARLIEST_STOP: f64 = 0.05;

/// The stopping rules of one search.
#[derive(Debug)]
pub struct Stopper {
    /// Stop after this many iterations.
    pub nodes: Option<u64>,
    budget: Budget,
    start: Instant,
    unbounded: bool,
    ponder: bool,
}

impl Stopper {
    /// The stopping rules of `go` for `mover`, the clock starting at `start`.
    pub fn new(go: &Limits, mover: Option<Colour>, overhead_ms: u64, start: Instant) -> Stopper {
        Stopper {
            nodes: go.nodes,
            budget: Budget::new(go, mover, overhead_ms),
            start,
            unbounded: go.infinite,
            ponder: go.ponder,
        }
    }

    /// Whether limits apply now: not while searching infinitely, nor while
    /// pondering before `ponderhit` (whose arrival restarts the clock).
    pub fn bounded(&mut self, control: &Control) -> bool {
        if self.unbounded {
            return false;
        }
        if self.ponder {
            if !control.ponder_hit() {
                return false;
            }
            self.ponder = false;
            self.start = Instant::now();
        }
        true
    }

    /// Time management from the visits of the root's actions: stop at the
    /// hard limit; between the soft and hard limits only while the best
    /// action is closely followed (an unstable choice), up to twice the soft
    /// limit; before the soft limit as soon as the rest of it could not
    /// change the choice.
    pub fn time_up(&self, visits: &[u32]) -> bool {
        self.why_time_up(visits).is_some()
    }

    /// The budget the search runs under.
    pub fn budget(&self) -> Budget {
        self.budget
    }

    /// [`Stopper::time_up`] with the rule that stops the search.
    pub fn why_time_up(&self, visits: &[u32]) -> Option<TimeStop> {
        let elapsed = self.start.elapsed();
        if self.budget.hard.is_some_and(|h| elapsed >= h) {
            return Some(TimeStop::Hard);
        }
        let soft = self.budget.soft?;
        let (mut first, mut second) = (0u32, 0u32);
        for &v in visits {
            if v > first {
                second = first;
                first = v;
            } else if v > second {
                second = v;
            }
        }
        let (first, second) = (f64::from(first), f64::from(second));
        let total: f64 = visits.iter().map(|&v| f64::from(v)).sum::<f64>().max(1.0);
        if elapsed >= soft {
            return if first >= STABLE_LEAD * second {
                Some(TimeStop::Stable)
            } else if elapsed >= soft.mul_f64(SOFT_OVERRUN) {
                Some(TimeStop::Overrun)
            } else {
                None
            };
        }
        let e = elapsed.as_secs_f64();
        let left = total / e.max(1e-3) * (soft.as_secs_f64() - e);
        (e > EARLIEST_STOP * soft.as_secs_f64() && first - second > left).then_some(TimeStop::Decided)
    }
}

/// Which time rule ended a search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TimeStop {
    /// The hard limit (or the whole `movetime`).
    Hard,
    /// Past the target with a clear best action.
    Stable,
    /// Twice the target, the choice still close.
    Overrun,
    /// Before the target: the rest of it could not change the choice.
    Decided,
}

impl TimeStop {
    /// What the log says.
    pub fn text(self) -> &'static str {
        match self {
            TimeStop::Hard => "time: the hard limit",
            TimeStop::Stable => "time: past the target, the best action clearly ahead",
            TimeStop::Overrun => "time: twice the target, the choice still close",
            TimeStop::Decided => "time: the rest of the target could not change the choice",
        }
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.soft, self.hard) {
            (None, None) => f.write_str("no time limit"),
            (s, h) => {
                let ms = |d: Option<Duration>| d.map_or_else(|| "none".to_owned(), |d| format!("{} ms", d.as_millis()));
                write!(f, "target {}, hard limit {}", ms(s), ms(h))
            }
        }
    }
}
