//! A four-player match: game pairs played in parallel (each worker owns
//! the four engine processes of its slots), the teams swapping seats
//! within a pair; records written as games end; the statistics per team
//! and per engine; `--resume`, `--shard`, `--sprt`; and the merge of a
//! four-player match's shards.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use luzhanqi::engine::options::SiguoVariant;
use luzhanqi::siguo::{Seat, SiguoRules, Team};

use crate::engine::EngineSpec;
use crate::record::{Termination, lenient};
use crate::runner::{
    count_game, end_lines, json_score, json_sprt, json_string, json_terminations, json_wall, pair_seed, score_lines,
    sprt_line, termination_table,
};
use crate::schedule::{
    Engines, Launch, Pairs, Plan, Progress, RunSettings, begin, game_log, progress_line, run_workers, say_resuming,
    sprt_step, whole_pairs,
};
use crate::shard::{ShardOf, match_id_of, merge_games, read_shards};
use crate::siguo::game::{SiguoGameSpec, play};
use crate::siguo::record::{SiguoRecord, parse_siguo_records};
use crate::siguo::{Slot, lineup, slots};
use crate::stats::{Sprt, Tally, Verdict};

/// Everything a four-player match needs.
#[derive(Clone, Debug)]
pub struct SiguoConfig {
    /// Two engines (a team each, each in both seats of its team) or four
    /// (the first two partners, the last two partners); scores are from
    /// the first team's side.
    pub engines: Vec<EngineSpec>,
    /// The preset.
    pub variant: SiguoVariant,
    /// Rule options over the preset (sent to the engines too).
    pub toggles: Vec<(String, String)>,
    /// The rules in force.
    pub rules: SiguoRules,
    /// How the match is played: games, limits, seed, records, ...
    pub run: RunSettings,
}

impl SiguoConfig {
    /// The two teams' names: the engines' with two, `a+b` and `c+d` with
    /// four.
    pub fn teams(&self) -> [String; 2] {
        team_names(&self.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>())
    }

    /// The tags of a shard of this match, if it is one.
    pub fn shard_of(&self) -> Option<ShardOf> {
        let r = &self.run;
        let id = match_id_of(
            self.variant.name(),
            &self.toggles,
            r.games,
            r.seed,
            r.max_plies,
            &r.limits,
            r.resign,
            &self.engines,
        );
        r.shard.map(|shard| ShardOf { shard, games: r.games, seed: r.seed, id })
    }
}

/// The teams' names of a match of `engines` (two or four names).
pub fn team_names(engines: &[String]) -> [String; 2] {
    match engines {
        [a, b, c, d] => [format!("{a}+{b}"), format!("{c}+{d}")],
        [a, b] => [a.clone(), b.clone()],
        _ => Default::default(),
    }
}

/// The results of a four-player match.
#[derive(Clone, Debug, Default)]
pub struct SiguoSummary {
    /// The engines' names (two or four), as given.
    pub engines: Vec<String>,
    /// The teams' names (see [`team_names`]).
    pub teams: [String; 2],
    /// Results from the first team's side.
    pub tally: Tally,
    /// Games by termination: won by the first team, by the second, drawn.
    pub terminations: BTreeMap<Termination, [u64; 3]>,
    /// Games without result (referee errors).
    pub errors: u64,
    /// The SPRT's verdict, if it reached one.
    pub verdict: Option<Verdict>,
    /// The last LLR, if an SPRT ran.
    pub llr: Option<f64>,
    /// Wall time.
    pub wall: Duration,
    /// Games won by the team at S and N, by the team at E and W, drawn.
    pub by_seats: [u64; 3],
    /// Per engine: every move's time (`go` to `bestmove`, ms).
    pub move_ms: Vec<Vec<u64>>,
    /// Per engine: the games one of its seats lost for its team, by
    /// termination (`illegal`, `time`, `crash`, ...).
    pub faults: Vec<BTreeMap<Termination, u64>>,
    /// Per pair: the half-points of the first team in its games so far.
    pairs: HashMap<u64, Vec<u8>>,
}

impl SiguoSummary {
    /// An empty summary of a match between `engines` (two or four names).
    pub fn new(engines: Vec<String>) -> SiguoSummary {
        let n = engines.len();
        SiguoSummary {
            teams: team_names(&engines),
            engines,
            move_ms: vec![Vec::new(); n],
            faults: vec![BTreeMap::new(); n],
            ..SiguoSummary::default()
        }
    }

