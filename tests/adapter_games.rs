//! Whole games through both sides of the adapters: our engine behind the
//! CCGC (or CS4500) engine-side adapter (`luzhanqi ccgc`, `luzhanqi
//! cs4500`), hosted by the arena through its host-side adapter
//! (`proto=ccgc`, `proto=cs4500`), against our engine over ULI. The same
//! match with the adapted engine replaced by the same engine over ULI must
//! give the same record move for move: the two adapters together are
//! transparent.

use std::path::PathBuf;
use std::time::Duration;

use arena::clock::{Limits, TimeControl};
use arena::engine::EngineSpec;
use arena::proto::Proto;
use arena::record::{GameRecord, Termination, parse_records};
use arena::runner::{MatchConfig, run};
use arena::schedule::RunSettings;
use luzhanqi::Variant;

const ENGINE: &str = env!("CARGO_BIN_EXE_luzhanqi");

/// The engine options both runs give the engine under test.
const OPTIONS: [(&str, &str); 3] = [("Player", "greedy"), ("Seed", "5"), ("SetupStyle", "random")];

fn uli(name: &str, options: &[(&str, &str)]) -> EngineSpec {
    EngineSpec {
        name: name.to_owned(),
        cmd: ENGINE.to_owned(),
        options: options.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect(),
        ..EngineSpec::default()
    }
}

fn adapted(name: &str, proto: Proto) -> EngineSpec {
    let mut args = vec![if proto == Proto::Cs4500 { "cs4500" } else { "ccgc" }.to_owned()];
    for (n, v) in OPTIONS {
        args.push("--option".to_owned());
        args.push(format!("{n}={v}"));
    }
    EngineSpec { name: name.to_owned(), cmd: ENGINE.to_owned(), args, proto, ..EngineSpec::default() }
}

fn one_game(engines: [EngineSpec; 2], variant: Variant, tag: &str) -> GameRecord {
    let dir = std::env::temp_dir().join(format!("adapter-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out: PathBuf = dir.join(format!("{tag}.ljr"));
    let cfg = MatchConfig {
        engines,
        variant,
        toggles: Vec::new(),
        rules: variant.rules(),
        run: RunSettings {
            games: 1,
            concurrency: 1,
            limits: Limits { tc: Some(TimeControl { base: 60_000, inc: 0 }), ..Limits::default() },
            seed: 3,
            max_plies: 400,
            margin: Duration::from_millis(500),
            stall: Duration::from_secs(10),
            out: Some(out.clone()),
            resume: false,
            log_dir: Some(dir.join(format!("{tag}-logs"))),
            sprt: None,
            resign: None,
            quiet: true,
            shard: None,
        },
    };
    run(&cfg).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let mut records = parse_records(&text).unwrap();
    assert_eq!(records.len(), 1);
    records.remove(0)
}

/// What must agree between the two runs.
fn moves(r: &GameRecord) -> (Vec<String>, [Option<String>; 2], Option<luzhanqi::Colour>, Termination) {
    (r.plies.iter().map(|p| p.token.to_string()).collect(), r.setups.clone(), r.winner, r.termination)
}

fn same_game_both_ways(proto: Proto, variant: Variant) {
    same_game(proto, variant, &[0, 1]);
}

fn same_game(proto: Proto, variant: Variant, seats: &[usize]) {
    for &seat in seats {
        let opponent = uli("opponent", &[("Player", "random"), ("Seed", "9"), ("SetupStyle", "random")]);
        let mut through = [adapted("tested", proto), opponent.clone()];
        let mut direct = [uli("tested", &OPTIONS), opponent];
        if seat == 1 {
            through.swap(0, 1);
            direct.swap(0, 1);
        }
        let a = one_game(through, variant, &format!("{variant}-{proto:?}-{seat}-adapted"));
        let b = one_game(direct, variant, &format!("{variant}-{proto:?}-{seat}-uli"));
        assert!(
            !matches!(
                a.termination,
                Termination::Crash | Termination::Stall | Termination::Illegal | Termination::Error
            ),
            "{variant} seat {seat}: {} ({})",
            a.termination,
            a.detail
        );
        assert!(a.plies.len() > 10, "{variant} seat {seat}: a real game ({} plies)", a.plies.len());
        assert_eq!(moves(&a), moves(&b), "{variant} seat {seat}: {} / {}", a.detail, b.detail);
    }
}

#[test]
fn a_ccgc_game_through_both_adapters_is_the_uli_game() {
    same_game_both_ways(Proto::Ccgc, Variant::Ccgc);
    // The CCGC time rule from the arena's clock (60 s, sent as the 1000 s the
    // engines read), the adapter's exchange in the game log.
    let dir = std::env::temp_dir().join(format!("adapter-games-{}", std::process::id()));
    let log = std::fs::read_to_string(dir.join("ccgc-Ccgc-0-adapted-logs").join("game-00001.log")).unwrap();
    for line in ["tested > setoption name Time value 60", "tested # X< START 0 1000 31", "tested # X< GO 0000 0 00"] {
        assert!(log.contains(line), "{line}");
    }
}

/// The 2019 platform's spelling and line ends, through both sides.
#[test]
fn a_ccgc2019_game_through_both_adapters_is_the_uli_game() {
    same_game(Proto::Ccgc2019, Variant::Ccgc, &[1]);
}

#[test]
fn a_cs4500_game_through_both_adapters_is_the_uli_game() {
    same_game_both_ways(Proto::Cs4500, Variant::Cs4500);
}

/// A shell CCGC engine: NAME, a fixed ARRAY, and `on_go` for every `GO`.
fn fake_ccgc(on_go: &str) -> EngineSpec {
    let script = format!(
        "while read -r line; do case \"$line\" in \
         INFO*) echo 'NAME fake ccgc';; \
         START*) echo 'ARRAY cehiakbcdikegfgjjdifhhglj';; \
         GO*) {on_go};; \
         END*) exit 0;; \
         esac; done"
    );
    EngineSpec {
        name: "fake".to_owned(),
        cmd: "sh".to_owned(),
        args: vec!["-c".to_owned(), script],
        proto: Proto::Ccgc,
        ..EngineSpec::default()
    }
}

fn against_fake(fake: EngineSpec, tag: &str) -> GameRecord {
    let mut fake = fake;
    fake.limits = Some(Limits { tc: Some(TimeControl { base: 1500, inc: 0 }), ..Limits::default() });
    one_game([fake, uli("opponent", &[("Player", "random"), ("Seed", "9")])], Variant::Ccgc, tag)
}

#[test]
fn a_ccgc_engine_without_a_move_loses_by_an_illegal_action() {
    let r = against_fake(fake_ccgc("echo 'BESTMOVE A0A0'"), "fake-a0a0");
    assert_eq!(r.termination, Termination::Illegal, "{}", r.detail);
    assert!(r.detail.contains("BESTMOVE A0A0"), "{}", r.detail);
    let r = against_fake(fake_ccgc("echo 'BESTMOVE L0L0'; echo 'BESTMOVE K0K1'"), "fake-illegal");
    assert_eq!(r.termination, Termination::Illegal, "{}", r.detail);
}

#[test]
fn a_silent_ccgc_engine_loses_on_time() {
    let r = against_fake(fake_ccgc(":"), "fake-silent");
    assert_eq!(r.termination, Termination::Time, "{}", r.detail);
}
