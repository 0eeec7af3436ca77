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
        Some(&"d") if w.len() == 1 => Some("end"),
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
                        || match until {
                            "nps" => l.ends_with(" nps"),
                            "end" => l == "end",
                            _ => l.starts_with(until),
                        };
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

/// One documented exchange: the lines sent, and the lines expected back
/// in order, `None` where the document leaves lines out (`...`).
struct Example {
    source: String,
    input: String,
    expected: Vec<Option<String>>,
}

/// The exchanges of protocol.md (code blocks with `> ` lines sent and
/// `< ` lines answered; indented lines are narration) and the README's
/// example session (a block opened by `$ cargo run --release`: a line that
/// parses as a command is sent, any other is answered; `...` leaves lines
/// out, and an answer's text after a run of spaces is a comment).
fn documented_examples() -> Vec<Example> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut examples = Vec::new();
    for doc in ["protocol.md", "README.md"] {
        let text = std::fs::read_to_string(root.join(doc)).expect("doc");
        let mut block: Option<Vec<&str>> = None;
        let mut n = 0;
        for line in text.lines() {
            if line.starts_with("```") {
                match block.take() {
                    Some(lines) => {
                        n += 1;
                        if let Some(e) = example_of(&lines, format!("{doc} block {n}")) {
                            examples.push(e);
                        }
                    }
                    None => block = Some(Vec::new()),
                }
                continue;
            }
            if let Some(b) = block.as_mut() {
                b.push(line);
            }
        }
    }
    examples
}

fn example_of(lines: &[&str], source: String) -> Option<Example> {
    let quoted = lines.iter().any(|l| l.starts_with("> "));
    let session = lines.first() == Some(&"$ cargo run --release");
    if !quoted && !session {
        return None;
    }
    let mut input = String::new();
    let mut expected = Vec::new();
    for line in lines {
        let (sent, answer) = if quoted {
            match (line.strip_prefix("> "), line.strip_prefix("< ")) {
                (Some(s), _) => (Some(s), None),
                (_, Some(a)) => (None, Some(a)),
                _ => (None, None),
            }
        } else if line.starts_with('$') {
            (None, None)
        } else if luzhanqi::protocol::parse_command(line).is_ok() {
            (Some(*line), None)
        } else {
            (None, Some(line.split("   ").next().unwrap_or(line).trim_end()))
        };
        if let Some(s) = sent {
            input.push_str(s);
            input.push('\n');
        }
        match answer {
            Some(a) if a.starts_with("...") || a == "info ..." => {
                if a == "info ..." {
                    // `info ...`: one or more info lines.
                    expected.push(Some("info".to_owned()));
                }
                expected.push(None);
            }
            Some(a) => expected.push(Some(mask(a))),
            None => {}
        }
    }
    Some(Example { source, input, expected })
}

/// Whether `got` holds the `expected` lines in order, consecutive except
/// where a `None` leaves lines out; `Some("info")` matches any `info` line
/// with search figures.
fn matches(expected: &[Option<String>], got: &[&str]) -> Result<(), String> {
    let mut at = 0;
    let mut gap = false;
    for e in expected {
        let Some(e) = e else {
            gap = true;
            continue;
        };
        let fits = |l: &str| if e == "info" { l.starts_with("info depth") } else { l == e };
        loop {
            match got.get(at) {
                Some(l) if fits(l) => break,
                Some(_) if gap => at += 1,
                Some(l) => return Err(format!("expected '{e}', got '{l}' (line {})", at + 1)),
                None => return Err(format!("expected '{e}', the output ended")),
            }
        }
        at += 1;
        gap = false;
    }
    Ok(())
}

#[test]
fn readme_and_protocol_examples() {
    let examples = documented_examples();
    let sources: Vec<&str> = examples.iter().map(|e| e.source.as_str()).collect();
    assert!(examples.len() >= 3, "{sources:?}");
    let mut failures = Vec::new();
    for e in &examples {
        let got = run(&e.input);
        let lines: Vec<&str> = got.lines().collect();
        if let Err(why) = matches(&e.expected, &lines) {
            failures.push(format!("{}: {why}\n--- got\n{got}", e.source));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The README's session saved to a file and piped in whole, as
/// `luzhanqi < session.txt` does (no waiting for answers): the same lines.
#[test]
fn the_readme_session_piped_from_a_file() {
    let session = documented_examples().into_iter().find(|e| e.source.starts_with("README.md")).expect("a session");
    let file = std::env::temp_dir().join(format!("luzhanqi-session-{}.txt", std::process::id()));
    std::fs::write(&file, &session.input).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_luzhanqi"))
        .stdin(std::fs::File::open(&file).expect("open"))
        .stderr(Stdio::null())
        .output()
        .expect("engine runs");
    let _ = std::fs::remove_file(&file);
    assert!(out.status.success());
    let got: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(mask).collect();
    let got: Vec<&str> = got.iter().map(String::as_str).collect();
    if let Err(why) = matches(&session.expected, &got) {
        panic!("{why}\n--- got\n{}", got.join("\n"));
    }
    assert!(got.last().is_some_and(|l| l.starts_with("bestmove ")), "{got:?}");
}

#[test]
fn example_matching_can_fail() {
    let want = |v: &[&str]| v.iter().map(|s| (*s != "...").then(|| s.to_string())).collect::<Vec<_>>();
    assert!(matches(&want(&["a", "...", "c"]), &["a", "b", "c"]).is_ok());
    assert!(matches(&want(&["a", "c"]), &["a", "b", "c"]).is_err());
    assert!(matches(&want(&["a", "b"]), &["a"]).is_err());
    assert!(matches(&want(&["b", "a"]), &["a", "b"]).is_err());
}

/// Every file a document links to or names as `*.md` is in the repository
/// (the README once cited a RULES.md that was not).
#[test]
fn documents_cite_files_of_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for doc in ["README.md", "protocol.md", "tools/arena/README.md"] {
        let text = std::fs::read_to_string(root.join(doc)).expect("doc");
        let base = root.join(doc).parent().expect("dir").to_path_buf();
        for (i, _) in text.match_indices("](") {
            let target = &text[i + 2..];
            let target = &target[..target.find(')').unwrap_or(0)];
            let file = target.split('#').next().unwrap_or("");
            if file.is_empty() || file.contains("://") {
                continue;
            }
            assert!(base.join(file).exists(), "{doc} links to {file}, which is not in the repository");
        }
        for (i, _) in text.match_indices(".md`") {
            let start = text[..i].rfind('`').map_or(i, |s| s + 1);
            let name = &text[start..i + 3];
            if name.contains(' ') || name.contains('*') {
                continue;
            }
            let found = base.join(name).exists() || root.join(name).exists();
            assert!(found, "{doc} names {name}, which is not in the repository");
        }
    }
}
