//! Time controls and clocks: base plus increment per side, a fixed time per
//! move, fixed nodes or depth; the `go` command for the side to move; when
//! a move is late.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use luzhanqi::protocol::Go;

/// A base time and an increment per move, in milliseconds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TimeControl {
    /// Time on each clock at the start.
    pub base: u64,
    /// Time added after each move.
    pub inc: u64,
}

/// Reads a duration: milliseconds (`2000`, `2000ms`) or seconds (`2s`, `0.5s`).
fn parse_ms(s: &str) -> Result<u64, String> {
    let bad = || format!("bad time '{s}' (milliseconds, or seconds with 's': 2000, 2s, 0.5s)");
    if let Some(ms) = s.strip_suffix("ms") {
        ms.parse().map_err(|_| bad())
    } else if let Some(secs) = s.strip_suffix('s') {
        let v: f64 = secs.parse().map_err(|_| bad())?;
        if v.is_finite() && v >= 0.0 { Ok((v * 1000.0).round() as u64) } else { Err(bad()) }
    } else {
        s.parse().map_err(|_| bad())
    }
}

impl FromStr for TimeControl {
    type Err = String;

    /// `BASE+INC` or `BASE`, each in milliseconds or with an `s` suffix.
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        Ok(TimeControl { base: parse_ms(base.trim())?, inc: parse_ms(inc.trim())? })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.base, self.inc)
    }
}

/// What limits an engine's moves: any combination of a clock, a fixed time
/// per move, a node count and a depth (all sent with `go`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// Base plus increment.
    pub tc: Option<TimeControl>,
    /// Milliseconds per move.
    pub movetime: Option<u64>,
    /// Search iterations per move.
    pub nodes: Option<u64>,
    /// Depth per move.
    pub depth: Option<u32>,
}

impl Limits {
    /// Whether no limit is set (an engine could then think forever).
    pub fn is_empty(&self) -> bool {
        *self == Limits::default()
    }

    /// Sets one limit from a `key=value` pair (`tc`, `movetime`, `nodes`,
    /// `depth`). Returns `Ok(false)` for another key.
    ///
    /// # Errors
    /// A message for a bad value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        let number = |v: &str| v.parse::<u64>().map_err(|_| format!("bad {key} '{v}'"));
        match key {
            "tc" => self.tc = Some(value.parse()?),
            "movetime" => self.movetime = Some(parse_ms(value)?),
            "nodes" => self.nodes = Some(number(value)?),
            "depth" => self.depth = Some(u32::try_from(number(value)?).map_err(|_| format!("bad depth '{value}'"))?),
            _ => return Ok(false),
        }
        Ok(true)
    }
}

impl fmt::Display for Limits {
    /// `tc=2000+50 nodes=800`, or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc={tc}"));
        }
        let rest = [("movetime", self.movetime), ("nodes", self.nodes), ("depth", self.depth.map(u64::from))];
        parts.extend(rest.iter().filter_map(|(k, v)| v.map(|v| format!("{k}={v}"))));
        if parts.is_empty() { f.write_str("none") } else { f.write_str(&parts.join(" ")) }
    }
}

/// One side's clock.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Clock {
    /// Milliseconds left.
    pub left: u64,
    /// Milliseconds added after each move.
    pub inc: u64,
}

impl Clock {
    /// A full clock.
    pub fn new(tc: TimeControl) -> Clock {
        Clock { left: tc.base, inc: tc.inc }
    }

    /// Takes a move's time off the clock and adds the increment (a move
    /// that overstepped within the margin leaves the clock at the increment).
    pub fn spend(&mut self, elapsed: Duration) {
        self.left = self.left.saturating_sub(elapsed.as_millis() as u64) + self.inc;
    }
}

/// The `go` command for a move: the limits of the mover, and every clock in
/// play. `red_seat` names the seat whose clock is sent as Red's; before the
/// first flip of a `flip` game it is the mover's (engines read the clock of
/// the unassigned side to move as Red's).
pub fn go_command(limits: &Limits, clocks: &[Option<Clock>; 2], red_seat: usize) -> Go {
    let mut go = Go { movetime: limits.movetime, nodes: limits.nodes, depth: limits.depth, ..Go::default() };
    if let Some(c) = clocks[red_seat] {
        go.rtime = Some(c.left);
        go.rinc = Some(c.inc);
    }
    if let Some(c) = clocks[1 - red_seat] {
        go.btime = Some(c.left);
        go.binc = Some(c.inc);
    }
    go
}

/// The `go` command for a four-player move: the limits of the mover, the
/// mover's clock in its team's words (team SN: `rtime`/`rinc`, team EW:
/// `btime`/`binc`, as Red moves first in two-player games and South in
/// four-player ones) and `opponent`'s clock (the opponent who moves next)
/// in the other team's words.
pub fn siguo_go_command(limits: &Limits, mine: Option<Clock>, opponent: Option<Clock>, south_north: bool) -> Go {
    let (red, blue) = if south_north { (mine, opponent) } else { (opponent, mine) };
    let go = Go { movetime: limits.movetime, nodes: limits.nodes, depth: limits.depth, ..Go::default() };
    Go {
        rtime: red.map(|c| c.left),
        rinc: red.map(|c| c.inc),
        btime: blue.map(|c| c.left),
        binc: blue.map(|c| c.inc),
        ..go
    }
}

