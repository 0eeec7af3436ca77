//! Four-player matches through the arena with the engine binary: every
//! game ends with a legal termination and replays as the truth and as
//! each seat; the lines each engine process received (copied by a `tee`
//! in front of it) name no piece its seat may not see and are exactly its
//! view of the truth; the teams swap seats within a pair over the same
//! deployments; engines that send illegal actions or deployments, crash
//! or overstep their time lose for their team; an interrupted match
//! resumes; four distinct engines rotate; the summary counts what the
//! records say.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use arena::clock::Limits;
use arena::engine::EngineSpec;
use arena::record::Termination;
use arena::replay::ReplayOptions;
use arena::siguo::record::{SiguoRecord, parse_siguo_records};
use arena::siguo::replay::replay_siguo;
use arena::siguo::runner::{SiguoConfig, SiguoSummary, run};
use arena::siguo::seat_seed;
use luzhanqi::engine::options::SiguoVariant;
use luzhanqi::protocol::{Command, SiguoStart, parse_siguo_command};
use luzhanqi::siguo::notation::{ArmDeployment, SiguoState};
use luzhanqi::siguo::{Position, Seat, SiguoReferee, SiguoRules, SiguoToken, Team};
use luzhanqi::{Deployment, Kind};

/// The engine binary Cargo built for these tests.
const ENGINE: &str = env!("CARGO_BIN_EXE_luzhanqi");

/// South's deployment of the protocol's example: `tr s <seat>` makes any
/// seat's.
const ARM: &str = "s6s7s7s2s4/s11s31s8/s1s41s5s5/s91s21s2/s1sBs6sMsB/s3s3sMsFsM";

fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-siguo-{}", std::process::id())).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The engine with `Player` `player`, deploying at random like the random
/// player does (so that engines deploy alike).
fn real(name: &str, player: &str) -> EngineSpec {
    EngineSpec {
        name: name.to_owned(),
        cmd: ENGINE.to_owned(),
        options: vec![("Player".into(), player.into()), ("SetupStyle".into(), "random".into())],
        ..EngineSpec::default()
    }
}

/// [`real`] behind a `tee` that appends every line the engine process
/// receives to `<dir>/<pid>.in`.
fn taped(name: &str, player: &str, dir: &Path) -> EngineSpec {
    let script = format!("tee -a \"$0/$$.in\" | {ENGINE}");
    EngineSpec { cmd: "sh".into(), args: vec!["-c".into(), script, dir.display().to_string()], ..real(name, player) }
}

/// A shell engine that deploys legally for the seat asked and runs
/// `on_go` for `go`.
fn fake(name: &str, on_go: &str) -> EngineSpec {
    common::fake_engine(name, on_go, &format!("echo \"bestsetup $(echo {ARM} | tr s \"${{line#go setup }}\")\""))
}

fn config(engines: Vec<EngineSpec>, games: u64, out: PathBuf) -> SiguoConfig {
    SiguoConfig {
        engines,
        variant: SiguoVariant::Siguo,
        toggles: Vec::new(),
        rules: SiguoRules::CLASSIC,
        run: common::run_settings(games, Limits { nodes: Some(1), ..Limits::default() }, 7, out),
    }
}

fn play(cfg: &SiguoConfig) -> (SiguoSummary, Vec<SiguoRecord>) {
    let summary = run(cfg).unwrap();
    let text = std::fs::read_to_string(cfg.run.out.as_ref().unwrap()).unwrap();
    let mut records = parse_siguo_records(&text).unwrap();
    records.sort_by_key(|r| r.game);
    assert_eq!(records.len() as u64, cfg.run.games);
    (summary, records)
}

fn replays(rec: &SiguoRecord) {
    for seat in std::iter::once(None).chain(Seat::ALL.map(Some)) {
        let opts = ReplayOptions { seat, ..ReplayOptions::default() };
        replay_siguo(rec, &opts, &mut String::new()).unwrap_or_else(|e| panic!("game {} as {seat:?}: {e}", rec.game));
    }
}

/// The referee of a record's start, built by the library alone.
fn referee(rec: &SiguoRecord) -> SiguoReferee {
    let d: [Deployment; 4] =
        Seat::ALL.map(|s| ArmDeployment::parse(rec.setups[s.index()].as_deref().unwrap()).unwrap().red);
    SiguoReferee::new(Position::start(SiguoRules::CLASSIC, &d))
}

/// One game as an engine process received it.
#[derive(Default, Debug)]
struct Heard {
    seed: Option<u64>,
    setup_for: Vec<String>,
    positions: Vec<String>,
}

