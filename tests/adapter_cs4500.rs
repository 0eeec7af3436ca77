//! The CS4500 engine side (`luzhanqi cs4500`, our engine as `play4500`):
//! the transcripts of ADAPTERS.md §5.4 against a scripted engine, and the
//! binary's argument checks.

#[path = "common/transcript.rs"]
mod transcript;

use luzhanqi::adapter::Scripted;
use luzhanqi::adapter::cs4500::{Args, EngineSide, Step};
use luzhanqi::notation::parse_deployment;
use luzhanqi::{Colour, Token};
use transcript::{Event, assert_subsequence, parse};

const SETUP_SX: &str = "((A1 5) (B1 2) (C1 5) (D1 F) (E1 2) (A2 2) (B2 L) (C2 4) (D2 L) (E2 L) (A3 3) (C3 1) (E3 4) (A4 1) (B4 6) (D4 B) (E4 7) (A5 B) (C5 3) (E5 9) (A6 7) (B6 1) (C6 8) (D6 3) (E6 6))";
const RED_FEN_T: &str = "b?b?b?b?b?/b?b?b?b?b?/b?1b?1b?/b?b?1b?b?/b?1b?1b?/b?b?b?b?b?/r7r1r8r3r6/rB1r31r9/r1r61rBr7/r31r11r4/r2rMr4rMrM/r5r2r5rFr2 r 0 0 -";
const BLUE_FEN_T: &str = "b2bFb5b2b5/bMbMb4bMb2/b41b11b3/b7bB1b6b1/b91b31bB/b6b3b8b1b7/r?r?r?r?r?/r?1r?1r?/r?r?1r?r?/r?1r?1r?/r?r?r?r?r?/r?r?r?r?r? r 0 0 -";

fn args(s: &str) -> Args {
    Args::parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>()).unwrap()
}

/// Runs a transcript; `P> <start>` stands for the player's start (setup,
/// and player 1's first move). Returns the adapter and its last step.
fn run(cmd: &str, text: &str) -> (EngineSide<Scripted>, Option<Step>) {
    let ab = [("SETUP_SX", SETUP_SX), ("RED_FEN_T", RED_FEN_T), ("BLUE_FEN_T", BLUE_FEN_T)];
    let events = parse(text, &ab);
    let replies: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::FromEngine(l) => Some(l.clone()),
            _ => None,
        })
        .collect();
    let mut side = EngineSide::new(Scripted::new(replies), args(cmd));
    let (mut written, mut expected, mut sent) = (Vec::new(), Vec::new(), Vec::new());
    let mut last = None;
    for e in &events {
        match e {
            Event::Platform(l) => {
                assert_eq!(written, expected, "before '{l}'");
                written.clear();
                expected.clear();
                if l == "<start>" {
                    written = side.start().unwrap();
                } else {
                    let step = side.handle(l);
                    if let Step::Continue(lines) = &step {
                        written = lines.clone();
                    }
                    last = Some(step);
                }
            }
            Event::Adapter(l) => expected.push(l.clone()),
            Event::ToEngine(l) => sent.push(l.clone()),
            Event::FromEngine(_) => {}
        }
    }
    assert_eq!(written, expected, "at the end");
    assert_subsequence(&sent, &side.engine().sent);
    (side, last)
}

fn history(side: &EngineSide<Scripted>) -> Vec<String> {
    side.seat().unwrap().history().iter().map(Token::to_string).collect()
}

#[test]
fn t_s02_player_1() {
    run(
        "--go 1 --time/move 2s",
        "
P> <start>
E< uli
E> uliok
E< setoption name Variant value cs4500
E< newgame
E< go setup r
E> bestsetup r7r1r8r3r6/rB1r31r9/r1r61rBr7/r31r11r4/r2rMr4rMrM/r5r2r5rFr2
A< SETUP_SX
E< position fen RED_FEN_T
E< go movetime 1800
E> bestmove a6xa7
A< (A6 A7)
P> A6 A7 1 win
P> A8 A7 2 win
E< position fen RED_FEN_T moves a6xa7+ a8xa7+
E< go movetime 1800
E> bestmove a5xa7
A< (A5 A7)
P> F B12
P> A5 A7 1 tie
P> C7 C6 2 tie
E< position fen RED_FEN_T moves a6xa7+ a8xa7+ a5xa7= b12=bF c7xc6=
E< go movetime 1800
E> bestmove a4-a5
A< (A4 A5)",
    );
}