/// How long a move may take before it is lost on time: what is left on the
/// mover's clock, or the fixed time per move, whichever is shorter, plus the
/// margin. `None` when the move has no time limit (nodes or depth only).
pub fn time_allowed(limits: &Limits, clock: Option<&Clock>, margin: Duration) -> Option<Duration> {
    let clock_ms = clock.map(|c| c.left);
    let ms = match (clock_ms, limits.movetime) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    ms.map(|ms| Duration::from_millis(ms) + margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        assert_eq!("2000+50".parse(), Ok(TimeControl { base: 2000, inc: 50 }));
        assert_eq!("10s+0.1s".parse(), Ok(TimeControl { base: 10_000, inc: 100 }));
        assert_eq!("500ms".parse(), Ok(TimeControl { base: 500, inc: 0 }));
        assert!("fast".parse::<TimeControl>().is_err());
        assert!("1+-1".parse::<TimeControl>().is_err());
        assert_eq!(TimeControl { base: 2000, inc: 50 }.to_string(), "2000+50");
    }

    #[test]
    fn limits_from_pairs() {
        let mut l = Limits::default();
        assert!(l.is_empty());
        assert_eq!(l.set("nodes", "800"), Ok(true));
        assert_eq!(l.set("tc", "1s+10"), Ok(true));
        assert_eq!(l.set("option.Hash", "16"), Ok(false));
        assert!(l.set("depth", "deep").is_err());
        assert_eq!(l.to_string(), "tc=1000+10 nodes=800");
        assert_eq!(Limits::default().to_string(), "none");
    }

    #[test]
    fn the_clock_pays_the_increment_and_never_goes_negative() {
        let mut c = Clock::new(TimeControl { base: 1000, inc: 50 });
        c.spend(Duration::from_millis(300));
        assert_eq!(c.left, 750);
        c.spend(Duration::from_millis(900));
        assert_eq!(c.left, 50);
    }

    #[test]
    fn go_sends_each_clock_by_colour() {
        let tc = TimeControl { base: 1000, inc: 10 };
        let clocks = [Some(Clock { left: 900, inc: 10 }), Some(Clock::new(tc))];
        let limits = Limits { tc: Some(tc), nodes: Some(5), ..Limits::default() };
        // Seat 1 plays Red: its clock is rtime.
        let go = go_command(&limits, &clocks, 1);
        assert_eq!(
            (go.rtime, go.btime, go.rinc, go.binc, go.nodes),
            (Some(1000), Some(900), Some(10), Some(10), Some(5))
        );
        assert_eq!(luzhanqi::protocol::Command::Go(go).to_string(), "go rtime 1000 btime 900 rinc 10 binc 10 nodes 5");
        // A seat without a clock (nodes only) leaves its fields out.
        let go = go_command(&Limits::default(), &[None, Some(Clock::new(tc))], 0);
        assert_eq!((go.rtime, go.btime), (None, Some(1000)));
    }

    #[test]
    fn a_four_player_go_sends_the_movers_clock_in_its_teams_words() {
        let limits = Limits { movetime: Some(100), ..Limits::default() };
        let (mine, theirs) = (Some(Clock { left: 900, inc: 10 }), Some(Clock { left: 500, inc: 20 }));
        let go = |sn| luzhanqi::protocol::Command::Go(siguo_go_command(&limits, mine, theirs, sn)).to_string();
        assert_eq!(go(true), "go movetime 100 rtime 900 btime 500 rinc 10 binc 20");
        assert_eq!(go(false), "go movetime 100 rtime 500 btime 900 rinc 20 binc 10");
        let none = siguo_go_command(&limits, None, None, true);
        assert_eq!((none.rtime, none.btime, none.movetime), (None, None, Some(100)));
    }

    #[test]
    fn time_allowed_is_the_clock_or_movetime_plus_margin() {
        let margin = Duration::from_millis(100);
        let clock = Clock { left: 700, inc: 0 };
        let tc = Limits { tc: Some(TimeControl { base: 1000, inc: 0 }), ..Limits::default() };
        assert_eq!(time_allowed(&tc, Some(&clock), margin), Some(Duration::from_millis(800)));
        let mt = Limits { movetime: Some(200), ..Limits::default() };
        assert_eq!(time_allowed(&mt, None, margin), Some(Duration::from_millis(300)));
        let both = Limits { movetime: Some(200), ..tc };
        assert_eq!(time_allowed(&both, Some(&clock), margin), Some(Duration::from_millis(300)));
        assert_eq!(time_allowed(&Limits { nodes: Some(1), ..Limits::default() }, None, margin), None);
    }
}
