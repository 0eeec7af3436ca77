//! arena: plays matches between ULI Luzhanqi engines as their referee, and
//! replays the game records it writes. See the README beside this crate.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use arena::clock::{Limits, TimeControl};
use arena::engine::EngineSpec;
use arena::record::{AnyRecord, parse_any_records, parse_records};
use arena::replay::{ReplayOptions, replay_game, rules_of};
use arena::runner::{MatchConfig, run};
use arena::schedule::RunSettings;
use arena::shard::Shard;
use arena::siguo::replay::{replay_siguo, siguo_rules_of};
use arena::siguo::runner::SiguoConfig;
use arena::stats::Sprt;
use clap::{ArgAction, ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};
use luzhanqi::engine::options::SiguoVariant;
use luzhanqi::siguo::Seat;
use luzhanqi::{Colour, Variant};

#[derive(Parser)]
#[command(name = "arena", version, about = "Referee and match runner for ULI Luzhanqi engines")]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    play: MatchArgs,
}

#[derive(Subcommand)]
enum Sub {
    /// Re-judge game records with the rules core and print them ply by ply.
    Replay {
        /// The record file.
        file: PathBuf,
        /// Print what this side was told instead of the truth: red or blue,
        /// or in four-player records the seat s, e, n or w.
        #[arg(long = "as", value_parser = parse_viewer)]
        viewer: Option<Viewer>,
        /// Only this game number.
        #[arg(long)]
        game: Option<u64>,
        /// Draw the board after every ply.
        #[arg(long)]
        boards: bool,
    },
    /// Score the belief about hidden enemy pieces (classic records) against
    /// the truth: log-loss and top-1 accuracy, with inference and counts only.
    Belief {
        /// The record file.
        file: PathBuf,
        /// Only the side played by this engine (by its name in the records).
        #[arg(long)]
        engine: Option<String>,
        /// Score every N-th move of that side.
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// Only the games numbered in this range, FIRST-LAST.
        #[arg(long, value_parser = parse_range)]
        games: Option<(u64, u64)>,
        /// The soft evidence's exponents, START,BEHAVIOUR, and optionally
        /// the share of deployments the start counts are trusted for,
        /// START,BEHAVIOUR,TRUST (default: the engine's).
        #[arg(long, value_parser = parse_gammas)]
        gamma: Option<(f32, f32, f32)>,
        /// Count the soft evidence from these records instead of using the
        /// engine's shipped counts.
        #[arg(long = "counts-from", num_args = 1..)]
        counts_from: Vec<PathBuf>,
    },
    /// Count the soft evidence about enemy pieces (start cells, behaviour)
    /// in classic records, written as the engine's table.
    Evidence {
        /// The record files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Count at every N-th move of each side.
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// Only the games numbered in this range, FIRST-LAST.
        #[arg(long, value_parser = parse_range)]
        games: Option<(u64, u64)>,
        /// Write the Rust table here (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Merge the records of the shards of one match (`--shard K/N`) into one
    /// record file in game order and print the match's summary.
    Merge {
        /// The shards' record files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the merged records here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// No text summary: only the JSON line.
        #[arg(long)]
        quiet: bool,
    },
    /// Fit the static evaluation's weights to the results of recorded games
    /// (Texel's method, log-loss, every `holdout`-th pair held out) and
    /// print the loss before and after and the fitted weights as
    /// `SearchParams`.
    Tune {
        /// The record files (one variant).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Use every N-th position of each game.
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// Hold out the games of every K-th pair (0: none).
        #[arg(long, default_value_t = 5)]
        holdout: u64,
        /// The starting weights as `SearchParams` words (default: the
        /// variant's tuned values).
        #[arg(long, default_value = "")]
        params: String,
        /// The terms to fit, comma-separated (default: all).
        #[arg(long, value_delimiter = ',')]
        fit: Vec<String>,
    },
}

fn parse_range(s: &str) -> Result<(u64, u64), String> {
    let (a, b) = s.split_once('-').ok_or("FIRST-LAST")?;
    let f = |x: &str| x.trim().parse::<u64>().map_err(|e| format!("'{x}': {e}"));
    Ok((f(a)?, f(b)?))
}

fn parse_gammas(s: &str) -> Result<(f32, f32, f32), String> {
    let f = |x: &str| x.trim().parse::<f32>().map_err(|e| format!("'{x}': {e}"));
    let (a, b, t) = match s.split(',').collect::<Vec<_>>()[..] {
        [a, b] => (a, b, None),
        [a, b, t] => (a, b, Some(t)),
        _ => return Err("START,BEHAVIOUR or START,BEHAVIOUR,TRUST".into()),
    };
    let (a, b, trust) = (f(a)?, f(b)?, t.map(f).transpose()?.unwrap_or(1.0));
    if !(0.0..=1.0).contains(&trust) {
        return Err(format!("TRUST from 0 to 1, not {trust}"));
    }
    Ok((a, b, trust))
}

#[derive(clap::Args)]
struct MatchArgs {
    /// An engine: name=N cmd=PATH [arg=A]... [dir=D] [proto=uli|ccgc|ccgc2019|cs4500] [option.NAME=VALUE]... [tc=.. movetime=.. nodes=.. depth=..]
    /// (give it twice; scores are from the first engine's side; in siguo
    /// twice, a team each, or four times, two partners a team).
    #[arg(long, num_args = 1.., action = ArgAction::Append, value_name = "KEY=VALUE")]
    engine: Vec<String>,
    /// Rule set: flip, classic, open, ccgc or cs4500; siguo or siguo-open for four players.
    #[arg(long, default_value = "flip")]
    variant: VariantArg,
    /// A rule option over the variant, sent to the engines too (e.g. WinnerLearnsLoser=true); repeatable.
    #[arg(long, value_name = "NAME=VALUE")]
    rule: Vec<String>,
    /// Games to play (each pair of two shares its deal or seed, seats swapped).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Games played at once (each with its own engine processes).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Clock per side: BASE+INC in milliseconds, or with an s suffix (2000+50, 10s+0.1s).
    #[arg(long)]
    tc: Option<TimeControl>,
    /// Fixed time per move, milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Fixed search iterations per move.
    #[arg(long)]
    nodes: Option<u64>,
    /// Fixed depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// How far past its clock or movetime a move may arrive before it loses on time, ms.
    #[arg(long, default_value_t = 100)]
    timemargin: u64,
    /// How long to wait for answers without a time limit (handshake, isready, go setup, node-limited go), ms.
    #[arg(long, default_value_t = 30_000)]
    stall: u64,
    /// Plies after which a game is drawn.
    #[arg(long, default_value_t = 1000)]
    maxplies: u32,
    /// The match seed: every pair's deal and engine seed derive from it.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the game records here.
    #[arg(long)]
    out: Option<PathBuf>,
    /// With --out: keep the whole pairs an interrupted run of this same match
    /// left in that file and play only the missing ones.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Write one protocol log per game (both engines' exchange and stderr) into this folder.
    #[arg(long)]
    log: Option<PathBuf>,
    /// Adjudicate a game when one engine's score has been at least +CP and
    /// the other's at most -CP for their last N moves each: "movecount=N score=CP".
    #[arg(long)]
    resign: Option<arena::game::Resign>,
    /// Stop when a sequential test decides: "elo0=0 elo1=10 alpha=0.05 beta=0.05".
    #[arg(long)]
    sprt: Option<Sprt>,
    /// No progress and no text summary: only the JSON summary line.
    #[arg(long)]
    quiet: bool,
    /// Play only shard K of N (K from 1): the pairs K, K+N, K+2N, ... of the
    /// match, with its game numbers and seeds; `arena merge` joins the shards.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
}

/// `--variant`: a two-player preset or a four-player one.
#[derive(Clone, Copy, Debug)]
enum VariantArg {
    Two(Variant),
    Four(SiguoVariant),
}

impl std::str::FromStr for VariantArg {
    type Err = String;

