//! The four-player protocol (protocol.md, *Four players*): the position
//! string and the arm deployment string read back what they print, the
//! rules refuse what they must, and an engine session in `siguo` and
//! `siguo-open` answers `go setup`, `position`, `d`, `perft` and `go`.

use std::sync::mpsc::Receiver;
use std::time::Duration;

use luzhanqi::deployment::Deployment;
use luzhanqi::engine::Engine;
use luzhanqi::engine::output::Output;
use luzhanqi::piece::Colour;
use luzhanqi::protocol::{Response, parse_response};
use luzhanqi::random::rng;
use luzhanqi::siguo::notation::{ArmDeployment, SiguoState, grid_rows, parse_siguo_action, parse_siguo_setup};
use luzhanqi::siguo::{Action, Position, Seat, SiguoReferee, SiguoRules, SiguoToken};
use rand::RngExt;

/// Four deployments drawn from `seed`, S, E, N, W.
fn deployments(seed: u64) -> [Deployment; 4] {
    let mut r = rng(seed);
    std::array::from_fn(|_| Deployment::random(Colour::Red, &mut r))
}

fn state(pos: Position) -> SiguoState {
    SiguoState { pos, ply: 0, removed: Vec::new() }
}

/// A refereed game of `plies` random actions from deployments `seed`.
fn game(rules: SiguoRules, seed: u64, plies: usize) -> SiguoReferee {
    let mut referee = SiguoReferee::new(Position::start(rules, &deployments(seed)));
    let mut r = rng(seed ^ 0x5eed);
    for _ in 0..plies {
        if referee.outcome().is_some() {
            break;
        }
        let mut legal = Vec::new();
        referee.truth().legal_actions(&mut legal);
        let a = legal[r.random_range(0..legal.len())];
        referee.play(a).expect("a legal action");
    }
    referee
}

#[test]
fn the_grid_reads_seventeen_rows_of_129_points() {
    let rows = grid_rows();
    let lens: Vec<usize> = rows.iter().map(Vec::len).collect();
    assert_eq!(lens, [5, 5, 5, 5, 5, 5, 15, 12, 15, 12, 15, 5, 5, 5, 5, 5, 5]);
    let names: Vec<String> = rows[6].iter().map(ToString::to_string).collect();
    assert_eq!(names.join(" "), "Wa1 Wa2 Wa3 Wa4 Wa5 Wa6 Ca3 Cb3 Cc3 Ee6 Ee5 Ee4 Ee3 Ee2 Ee1");
    assert_eq!(rows[0][0].to_string(), "Ne1");
    assert_eq!(rows[16][4].to_string(), "Se1");
    assert_eq!(SiguoState::start(SiguoRules::CLASSIC).to_string(), "5/5/5/5/5/5/15/12/15/12/15/5/5/5/5/5/5 s 0 0 - -");
}

