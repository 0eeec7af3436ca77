//! Plays short matches through the arena with the engine binary: `greedy`
//! against `random` in every variant (every game must end with a legal
//! termination and its record must replay cleanly), and engines that
//! misbehave (illegal actions, bad deployments, crashes, stalls, time
//! losses) against the real engine.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use arena::clock::{Limits, TimeControl};
use arena::engine::EngineSpec;
use arena::record::{GameRecord, Termination, parse_records};
use arena::replay::{ReplayOptions, replay_game};
use arena::runner::{MatchConfig, Summary, run};
use luzhanqi::{Colour, Variant};

/// The engine binary Cargo built for these tests (the test profile, like
/// the rest of the tests).
const ENGINE: &str = env!("CARGO_BIN_EXE_luzhanqi");

fn real(name: &str, player: &str) -> EngineSpec {
    EngineSpec {
        name: name.to_owned(),
        cmd: ENGINE.to_owned(),
        options: vec![("Player".to_owned(), player.to_owned())],
        ..EngineSpec::default()
    }
}

fn config(engines: [EngineSpec; 2], variant: Variant, games: u64, out: PathBuf) -> MatchConfig {
    MatchConfig {
        engines,
        variant,
        toggles: Vec::new(),
        rules: variant.rules(),
        run: common::run_settings(
            games,
            Limits { tc: Some(TimeControl { base: 20_000, inc: 100 }), ..Limits::default() },
            11,
            out,
        ),
    }
}

fn out_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn play(cfg: &MatchConfig) -> (Summary, Vec<GameRecord>) {
    let summary = run(cfg).unwrap();
    let text = std::fs::read_to_string(cfg.run.out.as_ref().unwrap()).unwrap();
    let mut records = parse_records(&text).unwrap();
    records.sort_by_key(|r| r.game);
    assert_eq!(records.len() as u64, cfg.run.games);
    (summary, records)
}

#[test]
fn greedy_against_random_in_every_variant() {
    for variant in Variant::ALL {
        // Greedy deploys at random here like the random player (which always
        // does), so that a pair replays the same two armies.
        let mut greedy = real("greedy", "greedy");
        greedy.options.push(("SetupStyle".to_owned(), "random".to_owned()));
        let engines = [greedy, real("random", "random")];
        let cfg = config(engines, variant, 6, out_file(&format!("{variant}.ljr")));
        let (summary, records) = play(&cfg);
        assert_eq!(summary.tally.games(), 6, "{variant}: {}", summary.text(&cfg));
        assert_eq!(summary.tally.pairs(), 3);
        let plies: usize = records.iter().map(|r| r.plies.len()).sum();
        assert_eq!(summary.move_ms[0].len() + summary.move_ms[1].len(), plies);
        assert!(summary.json(&cfg).contains("\"move_ms\":{\"median\":["), "{}", summary.json(&cfg));
        assert!(summary.text(&cfg).contains("Move times (ms): greedy median "), "{}", summary.text(&cfg));
        for rec in &records {
            let legal = rec.termination.by_rules() || rec.termination == Termination::MaxPlies;
            assert!(legal, "{variant} game {}: {} {}", rec.game, rec.termination, rec.detail);
            for viewer in [None, Some(Colour::Red), Some(Colour::Blue)] {
                let opts = ReplayOptions { viewer, ..ReplayOptions::default() };
                replay_game(rec, &opts, &mut String::new()).unwrap_or_else(|e| panic!("{variant} {}: {e}", rec.game));
            }
        }
        // Seats swap within a pair, and both games of a pair share the seed.
        assert_eq!(records[0].seed, records[1].seed);
        assert_ne!(records[0].seed, records[2].seed);
        if variant == Variant::Flip {
            assert_eq!(records[0].deal, records[1].deal);
        } else {
            // The same Seed gives each colour the same deployment in both games.
            assert_eq!(records[0].setups, records[1].setups, "{variant}");
            assert_eq!(records[0].name(Colour::Red), records[1].name(Colour::Blue));
        }
        // `arena tune` reads the same records: one row per position with a
        // side to move, its result that side's, and the fit lowers the loss.
        let rows = arena::tune::rows(&records, 1, 2).unwrap();
        let decided: Vec<&GameRecord> = records.iter().filter(|r| r.termination.by_rules()).collect();
        assert!(rows.len() <= decided.iter().map(|r| r.plies.len()).sum::<usize>() && !rows.is_empty(), "{variant}");
        assert!(rows.iter().all(|r| [0.0, 0.5, 1.0].contains(&r.result)));
        assert!(rows.iter().any(|r| r.held_out) && rows.iter().any(|r| !r.held_out));
        let start = [1.0, 1.0, 1.0, 1.0, 1.0, 0.6, 0.25];
        let fitted = arena::tune::fit(&start, &[true; 7], &rows);
        let train = |r: &arena::tune::Row| !r.held_out;
        assert!(arena::tune::loss(&fitted, &rows, train).0 < arena::tune::loss(&start, &rows, train).0, "{variant}");
    }
}

