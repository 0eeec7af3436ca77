//! One four-player game: each seat's engine is asked for its arm's
//! deployment (`go setup <seat>`), then the seat to move is sent its view
//! (`position fen <its view of the deployed start> moves <what it was
//! told>`) and `go`, until the rules, the length limit, an adjudication or
//! a seat's failure end it.
//!
//! A seat whose engine fails (an illegal action or deployment, a time
//! loss, a crash, a stall) loses the game for its team at once: the arena
//! ends it as if both partners had resigned (RULES-4P.md §4 items 7-8),
//! with the arena's termination (`illegal`, `time`, ...) and the seat
//! named in the record (`Failed`). Deployments illegal in both teams draw.

use std::time::Duration;

use luzhanqi::engine::options::SiguoVariant;
use luzhanqi::protocol::{Command, Response, SiguoStart, parse_response};
use luzhanqi::siguo::notation::{ArmDeployment, SiguoSetup, SiguoState};
use luzhanqi::siguo::{Position, Seat, SiguoPlayError, SiguoReferee, SiguoRefereeError, SiguoRules, Team};

use crate::clock::{Clock, Limits, siguo_go_command, time_allowed};
use crate::engine::{Engine, EngineError, GameLog};
use crate::game::{Answer, Resign, ask_move, ask_setup, engine_seed, prepare, tidy};
use crate::record::Termination;
use crate::siguo::record::{SiguoPlyRecord, SiguoRecord, termination_of};
use crate::siguo::{Slot, seat_seed};

/// Everything about one four-player game but the engines.
#[derive(Clone, Debug)]
pub struct SiguoGameSpec {
    /// Game number, from 1.
    pub game: u64,
    /// Pair number, from 1.
    pub pair: u64,
    /// The preset.
    pub variant: SiguoVariant,
    /// Rule options over the preset, as sent to the engines.
    pub toggles: Vec<(String, String)>,
    /// The rules in force.
    pub rules: SiguoRules,
    /// The pair's seed, from which each seat's engine seed derives
    /// ([`seat_seed`]).
    pub seed: u64,
    /// The slot playing each seat, by seat index ([`crate::siguo::lineup`]).
    pub lineup: [usize; 4],
    /// Limits by slot.
    pub limits: [Limits; 4],
    /// Plies after which the game is drawn.
    pub max_plies: u32,
    /// Time an engine may overstep its clock or movetime.
    pub margin: Duration,
    /// How long to wait for answers that have no time limit.
    pub stall: Duration,
    /// Adjudicate a game both teams agree is decided.
    pub resign: Option<Resign>,
}

/// `--resign` on four seats: a team wins when each of its seats still in
/// has reported a score of at least +CP for its last N moves and each seat
/// of the other team still in at most −CP for its last N moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TeamResignTally {
    ahead: [u32; 4],
    behind: [u32; 4],
}

impl TeamResignTally {
    /// Counts `seat`'s move with its reported `cp` (`None`: no score) and
    /// returns the team that wins by adjudication in `pos` (for the seats
    /// still in), if any.
    pub fn record(&mut self, rule: Resign, seat: Seat, cp: Option<i32>, pos: &Position) -> Option<Team> {
        let (i, cp) = (seat.index(), cp.unwrap_or(0));
        self.ahead[i] = if cp >= rule.score { self.ahead[i] + 1 } else { 0 };
        self.behind[i] = if cp <= -rule.score { self.behind[i] + 1 } else { 0 };
        let all =
            |t: Team, run: &[u32; 4]| t.seats().iter().all(|s| pos.is_out(*s) || run[s.index()] >= rule.movecount);
        [Team::SouthNorth, Team::EastWest].into_iter().find(|&t| all(t, &self.ahead) && all(t.other(), &self.behind))
    }
}

/// How a game ended, before it is written down.
struct End {
    winner: Option<Team>,
    termination: Termination,
    detail: String,
    illegal: Option<String>,
    failed: Vec<Seat>,
}

impl End {
    fn loss(seat: Seat, termination: Termination, detail: String) -> End {
        let winner = Some(Team::of(seat).other());
        End { winner, termination, detail, illegal: None, failed: vec![seat] }
    }

    fn engine(seat: Seat, who: &str, e: &EngineError) -> End {
        let t = Termination::of_engine_error(e);
        End::loss(seat, t, format!("{who} {e}"))
    }

