//! A match: game pairs played in parallel, records written as games end,
//! statistics, a live progress line, an SPRT that may stop the match, and
//! the summary (text and one JSON line).
//!
//! Each worker thread owns one process per engine and plays whole pairs:
//! the two games of a pair share the pair's seed (the deal in `flip`, the
//! engines' `Seed` option, hence their deployments, in the other rule
//! sets), with the seats swapped.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use luzhanqi::{Colour, Rules, Variant};

use crate::clock::Limits;
use crate::engine::{Engine, EngineError, EngineSpec, GameLog};
use crate::game::{self, GameSpec};
use crate::record::{GameRecord, Termination, parse_records_lenient};
use crate::shard::{Shard, ShardOf};
use crate::stats::{Sprt, Tally, Verdict};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; scores are from the first one's side.
    pub engines: [EngineSpec; 2],
    /// The preset.
    pub variant: Variant,
    /// Rule options over the preset (sent to the engines too).
    pub toggles: Vec<(String, String)>,
    /// The rules in force.
    pub rules: Rules,
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
    /// Adjudicate games both engines agree are decided.
    pub resign: Option<crate::game::Resign>,
    /// No progress line and no text summary (the JSON line only).
    pub quiet: bool,
    /// Play only this shard's pairs (`--shard K/N`: pairs K, K+N, ...).
    pub shard: Option<Shard>,
}

