//! The arena's command line against deliberately broken engines: small
//! shell scripts (`sh -c`) that crash, hang, never finish the handshake,
//! refuse an option or flood `info`. Each test takes a second or two.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use arena::record::{GameRecord, Termination, parse_records};

const ARENA: &str = env!("CARGO_BIN_EXE_arena");

/// A fresh folder for one test.
fn dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arena-faults-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The `--engine` words of a shell engine named `name`: `cases` are `case`
/// branches tried before the defaults (the handshake, `isready`, `quit`;
/// any other command is ignored).
fn fake(name: &str, cases: &str) -> Vec<String> {
    let script = format!(
        "while read -r line; do case \"$line\" in {cases} \
         uli) echo 'id name {name}'; echo uliok;; \
         isready) echo readyok;; \
         quit) exit 0;; \
         esac; done"
    );
    ["--engine".to_owned(), format!("name={name}"), "cmd=sh".to_owned(), "arg=-c".to_owned(), format!("arg={script}")]
        .into()
}

/// An engine that answers the set-up and exits at its first `go`.
fn quitter(name: &str) -> Vec<String> {
    fake(name, "go*) exit 3;;")
}

fn arena(args: &[&[String]], more: &str) -> (Output, Duration) {
    let mut words: Vec<String> = args.iter().flat_map(|a| a.iter().cloned()).collect();
    words.extend(more.split_whitespace().map(str::to_owned));
    let start = Instant::now();
    let out = std::process::Command::new(ARENA).args(&words).output().unwrap();
    (out, start.elapsed())
}

