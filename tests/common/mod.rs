//! Helpers shared by the integration tests.
#![allow(dead_code)]

use luzhanqi::notation::{parse_piece, parse_point};
use luzhanqi::piece::ARMY;
use luzhanqi::position::Setup;
use luzhanqi::{Cell, Colour, Kind, Piece, Position, Rules};

/// The environment switch that turns off the tests' wall-clock bounds
/// (`.ci/run` sets it): a loaded machine then cannot fail a commit on time
/// alone. The tests still run their searches and check their answers.
pub const SKIP_TIMING: &str = "LUZHANQI_SKIP_TIMING_ASSERTS";

/// Whether tests assert wall-clock bounds: yes unless [`SKIP_TIMING`] is
/// set to something other than empty or `0`.
pub fn timing_asserted() -> bool {
    std::env::var(SKIP_TIMING).map_or(true, |v| v.is_empty() || v == "0")
}

/// Builds a position from a sparse description: `pieces` as (point, piece)
/// pairs such as ("c3", "r5") or ("a7", "b?"), `facedown` points holding
/// face-down pieces whose identities are `pool` (flip only). Every other
/// piece of each army is listed as removed, so the counts add up. Ply 10.
pub fn sparse(
    rules: Rules,
    side: Option<Colour>,
    pieces: &[(&str, &str)],
    facedown: &[&str],
    pool: &[&str],
) -> Position {
    sparse_quiet(rules, side, pieces, facedown, pool, 0)
}

/// As [`sparse`], with a quiet-ply counter.
pub fn sparse_quiet(
    rules: Rules,
    side: Option<Colour>,
    pieces: &[(&str, &str)],
    facedown: &[&str],
    pool: &[&str],
    quiet: u16,
) -> Position {
    let mut cells = [Cell::Empty; 60];
    let mut left = [ARMY; 2];
    let mut unknown = [0u8; 2];
    for (pt, pc) in pieces {
        let p = parse_point(pt).expect("point");
        let piece = parse_piece(pc).expect("piece");
        cells[p.index()] = Cell::Piece(piece);
        match piece.kind {
            Some(k) => left[piece.colour.index()][k.index()] -= 1,
            None => unknown[piece.colour.index()] += 1,
        }
    }
    for pt in facedown {
        cells[parse_point(pt).expect("point").index()] = Cell::FaceDown;
    }
    for pc in pool {
        let piece = parse_piece(pc).expect("piece");
        left[piece.colour.index()][piece.kind.expect("pool kind").index()] -= 1;
    }
    let mut removed = Vec::new();
    for c in Colour::BOTH {
        let mut skip = unknown[c.index()];
        // Unknown pieces on the board stand for the last kinds of the army.
        for k in Kind::ALL.into_iter().rev() {
            for _ in 0..left[c.index()][k.index()] {
                if skip > 0 {
                    skip -= 1;
                } else {
                    removed.push(Piece::new(c, k));
                }
            }
        }
    }
    let setup = Setup { cells, side, quiet, ply: 10 + u32::from(quiet), removed };
    Position::from_setup(&setup, rules).unwrap_or_else(|e| panic!("bad test position: {e}"))
}

/// The legal actions as sorted strings.
pub fn legal(pos: &Position) -> Vec<String> {
    let mut v = Vec::new();
    pos.legal_actions(&mut v);
    let mut s: Vec<String> = v.iter().map(ToString::to_string).collect();
    s.sort();
    s
}

/// A line for robustness tests: every fourth one random characters from
/// `alphabet`, the others one of `seeds` with up to three characters
/// removed or inserted.
pub fn garbage_line(r: &mut luzhanqi::random::Rng, i: usize, seeds: &[String], alphabet: &[char]) -> String {
    use rand::RngExt;
    if i % 4 == 0 {
        return (0..r.random_range(0..50)).map(|_| alphabet[r.random_range(0..alphabet.len())]).collect();
    }
    let mut chars: Vec<char> = seeds[r.random_range(0..seeds.len())].chars().collect();
    for _ in 0..r.random_range(0..4) {
        let at = r.random_range(0..=chars.len());
        if r.random_bool(0.5) && at < chars.len() {
            chars.remove(at);
        } else {
            chars.insert(at, alphabet[r.random_range(0..alphabet.len())]);
        }
    }
    chars.into_iter().collect()
}

/// How the arena tests play their matches: `games` games, two at once,
/// `limits` for every engine, the match seed `seed`, 1000 plies at most,
/// 200 ms of time margin, 10 s before a silent engine stalls, records in
/// `out`, no logs, no SPRT, no adjudication, quiet.
pub fn run_settings(
    games: u64,
    limits: arena::clock::Limits,
    seed: u64,
    out: std::path::PathBuf,
) -> arena::schedule::RunSettings {
    arena::schedule::RunSettings {
        games,
        concurrency: 2,
        limits,
        seed,
        max_plies: 1000,
        margin: std::time::Duration::from_millis(200),
        stall: std::time::Duration::from_secs(10),
        out: Some(out),
        resume: false,
        log_dir: None,
        sprt: None,
        resign: None,
        quiet: true,
        shard: None,
    }
}

/// A shell engine for the arena tests that answers the handshake and
/// `isready`, and runs `on_go` for `go` and `on_setup` for `go setup`
/// (`$line` holds the command).
pub fn fake_engine(name: &str, on_go: &str, on_setup: &str) -> arena::engine::EngineSpec {
    let script = format!(
        "while read -r line; do case \"$line\" in \
         uli) echo 'id name {name}'; echo uliok;; \
         isready) echo readyok;; \
         'go setup'*) {on_setup};; \
         go*) {on_go};; \
         quit) exit 0;; \
         esac; done"
    );
    arena::engine::EngineSpec {
        name: name.to_owned(),
        cmd: "sh".to_owned(),
        args: vec!["-c".to_owned(), script],
        ..arena::engine::EngineSpec::default()
    }
}
