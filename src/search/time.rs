//! Time management: how long a search may run, from `go`'s limits and
//! clocks and the `MoveOverhead` option.

use std::time::{Duration, Instant};

use super::Control;
use crate::piece::Colour;
use crate::protocol::Go;

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

impl Budget {
    /// No time limit (node or depth limits, `infinite`).
    pub const UNLIMITED: Budget = Budget { soft: None, hard: None };

    /// The budget for the side `mover` (`None` before the first flip of a
    /// flip game: the first player's clock is Red's).
    pub fn from_go(go: &Go, mover: Option<Colour>, overhead_ms: u64) -> Budget {
        if go.infinite {
            return Budget::UNLIMITED;
        }
        if let Some(mt) = go.movetime {
            let t = Duration::from_millis(mt.saturating_sub(overhead_ms).max(1));
            return Budget { soft: Some(t), hard: Some(t) };
        }
        let (time, inc) = match mover.unwrap_or(Colour::Red) {
            Colour::Red => (go.rtime, go.rinc),
            Colour::Blue => (go.btime, go.binc),
        };
        let Some(time) = time else {
            return Budget::UNLIMITED;
        };
        let inc = inc.unwrap_or(0);
        let left = time.saturating_sub(overhead_ms);
        let moves = go.movestogo.map_or(DEFAULT_MOVES_LEFT, |m| u64::from(m.max(1)));
        // Spend a share of what is left plus most of the increment; never
        // more than a third of the clock on one move (all of it if this is
        // the last move before the control).
        let soft = (left / moves + inc * 3 / 4).min(left);
        let cap = if moves == 1 { left } else { left / 3 };
        let hard = (soft * 3).min(cap.max(soft)).max(1);
        Budget { soft: Some(Duration::from_millis(soft.max(1))), hard: Some(Duration::from_millis(hard)) }
    }
}

/// The stopping rules of one search.
#[derive(Debug)]
pub struct Limits {
    /// Stop after this many iterations.
    pub nodes: Option<u64>,
    budget: Budget,
    start: Instant,
    unbounded: bool,
    ponder: bool,
}

impl Limits {
    /// The limits of `go` for `mover`, the clock starting at `start`.
    pub fn new(go: &Go, mover: Option<Colour>, overhead_ms: u64, start: Instant) -> Limits {
        Limits {
            nodes: go.nodes,
            budget: Budget::from_go(go, mover, overhead_ms),
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
        let elapsed = self.start.elapsed();
        if self.budget.hard.is_some_and(|h| elapsed >= h) {
            return true;
        }
        let Some(soft) = self.budget.soft else {
            return false;
        };
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
            return first >= 1.3 * second || elapsed >= soft.mul_f64(2.0);
        }
        let e = elapsed.as_secs_f64();
        let left = total / e.max(1e-3) * (soft.as_secs_f64() - e);
        e > 0.05 * soft.as_secs_f64() && first - second > left
    }
}
