//! `arena replay`: re-judges game records with the rules core (every ply
//! replayed through a fresh referee must give the recorded outcome and
//! reveals, and the recorded end must follow) and prints them ply by ply,
//! either the truth or what one side was told.

use std::fmt::Write as _;

use luzhanqi::notation::{board_text, parse_action, parse_deployment};
use luzhanqi::protocol::Command;
use luzhanqi::rules::RuleError;
use luzhanqi::{Colour, Rules, Variant};

use crate::record::{GameRecord, Termination};
use crate::referee::{Referee, action_of};

/// The rules of a preset with rule settings applied in order, as an engine
/// given `setoption name Variant`, then each setting, would have them.
///
/// # Errors
/// [`RuleError`] for an unknown rule or a bad value.
pub fn rules_of(variant: Variant, toggles: &[(String, String)]) -> Result<Rules, RuleError> {
    let mut rules = variant.rules();
    for (k, v) in toggles {
        rules.set(k, v)?;
    }
    Ok(rules)
}

/// What to print.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct ReplayOptions {
    /// Print what this side was told instead of the truth.
    pub viewer: Option<Colour>,
    /// In four-player records: print what this seat was told instead of
    /// the truth.
    pub seat: Option<luzhanqi::siguo::Seat>,
    /// Only this game.
    pub game: Option<u64>,
    /// Draw the board after every ply.
    pub boards: bool,
}

/// Checks the recorded end against the referee after the last ply.
fn check_end(rec: &GameRecord, referee: &Referee) -> Result<&'static str, String> {
    let outcome = referee.outcome();
    let t = rec.termination;
    if t.by_rules() {
        let r = outcome.ok_or_else(|| format!("recorded {t}, but the rules have not ended the game"))?;
        if Termination::from_rules(r.reason) != t || r.winner != rec.winner {
            return Err(format!("recorded {} {t}, but the rules say {r}", rec.result_text()));
        }
        return Ok("judged by the rules");
    }
    if let Some(r) = outcome {
        return Err(format!("recorded {t}, but the rules had already ended the game: {r}"));
    }
    let mover = referee.side_to_move().unwrap_or(rec.first);
    match t {
        Termination::MaxPlies if rec.plies.len() as u32 >= rec.max_plies && rec.winner.is_none() => {
            Ok("maximum length")
        }
        Termination::MaxPlies => Err(format!("recorded maxplies after {} of {} plies", rec.plies.len(), rec.max_plies)),
        Termination::Illegal => {
            if rec.winner != Some(mover.opposite()) {
                return Err(format!("recorded an illegal action, but {mover} was to move"));
            }
            let text = rec.illegal.as_deref().unwrap_or_default();
            match parse_action(text) {
                Ok(a) if referee.is_legal(a) => Err(format!("recorded {a} as illegal, but it is legal")),
                _ => Ok("illegal action confirmed"),
            }
        }
        Termination::BadSetup => Err("badsetup after play started".to_owned()),
        Termination::Time | Termination::Crash | Termination::Stall if rec.plies.is_empty() => Ok(BEFORE_PLAY),
        Termination::Time | Termination::Crash | Termination::Stall | Termination::Resign => {
            Ok("adjudicated by the arena (not re-judged)")
        }
        Termination::Error => Ok("no result"),
        Termination::Flag | Termination::NoAction | Termination::QuietLimit => unreachable!("handled above"),
    }
}

/// What confirms a game that an engine's crash, stall or time loss ended
/// before its first ply.
pub(crate) const BEFORE_PLAY: &str = "ended before the first ply: adjudicated by the arena (not re-judged)";