    fn error(e: &SiguoRefereeError) -> End {
        End { winner: None, termination: Termination::Error, detail: e.to_string(), illegal: None, failed: vec![] }
    }
}

/// The position string of a seat's start view (ply 0, nothing removed).
fn start_setup(view: &Position) -> SiguoSetup {
    SiguoState { pos: view.clone(), ply: 0, removed: Vec::new() }.setup()
}

/// The `position` command for `seat`: its view of the deployed start and
/// every token the referee told it.
pub fn position_command(referee: &SiguoReferee, seat: Seat) -> Command {
    Command::SiguoPosition {
        start: SiguoStart::Fen(start_setup(referee.start(seat))),
        moves: referee.told(seat).to_vec(),
    }
}

/// The referee of a game from its four deployments, by seat index.
pub fn referee_of(rules: SiguoRules, deployments: &[ArmDeployment; 4]) -> SiguoReferee {
    let red = deployments.clone().map(|d| d.red);
    SiguoReferee::new(Position::start(rules, &red))
}

/// Reads the deployment `seat`'s engine sent: the arm's deployment
/// string, of that seat, legal under the rules.
///
/// # Errors
/// Why it is not.
pub fn parse_seat_deployment(text: &str, seat: Seat) -> Result<ArmDeployment, String> {
    let d = ArmDeployment::parse(text)?;
    if d.seat != seat {
        return Err(format!("it deploys {}'s arm, not {seat}'s", d.seat));
    }
    Ok(d)
}

/// A game in progress.
struct Game<'a> {
    spec: &'a SiguoGameSpec,
    engines: &'a mut [Option<Engine>; 4],
    /// Engine names by slot.
    names: [String; 4],
    clocks: [Option<Clock>; 4],
    /// Slots whose engine may still be searching (lost on time).
    busy: [bool; 4],
    rec: SiguoRecord,
    resign: TeamResignTally,
}

