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
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use luzhanqi::{Colour, Rules, Variant};

use crate::engine::EngineSpec;
use crate::game::{self, GameSpec};
use crate::record::{GameRecord, Termination, parse_records_lenient};
use crate::schedule::{
    Engines, Launch, Pairs, Plan, Progress, RunSettings, begin, game_log, run_workers, say_resuming, sprt_step,
    whole_pairs,
};
use crate::shard::ShardOf;
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
    /// How the match is played: games, limits, seed, records, ...
    pub run: RunSettings,
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
        let first_is_red = red_seat == 0;
        let half = match rec.winner {
            None => 1,
            Some(c) if (c == Colour::Red) == first_is_red => 2,
            Some(_) => 0,
        };
        let result = (rec.termination != Termination::Error).then_some(half);
        count_game(
            &mut self.tally,
            &mut self.terminations,
            &mut self.errors,
            pairs,
            (rec.pair, rec.termination, result),
        );
        if result.is_some() {
            self.by_colour[rec.winner.map_or(2, Colour::index)] += 1;
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
        self.text_with(cfg.run.sprt, Some(self.wall))
    }

    /// The text summary with the SPRT `sprt` and the wall time `wall`
    /// (`None`: unknown, as for merged shards).
    pub fn text_with(&self, sprt: Option<Sprt>, wall: Option<Duration>) -> String {
        let mut s = String::new();
        score_lines(&mut s, &self.names, &self.tally);
        let _ = writeln!(
            s,
            "Colours: Red won {}, Blue won {}, drawn {}",
            self.by_colour[0], self.by_colour[1], self.by_colour[2]
        );
        sprt_line(&mut s, sprt, self.llr, self.verdict);
        termination_table(&mut s, &self.names, &self.terminations);
        let times: Vec<String> = self
            .move_times()
            .iter()
            .zip(&self.names)
            .filter_map(|(t, name)| t.map(|(median, longest)| format!("{name} median {median}, longest {longest}")))
            .collect();
        if !times.is_empty() {
            let _ = writeln!(s, "Move times (ms): {}", times.join("; "));
        }
        end_lines(&mut s, self.errors, wall);
        s
    }

    /// The one-line JSON summary.
    pub fn json(&self, cfg: &MatchConfig) -> String {
        self.json_with(cfg.variant, cfg.run.sprt, Some(self.wall))
    }

    /// The one-line JSON summary of a match of `variant` with the SPRT
    /// `sprt` and the wall time `wall` (`None`: unknown, `null`).
    pub fn json_with(&self, variant: Variant, sprt: Option<Sprt>, wall: Option<Duration>) -> String {
        let [a, b] = self
            .move_times()
            .map(|t| t.map_or(["null".to_owned(), "null".to_owned()], |(m, l)| [m.to_string(), l.to_string()]));
        let move_ms = format!("{{\"median\":[{},{}],\"longest\":[{},{}]}}", a[0], b[0], a[1], b[1]);
        format!(
            "{{\"engines\":[{},{}],\"variant\":\"{}\",{},\"sprt\":{},\"terminations\":{},\"errors\":{},\"move_ms\":{move_ms},\"wall_s\":{}}}",
            json_string(&self.names[0]),
            json_string(&self.names[1]),
            variant.name(),
            json_score(&self.tally),
            json_sprt(sprt, self.llr, self.verdict),
            json_terminations(&self.terminations),
            self.errors,
            json_wall(wall),
        )
    }

    fn progress(&self, cfg: &MatchConfig, planned: u64) -> String {
        crate::schedule::progress_line(&self.tally, self.errors, planned, cfg.run.sprt, self.llr)
    }
}

/// Counts a game of pair `pair` (from 1) that ended by `termination` with
/// `half` half-points (0, 1 or 2) for the first side, or without a result
/// (`None`: a referee error, counted in `errors`): the tally, the games by
/// termination and winner, and the pair's score once both its games are
/// in with a result (`pairs` holds each pair's games so far).
pub(crate) fn count_game(
    tally: &mut Tally,
    terminations: &mut BTreeMap<Termination, [u64; 3]>,
    errors: &mut u64,
    pairs: &mut HashMap<u64, Vec<u8>>,
    (pair, termination, half): (u64, Termination, Option<u8>),
) {
    let Some(half) = half else {
        *errors += 1;
        pairs.entry(pair).or_default().push(u8::MAX);
        return;
    };
    tally.add_game(half);
    let column = match half {
        2 => 0,
        0 => 1,
        _ => 2,
    };
    terminations.entry(termination).or_default()[column] += 1;
    let games = pairs.entry(pair).or_default();
    games.push(half);
    if let [a, b] = games[..]
        && a != u8::MAX
        && b != u8::MAX
    {
        tally.add_pair(a + b);
    }
}

