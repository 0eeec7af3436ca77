//! The engine loop in process: behaviour under good and bad input, `stop`
//! and `isready` latency during a search, and a robustness run over 100,000
//! random and mutated lines.

mod common;

use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use luzhanqi::engine::Engine;
use luzhanqi::engine::output::Output;
use luzhanqi::protocol::{ParseError, Response, parse_command, parse_response};
use luzhanqi::random::rng;

struct Harness {
    engine: Engine,
    rx: Receiver<String>,
}

impl Harness {
    fn new() -> Harness {
        let (out, rx) = Output::channel();
        Harness { engine: Engine::new(out), rx }
    }

    /// Sends a line and returns what came out without waiting.
    fn send(&mut self, line: &str) -> Vec<String> {
        assert!(self.engine.handle_line(line), "{line} quit the engine");
        self.rx.try_iter().collect()
    }

    /// Sends a line and collects output until a line starting with `until`.
    fn send_wait(&mut self, line: &str, until: &str) -> Vec<String> {
        let mut got = self.send(line);
        let deadline = Instant::now() + Duration::from_secs(30);
        while !got.iter().any(|l| l.starts_with(until)) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(l) => got.push(l),
                Err(_) => panic!("no '{until}' after '{line}': {got:?}"),
            }
        }
        got
    }
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string error:")).collect()
}

#[test]
fn handshake_lists_options() {
    let mut h = Harness::new();
    let out = h.send("uli");
    assert_eq!(out.first().map(String::as_str), Some(concat!("id name luzhanqi ", env!("CARGO_PKG_VERSION"))));
    assert_eq!(out.last().map(String::as_str), Some("uliok"));
    for name in ["Variant", "Threads", "Hash", "Seed", "MoveOverhead", "QuietLimit", "Player", "DebugLogFile"] {
        assert!(out.iter().any(|l| l.starts_with(&format!("option name {name} type"))), "{name}");
    }
    for l in &out {
        parse_response(l).unwrap_or_else(|e| panic!("{l}: {e}"));
    }
    assert_eq!(h.send("isready"), vec!["readyok"]);
}

#[test]
fn options_are_checked() {
    let mut h = Harness::new();
    assert!(h.send("setoption name Hash value 256").is_empty());
    assert!(h.send("setoption name hash value 16").is_empty(), "names ignore case");
    assert_eq!(h.engine.options().hash_mb, 16);
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "setoption name Threads value 9999",
        "setoption name Variant value chess",
        "setoption name Player value alphazero",
        "setoption name Nonsense value 1",
        "setoption name Hash",
        "setoption name FlagNeedsEngineer value maybe",
    ] {
        let out = h.send(bad);
        assert_eq!(errors(&out).len(), 1, "{bad}: {out:?}");
    }
    assert_eq!(h.engine.options().hash_mb, 16, "a refused value changes nothing");
    assert!(h.send("setoption name Variant value ccgc").is_empty());
    assert_eq!(h.engine.position().rules().quiet_limit, 31);
    assert!(h.send("setoption name QuietLimit value 50").is_empty());
    assert_eq!(h.engine.position().rules().quiet_limit, 50);
}

