//! Where the engine's lines go: stdout (flushed after every line), or a
//! channel in tests; optionally a copy of the whole exchange in a log file.

use std::fs::File;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

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
                let _ = writeln!(f, "{} << {line}", clock(now()));
            }
        }
    }

    /// Copies an input line to the log file, if any.
    pub fn log_input(&self, line: &str) {
        if let Some(f) = self.lock().log.as_mut() {
            let _ = writeln!(f, "{} >> {line}", clock(now()));
        }
    }

    /// Starts (or with an empty path stops) copying the exchange to a file,
    /// each line stamped with the UTC time of day (`04:05:06.789 >> uli`),
    /// after a line giving the date (`# luzhanqi log opened 2026-12-02
    /// 04:05:06 UTC`).
    ///
    /// # Errors
    /// The file cannot be opened; the log then goes on as it was.
    pub fn set_log_file(&self, path: &str) -> io::Result<()> {
        let mut file = if path.is_empty() {
            None
        } else {
            let mut f = File::options().create(true).append(true).open(path)?;
            let t = now();
            writeln!(f, "# {} log opened {} {} UTC", crate::engine::NAME, date(t), &clock(t)[..8])?;
            Some(f)
        };
        std::mem::swap(&mut self.lock().log, &mut file);
        Ok(())
    }
}

/// Milliseconds since the Unix epoch.
fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// `HH:MM:SS.mmm`, UTC.
fn clock(ms: u64) -> String {
    let day_ms = ms % 86_400_000;
    let (h, m, s) = (day_ms / 3_600_000, day_ms / 60_000 % 60, day_ms / 1000 % 60);
    format!("{h:02}:{m:02}:{s:02}.{:03}", day_ms % 1000)
}

/// `YYYY-MM-DD`, UTC: the civil date of a day count since 1970-01-01
/// (the proleptic Gregorian calendar in 400-year eras).
fn date(ms: u64) -> String {
    let z = (ms / 86_400_000) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times_of_day() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(clock(0), "00:00:00.000");
        // 2026-12-02 04:05:06.789 UTC
        let t = 1_796_184_306_789;
        assert_eq!(date(t), "2026-12-02");
        assert_eq!(clock(t), "04:05:06.789");
        assert_eq!(date(951_782_400_000), "2000-02-29");
        assert_eq!(date(4_107_542_400_000), "2100-03-01");
    }
}