/// The games a process received (split at `newgame`).
fn heard(file: &Path) -> Vec<Heard> {
    let mut games: Vec<Heard> = Vec::new();
    for line in std::fs::read_to_string(file).unwrap().lines() {
        if line == "newgame" {
            games.push(Heard::default());
        }
        let Some(game) = games.last_mut() else { continue };
        if let Some(v) = line.strip_prefix("setoption name Seed value ") {
            game.seed = Some(v.parse().unwrap());
        } else if let Some(s) = line.strip_prefix("go setup ") {
            game.setup_for.push(s.to_owned());
        } else if line.starts_with("position") {
            game.positions.push(line.to_owned());
        }
    }
    games
}

/// What a seat may know of a piece it was sent: its own kinds; of the
/// others only flags that the referee showed.
fn check_view(line: &str, rules: SiguoRules) -> Seat {
    let Ok(Command::SiguoPosition { start: SiguoStart::Fen(setup), moves }) = parse_siguo_command(line) else {
        panic!("not a four-player position: {line}");
    };
    let mut state = setup.state(rules).unwrap_or_else(|e| panic!("{e}: {line}"));
    let mut shown = Vec::new();
    for (i, &t) in moves.iter().enumerate() {
        match t {
            SiguoToken::Attack { loser, .. } => assert_eq!(loser, None, "a loser named without WinnerLearnsLoser"),
            SiguoToken::Show { at, piece } => {
                assert_eq!(piece.kind, Some(Kind::Flag), "only flags are shown: {t}");
                assert!(i > 0 && matches!(moves[i - 1], SiguoToken::Attack { .. } | SiguoToken::Show { .. }));
                shown.push(at);
            }
            SiguoToken::Move(_) | SiguoToken::Out { .. } => {}
        }
        state.apply(t).unwrap_or_else(|e| panic!("token {}: {e}: {line}", i + 1));
    }
    let seat = state.pos.side_to_move();
    for (p, c) in setup.cells.iter().enumerate().filter_map(|(i, c)| c.map(|c| (i, c))) {
        assert_eq!(c.kind.is_some(), c.seat == seat, "point {p}: {seat} is sent {c:?} at the start: {line}");
    }
    for p in state.pos.occupied() {
        let c = state.pos.cell(p).unwrap();
        if c.seat != seat {
            assert!(c.kind.is_none() || shown.contains(&p), "{seat} knows {p}: {c:?}");
        }
    }
    seat
}

#[test]
fn a_four_player_match_through_the_engine_binary() {
    let tapes = [dir("tape-greedy"), dir("tape-random")];
    let engines = vec![taped("greedy", "greedy", &tapes[0]), taped("random", "random", &tapes[1])];
    let cfg = config(engines, 6, dir("match").join("siguo.ljr"));
    let (summary, records) = play(&cfg);
    assert_eq!((summary.tally.games(), summary.tally.pairs(), summary.errors), (6, 3, 0), "{}", summary.text(&cfg));
    for rec in &records {
        let ended = rec.termination.by_rules() || rec.termination == Termination::MaxPlies;
        assert!(ended, "game {}: {} {}", rec.game, rec.termination, rec.detail);
        assert!(rec.failed.is_empty());
        replays(rec);
    }
    // Pairs: the same seeds and deployments, the teams swapped.
    for pair in records.chunks(2) {
        assert_eq!((pair[0].seed, &pair[0].setups), (pair[1].seed, &pair[1].setups));
        assert_eq!(pair[0].names, ["greedy", "random", "greedy", "random"].map(str::to_owned));
        assert_eq!(pair[1].names, ["random", "greedy", "random", "greedy"].map(str::to_owned));
    }
    assert_ne!(records[0].seed, records[2].seed);

    // What each process received: only its seat's view, and exactly the
    // truth's view of it move after move.
    let mut checked = 0;
    for (tape, name) in tapes.iter().zip(["greedy", "random"]) {
        let files: Vec<PathBuf> = std::fs::read_dir(tape).unwrap().map(|e| e.unwrap().path()).collect();
        // Two workers, two processes each for this engine (one a seat of its team).
        assert_eq!(files.len(), 4, "{files:?}");
        for file in files {
            for game in heard(&file) {
                let seats: Vec<Seat> = game.positions.iter().map(|l| check_view(l, cfg.rules)).collect();
                let seat = seats[0];
                assert!(seats.iter().all(|&s| s == seat), "a process plays one seat a game");
                assert_eq!(game.setup_for, [seat.to_char().to_ascii_lowercase().to_string()]);
                // The record of this game: its seed for this seat, this engine there.
                let rec = records
                    .iter()
                    .find(|r| {
                        let seed = arena::game::engine_seed(seat_seed(r.seed, seat));
                        game.seed == Some(seed) && r.name(seat) == name
                    })
                    .expect("the game of the seed");
                let mut truth = referee(rec);
                let mut expected = Vec::new();
                for ply in &rec.plies {
                    if ply.seat == seat {
                        let start = SiguoState { pos: truth.start(seat).clone(), ply: 0, removed: Vec::new() };
                        let moves = truth.told(seat).to_vec();
                        let cmd = Command::SiguoPosition { start: SiguoStart::Fen(start.setup()), moves };
                        expected.push(cmd.to_string());
                    }
                    let action = match ply.token {
                        SiguoToken::Move(a) => a,
                        SiguoToken::Attack { from, to, .. } => luzhanqi::siguo::Action::attacking(from, to),
                        t => panic!("{t}"),
                    };
                    truth.play(action).unwrap();
                }
                assert_eq!(game.positions, expected, "game {} seat {seat}", rec.game);
                checked += game.positions.len();
            }
        }
    }
    let plies: usize = records.iter().map(|r| r.plies.len()).sum();
    assert_eq!(checked, plies, "every move was asked of the seat to move, by one position line");

    // The summary counts what the records say, from the first team's side.
    let mut wins = 0;
    let mut by_pair: BTreeMap<u64, u8> = BTreeMap::new();
    for rec in &records {
        let greedy_team = if rec.name(Seat::South) == "greedy" { Team::SouthNorth } else { Team::EastWest };
        let half = rec.winner.map_or(1, |t| if t == greedy_team { 2 } else { 0 });
        wins += u64::from(half == 2);
        *by_pair.entry(rec.pair).or_default() += half;
    }
    let mut penta = [0; 5];
    by_pair.values().for_each(|&h| penta[usize::from(h)] += 1);
    assert_eq!((summary.tally.wins, summary.tally.penta), (wins, penta));
    let moves =
        |name: &str| records.iter().flat_map(|r| r.plies.iter().filter(move |p| r.name(p.seat) == name)).count();
    assert_eq!([summary.move_ms[0].len(), summary.move_ms[1].len()], [moves("greedy"), moves("random")]);
    let json = summary.json(&cfg);
    assert!(
        json.starts_with(
            "{\"engines\":[\"greedy\",\"random\"],\"teams\":[\"greedy\",\"random\"],\"variant\":\"siguo\",\"games\":6,"
        ),
        "{json}"
    );
    assert!(summary.text(&cfg).contains("\nEngine "), "{}", summary.text(&cfg));
}