    /// The summary of finished games, as the match counts them.
    pub fn from_records<'a>(engines: Vec<String>, records: impl IntoIterator<Item = &'a SiguoRecord>) -> SiguoSummary {
        let mut summary = SiguoSummary::new(engines);
        for rec in records {
            summary.add(rec);
        }
        summary
    }

    fn engine_index(&self, name: &str) -> Option<usize> {
        self.engines.iter().position(|e| e == name)
    }

    /// The team (0: the first) of the engine named `name`.
    fn team_of(&self, name: &str) -> usize {
        let i = self.engine_index(name).unwrap_or(0);
        if self.engines.len() == 4 { i / 2 } else { i }
    }

    /// Counts one finished game.
    pub fn add(&mut self, rec: &SiguoRecord) {
        for p in &rec.plies {
            if let Some(i) = self.engine_index(rec.name(p.seat)) {
                self.move_ms[i].push(p.ms);
            }
        }
        for &s in &rec.failed {
            if let Some(i) = self.engine_index(rec.name(s)) {
                *self.faults[i].entry(rec.termination).or_default() += 1;
            }
        }
        // The team the first team's engines played in this game.
        let first = if self.team_of(rec.name(Seat::South)) == 0 { Team::SouthNorth } else { Team::EastWest };
        let half = match rec.winner {
            None => 1,
            Some(t) if t == first => 2,
            Some(_) => 0,
        };
        let result = (rec.termination != Termination::Error).then_some(half);
        let game = (rec.pair, rec.termination, result);
        count_game(&mut self.tally, &mut self.terminations, &mut self.errors, &mut self.pairs, game);
        if result.is_some() {
            self.by_seats[rec.winner.map_or(2, |t| usize::from(t == Team::EastWest))] += 1;
        }
    }

    /// Per engine, the median and the longest move time in ms (`None`
    /// before it has moved).
    pub fn move_times(&self) -> Vec<Option<(u64, u64)>> {
        self.move_ms
            .iter()
            .map(|ms| {
                let mut ms = ms.clone();
                ms.sort_unstable();
                Some((*ms.get(ms.len() / 2)?, *ms.last()?))
            })
            .collect()
    }

    /// The team of each engine (0 or 1).
    fn engine_teams(&self) -> Vec<usize> {
        (0..self.engines.len()).map(|i| if self.engines.len() == 4 { i / 2 } else { i }).collect()
    }

    /// The text summary with the SPRT `sprt` and the wall time `wall`
    /// (`None`: unknown, as for merged shards).
    pub fn text_with(&self, sprt: Option<Sprt>, wall: Option<Duration>) -> String {
        let mut s = String::new();
        score_lines(&mut s, &self.teams, &self.tally);
        let [sn, ew, d] = self.by_seats;
        let _ = writeln!(s, "Teams: SN won {sn}, EW won {ew}, drawn {d}");
        sprt_line(&mut s, sprt, self.llr, self.verdict);
        termination_table(&mut s, &self.teams, &self.terminations);
        let width = self.engines.iter().map(String::len).max().unwrap_or(0).max(6);
        let team_width = self.teams.iter().map(String::len).max().unwrap_or(0).max(4);
        let _ = writeln!(
            s,
            "{:<width$} {:<team_width$} {:>7} {:>10} {:>11}  faults",
            "Engine", "team", "moves", "median ms", "longest ms"
        );
        for (i, name) in self.engines.iter().enumerate() {
            let team = &self.teams[self.engine_teams()[i]];
            let (median, longest) =
                self.move_times()[i].map_or(("-".to_owned(), "-".to_owned()), |(m, l)| (m.to_string(), l.to_string()));
            let faults: Vec<String> = self.faults[i].iter().map(|(t, n)| format!("{t} {n}")).collect();
            let faults = if faults.is_empty() { "none".to_owned() } else { faults.join(", ") };
            let _ = writeln!(
                s,
                "{name:<width$} {team:<team_width$} {:>7} {median:>10} {longest:>11}  {faults}",
                self.move_ms[i].len()
            );
        }
        end_lines(&mut s, self.errors, wall);
        s
    }

    /// The one-line JSON summary of a match of `variant` (fields as the
    /// two-player summary's, plus `teams`, `seats` and `faults`).
    pub fn json_with(&self, variant: SiguoVariant, sprt: Option<Sprt>, wall: Option<Duration>) -> String {
        let list = |v: Vec<String>| v.join(",");
        let times = self.move_times();
        let field = |pick: fn((u64, u64)) -> u64| {
            list(times.iter().map(|t| t.map_or("null".to_owned(), |t| pick(t).to_string())).collect())
        };
        let move_ms = format!("{{\"median\":[{}],\"longest\":[{}]}}", field(|t| t.0), field(|t| t.1));
        let faults: Vec<String> = self
            .engines
            .iter()
            .zip(&self.faults)
            .map(|(name, f)| {
                let terms: Vec<String> = f.iter().map(|(t, n)| format!("\"{}\":{n}", t.name())).collect();
                format!("{}:{{{}}}", json_string(name), terms.join(","))
            })
            .collect();
        let [sn, ew, d] = self.by_seats;
        format!(
            "{{\"engines\":[{}],\"teams\":[{}],\"variant\":\"{}\",{},\"sprt\":{},\"terminations\":{},\"seats\":{{\"SN\":{sn},\"EW\":{ew},\"draw\":{d}}},\"faults\":{{{}}},\"errors\":{},\"move_ms\":{move_ms},\"wall_s\":{}}}",
            list(self.engines.iter().map(|e| json_string(e)).collect()),
            list(self.teams.iter().map(|e| json_string(e)).collect()),
            variant.name(),
            json_score(&self.tally),
            json_sprt(sprt, self.llr, self.verdict),
            json_terminations(&self.terminations),
            faults.join(","),
            self.errors,
            json_wall(wall),
        )
    }

    /// The text summary of the match `cfg`.
    pub fn text(&self, cfg: &SiguoConfig) -> String {
        self.text_with(cfg.run.sprt, Some(self.wall))
    }

    /// The JSON line of the match `cfg`.
    pub fn json(&self, cfg: &SiguoConfig) -> String {
        self.json_with(cfg.variant, cfg.run.sprt, Some(self.wall))
    }
}