impl Game<'_> {
    fn slot(&self, seat: Seat) -> usize {
        self.spec.lineup[seat.index()]
    }

    /// `random (S)`: the engine at `seat`, for details.
    fn who(&self, seat: Seat) -> String {
        format!("{} ({seat})", self.names[self.slot(seat)])
    }

    fn engine(&mut self, seat: Seat) -> &mut Engine {
        let slot = self.slot(seat);
        self.engines[slot].as_mut().expect("an engine runs in every slot during a game")
    }

    /// Prepares every seat's engine, asks for the deployments and plays:
    /// `Err` when the game ends before play.
    fn run(&mut self, log: Option<&GameLog>) -> Result<End, End> {
        let (stall, game, pair, pair_seed) = (self.spec.stall, self.spec.game, self.spec.pair, self.spec.seed);
        for seat in Seat::ALL {
            let seed = engine_seed(seat_seed(pair_seed, seat));
            let remark = format!("game {game} (pair {pair}), seat {seat}, Seed {seed}");
            let who = self.who(seat);
            prepare(self.engine(seat), log.cloned(), &remark, seed, stall).map_err(|e| End::engine(seat, &who, &e))?;
        }
        let mut deployed = Vec::new();
        let mut bad = Vec::new();
        for seat in Seat::ALL {
            let who = self.who(seat);
            let text = ask_setup(self.engine(seat), &Command::SiguoGoSetup(Some(seat)), stall)
                .map_err(|e| End::engine(seat, &who, &e))?;
            match parse_seat_deployment(&text, seat) {
                Ok(d) => deployed.push(d),
                Err(why) => bad.push((seat, format!("{who} sent an illegal deployment: {why}"))),
            }
            self.rec.setups[seat.index()] = Some(text);
        }
        if let Ok(deployments) = <[ArmDeployment; 4]>::try_from(deployed) {
            let mut referee = referee_of(self.spec.rules, &deployments);
            return Ok(self.play(&mut referee));
        }
        let teams: Vec<Team> = bad.iter().map(|(s, _)| Team::of(*s)).collect();
        let winner = if teams.iter().all(|&t| t == teams[0]) { Some(teams[0].other()) } else { None };
        let detail: Vec<String> = bad.iter().map(|(_, why)| why.clone()).collect();
        let failed = bad.iter().map(|(s, _)| *s).collect();
        Err(End { winner, termination: Termination::BadSetup, detail: detail.join("; "), illegal: None, failed })
    }

    /// Plays until the game ends.
    fn play(&mut self, referee: &mut SiguoReferee) -> End {
        loop {
            if let Some(r) = referee.outcome() {
                let termination = termination_of(r.reason);
                return End { winner: r.winner, termination, detail: r.to_string(), illegal: None, failed: vec![] };
            }
            if self.rec.plies.len() >= self.spec.max_plies as usize {
                let detail = format!("draw after {} plies (the arena's maximum)", self.spec.max_plies);
                return End { winner: None, termination: Termination::MaxPlies, detail, illegal: None, failed: vec![] };
            }
            if let Err(end) = self.one_ply(referee) {
                return end;
            }
        }
    }

    /// The clock of the opponent of `mover` who moves next (for `go`).
    fn next_opponent_clock(&self, truth: &Position, mover: Seat) -> Option<Clock> {
        (1..4)
            .map(|k| Seat::from_index(mover.index() + k))
            .find(|s| Team::of(*s) != Team::of(mover) && !truth.is_out(*s))
            .and_then(|s| self.clocks[s.index()])
    }

    fn one_ply(&mut self, referee: &mut SiguoReferee) -> Result<(), End> {
        let mover = referee.truth().side_to_move();
        let (slot, who) = (self.slot(mover), self.who(mover));
        let limits = self.spec.limits[slot];
        let mine = self.clocks[mover.index()];
        let theirs = self.next_opponent_clock(referee.truth(), mover);
        let go = siguo_go_command(&limits, mine, theirs, Team::of(mover) == Team::SouthNorth);
        let allowed = time_allowed(&limits, mine.as_ref(), self.spec.margin);
        let position = position_command(referee, mover);
        let stall = self.spec.stall;
        let Answer { line, elapsed, complaint, cp } = match ask_move(self.engine(mover), &position, go, allowed, stall)
        {
            Ok(answer) => answer,
            Err(fail) => {
                self.busy[slot] |= fail.busy();
                return Err(match fail.time_loss(&who) {
                    Some(detail) => End::loss(mover, Termination::Time, detail),
                    None => End::engine(mover, &who, &fail.error()),
                });
            }
        };
        if let Some(c) = self.clocks[mover.index()].as_mut() {
            c.spend(elapsed);
        }
        let said = complaint.map(|c| format!(" (it had said: {c})")).unwrap_or_default();
        let illegal = |why: String| {
            let sent = line.trim().strip_prefix("bestmove").unwrap_or_default().trim().to_owned();
            let mut end = End::loss(mover, Termination::Illegal, format!("{who} sent '{}': {why}{said}", line.trim()));
            end.illegal = Some(sent);
            end
        };
        let action = match parse_response(&line) {
            Ok(Response::SiguoBestMove(a)) => a,
            Ok(Response::BestMove { action: None, .. }) => return Err(illegal("it has legal actions".to_owned())),
            Ok(_) | Err(_) => return Err(illegal("not a four-player action".to_owned())),
        };
        let ply = match referee.play(action) {
            Ok(p) => p,
            Err(SiguoRefereeError::Play(e @ (SiguoPlayError::Illegal(_) | SiguoPlayError::OutcomeNeeded(_)))) => {
                return Err(illegal(format!("not legal in what {mover} was told ({e})")));
            }
            Err(e) => return Err(End::error(&e)),
        };
        let announced = ply.told[0].iter().skip(1).copied().collect();
        let ms = elapsed.as_millis() as u64;
        self.rec.plies.push(SiguoPlyRecord { seat: mover, token: ply.token, announced, ms });
        if let Some(rule) = self.spec.resign
            && referee.outcome().is_none()
            && let Some(winner) = self.resign.record(rule, mover, cp, referee.truth())
        {
            let detail = format!(
                "{} wins by adjudication: {} moves each at {:+} cp or beyond",
                winner.name(),
                rule.movecount,
                rule.score
            );
            let end =
                End { winner: Some(winner), termination: Termination::Resign, detail, illegal: None, failed: vec![] };
            return Err(end);
        }
        Ok(())
    }

    /// After the game: each engine is checked and, if it failed, shut down
    /// to be restarted ([`tidy`]).
    fn tidy(&mut self, end: &End) {
        for seat in Seat::ALL {
            let slot = self.slot(seat);
            let lost = matches!(end.termination, Termination::Crash | Termination::Stall) && end.failed.contains(&seat);
            tidy(&mut self.engines[slot], lost.then_some(end.termination), self.busy[slot], self.spec.stall);
        }
    }
}