#[test]
fn t_s03_player_2() {
    run(
        "--go 2 --time/move 500ms",
        "
P> <start>
E< go setup b
E> uliok
E> bestsetup b2bFb5b2b5/bMbMb4bMb2/b41b11b3/b7bB1b6b1/b91b31bB/b6b3b8b1b7
A< SETUP_SX
P> E7 E6 1 win
E< position fen BLUE_FEN_T moves a6xa7+
E< go movetime 450
E> bestmove a8xa7
A< (E5 E6)
P> E5 E6 2 win
P> F D1
P> E8 E6 1 tie
E< position fen BLUE_FEN_T moves a6xa7+ a8xa7+ a5xa7= b12=bF
E< go movetime 450
E> bestmove c7xc6
A< (C6 C7)
P> C6 C7 2 tie",
    );
}

const START_RED: &str = "
P> <start>
E> uliok
E> bestsetup r7r1r8r3r6/rB1r31r9/r1r61rBr7/r31r11r4/r2rMr4rMrM/r5r2r5rFr2
A< SETUP_SX
E> bestmove a6xa7
A< (A6 A7)";

#[test]
fn t_s04_victory_quits() {
    for end in ["1 Victory", "2 Victory", "No Victory"] {
        let (_, last) = run("--go 1 --time/move 2s", &format!("{START_RED}\nP> {end}\nE< quit"));
        assert_eq!(last, Some(Step::Exit(0)), "{end}");
    }
}

#[test]
fn t_s05_no_move_is_forfeit() {
    run("--go 1 --time/move 2s", &format!("{START_RED}\nP> A6 A7 1 win\nP> A8 A7 2 win\nE> bestmove none\nA< forfeit"));
}

#[test]
fn t_s06_invalid_then_victory_exits_1() {
    let (_, last) = run(
        "--go 1 --time/move 2s",
        &format!("{START_RED}\nP> Invalid Board Move From To Invalid\nP> 2 Victory\nE< quit"),
    );
    assert_eq!(last, Some(Step::Exit(1)));
}

#[test]
fn t_s07_tolerant_parsing_and_rejected_lines() {
    let (side, _) = run(
        "--go 1 --time/move 2s",
        &format!(
            "{START_RED}\nP>   A6   A7 1 win  \\r\nP> \nP> Z1 A2 1 move\nP> A1 F2 1 move\nP> F E13\nP> A8 A7 2 win\nE> bestmove a5xa7\nA< (A5 A7)\nP> F  B12\nP> A5 A7 1 tie"
        ),
    );
    assert_eq!(history(&side), ["a6xa7+", "a8xa7+", "a5xa7=", "b12=bF"]);
}

#[test]
fn t_s08_two_flags_before_one_tie_red_first() {
    // Red's Marshal on c6 (it and the General of T-S02 swapped).
    let setup = "r7r1r9r3r6/rB1r31r8/r1r61rBr7/r31r11r4/r2rMr4rMrM/r5r2r5rFr2";
    assert!(parse_deployment(setup, Colour::Red).is_ok());
    let (side, _) = run(
        "--go 1 --time/move 2s",
        &format!(
            "P> <start>\nE> uliok\nE> bestsetup {setup}\nE> bestmove c6xc7\nP> F B12\nP> F D1\nP> C6 C7 1 tie\n"
        )
        .replace("P> F B12", "A< ((A1 5) (B1 2) (C1 5) (D1 F) (E1 2) (A2 2) (B2 L) (C2 4) (D2 L) (E2 L) (A3 3) (C3 1) (E3 4) (A4 1) (B4 6) (D4 B) (E4 7) (A5 B) (C5 3) (E5 8) (A6 7) (B6 1) (C6 9) (D6 3) (E6 6))\nA< (C6 C7)\nP> F B12"),
    );
    assert_eq!(history(&side), ["c6xc7=", "d1=rF", "b12=bF"]);
}

/// T-S01: bad arguments give the usage on stderr and exit 1 (no engine).
#[test]
fn t_s01_bad_arguments_exit_1() {
    for bad in [&["--go", "3", "--time/move", "2s"][..], &["--go", "1", "--time/move", "2"], &["--go", "1"]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_luzhanqi"))
            .arg("cs4500")
            .args(bad)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{bad:?}");
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).contains("usage: luzhanqi cs4500"), "{bad:?}");
    }
}
