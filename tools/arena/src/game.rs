//! One game between two engine processes: deployments (`classic`, `open`,
//! `ccgc`) or the deal (`flip`), then `position` + `go` to the side to move
//! until the rules, the maximum length or an adjudication end it.
//!
//! Seats are the two engines of the match (seat 0 is the first
//! `--engine`); colours are what they play in this game. In `flip` the
//! first player's colour is only known after its first flip; until then
//! the arena sends its clock as Red's, as engines read it.

use std::time::{Duration, Instant};

use luzhanqi::notation::parse_deployment;
use luzhanqi::protocol::{Command, Go, Response, parse_response};
use luzhanqi::{Colour, Deployment, Rules, Variant};

use crate::clock::{Clock, Limits, go_command, time_allowed};
use crate::engine::{Engine, EngineError, EngineSpec, GameLog};
use crate::record::{GameRecord, PlyRecord, Termination};
use crate::referee::{Deal, Referee, RefereeError};

/// Everything about one game but the engines.
#[derive(Clone, Debug)]
pub struct GameSpec {
    /// Game number, from 1.
    pub game: u64,
    /// Pair number, from 1.
    pub pair: u64,
    /// The preset.
    pub variant: Variant,
    /// Rule options over the preset, as sent to the engines.
    pub toggles: Vec<(String, String)>,
    /// The rules in force (the preset with the toggles).
    pub rules: Rules,
    /// The pair's seed: the deal, and the engines' `Seed` option.
    pub seed: u64,
    /// The seat that plays Red (classic, open) or moves first (flip).
    pub first_seat: usize,
    /// Limits by seat.
    pub limits: [Limits; 2],
    /// Plies after which the game is drawn.
    pub max_plies: u32,
    /// Time an engine may overstep its clock or movetime.
    pub margin: Duration,
    /// How long to wait for answers that have no time limit.
    pub stall: Duration,
    /// Adjudicate a game both engines agree is lost.
    pub resign: Option<Resign>,
}

/// `--resign movecount=N score=CP`: a game ends when one engine has
/// reported a score of at least CP for its last N moves and the other one
/// at most −CP for its last N moves (scores from each mover's view, the
/// last `info` line before each `bestmove`); the side ahead wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resign {
    /// Consecutive moves of each engine.
    pub movecount: u32,
    /// Centipawns.
    pub score: i32,
}

impl std::str::FromStr for Resign {
    type Err = String;

    fn from_str(s: &str) -> Result<Resign, String> {
        let mut r = Resign { movecount: 0, score: 0 };
        for word in s.split_whitespace() {
            let (k, v) = word.split_once('=').ok_or_else(|| format!("'{word}' is not key=value"))?;
            let bad = |e: std::num::ParseIntError| format!("'{word}': {e}");
            match k {
                "movecount" => r.movecount = v.parse().map_err(bad)?,
                "score" => r.score = v.parse().map_err(bad)?,
                _ => return Err(format!("unknown key '{k}' (movecount, score)")),
            }
        }
        if r.movecount == 0 || r.score <= 0 {
            return Err("give movecount=N score=CP, both above 0".to_owned());
        }
        Ok(r)
    }
}

/// Each engine's run of confident scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResignTally {
    /// Per seat: consecutive moves with a score of at least +CP.
    ahead: [u32; 2],
    /// Per seat: consecutive moves with a score of at most −CP.
    behind: [u32; 2],
}

impl ResignTally {
    /// Counts `seat`'s move with its reported `cp` (`None`: no score) and
    /// returns the seat that wins by adjudication, if any.
    pub fn record(&mut self, rule: Resign, seat: usize, cp: Option<i32>) -> Option<usize> {
        let cp = cp.unwrap_or(0);
        self.ahead[seat] = if cp >= rule.score { self.ahead[seat] + 1 } else { 0 };
        self.behind[seat] = if cp <= -rule.score { self.behind[seat] + 1 } else { 0 };
        (0..2).find(|&s| self.ahead[s] >= rule.movecount && self.behind[1 - s] >= rule.movecount)
    }
}

/// The `Seed` option value for a pair seed (1 ..= 2^32 - 1; 0 would mean
/// "from the clock").
pub fn engine_seed(seed: u64) -> u64 {
    seed % 4_294_967_295 + 1
}

