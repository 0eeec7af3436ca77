//! An engine process: how it is described on the command line, started,
//! spoken to and read from with deadlines, logged and stopped.
//!
//! Two threads per process drain its stdout (into a channel, each line
//! with the instant it arrived) and its stderr (into the game log, if any),
//! so that a chatty or stuck engine never blocks the arena.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::{Child, Command as Process, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use luzhanqi::protocol::{Command, Response, parse_response};

use crate::clock::Limits;

/// One engine as given with `--engine`: `name=N cmd=PATH [arg=A]... [dir=D]
/// [option.NAME=VALUE]... [tc=.. movetime=.. nodes=.. depth=..]`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct EngineSpec {
    /// Name in records and reports.
    pub name: String,
    /// The program.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory.
    pub dir: Option<PathBuf>,
    /// `setoption` pairs sent after the arena's own (`Variant`, rule toggles).
    pub options: Vec<(String, String)>,
    /// Limits for this engine only, overriding the match's.
    pub limits: Option<Limits>,
    /// The protocol it speaks (`proto=ccgc|cs4500`: run behind a host-side
    /// adapter of [`crate::proto`]).
    pub proto: crate::proto::Proto,
}

impl EngineSpec {
    /// Reads the `key=value` words of one `--engine`.
    ///
    /// # Errors
    /// A message for a word that is not `key=value`, an unknown key, a bad
    /// limit or a missing `cmd`.
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec::default();
        let mut limits = Limits::default();
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| format!("--engine: '{w}' is not key=value"))?;
            match k {
                "name" => spec.name = v.to_owned(),
                "cmd" => spec.cmd = v.to_owned(),
                "arg" => spec.args.push(v.to_owned()),
                "dir" => spec.dir = Some(PathBuf::from(v)),
                "proto" => spec.proto = v.parse()?,
                _ if k.starts_with("option.") => spec.options.push((k["option.".len()..].to_owned(), v.to_owned())),
                _ => {
                    if !limits.set(k, v)? {
                        return Err(format!(
                            "--engine: unknown key '{k}' (name, cmd, arg, dir, proto, option.NAME, tc, movetime, nodes, depth)"
                        ));
                    }
                }
            }
        }
        if spec.cmd.is_empty() {
            return Err("--engine: cmd=PATH is required".to_owned());
        }
        if spec.name.is_empty() {
            let stem = std::path::Path::new(&spec.cmd).file_stem().map(|s| s.to_string_lossy().into_owned());
            spec.name = stem.unwrap_or_else(|| spec.cmd.clone());
        }
        if !limits.is_empty() {
            spec.limits = Some(limits);
        }
        Ok(spec)
    }

    /// Reads the two `--engine`s of a match, which must have distinct
    /// names: when their names are the same and one of them was not given
    /// with `name=` (it is its command's), that one (the second, if
    /// neither was) is renamed `<name>-2`.
    ///
    /// # Errors
    /// What [`EngineSpec::parse`] refuses, and two engines both given the
    /// same `name=`.
    pub fn parse_pair(first: &[String], second: &[String]) -> Result<[EngineSpec; 2], String> {
        let specs = EngineSpec::parse_all(&[first.to_vec(), second.to_vec()])?;
        <[EngineSpec; 2]>::try_from(specs).map_err(|_| "two engines".to_owned())
    }

    /// Reads the `--engine`s of a match, giving them distinct names: the
    /// engines given a `name=` keep it; an engine named after its command
    /// whose name is taken becomes `<name>-2` (or `-3`, ...).
    ///
    /// # Errors
    /// What [`EngineSpec::parse`] refuses, and two engines both given the
    /// same `name=`.
    pub fn parse_all(groups: &[Vec<String>]) -> Result<Vec<EngineSpec>, String> {
        let mut specs = groups.iter().map(|g| EngineSpec::parse(g)).collect::<Result<Vec<_>, _>>()?;
        let named: Vec<bool> = groups.iter().map(|g| g.iter().any(|w| w.starts_with("name="))).collect();
        let mut taken: Vec<String> = Vec::new();
        for (spec, _) in specs.iter().zip(&named).filter(|(_, n)| **n) {
            if taken.contains(&spec.name) {
                let who = if groups.len() == 2 { "both" } else { "two" };
                return Err(format!("{who} engines are named '{}': give them different name=", spec.name));
            }
            taken.push(spec.name.clone());
        }
        for (spec, _) in specs.iter_mut().zip(&named).filter(|(_, n)| !**n) {
            if taken.contains(&spec.name) {
                let k = (2..).find(|k| !taken.contains(&format!("{}-{k}", spec.name))).unwrap_or(2);
                spec.name = format!("{}-{k}", spec.name);
            }
            taken.push(spec.name.clone());
        }
        Ok(specs)
    }

    /// Whether the user set option `name` (matched without regard to case).
    pub fn sets_option(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
    }
}