/// `Score of A vs B: ...`, the score and Elo with their intervals, and
/// the pairs, from the first side's results `t` (engines or teams).
pub(crate) fn score_lines(s: &mut String, names: &[String; 2], t: &Tally) {
    let [a, b] = names;
    let _ =
        writeln!(s, "Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}", t.wins, t.losses, t.draws, t.score(), t.games());
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
}

/// The SPRT's line, if one ran.
pub(crate) fn sprt_line(s: &mut String, sprt: Option<Sprt>, llr: Option<f64>, verdict: Option<Verdict>) {
    if let (Some(sprt), Some(llr)) = (sprt, llr) {
        let (lo, hi) = sprt.bounds();
        let verdict = verdict.map_or("no verdict".to_owned(), |v| v.to_string());
        let _ = writeln!(
            s,
            "SPRT: elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{lo:.2}, {hi:.2}], {verdict}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        );
    }
}

/// The games by termination: won by the first side, by the second, drawn.
pub(crate) fn termination_table(s: &mut String, names: &[String; 2], terminations: &BTreeMap<Termination, [u64; 3]>) {
    let [a, b] = names;
    let width = a.len().max(b.len()).max(6);
    let _ = writeln!(s, "{:<12} {a:>width$} {b:>width$} {:>width$}", "Termination", "draw");
    for (term, [wa, wb, d]) in terminations {
        let _ = writeln!(s, "{:<12} {wa:>width$} {wb:>width$} {d:>width$}", term.name());
    }
}

/// The games without result, if any, and the wall time.
pub(crate) fn end_lines(s: &mut String, errors: u64, wall: Option<Duration>) {
    if errors > 0 {
        let _ = writeln!(s, "Games without result (referee errors): {errors}");
    }
    match wall {
        Some(wall) => _ = writeln!(s, "Wall time: {:.1} s", wall.as_secs_f64()),
        None => s.push_str("Wall time: unknown (merged shards)\n"),
    }
}

/// A number with `digits` decimals, `null` when not finite.
fn json_num(x: f64, digits: usize) -> String {
    if x.is_finite() { format!("{x:.digits$}") } else { "null".to_owned() }
}

/// The JSON fields of the results from the first side's view: `"games":
/// ...` to `"penta":[...]`.
pub(crate) fn json_score(t: &Tally) -> String {
    let num = json_num;
    let (elo, lo, hi, model, score_lo, score_hi) = match t.elo() {
        Some((e, m)) => {
            (num(e.elo, 1), num(e.lo, 1), num(e.hi, 1), format!("\"{m}\""), num(e.score_lo, 4), num(e.score_hi, 4))
        }
        None => ("null".into(), "null".into(), "null".into(), "null".into(), "null".into(), "null".into()),
    };
    let penta: Vec<String> = t.penta.iter().map(u64::to_string).collect();
    format!(
        "\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"score\":{},\"score_lo\":{score_lo},\"score_hi\":{score_hi},\"elo\":{elo},\"elo_lo\":{lo},\"elo_hi\":{hi},\"elo_model\":{model},\"los\":{},\"penta\":[{}]",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        num(t.score(), 4),
        num(t.los(), 4),
        penta.join(","),
    )
}

/// The JSON value of the SPRT: `null`, or its bounds, LLR and verdict.
pub(crate) fn json_sprt(sprt: Option<Sprt>, llr: Option<f64>, verdict: Option<Verdict>) -> String {
    match (sprt, llr) {
        (Some(sp), Some(llr)) => {
            let (l, h) = sp.bounds();
            let v =
                verdict.map_or("null".to_owned(), |v| format!("\"{}\"", if v == Verdict::H1 { "H1" } else { "H0" }));
            format!(
                "{{\"elo0\":{},\"elo1\":{},\"llr\":{},\"lower\":{},\"upper\":{},\"verdict\":{v}}}",
                sp.elo0,
                sp.elo1,
                json_num(llr, 3),
                json_num(l, 3),
                json_num(h, 3)
            )
        }
        _ => "null".to_owned(),
    }
}

/// The JSON object of the games by termination (name → [first, second, draws]).
pub(crate) fn json_terminations(terminations: &BTreeMap<Termination, [u64; 3]>) -> String {
    let terms: Vec<String> =
        terminations.iter().map(|(k, [a, b, d])| format!("\"{}\":[{a},{b},{d}]", k.name())).collect();
    format!("{{{}}}", terms.join(","))
}

/// The JSON value of the wall time in seconds (`null`: unknown).
pub(crate) fn json_wall(wall: Option<Duration>) -> String {
    wall.map_or("null".to_owned(), |w| json_num(w.as_secs_f64(), 1))
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
    if cfg.run.shard.is_some() && cfg.run.sprt.is_some() {
        return Err("--sprt with --shard: a shard cannot stop the whole match; play the shards without it".to_owned());
    }
    let kept = match &cfg.run.out {
        Some(path) if cfg.run.resume && path.exists() => finished_pairs(cfg, path)?,
        _ => Vec::new(),
    };
    let (mut records, done, Plan { todo, planned }) = begin(&cfg.run, &kept, |r| r.pair)?;
    let mut summary =
        Summary { names: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()], ..Summary::default() };
    let progress = Progress::new(cfg.run.quiet, planned);
    let mut pairs = HashMap::new();
    for rec in &kept {
        summary.add(rec, red_seat_of(rec), &mut pairs);
    }
    say_resuming(cfg.run.quiet, kept.len(), done.len(), cfg.run.out.as_ref());
    let collect = |(rec, red_seat): (GameRecord, usize), queue: &Pairs<'_>| {
        records.write(&rec);
        summary.add(&rec, red_seat, &mut pairs);
        if sprt_step(cfg.run.sprt, &summary.tally, &mut summary.llr, &mut summary.verdict) {
            queue.stop();
        }
        progress.show(summary.tally.games() + summary.errors, || summary.progress(cfg, planned));
        log::info!(
            "game {} ({} vs {}): {} {} {}",
            rec.game,
            rec.names[0],
            rec.names[1],
            rec.result_text(),
            rec.termination,
            rec.detail
        );
    };
    let fatal = run_workers(cfg.run.concurrency, &todo, |queue, tx| worker(cfg, queue, tx), collect);
    progress.end();
    summary.wall = start.elapsed();
    records.finish()?;
    match fatal {
        Some(e) => Err(e),
        None => Ok(summary),
    }
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
            && rec.seed == pair_seed(cfg.run.seed, rec.pair - 1)
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
    let whole = whole_pairs(records, cfg.run.games, |r| (r.game, r.pair), |r| r.termination != Termination::Error);
    Ok(whole)
}