/// Starts an engine and sets it up for the match: `Variant`, the rule
/// toggles, then the user's options, then `isready`; the exchange goes into
/// `log`.
///
/// # Errors
/// [`EngineError`] when it cannot be started or does not answer, and
/// [`EngineError::Refused`] when it answers any of those `setoption`s with
/// `info string error` (it would not play with the settings asked for).
///
/// An engine behind a host-side adapter is also told its time rule, unless
/// its `option.`s set it: a CCGC engine the clock's base as `Time`
/// (seconds, `START`'s time), a CS4500 player the movetime as `MoveTime`
/// (milliseconds, its `--time/move`), from `limits` (the engine's own or
/// the match's).
pub fn launch(
    spec: &EngineSpec,
    variant: &str,
    toggles: &[(String, String)],
    stall: Duration,
    limits: &crate::clock::Limits,
    log: Option<GameLog>,
) -> Result<Engine, EngineError> {
    let mut e = Engine::start(spec, stall, log)?;
    e.set_option("Variant", variant)?;
    let limits = spec.limits.unwrap_or(*limits);
    let time_rule = match spec.proto {
        crate::proto::Proto::Ccgc | crate::proto::Proto::Ccgc2019 => {
            limits.tc.map(|tc| ("Time", tc.base.div_ceil(1000).clamp(1, 9999).to_string()))
        }
        crate::proto::Proto::Cs4500 => limits.movetime.map(|ms| ("MoveTime", ms.max(1).to_string())),
        crate::proto::Proto::Uli => None,
    };
    if let Some((name, value)) = time_rule.filter(|(name, _)| !spec.sets_option(name)) {
        e.set_option(name, &value)?;
    }
    for (name, value) in toggles.iter().chain(&spec.options) {
        e.set_option(name, value)?;
    }
    let errors = e.sync_errors(stall)?;
    if !errors.is_empty() {
        let refused = EngineError::Refused(errors.join("; "));
        e.remark(&refused.to_string());
        return Err(refused);
    }
    Ok(e)
}

/// How a game ended, before it is written down.
struct End {
    winner_seat: Option<usize>,
    termination: Termination,
    detail: String,
    illegal: Option<String>,
}

impl End {
    fn loss(seat: usize, termination: Termination, detail: String) -> End {
        End { winner_seat: Some(1 - seat), termination, detail, illegal: None }
    }

    fn engine(seat: usize, name: &str, e: &EngineError) -> End {
        let t = Termination::of_engine_error(e);
        End::loss(seat, t, format!("{name} {e}"))
    }

    fn error(e: &RefereeError) -> End {
        End { winner_seat: None, termination: Termination::Error, detail: e.to_string(), illegal: None }
    }
}

/// A game in progress.
struct Game<'a> {
    spec: &'a GameSpec,
    engines: &'a mut [Option<Engine>; 2],
    names: [String; 2],
    /// The seat playing Red; in `flip`, provisional until the first flip.
    red_seat: usize,
    clocks: [Option<Clock>; 2],
    /// Seats whose engine may still be searching (lost on time).
    busy: [bool; 2],
    rec: GameRecord,
    resign: ResignTally,
}

