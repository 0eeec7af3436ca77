//! The host-side adapters against scripted foreign engines: the
//! transcripts of ADAPTERS.md §5.3 (CCGC) and §5.5 (CS4500). `X<` lines
//! are what the adapter wrote to the foreign engine, `X>` its scripted
//! output, `U>`/`U<` the arena's ULI lines and the adapter's answers.

use std::sync::{Arc, Mutex};

use arena::proto::ccgc::CcgcHost;
use arena::proto::cs4500::Cs4500Host;
use arena::proto::{Host, Link, ScriptLink, Spawner};

type Written = Arc<Mutex<Vec<String>>>;

/// A spawner handing out one scripted process per start (each answering
/// with its chunks), recording every line written and every start's
/// arguments (`<spawn ARGS>`) in one list.
fn spawner(processes: Vec<Vec<&'static [u8]>>) -> (Spawner, Written) {
    let written: Written = Arc::new(Mutex::new(Vec::new()));
    let mut queue: std::collections::VecDeque<Vec<&'static [u8]>> = processes.into();
    let w = Arc::clone(&written);
    let spawn: Spawner = Box::new(move |args: &[String]| {
        w.lock().unwrap().push(format!("<spawn {}>", args.join(" ")));
        let chunks = queue.pop_front().ok_or("no more processes")?;
        Ok(Box::new(ScriptLink::new(&chunks, Arc::clone(&w))) as Box<dyn Link>)
    });
    (spawn, written)
}

fn take(w: &Written) -> Vec<String> {
    std::mem::take(&mut *w.lock().unwrap())
}

const RED_SETUP: &str = "r7r5r2r1r9/rB1r81r7/r6r11rBr5/r31r41r3/rMrMr6r1r4/r2r2r3rFrM";
const BLUE_VIEW: &str = "b?b?b?b?b?/b?b?b?b?b?/b?1b?1b?/b?b?1b?b?/b?1b?1b?/b?b?b?b?b?";

fn ccgc(processes: Vec<Vec<&'static [u8]>>) -> (CcgcHost, Written) {
    let (spawn, written) = spawner(processes);
    (CcgcHost::new(spawn, Box::new(|_| {}), "INFO"), written)
}

const CCGC_ENGINE: [&[u8]; 4] = [
    b"NAME ShenYang Aerospace University!\r\n",
    b"ARRAY cehiakbcdikegfgjjdifhhglj\r\n",
    b"BESTMOVE G0F0\r\n",
    b"BESTMOVE H0G0\r\n",
];

#[test]
fn t_h01_to_h04_handshake_deployment_and_moves() {
    let (mut host, written) = ccgc(vec![CCGC_ENGINE.to_vec()]);
    assert_eq!(
        host.handle("uli"),
        [
            "id name ShenYang Aerospace University!",
            "id author ccgc-adapter",
            "option name Variant type combo default ccgc var ccgc",
            "option name QuietLimit type spin default 31 min 10 max 99",
            "option name Time type spin default 1800 min 1 max 9999",
            "uliok",
        ]
    );
    assert_eq!(take(&written), ["<spawn >", "INFO 1.0"]);
    assert!(host.handle("setoption name Variant value ccgc").is_empty());
    assert_eq!(host.handle("go setup r"), [format!("bestsetup {RED_SETUP}")]);
    assert_eq!(take(&written), ["START 0 1800 31"]);
    let fen = format!("{BLUE_VIEW}/{RED_SETUP} r 0 0 -");
    assert!(host.handle(&format!("position fen {fen}")).is_empty());
    assert_eq!(host.handle("go rtime 1800000 btime 1800000"), ["bestmove a6xa7"]);
    assert_eq!(take(&written), ["GO 0000 0 00"]);
    assert!(host.handle(&format!("position fen {fen} moves a6xa7- e7-d8")).is_empty());
    assert_eq!(host.handle("go rtime 1795000 btime 1797000"), ["bestmove a5-a6"]);
    assert_eq!(take(&written), ["RESULT 0 00", "GO F4E3 3 00"]);
}

