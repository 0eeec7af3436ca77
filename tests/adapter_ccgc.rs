//! The CCGC engine side (`luzhanqi ccgc`): the transcripts of ADAPTERS.md
//! §5.2 against a scripted engine, and the logged 2019 platform game of §6
//! replayed through the adapter for both seats.

#[path = "common/transcript.rs"]
mod transcript;

use luzhanqi::adapter::Scripted;
use luzhanqi::adapter::ccgc::{Cell, EngineSide, Settings, Step, array_to_deployment};
use luzhanqi::notation::parse_token;
use luzhanqi::{Colour, Outcome, Position, Rules, Token};
use transcript::{Event, assert_subsequence, parse};

const RED_ARRAY: &str = "chbihggkdeedcfkgiijafhjlj";
const BLUE_ARRAY: &str = "cgfehkiabkiedfghjcdijljhg";
const RED_FEN_LOG: &str = "b?b?b?b?b?/b?b?b?b?b?/b?1b?1b?/b?b?1b?b?/b?1b?1b?/b?b?b?b?b?/r7r2r8r1r2/r31r31rB/r6r51r5r6/r71r41rB/r3r1r1rMr9/r4r2rMrFrM r 0 0 -";
const BLUE_FEN_LOG: &str = "b3b2bMbFbM/b1b6b7bMb2/b31b41b6/b5b11bBb8/b91b11bB/b2b5b4b3b7/r?r?r?r?r?/r?1r?1r?/r?r?1r?r?/r?1r?1r?/r?r?r?r?r?/r?r?r?r?r? r 0 0 -";

/// ADAPTERS.md §6: the logged game as our history (`|` after `H56`).
const LOGGED: &str =
    "c6xc7+ e7-d8 c7-b8 e8xe6= b8xa7+ a8xa7+ e5-d5 a7xa6+ b4-b5 a6xa5+ c3-d3 a5xa4+ a3-b3 c8-c9 d4-c4 e9xe4+ e3xe4=
a4-a3 e2xe10+ d9-d10 e10-e2 a9-b8 b6-c6 d10-e9 d6xe9= e11-d10 c6-e6 d7-e7 e6-b6 e7-c7 b6-e6 a3-a4 e6-e9 d10xe9=
c4-c3 c10-d10 d5-c4 a10-b10 c5-d5 b9-a9 d5-c5 a4-a3 c5-d5 a3-a4 d5-c5 a4-a3 c5-d5 a3-a4 d5-c6 c7xc6= d3-e4 a9-e5
e4-d5 a4-a6 c3-d3 a6-e6 | e2xe5+ e6xe5= d1=rF d12=bF c2-c3 b7-e7 c3-c2 e7-e2 c2-c3 e2xd2- c3-c2 a11xd2+ c2-c3
d2xd1+";

fn abbrev() -> Vec<(&'static str, String)> {
    let h56: Vec<&str> = LOGGED.split('|').next().unwrap().split_whitespace().collect();
    assert_eq!(h56.len(), 56);
    vec![("RED_FEN_LOG", RED_FEN_LOG.to_owned()), ("BLUE_FEN_LOG", BLUE_FEN_LOG.to_owned()), ("H56", h56.join(" "))]
}