/// Why talking to an engine failed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EngineError {
    /// It could not be started.
    Spawn(String),
    /// It exited or closed its pipes.
    Crashed(String),
    /// It did not answer in time.
    Stalled(String),
    /// It answered a `setoption` of its set-up with `info string error`:
    /// it does not play with the settings asked for.
    Refused(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(m) => write!(f, "cannot start: {m}"),
            EngineError::Crashed(m) => write!(f, "crashed: {m}"),
            EngineError::Stalled(m) => write!(f, "stalled: {m}"),
            EngineError::Refused(m) => write!(f, "refused its set-up: {m}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// A log of one game's protocol exchange and engine stderr, shared by both
/// engines; each line carries the milliseconds since the game started.
#[derive(Clone)]
pub struct GameLog {
    out: Arc<Mutex<BufWriter<File>>>,
    start: Instant,
}

impl GameLog {
    /// Creates the log file.
    ///
    /// # Errors
    /// The error of creating the file.
    pub fn create(path: &std::path::Path) -> std::io::Result<GameLog> {
        Ok(GameLog { out: Arc::new(Mutex::new(BufWriter::new(File::create(path)?))), start: Instant::now() })
    }

    /// Writes `<ms> <who> <dir> <line>`; `dir` is `>` to the engine, `<`
    /// from it, `!` its stderr, `#` the arena's remarks.
    pub fn line(&self, who: &str, dir: char, text: &str) {
        let ms = self.start.elapsed().as_millis();
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{ms:>8} {who} {dir} {text}");
        }
    }

    /// Flushes the file.
    pub fn flush(&self) {
        if let Ok(mut out) = self.out.lock() {
            let _ = out.flush();
        }
    }
}

/// `text`, cut at [`LOG_LINE_MAX`] bytes with how many more there were.
fn cut(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() <= LOG_LINE_MAX {
        return text.into();
    }
    let mut at = LOG_LINE_MAX;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    format!("{}... ({} more bytes)", &text[..at], text.len() - at).into()
}

/// Lines of `info` (other than `info string error`) and, separately, of
/// stderr that an engine's log keeps after each command the arena sends it
/// (for a `go`: per move); the rest are counted in one `# ... left out`
/// remark.
pub const LOG_LINES_PER_COMMAND: u64 = 200;

/// Bytes of such lines kept after each command.
pub const LOG_BYTES_PER_COMMAND: u64 = 64 * 1024;

/// Of the lines left out, the log keeps the last ones (written after the
/// `left out` remark): the last `info` of a search, a panic on stderr.
pub const LOG_TAIL_LINES: usize = 10;

/// Longer lines are cut in the log (`... (N more bytes)`), whatever they are.
pub const LOG_LINE_MAX: usize = 4096;

/// The game log an engine's lines go to, and what it kept of its output
/// since the arena last sent it a command: `[stdout info, stderr]`.
#[derive(Default)]
struct LogState {
    log: Option<GameLog>,
    kept: [(u64, u64); 2],
    left_out: [(u64, u64); 2],
    /// The last lines left out, by stream.
    tail: [std::collections::VecDeque<(String, u64)>; 2],
}

/// Where a line of the engine's output goes in the log.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    /// Always logged (`bestmove`, `readyok`, errors, ...).
    Kept,
    /// Logged within the per-command budget: 0 `info`, 1 stderr.
    Capped(usize),
}

