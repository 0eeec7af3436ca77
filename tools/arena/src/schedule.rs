//! What two-player and four-player matches share in running: which pairs
//! a run plays (a shard's, those a resumed run lacks), workers that take
//! pairs one at a time and send their games back, the record file written
//! as games end, the progress line, and starting the engines a worker
//! lacks.

use std::collections::HashSet;
use std::fmt::Display;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

use crate::clock::Limits;
use crate::engine::{Engine, EngineError, EngineSpec, GameLog};
use crate::shard::Shard;
use crate::stats::{Sprt, Tally, Verdict};

/// How a match is played, whoever plays it: the settings two-player and
/// four-player matches share.
#[derive(Clone, Debug)]
pub struct RunSettings {
    /// Games to play (pairs of two; an odd count ends with a single game).
    pub games: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Limits of engines that have none of their own.
    pub limits: Limits,
    /// The match seed, from which every pair's seed is drawn.
    pub seed: u64,
    /// Plies after which a game is drawn.
    pub max_plies: u32,
    /// How far an engine may overstep its time.
    pub margin: Duration,
    /// How long to wait for answers without a time limit.
    pub stall: Duration,
    /// Where to write the game records.
    pub out: Option<PathBuf>,
    /// Keep the finished pairs already in `out` (from an interrupted run of
    /// the same match) and play only the others.
    pub resume: bool,
    /// Where to write one protocol log per game.
    pub log_dir: Option<PathBuf>,
    /// A sequential test that may stop the match.
    pub sprt: Option<Sprt>,
    /// Adjudicate games both sides agree are decided.
    pub resign: Option<crate::game::Resign>,
    /// No progress line and no text summary (the JSON line only).
    pub quiet: bool,
    /// Play only this shard's pairs (`--shard K/N`: pairs K, K+N, ...).
    pub shard: Option<Shard>,
}

/// The pairs a run plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The pairs (from 0) still to play, in order.
    pub todo: Vec<u64>,
    /// The games of the run's share of the match (the shard's, or all),
    /// finished ones included.
    pub planned: u64,
}

/// The pairs of a match of `games` games that `shard` (or the whole
/// match) plays, without those in `done` (pairs from 0).
pub fn plan(games: u64, shard: Option<Shard>, done: &HashSet<u64>) -> Plan {
    let pairs_total = games.div_ceil(2);
    let ours = |p: &u64| shard.is_none_or(|s| s.has_pair(p + 1));
    let todo: Vec<u64> = (0..pairs_total).filter(|p| ours(p) && !done.contains(p)).collect();
    let planned: u64 = (0..pairs_total).filter(ours).map(|p| (games - 2 * p).min(2)).sum();
    Plan { todo, planned }
}

/// How a run starts: the record file made anew with the `kept` records of
/// whole pairs (from `--resume`), the log folder, and the pairs to play
/// (those of `kept`, each of pair `pair_of` from 1, are done).
///
/// # Errors
/// A message when the record file or the log folder cannot be made.
pub fn begin<R: Display>(
    run: &RunSettings,
    kept: &[R],
    pair_of: impl Fn(&R) -> u64,
) -> Result<(Records, HashSet<u64>, Plan), String> {
    let records = Records::create(run.out.as_ref(), kept)?;
    if let Some(dir) = &run.log_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let done: HashSet<u64> = kept.iter().map(|r| pair_of(r) - 1).collect();
    let plan = plan(run.games, run.shard, &done);
    Ok((records, done, plan))
}

/// The records of the pairs that `records` (read back for `--resume`)
/// holds whole: both games of a pair (one for the last pair of an odd
/// match), each of game number `game_of` at most `games` and with a
/// result (`has_result`: not a referee error), in pair order.
pub fn whole_pairs<R>(
    records: Vec<R>,
    games: u64,
    game_of: impl Fn(&R) -> (u64, u64),
    has_result: impl Fn(&R) -> bool,
) -> Vec<R> {
    let mut by_pair: std::collections::BTreeMap<u64, Vec<R>> = std::collections::BTreeMap::new();
    for rec in records {
        let (game, pair) = game_of(&rec);
        if game <= games && has_result(&rec) {
            by_pair.entry(pair).or_default().push(rec);
        }
    }
    let size = |pair: u64| if 2 * pair <= games { 2 } else { 1 };
    by_pair.into_iter().filter(|(p, recs)| recs.len() == size(*p)).flat_map(|(_, recs)| recs).collect()
}