impl Game<'_> {
    fn seat_of(&self, c: Colour) -> usize {
        if c == Colour::Red { self.red_seat } else { 1 - self.red_seat }
    }

    fn engine(&mut self, seat: usize) -> &mut Engine {
        self.engines[seat].as_mut().expect("an engine runs in every seat during a game")
    }

    /// `newgame`, the pair's seed, `isready`.
    fn prepare(&mut self, seat: usize, log: Option<GameLog>) -> Result<(), End> {
        let (stall, seed) = (self.spec.stall, engine_seed(self.spec.seed));
        let name = self.names[seat].clone();
        let remark = format!("game {} (pair {}), Seed {seed}", self.spec.game, self.spec.pair);
        let e = self.engine(seat);
        prepare(e, log, &remark, seed, stall).map_err(|err| End::engine(seat, &name, &err))
    }

    /// Asks `colour`'s engine for its deployment.
    fn deployment(&mut self, colour: Colour) -> Result<Result<Deployment, String>, End> {
        let seat = self.seat_of(colour);
        let (stall, name) = (self.spec.stall, self.names[seat].clone());
        let e = self.engine(seat);
        let text =
            ask_setup(e, &Command::GoSetup(Some(colour)), stall).map_err(|err| End::engine(seat, &name, &err))?;
        self.rec.setups[colour.index()] = Some(text.clone());
        Ok(parse_deployment(&text, colour).map_err(|err| {
            let why = err.to_string();
            let why = why.strip_prefix("bad deployment: ").unwrap_or(&why);
            format!("{name} ({colour}) sent an illegal deployment: {why}")
        }))
    }

    fn referee(&mut self) -> Result<Referee, End> {
        let rules = self.spec.rules;
        if !rules.has_deployment() {
            let deal = self.rec.deal.clone().unwrap_or_else(|| Deal::from_seed(self.spec.seed));
            return Ok(Referee::flip(rules, deal));
        }
        let red = self.deployment(Colour::Red)?;
        let blue = self.deployment(Colour::Blue)?;
        match (red, blue) {
            (Ok(r), Ok(b)) => Referee::deployed(rules, &r, &b).map_err(|e| End::error(&e)),
            (Err(r), Err(b)) => Err(End {
                winner_seat: None,
                termination: Termination::BadSetup,
                detail: format!("{r}; {b}"),
                illegal: None,
            }),
            (Err(r), Ok(_)) => Err(End::loss(self.seat_of(Colour::Red), Termination::BadSetup, r)),
            (Ok(_), Err(b)) => Err(End::loss(self.seat_of(Colour::Blue), Termination::BadSetup, b)),
        }
    }

    /// Starts missing engines, prepares both, deals or asks for the
    /// deployments, and plays: `Err` when the game ends before play.
    fn run(&mut self, specs: &[EngineSpec; 2], log: Option<GameLog>) -> Result<End, End> {
        for (seat, spec) in specs.iter().enumerate() {
            if self.engines[seat].is_none() {
                let limits = self.spec.limits[seat];
                let started =
                    launch(spec, self.spec.variant.name(), &self.spec.toggles, self.spec.stall, &limits, log.clone());
                self.engines[seat] = Some(started.map_err(|e| End::engine(seat, &spec.name, &e))?);
            }
        }
        for seat in 0..2 {
            self.prepare(seat, log.clone())?;
        }
        let mut referee = self.referee()?;
        Ok(self.play(&mut referee))
    }

    /// Plays until the game ends.
    fn play(&mut self, referee: &mut Referee) -> End {
        loop {
            if let Some(r) = referee.outcome() {
                let detail = r.to_string();
                let winner_seat = r.winner.map(|c| self.seat_of(c));
                return End { winner_seat, termination: Termination::from_rules(r.reason), detail, illegal: None };
            }
            if referee.truth().ply() >= self.spec.max_plies {
                let detail = format!("draw after {} plies (the arena's maximum)", self.spec.max_plies);
                return End { winner_seat: None, termination: Termination::MaxPlies, detail, illegal: None };
            }
            if let Err(end) = self.one_ply(referee) {
                return end;
            }
        }
    }

    fn one_ply(&mut self, referee: &mut Referee) -> Result<(), End> {
        let side = referee.side_to_move();
        let seat = side.map_or(self.red_seat, |c| self.seat_of(c));
        let colour = side.unwrap_or(Colour::Red);
        let name = self.names[seat].clone();
        let limits = self.spec.limits[seat];
        let go = go_command(&limits, &self.clocks, self.red_seat);
        let allowed = time_allowed(&limits, self.clocks[seat].as_ref(), self.spec.margin);
        let position = referee.position_command(side);
        let stall = self.spec.stall;
        let e = self.engine(seat);
        let Answer { line, elapsed, complaint, cp } = match ask_move(e, &position, go, allowed, stall) {
            Ok(answer) => answer,
            Err(fail) => {
                self.busy[seat] |= fail.busy();
                let who = format!("{name} ({colour})");
                return Err(match fail.time_loss(&who) {
                    Some(detail) => End::loss(seat, Termination::Time, detail),
                    None => End::engine(seat, &name, &fail.error()),
                });
            }
        };
        if let Some(c) = self.clocks[seat].as_mut() {
            c.spend(elapsed);
        }
        let said = complaint.map(|c| format!(" (it had said: {c})")).unwrap_or_default();
        let illegal = |why: String| {
            let sent = line.trim().strip_prefix("bestmove").unwrap_or_default().trim().to_owned();
            let detail = format!("{name} ({colour}) sent '{}': {why}{said}", line.trim());
            End { winner_seat: Some(1 - seat), termination: Termination::Illegal, detail, illegal: Some(sent) }
        };
        let action = match parse_response(&line) {
            Ok(Response::BestMove { action: Some(a), .. }) => a,
            Ok(Response::BestMove { action: None, .. }) => return Err(illegal("it has legal actions".to_owned())),
            Ok(_) | Err(_) => return Err(illegal("not an action".to_owned())),
        };
        let ply = match referee.play(action) {
            Ok(p) => p,
            Err(e @ RefereeError::Illegal { .. }) => return Err(illegal(e.to_string())),
            Err(e) => return Err(End::error(&e)),
        };
        if self.rec.plies.is_empty() && referee.rules().mode == luzhanqi::Mode::Flip {
            // The first flip gives the first player its colour.
            self.rec.first = ply.mover;
            if ply.mover == Colour::Blue {
                self.red_seat = 1 - self.red_seat;
            }
        }
        let ms = elapsed.as_millis() as u64;
        self.rec.plies.push(PlyRecord { colour: ply.mover, token: ply.token, reveals: ply.reveals, ms });
        if let Some(rule) = self.spec.resign
            && referee.outcome().is_none()
            && let Some(winner) = self.resign.record(rule, seat, cp)
        {
            let detail = format!(
                "{} wins by adjudication: {} moves each at {:+} cp or beyond",
                self.names[winner], rule.movecount, rule.score
            );
            return Err(End { winner_seat: Some(winner), termination: Termination::Resign, detail, illegal: None });
        }
        Ok(())
    }

    /// After the game: stops searches that ran out of time and checks that
    /// each engine still answers; an engine that does not (or that lost by
    /// crashing or stalling) is shut down (`quit`, then killed) while the
    /// game log is still attached, and restarted for the next game. An
    /// engine that lost on time gets [`STOP_GRACE`] to answer `stop` and
    /// `isready`, not the whole stall timeout.
    fn tidy(&mut self, end: &End) {
        for seat in 0..2 {
            let lost_engine =
                end.winner_seat == Some(1 - seat) && matches!(end.termination, Termination::Crash | Termination::Stall);
            let lost = lost_engine.then_some(end.termination);
            tidy(&mut self.engines[seat], lost, self.busy[seat], self.spec.stall);
        }
    }
}

