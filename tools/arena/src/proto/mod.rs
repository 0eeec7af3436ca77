//! Host-side adapters: an engine that speaks the CCGC platform protocol
//! ([`ccgc`]) or the CS4500 referee protocol ([`cs4500`]) presented to the
//! arena as a ULI engine (`--engine proto=ccgc cmd=...`). They run in the
//! arena's process, between the arena's ULI lines and the foreign
//! engine's pipes, and use the library's mappings
//! ([`luzhanqi::adapter`]): one mapping in the codebase.

pub mod ccgc;
pub mod cs4500;

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use luzhanqi::protocol::Command;
use luzhanqi::{Colour, Position, Rules, Token};

/// The protocol an engine speaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Proto {
    /// ULI (ours): no adapter.
    #[default]
    Uli,
    /// The CCGC 军棋 platform protocol.
    Ccgc,
    /// The same as the 2019 platform speaks it: `INFORMATION 1.0`, lines
    /// ending in CRLF.
    Ccgc2019,
    /// The NEU CS4500 referee protocol.
    Cs4500,
}

impl std::str::FromStr for Proto {
    type Err = String;

    fn from_str(s: &str) -> Result<Proto, String> {
        match s {
            "uli" => Ok(Proto::Uli),
            "ccgc" => Ok(Proto::Ccgc),
            "ccgc2019" => Ok(Proto::Ccgc2019),
            "cs4500" => Ok(Proto::Cs4500),
            _ => Err(format!("proto={s}: expected uli, ccgc, ccgc2019 or cs4500")),
        }
    }
}

/// The pipes to a foreign engine: lines written, output read as it comes
/// (CS4500 players often end nothing with a newline).
pub trait Link: Send {
    /// Writes one line (`\n`-terminated) and flushes; `false` if it failed.
    fn write_line(&mut self, line: &str) -> bool;
    /// Output bytes read before `deadline`; `None` on timeout, an empty
    /// chunk when the output closed.
    fn read(&mut self, deadline: Instant) -> Option<Vec<u8>>;
    /// Closes stdin, waits up to `grace` for the process to exit, then kills it.
    fn close(&mut self, grace: Duration);
}

/// Starts a foreign engine with extra arguments: a [`Link`] or why not.
pub type Spawner = Box<dyn FnMut(&[String]) -> Result<Box<dyn Link>, String> + Send>;

/// Where an adapter's remarks go (the game log): a line of text.
pub type Remark = Box<dyn Fn(&str) + Send>;

/// A child process as a [`Link`].
pub struct ProcessLink {
    child: Child,
    stdin: Option<ChildStdin>,
    chunks: Receiver<Vec<u8>>,
}

impl ProcessLink {
    /// Starts `cmd args extra` in `dir`; its stderr goes line by line to `stderr`.
    ///
    /// # Errors
    /// The process cannot be started.
    pub fn spawn(
        cmd: &str,
        args: &[String],
        dir: Option<&std::path::Path>,
        stderr: std::sync::Arc<dyn Fn(&str) + Send + Sync>,
    ) -> Result<ProcessLink, String> {
        let mut p = Process::new(cmd);
        p.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(d) = dir {
            p.current_dir(d);
        }
        let mut child = p.spawn().map_err(|e| format!("{cmd}: {e}"))?;
        let (Some(stdin), Some(mut stdout), Some(err)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err("no pipes".to_owned());
        };
        let (tx, chunks) = channel();
        let out = std::thread::Builder::new().name(format!("{cmd} stdout")).spawn(move || {
            let mut buf = [0u8; 4096];
            loop {
                match stdout.read(&mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Vec::new());
                        return;
                    }
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let errs = std::thread::Builder::new().name(format!("{cmd} stderr")).spawn(move || {
            use std::io::BufRead;
            let mut r = std::io::BufReader::new(err);
            let mut line = Vec::new();
            while r.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                stderr(String::from_utf8_lossy(&line).trim_end());
                line.clear();
            }
        });
        if out.is_err() || errs.is_err() {
            let _ = child.kill();
            return Err("cannot start a reader thread".to_owned());
        }
        Ok(ProcessLink { child, stdin: Some(stdin), chunks })
    }
}

impl Link for ProcessLink {
    fn write_line(&mut self, line: &str) -> bool {
        let Some(stdin) = self.stdin.as_mut() else { return false };
        writeln!(stdin, "{line}").and_then(|()| stdin.flush()).is_ok()
    }