/// Builds the referee of a record's start, or checks a `badsetup` end.
pub fn start(rec: &GameRecord, rules: Rules) -> Result<Result<Referee, &'static str>, String> {
    // An engine that crashed or stalled before the game started (during its
    // set-up, or at `go setup`) leaves a record without a deal (records of
    // older arenas) or without both deployments: nothing to re-judge.
    let before_play =
        rec.plies.is_empty() && matches!(rec.termination, Termination::Crash | Termination::Stall | Termination::Time);

    if !rules.has_deployment() {
        return match rec.deal.clone() {
            Some(deal) => Ok(Ok(Referee::flip(rules, deal))),
            None if before_play => Ok(Err(BEFORE_PLAY)),
            None => Err("a flip record needs its Deal".to_owned()),
        };
    }
    if before_play && rec.setups.iter().any(Option::is_none) {
        return Ok(Err(BEFORE_PLAY));
    }
    let parsed = Colour::BOTH.map(|c| match rec.setups[c.index()].as_deref() {
        Some(text) => parse_deployment(text, c).map_err(|e| format!("{c}'s deployment: {e}")),
        None => Err(format!("no {} tag", if c == Colour::Red { "RedSetup" } else { "BlueSetup" })),
    });
    if rec.termination == Termination::BadSetup {
        let bad = parsed.each_ref().map(Result::is_err);
        let fits = match rec.winner {
            None => bad == [true, true],
            Some(w) => !bad[w.index()] && bad[w.opposite().index()],
        };
        return if fits {
            Ok(Err("illegal deployment confirmed"))
        } else {
            Err(format!("recorded badsetup {}, but the deployments say otherwise", rec.result_text()))
        };
    }
    match parsed {
        [Ok(red), Ok(blue)] => Referee::deployed(rules, &red, &blue).map(Ok).map_err(|e| e.to_string()),
        [Err(e), _] | [_, Err(e)] => Err(e),
    }
}

