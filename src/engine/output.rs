//! Where the engine's lines go: stdout (flushed after every line), or a
//! channel in tests; optionally a copy of the whole exchange in a log file.

use std::fs::File;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::protocol::Response;

enum Sink {
    Stdout,
    Channel(Sender<String>),
}

struct Inner {
    sink: Sink,
    log: Option<File>,
}

/// A cloneable handle to the engine's output; lines from the loop and the
/// search thread never interleave.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Inner>>);

impl Output {
    /// Lines go to stdout.
    pub fn stdout() -> Output {
        Output(Arc::new(Mutex::new(Inner { sink: Sink::Stdout, log: None })))
    }

    /// Lines go to a channel (tests).
    pub fn channel() -> (Output, Receiver<String>) {
        let (tx, rx) = channel();
        (Output(Arc::new(Mutex::new(Inner { sink: Sink::Channel(tx), log: None }))), rx)
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic elsewhere must not silence the engine.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends one response.
    pub fn send(&self, r: &Response) {
        let text = r.to_string();
        let mut inner = self.lock();
        for line in text.lines() {
            match &inner.sink {
                Sink::Stdout => {
                    let mut out = io::stdout().lock();
                    // A closed stdout leaves nothing to report to; ignore.
                    let _ = writeln!(out, "{line}");
                    let _ = out.flush();
                }
                Sink::Channel(tx) => {
                    let _ = tx.send(line.to_owned());
                }
            }
            if let Some(f) = inner.log.as_mut() {
                let _ = writeln!(f, "<< {line}");
            }
        }
    }

    /// Copies an input line to the log file, if any.
    pub fn log_input(&self, line: &str) {
        if let Some(f) = self.lock().log.as_mut() {
            let _ = writeln!(f, ">> {line}");
        }
    }

    /// Starts (or with an empty path stops) copying the exchange to a file.
    ///
    /// # Errors
    /// The file cannot be created; logging is then off.
    pub fn set_log_file(&self, path: &str) -> io::Result<()> {
        let mut inner = self.lock();
        inner.log = None;
        if !path.is_empty() {
            inner.log = Some(File::options().create(true).append(true).open(path)?);
        }
        Ok(())
    }
}