/// The seed of pair `pair` (from 0) of a match seeded with `seed`
/// (SplitMix64 of the pair's position in the match's sequence).
pub fn pair_seed(seed: u64, pair: u64) -> u64 {
    let mut z = seed.wrapping_add(pair.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The results of a match.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Engine names.
    pub names: [String; 2],
    /// Results from the first engine's side.
    pub tally: Tally,
    /// Games by termination: won by the first engine, by the second, drawn.
    pub terminations: BTreeMap<Termination, [u64; 3]>,
    /// Games without result (referee errors).
    pub errors: u64,
    /// The SPRT's verdict, if it reached one.
    pub verdict: Option<Verdict>,
    /// The last LLR, if an SPRT ran.
    pub llr: Option<f64>,
    /// Wall time.
    pub wall: Duration,
    /// Red's and Blue's wins, and draws (all games with a result).
    pub by_colour: [u64; 3],
    /// Every move's time (`go` to `bestmove`, ms) of the first engine and
    /// of the second, for the time figures of the summary.
    pub move_ms: [Vec<u64>; 2],
}

impl Summary {
    /// The summary of finished games (in any order) between the engines
    /// `names`, as the match counts them; the wall time is zero.
    pub fn from_records<'a>(names: [String; 2], records: impl IntoIterator<Item = &'a GameRecord>) -> Summary {
        let mut summary = Summary { names, ..Summary::default() };
        let mut pairs = HashMap::new();
        for rec in records {
            summary.add(rec, red_seat_of(rec), &mut pairs);
        }
        summary
    }

    /// Counts one finished game.
    fn add(&mut self, rec: &GameRecord, red_seat: usize, pairs: &mut HashMap<u64, Vec<u8>>) {
        for ply in &rec.plies {
            let seat = if ply.colour == Colour::Red { red_seat } else { 1 - red_seat };
            self.move_ms[seat].push(ply.ms);
        }
        if rec.termination == Termination::Error {
            self.errors += 1;
            pairs.entry(rec.pair).or_default().push(u8::MAX);
            return;
        }
        let first_is_red = red_seat == 0;
        let half = match rec.winner {
            None => 1,
            Some(c) if (c == Colour::Red) == first_is_red => 2,
            Some(_) => 0,
        };
        self.tally.add_game(half);
        let column = match half {
            2 => 0,
            0 => 1,
            _ => 2,
        };
        self.terminations.entry(rec.termination).or_default()[column] += 1;
        self.by_colour[rec.winner.map_or(2, Colour::index)] += 1;
        let pair = pairs.entry(rec.pair).or_default();
        pair.push(half);
        if let [a, b] = pair[..]
            && a != u8::MAX
            && b != u8::MAX
        {
            self.tally.add_pair(a + b);
        }
    }

    /// Per engine, the median and the longest move time in ms (`None`
    /// before the engine has moved).
    pub fn move_times(&self) -> [Option<(u64, u64)>; 2] {
        self.move_ms.clone().map(|mut ms| {
            ms.sort_unstable();
            Some((*ms.get(ms.len() / 2)?, *ms.last()?))
        })
    }

    /// The text summary.
    pub fn text(&self, cfg: &MatchConfig) -> String {
        self.text_with(cfg.sprt, Some(self.wall))
    }

    /// The text summary with the SPRT `sprt` and the wall time `wall`
    /// (`None`: unknown, as for merged shards).
    pub fn text_with(&self, sprt: Option<Sprt>, wall: Option<Duration>) -> String {
        let t = &self.tally;
        let [a, b] = &self.names;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}",
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games()
        );
        match t.elo() {
            Some((e, model)) => {
                let (lo, hi) = (100.0 * e.score_lo, 100.0 * e.score_hi);
                let _ = writeln!(s, "Score: {:.1}% (95%: {lo:.1}% .. {hi:.1}%, {model})", 100.0 * e.score);
                let _ = writeln!(s, "Elo difference: {e} (95%, {model}), LOS: {:.1}%", 100.0 * t.los());
            }
            None => s.push_str("Elo difference: no games\n"),
        }
        let p = t.penta;
        let _ = writeln!(
            s,
            "Pairs (0, 1/2, 1, 3/2, 2 points): [{}, {}, {}, {}, {}] of {}",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            t.pairs()
        );
        let _ = writeln!(
            s,
            "Colours: Red won {}, Blue won {}, drawn {}",
            self.by_colour[0], self.by_colour[1], self.by_colour[2]
        );
        if let (Some(sprt), Some(llr)) = (sprt, self.llr) {
            let (lo, hi) = sprt.bounds();
            let verdict = self.verdict.map_or("no verdict".to_owned(), |v| v.to_string());
            let _ = writeln!(
                s,
                "SPRT: elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{lo:.2}, {hi:.2}], {verdict}",
                sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
            );
        }
        let width = a.len().max(b.len()).max(6);
        let _ = writeln!(s, "{:<12} {a:>width$} {b:>width$} {:>width$}", "Termination", "draw");
        for (term, [wa, wb, d]) in &self.terminations {
            let _ = writeln!(s, "{:<12} {wa:>width$} {wb:>width$} {d:>width$}", term.name());
        }
        let times: Vec<String> = self
            .move_times()
            .iter()
            .zip(&self.names)
            .filter_map(|(t, name)| t.map(|(median, longest)| format!("{name} median {median}, longest {longest}")))
            .collect();
        if !times.is_empty() {
            let _ = writeln!(s, "Move times (ms): {}", times.join("; "));
        }
        if self.errors > 0 {
            let _ = writeln!(s, "Games without result (referee errors): {}", self.errors);
        }
        match wall {
            Some(wall) => _ = writeln!(s, "Wall time: {:.1} s", wall.as_secs_f64()),
            None => s.push_str("Wall time: unknown (merged shards)\n"),
        }
        s
    }

    /// The one-line JSON summary.
    pub fn json(&self, cfg: &MatchConfig) -> String {
        self.json_with(cfg.variant, cfg.sprt, Some(self.wall))
    }

    /// The one-line JSON summary of a match of `variant` with the SPRT
    /// `sprt` and the wall time `wall` (`None`: unknown, `null`).
    pub fn json_with(&self, variant: Variant, sprt: Option<Sprt>, wall: Option<Duration>) -> String {
        let t = &self.tally;
        let num = |x: f64, digits: usize| if x.is_finite() { format!("{x:.digits$}") } else { "null".to_owned() };
        let (elo, lo, hi, model, score_lo, score_hi) = match t.elo() {
            Some((e, m)) => {
                (num(e.elo, 1), num(e.lo, 1), num(e.hi, 1), format!("\"{m}\""), num(e.score_lo, 4), num(e.score_hi, 4))
            }
            None => ("null".into(), "null".into(), "null".into(), "null".into(), "null".into(), "null".into()),
        };
        let terms: Vec<String> =
            self.terminations.iter().map(|(k, [a, b, d])| format!("\"{}\":[{a},{b},{d}]", k.name())).collect();
        let penta: Vec<String> = t.penta.iter().map(u64::to_string).collect();
        let [a, b] = self
            .move_times()
            .map(|t| t.map_or(["null".to_owned(), "null".to_owned()], |(m, l)| [m.to_string(), l.to_string()]));
        let move_ms = format!("{{\"median\":[{},{}],\"longest\":[{},{}]}}", a[0], b[0], a[1], b[1]);
        let sprt = match (sprt, self.llr) {
            (Some(sp), Some(llr)) => {
                let (l, h) = sp.bounds();
                let v = self
                    .verdict
                    .map_or("null".to_owned(), |v| format!("\"{}\"", if v == Verdict::H1 { "H1" } else { "H0" }));
                format!(
                    "{{\"elo0\":{},\"elo1\":{},\"llr\":{},\"lower\":{},\"upper\":{},\"verdict\":{v}}}",
                    sp.elo0,
                    sp.elo1,
                    num(llr, 3),
                    num(l, 3),
                    num(h, 3)
                )
            }
            _ => "null".to_owned(),
        };
        format!(
            "{{\"engines\":[{},{}],\"variant\":\"{}\",\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"score\":{},\"score_lo\":{score_lo},\"score_hi\":{score_hi},\"elo\":{elo},\"elo_lo\":{lo},\"elo_hi\":{hi},\"elo_model\":{model},\"los\":{},\"penta\":[{}],\"sprt\":{sprt},\"terminations\":{{{}}},\"errors\":{},\"move_ms\":{move_ms},\"wall_s\":{}}}",
            json_string(&self.names[0]),
            json_string(&self.names[1]),
            variant.name(),
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            num(t.score(), 4),
            num(t.los(), 4),
            penta.join(","),
            terms.join(","),
            self.errors,
            wall.map_or("null".to_owned(), |w| num(w.as_secs_f64(), 1)),
        )
    }

    fn progress(&self, cfg: &MatchConfig, planned: u64) -> String {
        let t = &self.tally;
        let mut s = format!(
            "Games {}/{}: {} - {} - {} [{:.3}]",
            t.games() + self.errors,
            planned,
            t.wins,
            t.losses,
            t.draws,
            t.score()
        );
        if let Some((e, _)) = t.elo() {
            let _ = write!(s, " Elo {e}");
        }
        if let (Some(sprt), Some(llr)) = (cfg.sprt, self.llr) {
            let (lo, hi) = sprt.bounds();
            let _ = write!(s, " LLR {llr:.2} [{lo:.2}, {hi:.2}]");
        }
        s
    }
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Plays the match.
///
/// # Errors
/// A message when the record file or the log folder cannot be written, or
/// for an SPRT in a shard (one shard cannot stop the match).
pub fn run(cfg: &MatchConfig) -> Result<Summary, String> {
    let start = Instant::now();
    if cfg.shard.is_some() && cfg.sprt.is_some() {
        return Err("--sprt with --shard: a shard cannot stop the whole match; play the shards without it".to_owned());
    }
    let kept = match &cfg.out {
        Some(path) if cfg.resume && path.exists() => finished_pairs(cfg, path)?,
        _ => Vec::new(),
    };
    let mut out = match &cfg.out {
        Some(path) => {
            let mut w =
                BufWriter::new(File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?);
            for rec in &kept {
                writeln!(w, "{rec}").map_err(|e| format!("writing the records: {e}"))?;
            }
            w.flush().map_err(|e| format!("writing the records: {e}"))?;
            Some(w)
        }
        None => None,
    };
    if let Some(dir) = &cfg.log_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let pairs_total = cfg.games.div_ceil(2);
    let done: std::collections::HashSet<u64> = kept.iter().map(|r| r.pair - 1).collect();
    let ours = |p: &u64| cfg.shard.is_none_or(|s| s.has_pair(p + 1));
    let todo: Vec<u64> = (0..pairs_total).filter(|p| ours(p) && !done.contains(p)).collect();
    // The games of this shard (of the match, unsharded).
    let planned: u64 = (0..pairs_total).filter(ours).map(|p| (cfg.games - 2 * p).min(2)).sum();
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let fatal = std::sync::Mutex::new(None::<String>);
    let (tx, rx) = channel::<(GameRecord, usize)>();
    let mut summary =
        Summary { names: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()], ..Summary::default() };
    let live = !cfg.quiet && std::io::stderr().is_terminal();
    let every = (planned / 20).max(1);
    let mut written = Ok(());
    let mut pairs = HashMap::new();
    for rec in &kept {
        summary.add(rec, red_seat_of(rec), &mut pairs);
    }
    if !kept.is_empty() && !cfg.quiet {
        eprintln!("resuming: {} games of {} pairs kept from {}", kept.len(), done.len(), display(&cfg.out));
    }
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.max(1) {
            let tx = tx.clone();
            let (next, stop, todo, fatal) = (&next, &stop, &todo, &fatal);
            scope.spawn(move || {
                if let Err(e) = worker(cfg, next, stop, todo, &tx) {
                    stop.store(true, Ordering::Relaxed);
                    if let Ok(mut f) = fatal.lock() {
                        f.get_or_insert(e);
                    }
                }
            });
        }
        drop(tx);
        for (rec, red_seat) in rx {
            if let Some(w) = out.as_mut()
                && written.is_ok()
            {
                written = writeln!(w, "{rec}").and_then(|()| w.flush());
            }
            summary.add(&rec, red_seat, &mut pairs);
            if let Some(sprt) = cfg.sprt {
                summary.llr = Some(sprt.llr(&summary.tally.penta));
                summary.verdict = sprt.verdict(&summary.tally.penta);
                if summary.verdict.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            let done = summary.tally.games() + summary.errors;
            if live {
                eprint!("\r\x1b[K{}", summary.progress(cfg, planned));
            } else if !cfg.quiet && (done.is_multiple_of(every) || done == planned) {
                eprintln!("{}", summary.progress(cfg, planned));
            }
            log::info!(
                "game {} ({} vs {}): {} {} {}",
                rec.game,
                rec.names[0],
                rec.names[1],
                rec.result_text(),
                rec.termination,
                rec.detail
            );
        }
        if live {
            eprintln!();
        }
    });
    summary.wall = start.elapsed();
    written.map_err(|e| format!("writing the records: {e}"))?;
    if let Some(e) = fatal.into_inner().ok().flatten() {
        return Err(e);
    }
    Ok(summary)
}