/// Runs `text` (after `before`) through a fresh engine side: every `A<`
/// must be what the adapter wrote after the `P>` before it, and the `E<`
/// lines must have been sent in order.
fn run(before: &[&str], text: &str) -> EngineSide<Scripted> {
    let ab = abbrev();
    let ab: Vec<(&str, &str)> = ab.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut events = Vec::new();
    for t in before.iter().chain(std::iter::once(&text)) {
        events.extend(parse(t, &ab));
    }
    let replies: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            Event::FromEngine(l) => Some(l.clone()),
            _ => None,
        })
        .collect();
    let mut side = EngineSide::new(Scripted::new(replies), Settings::default());
    let mut written: Vec<String> = Vec::new();
    let mut expected_out = Vec::new();
    let mut expected_sent = Vec::new();
    let mut exited = false;
    for e in &events {
        match e {
            Event::Platform(l) => {
                if !l.trim().is_empty() {
                    assert_eq!(written, expected_out, "before '{l}'");
                    written.clear();
                    expected_out.clear();
                }
                match side.handle(l) {
                    Step::Continue(lines) => written.extend(lines),
                    Step::Exit => exited = true,
                }
            }
            Event::Adapter(l) => expected_out.push(l.clone()),
            Event::ToEngine(l) => expected_sent.push(l.clone()),
            Event::FromEngine(_) => {}
        }
    }
    assert_eq!(written, expected_out, "at the end");
    assert_subsequence(&expected_sent, &side.engine().sent);
    // The clocks (`<R>`, `<B>`) only go down.
    let clocks: Vec<(u64, u64)> = side
        .engine()
        .sent
        .iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.split(' ').collect();
            match w.as_slice() {
                ["go", "rtime", r, "btime", b] => Some((r.parse().ok()?, b.parse().ok()?)),
                _ => None,
            }
        })
        .collect();
    assert!(clocks.windows(2).all(|w| w[1].0 <= w[0].0 && w[1].1 <= w[0].1), "{clocks:?}");
    if expected_sent.last().is_some_and(|l| l == "quit") {
        assert!(exited, "the adapter exits after END");
    }
    side
}

const T_C01: &str = "
P> INFO 1.0
E< uli
E> id name luzhanqi 0.1
E> uliok
A< NAME luzhanqi 0.1";

const T_C03: &str = "
P> START 0 1800 31
E< setoption name Variant value ccgc
E< setoption name QuietLimit value 31
E< newgame
E< go setup r
E> bestsetup r7r2r8r1r2/r31r31rB/r6r51r5r6/r71r41rB/r3r1r1rMr9/r4r2rMrFrM
A< ARRAY chbihggkdeedcfkgiijafhjlj";

const T_C04: &str = "
P> START 1 1800 31
E< go setup b
E> bestsetup b3b2bMbFbM/b1b6b7bMb2/b31b41b6/b5b11bBb8/b91b11bB/b2b5b4b3b7
A< ARRAY cgfehkiabkiedfghjcdijljhg";

#[test]
fn t_c01_handshake() {
    run(&[], T_C01);
}

#[test]
fn t_c02_2019_spelling_crlf_blank_line_default_name() {
    run(
        &[],
        "
P> INFORMATION 1.0\\r
P> \\r
E< uli
E> uliok
A< NAME luzhanqi",
    );
}

#[test]
fn t_c03_deployment_as_red() {
    run(&[T_C01], T_C03);
}

#[test]
fn t_c04_deployment_as_blue() {
    run(&[T_C01], T_C04);
}

#[test]
fn t_c05_opening_as_red() {
    run(
        &[T_C01, T_C03],
        "
P> GO 0000 0 00
E< position fen RED_FEN_LOG
E< go rtime 1800000 btime 1800000
E> bestmove c6xc7
A< BESTMOVE G2F2
P> RESULT 1 00
P> GO F4E3 3 00
E< position fen RED_FEN_LOG moves c6xc7+ e7-d8
E< go rtime <R> btime <B>
E> bestmove c7-b8
A< BESTMOVE F2E1
P> RESULT 3 00
P> GO E4G4 2 00
E< position fen RED_FEN_LOG moves c6xc7+ e7-d8 c7-b8 e8xe6=
E> bestmove b8xa7
A< BESTMOVE E1F0
P> RESULT 1 00
P> GO E0F0 1 00
E< position fen RED_FEN_LOG moves c6xc7+ e7-d8 c7-b8 e8xe6= b8xa7+ a8xa7+
E> bestmove e5-d5
A< BESTMOVE H4H3",
    );
}