/// The pairs left to the workers of a run, taken one at a time.
pub struct Pairs<'a> {
    todo: &'a [u64],
    next: AtomicU64,
    stop: AtomicBool,
}

impl Pairs<'_> {
    /// The next pair to play; `None` when none is left or the match stops.
    pub fn take(&self) -> Option<u64> {
        let slot = self.next.fetch_add(1, Ordering::Relaxed) as usize;
        let &pair = self.todo.get(slot)?;
        (!self.stop.load(Ordering::Relaxed)).then_some(pair)
    }

    /// Hands out no more pairs (pairs already taken are finished).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Plays the pairs of `todo` with `concurrency` worker threads running
/// `work`, which sends each finished game; `collect` gets them on this
/// thread as they come, and may stop the match. Returns the first error a
/// worker returned (the match then stops too).
pub fn run_workers<R: Send>(
    concurrency: usize,
    todo: &[u64],
    work: impl Fn(&Pairs<'_>, &Sender<R>) -> Result<(), String> + Sync,
    mut collect: impl FnMut(R, &Pairs<'_>),
) -> Option<String> {
    let pairs = Pairs { todo, next: AtomicU64::new(0), stop: AtomicBool::new(false) };
    let fatal = std::sync::Mutex::new(None::<String>);
    let (tx, rx) = channel::<R>();
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            let tx = tx.clone();
            let (pairs, fatal, work) = (&pairs, &fatal, &work);
            scope.spawn(move || {
                if let Err(e) = work(pairs, &tx) {
                    pairs.stop();
                    if let Ok(mut f) = fatal.lock() {
                        f.get_or_insert(e);
                    }
                }
            });
        }
        drop(tx);
        for rec in rx {
            collect(rec, &pairs);
        }
    });
    fatal.into_inner().ok().flatten()
}

/// The record file of a run (if any), written as games end.
pub struct Records {
    out: Option<BufWriter<File>>,
    written: std::io::Result<()>,
}

impl Records {
    /// Creates `path` (if given) anew with the records `kept` first.
    ///
    /// # Errors
    /// A message when the file cannot be created or written.
    pub fn create<R: Display>(path: Option<&PathBuf>, kept: &[R]) -> Result<Records, String> {
        let Some(path) = path else { return Ok(Records { out: None, written: Ok(()) }) };
        let mut w = BufWriter::new(File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?);
        for rec in kept {
            writeln!(w, "{rec}").map_err(|e| format!("writing the records: {e}"))?;
        }
        w.flush().map_err(|e| format!("writing the records: {e}"))?;
        Ok(Records { out: Some(w), written: Ok(()) })
    }

    /// Appends a record and flushes the file (after a failed write, nothing
    /// more is written).
    pub fn write(&mut self, rec: &impl Display) {
        if let Some(w) = self.out.as_mut()
            && self.written.is_ok()
        {
            self.written = writeln!(w, "{rec}").and_then(|()| w.flush());
        }
    }

    /// Whether every record was written.
    ///
    /// # Errors
    /// The first write error.
    pub fn finish(self) -> Result<(), String> {
        self.written.map_err(|e| format!("writing the records: {e}"))
    }
}

/// The progress line on stderr: rewritten in place on a terminal,
/// otherwise a line every 5% of the games; nothing when quiet.
pub struct Progress {
    live: bool,
    quiet: bool,
    every: u64,
    planned: u64,
}

impl Progress {
    /// The progress of a run of `planned` games.
    pub fn new(quiet: bool, planned: u64) -> Progress {
        Progress { live: !quiet && std::io::stderr().is_terminal(), quiet, every: (planned / 20).max(1), planned }
    }

    /// Shows `line()` after the `done`-th game.
    pub fn show(&self, done: u64, line: impl FnOnce() -> String) {
        if self.live {
            eprint!("\r\x1b[K{}", line());
        } else if !self.quiet && (done.is_multiple_of(self.every) || done == self.planned) {
            eprintln!("{}", line());
        }
    }

    /// Ends the live line.
    pub fn end(&self) {
        if self.live {
            eprintln!();
        }
    }
}