#[test]
fn bad_positions_keep_the_last_good_one() {
    let mut h = Harness::new();
    h.send("position startpos moves c3=r9 a1=b5");
    let good = h.engine.position().to_string();
    let bad_lines = [
        "position startpos moves c3=r9 c3=b5",       // flipping a face-up piece
        "position startpos moves c3",                // a flip must say what it showed
        "position startpos moves c3=r9 a1=r9",       // only one r9
        "position startpos moves c3=r9 a1=b5 c3-c5", // not a legal move
        "position startpos moves c3=r9 a1=b5 a1-a2", // moving the enemy's piece
        "position fen r9r9???/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? r 0 2 -",
        "position fen ?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/???r9? - 0 0 -",
        "position fen ?????/??????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? - 0 0 -",
    ];
    for line in bad_lines {
        let out = h.send(line);
        assert_eq!(errors(&out).len(), 1, "{line}: {out:?}");
        assert_eq!(h.engine.position().to_string(), good, "{line}");
    }
    // Classic: a flag outside an HQ; pieces in a camp at the start.
    h.send("setoption name Variant value classic");
    let start = "b8b6bMbFb2/b4bMbMb3b9/b2b6b1bB1/1b3b2b31/2b7b1b1/r91b41b5/1r11r3r4/1rBrBr81/r62r7r2/1r23/r32rMrM/rMrFr4r5r5 r 33 80 r1r1r2r3r6r7b5b7bB";
    assert!(h.send(&format!("position fen {start}")).is_empty());
    let flag_off_hq = start.replacen("rMrFr4", "rMr4rF", 1);
    let out = h.send(&format!("position fen {flag_off_hq}"));
    assert!(errors(&out)[0].contains("flag at"), "{out:?}");
    let mut r = rng(1);
    let deployed = luzhanqi::Position::from_deployments(
        luzhanqi::Rules::CLASSIC,
        &luzhanqi::Deployment::random(luzhanqi::Colour::Red, &mut r),
        &luzhanqi::Deployment::random(luzhanqi::Colour::Blue, &mut r),
    );
    let mut setup = deployed.to_setup();
    setup.cells.swap(12, 13); // c3 into the camp c4
    let out = h.send(&format!("position fen {setup}"));
    assert!(errors(&out)[0].contains("camp"), "{out:?}");
    assert!(h.engine.position().to_string().starts_with("b8b6"));
}

#[test]
fn go_answers_exactly_one_bestmove() {
    let mut h = Harness::new();
    h.send("setoption name Seed value 7");
    for player in ["random", "greedy"] {
        h.send(&format!("setoption name Player value {player}"));
        h.send("position startpos");
        let out = h.send_wait("go nodes 100", "bestmove");
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
        assert!(out.iter().any(|l| l.starts_with("info depth")), "{out:?}");
        let best = parse_response(out.last().unwrap()).unwrap();
        assert!(matches!(best, Response::BestMove { action: Some(_), .. }));
    }
    // A finished game: bestmove none.
    h.send("setoption name Variant value open");
    h.send("position fen 3bF1/5/5/5/5/5/5/5/5/5/5/rM1rF2 r 0 10 r1r1r1r2r2r2r3r3r3r4r4r5r5r6r6r7r7r8r9rBrBrMrMb1b1b1b2b2b2b3b3b3b4b4b5b5b6b6b7b7b8b9bBbBbMbMbM");
    let out = h.send_wait("go movetime 10", "bestmove");
    assert_eq!(out.last().map(String::as_str), Some("bestmove none"));
    // Classic before deployment.
    h.send("setoption name Variant value classic");
    h.send("position startpos");
    let out = h.send_wait("go", "bestmove");
    assert_eq!(out.last().map(String::as_str), Some("bestmove none"));
}

#[test]
fn go_setup_gives_legal_varied_deployments() {
    let mut h = Harness::new();
    let out = h.send("go setup");
    assert_eq!(errors(&out).len(), 1, "flip has no deployment");
    h.send("setoption name Variant value classic");
    let mut seen = std::collections::HashSet::new();
    for colour in ["", " r", " b"] {
        for _ in 0..10 {
            let out = h.send(&format!("go setup{colour}"));
            assert_eq!(out.len(), 1);
            match parse_response(&out[0]) {
                Ok(Response::BestSetup(d)) => {
                    d.check().expect("legal");
                    if colour == " b" {
                        assert_eq!(d.colour(), luzhanqi::Colour::Blue);
                    } else {
                        assert_eq!(d.colour(), luzhanqi::Colour::Red);
                    }
                    seen.insert(out[0].clone());
                }
                other => panic!("{other:?}"),
            }
        }
    }
    assert!(seen.len() >= 25, "successive deployments vary: {}", seen.len());
}