fn display(path: &Option<PathBuf>) -> String {
    path.as_ref().map_or_else(String::new, |p| p.display().to_string())
}

/// The seat (0 = the first engine) that played Red in a recorded game:
/// seat `k` moves first in the `k`-th game of its pair (from 0), and in
/// `flip` the first player is the colour its first flip showed.
pub(crate) fn red_seat_of(rec: &GameRecord) -> usize {
    let first_seat = ((rec.game - 1) % 2) as usize;
    if rec.first == Colour::Red { first_seat } else { 1 - first_seat }
}

/// The records of whole pairs already in `path` that belong to this match
/// (same variant, engines and pair seeds) and shard, for `--resume`.
fn finished_pairs(cfg: &MatchConfig, path: &std::path::Path) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let records = parse_records_lenient(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    let shard = ShardOf::of(cfg);
    for rec in &records {
        let seat = red_seat_of(rec);
        let ours = rec.variant == cfg.variant
            && rec.pair >= 1
            && rec.game == 2 * (rec.pair - 1) + 1 + (rec.game - 1) % 2
            && rec.seed == pair_seed(cfg.seed, rec.pair - 1)
            && rec.names == [names[seat], names[1 - seat]]
            && rec.shard == shard;
        if !ours {
            return Err(format!(
                "{}: game {} is not from this match (variant, engines, seed or shard differ); give another --out",
                path.display(),
                rec.game
            ));
        }
    }
    let mut by_pair: BTreeMap<u64, Vec<GameRecord>> = BTreeMap::new();
    for rec in records {
        if rec.game <= cfg.games && rec.termination != Termination::Error {
            by_pair.entry(rec.pair).or_default().push(rec);
        }
    }
    let size = |pair: u64| if 2 * pair <= cfg.games { 2 } else { 1 };
    Ok(by_pair.into_iter().filter(|(p, games)| games.len() == size(*p)).flat_map(|(_, games)| games).collect())
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

/// A worker's record of its engines' starts, by seat.
#[derive(Default)]
struct Starts {
    /// The engine started once.
    started: [bool; 2],
    /// Failed starts since its last good one.
    failures: [u32; 2],
}

/// Starts the engines of a worker that are not running, for the game of
/// `log`: `Ok(Some((seat, error)))` when one failed to restart (that game is
/// its loss).
///
/// # Errors
/// The message of a failed start that stops the match ([`fatal_start`]),
/// also written into the game log.
fn start_engines(
    cfg: &MatchConfig,
    engines: &mut [Option<Engine>; 2],
    starts: &mut Starts,
    log: Option<&GameLog>,
) -> Result<Option<(usize, EngineError)>, String> {
    for (seat, slot) in engines.iter_mut().enumerate() {
        if slot.is_some() {
            continue;
        }
        let engine = &cfg.engines[seat];
        match game::launch(engine, cfg.variant, &cfg.toggles, cfg.stall, &cfg.limits, log.cloned()) {
            Ok(e) => {
                *slot = Some(e);
                (starts.started[seat], starts.failures[seat]) = (true, 0);
            }
            Err(err) => {
                starts.failures[seat] += 1;
                if let Some(why) = fatal_start(engine, &err, starts.started[seat], starts.failures[seat]) {
                    if let Some(l) = log {
                        l.line("arena", '#', &format!("the match stops: {why}"));
                        l.flush();
                    }
                    return Err(why);
                }
                return Ok(Some((seat, err)));
            }
        }
    }
    Ok(None)
}

/// One worker: takes pairs until none is left or the match is stopped.
///
/// # Errors
/// The message of a failed engine start that stops the match
/// ([`fatal_start`]).
fn worker(
    cfg: &MatchConfig,
    next: &AtomicU64,
    stop: &AtomicBool,
    todo: &[u64],
    tx: &std::sync::mpsc::Sender<(GameRecord, usize)>,
) -> Result<(), String> {
    let mut engines: [Option<Engine>; 2] = [None, None];
    let mut starts = Starts::default();
    let limits = [0, 1].map(|i| cfg.engines[i].limits.unwrap_or(cfg.limits));
    let shard = ShardOf::of(cfg);
    loop {
        let slot = next.fetch_add(1, Ordering::Relaxed) as usize;
        let Some(&pair) = todo.get(slot) else { return Ok(()) };
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        for k in 0..2 {
            let index = 2 * pair + k;
            if index >= cfg.games {
                break;
            }
            let spec = GameSpec {
                game: index + 1,
                pair: pair + 1,
                variant: cfg.variant,
                toggles: cfg.toggles.clone(),
                rules: cfg.rules,
                seed: pair_seed(cfg.seed, pair),
                first_seat: k as usize,
                limits,
                max_plies: cfg.max_plies,
                margin: cfg.margin,
                stall: cfg.stall,
                resign: cfg.resign,
            };
            let log = cfg.log_dir.as_ref().and_then(|dir| {
                let path = dir.join(format!("game-{:05}.log", index + 1));
                GameLog::create(&path).map_err(|e| log::warn!("cannot create {}: {e}", path.display())).ok()
            });
            let failed = start_engines(cfg, &mut engines, &mut starts, log.as_ref())?;
            let mut played = match &failed {
                Some((seat, err)) => game::forfeit(&spec, &cfg.engines, &mut engines, log, *seat, err),
                None => game::play(&spec, &cfg.engines, &mut engines, log),
            };
            played.0.shard = shard;
            if tx.send(played).is_err() {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_times_are_counted_by_engine_not_by_colour() {
        use crate::record::PlyRecord;
        use luzhanqi::notation::parse_token;
        let ply = |colour, ms| PlyRecord { colour, token: parse_token("a4-a5").unwrap(), reveals: vec![], ms };
        let mut summary = Summary::default();
        assert_eq!(summary.move_times(), [None, None]);
        let mut pairs = HashMap::new();
        // Game 1: the first engine is Red and slow; game 2: it is Blue.
        let mut rec = GameRecord::new(1, 1, Variant::Open);
        rec.plies = vec![ply(Colour::Red, 300), ply(Colour::Blue, 10), ply(Colour::Red, 290)];
        summary.add(&rec, 0, &mut pairs);
        let mut rec = GameRecord::new(2, 1, Variant::Open);
        rec.plies = vec![ply(Colour::Red, 12), ply(Colour::Blue, 310), ply(Colour::Red, 11)];
        summary.add(&rec, 1, &mut pairs);
        assert_eq!(summary.move_times(), [Some((300, 310)), Some((11, 12))]);
    }

    #[test]
    fn pair_seeds_differ_and_repeat() {
        assert_eq!(pair_seed(7, 3), pair_seed(7, 3));
        assert_ne!(pair_seed(7, 3), pair_seed(7, 4));
        assert_ne!(pair_seed(7, 3), pair_seed(8, 3));
    }

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