#[test]
fn illegal_actions_and_bad_deployments_lose() {
    let engines =
        [common::fake_engine("cheat", "echo 'bestmove a1-a9'", "echo 'bestsetup nonsense'"), real("random", "random")];
    let cfg = config(engines.clone(), Variant::Flip, 2, out_file("illegal.ljr"));
    let (summary, records) = play(&cfg);
    assert_eq!((summary.tally.losses, summary.tally.games()), (2, 2));
    for rec in &records {
        assert_eq!(rec.termination, Termination::Illegal, "{}", rec.detail);
        assert_eq!(rec.illegal.as_deref(), Some("a1-a9"));
        replay_game(rec, &ReplayOptions::default(), &mut String::new()).unwrap();
    }
    let cfg = config(engines, Variant::Classic, 2, out_file("badsetup.ljr"));
    let (summary, records) = play(&cfg);
    assert_eq!(summary.tally.losses, 2);
    for rec in &records {
        assert_eq!(rec.termination, Termination::BadSetup, "{}", rec.detail);
        assert!(rec.detail.contains("cheat"), "{}", rec.detail);
        replay_game(rec, &ReplayOptions::default(), &mut String::new()).unwrap();
    }
}

#[test]
fn crashes_stalls_and_time_losses_lose_and_the_engine_restarts() {
    let crash = common::fake_engine("crash", "exit 3", "exit 3");
    let cfg = config([crash, real("random", "random")], Variant::Classic, 2, out_file("crash.ljr"));
    let (summary, records) = play(&cfg);
    assert_eq!(summary.tally.losses, 2);
    // The second game ran with a restarted engine: it crashed at setup again.
    assert!(records.iter().all(|r| r.termination == Termination::Crash), "{records:?}");

    let slow = common::fake_engine("slow", "sleep 1; echo 'bestmove a6'", "echo 'bestsetup x'");
    let mut cfg = config([real("random", "random"), slow], Variant::Flip, 2, out_file("time.ljr"));
    cfg.run.limits = Limits { tc: Some(TimeControl { base: 300, inc: 0 }), ..Limits::default() };
    cfg.run.margin = Duration::from_millis(50);
    let (summary, records) = play(&cfg);
    assert_eq!(summary.tally.wins, 2, "{records:?}");
    assert!(records.iter().all(|r| r.termination == Termination::Time), "{records:?}");

    let mute = common::fake_engine("mute", "true", "true");
    let mut cfg = config([mute, real("random", "random")], Variant::Open, 2, out_file("stall.ljr"));
    cfg.run.stall = Duration::from_millis(300);
    cfg.run.limits = Limits { nodes: Some(1), ..Limits::default() };
    let (summary, records) = play(&cfg);
    assert_eq!(summary.tally.losses, 2);
    assert!(records.iter().all(|r| r.termination == Termination::Stall), "{records:?}");
}

#[test]
fn the_length_limit_draws_and_the_sprt_stops_a_lopsided_match() {
    let engines = [real("greedy", "greedy"), real("random", "random")];
    let mut cfg = config(engines.clone(), Variant::Flip, 2, out_file("maxplies.ljr"));
    cfg.run.max_plies = 12;
    let (summary, records) = play(&cfg);
    assert_eq!(summary.tally.draws, 2);
    for rec in &records {
        assert_eq!((rec.termination, rec.plies.len(), rec.winner), (Termination::MaxPlies, 12, None));
        replay_game(rec, &ReplayOptions::default(), &mut String::new()).unwrap();
    }

    let mut cfg = config(engines, Variant::Open, 200, out_file("sprt.ljr"));
    cfg.run.sprt = Some("elo0=0 elo1=200".parse().unwrap());
    let summary = run(&cfg).unwrap();
    assert_eq!(summary.verdict, Some(arena::stats::Verdict::H1), "{}", summary.text(&cfg));
    assert!(summary.tally.games() < 60, "stopped after {} games", summary.tally.games());
    assert!(summary.json(&cfg).contains("\"verdict\":\"H1\""));
}