#[test]
fn illegal_actions_and_deployments_crashes_and_time_losses_lose_for_the_team() {
    let out = dir("faults");
    let random = || real("random", "random");
    let one = |engine: EngineSpec, games: u64, file: &str| {
        let mut cfg = config(vec![engine, random()], games, out.join(file));
        cfg.run.concurrency = 1;
        cfg
    };
    // The cheat's seat to move sends an illegal action: S in game 1 (its
    // team at SN), E in game 2 after South's first move.
    let (summary, records) = play(&one(fake("cheat", "echo 'bestmove Sa1-Sa2'"), 2, "illegal.ljr"));
    assert_eq!((summary.tally.losses, summary.faults[0].get(&Termination::Illegal)), (2, Some(&2)));
    for (rec, seat, plies) in [(&records[0], Seat::South, 0), (&records[1], Seat::East, 1)] {
        assert_eq!((rec.termination, &rec.failed, rec.plies.len()), (Termination::Illegal, &vec![seat], plies));
        assert_eq!(rec.winner, Some(Team::of(seat).other()));
        assert_eq!(rec.illegal.as_deref(), Some("Sa1-Sa2"));
        assert!(
            rec.detail.starts_with(&format!("cheat ({seat}) sent 'bestmove Sa1-Sa2': not legal")),
            "{}",
            rec.detail
        );
        replays(rec);
    }
    // A two-player action is no four-player one.
    let (_, records) = play(&one(fake("twoplayer", "echo 'bestmove a1-a2'"), 1, "twoplayer.ljr"));
    assert!(records[0].detail.ends_with("not a four-player action"), "{}", records[0].detail);

    // Deployments: of another seat, or nonsense; both of a team's seats fail.
    let wrong = common::fake_engine("wrong", "true", &format!("echo 'bestsetup {ARM}'"));
    let (summary, records) = play(&one(wrong, 2, "badsetup.ljr"));
    assert_eq!(summary.tally.losses, 2);
    assert_eq!(records[0].failed, [Seat::North]);
    assert!(records[0].detail.contains("wrong (N) sent an illegal deployment: it deploys S's arm, not N's"));
    assert_eq!(records[1].failed, [Seat::East, Seat::West]);
    records.iter().for_each(replays);

    // A crash at its first go, restarted for the next game.
    let (summary, records) = play(&one(fake("crash", "exit 3"), 2, "crash.ljr"));
    assert_eq!((summary.tally.losses, summary.faults[0].get(&Termination::Crash)), (2, Some(&2)));
    assert!(records.iter().all(|r| r.termination == Termination::Crash && r.detail.contains("exit status: 3")));
    records.iter().for_each(replays);

    // Time: a movetime of 100 ms overstepped by a second.
    let mut cfg = one(fake("slow", "sleep 1; echo 'bestmove Sa1-Sa2'"), 2, "time.ljr");
    cfg.run.limits = Limits { movetime: Some(100), ..Limits::default() };
    cfg.run.margin = Duration::from_millis(50);
    let (summary, records) = play(&cfg);
    assert_eq!(summary.tally.losses, 2, "{}", summary.text(&cfg));
    for rec in &records {
        assert_eq!(rec.termination, Termination::Time, "{}", rec.detail);
        assert!(rec.detail.contains("lost on time: no bestmove within 150 ms"), "{}", rec.detail);
        replays(rec);
    }

    // An SPRT stops a lopsided match: the cheat loses every pair.
    let mut cfg = one(fake("cheat", "echo 'bestmove Sa1-Sa2'"), 200, "sprt.ljr");
    cfg.run.sprt = Some("elo0=0 elo1=200".parse().unwrap());
    let summary = run(&cfg).unwrap();
    assert_eq!(summary.verdict, Some(arena::stats::Verdict::H0), "{}", summary.text(&cfg));
    assert!(summary.tally.games() < 60);
}