impl LogState {
    /// Writes a line, cut at [`LOG_LINE_MAX`] bytes.
    fn write(&self, who: &str, dir: char, text: &str) {
        if let Some(log) = &self.log {
            log.line(who, dir, &cut(text));
        }
    }

    /// Writes the `left out` remarks of the lines dropped so far.
    fn report_left_out(&mut self, who: &str) {
        for (stream, what, dir) in [(0, "info lines", '<'), (1, "stderr lines", '!')] {
            let (lines, bytes) = std::mem::take(&mut self.left_out[stream]);
            let tail = std::mem::take(&mut self.tail[stream]);
            if lines > 0 {
                let (shown, shown_bytes) = (tail.len() as u64, tail.iter().map(|l| l.1).sum::<u64>());
                let remark = format!(
                    "{} {what} ({} bytes) left out (the log keeps {LOG_LINES_PER_COMMAND} lines or \
                     {LOG_BYTES_PER_COMMAND} bytes after each command), then the last {shown} of them",
                    lines - shown,
                    bytes - shown_bytes
                );
                self.write(who, '#', &remark);
                for (line, _) in &tail {
                    self.write(who, dir, line);
                }
            }
        }
    }

    /// Logs a line the engine sent, within its budget.
    fn output(&mut self, who: &str, dir: char, text: &str, kind: Output) {
        match kind {
            Output::Kept => {
                self.report_left_out(who);
                self.write(who, dir, text);
            }
            Output::Capped(stream) => {
                let (lines, bytes) = &mut self.kept[stream];
                let size = text.len() as u64 + 1;
                if *lines < LOG_LINES_PER_COMMAND && *bytes + size <= LOG_BYTES_PER_COMMAND {
                    (*lines, *bytes) = (*lines + 1, *bytes + size);
                    self.write(who, dir, text);
                } else {
                    let (n, b) = &mut self.left_out[stream];
                    (*n, *b) = (*n + 1, *b + size);
                    let tail = &mut self.tail[stream];
                    if tail.len() == LOG_TAIL_LINES {
                        tail.pop_front();
                    }
                    tail.push_back((cut(text).into_owned(), size));
                }
            }
        }
    }

    /// Before a command is sent: the budgets start afresh.
    fn command(&mut self, who: &str) {
        self.report_left_out(who);
        self.kept = [(0, 0); 2];
    }
}

type LogSlot = Arc<Mutex<LogState>>;

fn log_to(slot: &LogSlot, who: &str, dir: char, text: &str) {
    if let Ok(state) = slot.lock() {
        state.write(who, dir, text);
    }
}

/// Logs a line of the engine's output, within the budget of its kind.
fn log_output(slot: &LogSlot, who: &str, dir: char, text: &str) {
    let kind = if dir == '!' {
        Output::Capped(1)
    } else if text.starts_with("info") && !(text.contains("error:") && parse_response(text).is_ok_and(|r| r.is_error()))
    {
        Output::Capped(0)
    } else {
        Output::Kept
    };
    if let Ok(mut state) = slot.lock() {
        state.output(who, dir, text, kind);
    }
}

/// What the stdout thread passes on.
enum Event {
    Line(String, Instant),
    Closed,
}

/// A running engine.
pub struct Engine {
    spec: EngineSpec,
    /// The process, or `None` when a host-side adapter thread runs it.
    child: Option<Child>,
    stdin: Box<dyn Write + Send>,
    /// The host-side adapter's thread, for a CCGC or CS4500 engine.
    adapter: Option<std::thread::JoinHandle<()>>,
    events: Receiver<Event>,
    log: LogSlot,
    /// Set once its output closed: how the process ended.
    closed: Option<String>,
    /// Set once [`Engine::shutdown`] ran.
    finished: bool,
    /// Option names announced after `uli`.
    pub announced: Vec<String>,
    /// `id name`, if sent.
    pub id_name: Option<String>,
}