    fn from_str(s: &str) -> Result<VariantArg, String> {
        match (s.parse::<Variant>(), arena::siguo::variant_named(s)) {
            (Ok(v), _) => Ok(VariantArg::Two(v)),
            (_, Some(v)) => Ok(VariantArg::Four(v)),
            _ => {
                Err(format!("unknown variant '{s}' (expected flip, classic, open, ccgc, cs4500, siguo or siguo-open)"))
            }
        }
    }
}

/// `replay --as`: a two-player side or a four-player seat.
#[derive(Clone, Copy, Debug)]
enum Viewer {
    Colour(Colour),
    Seat(Seat),
}

fn parse_viewer(s: &str) -> Result<Viewer, String> {
    match s {
        "red" | "r" => Ok(Viewer::Colour(Colour::Red)),
        "blue" | "b" => Ok(Viewer::Colour(Colour::Blue)),
        "s" | "e" | "n" | "w" | "S" | "E" | "N" | "W" => {
            Ok(Viewer::Seat(Seat::from_char(s.chars().next().unwrap_or('s')).unwrap_or(Seat::South)))
        }
        _ => Err(format!("'{s}' is not red or blue, nor a four-player seat s, e, n or w")),
    }
}

/// The words of each `--engine`, grouped by occurrence.
fn engine_groups(matches: &ArgMatches) -> Vec<Vec<String>> {
    match matches.get_occurrences::<String>("engine") {
        Some(occurrences) => occurrences.map(|words| words.cloned().collect()).collect(),
        None => Vec::new(),
    }
}

/// The `--rule` options as name and value.
fn toggles(rules: &[String]) -> Result<Vec<(String, String)>, String> {
    rules
        .iter()
        .map(|r| {
            r.split_once('=').map(|(k, v)| (k.to_owned(), v.to_owned())).ok_or(format!("--rule '{r}': NAME=VALUE"))
        })
        .collect()
}

/// The match's limits, and an error naming an engine that has none.
fn limits(a: &MatchArgs, engines: &[EngineSpec]) -> Result<Limits, String> {
    let limits = Limits { tc: a.tc, movetime: a.movetime, nodes: a.nodes, depth: a.depth };
    if let Some(e) = engines.iter().find(|e| e.limits.is_none() && limits.is_empty()) {
        return Err(format!(
            "{} has no limit: give --tc, --movetime, --nodes or --depth (or tc=... in its --engine)",
            e.name
        ));
    }
    Ok(limits)
}

/// How the match is played, from the command line.
fn run_settings(a: MatchArgs, limits: Limits) -> RunSettings {
    RunSettings {
        games: a.games,
        concurrency: a.concurrency.max(1),
        limits,
        seed: a.seed,
        max_plies: a.maxplies,
        margin: Duration::from_millis(a.timemargin),
        stall: Duration::from_millis(a.stall),
        out: a.out,
        resume: a.resume,
        log_dir: a.log,
        sprt: a.sprt,
        resign: a.resign,
        quiet: a.quiet,
        shard: a.shard,
    }
}

fn match_config(a: MatchArgs, variant: Variant, groups: &[Vec<String>]) -> Result<MatchConfig, String> {
    let [first, second] = groups else {
        return Err(format!("give exactly two --engine (got {})", groups.len()));
    };
    let engines = EngineSpec::parse_pair(first, second)?;
    let toggles = toggles(&a.rule)?;
    let rules = rules_of(variant, &toggles).map_err(|e| format!("--rule: {e}"))?;
    let limits = limits(&a, &engines)?;
    Ok(MatchConfig { engines, variant, toggles, rules, run: run_settings(a, limits) })
}

fn siguo_config(a: MatchArgs, variant: SiguoVariant, groups: &[Vec<String>]) -> Result<SiguoConfig, String> {
    if ![2, 4].contains(&groups.len()) {
        return Err(format!(
            "give two --engine (a team each) or four (the first two partners, the last two) in {} (got {})",
            variant.name(),
            groups.len()
        ));
    }
    let engines = EngineSpec::parse_all(groups)?;
    let toggles = toggles(&a.rule)?;
    let rules = siguo_rules_of(variant, &toggles).map_err(|e| format!("--rule: {e}"))?;
    let limits = limits(&a, &engines)?;
    Ok(SiguoConfig { engines, variant, toggles, rules, run: run_settings(a, limits) })
}

fn merge(files: &[PathBuf], out: Option<&PathBuf>, quiet: bool) -> Result<(), String> {
    use std::io::Write as _;
    let mut inputs = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        inputs.push((file.display().to_string(), text));
    }
    // The first record says whether the match is a four-player one.
    let four = inputs.iter().find_map(|(_, text)| match parse_any_records(text) {
        Ok(records) => records.first().map(|r| matches!(r, AnyRecord::Four(_))),
        Err(_) => None,
    });
    let (records, text, json) = if four == Some(true) {
        let merged = arena::siguo::runner::merge(&inputs)?;
        let records: Vec<String> = merged.records.iter().map(ToString::to_string).collect();
        let summary = &merged.summary;
        (records, summary.text_with(None, None), summary.json_with(merged.variant, None, None))
    } else {
        let merged = arena::shard::merge(&inputs)?;
        (merged.records.iter().map(ToString::to_string).collect(), merged.text(), merged.json())
    };
    if let Some(path) = out {
        let mut all = String::new();
        for rec in &records {
            all.push_str(&format!("{rec}\n"));
        }
        let mut f = std::fs::File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        f.write_all(all.as_bytes()).map_err(|e| format!("writing {}: {e}", path.display()))?;
    }
    if !quiet {
        luzhanqi::out!("{text}");
    }
    luzhanqi::outln!("{json}");
    Ok(())
}