/// Plays the match.
///
/// # Errors
/// A message when the engines are not two or four, the record file or the
/// log folder cannot be written, for an SPRT in a shard, or when an
/// engine's failed start stops the match.
pub fn run(cfg: &SiguoConfig) -> Result<SiguoSummary, String> {
    let start = Instant::now();
    let slots = slots(&cfg.engines)?;
    if cfg.run.shard.is_some() && cfg.run.sprt.is_some() {
        return Err("--sprt with --shard: a shard cannot stop the whole match; play the shards without it".to_owned());
    }
    let kept = match &cfg.run.out {
        Some(path) if cfg.run.resume && path.exists() => finished_pairs(cfg, path)?,
        _ => Vec::new(),
    };
    let (mut records, done, Plan { todo, planned }) = begin(&cfg.run, &kept, |r| r.pair)?;
    let mut summary = SiguoSummary::from_records(cfg.engines.iter().map(|e| e.name.clone()).collect(), &kept);
    say_resuming(cfg.run.quiet, kept.len(), done.len(), cfg.run.out.as_ref());
    let progress = Progress::new(cfg.run.quiet, planned);
    let collect = |rec: SiguoRecord, queue: &Pairs<'_>| {
        records.write(&rec);
        summary.add(&rec);
        if sprt_step(cfg.run.sprt, &summary.tally, &mut summary.llr, &mut summary.verdict) {
            queue.stop();
        }
        let line = || progress_line(&summary.tally, summary.errors, planned, cfg.run.sprt, summary.llr);
        progress.show(summary.tally.games() + summary.errors, line);
        let seats: Vec<String> = Seat::ALL.iter().map(|&s| format!("{s} {}", rec.name(s))).collect();
        log::info!(
            "game {} ({}): {} {} {}",
            rec.game,
            seats.join(", "),
            rec.result_text(),
            rec.termination,
            rec.detail
        );
    };
    let fatal = run_workers(cfg.run.concurrency, &todo, |queue, tx| worker(cfg, &slots, queue, tx), collect);
    progress.end();
    summary.wall = start.elapsed();
    records.finish()?;
    match fatal {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// One worker: takes pairs until none is left or the match is stopped.
///
/// # Errors
/// The message of a failed engine start that stops the match.
fn worker(cfg: &SiguoConfig, slots: &[Slot; 4], queue: &Pairs<'_>, tx: &Sender<SiguoRecord>) -> Result<(), String> {
    let specs = slots.clone().map(|s| s.spec);
    let how = Launch {
        specs: &specs,
        variant: cfg.variant.name(),
        toggles: &cfg.toggles,
        stall: cfg.run.stall,
        limits: &cfg.run.limits,
    };
    let mut engines = Engines::<4>::default();
    let limits = specs.each_ref().map(|s| s.limits.unwrap_or(cfg.run.limits));
    let shard = cfg.shard_of();
    while let Some(pair) = queue.take() {
        for k in 0..2 {
            let index = 2 * pair + k;
            if index >= cfg.run.games {
                break;
            }
            let spec = SiguoGameSpec {
                game: index + 1,
                pair: pair + 1,
                variant: cfg.variant,
                toggles: cfg.toggles.clone(),
                rules: cfg.rules,
                seed: pair_seed(cfg.run.seed, pair),
                lineup: lineup(pair, k as usize),
                limits,
                max_plies: cfg.run.max_plies,
                margin: cfg.run.margin,
                stall: cfg.run.stall,
                resign: cfg.run.resign,
            };
            let log = game_log(cfg.run.log_dir.as_ref(), index + 1);
            if let Some(l) = &log {
                let seats: Vec<String> =
                    Seat::ALL.iter().map(|s| format!("{s} {}", specs[spec.lineup[s.index()]].name)).collect();
                l.line("arena", '#', &format!("game {} (pair {}): {}", spec.game, spec.pair, seats.join(", ")));
            }
            let failed = engines.start(&how, log.as_ref())?;
            let forfeit = failed.as_ref().map(|(slot, err)| (*slot, err));
            let mut rec = play(&spec, slots, &mut engines.running, log, forfeit);
            rec.shard = shard;
            if tx.send(rec).is_err() {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Whether `rec` is game `rec.game` of the match `cfg` (variant, pair
/// seed, engines in their seats, shard).
fn belongs(cfg: &SiguoConfig, slots: &[Slot; 4], rec: &SiguoRecord) -> bool {
    rec.variant == cfg.variant
        && rec.pair >= 1
        && rec.game.div_ceil(2) == rec.pair
        && rec.seed == pair_seed(cfg.run.seed, rec.pair - 1)
        && engines_by_slot(rec) == slots.clone().map(|s| s.engine)
}

/// The records of whole pairs already in `path` that belong to this match
/// and shard, for `--resume`.
fn finished_pairs(cfg: &SiguoConfig, path: &std::path::Path) -> Result<Vec<SiguoRecord>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let records = lenient(&text, parse_siguo_records).map_err(|e| format!("{}: {e}", path.display()))?;
    let slots = slots(&cfg.engines)?;
    let shard = cfg.shard_of();
    if let Some(rec) = records.iter().find(|r| !belongs(cfg, &slots, r) || r.shard != shard) {
        return Err(format!(
            "{}: game {} is not from this match (variant, engines, seed or shard differ); give another --out",
            path.display(),
            rec.game
        ));
    }
    let whole = whole_pairs(records, cfg.run.games, |r| (r.game, r.pair), |r| r.termination != Termination::Error);
    Ok(whole)
}

/// Four-player shards merged into one match.
#[derive(Clone, Debug)]
pub struct SiguoMerged {
    /// Every game of the match in game order, without the shard tags.
    pub records: Vec<SiguoRecord>,
    /// The match's summary (its wall time unknown).
    pub summary: SiguoSummary,
    /// The match's variant.
    pub variant: SiguoVariant,
}

/// Merges the records of the shards of one four-player match (see
/// [`crate::shard::merge`] for the checks); the engines are read from the
/// first pair's seats.
///
/// # Errors
/// As [`crate::shard::merge`].
pub fn merge(inputs: &[(String, String)]) -> Result<SiguoMerged, String> {
    let (all, games) = read_shards(inputs, parse_siguo_records, |r| (r.shard, r.game, r.pair, r.seed))?;
    let like = |i: usize, f: usize| {
        let (a, b) = (&all[i], &all[f]);
        (a.variant, &a.toggles, a.max_plies) == (b.variant, &b.toggles, b.max_plies)
    };
    let engines = |i: usize, f: usize| {
        let (got, want) = (engines_by_slot(&all[i]), engines_by_slot(&all[f]));
        if got == want { Ok(()) } else { Err(format!("between {}, not {}", got.join(", "), want.join(", "))) }
    };
    let (_, in_order) = merge_games(&games, like, engines)?;
    let by_slot = engines_by_slot(&all[in_order[0]]);
    let engines = if by_slot[0] == by_slot[1] && by_slot[2] == by_slot[3] {
        vec![by_slot[0].clone(), by_slot[2].clone()]
    } else {
        by_slot.to_vec()
    };
    let variant = all[in_order[0]].variant;
    let records: Vec<SiguoRecord> =
        in_order.into_iter().map(|i| SiguoRecord { shard: None, ..all[i].clone() }).collect();
    let summary = SiguoSummary::from_records(engines, &records);
    Ok(SiguoMerged { records, summary, variant })
}

/// The engines of a record by slot (team A's partners, then team B's), as
/// its seats and the lineup of its game give them.
fn engines_by_slot(r: &SiguoRecord) -> [String; 4] {
    let l = lineup(r.pair.saturating_sub(1), (r.game.saturating_sub(1) % 2) as usize);
    let mut by_slot: [String; 4] = Default::default();
    for s in Seat::ALL {
        by_slot[l[s.index()]] = r.name(s).to_owned();
    }
    by_slot
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::siguo::record::SiguoPlyRecord;

    fn rec(game: u64, names: [&str; 4], winner: Option<Team>, termination: Termination) -> SiguoRecord {
        SiguoRecord {
            names: names.map(str::to_owned),
            winner,
            termination,
            ..SiguoRecord::new(game, game.div_ceil(2), SiguoVariant::Siguo)
        }
    }

    #[test]
    fn results_count_for_the_team_whatever_its_seats() {
        let mut s = SiguoSummary::new(vec!["a".into(), "b".into()]);
        let (ab, ba) = (["a", "b", "a", "b"], ["b", "a", "b", "a"]);
        // Pair 1: a wins at SN, then wins at EW; pair 2: SN wins both (1-1).
        s.add(&rec(1, ab, Some(Team::SouthNorth), Termination::Flag));
        s.add(&rec(2, ba, Some(Team::EastWest), Termination::NoAction));
        s.add(&rec(3, ab, Some(Team::SouthNorth), Termination::Flag));
        s.add(&rec(4, ba, Some(Team::SouthNorth), Termination::Flag));
        // Pair 3: a draw, then a time loss of b's engine at W.
        s.add(&rec(5, ab, None, Termination::QuietLimit));
        let mut lost = rec(6, ba, Some(Team::SouthNorth), Termination::Time);
        lost.failed = vec![Seat::East];
        lost.plies =
            vec![SiguoPlyRecord { seat: Seat::South, token: "Sa3-Sa4".parse().unwrap(), announced: vec![], ms: 7 }];
        s.add(&lost);
        assert_eq!((s.tally.wins, s.tally.draws, s.tally.losses), (3, 1, 2));
        assert_eq!(s.tally.penta, [0, 1, 1, 0, 1]);
        assert_eq!(s.by_seats, [4, 1, 1]);
        assert_eq!(s.terminations[&Termination::Flag], [2, 1, 0]);
        assert_eq!(s.terminations[&Termination::Time], [0, 1, 0], "won by b's team");
        assert_eq!(s.faults[0][&Termination::Time], 1, "a's engine at E lost on time");
        assert_eq!((s.move_times()[1], s.move_times()[0]), (Some((7, 7)), None));
        let text = s.text_with(None, None);
        assert!(text.starts_with("Score of a vs b: 3 - 2 - 1  [0.583] 6\n"), "{text}");
        assert!(
            text.contains(
                "Pairs (0, 1/2, 1, 3/2, 2 points): [0, 1, 1, 0, 1] of 3\nTeams: SN won 4, EW won 1, drawn 1\n"
            ),
            "{text}"
        );
        assert!(text.contains("\nEngine team   moves  median ms  longest ms  faults\n"), "{text}");
        assert!(text.contains("\na      a          0          -           -  time 1\nb      b          1          7           7  none\n"), "{text}");
        let json = s.json_with(SiguoVariant::Siguo, None, None);
        assert!(json.starts_with("{\"engines\":[\"a\",\"b\"],\"teams\":[\"a\",\"b\"],\"variant\":\"siguo\",\"games\":6,\"wins\":3,\"draws\":1,\"losses\":2,"), "{json}");
        assert!(
            json.contains(",\"seats\":{\"SN\":4,\"EW\":1,\"draw\":1},\"faults\":{\"a\":{\"time\":1},\"b\":{}},"),
            "{json}"
        );
        assert!(json.ends_with("\"move_ms\":{\"median\":[null,7],\"longest\":[null,7]},\"wall_s\":null}"), "{json}");
    }

    #[test]
    fn four_engines_make_two_teams_of_partners() {
        let mut s = SiguoSummary::new(["a", "b", "c", "d"].map(str::to_owned).to_vec());
        assert_eq!(s.teams, ["a+b", "c+d"]);
        s.add(&rec(1, ["c", "a", "d", "b"], Some(Team::EastWest), Termination::Flag));
        assert_eq!((s.tally.wins, s.by_seats), (1, [0, 1, 0]));
        assert!(s.text_with(None, None).starts_with("Score of a+b vs c+d: 1 - 0 - 0"));
    }
}