#[test]
fn an_interrupted_match_resumes_and_four_engines_rotate() {
    let path = dir("resume").join("resume.ljr");
    let engines = || vec![real("greedy", "greedy"), real("random", "random")];
    let cfg = config(engines(), 4, path.clone());
    let (_, full) = play(&cfg);
    // Cut as a kill would: the last game half written.
    let text = std::fs::read_to_string(&path).unwrap();
    let cut = text.find("[Game \"4\"]").or(text.find("[Game \"3\"]")).unwrap();
    let mut kept: Vec<SiguoRecord> = parse_siguo_records(&text).unwrap();
    kept.sort_by_key(|r| r.game);
    let first_pair: String = kept[..2].iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(&path, format!("{first_pair}{}", &text[cut..cut + 200])).unwrap();
    let mut more = config(engines(), 4, path.clone());
    more.run.resume = true;
    let (summary, records) = play(&more);
    assert_eq!((summary.tally.games(), summary.tally.pairs()), (4, 2));
    let untimed = |r: &[SiguoRecord]| {
        let mut r = r.to_vec();
        r.iter_mut().flat_map(|r| &mut r.plies).for_each(|p| p.ms = 0);
        r
    };
    // Node limits and seeded players: the missing pair is played again the same.
    assert_eq!(untimed(&records), untimed(&full));
    let mut other = more.clone();
    other.run.seed = 8;
    assert!(run(&other).unwrap_err().contains("not from this match"));

    // Two shards merged are the same match, records and summary.
    let mut inputs = Vec::new();
    for k in 1..=2 {
        let mut shard = config(engines(), 4, dir("resume").join(format!("shard-{k}.ljr")));
        shard.run.shard = Some(arena::shard::Shard { index: k, count: 2 });
        run(&shard).unwrap();
        let text = std::fs::read_to_string(shard.run.out.as_ref().unwrap()).unwrap();
        assert!(text.contains(&format!("[Shard \"{k}/2\"]\n[Match \"games=4 seed=7 id=")), "{text}");
        inputs.push((format!("shard-{k}"), text));
    }
    let merged = arena::siguo::runner::merge(&inputs).unwrap();
    assert_eq!(untimed(&merged.records), untimed(&full));
    let json =
        |s: &SiguoSummary| s.json_with(SiguoVariant::Siguo, None, None).split(",\"move_ms\"").next().map(str::to_owned);
    assert_eq!(json(&merged.summary), json(&summary));
    assert!(arena::siguo::runner::merge(&inputs[..1]).unwrap_err().contains("shard 2/2 lacks games 3, 4"));

    // Four engines: partners a+b against c+d, partners exchanging seats
    // every other pair.
    let four = ["a", "b", "c", "d"].map(|n| real(n, "random")).to_vec();
    let (summary, records) = play(&config(four, 4, dir("four").join("four.ljr")));
    let names: Vec<[&str; 4]> = records.iter().map(|r| r.names.each_ref().map(String::as_str)).collect();
    assert_eq!(names, [["a", "c", "b", "d"], ["c", "a", "d", "b"], ["b", "d", "a", "c"], ["d", "b", "c", "a"]]);
    assert_eq!(summary.teams, ["a+b", "c+d"]);
    records.iter().for_each(replays);
}