/// Every seat's view along refereed games, as each seat's state tracks it
/// from the tokens it was told, prints a string that reads back to the
/// same string and the same pieces, counters and seats out.
#[test]
fn position_strings_of_refereed_games_read_back() {
    let mut attacks = 0;
    for (rules, seed) in [(SiguoRules::CLASSIC, 1), (SiguoRules::OPEN, 2), (SiguoRules::CLASSIC, 3)] {
        let referee = game(rules, seed, 400);
        for seat in Seat::ALL {
            let mut s = state(referee.start(seat).clone());
            for &t in referee.told(seat) {
                s.apply(t).unwrap_or_else(|e| panic!("{t}: {e}"));
                attacks += usize::from(matches!(t, SiguoToken::Attack { .. }));
                let text = s.to_string();
                let back = parse_siguo_setup(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
                let read = back.state(rules).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(read.to_string(), text);
                assert_eq!(read.pos.occupied(), s.pos.occupied(), "{text}");
                assert!(luzhanqi::siguo::topology::Point::all().all(|p| read.pos.cell(p) == s.pos.cell(p)));
                assert_eq!(
                    (read.ply, read.pos.quiet(), read.pos.side_to_move()),
                    (s.ply, s.pos.quiet(), s.pos.side_to_move())
                );
            }
            assert_eq!(&s.pos.occupied(), &referee.view(seat).occupied());
        }
    }
    assert!(attacks > 100, "{attacks} attacks");
}

#[test]
fn position_strings_the_rules_refuse() {
    let view = state(Position::start(SiguoRules::CLASSIC, &deployments(5)).view(Seat::South)).to_string();
    let rows: Vec<&str> = view.split(' ').next().unwrap().split('/').collect();
    let with = |row: usize, text: &str, rest: &str| {
        let mut r = rows.clone();
        r[row] = text;
        format!("{} {rest}", r.join("/"))
    };
    let cases = [
        (view.replace(" s 0 0 - -", " s 0 0 - - extra"), "unexpected 'extra'"),
        (view.replace(" s 0 0 - -", " x 0 0 - -"), "the seat to move is s, e, n or w"),
        (view.replace(" s 0 0 - -", " s 0 0 - ss"), "distinct seat letters"),
        (view.replace(" s 0 0 - -", " s q 0 - -"), "the quiet-ply counter is a number"),
        (view.replace(" s 0 0 - -", " s 0 0 r9 -"), "removed pieces are pieces"),
        (view.replace(" s 0 0 - -", " s 0 0 -"), "missing seats out"),
        (with(0, "n?n?n?n?", "s 0 0 - -"), "bad row 1: 4 points, expected 5"),
        (with(6, "w?w?w?w?w?w?4e?e?e?e?e?e?", "s 0 0 - -"), "bad row 7: 16 points, expected 15"),
        (with(0, "n?n?n?x?n?", "s 0 0 - -"), "bad row 1: 'x'"),
        (rows[..16].join("/") + " s 0 0 - -", "the board has 16 rows"),
        (view.replace(" s 0 0 - -", " s 0 0 - n"), "Na1: a piece of a seat that is out"),
        (view.replace(" s 0 0 - -", " s 1 0 - -"), "quiet-ply counter 1 exceeds the ply count 0"),
        (view.replace(" s 0 0 - -", " s 0 4 e? -"), "E accounts for 26 pieces"),
        (view.replace(" s 0 0 - -", " s 0 0 s3 -"), "too many s3: 4"),
        (with(11, "s2s2s2s1s9", "s 0 0 - -"), "too many s9: 2"),
        (with(11, "s2s2s2sMs3", "s 0 0 - -"), "sM on Sd6"),
        (
            view.replace("s2s2s2s1s3/", "s2s2s2sBs3/").replace("/s1s31sBs4/", "/s1s31s1s4/"),
            "bomb at Sd6: bombs never start on the front rank",
        ),
        (view.replace("sMsFsMs5s1", "sFsMsMs5s1"), "sF on Sa1"),
    ];
    for (text, expected) in cases {
        let got = match parse_siguo_setup(&text) {
            Ok(s) => s.state(SiguoRules::CLASSIC).map(|_| ()).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        let e = got.expect_err(&text);
        assert!(e.contains(expected), "{text}: {e} (expected {expected})");
    }
    // `?` pieces are refused where everything is visible.
    let e = parse_siguo_setup(&view).unwrap().state(SiguoRules::OPEN).unwrap_err();
    assert!(e.to_string().contains("unknown kind in siguo-open"), "{e}");
}

#[test]
fn arm_deployments_read_back_and_follow_the_two_player_rules() {
    let mut r = rng(9);
    for seat in Seat::ALL {
        for _ in 0..50 {
            let d = ArmDeployment::new(seat, Deployment::random(Colour::Red, &mut r));
            let text = d.to_string();
            assert_eq!(ArmDeployment::parse(&text), Ok(d.clone()), "{text}");
            let placed: Vec<_> = d.pieces().collect();
            assert_eq!(placed.len(), 25);
            assert!(placed.iter().all(|(p, pc)| pc.seat == seat && p.region() == luzhanqi::siguo::Region::Arm(seat)));
        }
    }
    let cases = [
        (
            "sBs3s7s4s6/s51s31s7/s2s21s2s1/s31s41s8/s9s1sMs6s1/s5sFsBsMsM",
            "bomb at Sa6: bombs never start on the front rank",
        ),
        ("s5s3s7s4s6/s51s31s7/s2s21s2s1/s31s41s8/s9s1sMs6s1/sBsFsBsMeM", "one seat"),
        ("s5s3s7s4s6/s51s31s7/s2s21s2s1/s31s41s8/s9s1sMs6s1", "5 rows separated by '/', expected 6"),
    ];
    for (text, expected) in cases {
        let e = ArmDeployment::parse(text).expect_err(text);
        assert!(e.contains(expected), "{text}: {e} (expected {expected})");
    }
}

#[test]
fn bare_actions() {
    assert_eq!(parse_siguo_action("Sa6xCa1").map(|a| a.to_string()), Ok("Sa6xCa1".to_owned()));
    assert_eq!(parse_siguo_action("sa3-sA4").map(|a| a.to_string()), Ok("Sa3-Sa4".to_owned()));
    for bad in ["Sa3Sa4", "Sa3-Sa7", "Sa3+Sa4", "Sa3-", "a3-a4"] {
        assert!(parse_siguo_action(bad).is_err(), "{bad}");
    }
}

struct Session {
    engine: Engine,
    rx: Receiver<String>,
}

impl Session {
    fn new(variant: &str) -> Session {
        let (out, rx) = Output::channel();
        let mut s = Session { engine: Engine::new(out), rx };
        s.send(&format!("setoption name Variant value {variant}"));
        s.send("setoption name Seed value 11");
        s
    }

    fn send(&mut self, line: &str) {
        self.engine.handle_line(line);
    }

    /// Sends `line` and collects the answers up to one that `last` accepts.
    fn ask(&mut self, line: &str, last: impl Fn(&str) -> bool) -> Vec<String> {
        self.send(line);
        let mut got = Vec::new();
        loop {
            let l = self
                .rx
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("{line}: no answer after {got:?}"));
            let done = last(&l);
            got.push(l);
            if done {
                return got;
            }
        }
    }
}

/// The start of a siguo game from the engine's own deployments: each seat
/// asked with `go setup`, the arms put together, South's view.
#[test]
fn a_four_player_session() {
    let mut s = Session::new("siguo");
    let mut arms = Vec::new();
    for seat in ["s", "e", "n", "w"] {
        let got = s.ask(&format!("go setup {seat}"), |l| l.starts_with("bestsetup"));
        let Ok(Response::SiguoBestSetup(d)) = parse_response(&got[0]) else { panic!("{got:?}") };
        assert_eq!(d.seat.to_string().to_ascii_lowercase(), seat);
        arms.push(d.red);
    }
    let truth = Position::start(SiguoRules::CLASSIC, &arms.try_into().unwrap());
    let fen = state(truth.view(Seat::South)).to_string();
    s.send(&format!("position fen {fen}"));
    let d = s.ask("d", |l| l == "end");
    assert!(d.iter().any(|l| *l == format!("fen {fen}")), "{d:?}");
    assert_eq!(d.len(), 17 + 4);
    let perft = s.ask("perft 1", |l| l.starts_with("nodes"));
    assert_eq!(perft.last(), Some(&format!("nodes {}", truth.count_actions())));
    assert!(perft[..perft.len() - 1].iter().all(|l| matches!(parse_response(l), Ok(Response::SiguoPerftLine(..)))));
    let got = s.ask("go nodes 100", |l| l.starts_with("bestmove"));
    let Ok(Response::SiguoBestMove(a)) = parse_response(got.last().unwrap()) else { panic!("{got:?}") };
    let mut legal = Vec::new();
    truth.legal_actions(&mut legal);
    assert!(legal.contains(&a), "{a} in {got:?}");
    // The search reports in four-player notation; its line starts with its answer.
    let infos: Vec<_> = got
        .iter()
        .filter_map(|l| match parse_response(l) {
            Ok(Response::SiguoInfo(i)) => Some(i),
            _ => None,
        })
        .collect();
    assert!(!infos.is_empty() && infos.len() == got.len() - 1, "{got:?}");
    let last = infos.last().unwrap();
    assert_eq!(last.nodes, Some(100), "{got:?}");
    assert_eq!(last.pv.first(), Some(&a), "{got:?}");
    // The same seed and position: the same answer.
    let again = s.ask("go nodes 100", |l| l.starts_with("bestmove"));
    let untimed = |lines: &[String]| -> Vec<String> {
        lines
            .iter()
            .map(|l| match parse_response(l) {
                Ok(Response::SiguoInfo(i)) => {
                    Response::SiguoInfo(luzhanqi::protocol::Info { nps: None, time: None, ..i }).to_string()
                }
                _ => l.clone(),
            })
            .collect()
    };
    assert_eq!(untimed(&again), untimed(&got));

    // East's view after South's move: East's pieces named, to move.
    let mut referee = SiguoReferee::new(truth.clone());
    referee.play(a).unwrap();
    let east = state(referee.start(Seat::East).clone()).to_string();
    let moves: Vec<String> = referee.told(Seat::East).iter().map(ToString::to_string).collect();
    s.send(&format!("position fen {east} moves {}", moves.join(" ")));
    let got = s.ask("go movetime 10", |l| l.starts_with("bestmove"));
    let Ok(Response::SiguoBestMove(b)) = parse_response(got.last().unwrap()) else { panic!("{got:?}") };
    assert_eq!(b.from.region(), luzhanqi::siguo::Region::Arm(Seat::East), "{b}");
    // South's view is South's, not East's: go refuses to play East blind.
    let told: Vec<String> = referee.told(Seat::South).iter().map(ToString::to_string).collect();
    s.send(&format!("position fen {fen} moves {}", told.join(" ")));
    let got = s.ask("go nodes 100", |l| l.starts_with("bestmove"));
    assert!(got[0].contains("of E's pieces are unnamed"), "{got:?}");
    assert_eq!(got.last().map(String::as_str), Some("bestmove none"));
}

#[test]
fn searchmoves_restricts_a_four_player_root() {
    let mut s = Session::new("siguo");
    let truth = game(SiguoRules::CLASSIC, 7, 0).truth().clone();
    let mover = truth.side_to_move();
    s.send(&format!("position fen {}", state(truth.view(mover))));
    s.send("setoption name ShowRootStats value true");
    let mut legal = Vec::new();
    truth.legal_actions(&mut legal);
    let (a, b) = (legal[0], legal[legal.len() - 1]);
    // An action of another seat (South moves first) is left out with a warning.
    assert_eq!(mover, Seat::South);
    let stranger = parse_siguo_action("Ea6-Eb6").unwrap();
    assert!(!legal.contains(&stranger));
    let got = s.ask(&format!("go nodes 400 searchmoves {a} {stranger} {b}"), |l| l.starts_with("bestmove"));
    assert!(got[0].contains(&format!("warning: go searchmoves: {stranger} is not legal here")), "{got:?}");
    let stats: Vec<Action> = got
        .iter()
        .filter_map(|l| match parse_response(l) {
            Ok(Response::SiguoRootStat(r)) => Some(r.action),
            _ => None,
        })
        .collect();
    assert!(!stats.is_empty() && stats.iter().all(|x| *x == a || *x == b), "{got:?}");
    let Ok(Response::SiguoBestMove(best)) = parse_response(got.last().unwrap()) else { panic!("{got:?}") };
    assert!(best == a || best == b, "{best} in {got:?}");
    // None legal: every action is searched, after a warning.
    let got = s.ask(&format!("go nodes 400 searchmoves {stranger}"), |l| l.starts_with("bestmove"));
    assert!(got.iter().any(|l| l.contains("none of the actions is legal; searching every action")), "{got:?}");
    let stats = got.iter().filter(|l| l.starts_with("info rootstat")).count();
    assert!(stats > 2, "{got:?}");
}

#[test]
fn an_open_session_plays_out_attacks_and_deeper_perft() {
    let mut s = Session::new("siguo-open");
    let referee = game(SiguoRules::OPEN, 4, 60);
    let start = state(referee.start(Seat::South).clone()).to_string();
    let moves: Vec<String> = referee.told(Seat::South).iter().map(ToString::to_string).collect();
    s.send(&format!("position fen {start} moves {}", moves.join(" ")));
    let d = s.ask("d", |l| l == "end");
    let fen = d.iter().find_map(|l| l.strip_prefix("fen ")).expect("a fen line").to_owned();
    let now = parse_siguo_setup(&fen).unwrap().state(SiguoRules::OPEN).unwrap();
    assert_eq!(now.ply as usize, moves.iter().filter(|t| !t.contains(['=', '#']) || t.contains('x')).count());
    let perft = s.ask("perft 2", |l| l.starts_with("nodes"));
    let expected = luzhanqi::siguo::perft::perft(referee.truth(), 2).unwrap();
    assert_eq!(perft.last(), Some(&format!("nodes {expected}")));
    // An attack whose outcome the kinds decide otherwise is refused whole.
    let mut legal: Vec<Action> = Vec::new();
    referee.truth().legal_actions(&mut legal);
    if let Some(a) = legal.iter().find(|a| a.attack) {
        let o = referee.truth().attack_outcome(a.from, a.to).unwrap();
        let wrong = ['+', '-', '='].into_iter().find(|&c| c != o.to_char()).unwrap();
        let got = s.ask(&format!("position fen {start} moves {} {a}{wrong}", moves.join(" ")), |_| true);
        assert!(
            got[0].starts_with(&format!(
                "info string error: position: move {}: {a}{wrong}: the kinds decide",
                moves.len() + 1
            )),
            "{got:?}"
        );
        let d = s.ask("d", |l| l == "end");
        assert!(d.contains(&format!("fen {fen}")), "the last good position stays");
    }
}

/// The histories of tests/transcripts/11_siguo_session.in are South's
/// view of refereed games (deployments 5; at random, an attack when one is
/// drawn 3 times in 10, until 7 attacks): the golden file replays what a
/// referee tells, reveals and all.
#[test]
fn the_golden_session_replays_refereed_games() {
    let golden = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/transcripts/11_siguo_session.in"))
        .expect("the golden input");
    for rules in [SiguoRules::CLASSIC, SiguoRules::OPEN] {
        let mut referee = SiguoReferee::new(Position::start(rules, &deployments(5)));
        let mut r = rng(77);
        let mut attacks = 0;
        while attacks < 7 {
            let mut legal = Vec::new();
            referee.truth().legal_actions(&mut legal);
            let attacking: Vec<_> = legal.iter().copied().filter(|a| a.attack).collect();
            let a = if !attacking.is_empty() && r.random_bool(0.3) {
                attacking[0]
            } else {
                legal[r.random_range(0..legal.len())]
            };
            attacks += usize::from(a.attack);
            referee.play(a).unwrap();
        }
        let toks: Vec<String> = referee.told(Seat::South).iter().map(ToString::to_string).collect();
        let line = format!("position fen {} moves {}", state(referee.start(Seat::South).clone()), toks.join(" "));
        assert!(golden.lines().any(|l| l == line), "{line}");
        if rules == SiguoRules::CLASSIC {
            assert!(toks.iter().any(|t| t.ends_with('=')) && toks.iter().any(|t| t.contains("=wF")), "{toks:?}");
        }
    }
}
