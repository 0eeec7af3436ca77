//! Golden adapter transcripts (ADAPTERS.md §5): `P>` platform line in,
//! `A<` adapter line out (exact), `E<` line the adapter must send to the
//! engine (in order, other lines allowed between), `E>` a scripted engine
//! reply. `<N>` in an `E<` line matches a number; `#` starts a comment.

#![allow(dead_code)]

/// One transcript event.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The platform writes this line.
    Platform(String),
    /// The adapter must write this line.
    Adapter(String),
    /// The adapter must send this line to the engine.
    ToEngine(String),
    /// The engine answers this line.
    FromEngine(String),
}

/// Parses a transcript, expanding `abbrev` pairs (`RED_FEN_LOG` …).
pub fn parse(text: &str, abbrev: &[(&str, &str)]) -> Vec<Event> {
    let mut out = Vec::new();
    for raw in text.lines() {
        let line = match raw.find("  #") {
            Some(i) => &raw[..i],
            None => raw,
        }
        .trim_end();
        let line = line.trim_start();
        if line.len() < 2 {
            continue;
        }
        let (tag, rest) = line.split_at(2);
        let mut rest = rest.strip_prefix(' ').unwrap_or(rest).replace("\\r", "\r");
        for (k, v) in abbrev {
            rest = rest.replace(k, v);
        }
        out.push(match tag {
            "P>" => Event::Platform(rest),
            "A<" => Event::Adapter(rest),
            "E<" => Event::ToEngine(rest),
            "E>" => Event::FromEngine(rest),
            _ => panic!("bad transcript line '{raw}'"),
        });
    }
    out
}

/// Whether `line` equals `pattern`, where `<R>`, `<B>` or `<N>` in the
/// pattern match a run of digits.
pub fn matches(pattern: &str, line: &str) -> bool {
    let pw: Vec<&str> = pattern.split(' ').collect();
    let lw: Vec<&str> = line.split(' ').collect();
    pw.len() == lw.len()
        && pw.iter().zip(&lw).all(|(p, l)| {
            if p.starts_with('<') && p.ends_with('>') && p.len() == 3 {
                !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit())
            } else {
                p == l
            }
        })
}

/// Checks that the `expected` lines occur in `sent` in order.
pub fn assert_subsequence(expected: &[String], sent: &[String]) {
    let mut at = 0;
    for e in expected {
        match sent[at..].iter().position(|s| matches(e, s)) {
            Some(i) => at += i + 1,
            None => panic!("the engine was not sent '{e}' (in order) among:\n{}", sent.join("\n")),
        }
    }
}