fn play(a: MatchArgs, groups: &[Vec<String>]) -> Result<(), String> {
    match a.variant {
        VariantArg::Two(variant) => {
            let cfg = match_config(a, variant, groups)?;
            let summary = run(&cfg)?;
            if !cfg.run.quiet {
                luzhanqi::out!("{}", summary.text(&cfg));
            }
            luzhanqi::outln!("{}", summary.json(&cfg));
        }
        VariantArg::Four(variant) => {
            let cfg = siguo_config(a, variant, groups)?;
            let summary = arena::siguo::runner::run(&cfg)?;
            if !cfg.run.quiet {
                luzhanqi::out!("{}", summary.text(&cfg));
            }
            luzhanqi::outln!("{}", summary.json(&cfg));
        }
    }
    Ok(())
}

fn replay(file: &PathBuf, opts: &ReplayOptions) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let records = parse_any_records(&text)?;
    if let Some(g) = opts.game
        && !records.iter().any(|r| r.game() == g)
    {
        let games = match (records.iter().map(AnyRecord::game).min(), records.iter().map(AnyRecord::game).max()) {
            (Some(lo), Some(hi)) => format!("games {lo}-{hi}"),
            _ => "no games".to_owned(),
        };
        return Err(format!("no game {g} in {} ({games})", file.display()));
    }
    let (mut ok, mut bad) = (0, 0);
    for rec in records.iter().filter(|r| opts.game.is_none_or(|g| g == r.game())) {
        let mut out = String::new();
        let judged = match rec {
            AnyRecord::Two(_) if opts.seat.is_some() => {
                Err("--as a seat (s, e, n, w) is for four-player records; this one is two-player".to_owned())
            }
            AnyRecord::Four(_) if opts.viewer.is_some() => {
                Err("--as red or blue is for two-player records; this one is four-player (s, e, n, w)".to_owned())
            }
            AnyRecord::Two(rec) => replay_game(rec, opts, &mut out),
            AnyRecord::Four(rec) => replay_siguo(rec, opts, &mut out),
        };
        match judged {
            Ok(confirmed) => {
                ok += 1;
                luzhanqi::outln!("{out}re-judged: ok ({confirmed})\n");
            }
            Err(e) => {
                bad += 1;
                luzhanqi::outln!("{out}re-judged: WRONG: {e}\n");
            }
        }
    }
    luzhanqi::outln!("{ok} records re-judged ok, {bad} wrong");
    if bad > 0 { Err(format!("{bad} records disagree with the rules")) } else { Ok(()) }
}