/// After a game: the SPRT's LLR and verdict of the pairs `tally` counts;
/// whether the test decided (the match then stops). A decision stands:
/// the games of pairs already started when it came still count in the
/// score but no longer in the test, whose LLR and verdict stay those that
/// stopped the match (recomputed, one more pair could take the LLR back
/// inside the bounds, and a match stopped by the test would print "no
/// verdict").
pub fn sprt_step(sprt: Option<Sprt>, tally: &Tally, llr: &mut Option<f64>, verdict: &mut Option<Verdict>) -> bool {
    if let (Some(sprt), None) = (sprt, *verdict) {
        *llr = Some(sprt.llr(&tally.penta));
        *verdict = sprt.verdict(&tally.penta);
    }
    verdict.is_some()
}

/// Says on stderr (unless `quiet`) how much of the record file `out` a
/// resumed run keeps.
pub fn say_resuming(quiet: bool, games: usize, pairs: usize, out: Option<&PathBuf>) {
    if games > 0 && !quiet {
        let out = out.map(|p| p.display().to_string()).unwrap_or_default();
        eprintln!("resuming: {games} games of {pairs} pairs kept from {out}");
    }
}

/// The progress text: `Games 12/400: 7 - 3 - 2 [0.667] Elo ... LLR ...`,
/// the results from the first engine's (or team's) side.
pub fn progress_line(tally: &Tally, errors: u64, planned: u64, sprt: Option<Sprt>, llr: Option<f64>) -> String {
    use std::fmt::Write as _;
    let t = tally;
    let mut s =
        format!("Games {}/{}: {} - {} - {} [{:.3}]", t.games() + errors, planned, t.wins, t.losses, t.draws, t.score());
    if let Some((e, _)) = t.elo() {
        let _ = write!(s, " Elo {e}");
    }
    if let (Some(sprt), Some(llr)) = (sprt, llr) {
        let (lo, hi) = sprt.bounds();
        let _ = write!(s, " LLR {llr:.2} [{lo:.2}, {hi:.2}]");
    }
    s
}

/// Failed starts in a row after which an engine that did start before
/// stops the match.
pub const MAX_FAILED_STARTS: u32 = 3;

/// Whether a failed start of `spec` stops the match: the program cannot be
/// run, it refused its settings, it never started in this worker, or it
/// failed `failures` times in a row. The message names it and its command.
fn fatal_start(spec: &EngineSpec, err: &EngineError, started_before: bool, failures: u32) -> Option<String> {
    let who = format!("engine '{}' (cmd {})", spec.name, spec.cmd);
    match err {
        // The spawn error names the command.
        EngineError::Spawn(_) => Some(format!("engine '{}' {err}", spec.name)),
        EngineError::Refused(_) => Some(format!("{who} {err}")),
        _ if !started_before => Some(format!("{who} failed its first start (uli, set-up, isready): {err}")),
        _ if failures >= MAX_FAILED_STARTS => Some(format!("{who} failed to restart {failures} times in a row: {err}")),
        _ => None,
    }
}

/// A worker's engines, one a seat (two-player) or a slot (four-player),
/// and the record of their starts.
pub struct Engines<const N: usize> {
    /// The running engines; `None` where one must be (re)started.
    pub running: [Option<Engine>; N],
    /// The engine started once.
    started: [bool; N],
    /// Failed starts since its last good one.
    failures: [u32; N],
}

/// How to start a worker's engines.
pub struct Launch<'a, const N: usize> {
    /// The engines.
    pub specs: &'a [EngineSpec; N],
    /// The `Variant` value.
    pub variant: &'a str,
    /// The rule options.
    pub toggles: &'a [(String, String)],
    /// The stall timeout.
    pub stall: Duration,
    /// The match's limits (for an engine without its own).
    pub limits: &'a Limits,
}

impl<const N: usize> Default for Engines<N> {
    fn default() -> Engines<N> {
        Engines { running: std::array::from_fn(|_| None), started: [false; N], failures: [0; N] }
    }
}

impl<const N: usize> Engines<N> {
    /// Starts the engines that are not running, for the game of `log`:
    /// `Ok(Some((index, error)))` when one failed to restart (that game is
    /// its loss).
    ///
    /// # Errors
    /// The message of a failed start that stops the match ([`fatal_start`]),
    /// also written into the game log.
    pub fn start(
        &mut self,
        how: &Launch<'_, N>,
        log: Option<&GameLog>,
    ) -> Result<Option<(usize, EngineError)>, String> {
        for (i, slot) in self.running.iter_mut().enumerate() {
            if slot.is_some() {
                continue;
            }
            let spec = &how.specs[i];
            match crate::game::launch(spec, how.variant, how.toggles, how.stall, how.limits, log.cloned()) {
                Ok(e) => {
                    *slot = Some(e);
                    (self.started[i], self.failures[i]) = (true, 0);
                }
                Err(err) => {
                    self.failures[i] += 1;
                    if let Some(why) = fatal_start(spec, &err, self.started[i], self.failures[i]) {
                        if let Some(l) = log {
                            l.line("arena", '#', &format!("the match stops: {why}"));
                            l.flush();
                        }
                        return Err(why);
                    }
                    return Ok(Some((i, err)));
                }
            }
        }
        Ok(None)
    }
}