#[test]
fn an_interrupted_match_resumes_with_the_pairs_it_finished() {
    let engines = [real("greedy", "greedy"), real("random", "random")];
    let path = out_file("resume.ljr");
    let cfg = config(engines.clone(), Variant::Flip, 6, path.clone());
    let (_, full) = play(&cfg);
    // Cut the file as a kill would: pair 3 lost its second game and the
    // record before it is cut in the middle.
    let text = std::fs::read_to_string(&path).unwrap();
    let mut recs = parse_records(&text).unwrap();
    recs.sort_by_key(|r| r.game);
    let kept: String = recs[..4].iter().map(|r| format!("{r}\n")).collect();
    let fifth = recs[4].to_string();
    std::fs::write(&path, format!("{kept}{}", &fifth[..fifth.len() / 2])).unwrap();
    let mut more = config(engines.clone(), Variant::Flip, 8, path.clone());
    more.run.resume = true;
    let (summary, records) = play(&more);
    assert_eq!(summary.tally.games(), 8);
    assert_eq!(summary.tally.pairs(), 4);
    // The kept games are untouched; the missing pair was played again from its seed.
    assert_eq!(records[..4], full[..4]);
    assert_eq!((records[4].deal.clone(), records[4].seed), (full[4].deal.clone(), full[4].seed));
    // Records of another match are refused.
    let mut other = config(engines, Variant::Flip, 8, path);
    other.run.resume = true;
    other.run.seed = 12;
    assert!(run(&other).unwrap_err().contains("not from this match"));
}

/// The records of `recs` in game order as `--out` writes them, every move
/// time zeroed.
fn untimed(recs: &[GameRecord]) -> String {
    let mut recs = recs.to_vec();
    recs.sort_by_key(|r| r.game);
    recs.iter_mut().flat_map(|r| &mut r.plies).for_each(|p| p.ms = 0);
    recs.iter().map(|r| format!("{r}\n")).collect()
}

/// A summary (text or JSON) without its timings: the `Move times` and
/// `Wall time` lines, the `move_ms` and `wall_s` fields.
fn untimed_summary(s: &str) -> String {
    let lines = s.lines().filter(|l| !l.starts_with("Move times (ms):") && !l.starts_with("Wall time:"));
    lines.map(|l| l.split(",\"move_ms\":").next().unwrap_or(l).to_owned() + "\n").collect()
}