    fn read(&mut self, deadline: Instant) -> Option<Vec<u8>> {
        match self.chunks.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(c) => Some(c),
            Err(RecvTimeoutError::Disconnected) => Some(Vec::new()),
            Err(RecvTimeoutError::Timeout) => None,
        }
    }

    fn close(&mut self, grace: Duration) {
        self.stdin = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ProcessLink {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A scripted foreign engine for tests: records the lines written to it
/// and answers each read with the next chunk.
pub struct ScriptLink {
    /// The lines written, shared with the test.
    pub written: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    chunks: std::collections::VecDeque<Vec<u8>>,
}

impl ScriptLink {
    /// A link that will answer with `chunks` in order, then time out.
    pub fn new(chunks: &[&[u8]], written: std::sync::Arc<std::sync::Mutex<Vec<String>>>) -> ScriptLink {
        ScriptLink { written, chunks: chunks.iter().map(|c| c.to_vec()).collect() }
    }
}

impl Link for ScriptLink {
    fn write_line(&mut self, line: &str) -> bool {
        self.written.lock().unwrap_or_else(|e| e.into_inner()).push(line.to_owned());
        true
    }

    fn read(&mut self, _deadline: Instant) -> Option<Vec<u8>> {
        self.chunks.pop_front()
    }

    fn close(&mut self, _grace: Duration) {
        self.written.lock().unwrap_or_else(|e| e.into_inner()).push("<closed>".to_owned());
    }
}

/// How long a foreign engine may take for what needs no thought (its
/// NAME, its deployment) before the adapter gives up.
pub const FOREIGN_WAIT: Duration = Duration::from_secs(10);
/// How long a foreign engine has to exit after its stdin closed.
pub const EXIT_GRACE: Duration = Duration::from_secs(1);

/// A host-side adapter: ULI lines in, ULI lines out.
pub trait Host: Send {
    /// Handles one ULI line from the arena; returns the ULI answers.
    /// After `quit` the adapter has closed its engine.
    fn handle(&mut self, line: &str) -> Vec<String>;
}

/// The game as the arena tells it: the start and the history, replayed.
pub(crate) struct Told {
    pub view: Position,
    pub history: Vec<Token>,
}

impl Told {
    /// Replays `position ...` under `rules`.
    pub fn from_command(cmd: &Command, rules: Rules) -> Result<Told, String> {
        let Command::Position { start, moves } = cmd else { return Err("not a position".into()) };
        let mut view = match start {
            luzhanqi::protocol::PositionStart::StartPos => return Err("position startpos has no deployment".into()),
            luzhanqi::protocol::PositionStart::Fen(setup) => {
                Position::from_setup(setup, rules).map_err(|e| e.to_string())?
            }
        };
        for t in moves {
            view.apply_token(*t).map_err(|e| format!("{t}: {e}"))?;
        }
        Ok(Told { view, history: moves.clone() })
    }
}

/// The plies of `tokens`, each with the reveals that follow it, and the
/// mover's colour (Red moves first; reveals are no plies).
pub(crate) fn plies(tokens: &[Token]) -> Vec<(Colour, Token, Vec<Token>)> {
    let mut out: Vec<(Colour, Token, Vec<Token>)> = Vec::new();
    let mut mover = Colour::Red;
    for t in tokens {
        match t {
            Token::Show { .. } if !out.is_empty() => {
                if let Some(last) = out.last_mut() {
                    last.2.push(*t);
                }
            }
            _ => {
                out.push((mover, *t, Vec::new()));
                mover = mover.opposite();
            }
        }
    }
    out
}

/// `bestmove` for an action from `from` to `to` of the engine of `colour`
/// in `view`: `x` when the destination holds an enemy piece.
pub(crate) fn bestmove(view: &Position, colour: Colour, from: luzhanqi::Point, to: luzhanqi::Point) -> String {
    let sep = if view.colour_at(to) == Some(colour.opposite()) { 'x' } else { '-' };
    format!("bestmove {from}{sep}{to}")
}
