//! An engine process spoken to over ULI, as any GUI would: started with
//! `uli`, set up with `setoption`, then `position`, `go`, `perft 1` and
//! `go setup` on its pipes. Its stdout is read line by line; its stderr
//! goes to this server's log.

use std::fmt;
use std::process::Stdio;
use std::time::Duration;

use luzhanqi::protocol::{Command, Response, parse_response};
use luzhanqi::{Action, Colour};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};
use tokio::time::timeout;

/// How to start an engine: a program and its arguments.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineCommand {
    /// The program.
    pub program: std::path::PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
}

/// Why talking to an engine failed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EngineError {
    /// The program could not be started.
    Spawn(String),
    /// It exited or closed its output.
    Closed,
    /// It did not answer in time.
    Timeout(&'static str),
    /// It answered with `info string error: ...` (the text after `error: `).
    Refused(String),
    /// It answered something the command does not allow.
    Unexpected(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(m) => write!(f, "the engine cannot be started: {m}"),
            EngineError::Closed => f.write_str("the engine exited"),
            EngineError::Timeout(what) => write!(f, "the engine did not answer {what} in time"),
            EngineError::Refused(m) => f.write_str(m),
            EngineError::Unexpected(l) => write!(f, "unexpected answer from the engine: {l}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// How long an engine may take over a command that must answer at once
/// (`uli`, `isready`, `perft 1`, `go setup`).
pub const ANSWER_TIME: Duration = Duration::from_secs(20);

/// A running engine.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    options: Vec<String>,
    failed: bool,
}

impl EngineProcess {
    /// Starts the program and completes the handshake (`uli` .. `uliok`);
    /// `label` names it in the server's log.
    ///
    /// # Errors
    /// [`EngineError`] when it cannot be started or does not complete the
    /// handshake within [`ANSWER_TIME`].
    pub async fn start(cmd: &EngineCommand, label: &str) -> Result<EngineProcess, EngineError> {
        let mut child = tokio::process::Command::new(&cmd.program)
            .args(&cmd.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", cmd.program.display())))?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(EngineError::Spawn("no pipes".to_owned()));
        };
        let tag = label.to_owned();
        tokio::spawn(async move {
            let mut err = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = err.next_line().await {
                log::info!("{tag} stderr: {line}");
            }
        });
        let mut engine = EngineProcess {
            name: label.to_owned(),
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            options: Vec::new(),
            failed: false,
        };
        engine.send(&Command::Uli).await?;
        let id = timeout(ANSWER_TIME, async {
            let mut id = None;
            loop {
                match parse_response(&engine.read_line().await?) {
                    Ok(Response::UliOk) => return Ok(id),
                    Ok(Response::IdName(n)) => id = Some(n),
                    Ok(Response::Option(o)) => engine.options.push(o.name),
                    _ => {}
                }
            }
        })
        .await
        .map_err(|_| EngineError::Timeout("uli"))??;
        if let Some(id) = id {
            engine.name = id;
        }
        Ok(engine)
    }

    /// The engine's `id name` (its label if it sent none).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether it exited, closed a pipe or missed an answer's deadline:
    /// it should be replaced.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// Whether it announced the option `name` (without regard to case).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Sends one command line.
    ///
    /// # Errors
    /// [`EngineError::Closed`] when its input is closed.
    pub async fn send(&mut self, cmd: &Command) -> Result<(), EngineError> {
        let line = format!("{cmd}\n");
        log::debug!("{} > {}", self.name, line.trim_end());
        let written = match self.stdin.write_all(line.as_bytes()).await {
            Ok(()) => self.stdin.flush().await,
            Err(e) => Err(e),
        };
        written.map_err(|_| {
            self.failed = true;
            EngineError::Closed
        })
    }

    /// Sends `setoption name <name> value <value>`.
    ///
    /// # Errors
    /// [`EngineError::Closed`] when its input is closed.
    pub async fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&Command::SetOption { name: name.to_owned(), value: Some(value.to_owned()) }).await
    }

    /// The next line of its output. Cancel-safe: a line is never lost when
    /// the future is dropped before it completes.
    ///
    /// # Errors
    /// [`EngineError::Closed`] at the end of its output.
    pub async fn read_line(&mut self) -> Result<String, EngineError> {
        match self.lines.next_line().await {
            Ok(Some(line)) => {
                log::trace!("{} < {line}", self.name);
                Ok(line)
            }
            Ok(None) | Err(_) => {
                self.failed = true;
                Err(EngineError::Closed)
            }
        }
    }

    /// Sends `isready` and waits for `readyok`; returns the `info string
    /// error` texts that came before it (the engine's answers to the
    /// commands sent since the last synchronisation). Only for an engine
    /// that is not searching: other lines are dropped.
    ///
    /// # Errors
    /// [`EngineError`] when it does not answer in time.
    pub async fn sync(&mut self) -> Result<Vec<String>, EngineError> {
        self.send(&Command::IsReady).await?;
        let mut errors = Vec::new();
        self.answer("isready", |r| match r {
            Response::ReadyOk => Some(()),
            Response::InfoString(s) => {
                if let Some(e) = s.strip_prefix("error:") {
                    errors.push(e.trim().to_owned());
                }
                None
            }
            _ => None,
        })
        .await?;
        Ok(errors)
    }

    /// Sends `position` and checks that the engine took it (`isready`).
    ///
    /// # Errors
    /// [`EngineError::Refused`] with the engine's reason when it refused it.
    pub async fn set_position(&mut self, position: &Command) -> Result<(), EngineError> {
        self.send(position).await?;
        let errors = self.sync().await?;
        match errors.into_iter().next() {
            Some(e) => Err(EngineError::Refused(e)),
            None => Ok(()),
        }
    }

    /// The legal actions of the side to move in `position`, from the
    /// engine's `perft 1` (one `<action>: <count>` line per legal action,
    /// then `nodes <total>`; protocol.md).
    ///
    /// # Errors
    /// [`EngineError::Refused`] when the engine refused the position.
    pub async fn legal_actions(&mut self, position: &Command) -> Result<Vec<Action>, EngineError> {
        self.set_position(position).await?;
        self.send(&Command::Perft(1)).await?;
        let mut actions = Vec::new();
        let mut refused = None;
        self.answer("perft 1", |r| match r {
            Response::PerftLine(a, _) => {
                actions.push(a);
                None
            }
            Response::PerftTotal(_) => Some(()),
            Response::InfoString(s) if s.starts_with("error:") => {
                refused = Some(s["error:".len()..].trim().to_owned());
                Some(())
            }
            _ => None,
        })
        .await?;
        match refused {
            Some(e) => Err(EngineError::Refused(e)),
            None => Ok(actions),
        }
    }

    /// A deployment for `colour` from `go setup`.
    ///
    /// # Errors
    /// [`EngineError::Refused`] when the engine refused the command.
    pub async fn setup(&mut self, colour: Colour) -> Result<luzhanqi::Deployment, EngineError> {
        self.send(&Command::GoSetup(Some(colour))).await?;
        let mut answer = None;
        self.answer("go setup", |r| match r {
            Response::BestSetup(d) => {
                answer = Some(Ok(d));
                Some(())
            }
            Response::InfoString(s) if s.starts_with("error:") => {
                answer = Some(Err(EngineError::Refused(s["error:".len()..].trim().to_owned())));
                Some(())
            }
            Response::BestMove { .. } => {
                answer = Some(Err(EngineError::Unexpected("bestmove".to_owned())));
                Some(())
            }
            _ => None,
        })
        .await?;
        match answer {
            Some(Ok(d)) if d.colour() == colour => Ok(d),
            Some(Ok(d)) => Err(EngineError::Unexpected(format!("bestsetup {d}"))),
            Some(Err(e)) => Err(e),
            None => Err(EngineError::Closed),
        }
    }

    /// Reads lines until `done` returns `Some` for one, within [`ANSWER_TIME`].
    async fn answer(
        &mut self,
        what: &'static str,
        mut done: impl FnMut(Response) -> Option<()>,
    ) -> Result<(), EngineError> {
        let answered = timeout(ANSWER_TIME, async {
            loop {
                let line = self.read_line().await?;
                if let Ok(r) = parse_response(&line)
                    && done(r).is_some()
                {
                    return Ok(());
                }
            }
        })
        .await;
        answered.unwrap_or_else(|_| {
            self.failed = true;
            Err(EngineError::Timeout(what))
        })
    }

    /// Asks it to quit and waits a moment; it is killed when dropped.
    pub async fn quit(mut self) {
        let _ = self.send(&Command::Quit).await;
        let _ = timeout(Duration::from_millis(500), self.child.wait()).await;
    }
}