fn read_records(files: &[PathBuf], games: Option<(u64, u64)>) -> Result<Vec<arena::record::GameRecord>, String> {
    let mut all = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        all.extend(parse_records(&text).map_err(|e| format!("{}: {e}", file.display()))?);
    }
    all.retain(|r| games.is_none_or(|(a, b)| (a..=b).contains(&r.game)));
    Ok(all)
}

/// What `arena belief` scores and how.
struct BeliefArgs {
    engine: Option<String>,
    every: usize,
    games: Option<(u64, u64)>,
    gamma: Option<(f32, f32, f32)>,
    counts_from: Vec<PathBuf>,
}

fn belief(file: &PathBuf, a: &BeliefArgs) -> Result<(), String> {
    use luzhanqi::belief::evidence::{EvidenceCounts, GAMMA_BEHAVIOUR, GAMMA_START, START_TRUST};
    let records = read_records(std::slice::from_ref(file), a.games)?;
    let counts = if a.counts_from.is_empty() {
        EvidenceCounts::shipped()
    } else {
        arena::belief_eval::count_evidence(&read_records(&a.counts_from, None)?, 1)?
    };
    let (gs, gb, trust) = a.gamma.unwrap_or((GAMMA_START, GAMMA_BEHAVIOUR, START_TRUST));
    let model = counts.model_trusting(gs, gb, trust);
    let report = arena::belief_eval::evaluate(&records, a.engine.as_deref(), a.every, &model)?;
    luzhanqi::outln!("{}", report.text());
    Ok(())
}