#[test]
fn stop_and_isready_are_answered_at_once_during_a_search() {
    let mut h = Harness::new();
    h.send("position startpos moves c3=r9 a1=b5");
    h.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    assert!(h.engine.searching());
    let t = Instant::now();
    let out = h.send("isready");
    let ready = t.elapsed();
    assert!(out.iter().any(|l| l == "readyok"), "{out:?}");
    let out = h.send("d");
    assert!(errors(&out)[0].contains("refused while a search runs"));
    let out = h.send("go nodes 5");
    assert!(errors(&out)[0].contains("already running"));
    let t = Instant::now();
    let out = h.send("stop");
    let stopped = t.elapsed();
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{out:?}");
    assert!(!h.engine.searching());
    // Generous bounds: a loaded CI machine; the benchmark has the real figures.
    if common::timing_asserted() {
        assert!(ready < Duration::from_millis(200), "isready took {ready:?}");
        assert!(stopped < Duration::from_millis(200), "stop took {stopped:?}");
    }
    // Ponder: held until ponderhit.
    h.send("go ponder rtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(20));
    assert!(h.engine.searching());
    let out = h.send_wait("ponderhit", "bestmove");
    assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
}

#[test]
fn perft_and_display_commands() {
    let mut h = Harness::new();
    let out = h.send_wait("perft 1", "nodes");
    assert_eq!(out.last().map(String::as_str), Some("nodes 1200"));
    assert_eq!(out.len(), 51);
    let out = h.send("d");
    assert!(out.iter().any(|l| l.starts_with("fen ?????/")), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("face-down pool (50)")), "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("end"), "d ends with a closing line");
    assert_eq!(out.iter().filter(|l| *l == "end").count(), 1);
    let out = h.send("perft 99");
    assert_eq!(errors(&out).len(), 1);
    h.send("setoption name Variant value classic");
    // Before deployment the board is empty: no game over, a hint instead.
    let out = h.send("d");
    assert!(!out.iter().any(|l| l.starts_with("game over")), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("not deployed yet: the board is empty")), "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("end"));
    h.send("position fen b?b?b?b?b?/1b?b?b?b?/b?b?b?1b?/b?b?1b?b?/r51b?b?1/rBb?b?b?b?/2r81r3/1r51r1r7/1rBr61r4/1r2r1r2r6/rMr4rMr2r9/r3r7r3rFrM r 25 40 r1b1b2");
    let out = h.send_wait("perft 1", "nodes");
    assert_eq!(out.last().map(String::as_str), Some("nodes 30"));
    let out = h.send_wait("perft 2", "info string error");
    assert!(out.iter().any(|l| l.contains("only depth 1")), "{out:?}");
    // A long perft can be stopped.
    h.send("setoption name Variant value flip");
    h.send("perft 6");
    std::thread::sleep(Duration::from_millis(20));
    let t = Instant::now();
    let out = h.send("stop");
    let stopped = t.elapsed();
    if common::timing_asserted() {
        assert!(stopped < Duration::from_millis(500), "stop took {stopped:?}");
    }
    assert!(out.iter().any(|l| l.contains("perft stopped")), "{out:?}");
}

/// 100,000 random and mutated lines: no panic, and every line the parser
/// rejects gets an `info string error`.
#[test]
fn robustness_random_and_mutated_lines() {
    let mut h = Harness::new();
    h.send("setoption name Player value random");
    h.send("setoption name Seed value 3");
    let seeds: Vec<String> = [
        "uli",
        "isready",
        "setoption name Hash value 32",
        "setoption name Variant value open",
        "setoption name Variant value flip",
        "newgame",
        "position startpos",
        "position startpos moves c3=r9 a1=b5 c3-c4",
        "position fen ?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? - 0 0 -",
        "go nodes 10",
        "go movetime 5",
        "go rtime 1000 btime 1000 rinc 10 binc 10",
        "go setup r",
        "stop",
        "ponderhit",
        "d",
        "perft 1",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let alphabet: Vec<char> = "abcdefgr?bBMF0123456789/ -+=xposnmvtiuqle\t\u{e9}\u{4e2d}".chars().collect();
    let mut r = rng(11);
    let mut rejected = 0;
    for i in 0..100_000 {
        let line = common::garbage_line(&mut r, i, &seeds, &alphabet);
        if line.split_whitespace().next() == Some("quit") {
            continue;
        }
        let out = h.send(&line);
        match parse_command(&line) {
            Ok(_) | Err(ParseError::Empty) => {}
            Err(_) => {
                rejected += 1;
                assert!(!errors(&out).is_empty(), "no error for {line:?}: {out:?}");
            }
        }
    }
    assert!(rejected > 30_000, "{rejected}");
    h.send("stop");
    assert!(!h.engine.handle_line("quit"));
}

/// The same in a four-player variant: 30,000 random and mutated lines
/// around four-player commands, no panic, an error for every line the
/// four-player parser rejects, and a `bestmove` for every `go` that is
/// accepted.
#[test]
fn robustness_four_player_lines() {
    use luzhanqi::protocol::parse_siguo_command;
    let mut h = Harness::new();
    h.send("setoption name Variant value siguo");
    h.send("setoption name Seed value 3");
    let fen = "n?n?n?n?n?/n?n?n?n?n?/n?1n?1n?/n?n?1n?n?/n?1n?1n?/n?n?n?n?n?/w?w?w?w?w?w?3e?e?e?e?e?e?/w?w?1w?1w?e?1e?1e?e?/w?w?w?1w?w?3e?e?1e?e?e?/w?w?1w?1w?e?1e?1e?e?/w?w?w?w?w?w?3e?e?e?e?e?e?/s2s2s2s1s3/s91s71s4/s1s31sBs4/s31s51sB/s7sMs8s6s6/sMsFsMs5s1 s 0 0 - -";
    let seeds: Vec<String> = [
        format!("position fen {fen}"),
        format!("position fen {fen} moves Sa6xWe6- Eb4-Eb3 Na6xEe6+ We6-Sa6 Sa5xSa6+"),
        format!(
            "position fen {fen} moves Sa6xWe6- Eb4-Eb3 Na6xEe6+ We6-Sa6 Sa5xSa6+ Ec6-Cb2 Na2-Nb3 We5xSa6= Wd1=wF Sb1=sF"
        ),
        "position startpos".to_owned(),
        "setoption name FirstSeat value N".to_owned(),
        "setoption name PartnerVisible value true".to_owned(),
        "setoption name Variant value siguo-open".to_owned(),
        "setoption name Variant value siguo".to_owned(),
        "go setup w".to_owned(),
        "go nodes 10".to_owned(),
        "d".to_owned(),
        "perft 1".to_owned(),
    ]
    .into_iter()
    .collect();
    let alphabet: Vec<char> = "SENWCsenwcabcde?BMF0123456789/ -+=x#".chars().collect();
    let mut r = rng(12);
    let mut rejected = 0;
    for i in 0..30_000 {
        let line = common::garbage_line(&mut r, i, &seeds, &alphabet);
        let head = line.split_whitespace().next();
        if matches!(head, Some("quit" | "bench")) || line.contains("Variant") && !line.contains("siguo") {
            continue;
        }
        let out = if head == Some("go") && parse_siguo_command(&line).is_ok() && !line.contains("setup") {
            h.send_wait(&line, "bestmove")
        } else if head == Some("perft") || head == Some("d") {
            let got = h.send(&line);
            h.send("stop");
            got
        } else {
            h.send(&line)
        };
        match parse_siguo_command(&line) {
            Ok(_) | Err(ParseError::Empty) => {}
            Err(_) => {
                rejected += 1;
                assert!(!errors(&out).is_empty(), "no error for {line:?}: {out:?}");
            }
        }
    }
    assert!(rejected > 5_000, "{rejected}");
    h.send("stop");
    assert!(!h.engine.handle_line("quit"));
}

/// Runs a whole session as if piped from a file and returns its output.
fn piped(session: &str) -> Vec<String> {
    let (out, rx) = Output::channel();
    let mut engine = Engine::new(out);
    engine.run(session.as_bytes());
    rx.try_iter().collect()
}

#[test]
fn the_end_of_piped_input_finishes_bounded_work_and_stops_the_rest() {
    // perft and bench end on their own: the end of input waits for them.
    let perft = piped("position startpos\nperft 1\n");
    assert!(errors(&perft).is_empty(), "{perft:?}");
    assert!(perft.iter().any(|l| l.starts_with("nodes ")), "{perft:?}");
    // A search with a limit is finished and answered.
    let go = piped("position startpos\ngo nodes 2000\n");
    let last_info = go.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    assert!(last_info.contains(" nodes 2000 "), "{go:?}");
    assert_eq!(go.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{go:?}");
    // Without a limit for the side to move the engine says so, and the end
    // of input stops it like quit (still one bestmove).
    for unbounded in ["go btime 5000", "go movestogo 5", "go rinc 1000", "go infinite"] {
        let out = piped(&format!("position startpos\n{unbounded}\n"));
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{unbounded}: {out:?}");
        let warned = out.iter().any(|l| l.starts_with("info string warning: go: no limit for red to move"));
        assert_eq!(warned, unbounded != "go infinite", "{unbounded}: {out:?}");
    }
}

#[test]
fn error_lines_are_short_and_printable_whatever_the_input() {
    let mut h = Harness::new();
    // A 1 MB line comes back as a short error that keeps its start and end.
    let long = format!("{} go", "x".repeat(1 << 20));
    let out = h.send(&long);
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{}", out.len());
    assert!(errs[0].len() < 400 && errs[0].contains("characters left out"), "{}", errs[0].len());
    assert!(errs[0].starts_with("info string error: unknown command 'xxx"), "{}", &errs[0][..60]);
    assert!(errs[0].ends_with("xxx'"), "{}", errs[0]);
    // NUL and ESC are escaped, not sent raw.
    let out = h.send("go\u{0}\u{1b}[31m");
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{out:?}");
    assert!(!errs[0].chars().any(char::is_control) && errs[0].contains("\\u{1b}"), "{:?}", errs[0]);
}

#[test]
fn help_says_how_to_talk_to_the_engine() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_luzhanqi")).arg("--help").output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    for needed in ["ULI", "`uli` first", "quit", "Ctrl-D", "protocol.md", "RUST_LOG", "stderr"] {
        assert!(text.contains(needed), "--help lacks {needed}: {text}");
    }
}

#[test]
fn perft_of_a_variant_that_deploys_first_asks_for_a_position() {
    let bin = env!("CARGO_BIN_EXE_luzhanqi");
    let out = std::process::Command::new(bin).args(["perft", "2", "--variant", "open"]).output().expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("open starts on an empty board") && err.contains("--fen"), "{err}");
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    let flip = std::process::Command::new(bin).args(["perft", "1"]).output().expect("runs");
    assert!(flip.status.success() && String::from_utf8_lossy(&flip.stdout).contains("nodes "));
}