#[test]
fn t_c06_opening_as_blue() {
    run(
        &[T_C01, T_C04],
        "
P> GO F2G2 1 00
E< position fen BLUE_FEN_LOG moves c6xc7+
E< go rtime <R> btime 1800000
E> bestmove e7-d8
A< BESTMOVE G0H1
P> RESULT 3 00
P> GO G2H3 3 00
E< position fen BLUE_FEN_LOG moves c6xc7+ e7-d8 c7-b8
E> bestmove e8xe6
A< BESTMOVE H0F0
P> RESULT 2 00
P> GO H3G4 1 00
E< position fen BLUE_FEN_LOG moves c6xc7+ e7-d8 c7-b8 e8xe6= b8xa7+
E> bestmove a8xa7
A< BESTMOVE H4G4
P> RESULT 1 00
P> GO E0E1 3 00
E< position fen BLUE_FEN_LOG moves c6xc7+ e7-d8 c7-b8 e8xe6= b8xa7+ a8xa7+ e5-d5",
    );
}

#[test]
fn t_c10_no_legal_action_is_a0a0() {
    run(
        &[T_C01, T_C04],
        "
P> GO F4E3 3 00
E< position fen BLUE_FEN_LOG moves a6-b5
E> bestmove none
A< BESTMOVE A0A0",
    );
}

#[test]
fn t_c11_the_platform_code_wins_over_the_printed_separator() {
    let side = run(
        &[T_C01, T_C03],
        "
P> GO 0000 0 00
E> bestmove c6-c7
A< BESTMOVE G2F2
P> RESULT 1 00",
    );
    let history: Vec<String> = side.seat().unwrap().history().iter().map(Token::to_string).collect();
    assert_eq!(history, ["c6xc7+"]);
}

#[test]
fn t_c12_garbage_is_ignored_and_the_next_go_served() {
    run(
        &[T_C01, T_C04],
        "
P> HELLO
P> GO F4
P> RESULT 7 00
P> GO Z9Z9 3 00
P> RESULT 3 00
P> GO F2G2 1 00
E< position fen BLUE_FEN_LOG moves c6xc7+
E> bestmove e7-d8
A< BESTMOVE G0H1",
    );
}

#[test]
fn t_c09_end_quits_and_writes_nothing() {
    run(
        &[T_C01, T_C03],
        "
P> GO 0000 0 00
E> bestmove c6xc7
A< BESTMOVE G2F2
P> RESULT 1 00
P> END 0
E< quit",
    );
}

/// One seat's platform lines and the adapter lines expected after each.
struct SeatScript {
    lines: Vec<(String, Option<String>)>,
    replies: Vec<String>,
}