fn records(path: &Path) -> Vec<GameRecord> {
    let mut recs = parse_records(&std::fs::read_to_string(path).unwrap()).unwrap();
    recs.sort_by_key(|r| r.game);
    recs
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_hung_engine_is_killed_soon_after_its_time_loss_and_the_log_says_so() {
    let d = dir("hung");
    let hung = fake("hung", "go*) exec sleep 20;;");
    let more = format!(
        "--games 1 --movetime 50 --timemargin 100 --stall 5000 --quiet --log {} --out {}",
        d.display(),
        d.join("t.ljr").display()
    );
    let (out, took) = arena(&[&hung, &quitter("other")], &more);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let recs = records(&d.join("t.ljr"));
    assert_eq!(recs[0].termination, Termination::Time, "{:?}", recs[0]);
    assert!(recs[0].detail.ends_with("lost on time: no bestmove within 150 ms"), "{}", recs[0].detail);
    // A short grace after `stop`, not the whole 5 s stall timeout.
    assert!(took < Duration::from_secs(3), "took {took:?}");
    let log = std::fs::read_to_string(d.join("game-00001.log")).unwrap();
    assert!(log.contains("hung > stop") && log.contains("hung # killed"), "{log}");
}

#[test]
fn a_crash_detail_has_the_exit_status() {
    let d = dir("crash");
    // It closes its output, then exits a moment later.
    let crash = fake("crash", "go*) exec >&-; sleep 0.2; exit 3;;");
    let more = format!("--games 1 --movetime 50 --stall 5000 --quiet --out {}", d.join("t.ljr").display());
    let (out, _) = arena(&[&crash, &quitter("other")], &more);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let recs = records(&d.join("t.ljr"));
    assert_eq!(recs[0].termination, Termination::Crash, "{:?}", recs[0]);
    assert!(recs[0].detail.contains("exit status: 3"), "{}", recs[0].detail);
}

/// A legal `classic` deployment of each colour (from a match of the engine).
const RED_SETUP: &str = "r1r3r5r6r1/rB1r91r1/r8r41r7r3/r21r31r5/r2r6r7rMr4/rMr2rBrFrM";
const BLUE_SETUP: &str = "bBb6bMbFb1/bMb1b3bMb5/b31b91b1/b5b81b4b7/b21bB1b3/b2b2b6b7b4";

fn replay(file: &Path) -> Output {
    std::process::Command::new(ARENA).arg("replay").arg(file).output().unwrap()
}

#[test]
fn games_that_end_before_play_are_recorded_so_that_replay_accepts_them() {
    let d = dir("before-play");
    // flip: it dies at `newgame`, before the deal: the record has the deal.
    let flip = d.join("flip.ljr");
    let more = format!("--games 2 --movetime 50 --stall 2000 --quiet --out {}", flip.display());
    let (out, _) = arena(&[&fake("dies", "newgame) exit 4;;"), &quitter("other")], &more);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let recs = records(&flip);
    assert!(recs.iter().all(|r| r.termination == Termination::Crash && r.deal.is_some()), "{recs:?}");
    // classic: it dies at `go setup`, once before either deployment (game
    // 1, as Red) and once after Red's (game 2, as Blue).
    let classic = d.join("classic.ljr");
    let deploys = format!("'go setup r') echo 'bestsetup {RED_SETUP}';; 'go setup b') echo 'bestsetup {BLUE_SETUP}';;");
    let more = format!("--variant classic --games 2 --movetime 50 --stall 2000 --quiet --out {}", classic.display());
    let (out, _) = arena(&[&fake("dies", "'go setup'*) exit 4;;"), &fake("other", &deploys)], &more);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let recs = records(&classic);
    assert!(recs.iter().all(|r| r.termination == Termination::Crash), "{recs:?}");
    assert_eq!(recs[1].setups, [Some(RED_SETUP.to_owned()), None]);
    for file in [&flip, &classic] {
        let out = replay(file);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{}\n{stdout}", text(&out.stderr));
        assert!(stdout.contains("2 records re-judged ok, 0 wrong"), "{stdout}");
        assert!(stdout.contains("re-judged: ok (ended before the first ply"), "{stdout}");
    }
}

/// Runs a match that must stop with an error naming `name`; returns stderr.
fn fails(engines: &[&[String]], more: &str, name: &str) -> String {
    let (out, took) = arena(engines, &format!("--games 10 --movetime 50 --stall 500 --quiet {more}"));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stdout: {}\nstderr: {stderr}", text(&out.stdout));
    assert!(stderr.contains(&format!("engine '{name}'")), "{stderr}");
    assert!(took < Duration::from_secs(5), "took {took:?}");
    stderr
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_before_it_plays() {
    let d = dir("nosuch");
    let out = d.join("t.ljr");
    let nosuch: Vec<String> = ["--engine", "cmd=./nosuch"].map(str::to_owned).into();
    let stderr = fails(&[&nosuch, &quitter("other")], &format!("--out {}", out.display()), "nosuch");
    assert!(stderr.contains("cannot start: ./nosuch: "), "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "", "no game was played");
}

#[test]
fn an_engine_that_never_finishes_the_handshake_stops_the_match() {
    // It never answers uliok; `true` exits at once.
    let mute = fake("mute", "uli) ;;");
    let stderr = fails(&[&quitter("other"), &mute], "", "mute");
    assert!(stderr.contains("failed its first start") && stderr.contains("no answer to uli in time"), "{stderr}");
    let dead: Vec<String> = ["--engine", "name=dead", "cmd=true"].map(str::to_owned).into();
    let stderr = fails(&[&dead, &quitter("other")], "", "dead");
    // It may be gone before `uli` is even written.
    assert!(stderr.contains("failed its first start") && stderr.contains("crashed: exit status: 0 ("), "{stderr}");
}

#[test]
fn an_engine_that_fails_to_restart_stops_the_match_after_a_few_tries() {
    let d = dir("restart");
    let out = d.join("t.ljr");
    // It starts once, crashes at its first go, and never starts again.
    let flag = d.join("started");
    let once =
        fake("once", &format!("uli) [ -e {0} ] && exit 5; touch {0}; echo uliok;; go*) exit 3;;", flag.display()));
    let stderr = fails(&[&once, &quitter("other")], &format!("--out {}", out.display()), "once");
    assert!(stderr.contains("failed to restart 3 times in a row: crashed: exit status: 5"), "{stderr}");
    // The games before: one crash at go, two failed restarts, all replayable.
    let recs = records(&out);
    assert_eq!(recs.len(), 3, "{recs:?}");
    assert!(recs[1].detail.contains("exit status: 5 (waiting for the answer to uli)"), "{}", recs[1].detail);
    assert!(replay(&out).status.success());
}

#[test]
fn a_refused_option_stops_the_match_and_is_logged() {
    let d = dir("refused");
    let picky = fake("picky", "'setoption name Hash value abc') echo 'info string error: bad value abc for Hash';;");
    let mut engine = picky.clone();
    engine.push("option.Hash=abc".to_owned());
    let stderr = fails(&[&quitter("other"), &engine], &format!("--log {}", d.display()), "picky");
    assert!(stderr.contains("refused its set-up: info string error: bad value abc for Hash"), "{stderr}");
    let log = std::fs::read_to_string(d.join("game-00001.log")).unwrap();
    assert!(log.contains("picky < info string error: bad value abc for Hash"), "{log}");
    assert!(log.contains("arena # the match stops: engine 'picky'"), "{log}");
}

#[test]
fn two_unnamed_engines_get_distinct_names() {
    let d = dir("names");
    let out = d.join("t.ljr");
    // Both are `sh`, neither with name=.
    let unnamed = |cases: &str| -> Vec<String> { fake("x", cases).into_iter().filter(|w| w != "name=x").collect() };
    let more = format!("--games 2 --movetime 50 --stall 2000 --quiet --out {}", out.display());
    let (run, _) = arena(&[&unnamed("go*) exit 3;;"), &unnamed("go*) exit 3;;")], &more);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert!(text(&run.stdout).starts_with("{\"engines\":[\"sh\",\"sh-2\"]"), "{}", text(&run.stdout));
    assert_eq!(records(&out)[0].names, ["sh", "sh-2"]);
}

#[test]
fn replay_of_a_game_that_is_not_in_the_file_fails() {
    let d = dir("replay-game");
    let out = d.join("t.ljr");
    let more = format!("--games 2 --movetime 50 --stall 2000 --quiet --out {}", out.display());
    let (run, _) = arena(&[&quitter("a"), &quitter("b")], &more);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let replayed = std::process::Command::new(ARENA).args(["replay", "--game", "99"]).arg(&out).output().unwrap();
    assert_eq!(replayed.status.code(), Some(1), "{}", text(&replayed.stdout));
    let stderr = text(&replayed.stderr);
    assert!(stderr.contains(&format!("no game 99 in {} (games 1-2)", out.display())), "{stderr}");
}

#[test]
fn a_flood_of_info_is_capped_in_the_log() {
    let d = dir("flood");
    // 5000 info lines and 300 stderr lines for its move, one error among them.
    let flood = fake(
        "flood",
        "go*) i=0; while [ $i -lt 5000 ]; do echo \"info depth $i nodes 1 score cp 0 pv a6\"; \
         [ $i -lt 300 ] && echo \"debug $i\" >&2; [ $i -eq 3000 ] && echo 'info string error: look'; \
         i=$((i+1)); done; echo 'bestmove a6';;",
    );
    let more = format!("--games 1 --movetime 5000 --stall 5000 --quiet --log {}", d.display());
    let (out, _) = arena(&[&flood, &quitter("other")], &more);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let log = std::fs::read_to_string(d.join("game-00001.log")).unwrap();
    let count = |what: &str| log.lines().filter(|l| l.contains(what)).count();
    assert!(log.len() < 40_000, "{} bytes", log.len());
    // The first 200, then the error (always logged) with the last 10 before
    // it, then the last 10 before the bestmove.
    assert_eq!(count("flood < info depth"), 200 + 10 + 10, "{log}");
    assert!(log.contains("# 2791 info lines (") && log.contains("# 1989 info lines ("), "{log}");
    assert_eq!(count("flood ! debug"), 200 + 10);
    assert!(log.contains("# 90 stderr lines ("), "{log}");
    assert!(log.contains("flood < info depth 4999 ") && log.contains("flood ! debug 299"), "{log}");
    assert!(log.contains("flood < info string error: look") && log.contains("flood < bestmove a6"), "{log}");
}

#[test]
fn a_reader_that_stops_early_ends_replay_quietly() {
    let d = dir("closed-stdout");
    let out = d.join("t.ljr");
    let more = format!("--games 2 --movetime 50 --stall 2000 --quiet --out {}", out.display());
    let (run, _) = arena(&[&quitter("a"), &quitter("b")], &more);
    assert!(run.status.success(), "{}", text(&run.stderr));
    // `arena replay --boards FILE | head -1`: the reader goes away at once.
    let mut child = std::process::Command::new(ARENA)
        .args(["replay", "--boards"])
        .arg(&out)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let done = child.wait_with_output().unwrap();
    let stderr = text(&done.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(done.status.success(), "{:?} {stderr}", done.status);
}