#[test]
fn t_h05_the_flag_field_follows_the_enemy_flag_only() {
    for (reveal, flag) in [("d12=bF", "A3"), ("d1=rF", "00")] {
        let (mut host, written) = ccgc(vec![CCGC_ENGINE.to_vec()]);
        host.handle("uli");
        host.handle("go setup r");
        let fen = format!("{BLUE_VIEW}/{RED_SETUP} r 0 0 -");
        host.handle(&format!("position fen {fen}"));
        host.handle("go rtime 1800000 btime 1800000");
        take(&written);
        host.handle(&format!("position fen {fen} moves a6xa7= {reveal} e7-d8"));
        host.handle("go rtime 1795000 btime 1797000");
        assert_eq!(take(&written), [format!("RESULT 2 {flag}"), format!("GO F4E3 3 {flag}")], "{reveal}");
    }
}

#[test]
fn t_h06_start_time_is_clamped_to_four_digits() {
    let (mut host, written) = ccgc(vec![CCGC_ENGINE.to_vec()]);
    host.handle("uli");
    assert!(host.handle("setoption name Time value 600").is_empty());
    host.handle("go setup r");
    assert_eq!(take(&written).last().unwrap(), "START 0 1000 31");
    assert!(host.handle("setoption name QuietLimit value 9").iter().any(|l| l.contains("error")));
    assert!(host.handle("setoption name Variant value classic").iter().any(|l| l.contains("error")));
}

#[test]
fn t_h07_newgame_ends_the_process_and_starts_a_fresh_one() {
    let (mut host, written) = ccgc(vec![CCGC_ENGINE.to_vec(), vec![b"NAME again\n"]]);
    host.handle("uli");
    host.handle("go setup r");
    take(&written);
    assert!(host.handle("newgame").is_empty());
    assert_eq!(take(&written), ["END 2", "<closed>", "<spawn >", "INFO 1.0"]);
    host.handle("quit");
    assert_eq!(take(&written), ["<closed>"], "no START went to the new process: no END");
}

#[test]
fn ccgc2019_spelling_and_crlf() {
    let (spawn, written) = spawner(vec![CCGC_ENGINE.to_vec()]);
    let mut host = CcgcHost::new(spawn, Box::new(|_| {}), "INFORMATION").crlf();
    host.handle("uli");
    host.handle("go setup r");
    assert_eq!(take(&written), ["<spawn >", "INFORMATION 1.0\r", "START 0 1800 31\r"]);
}

#[test]
fn ccgc_bad_answers_are_errors_then_no_move() {
    let (mut host, _) = ccgc(vec![vec![b"NAME x\n", b"ARRAY abc\n", b"BESTMOVE ZZZZ\n", b"BESTMOVE A0A0\n"]]);
    host.handle("uli");
    let setup = host.handle("go setup b");
    assert!(setup[0].starts_with("info string error: ARRAY abc"), "{setup:?}");
    host.handle(&format!("position fen {BLUE_VIEW}/{RED_SETUP} r 0 0 -"));
    // BESTMOVE ZZZZ is no message: skipped; A0A0 is "no move".
    let go = host.handle("go rtime 1000 btime 1000");
    assert_eq!(go.last().unwrap(), "bestmove none", "{go:?}");
}

const SETUP_SX_SPACED: &[u8] = b"( ( A1 5 ) ( B1 2 ) ( C1 5 ) ( D1 F ) ( E1 2 ) ( A2 2 ) ( B2 L ) ( C2 4 ) ( D2 L ) ( E2 L ) ( A3 3 ) ( C3 1 ) ( E3 4 ) ( A4 1 ) ( B4 6 ) ( D4 B ) ( E4 7 ) ( A5 B ) ( C5 3 ) ( E5 9 ) ( A6 7 ) ( B6 1 ) ( C6 8 ) ( D6 3 ) ( E6 6 ) )";
const RED_T: &str = "r7r1r8r3r6/rB1r31r9/r1r61rBr7/r31r11r4/r2rMr4rMrM/r5r2r5rFr2";
const BLUE_T: &str = "b2bFb5b2b5/bMbMb4bMb2/b41b11b3/b7bB1b6b1/b91b31bB/b6b3b8b1b7";
const RED_VIEW: &str = "r?r?r?r?r?/r?1r?1r?/r?r?1r?r?/r?1r?1r?/r?r?r?r?r?/r?r?r?r?r?";