/// Plays one game with the engines of the four slots (all running; see
/// the runner) and returns its record. Engines that crashed or stalled
/// are left as `None` to be restarted. `forfeit`: the slot whose engine
/// could not be restarted, and why: its seat's team loses the game before
/// it starts, the other engines unused.
pub fn play(
    spec: &SiguoGameSpec,
    slots: &[Slot; 4],
    engines: &mut [Option<Engine>; 4],
    log: Option<GameLog>,
    forfeit: Option<(usize, &EngineError)>,
) -> SiguoRecord {
    let rec = SiguoRecord {
        toggles: spec.toggles.clone(),
        seed: spec.seed,
        max_plies: spec.max_plies,
        ..SiguoRecord::new(spec.game, spec.pair, spec.variant)
    };
    let clocks = Seat::ALL.map(|s| spec.limits[spec.lineup[s.index()]].tc.map(Clock::new));
    let mut game = Game {
        spec,
        engines,
        names: slots.each_ref().map(|s| s.engine.clone()),
        clocks,
        busy: [false; 4],
        rec,
        resign: TeamResignTally::default(),
    };
    let end = match forfeit {
        Some((slot, err)) => {
            for e in game.engines.iter().flatten() {
                e.set_log(None);
            }
            let seat = Seat::ALL.into_iter().find(|s| spec.lineup[s.index()] == slot).unwrap_or(Seat::South);
            End::engine(seat, &game.who(seat), err)
        }
        None => {
            let end = game.run(log.as_ref()).unwrap_or_else(|end| end);
            game.tidy(&end);
            end
        }
    };
    let mut rec = game.rec;
    for seat in Seat::ALL {
        let slot = spec.lineup[seat.index()];
        rec.names[seat.index()] = slots[slot].engine.clone();
        rec.limits[seat.index()] = spec.limits[slot].to_string();
    }
    let mut failed = end.failed;
    failed.sort_by_key(|s| s.index());
    (rec.winner, rec.termination, rec.detail, rec.illegal, rec.failed) =
        (end.winner, end.termination, end.detail, end.illegal, failed);
    if let Some(l) = &log {
        l.line("arena", '#', &format!("{} {}: {}", rec.result_text(), rec.termination, rec.detail));
        l.flush();
    }
    rec
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_wins_by_adjudication_when_all_four_seats_agree() {
        let rule: Resign = "movecount=2 score=500".parse().unwrap();
        let rules = SiguoRules::CLASSIC;
        let mut pos = Position::parse("S - Sb1:sF Eb1:eF Nb1:nF Wb1:wF", rules).unwrap();
        let mut t = TeamResignTally::default();
        let order = [Seat::South, Seat::East, Seat::North, Seat::West];
        let scores = |sn: i32| [sn, -sn, sn, -sn];
        for (k, cp) in scores(600).into_iter().enumerate() {
            assert_eq!(t.record(rule, order[k], Some(cp), &pos), None, "one move each is not enough");
        }
        for (k, cp) in scores(600).into_iter().enumerate().take(3) {
            assert_eq!(t.record(rule, order[k], Some(cp), &pos), None);
        }
        assert_eq!(t.record(rule, Seat::West, Some(-700), &pos), Some(Team::SouthNorth));
        // A seat that disagrees breaks the run; a seat out does not count.
        let mut t = TeamResignTally::default();
        for _ in 0..2 {
            for (k, cp) in [-600, 600, -600, 100].into_iter().enumerate() {
                assert_eq!(t.record(rule, order[k], Some(cp), &pos), None);
            }
        }
        pos.eliminate(Seat::West);
        assert_eq!(t.record(rule, Seat::East, Some(650), &pos), Some(Team::EastWest));
    }

    #[test]
    fn deployments_are_checked_for_their_seat() {
        let text = "s6s7s7s2s4/s11s31s8/s1s41s5s5/s91s21s2/s1sBs6sMsB/s3s3sMsFsM";
        assert_eq!(parse_seat_deployment(text, Seat::South).unwrap().seat, Seat::South);
        assert_eq!(parse_seat_deployment(text, Seat::East).unwrap_err(), "it deploys S's arm, not E's");
        assert!(parse_seat_deployment("nonsense", Seat::South).is_err());
    }
}
