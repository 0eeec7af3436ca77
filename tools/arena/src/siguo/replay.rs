//! `arena replay` of four-player records: every ply replayed through a
//! fresh [`SiguoReferee`] must be legal for its seat and give the recorded
//! outcome and announcements, and the recorded end must follow; printed
//! as the truth or as what one seat was told.

use std::fmt::Write as _;

use luzhanqi::engine::options::SiguoVariant;
use luzhanqi::rules::RuleError;
use luzhanqi::siguo::notation::{SiguoState, parse_siguo_action, siguo_board_text};
use luzhanqi::siguo::{Action, Seat, SiguoReferee, SiguoRules, SiguoToken, Team};

use crate::record::Termination;
use crate::replay::{BEFORE_PLAY, ReplayOptions};
use crate::siguo::game::{parse_seat_deployment, position_command, referee_of};
use crate::siguo::record::{SiguoRecord, seat_letter, seat_name, termination_of};

/// The four-player rules of a preset with rule settings applied in order,
/// as an engine given `setoption name Variant`, then each setting, has them.
///
/// # Errors
/// [`RuleError`] for an unknown rule or a bad value.
pub fn siguo_rules_of(variant: SiguoVariant, toggles: &[(String, String)]) -> Result<SiguoRules, RuleError> {
    let mut rules = variant.rules();
    for (k, v) in toggles {
        rules.set(k, v)?;
    }
    Ok(rules)
}

/// The action of a recorded ply's token.
fn action_of(token: SiguoToken) -> Option<Action> {
    match token {
        SiguoToken::Move(a) => Some(a),
        SiguoToken::Attack { from, to, .. } => Some(Action::attacking(from, to)),
        SiguoToken::Show { .. } | SiguoToken::Out { .. } => None,
    }
}

/// The referee of a record's start, or what confirms a game that ended
/// before it (a `badsetup`, or a failure before the deployments).
fn start(rec: &SiguoRecord, rules: SiguoRules) -> Result<Result<SiguoReferee, &'static str>, String> {
    let before_play =
        rec.plies.is_empty() && matches!(rec.termination, Termination::Crash | Termination::Stall | Termination::Time);
    if before_play && rec.setups.iter().any(Option::is_none) {
        return Ok(Err(BEFORE_PLAY));
    }
    let parsed = Seat::ALL.map(|s| match rec.setups[s.index()].as_deref() {
        Some(text) => parse_seat_deployment(text, s).map_err(|e| format!("{s}'s deployment: {e}")),
        None => Err(format!("no {}Setup tag", seat_name(s))),
    });
    if rec.termination == Termination::BadSetup {
        let bad: Vec<Seat> = Seat::ALL.into_iter().filter(|s| parsed[s.index()].is_err()).collect();
        let teams: Vec<Team> = bad.iter().map(|s| Team::of(*s)).collect();
        let winner = match teams.first() {
            Some(&t) if teams.iter().all(|&u| u == t) => Some(t.other()),
            _ => None,
        };
        return if !bad.is_empty() && bad == rec.failed && winner == rec.winner {
            Ok(Err("illegal deployment confirmed"))
        } else {
            Err(format!("recorded badsetup {}, but the deployments say otherwise", rec.result_text()))
        };
    }
    let mut deployments = Vec::new();
    for d in parsed {
        deployments.push(d?);
    }
    let deployments = <[_; 4]>::try_from(deployments).map_err(|_| "four deployments".to_owned())?;
    Ok(Ok(referee_of(rules, &deployments)))
}