/// Before a game: `newgame`, the `Seed` option (unless the engine's own
/// options set it, or it has none), `isready`; the game's log attached
/// with `remark` written into it.
///
/// # Errors
/// [`EngineError`] when the engine does not take the commands or does not
/// answer within `stall`.
pub(crate) fn prepare(
    e: &mut Engine,
    log: Option<GameLog>,
    remark: &str,
    seed: u64,
    stall: Duration,
) -> Result<(), EngineError> {
    e.set_log(log);
    e.remark(remark);
    e.send(&Command::NewGame)?;
    if e.has_option("Seed") && !e.spec().sets_option("Seed") {
        e.set_option("Seed", &seed.to_string())?;
    }
    e.sync(stall)
}

/// Sends a `go setup` command and returns the text of the `bestsetup`
/// answer (the lines before it are dropped).
///
/// # Errors
/// [`EngineError`] when the engine crashes or does not answer within `stall`.
pub(crate) fn ask_setup(e: &mut Engine, go_setup: &Command, stall: Duration) -> Result<String, EngineError> {
    e.send(go_setup)?;
    let deadline = Instant::now() + stall;
    loop {
        let (line, _) = e.recv(deadline).map_err(|err| err.during("go setup"))?;
        if let Some(rest) = line.trim().strip_prefix("bestsetup") {
            return Ok(rest.trim().to_owned());
        }
    }
}

/// An engine's answer to `position` and `go`.
pub(crate) struct Answer {
    /// The `bestmove` line.
    pub line: String,
    /// From sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last `info string error` before it.
    pub complaint: Option<String>,
    /// The last score it reported (`info ... score cp`).
    pub cp: Option<i32>,
}