fn evidence(files: &[PathBuf], every: usize, games: Option<(u64, u64)>, out: Option<&PathBuf>) -> Result<(), String> {
    let records = read_records(files, games)?;
    let counts = arena::belief_eval::count_evidence(&records, every)?;
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let range = games.map_or(String::new(), |(a, b)| format!(" (games {a}-{b})"));
    let provenance = format!("Counted from {} games: {}{range}", records.len(), names.join(" "));
    let text = counts.to_rust(&provenance);
    match out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display())),
        None => {
            luzhanqi::out!("{text}");
            Ok(())
        }
    }
}

fn tune(files: &[PathBuf], every: usize, holdout: u64, params: &str, fit: &[String]) -> Result<(), String> {
    use arena::tune::{Weights, fit as fit_weights, loss, rows};
    use luzhanqi::search::evaluate::TERMS;
    use luzhanqi::search::params::{ParamOverrides, Params};
    let records = read_records(files, None)?;
    let variant = records.first().ok_or("no records")?.variant;
    if let Some(r) = records.iter().find(|r| r.variant != variant) {
        return Err(format!("game {} is {}, not {variant}", r.game, r.variant));
    }
    let mode = rules_of(variant, &[]).map_err(|e| e.to_string())?.mode;
    let overrides = ParamOverrides::parse(params).map_err(|e| format!("--params: {e}"))?;
    let start: Weights =
        luzhanqi::search::evaluate::Weights::of(&overrides.apply(Params::for_mode(mode))).0.map(f64::from);
    let mut free = [fit.is_empty(); TERMS.len()];
    for name in fit {
        let i = TERMS
            .iter()
            .position(|t| t == name)
            .ok_or(format!("--fit: no term '{name}' (terms: {})", TERMS.join(", ")))?;
        free[i] = true;
    }
    let rows = rows(&records, every, holdout)?;
    let fitted = fit_weights(&start, &free, &rows);
    let train = |r: &arena::tune::Row| !r.held_out;
    let held = |r: &arena::tune::Row| r.held_out;
    let (games, held_games) = (records.len(), records.iter().filter(|r| arena::tune::held_out(r, holdout)).count());
    luzhanqi::outln!("{variant}: {} positions from {} games, {} of them held out", rows.len(), games, held_games);
    luzhanqi::outln!("{:<12} {:>8} {:>8}", "term", "start", "fitted");
    for (i, name) in TERMS.iter().enumerate() {
        luzhanqi::outln!("{name:<12} {:>8.3} {:>8.3}{}", start[i], fitted[i], if free[i] { "" } else { "  (fixed)" });
    }
    for (what, pick) in [("train", &train as &dyn Fn(&arena::tune::Row) -> bool), ("held-out", &held)] {
        let (ll0, se0, n) = loss(&start, &rows, pick);
        let (ll1, se1, _) = loss(&fitted, &rows, pick);
        luzhanqi::outln!(
            "{what:<9} {n:>7} positions: log-loss {ll0:.4} -> {ll1:.4}, squared error {se0:.4} -> {se1:.4}"
        );
    }
    let words: Vec<String> = TERMS.iter().zip(&fitted).map(|(n, w)| format!("{n}={w:.3}")).collect();
    let words = words.join(" ");
    luzhanqi::outln!("SearchParams {words}");
    if let Err(e) = ParamOverrides::parse(&words) {
        luzhanqi::outln!("(the engine refuses these weights: {e}; fix that term with --fit over the others)");
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        Some(Sub::Replay { file, viewer, game, boards }) => {
            let (viewer, seat) = match viewer {
                Some(Viewer::Colour(c)) => (Some(c), None),
                Some(Viewer::Seat(s)) => (None, Some(s)),
                None => (None, None),
            };
            replay(&file, &ReplayOptions { viewer, seat, game, boards })
        }
        Some(Sub::Belief { file, engine, every, games, gamma, counts_from }) => {
            belief(&file, &BeliefArgs { engine, every, games, gamma, counts_from })
        }
        Some(Sub::Evidence { files, every, games, out }) => evidence(&files, every, games, out.as_ref()),
        Some(Sub::Tune { files, every, holdout, params, fit }) => tune(&files, every, holdout, &params, &fit),
        Some(Sub::Merge { files, out, quiet }) => merge(&files, out.as_ref(), quiet),
        None => play(cli.play, &engine_groups(&matches)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arena: {e}");
            ExitCode::FAILURE
        }
    }
}
