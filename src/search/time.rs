//! Time management: how long a search may run, from `go`'s limits and
//! clocks and the `MoveOverhead` option.

use std::time::Duration;

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