#[test]
fn classic_go_refuses_a_side_to_move_with_unnamed_pieces() {
    let mut h = Harness::new();
    h.send("setoption name Variant value classic");
    let named = "b?b?b?b?b?/b?b?b?b?b?/b?1b?1b?/b?b?1b?b?/b?1b?1b?/b?b?b?b?b?/\
                 r7r6r5r4r9/r11r81r6/r2r31r3r1/r21r21r7/r5r4r3rBrM/rBrFrMrMr1 r 0 0 -";
    // Every red piece unnamed: each red kind letter or rank becomes '?'.
    let mut red_hidden = String::new();
    let mut chars = named.chars().peekable();
    while let Some(c) = chars.next() {
        red_hidden.push(c);
        if c == 'r' && chars.peek().is_some_and(|n| *n != ' ') {
            chars.next();
            red_hidden.push('?');
        }
    }
    assert!(errors(&h.send(&format!("position fen {red_hidden}"))).is_empty(), "{red_hidden}");
    let out = h.send_wait("go nodes 100", "bestmove");
    assert!(out.iter().any(|l| l.contains("go: 25 of red's pieces are unnamed")), "{out:?}");
    assert!(out.contains(&"bestmove none".to_owned()), "{out:?}");
    // Its own pieces named, the same position is searched.
    h.send(&format!("position fen {named}"));
    let out = h.send_wait("go nodes 100", "bestmove");
    assert!(errors(&out).is_empty() && !out.contains(&"bestmove none".to_owned()), "{out:?}");
}