impl Engine {
    /// Starts the program and completes the handshake (`uli` ... `uliok`)
    /// within `timeout`, writing the exchange into `log` (which stays
    /// attached).
    ///
    /// # Errors
    /// [`EngineError`] when the program cannot be started, exits, or does
    /// not answer in time.
    pub fn start(spec: &EngineSpec, timeout: Duration, log: Option<GameLog>) -> Result<Engine, EngineError> {
        if spec.proto != crate::proto::Proto::Uli {
            return Engine::start_adapted(spec, timeout, log);
        }
        let mut process = Process::new(&spec.cmd);
        process.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            process.current_dir(dir);
        }
        let mut child = process.spawn().map_err(|e| EngineError::Spawn(format!("{}: {e}", spec.cmd)))?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(EngineError::Spawn("no pipes".to_owned()));
        };
        let log: LogSlot = Arc::new(Mutex::new(LogState { log, ..LogState::default() }));
        let (tx, events) = channel();
        let (name, slot) = (spec.name.clone(), Arc::clone(&log));
        let spawned = std::thread::Builder::new().name(format!("{name} stdout")).spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                log_output(&slot, &name, '<', &line);
                if tx.send(Event::Line(line, Instant::now())).is_err() {
                    return;
                }
            }
            log_output(&slot, &name, '#', "stdout closed");
            let _ = tx.send(Event::Closed);
        });
        let (name, slot) = (spec.name.clone(), Arc::clone(&log));
        let spawned_err = std::thread::Builder::new().name(format!("{name} stderr")).spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                log_output(&slot, &name, '!', &line);
            }
        });
        if let Err(e) = spawned.and(spawned_err) {
            let _ = child.kill();
            return Err(EngineError::Spawn(format!("cannot start a reader thread: {e}")));
        }
        Engine::connect(spec, Some(child), Box::new(BufWriter::new(stdin)), None, events, log, timeout)
    }

    /// Starts a CCGC or CS4500 engine behind a host-side adapter running
    /// on its own thread: the arena's ULI lines go to the adapter, its
    /// answers come back as the engine's lines; the foreign process's
    /// stderr and the adapter's exchange with it (`X<`, `X>`) go to the log.
    fn start_adapted(spec: &EngineSpec, timeout: Duration, log: Option<GameLog>) -> Result<Engine, EngineError> {
        use crate::proto::{Host, Link, ProcessLink, Proto, ccgc::CcgcHost, cs4500::Cs4500Host};
        let log: LogSlot = Arc::new(Mutex::new(LogState { log, ..LogState::default() }));
        let (name, slot) = (spec.name.clone(), Arc::clone(&log));
        let stderr: Arc<dyn Fn(&str) + Send + Sync> = Arc::new(move |line: &str| log_output(&slot, &name, '!', line));
        let (cmd, args, dir) = (spec.cmd.clone(), spec.args.clone(), spec.dir.clone());
        let spawn: crate::proto::Spawner = Box::new(move |extra: &[String]| {
            let all: Vec<String> = args.iter().chain(extra).cloned().collect();
            ProcessLink::spawn(&cmd, &all, dir.as_deref(), Arc::clone(&stderr)).map(|l| Box::new(l) as Box<dyn Link>)
        });
        let (name, slot) = (spec.name.clone(), Arc::clone(&log));
        let remark: crate::proto::Remark = Box::new(move |text: &str| log_to(&slot, &name, '#', text));
        let mut host: Box<dyn Host> = match spec.proto {
            Proto::Ccgc => Box::new(CcgcHost::new(spawn, remark, "INFO")),
            Proto::Ccgc2019 => Box::new(CcgcHost::new(spawn, remark, "INFORMATION").crlf()),
            Proto::Cs4500 | Proto::Uli => Box::new(Cs4500Host::new(spawn, remark)),
        };
        let (tx, events) = channel();
        let (lines_tx, lines_rx) = channel::<String>();
        let (name, slot) = (spec.name.clone(), Arc::clone(&log));
        let adapter = std::thread::Builder::new()
            .name(format!("{name} adapter"))
            .spawn(move || {
                for line in lines_rx {
                    let quit = line.trim() == "quit";
                    for answer in host.handle(&line) {
                        log_output(&slot, &name, '<', &answer);
                        if tx.send(Event::Line(answer, Instant::now())).is_err() {
                            return;
                        }
                    }
                    if quit {
                        break;
                    }
                }
                drop(host);
                let _ = tx.send(Event::Closed);
            })
            .map_err(|e| EngineError::Spawn(format!("cannot start the adapter thread: {e}")))?;
        let stdin = Box::new(LineSender { tx: lines_tx, buf: Vec::new() });
        Engine::connect(spec, None, stdin, Some(adapter), events, log, timeout)
    }

    /// The engine of a started process or adapter thread, after its
    /// handshake (both ways of starting end here).
    fn connect(
        spec: &EngineSpec,
        child: Option<Child>,
        stdin: Box<dyn Write + Send>,
        adapter: Option<std::thread::JoinHandle<()>>,
        events: Receiver<Event>,
        log: LogSlot,
        timeout: Duration,
    ) -> Result<Engine, EngineError> {
        let mut engine = Engine {
            spec: spec.clone(),
            child,
            stdin,
            adapter,
            events,
            log,
            closed: None,
            finished: false,
            announced: Vec::new(),
            id_name: None,
        };
        engine.handshake(timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send(&Command::Uli)?;
        let deadline = Instant::now() + timeout;
        loop {
            let (line, _) = self.recv(deadline).map_err(|e| e.during("uli"))?;
            match parse_response(&line) {
                Ok(Response::UliOk) => return Ok(()),
                Ok(Response::Option(spec)) => self.announced.push(spec.name),
                Ok(Response::IdName(n)) => self.id_name = Some(n),
                _ => {}
            }
        }
    }

    /// The engine's description.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The name used in records.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// Whether the engine announced option `name` (without regard to case).
    pub fn has_option(&self, name: &str) -> bool {
        self.announced.iter().any(|n| n.eq_ignore_ascii_case(name))
    }

    /// Sends the log of the current game (or none) to this engine's lines.
    pub fn set_log(&self, log: Option<GameLog>) {
        if let Ok(mut state) = self.log.lock() {
            state.report_left_out(&self.spec.name);
            state.log = log;
        }
    }

    /// Writes a remark into the game log.
    pub fn remark(&self, text: &str) {
        log_to(&self.log, &self.spec.name, '#', text);
    }

    /// Sends one command line.
    ///
    /// # Errors
    /// [`EngineError::Crashed`] when the pipe is closed.
    pub fn send(&mut self, cmd: &Command) -> Result<(), EngineError> {
        self.send_line(&cmd.to_string())
    }

    /// Sends one raw line.
    ///
    /// # Errors
    /// [`EngineError::Crashed`] when the pipe is closed.
    pub fn send_line(&mut self, line: &str) -> Result<(), EngineError> {
        if let Ok(mut state) = self.log.lock() {
            state.command(&self.spec.name);
            state.write(&self.spec.name, '>', line);
        }
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        if let Err(e) = sent {
            let status = self.exit_text();
            self.closed = Some(status.clone());
            return Err(EngineError::Crashed(format!("{status} (writing '{line}' failed: {e})")));
        }
        Ok(())
    }

    /// The next line from the engine and when it arrived, waiting until
    /// `deadline` at most.
    ///
    /// # Errors
    /// [`EngineError::Stalled`] at the deadline, [`EngineError::Crashed`]
    /// when the engine's output is closed.
    pub fn recv(&mut self, deadline: Instant) -> Result<(String, Instant), EngineError> {
        if let Some(status) = &self.closed {
            return Err(EngineError::Crashed(status.clone()));
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(Event::Line(line, at)) => Ok((line, at)),
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                let status = self.exit_text();
                self.closed = Some(status.clone());
                Err(EngineError::Crashed(status))
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Stalled("no answer in time".to_owned())),
        }
    }

    /// Sends `isready` and waits for `readyok`, dropping every line before
    /// it (such as the `bestmove` of a search that was stopped).
    ///
    /// # Errors
    /// [`EngineError`] when the engine does not answer within `timeout`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.sync_errors(timeout).map(drop)
    }

    /// [`Engine::sync`], returning the `info string error` lines that came
    /// before `readyok` (the engine's answers to the commands before it).
    ///
    /// # Errors
    /// [`EngineError`] when the engine does not answer within `timeout`.
    pub fn sync_errors(&mut self, timeout: Duration) -> Result<Vec<String>, EngineError> {
        self.send(&Command::IsReady)?;
        let deadline = Instant::now() + timeout;
        let mut errors = Vec::new();
        loop {
            let (line, _) = self.recv(deadline).map_err(|e| e.during("isready"))?;
            if line.trim() == "readyok" {
                return Ok(errors);
            }
            if parse_response(&line).is_ok_and(|r| r.is_error()) {
                errors.push(line.trim().to_owned());
            }
        }
    }

    /// Sends `setoption name N value V`.
    ///
    /// # Errors
    /// [`EngineError::Crashed`] when the pipe is closed.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&Command::SetOption { name: name.to_owned(), value: Some(value.to_owned()) })
    }
}