/// The game log `game-NNNNN.log` of game `game` in `dir`, if logs are kept
/// (a log that cannot be created is warned about and left out).
pub fn game_log(dir: Option<&PathBuf>, game: u64) -> Option<GameLog> {
    dir.and_then(|dir| {
        let path = dir.join(format!("game-{game:05}.log"));
        GameLog::create(&path).map_err(|e| log::warn!("cannot create {}: {e}", path.display())).ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_sprt_decision_stands_while_started_pairs_finish() {
        let sprt: Sprt = "elo0=0 elo1=20".parse().unwrap();
        let (mut llr, mut verdict) = (None, None);
        let mut tally = Tally { wins: 0, draws: 0, losses: 0, penta: [0, 0, 5, 0, 5] };
        assert!(!sprt_step(Some(sprt), &tally, &mut llr, &mut verdict), "not decided yet");
        // Pair-wins until the test accepts H1.
        while !sprt_step(Some(sprt), &tally, &mut llr, &mut verdict) {
            tally.penta[4] += 1;
        }
        let decided = (llr, verdict);
        assert_eq!(verdict, Some(Verdict::H1));
        // Lost pairs that were already started: the score takes them, the test does not.
        tally.penta[0] += 20;
        assert!(sprt.verdict(&tally.penta).is_none(), "recomputed, the test would be undecided again");
        assert!(sprt_step(Some(sprt), &tally, &mut llr, &mut verdict));
        assert_eq!((llr, verdict), decided);
        // Without a test nothing is decided.
        let (mut llr, mut verdict) = (None, None);
        assert!(!sprt_step(None, &tally, &mut llr, &mut verdict));
        assert_eq!((llr, verdict), (None, None));
    }

    #[test]
    fn a_plan_is_the_shards_pairs_less_those_done() {
        let none = HashSet::new();
        assert_eq!(plan(7, None, &none), Plan { todo: vec![0, 1, 2, 3], planned: 7 });
        let shard = Some(Shard { index: 2, count: 3 });
        assert_eq!(plan(12, shard, &none), Plan { todo: vec![1, 4], planned: 4 });
        let done: HashSet<u64> = [1].into();
        assert_eq!(plan(12, shard, &done), Plan { todo: vec![4], planned: 4 });
    }

    #[test]
    fn workers_take_every_pair_once_until_stopped() {
        let todo: Vec<u64> = (0..20).collect();
        let mut got = Vec::new();
        let fatal = run_workers(
            3,
            &todo,
            |pairs, tx| {
                while let Some(p) = pairs.take() {
                    tx.send(p).map_err(|e| e.to_string())?;
                }
                Ok(())
            },
            |p, _| got.push(p),
        );
        got.sort_unstable();
        assert_eq!((got, fatal), (todo.clone(), None));
        // A slow match stops handing out pairs once told; a worker's error
        // stops it too and is returned.
        let slow = |fail: Option<u64>| {
            move |pairs: &Pairs<'_>, tx: &Sender<u64>| {
                while let Some(p) = pairs.take() {
                    std::thread::sleep(Duration::from_millis(5));
                    if Some(p) == fail {
                        return Err(format!("pair {p} failed"));
                    }
                    tx.send(p).map_err(|e| e.to_string())?;
                }
                Ok(())
            }
        };
        let mut n = 0;
        let fatal = run_workers(2, &todo, slow(None), |_, pairs| {
            n += 1;
            if n == 5 {
                pairs.stop();
            }
        });
        assert!(n < 10 && fatal.is_none(), "stopped after {n}");
        let mut n = 0;
        let fatal = run_workers(2, &todo, slow(Some(3)), |_, _| n += 1);
        assert!(n < 10 && fatal.as_deref() == Some("pair 3 failed"), "{n} {fatal:?}");
    }
}