/// The `info` lines of a search's output (not `info string`, belief or
/// root statistics).
fn infos(lines: &[String]) -> Vec<luzhanqi::protocol::Info> {
    lines
        .iter()
        .filter_map(|l| match parse_response(l) {
            Ok(Response::Info(i)) => Some(i),
            _ => None,
        })
        .collect()
}

/// A `flip` middle game and a `classic` view to analyse (issue 17 item 8).
fn analysis_positions() -> [(&'static str, String); 2] {
    let flip = luzhanqi::random::seeded_position(luzhanqi::Rules::FLIP, 21, 40).to_string();
    let classic = "position fen b?b?b?b?b?/b?b?b?b?b?/b?1b?1b?/b?b?1b?b?/b?1b?1b?/b?b?b?b?b?/r7r6r5r4r9/r11r81r6/r2r31r3r1/r21r21r7/r5r4r3rBrM/rBrFrMrMr1 r 0 0 - moves e6xe7+ a7xa6-";
    [("flip", format!("position fen {flip}")), ("classic", classic.to_owned())]
}

#[test]
fn multipv_lines_are_ranked_and_the_first_is_the_single_line() {
    for (variant, position) in analysis_positions() {
        let run = |multipv: u32| {
            let mut h = Harness::new();
            h.send(&format!("setoption name Variant value {variant}"));
            h.send("setoption name Seed value 7");
            h.send(&format!("setoption name MultiPV value {multipv}"));
            let out = h.send(&position);
            assert!(errors(&out).is_empty(), "{out:?}");
            h.send_wait("go nodes 3000", "bestmove")
        };
        let single = run(1);
        let multi = run(3);
        assert_eq!(single.last(), multi.last(), "{variant}: the same bestmove");
        let last_single = infos(&single).pop().unwrap();
        let all = infos(&multi);
        let last: Vec<_> = all[all.len() - 3..].to_vec();
        assert_eq!(last.iter().map(|i| i.multipv).collect::<Vec<_>>(), [Some(1), Some(2), Some(3)], "{variant}");
        let untimed = |i: &luzhanqi::protocol::Info| luzhanqi::protocol::Info {
            time: None,
            nps: None,
            multipv: None,
            ..i.clone()
        };
        assert_eq!(untimed(&last[0]), untimed(&last_single), "{variant}: line 1 is the single-PV line");
        let firsts: Vec<_> = last.iter().map(|i| i.pv[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{variant}: {firsts:?}");
        let best = single.last().unwrap();
        assert!(best == &format!("bestmove {}", firsts[0]) || best.starts_with(&format!("bestmove {} ", firsts[0])));
        for i in &all {
            assert!(i.seldepth >= i.depth, "{variant}: {i:?}");
        }
    }
}

#[test]
fn searchmoves_restricts_the_root_and_root_stats_list_it() {
    for (variant, position) in analysis_positions() {
        let mut h = Harness::new();
        h.send(&format!("setoption name Variant value {variant}"));
        h.send("setoption name Seed value 3");
        h.send(&position);
        let mut legal = Vec::new();
        h.engine.position().legal_actions(&mut legal);
        let (a, b) = (legal[legal.len() - 1], legal[legal.len() / 2]);
        h.send("setoption name ShowRootStats value true");
        let out = h.send_wait(&format!("go nodes 500 searchmoves {a} {b} a1-a2"), "bestmove");
        let best = out.last().unwrap().split(' ').nth(1).unwrap();
        assert!(best == a.to_string() || best == b.to_string(), "{out:?}");
        let warned = out.iter().any(|l| l.starts_with("info string warning: go searchmoves: a1-a2 is not legal"));
        assert!(warned != legal.iter().any(|x| x.to_string() == "a1-a2"), "{out:?}");
        let roots: Vec<_> = out
            .iter()
            .filter_map(|l| match parse_response(l) {
                Ok(Response::RootStat(r)) => Some(r),
                _ => None,
            })
            .collect();
        let last_two = &roots[roots.len() - 2..];
        let mut acts: Vec<_> = last_two.iter().map(|r| r.action).collect();
        acts.sort_by_key(|x| x.to_u16());
        let mut want = vec![a, b];
        want.sort_by_key(|x| x.to_u16());
        assert_eq!(acts, want, "{variant}: {out:?}");
        assert_eq!(last_two.iter().map(|r| r.visits).sum::<u64>(), 500, "{variant}");
        assert!(last_two[0].visits >= last_two[1].visits);
        assert!(last_two.iter().all(|r| r.prior > 0.0), "{variant}: {last_two:?}");
        // The next search is not restricted.
        h.send("setoption name ShowRootStats value false");
        h.send("setoption name MultiPV value 256");
        let out = h.send_wait("go nodes 500", "bestmove");
        let lines = infos(&out);
        let last_report = lines.iter().filter(|i| i.multipv.is_some()).count();
        assert!(last_report > 2, "{variant}: {out:?}");
    }
}

#[test]
fn infinite_search_reports_at_once() {
    let mut h = Harness::new();
    h.send("position startpos");
    let t = Instant::now();
    h.send("go infinite");
    let first = h.rx.recv_timeout(Duration::from_secs(5)).expect("an info line");
    let waited = t.elapsed();
    assert!(first.starts_with("info depth"), "{first}");
    if std::env::var_os("LUZHANQI_SKIP_TIMING_ASSERTS").is_none() {
        assert!(waited < Duration::from_millis(300), "first info after {waited:?}");
    }
    h.send_wait("stop", "bestmove");
}

#[test]
fn debug_log_file_stamps_lines_and_a_bad_path_keeps_the_old_log() {
    let dir = std::env::temp_dir().join(format!("luzhanqi-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("a.log");
    let _ = std::fs::remove_file(&good);
    let mut h = Harness::new();
    assert!(h.send(&format!("setoption name DebugLogFile value {}", good.display())).is_empty());
    h.send("isready");
    let out = h.send("setoption name DebugLogFile value /nonexistent-dir/x.log");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].starts_with("info string error: setoption: DebugLogFile '/nonexistent-dir/x.log': "), "{out:?}");
    assert!(out[0].ends_with(&format!("the log goes on in '{}'", good.display())), "{out:?}");
    assert_eq!(h.engine.options().debug_log_file, good.display().to_string());
    h.send("isready");
    h.send("setoption name DebugLogFile value <empty>");
    h.send("isready");
    let text = std::fs::read_to_string(&good).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("# luzhanqi ") && lines[0].contains(" log opened 20") && lines[0].ends_with(" UTC"),
        "{text}"
    );
    // Every exchanged line is stamped HH:MM:SS.mmm; the second isready
    // (after the refused path) is still logged, the one after <empty> not.
    let stamped = |l: &&str| {
        let b = l.as_bytes();
        b.len() > 13 && b[2] == b':' && b[5] == b':' && b[8] == b'.' && b[12] == b' '
    };
    assert!(lines[1..].iter().all(stamped), "{text}");
    let bodies: Vec<&str> = lines[1..].iter().map(|l| &l[13..]).collect();
    assert_eq!(bodies.iter().filter(|b| **b == ">> isready").count(), 2, "{text}");
    assert!(bodies.iter().any(|b| b.starts_with("<< info string error: setoption: DebugLogFile")), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rust_log_reports_positions_options_and_why_searches_stop() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let run = |level: &str, go: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_luzhanqi"))
            .env("RUST_LOG", level)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let session = format!("setoption name Seed value 3\nposition startpos moves c3=r9\n{go}\n");
        child.stdin.take().unwrap().write_all(session.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let (stdout, nodes) = run("info", "go nodes 300");
    let (_, timed) = run("info", "go movetime 50");
    let info = nodes + &timed;
    for want in [
        "option Seed = 3",
        "position: ",
        "go nodes 300 (bounded): player mcts",
        "search: 1 thread(s), no time limit",
        "search: stopped after 300 iterations, ",
        " ms: the node limit",
        "search: 1 thread(s), target 20 ms, hard limit 20 ms",
        " ms: time: ",
    ] {
        assert!(info.contains(want), "RUST_LOG=info lacks '{want}':\n{info}");
    }
    assert!(!info.contains("iterations, ") || !info.contains("seldepth"), "debug lines at info:\n{info}");
    assert!(stdout.lines().all(|l| l.starts_with("info ") || l.starts_with("bestmove ")), "{stdout}");
    let (_, debug) = run("debug", "go nodes 300");
    assert!(debug.lines().any(|l| l.contains("search: ") && l.contains(" seldepth ")), "{debug}");
}