#[test]
fn three_shards_merged_equal_one_run_of_the_same_match() {
    use arena::shard::{Shard, merge};
    let engines = [real("greedy", "greedy"), real("random", "random")];
    let mut whole = config(engines, Variant::Classic, 12, out_file("whole.ljr"));
    whole.run.seed = 1;
    whole.run.limits = Limits { nodes: Some(100), ..Limits::default() };
    let (summary, records) = play(&whole);
    // Not a trivial match: wins, a draw and a loss, in several pair scores.
    assert!(summary.tally.wins > 0 && summary.tally.draws > 0 && summary.tally.losses > 0, "{}", summary.text(&whole));
    assert!(summary.tally.penta.iter().filter(|&&n| n > 0).count() >= 2, "{}", summary.text(&whole));
    let shard = |index: u64, seed: u64| {
        let mut cfg = whole.clone();
        (cfg.run.shard, cfg.run.seed, cfg.run.concurrency) = (Some(Shard { index, count: 3 }), seed, 1);
        cfg.run.out = Some(out_file(&format!("shard-{index}-of-3-seed-{seed}.ljr")));
        cfg
    };
    let mut inputs = Vec::new();
    for k in 1..=3 {
        let cfg = shard(k, 1);
        let part = run(&cfg).unwrap();
        let text = std::fs::read_to_string(cfg.run.out.as_ref().unwrap()).unwrap();
        // Shard k plays pairs k and k+3 (games 2k-1, 2k, 2k+5, 2k+6), tagged.
        let mut games: Vec<u64> = parse_records(&text).unwrap().iter().map(|r| r.game).collect();
        games.sort_unstable();
        assert_eq!(games, [2 * k - 1, 2 * k, 2 * k + 5, 2 * k + 6]);
        assert_eq!(part.tally.games(), 4);
        assert!(text.contains(&format!("[Shard \"{k}/3\"]\n[Match \"games=12 seed=1 id=")), "{text}");
        inputs.push((format!("shard-{k}"), text));
    }
    let merged = merge(&inputs).unwrap();
    assert_eq!(untimed(&merged.records), untimed(&records), "records");
    assert_eq!(untimed_summary(&merged.summary.text_with(None, None)), untimed_summary(&summary.text(&whole)));
    let json = merged.summary.json_with(Variant::Classic, None, None);
    assert_eq!(untimed_summary(&json), untimed_summary(&summary.json(&whole)));
    assert!(json.ends_with(",\"wall_s\":null}"), "{json}");
    // The timings left out are the records': the match's own summary is
    // that of its records, byte for byte.
    let names = ["greedy".to_owned(), "random".to_owned()];
    assert_eq!(
        Summary::from_records(names, &records).json_with(Variant::Classic, None, Some(summary.wall)),
        summary.json(&whole)
    );

    // What merge refuses: a missing shard, a shard twice, another match's shard.
    let err = merge(&[inputs[0].clone(), inputs[2].clone()]).unwrap_err();
    assert!(err.contains("shard 2/3 lacks games 3, 4, 9, 10"), "{err}");
    let err = merge(&[inputs[0].clone(), inputs[1].clone(), inputs[1].clone(), inputs[2].clone()]).unwrap_err();
    assert!(err.contains("game 3 (pair 2) is twice: in shard-2 and in shard-2"), "{err}");
    let other = shard(2, 2);
    run(&other).unwrap();
    let text = std::fs::read_to_string(other.run.out.as_ref().unwrap()).unwrap();
    let err = merge(&[inputs[0].clone(), ("other".to_owned(), text), inputs[2].clone()]).unwrap_err();
    assert!(err.contains("other: game") && err.contains("is of another match (games=12 seed=2"), "{err}");

    // A shard killed in its second pair resumes with only its own pairs,
    // and the merge is the same again.
    let cfg = shard(3, 1);
    let path = cfg.run.out.clone().unwrap();
    let text = inputs[2].1.clone();
    let cut = text.find("[Game \"11\"]").unwrap();
    std::fs::write(&path, &text[..cut + 40]).unwrap();
    let mut resumed = cfg.clone();
    resumed.run.resume = true;
    run(&resumed).unwrap();
    inputs[2].1 = std::fs::read_to_string(&path).unwrap();
    assert_eq!(inputs[2].1[..cut], text[..cut], "the first pair is kept as it was");
    assert_eq!(untimed(&merge(&inputs).unwrap().records), untimed(&records));
    // A shard's records are not another shard's to resume.
    let mut wrong = shard(1, 1);
    (wrong.run.out, wrong.run.resume) = (Some(path), true);
    assert!(run(&wrong).unwrap_err().contains("not from this match"));
    // A shard cannot run an SPRT: it would stop on its own pairs.
    let mut sprt = shard(1, 1);
    sprt.run.sprt = Some("elo0=0 elo1=200".parse().unwrap());
    assert!(run(&sprt).unwrap_err().contains("--sprt with --shard"));
}

