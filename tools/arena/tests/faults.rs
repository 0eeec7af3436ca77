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
    let crash = fake("crash", "go*) exec >&-; sleep 0.3; exit 3;;");
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