/// The platform's messages of the logged game, recomputed from the two
/// ARRAYs with the rules (every outcome of §6 checked against the combat
/// table): what each seat received and what it answered.
fn logged_game() -> ([SeatScript; 2], Vec<Token>) {
    let red = array_to_deployment(RED_ARRAY, Colour::Red).unwrap();
    let blue = array_to_deployment(BLUE_ARRAY, Colour::Blue).unwrap();
    let mut truth = Position::from_deployments(Rules::CCGC, &red, &blue);
    let history: Vec<Token> =
        LOGGED.split_whitespace().filter(|w| *w != "|").map(|w| parse_token(w).unwrap()).collect();
    let mut seats = [(); 2].map(|()| SeatScript { lines: Vec::new(), replies: Vec::new() });
    let flags = Colour::BOTH.map(|c| truth.pieces_of(c, Some(luzhanqi::Kind::Flag)).first().unwrap());
    let flag_field = |truth: &Position, viewer: Colour| -> String {
        let enemy = viewer.opposite();
        if truth.pieces_of(enemy, Some(luzhanqi::Kind::Marshal)).is_empty() {
            let at = flags[enemy.index()];
            Cell::of(at, viewer).to_string()
        } else {
            "00".to_owned()
        }
    };
    let mut prompt: Option<String> = None;
    for t in &history {
        let (from, to, outcome) = match *t {
            Token::Show { .. } => continue,
            Token::Action(a) => (a.from(), a.to(), None),
            Token::Attack { from, to, outcome, .. } => (from, to, Some(outcome)),
        };
        let mover = truth.side_to_move().unwrap();
        let (m, o) = (mover.index(), mover.opposite().index());
        let attack = truth.cell(to).piece().is_some();
        assert_eq!(attack, outcome.is_some(), "{t}");
        // The truth judges the outcome itself: it must be the logged one.
        assert_eq!(truth.attack_outcome(from, to), outcome, "{t}");
        truth.apply_token(*t).unwrap();
        let code = luzhanqi::adapter::ccgc::code_of_outcome(outcome);
        let mv = |c: Colour| format!("{}{}", Cell::of(from, c), Cell::of(to, c));
        let go = prompt.take().unwrap_or_else(|| "GO 0000 0 00".to_owned());
        seats[m].lines.push((go, Some(format!("BESTMOVE {}", mv(mover)))));
        seats[m].replies.push(format!("bestmove {from}{}{to}", if attack { 'x' } else { '-' }));
        seats[m].lines.push((format!("RESULT {code} {}", flag_field(&truth, mover)), None));
        prompt = Some(format!("GO {} {code} {}", mv(mover.opposite()), flag_field(&truth, mover.opposite())));
        let _ = o;
    }
    let winner = truth.outcome().unwrap().winner.unwrap();
    assert_eq!(winner, Colour::Blue);
    for c in Colour::BOTH {
        seats[c.index()].lines.push((format!("END {}", u8::from(c == winner)), None));
    }
    (seats, history)
}

/// T-C13: the logged 2019 game through the engine side, both seats: every
/// `BESTMOVE` is the logged one, and the history each seat ends with is §6
/// (Red never hears of the capture that ends it).
#[test]
fn t_c13_the_logged_2019_game_replays_for_both_seats() {
    let (seats, history) = logged_game();
    for (colour, script) in Colour::BOTH.into_iter().zip(seats) {
        let (array, fen) = match colour {
            Colour::Red => (RED_ARRAY, RED_FEN_LOG),
            Colour::Blue => (BLUE_ARRAY, BLUE_FEN_LOG),
        };
        let setup = array_to_deployment(array, colour).unwrap().to_string();
        let mut replies = vec!["id name luzhanqi".to_owned(), "uliok".to_owned(), format!("bestsetup {setup}")];
        replies.extend(script.replies);
        let mut side = EngineSide::new(Scripted::new(replies), Settings::default());
        assert_eq!(side.handle("INFORMATION 1.0\r"), Step::Continue(vec!["NAME luzhanqi".to_owned()]));
        let start = format!("START {} 1800 31\r", colour.index());
        assert_eq!(side.handle(&start), Step::Continue(vec![format!("ARRAY {array}")]));
        let n = script.lines.len();
        for (i, (line, answer)) in script.lines.into_iter().enumerate() {
            let step = side.handle(&format!("{line}\r"));
            if i + 1 == n {
                assert_eq!(step, Step::Exit, "{colour}: END");
            } else {
                assert_eq!(step, Step::Continue(answer.into_iter().collect()), "{colour}: {line}");
            }
        }
        let seen = side.seat().unwrap().history().to_vec();
        let expected = match colour {
            Colour::Red => &history[..history.len() - 1],
            Colour::Blue => &history[..],
        };
        assert_eq!(seen, expected, "{colour}");
        // The engine's last position is the history it knew before its last move.
        let sent = &side.engine().sent;
        let last = sent.iter().rev().find(|l| l.starts_with("position")).unwrap();
        assert!(last.starts_with(&format!("position fen {fen} moves c6xc7+ e7-d8")), "{last}");
        // T-C07 / T-C08: both Marshals fall on plies 57-58; both seats get the same tokens.
        let after = "e2xe5+ e6xe5= d1=rF d12=bF c2-c3";
        assert!(sent.iter().any(|l| l.contains(after)), "{colour}: {after}");
        // Every outcome in the history agrees with the combat table from both deployments.
        let _ = Outcome::ALL;
    }
}