/// Why [`ask_move`] got no answer in time.
pub(crate) enum AskFail {
    /// Sending failed (the engine is gone).
    Send(EngineError),
    /// No `bestmove`: the engine crashed, or stalled (by the deadline:
    /// `allowed` when the move had a time limit, else the stall timeout).
    Wait(EngineError, Option<Duration>),
    /// `bestmove` came after the time allowed.
    Late(Duration, Duration),
}

impl AskFail {
    /// Whether the engine may still be searching (it must be stopped).
    pub fn busy(&self) -> bool {
        matches!(self, AskFail::Wait(..))
    }

    /// The detail of a time loss of `who`, when it is one.
    pub fn time_loss(&self, who: &str) -> Option<String> {
        match self {
            AskFail::Wait(EngineError::Stalled(_), Some(a)) => {
                Some(format!("{who} lost on time: no bestmove within {} ms", a.as_millis()))
            }
            AskFail::Late(elapsed, a) => {
                Some(format!("{who} lost on time: {} ms, {} ms allowed", elapsed.as_millis(), a.as_millis()))
            }
            _ => None,
        }
    }

    /// The engine's failure, when it is not a time loss.
    pub fn error(self) -> EngineError {
        match self {
            AskFail::Send(err) => err,
            AskFail::Wait(err, _) => err.during("go"),
            AskFail::Late(..) => EngineError::Stalled("late".to_owned()),
        }
    }
}

/// Sends `position` and `go`, and waits for `bestmove`: within `allowed`
/// (the time limit with its margin), or `stall` for a move without one.
/// `info` lines are read on the way (the last error and score kept).
pub(crate) fn ask_move(
    e: &mut Engine,
    position: &Command,
    go: Go,
    allowed: Option<Duration>,
    stall: Duration,
) -> Result<Answer, AskFail> {
    e.send(position).map_err(AskFail::Send)?;
    e.send(&Command::Go(go)).map_err(AskFail::Send)?;
    let sent = Instant::now();
    let deadline = sent + allowed.unwrap_or(stall);
    let mut complaint = None;
    let mut cp = None;
    let (line, at) = loop {
        match e.recv(deadline) {
            Ok((line, at)) if line.starts_with("bestmove") => break (line, at),
            Ok((line, _)) => match parse_response(&line) {
                Ok(r) if r.is_error() => complaint = Some(line),
                Ok(Response::Info(info)) => cp = info.score.map(|s| s.cp).or(cp),
                _ => {}
            },
            Err(err) => return Err(AskFail::Wait(err, allowed)),
        }
    };
    let elapsed = at.saturating_duration_since(sent);
    if let Some(a) = allowed.filter(|a| elapsed > *a) {
        return Err(AskFail::Late(elapsed, a));
    }
    Ok(Answer { line, elapsed, complaint, cp })
}

/// After a game: an engine that lost it by crashing or stalling (`lost`)
/// is shut down; one that lost on time (`busy`: it may still be searching)
/// gets [`STOP_GRACE`] to answer `stop` and `isready`; any other must
/// answer `isready` within `stall`. An engine that does not is asked to
/// `quit`, killed, and left as `None` to be restarted for the next game,
/// its game log still attached while that happens.
pub(crate) fn tidy(slot: &mut Option<Engine>, lost: Option<Termination>, busy: bool, stall: Duration) {
    let Some(e) = slot.as_mut() else { return };
    let answered = if let Some(t) = lost {
        Err(format!("lost by {t}"))
    } else if busy {
        let grace = stall.min(STOP_GRACE);
        let stopped = e.send(&Command::Stop).and_then(|()| e.sync(grace));
        stopped.map_err(|err| {
            format!("no answer to stop and isready within {} ms after its time loss ({err})", grace.as_millis())
        })
    } else {
        e.sync(stall).map_err(|err| err.to_string())
    };
    match answered {
        Ok(()) => e.set_log(None),
        Err(why) => {
            e.remark(&why);
            let how = e.shutdown();
            e.remark(&format!("{how}; restarted for the next game"));
            e.set_log(None);
            *slot = None;
        }
    }
}

/// How long an engine that lost on time (and may still be searching) has
/// to answer `stop` and `isready` before it is shut down.
pub const STOP_GRACE: Duration = Duration::from_millis(500);

