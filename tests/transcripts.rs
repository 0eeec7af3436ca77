//! Golden transcripts: each `tests/transcripts/*.in` is piped into the real
//! binary and its output compared with the `.out` beside it. A GUI waits for
//! `bestmove` before its next command; so does this harness after a finite
//! `go` (and after `perft`/`bench` for their last line). Times and speeds
//! are masked (`time *`, `nps *`). Regenerate with `UPDATE_GOLDEN=1 cargo test --test transcripts`.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::Duration;

fn mask(line: &str) -> String {
    let mut out = Vec::new();
    let mut words = line.split(' ').peekable();
    let mut prev = "";
    while let Some(w) = words.next() {
        let masked = match prev {
            "time" | "nps" if w.bytes().all(|b| b.is_ascii_digit()) => "*",
            _ => w,
        };
        // `<N> nodes <M> nps`: the speed is the machine's.
        if words.peek() == Some(&"nps") && prev == "nodes" {
            out.push("*".to_owned());
        } else {
            out.push(masked.to_owned());
        }
        prev = w;
    }
    out.join(" ")
}

/// What a GUI waits for after sending `line` (an error line also ends the
/// wait). `searching` tracks whether a `go` is still owed its `bestmove`.
fn waits_for(line: &str, searching: &mut bool) -> Option<&'static str> {
    let w: Vec<&str> = line.split_whitespace().collect();
    match w.first() {
        Some(&"go") if w.get(1) == Some(&"setup") => None,
        Some(&"go") if w.contains(&"infinite") || w.contains(&"ponder") => {
            *searching = true;
            None
        }
        Some(&"go") => Some("bestmove"),
        Some(&"stop") | Some(&"ponderhit") if *searching => {
            *searching = false;
            Some("bestmove")
        }
        Some(&"perft") => Some("nodes"),
        Some(&"bench") => Some("nps"),
        _ => None,
    }
}

fn run(input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_luzhanqi"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut collected = Vec::new();
    {
        let mut stdin = child.stdin.take().expect("stdin");
        let mut searching = false;
        for line in input.lines() {
            let wait = waits_for(line, &mut searching);
            if wait.is_some() {
                // Barrier: everything sent so far has been answered before the
                // command whose answer we wait for (the injected readyok is dropped).
                writeln!(stdin, "isready").expect("engine reads");
                stdin.flush().expect("flush");
                loop {
                    let l = rx.recv_timeout(Duration::from_secs(60)).expect("engine answers");
                    if l == "readyok" {
                        break;
                    }
                    collected.push(l);
                }
            }
            writeln!(stdin, "{line}").expect("engine reads");
            stdin.flush().expect("flush");
            if let Some(until) = wait {
                loop {
                    let l = rx.recv_timeout(Duration::from_secs(60)).expect("engine answers");
                    let done = l.starts_with("info string error")
                        || if until == "nps" { l.ends_with(" nps") } else { l.starts_with(until) };
                    collected.push(l);
                    if done {
                        break;
                    }
                }
            }
        }
    }
    let status = child.wait().expect("engine exits");
    assert!(status.success(), "exit status {status}");
    reader.join().expect("reader");
    collected.extend(rx.try_iter());
    collected.iter().map(|l| mask(l)).collect::<Vec<_>>().join("\n") + "\n"
}

#[test]
fn golden_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut inputs: Vec<_> = std::fs::read_dir(&dir)
        .expect("transcripts dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "in"))
        .collect();
    inputs.sort();
    assert!(inputs.len() >= 6);
    let mut failures = Vec::new();
    for input in inputs {
        let text = std::fs::read_to_string(&input).expect("input");
        let got = run(&text);
        let expected_path = input.with_extension("out");
        if update {
            std::fs::write(&expected_path, &got).expect("write golden");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            failures.push(format!("{}:\n--- expected\n{expected}--- got\n{got}", input.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
