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