/// Plays one game with the engines of both seats (starting any that is not
/// running) and returns its record and the seat that played Red. Engines
/// that crashed or stalled are left as `None` to be restarted.
pub fn play(
    spec: &GameSpec,
    specs: &[EngineSpec; 2],
    engines: &mut [Option<Engine>; 2],
    log: Option<GameLog>,
) -> (GameRecord, usize) {
    play_or_forfeit(spec, specs, engines, log, None)
}

/// The record of a game lost before it started because the engine of
/// `seat` could not be (re)started (`err`); the other engine is not used.
pub fn forfeit(
    spec: &GameSpec,
    specs: &[EngineSpec; 2],
    engines: &mut [Option<Engine>; 2],
    log: Option<GameLog>,
    seat: usize,
    err: &EngineError,
) -> (GameRecord, usize) {
    play_or_forfeit(spec, specs, engines, log, Some((seat, err)))
}

fn play_or_forfeit(
    spec: &GameSpec,
    specs: &[EngineSpec; 2],
    engines: &mut [Option<Engine>; 2],
    log: Option<GameLog>,
    forfeit: Option<(usize, &EngineError)>,
) -> (GameRecord, usize) {
    let red_seat = spec.first_seat;
    let name_of = |seat: usize| specs[seat].name.clone();
    let clocks = [spec.limits[0].tc.map(Clock::new), spec.limits[1].tc.map(Clock::new)];
    // The deal is the pair seed's: recorded even if the game ends before it
    // is dealt (an engine that fails its set-up), so that the record replays.
    let deal = (!spec.rules.has_deployment()).then(|| Deal::from_seed(spec.seed));
    let rec = GameRecord {
        toggles: spec.toggles.clone(),
        seed: spec.seed,
        max_plies: spec.max_plies,
        deal,
        ..GameRecord::new(spec.game, spec.pair, spec.variant)
    };
    let mut game = Game {
        spec,
        engines,
        names: [name_of(0), name_of(1)],
        red_seat,
        clocks,
        busy: [false; 2],
        rec,
        resign: ResignTally::default(),
    };
    let end = match forfeit {
        Some((seat, err)) => {
            for e in game.engines.iter().flatten() {
                e.set_log(None);
            }
            End::engine(seat, &specs[seat].name, err)
        }
        None => {
            let end = game.run(specs, log.clone()).unwrap_or_else(|end| end);
            game.tidy(&end);
            end
        }
    };
    let red_seat = game.red_seat;
    let mut rec = game.rec;
    rec.names = [specs[red_seat].name.clone(), specs[1 - red_seat].name.clone()];
    rec.limits = [spec.limits[red_seat].to_string(), spec.limits[1 - red_seat].to_string()];
    rec.winner = end.winner_seat.map(|s| if s == red_seat { Colour::Red } else { Colour::Blue });
    rec.termination = end.termination;
    rec.detail = end.detail;
    rec.illegal = end.illegal;
    if let Some(l) = &log {
        l.line("arena", '#', &format!("{} {}: {}", rec.result_text(), rec.termination, rec.detail));
        l.flush();
    }
    (rec, red_seat)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resignation_needs_both_engines_to_agree_long_enough() {
        let rule: Resign = "movecount=3 score=500".parse().unwrap();
        assert!("movecount=0 score=500".parse::<Resign>().is_err());
        assert!("moves=3".parse::<Resign>().is_err());
        let mut t = ResignTally::default();
        // Seat 0 is sure it wins; seat 1 agrees only from its second move.
        assert_eq!(t.record(rule, 0, Some(700)), None);
        assert_eq!(t.record(rule, 1, Some(-100)), None);
        assert_eq!(t.record(rule, 0, Some(800)), None);
        assert_eq!(t.record(rule, 1, Some(-600)), None);
        assert_eq!(t.record(rule, 0, Some(900)), None);
        assert_eq!(t.record(rule, 1, Some(-600)), None);
        assert_eq!(t.record(rule, 0, None), None, "no score breaks the run");
        let mut t = ResignTally::default();
        for _ in 0..2 {
            assert_eq!(t.record(rule, 1, Some(10_000)), None);
            assert_eq!(t.record(rule, 0, Some(-500)), None);
        }
        assert_eq!(t.record(rule, 1, Some(600)), None);
        assert_eq!(t.record(rule, 0, Some(-700)), Some(1));
    }
}