/// T-C14 (in a position of its own): only Red's Marshal falls. Red learns
/// nothing from the platform and synthesises its own flag; Blue learns it
/// from the flag field; both write the same tokens, and later messages keep
/// their own flag fields.
#[test]
fn t_c14_only_one_marshal_falls() {
    // The log's Red army with the Marshal on e6 (swapped with e2's r2).
    let red_setup = "r7r2r8r1r9/r31r31rB/r6r51r5r6/r71r41rB/r3r1r1rMr2/r4r2rMrFrM";
    let side = run(
        &[T_C01],
        &format!(
            "
P> START 0 1800 31
E> bestsetup {red_setup}
A< ARRAY chbihggkdeedcfkgiijafhjlj
P> GO 0000 0 00
E> bestmove e6xe7
A< BESTMOVE G4F4
P> RESULT 2 00
P> GO F0E1 3 00
E< position fen b?b?b?b?b?/b?b?b?b?b?/b?1b?1b?/b?b?1b?b?/b?1b?1b?/b?b?b?b?b?/{red_setup} r 0 0 - moves e6xe7= d1=rF a7-b8
E> bestmove a6-a7
A< BESTMOVE G0F0"
        )
        .replace("ARRAY chbihggkdeedcfkgiijafhjlj", "ARRAY chbiaggkdeedcfkgiijhfhjlj"),
    );
    let history: Vec<String> = side.seat().unwrap().history().iter().map(Token::to_string).collect();
    assert_eq!(history, ["e6xe7=", "d1=rF", "a7-b8"]);
    let side = run(
        &[T_C01, T_C04],
        "
P> GO F0G0 2 A1
E< position fen BLUE_FEN_LOG moves e6xe7= d1=rF
E> bestmove e8-e7
A< BESTMOVE H0G0
P> RESULT 3 A1",
    );
    let history: Vec<String> = side.seat().unwrap().history().iter().map(Token::to_string).collect();
    assert_eq!(history, ["e6xe7=", "d1=rF", "e8-e7"]);
}

/// The binary end to end with the real engine: the 2019 platform's
/// `INFORMATION`, CRLF both ways (`--crlf`), `--log` of both directions.
#[test]
fn luzhanqi_ccgc_on_its_pipes() {
    use std::io::Write;
    let log = std::env::temp_dir().join(format!("ccgc-adapter-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_luzhanqi"))
        .args(["ccgc", "--crlf", "--option", "Player=random", "--option", "Seed=4", "--log"])
        .arg(&log)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"INFORMATION 1.0\r\n\r\nSTART 1 1800 31\r\nGO F2G2 1 00\r\nEND 0\r\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    assert_eq!(lines.len(), 3, "{text:?}");
    assert!(lines.iter().all(|l| l.ends_with("\r\n")), "{text:?}");
    assert_eq!(lines[0], "NAME luzhanqi 0.1.0\r\n");
    let array = lines[1].strip_prefix("ARRAY ").unwrap().trim_end();
    assert!(array_to_deployment(array, Colour::Blue).is_ok(), "{array}");
    let mv = lines[2].strip_prefix("BESTMOVE ").unwrap().trim_end();
    assert!(mv.len() == 4 && Cell::parse(&mv[..2]).is_some() && Cell::parse(&mv[2..]).is_some(), "{mv}");
    let logged = std::fs::read_to_string(&log).unwrap();
    for tagged in ["P> INFORMATION 1.0", "E< uli", "A< NAME luzhanqi 0.1.0", "E< go setup b", "P> END 0", "E< quit"] {
        assert!(logged.lines().any(|l| l == tagged), "{tagged} not in\n{logged}");
    }
    assert!(logged.contains("E< position fen ") && logged.contains(" moves c6xc7+"), "{logged}");
    let _ = std::fs::remove_file(&log);
}