impl EngineError {
    /// The same error, saying what the arena was waiting for.
    pub fn during(self, what: &str) -> EngineError {
        match self {
            EngineError::Spawn(m) => EngineError::Spawn(m),
            EngineError::Refused(m) => EngineError::Refused(m),
            EngineError::Crashed(m) => EngineError::Crashed(format!("{m} (waiting for the answer to {what})")),
            EngineError::Stalled(_) => EngineError::Stalled(format!("no answer to {what} in time")),
        }
    }
}

/// How long a process whose output closed is given to exit, so that a
/// crash's detail can say how it ended.
pub const EXIT_WAIT: Duration = Duration::from_secs(1);

/// How long an engine asked to `quit` is given before it is killed.
pub const QUIT_WAIT: Duration = Duration::from_millis(300);

impl Engine {
    /// How the process ended (`exit status: 3`, `signal: 9 (SIGKILL)`),
    /// waiting up to [`EXIT_WAIT`] for it to exit.
    fn exit_text(&mut self) -> String {
        let until = Instant::now() + EXIT_WAIT;
        let Some(child) = self.child.as_mut() else {
            return format!("its {:?} adapter stopped (the engine behind it exited or failed)", self.spec.proto);
        };
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                Ok(None) => {
                    return format!("its output closed, but it was still running {} ms later", EXIT_WAIT.as_millis());
                }
                Err(e) => return format!("its output closed (its exit status is unknown: {e})"),
            }
        }
    }

    /// Ends the process: asks it to `quit`, gives it [`QUIT_WAIT`], then
    /// kills it. Says what happened (`quit: exit status: 0`, `killed`);
    /// the caller may write that into the game log, still attached.
    pub fn shutdown(&mut self) -> String {
        if self.finished {
            return "already stopped".to_owned();
        }
        self.finished = true;
        let Some(child) = self.child.as_mut() else {
            log_to(&self.log, &self.spec.name, '>', "quit");
            let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
            let until = Instant::now() + crate::proto::EXIT_GRACE + QUIT_WAIT;
            while self.adapter.as_ref().is_some_and(|h| !h.is_finished()) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(5));
            }
            return match self.adapter.take() {
                Some(h) if h.is_finished() => {
                    let _ = h.join();
                    "quit (adapter)".to_owned()
                }
                _ => "the adapter did not finish in time".to_owned(),
            };
        };
        if let Ok(Some(status)) = child.try_wait() {
            return format!("had exited: {status}");
        }
        log_to(&self.log, &self.spec.name, '>', "quit");
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let until = Instant::now() + QUIT_WAIT;
        while Instant::now() < until {
            if let Ok(Some(status)) = child.try_wait() {
                return format!("quit: {status}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = child.kill();
        let _ = child.wait();
        format!("killed (no exit within {} ms of quit)", QUIT_WAIT.as_millis())
    }
}

/// The arena's writes to an adapted engine: whole lines to the adapter thread.
struct LineSender {
    tx: std::sync::mpsc::Sender<String>,
    buf: Vec<u8>,
}

impl Write for LineSender {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &b in bytes {
            if b == b'\n' {
                let line = String::from_utf8_lossy(&self.buf).into_owned();
                self.buf.clear();
                self.tx.send(line).map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
            } else {
                self.buf.push(b);
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for Engine {
    /// Asks the engine to quit, gives it a moment, then kills it.
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn engine_specs_parse() {
        let spec =
            EngineSpec::parse(&words("cmd=target/release/luzhanqi option.Player=greedy nodes=400 arg=-v")).unwrap();
        assert_eq!(spec.name, "luzhanqi");
        assert_eq!(spec.options, [("Player".to_owned(), "greedy".to_owned())]);
        assert_eq!(spec.args, ["-v"]);
        assert_eq!(spec.limits.unwrap().nodes, Some(400));
        assert!(spec.sets_option("player"));
        assert!(EngineSpec::parse(&words("name=x")).is_err(), "cmd is required");
        assert!(EngineSpec::parse(&words("cmd=x colour=red")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x nodes")).is_err());
    }

    #[test]
    fn two_engines_get_distinct_names() {
        let names = |a: &str, b: &str| EngineSpec::parse_pair(&words(a), &words(b)).map(|s| s.map(|e| e.name));
        let (a, b) = ("cmd=target/release/luzhanqi option.Player=greedy", "cmd=target/release/luzhanqi");
        assert_eq!(names(a, b).unwrap(), ["luzhanqi", "luzhanqi-2"]);
        assert_eq!(names(&format!("name=luzhanqi {b}"), b).unwrap(), ["luzhanqi", "luzhanqi-2"]);
        assert_eq!(names(a, &format!("name=luzhanqi {b}")).unwrap(), ["luzhanqi-2", "luzhanqi"]);
        assert_eq!(names(&format!("name=x {a}"), b).unwrap(), ["x", "luzhanqi"]);
        let err = names(&format!("name=x {a}"), &format!("name=x {b}")).unwrap_err();
        assert!(err.contains("both engines are named 'x'"), "{err}");
        // Four engines of one command, one of them named after it.
        let groups = [b, a, &format!("name=luzhanqi {b}"), b].map(words);
        let four: Vec<String> = EngineSpec::parse_all(&groups).unwrap().into_iter().map(|e| e.name).collect();
        assert_eq!(four, ["luzhanqi-2", "luzhanqi-3", "luzhanqi", "luzhanqi-4"]);
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let spec = EngineSpec::parse(&words("cmd=/nonexistent/engine")).unwrap();
        let err = Engine::start(&spec, Duration::from_secs(1), None).err().unwrap();
        assert!(matches!(err, EngineError::Spawn(_)), "{err}");
    }

    #[test]
    fn a_program_that_is_no_engine_crashes_or_stalls() {
        // `true` exits at once: its output closes before `uliok`.
        let spec = EngineSpec::parse(&words("cmd=true")).unwrap();
        let err = Engine::start(&spec, Duration::from_secs(5), None).err().unwrap();
        assert!(matches!(err, EngineError::Crashed(_)), "{err}");
        // `cat` echoes `uli` forever without `uliok`.
        let spec = EngineSpec::parse(&words("cmd=cat")).unwrap();
        let err = Engine::start(&spec, Duration::from_millis(200), None).err().unwrap();
        assert!(matches!(err, EngineError::Stalled(_)), "{err}");
    }
}