/// Checks the recorded end against the referee after the last ply.
fn check_end(rec: &SiguoRecord, referee: &SiguoReferee) -> Result<&'static str, String> {
    let (outcome, t) = (referee.outcome(), rec.termination);
    if t.by_rules() {
        let r = outcome.ok_or_else(|| format!("recorded {t}, but the rules have not ended the game"))?;
        if termination_of(r.reason) != t || r.winner != rec.winner {
            return Err(format!("recorded {} {t}, but the rules say {r}", rec.result_text()));
        }
        return Ok("judged by the rules");
    }
    if let Some(r) = outcome {
        return Err(format!("recorded {t}, but the rules had already ended the game: {r}"));
    }
    let mover = referee.truth().side_to_move();
    let lost_by = |seats: &[Seat]| -> Result<(), String> {
        match seats {
            [s] if rec.failed == [*s] && rec.winner == Some(Team::of(*s).other()) => Ok(()),
            _ => {
                let failed: String = rec.failed.iter().map(|s| s.to_char()).collect();
                Err(format!("recorded {t} {} with Failed '{failed}', but {mover} was to move", rec.result_text()))
            }
        }
    };
    match t {
        Termination::MaxPlies if rec.plies.len() as u32 >= rec.max_plies && rec.winner.is_none() => {
            Ok("maximum length")
        }
        Termination::MaxPlies => Err(format!("recorded maxplies after {} of {} plies", rec.plies.len(), rec.max_plies)),
        Termination::Illegal => {
            lost_by(&[mover])?;
            match parse_siguo_action(rec.illegal.as_deref().unwrap_or_default()) {
                Ok(a) if referee.is_legal(a) => Err(format!("recorded {a} as illegal, but it is legal")),
                _ => Ok("illegal action confirmed"),
            }
        }
        Termination::BadSetup => Err("badsetup after play started".to_owned()),
        Termination::Time | Termination::Crash | Termination::Stall => {
            lost_by(&[mover])?;
            Ok("adjudicated by the arena (not re-judged)")
        }
        Termination::Resign => Ok("adjudicated by the arena (not re-judged)"),
        Termination::Error => Ok("no result"),
        Termination::Flag | Termination::NoAction | Termination::QuietLimit => unreachable!("handled above"),
    }
}