/// Replays one record into `out`; returns what confirmed its end.
///
/// # Errors
/// A message saying which ply or which part of the end disagrees with the
/// rules.
pub fn replay_game(rec: &GameRecord, opts: &ReplayOptions, out: &mut String) -> Result<&'static str, String> {
    let rules = rules_of(rec.variant, &rec.toggles).map_err(|e| e.to_string())?;
    let _ = writeln!(
        out,
        "Game {} (pair {}): {}, Red {} vs Blue {}: {} {}",
        rec.game,
        rec.pair,
        rec.variant,
        rec.name(Colour::Red),
        rec.name(Colour::Blue),
        rec.result_text(),
        rec.termination
    );
    let mut referee = match start(rec, rules)? {
        Ok(r) => r,
        Err(confirmed) => {
            let _ = writeln!(out, "  {}", rec.detail);
            return Ok(confirmed);
        }
    };
    match opts.viewer {
        Some(c) => {
            let _ = writeln!(out, "What {c} ({}) was told:", rec.name(c));
            let start = Command::Position { start: referee.start_for(c).clone(), moves: Vec::new() };
            let _ = writeln!(out, "{start}");
        }
        None => {
            if let Some(d) = &rec.deal {
                let _ = writeln!(out, "Deal {d}");
            }
            for c in Colour::BOTH {
                if let Some(s) = &rec.setups[c.index()] {
                    let _ = writeln!(out, "{c} setup {s}");
                }
            }
        }
    }
    for (i, p) in rec.plies.iter().enumerate() {
        let n = i + 1;
        let ply = referee.play(action_of(p.token)).map_err(|e| format!("ply {n} ({}): {e}", p.token))?;
        if ply.token != p.token || ply.reveals != p.reveals || ply.mover != p.colour {
            let reveals: Vec<String> = ply.reveals.iter().map(ToString::to_string).collect();
            return Err(format!(
                "ply {n}: recorded {} {}, the referee says {} {} {}",
                p.colour.to_char(),
                p.token,
                ply.mover.to_char(),
                ply.token,
                reveals.join(" ")
            ));
        }
        let told: Vec<String> = match opts.viewer {
            Some(c) => ply.told_to(c).map(|t| t.to_string()).collect(),
            None => std::iter::once(ply.token).chain(ply.reveals.iter().copied()).map(|t| t.to_string()).collect(),
        };
        let _ = writeln!(out, "{n:>4}. {} {:<20} {:>6} ms", p.colour.to_char(), told.join(" "), p.ms);
        if opts.boards {
            let pos = opts.viewer.map_or(referee.truth(), |c| referee.view(c));
            out.push_str(&board_text(pos));
        }
    }
    if let Some(c) = opts.viewer {
        let _ = writeln!(out, "{c} sees: {}", referee.view(c));
    }
    let confirmed = check_end(rec, &referee)?;
    let _ = writeln!(out, "{} {}: {}", rec.result_text(), rec.termination, rec.detail);
    Ok(confirmed)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::record::{PlyRecord, parse_records};
    use crate::referee::Deal;
    use luzhanqi::random::rng;
    use luzhanqi::{Action, Deployment};
    use rand::RngExt;

    /// Plays a random game through a referee and writes its record.
    pub(crate) fn random_record(variant: Variant, seed: u64, max_plies: u32) -> GameRecord {
        let rules = variant.rules();
        let mut r = rng(seed);
        let (mut referee, deal, setups) = if rules.has_deployment() {
            let red = Deployment::random(Colour::Red, &mut r);
            let blue = Deployment::random(Colour::Blue, &mut r);
            let setups = [Some(red.to_string()), Some(blue.to_string())];
            (Referee::deployed(rules, &red, &blue).unwrap(), None, setups)
        } else {
            let deal = Deal::from_seed(seed);
            (Referee::flip(rules, deal.clone()), Some(deal), [None, None])
        };
        let mut plies = Vec::new();
        let mut buf: Vec<Action> = Vec::new();
        while referee.outcome().is_none() && (plies.len() as u32) < max_plies {
            let viewer = referee.side_to_move().unwrap_or(Colour::Red);
            buf.clear();
            referee.view(viewer).legal_actions(&mut buf);
            let ply = referee.play(buf[r.random_range(0..buf.len())]).unwrap();
            plies.push(PlyRecord { colour: ply.mover, token: ply.token, reveals: ply.reveals, ms: 1 });
        }
        let (winner, termination) = match referee.outcome() {
            Some(res) => (res.winner, Termination::from_rules(res.reason)),
            None => (None, Termination::MaxPlies),
        };
        let first = plies.first().map_or(Colour::Red, |p| p.colour);
        GameRecord {
            seed,
            names: ["a".into(), "b".into()],
            first,
            max_plies,
            deal,
            setups,
            plies,
            winner,
            termination,
            ..GameRecord::new(1, 1, variant)
        }
    }

    #[test]
    fn random_games_replay_cleanly_in_every_variant() {
        for (i, v) in Variant::ALL.into_iter().enumerate() {
            for seed in 0..5 {
                let rec = random_record(v, seed * 10 + i as u64, 400);
                let text = rec.to_string();
                let back = parse_records(&text).unwrap();
                let mut out = String::new();
                replay_game(&back[0], &ReplayOptions::default(), &mut out)
                    .unwrap_or_else(|e| panic!("{v} {seed}: {e}\n{text}"));
                for c in Colour::BOTH {
                    let opts = ReplayOptions { viewer: Some(c), ..ReplayOptions::default() };
                    replay_game(&back[0], &opts, &mut String::new()).unwrap();
                }
            }
        }
    }

    #[test]
    fn a_tampered_record_is_caught() {
        let rec = random_record(Variant::Classic, 3, 60);
        let mut wrong_end = rec.clone();
        wrong_end.termination = Termination::Flag;
        wrong_end.winner = Some(Colour::Red);
        assert!(replay_game(&wrong_end, &ReplayOptions::default(), &mut String::new()).is_err());
        let attack = rec.plies.iter().position(|p| matches!(p.token, luzhanqi::Token::Attack { .. }));
        if let Some(i) = attack {
            let mut wrong_outcome = rec.clone();
            let text = wrong_outcome.plies[i].token.to_string();
            let flipped =
                if text.ends_with('+') { text.replace('+', "-") } else { format!("{}+", &text[..text.len() - 1]) };
            wrong_outcome.plies[i].token = luzhanqi::notation::parse_token(&flipped).unwrap();
            let err = replay_game(&wrong_outcome, &ReplayOptions::default(), &mut String::new()).unwrap_err();
            assert!(err.starts_with(&format!("ply {}", i + 1)), "{err}");
        }
        let mut illegal = rec;
        illegal.termination = Termination::Illegal;
        illegal.winner = Some(Colour::Blue);
        illegal.illegal = Some("a1-a2".into());
        // a1-a2 may or may not be legal: either way the check must not panic.
        let _ = replay_game(&illegal, &ReplayOptions::default(), &mut String::new());
    }

    #[test]
    fn what_red_saw_hides_blue() {
        let rec = random_record(Variant::Classic, 11, 80);
        let mut out = String::new();
        replay_game(
            &rec,
            &ReplayOptions { viewer: Some(Colour::Red), boards: true, ..ReplayOptions::default() },
            &mut out,
        )
        .unwrap();
        assert!(out.contains("What red (a) was told:\nposition fen b?b?b?b?b?/"), "{out}");
        // A Blue kind would show as a board cell (`b9`) or inside a board
        // field (`.../b9b?...`); point names only appear inside tokens.
        let named = |w: &str| w.as_bytes().windows(2).any(|p| p[0] == b'b' && b"123456789BM".contains(&p[1]));
        for w in out.split_whitespace() {
            assert!(!((w.len() == 2 || w.contains('/')) && named(w)), "red saw {w}:\n{out}");
        }
    }

    #[test]
    fn a_game_that_ended_before_play_replays_and_says_so() {
        for variant in [Variant::Flip, Variant::Classic] {
            let mut rec = GameRecord {
                names: ["a".into(), "b".into()],
                winner: Some(Colour::Blue),
                termination: Termination::Crash,
                detail: "a crashed: exit status: 3 (waiting for the answer to go setup)".into(),
                ..GameRecord::new(1, 1, variant)
            };
            let mut out = String::new();
            let confirmed = replay_game(&rec, &ReplayOptions::default(), &mut out).unwrap();
            assert_eq!(confirmed, BEFORE_PLAY, "{variant}");
            assert!(out.contains("a crashed: exit status: 3"), "{out}");
            // A game the rules ended needs its start, and says which part is missing.
            rec.termination = Termination::Flag;
            let err = replay_game(&rec, &ReplayOptions::default(), &mut String::new()).unwrap_err();
            let want = if variant == Variant::Flip { "a flip record needs its Deal" } else { "no RedSetup tag" };
            assert_eq!(err, want);
        }
    }

    #[test]
    fn a_bad_deployment_is_named_once() {
        let mut rec = random_record(Variant::Classic, 5, 10);
        rec.setups[1] = Some("nonsense".into());
        let err = replay_game(&rec, &ReplayOptions::default(), &mut String::new()).unwrap_err();
        assert_eq!(err, "blue's deployment: bad deployment: 1 ranks, expected 6 separated by '/'");
    }

    #[test]
    fn rules_with_toggles() {
        let r = rules_of(Variant::Classic, &[("WinnerLearnsLoser".into(), "true".into())]).unwrap();
        assert!(r.winner_learns_loser && r.mode == luzhanqi::Mode::Classic);
        assert_eq!(
            rules_of(Variant::Flip, &[("NoSuchRule".into(), "1".into())]),
            Err(RuleError::Unknown("NoSuchRule".into()))
        );
        // A setting of the engine that is not a rule is refused too.
        assert!(rules_of(Variant::Flip, &[("Threads".into(), "2".into())]).is_err());
    }
}