/// Runs one of `tools/scripts/` with Python 3 and returns its stdout.
fn script(name: &str, args: &[&str]) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/scripts/");
    let out = std::process::Command::new("python3")
        .arg(format!("{path}{name}"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("python3 {name}: {e} (the record scripts need Python 3)"));
    assert!(out.status.success(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// In marshal-flag.py's output, each Marshal hit by a bomb is counted once
/// by the combats it had won.
fn bomb_hits_counted_once(text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        let Some(n) = l.trim().strip_prefix("hit by a bomb: ") else { continue };
        let hits: usize = n.split(',').next().unwrap().parse().unwrap();
        let wins = lines[i + 1..]
            .iter()
            .find_map(|l| l.trim().strip_prefix("hit by a bomb after winning combats: "))
            .expect("the wins line");
        let counted: usize =
            wins.split(", ").map(|part| part.rsplit(": ").next().unwrap().parse::<usize>().unwrap()).sum();
        assert_eq!(counted, hits, "{text}");
    }
}

#[test]
fn the_record_scripts_count_what_the_records_hold() {
    let out = out_file("scripts-classic.ljr");
    let engines = [real("greedy", "greedy"), real("random", "random")];
    let cfg = config(engines, Variant::Classic, 8, out.clone());
    let (_, records) = play(&cfg);
    let record = out.to_str().unwrap();
    let colour = |r: &GameRecord, engine: &str| if r.name(Colour::Red) == engine { Colour::Red } else { Colour::Blue };
    for engine in ["greedy", "random"] {
        let lost: Vec<&GameRecord> =
            records.iter().filter(|r| r.winner.is_some_and(|w| w != colour(r, engine))).collect();
        let by_flag = lost.iter().filter(|r| r.termination == Termination::Flag).count();
        let text = script("falls.py", &[engine, record]);
        let first = format!("{engine}: {} losses, {by_flag} with its flag taken", lost.len());
        assert!(text.starts_with(&first), "{first}\n{text}");
        // Each flag taken counts once by how the guard in front of it fell.
        let guards = text.lines().find(|l| l.contains("the mine in front of the flag fell to")).unwrap();
        let counted: usize = guards.split(|c: char| !c.is_ascii_digit()).filter_map(|n| n.parse::<usize>().ok()).sum();
        assert_eq!(counted, by_flag, "{text}");
    }
    let text = script("marshal-flag.py", &[record]);
    assert!(text.contains("greedy") && text.contains("random"), "{text}");
    bomb_hits_counted_once(&text);
    // A Marshal that beat a General and was hit by a bomb on the next ply
    // (Red's on c2 takes c7, Blue's bomb on c10 answers).
    let bombed = out_file("bombed.ljr");
    std::fs::write(
        &bombed,
        "[Game \"1\"]\n[Variant \"classic\"]\n[Red \"a\"]\n[Blue \"b\"]\n\
         [RedSetup \"r3r7r3r6r5/r11r21rB/r2r11rBr4/r71r21r8/r6rMr9r1r4/rMrFrMr5r3\"]\n\
         [BlueSetup \"b3b2bMbFbM/b7b6bBbMb5/b71bB1b1/b3b21b2b5/b91b41b1/b1b6b8b3b4\"]\n\
         [Result \"0-1\"]\n\n1 r c2xc7+ 5\n2 b c10xc7= 5\n",
    )
    .unwrap();
    let text = script("marshal-flag.py", &[bombed.to_str().unwrap()]);
    bomb_hits_counted_once(&text);
    assert!(text.contains("hit by a bomb: 1, scoring 0%"), "{text}");
    assert!(text.contains("hit by a bomb after winning combats: 0: 0, 1: 1, 2: 0, 3 or more: 0"), "{text}");
    assert!(text.contains("the highest rank it had beaten then: 8: 1"), "{text}");
    // deployment-scores.py: every group of lines adds up to greedy's games
    // and results.
    let wins = records.iter().filter(|r| r.winner == Some(colour(r, "greedy"))).count();
    let draws = records.iter().filter(|r| r.winner.is_none()).count();
    let totals = [wins, draws, records.len() - wins - draws];
    let text = script("deployment-scores.py", &["greedy", record]);
    assert!(text.starts_with(&format!("greedy: {} games\n", records.len())), "{text}");
    // A group's heading is indented by two spaces, its lines by four.
    let mut sums: Vec<[usize; 3]> = Vec::new();
    for line in text.lines().skip(1) {
        if !line.starts_with("    ") {
            sums.push([0; 3]);
            continue;
        }
        let wdl = line.split(": ").nth(1).and_then(|r| r.split(',').next()).expect("a W-D-L line");
        let sum = sums.last_mut().expect("a heading first");
        for (s, n) in sum.iter_mut().zip(wdl.split('-')) {
            *s += n.parse::<usize>().unwrap();
        }
    }
    assert_eq!(sums, vec![totals; 5], "{text}");
    // The slow moves: each of an engine's plies once, those over the limit.
    for limit in [0u64, 2] {
        let plies = records.iter().flat_map(|r| r.plies.iter().filter(move |p| r.name(p.colour) == "greedy"));
        let (moves, over) = plies.fold((0, 0), |(m, o), p| (m + 1, o + usize::from(p.ms > limit)));
        let text = script("slow-moves.py", &["greedy", &limit.to_string(), record]);
        let counted = format!("greedy {moves} moves, {over} over {limit} ms");
        assert!(text.contains(&counted), "{counted}\n{text}");
    }
}