/// Replays one four-player record into `out` (the truth, or what
/// `opts.seat` was told); returns what confirmed its end.
///
/// # Errors
/// A message saying which ply or which part of the end disagrees with the
/// rules.
pub fn replay_siguo(rec: &SiguoRecord, opts: &ReplayOptions, out: &mut String) -> Result<&'static str, String> {
    let rules = siguo_rules_of(rec.variant, &rec.toggles).map_err(|e| e.to_string())?;
    let seats: Vec<String> = Seat::ALL.iter().map(|&s| format!("{s} {}", rec.name(s))).collect();
    let _ = writeln!(
        out,
        "Game {} (pair {}): {}, {}: {} {}",
        rec.game,
        rec.pair,
        rec.variant.name(),
        seats.join(", "),
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
    // What is printed: the truth, or the seat's view, as a game state (for
    // the boards and the last position string).
    let mut shown = match opts.seat {
        Some(s) => {
            let _ = writeln!(out, "What {s} ({}) was told:", rec.name(s));
            let _ = writeln!(out, "{}", position_command(&referee, s));
            SiguoState { pos: referee.start(s).clone(), ply: 0, removed: Vec::new() }
        }
        None => {
            for s in Seat::ALL {
                if let Some(text) = &rec.setups[s.index()] {
                    let _ = writeln!(out, "{s} setup {text}");
                }
            }
            SiguoState { pos: referee.truth().clone(), ply: 0, removed: Vec::new() }
        }
    };
    for (i, p) in rec.plies.iter().enumerate() {
        let n = i + 1;
        let action = action_of(p.token).ok_or_else(|| format!("ply {n}: {} is not an action", p.token))?;
        let ply = referee.play(action).map_err(|e| format!("ply {n} ({}): {e}", p.token))?;
        if ply.token != p.token || ply.told[0][1..] != p.announced[..] || ply.mover != p.seat {
            let said: Vec<String> = ply.told[0][1..].iter().map(ToString::to_string).collect();
            return Err(format!(
                "ply {n}: recorded {} {}, the referee says {} {} {}",
                seat_letter(p.seat),
                p.token,
                seat_letter(ply.mover),
                ply.token,
                said.join(" ")
            ));
        }
        let tokens: Vec<SiguoToken> = match opts.seat {
            Some(s) => ply.told[s.index()].clone(),
            None => std::iter::once(ply.token).chain(p.announced.iter().copied()).collect(),
        };
        for &t in &tokens {
            shown.apply(t).map_err(|e| format!("ply {n}: replaying {t}: {e}"))?;
        }
        let told: Vec<String> = tokens.iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "{n:>4}. {} {:<24} {:>6} ms", seat_letter(p.seat), told.join(" "), p.ms);
        if opts.boards {
            out.push_str(&siguo_board_text(&shown));
        }
    }
    if let Some(s) = opts.seat {
        let _ = writeln!(out, "{s} sees: {shown}");
    }
    let confirmed = check_end(rec, &referee)?;
    let _ = writeln!(out, "{} {}: {}", rec.result_text(), rec.termination, rec.detail);
    Ok(confirmed)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::siguo::record::{SiguoPlyRecord, parse_siguo_records};
    use luzhanqi::siguo::notation::ArmDeployment;
    use luzhanqi::{Colour, Deployment};
    use rand::RngExt;

    /// Plays a random game of `variant` through a referee and writes its
    /// record.
    pub(crate) fn random_siguo_record(variant: SiguoVariant, toggles: &[(&str, &str)], seed: u64) -> SiguoRecord {
        let toggles: Vec<(String, String)> = toggles.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        let rules = siguo_rules_of(variant, &toggles).unwrap();
        let mut r = luzhanqi::random::rng(seed);
        let deployments = Seat::ALL.map(|s| ArmDeployment::new(s, Deployment::random(Colour::Red, &mut r)));
        let mut referee = referee_of(rules, &deployments);
        let mut plies = Vec::new();
        let mut buf = Vec::new();
        while referee.outcome().is_none() && plies.len() < 2000 {
            let mover = referee.truth().side_to_move();
            buf.clear();
            referee.view(mover).legal_actions(&mut buf);
            let ply = referee.play(buf[r.random_range(0..buf.len())]).unwrap();
            plies.push(SiguoPlyRecord { seat: mover, token: ply.token, announced: ply.told[0][1..].to_vec(), ms: 1 });
        }
        let (winner, termination) = match referee.outcome() {
            Some(res) => (res.winner, termination_of(res.reason)),
            None => (None, Termination::MaxPlies),
        };
        SiguoRecord {
            toggles,
            seed,
            names: ["a", "b", "a", "b"].map(str::to_owned),
            max_plies: 2000,
            setups: deployments.map(|d| Some(d.to_string())),
            plies,
            winner,
            termination,
            ..SiguoRecord::new(1, 1, variant)
        }
    }

    #[test]
    fn random_games_replay_cleanly_as_the_truth_and_as_each_seat() {
        let cases: [(SiguoVariant, &[(&str, &str)]); 4] = [
            (SiguoVariant::Siguo, &[]),
            (SiguoVariant::Siguo, &[("WinnerLearnsLoser", "true"), ("PartnerVisible", "true")]),
            (SiguoVariant::Siguo, &[("QuietLimit", "0"), ("FlagNeedsEngineer", "true")]),
            (SiguoVariant::SiguoOpen, &[]),
        ];
        for (i, (variant, toggles)) in cases.into_iter().enumerate() {
            for seed in 0..3 {
                let rec = random_siguo_record(variant, toggles, 10 * i as u64 + seed);
                let back = parse_siguo_records(&rec.to_string()).unwrap();
                assert_eq!(back, std::slice::from_ref(&rec));
                let mut out = String::new();
                let how = replay_siguo(&back[0], &ReplayOptions::default(), &mut out)
                    .unwrap_or_else(|e| panic!("{variant:?} {seed}: {e}\n{rec}"));
                assert!(["judged by the rules", "maximum length"].contains(&how), "{how}");
                for s in Seat::ALL {
                    let opts = ReplayOptions { seat: Some(s), boards: seed == 0, ..ReplayOptions::default() };
                    let mut seen = String::new();
                    replay_siguo(&back[0], &opts, &mut seen).unwrap();
                    assert!(seen.contains(&format!("What {s} (")), "{seen}");
                }
            }
        }
    }

    #[test]
    fn what_a_seat_was_told_names_no_other_seats_kinds() {
        let rec = random_siguo_record(SiguoVariant::Siguo, &[], 7);
        for s in Seat::ALL {
            let mut out = String::new();
            let opts = ReplayOptions { seat: Some(s), boards: true, ..ReplayOptions::default() };
            replay_siguo(&rec, &opts, &mut out).unwrap();
            // Another seat's known piece would show as `e9` on a board row or
            // inside a position string (words without the capital region
            // letters of point names); only flags are ever shown to all.
            let others: Vec<u8> = Seat::ALL.iter().filter(|&&o| o != s).map(|o| seat_letter(*o) as u8).collect();
            let pieces =
                out.split(|c: char| c.is_whitespace() || c == '/').filter(|w| !w.contains(['S', 'E', 'N', 'W', 'C']));
            for w in pieces {
                let named = w.as_bytes().windows(2).any(|p| others.contains(&p[0]) && b"123456789BM".contains(&p[1]));
                assert!(!named, "{s} saw '{w}' in:\n{out}");
            }
            assert!(out.contains("  s?") == (s != Seat::South), "South's pieces are unknown to the others");
        }
    }

    #[test]
    fn a_tampered_record_is_caught() {
        let rec = random_siguo_record(SiguoVariant::Siguo, &[], 3);
        let replay = |r: &SiguoRecord| replay_siguo(r, &ReplayOptions::default(), &mut String::new());
        let mut wrong_end = rec.clone();
        wrong_end.winner = wrong_end.winner.map(Team::other).or(Some(Team::SouthNorth));
        assert!(replay(&wrong_end).is_err());
        let i = rec.plies.iter().position(|p| matches!(p.token, SiguoToken::Attack { .. })).unwrap();
        let mut wrong_outcome = rec.clone();
        let text = wrong_outcome.plies[i].token.to_string();
        let flipped =
            if text.ends_with('+') { text.replace('+', "-") } else { format!("{}+", &text[..text.len() - 1]) };
        wrong_outcome.plies[i].token = flipped.parse().unwrap();
        assert!(replay(&wrong_outcome).unwrap_err().starts_with(&format!("ply {}", i + 1)));
        let mut wrong_seat = rec.clone();
        wrong_seat.plies[0].seat = Seat::East;
        assert!(replay(&wrong_seat).unwrap_err().starts_with("ply 1: recorded e"));
        let mut untold = rec.clone();
        untold.plies.last_mut().unwrap().announced.clear();
        if untold != rec {
            assert!(replay(&untold).is_err(), "an announcement left out");
        }
        // An illegal action must be the seat to move's, and illegal.
        let mut cut = rec.clone();
        cut.plies.truncate(4);
        (cut.termination, cut.failed, cut.illegal) = (Termination::Illegal, vec![Seat::South], Some("Sa1-Sa9".into()));
        cut.winner = Some(Team::EastWest);
        assert_eq!(replay(&cut), Ok("illegal action confirmed"));
        cut.failed = vec![Seat::East];
        assert!(replay(&cut).unwrap_err().contains("but S was to move"));
        let legal = rec.plies[4].token;
        (cut.failed, cut.illegal) = (vec![Seat::South], action_of(legal).map(|a| a.to_string()));
        assert!(replay(&cut).unwrap_err().contains("but it is legal"));
        // A time loss before the deployments replays without them.
        let before = SiguoRecord {
            termination: Termination::Crash,
            winner: Some(Team::EastWest),
            failed: vec![Seat::North],
            detail: "b (N) crashed".into(),
            ..SiguoRecord::new(2, 1, SiguoVariant::Siguo)
        };
        assert_eq!(replay(&before), Ok(BEFORE_PLAY));
    }

    #[test]
    fn bad_deployments_lose_for_their_team_or_draw() {
        let mut rec = random_siguo_record(SiguoVariant::Siguo, &[], 5);
        rec.plies.clear();
        rec.termination = Termination::BadSetup;
        rec.setups[Seat::West.index()] = Some("nonsense".into());
        (rec.failed, rec.winner) = (vec![Seat::West], Some(Team::SouthNorth));
        let replay = |r: &SiguoRecord| replay_siguo(r, &ReplayOptions::default(), &mut String::new());
        assert_eq!(replay(&rec), Ok("illegal deployment confirmed"));
        rec.setups[Seat::North.index()] = rec.setups[Seat::South.index()].clone();
        assert!(replay(&rec).is_err(), "North deployed South's arm: both teams failed");
        (rec.failed, rec.winner) = (vec![Seat::North, Seat::West], None);
        assert_eq!(replay(&rec), Ok("illegal deployment confirmed"));
    }
}