fn cs4500(processes: Vec<Vec<&'static [u8]>>) -> (Cs4500Host, Written) {
    let (spawn, written) = spawner(processes);
    (Cs4500Host::new(spawn, Box::new(|_| {})), written)
}

#[test]
fn t_hs01_davesilva_style_output_without_newlines() {
    let (mut host, written) = cs4500(vec![vec![SETUP_SX_SPACED, b"( C2 D3 )", b"(A6 A7)"]]);
    assert!(host.handle("uli").contains(&"uliok".to_owned()));
    assert!(host.handle("setoption name Variant value cs4500").is_empty());
    assert_eq!(host.handle("go setup r"), [format!("bestsetup {RED_T}")]);
    assert_eq!(take(&written), ["<spawn --go 1 --time/move 1000ms>"]);
    let fen = format!("{BLUE_VIEW}/{RED_T} r 0 0 -");
    host.handle(&format!("position fen {fen}"));
    assert_eq!(host.handle("go movetime 1000"), ["bestmove c2-d3"]);
    assert!(take(&written).is_empty(), "the held first move: nothing is written");
    host.handle(&format!("position fen {fen} moves c2-d3 c11-b10"));
    assert_eq!(host.handle("go movetime 1000"), ["bestmove a6xa7"]);
    assert_eq!(take(&written), ["C2 D3 1 move", "C11 B10 2 move"]);
}

#[test]
fn t_hs02_blue_reads_the_setup_then_hears_the_first_move() {
    let (mut host, written) = cs4500(vec![vec![SETUP_SX_SPACED, b"(E5 E6)\n"]]);
    host.handle("setoption name MoveTime value 500");
    assert_eq!(host.handle("go setup b"), [format!("bestsetup {BLUE_T}")]);
    assert_eq!(take(&written), ["<spawn --go 2 --time/move 500ms>"]);
    host.handle(&format!("position fen {BLUE_T}/{RED_VIEW} r 0 0 - moves c2-d3"));
    host.handle("go movetime 500");
    assert_eq!(take(&written), ["C11 B10 1 move"]);
}

#[test]
fn t_hs03_reveals_are_f_lines_before_message_3() {
    let moves = "a6xa7+ a8xa7+ a5xa7= b12=bF";
    let (mut host, written) = cs4500(vec![vec![SETUP_SX_SPACED, b"(A6 A7)", b"(A4 A5)"]]);
    host.handle("go setup r");
    host.handle(&format!("position fen {BLUE_VIEW}/{RED_T} r 0 0 - moves {moves}"));
    host.handle("go movetime 1000");
    let w = take(&written);
    assert_eq!(&w[w.len() - 2..], ["F B12", "A5 A7 1 tie"], "{w:?}");
    let (mut host, written) = cs4500(vec![vec![SETUP_SX_SPACED, b"(C6 C7)"]]);
    host.handle("go setup b");
    host.handle(&format!("position fen {BLUE_T}/{RED_VIEW} r 0 0 - moves {moves}"));
    host.handle("go movetime 1000");
    let w = take(&written);
    assert_eq!(&w[w.len() - 2..], ["F D1", "E8 E6 1 tie"], "{w:?}");
}

#[test]
fn t_hs04_forfeit_is_no_move_and_silence_no_answer() {
    let (mut host, _) = cs4500(vec![vec![SETUP_SX_SPACED, b"forfeit"]]);
    host.handle("go setup b");
    host.handle(&format!("position fen {BLUE_T}/{RED_VIEW} r 0 0 - moves c2-d3"));
    assert_eq!(host.handle("go movetime 1000"), ["bestmove none"]);
    let (mut host, _) = cs4500(vec![vec![SETUP_SX_SPACED]]);
    host.handle("go setup b");
    host.handle(&format!("position fen {BLUE_T}/{RED_VIEW} r 0 0 - moves c2-d3"));
    assert!(host.handle("go movetime 1000").is_empty(), "no bestmove: the arena scores the time loss");
}

#[test]
fn t_hs05_quit_tells_no_victory_and_closes() {
    let (mut host, written) = cs4500(vec![vec![SETUP_SX_SPACED]]);
    host.handle("go setup b");
    take(&written);
    host.handle("quit");
    assert_eq!(take(&written), ["No Victory", "<closed>"]);
}