/// One worker: takes pairs until none is left or the match is stopped.
///
/// # Errors
/// The message of a failed engine start that stops the match.
fn worker(cfg: &MatchConfig, queue: &Pairs<'_>, tx: &Sender<(GameRecord, usize)>) -> Result<(), String> {
    let mut engines = Engines::<2>::default();
    let how = Launch {
        specs: &cfg.engines,
        variant: cfg.variant.name(),
        toggles: &cfg.toggles,
        stall: cfg.run.stall,
        limits: &cfg.run.limits,
    };
    let limits = [0, 1].map(|i| cfg.engines[i].limits.unwrap_or(cfg.run.limits));
    let shard = ShardOf::of(cfg);
    while let Some(pair) = queue.take() {
        for k in 0..2 {
            let index = 2 * pair + k;
            if index >= cfg.run.games {
                break;
            }
            let spec = GameSpec {
                game: index + 1,
                pair: pair + 1,
                variant: cfg.variant,
                toggles: cfg.toggles.clone(),
                rules: cfg.rules,
                seed: pair_seed(cfg.run.seed, pair),
                first_seat: k as usize,
                limits,
                max_plies: cfg.run.max_plies,
                margin: cfg.run.margin,
                stall: cfg.run.stall,
                resign: cfg.run.resign,
            };
            let log = game_log(cfg.run.log_dir.as_ref(), index + 1);
            let failed = engines.start(&how, log.as_ref())?;
            let mut played = match &failed {
                Some((seat, err)) => game::forfeit(&spec, &cfg.engines, &mut engines.running, log, *seat, err),
                None => game::play(&spec, &cfg.engines, &mut engines.running, log),
            };
            played.0.shard = shard;
            if tx.send(played).is_err() {
                return Ok(());
            }
        }
    }
    Ok(())
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
