//! The belief about enemy pieces in `classic`: one test per deduction rule,
//! and a property test: every sampled world, replayed from the start,
//! produces exactly the observations of the history (legal moves, the same
//! combat outcomes, the same reveals) and uses the army's exact counts.

mod common;

use common::sparse;
use luzhanqi::belief::sampler::WorldSampler;
use luzhanqi::belief::{ALL_KINDS, Belief, IMMOBILE, KindSet, explains, has, only};
use luzhanqi::notation::{parse_point, parse_token};
use luzhanqi::piece::ARMY;
use luzhanqi::random::{random_start, rng};
use luzhanqi::{ActionKind, Bitboard, Colour, Kind, Outcome, Piece, Position, Rules, Token};
use rand::RngExt;

fn pt(s: &str) -> luzhanqi::Point {
    parse_point(s).unwrap()
}

fn tokens(s: &str) -> Vec<Token> {
    s.split_whitespace().map(|t| parse_token(t).unwrap()).collect()
}

fn set(kinds: &[Kind]) -> KindSet {
    kinds.iter().fold(0, |s, &k| s | only(k))
}

/// A classic start as Red sees it (ply 0).
fn start_view() -> (Position, Position) {
    let mut r = rng(5);
    let truth = random_start(Rules::CLASSIC, &mut r);
    (truth.hide_enemy(Colour::Red, Bitboard::EMPTY), truth)
}

fn kinds_at(b: &Belief, p: &str) -> KindSet {
    b.pieces[b.piece_at(pt(p)).expect("an enemy piece there")].kinds
}

#[test]
fn deployment_rules_at_the_start() {
    let (view, _) = start_view();
    let b = Belief::new(&view, Colour::Red);
    assert_eq!(b.pieces.len(), 25);
    // The flag only on Blue's HQs, mines only on its last two ranks, no bomb on its front rank.
    assert!(has(kinds_at(&b, "b12"), Kind::Flag) && has(kinds_at(&b, "d12"), Kind::Flag));
    assert!(!has(kinds_at(&b, "a12"), Kind::Flag));
    assert!(has(kinds_at(&b, "a11"), Kind::Mine) && !has(kinds_at(&b, "a10"), Kind::Mine));
    assert!(!has(kinds_at(&b, "c7"), Kind::Bomb) && has(kinds_at(&b, "c8"), Kind::Bomb));
}

#[test]
fn a_piece_that_moved_is_neither_mine_nor_flag() {
    let (view, _) = start_view();
    let (b, _) = Belief::from_history(&view, Colour::Red, &tokens("a6-b5 b11-b10")).unwrap();
    assert_eq!(kinds_at(&b, "b10") & IMMOBILE, 0);
    assert_eq!(b.pieces[b.piece_at(pt("b10")).unwrap()].moves, 1);
}

#[test]
fn a_piece_that_turned_on_the_railway_is_an_engineer() {
    // Blue's piece on a11 goes to e11 straight (anything movable), then one
    // on e8 slides to b6 round the corner e7-e6... only an engineer turns.
    let pos = sparse(
        Rules::CLASSIC,
        Some(Colour::Blue),
        &[("b1", "rF"), ("a1", "r5"), ("d12", "b?"), ("e8", "b?"), ("a9", "b?")],
        &[],
        &[],
    );
    let (b, _) = Belief::from_history(&pos, Colour::Red, &tokens("e8-b6 a1-a2 a9-a7")).unwrap();
    assert_eq!(kinds_at(&b, "b6"), only(Kind::Engineer), "turned at e6");
    assert!(kinds_at(&b, "a7").count_ones() > 1, "a straight slide proves nothing");
}

#[test]
fn combat_outcomes_bound_the_enemy_kind() {
    use Kind::*;
    let cases: &[(&str, Outcome, &[Kind])] = &[
        // Red's Colonel (5) attacks: wins against ranks 1-4 and the flag (not on an HQ here: ranks 1-4).
        ("c6xc7+", Outcome::AttackerWins, &[Engineer, Lieutenant, Captain, Major]),
        ("c6xc7-", Outcome::DefenderWins, &[Brigadier, MajorGeneral, General, Marshal]),
        ("c6xc7=", Outcome::BothRemoved, &[Colonel, Bomb]),
    ];
    for (history, _, expected) in cases {
        let pos = sparse(
            Rules::CLASSIC,
            Some(Colour::Red),
            &[("b1", "rF"), ("c6", "r5"), ("e1", "r1"), ("d12", "b?"), ("c7", "b?"), ("a12", "b?")],
            &[],
            &[],
        );
        let before = Belief::new(&pos, Colour::Red);
        let i = before.piece_at(pt("c7")).unwrap();
        let (b, _) = Belief::from_history(&pos, Colour::Red, &tokens(history)).unwrap();
        assert_eq!(b.pieces[i].kinds, set(expected), "{history}");
    }
    // Blue's piece attacks Red's Colonel.
    let blue_cases: &[(&str, &[Kind])] = &[
        ("c7xc6+", &[Brigadier, MajorGeneral, General, Marshal]),
        ("c7xc6-", &[Engineer, Lieutenant, Captain, Major]),
        ("c7xc6=", &[Colonel, Bomb]),
    ];
    for (history, expected) in blue_cases {
        let pos = sparse(
            Rules::CLASSIC,
            Some(Colour::Blue),
            &[("b1", "rF"), ("c6", "r5"), ("e1", "r1"), ("d12", "b?"), ("c7", "b?"), ("a12", "b?")],
            &[],
            &[],
        );
        let i = Belief::new(&pos, Colour::Red).piece_at(pt("c7")).unwrap();
        let (b, _) = Belief::from_history(&pos, Colour::Red, &tokens(history)).unwrap();
        assert_eq!(b.pieces[i].kinds, set(expected), "{history}");
    }
    // A Marshal that dies attacking a piece on the back ranks found a landmine.
    let pos = sparse(
        Rules::CLASSIC,
        Some(Colour::Red),
        &[("b1", "rF"), ("a10", "r9"), ("e1", "r1"), ("d12", "b?"), ("a11", "b?"), ("a12", "b?")],
        &[],
        &[],
    );
    let i = Belief::new(&pos, Colour::Red).piece_at(pt("a11")).unwrap();
    let (b, _) = Belief::from_history(&pos, Colour::Red, &tokens("a10xa11-")).unwrap();
    assert_eq!(b.pieces[i].kinds, only(Mine));
    // An enemy that survives attacking Red's landmine is an engineer.
    let pos = sparse(
        Rules::CLASSIC,
        Some(Colour::Blue),
        &[("b1", "rF"), ("a2", "rM"), ("e1", "r1"), ("d12", "b?"), ("a3", "b?")],
        &[],
        &[],
    );
    let (b, _) = Belief::from_history(&pos, Colour::Red, &tokens("a3xa2+")).unwrap();
    assert_eq!(kinds_at(&b, "a2"), only(Engineer));
}

#[test]
fn a_piece_removed_while_the_game_goes_on_is_not_the_flag() {
    // Red's Marshal takes the piece on Blue's HQ b12 and the game goes on: the flag is on d12.
    let pos = sparse(
        Rules::CLASSIC,
        Some(Colour::Red),
        &[("b1", "rF"), ("b11", "r9"), ("e1", "r1"), ("d12", "b?"), ("b12", "b?"), ("a7", "b?")],
        &[],
        &[],
    );
    let before = Belief::new(&pos, Colour::Red);
    let (hq, other) = (before.piece_at(pt("b12")).unwrap(), before.piece_at(pt("d12")).unwrap());
    assert!(has(before.pieces[hq].kinds, Kind::Flag));
    let (b, _) = Belief::from_history(&pos, Colour::Red, &tokens("b11xb12+ a7-a6")).unwrap();
    assert!(!has(b.pieces[hq].kinds, Kind::Flag), "the removed piece");
    assert!(has(b.pieces[other].kinds, Kind::Flag));
    // Nor is a piece removed by a tie.
    let (b, _) = Belief::from_history(&pos, Colour::Red, &tokens("b11xb12=")).unwrap();
    assert!(!has(b.pieces[hq].kinds, Kind::Flag));
    assert_eq!(b.contradictions, 0);
}

#[test]
fn the_flag_shown_after_a_marshal_falls_names_the_marshal() {
    let pos = sparse(
        Rules::CLASSIC,
        Some(Colour::Red),
        &[
            ("b1", "rF"),
            ("c6", "rB"),
            ("c5", "r3"),
            ("e1", "r1"),
            ("d12", "b?"),
            ("b12", "b?"),
            ("c7", "b?"),
            ("e7", "b?"),
        ],
        &[],
        &[],
    );
    let i = Belief::new(&pos, Colour::Red).piece_at(pt("c7")).unwrap();
    // The bomb takes c7 with it and the referee shows Blue's flag: c7 was the Marshal.
    let (b, _) = Belief::from_history(&pos, Colour::Red, &tokens("c6xc7= d12=bF")).unwrap();
    assert_eq!(b.pieces[i].kinds, only(Kind::Marshal));
    assert_eq!(kinds_at(&b, "d12"), only(Kind::Flag));
    assert!(b.flag_revealed);
    // No flag shown: c7 was not the Marshal.
    let (b, _) = Belief::from_history(&pos, Colour::Red, &tokens("c6xc7=")).unwrap();
    assert!(!has(b.pieces[i].kinds, Kind::Marshal));
    assert!(b.pieces[i].kinds.count_ones() > 1);
}

#[test]
fn named_losers_are_known() {
    let rules = Rules { winner_learns_loser: true, ..Rules::CLASSIC };
    // A start where Red's piece on c6 is an officer above the Engineer.
    let view = (0..)
        .map(|seed| {
            let mut r = rng(seed);
            let mut truth = random_start(Rules::CLASSIC, &mut r);
            truth.set_rules(rules);
            truth.hide_enemy(Colour::Red, Bitboard::EMPTY)
        })
        .find(|v| v.kind_at(pt("c6")).and_then(Kind::rank).is_some_and(|r| r >= 2))
        .unwrap();
    let i = Belief::new(&view, Colour::Red).piece_at(pt("c7")).unwrap();
    let (b, after) = Belief::from_history(&view, Colour::Red, &tokens("c6xc7+b1")).unwrap();
    assert_eq!(b.pieces[i].kinds, only(Kind::Engineer));
    assert_eq!(after.removed_count(Colour::Blue, Some(Kind::Engineer)), 1);
}

/// A referee for one side of a random classic game: the truth, and the
/// tokens the viewer is told.
fn refereed_game(seed: u64, plies: usize, viewer: Colour) -> (Position, Position, Vec<Token>) {
    let mut r = rng(seed);
    let start = random_start(Rules::CLASSIC, &mut r);
    let mut truth = start.clone();
    let mut told = Vec::new();
    let mut buf = Vec::new();
    for _ in 0..plies {
        if truth.outcome().is_some() {
            break;
        }
        buf.clear();
        truth.legal_actions(&mut buf);
        let a = buf[r.random_range(0..buf.len())];
        let marshals = |p: &Position| Colour::BOTH.map(|c| p.removed_count(c, Some(Kind::Marshal)));
        let before = marshals(&truth);
        if a.kind() == ActionKind::Attack {
            let o = truth.attack_outcome(a.from(), a.to()).unwrap();
            truth.play_attack(a.from(), a.to(), o, None);
            told.push(Token::Attack { from: a.from(), to: a.to(), outcome: o, loser: None });
        } else {
            truth.play_known(a, None);
            told.push(Token::Action(a));
        }
        let after = marshals(&truth);
        for c in Colour::BOTH {
            if after[c.index()] > before[c.index()] {
                if let Some(f) = truth.pieces_of(c, Some(Kind::Flag)).first() {
                    told.push(Token::Show { at: f, piece: Piece::new(c, Kind::Flag) });
                }
            }
        }
    }
    (start.hide_enemy(viewer, Bitboard::EMPTY), start, told)
}

#[test]
fn every_sampled_world_explains_the_history() {
    let mut checked = 0;
    // Short games, and long ones where pieces on the HQs fall (one removed
    // there while the game goes on was not the flag).
    for seed in 0..60 {
        for viewer in Colour::BOTH {
            let plies = if seed < 40 { 20 + (seed as usize * 7) % 120 } else { 300 + (seed as usize * 37) % 300 };
            let (view_start, truth_start, told) = refereed_game(seed, plies, viewer);
            let (belief, view) = Belief::from_history(&view_start, viewer, &told).unwrap();
            assert_eq!(belief.contradictions, 0, "seed {seed}");
            let enemy = viewer.opposite();
            // The truth itself is one of the worlds the belief allows.
            for (e, p) in belief.pieces.iter().zip(0..) {
                if let Some(start) = e.start {
                    let k = truth_start.kind_at(start).unwrap();
                    assert!(has(e.kinds, k), "seed {seed} piece {p} truly {k:?}");
                }
            }
            let mut r = rng(seed + 100);
            let mut sampler = WorldSampler::new(&belief, None, &mut r).expect("a consistent world");
            for _ in 0..30 {
                let assign = sampler.next(&mut r).to_vec();
                let mut counts = [0u8; 12];
                for k in &assign {
                    counts[k.index()] += 1;
                }
                assert_eq!(counts, ARMY);
                // The world's start: the enemy's pieces on their start points.
                let mut world_start = view_start.clone();
                for (e, k) in belief.pieces.iter().zip(&assign) {
                    let start = e.start.expect("history from ply 0");
                    world_start.reveal(start, Piece::new(enemy, *k));
                }
                explains(&world_start, &told).unwrap_or_else(|e| panic!("seed {seed} viewer {viewer}: {e}"));
                // And the world position matches the view.
                let w = sampler.world(&view, &belief);
                w.check_invariants();
                for p in view.pieces(enemy) {
                    assert_eq!(w.colour_at(p), Some(enemy));
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 3000, "{checked}");
}

#[test]
fn uniform_belief_keeps_only_counts() {
    let (view, _) = start_view();
    let b = Belief::uniform(&view, Colour::Red);
    assert!(b.pieces.iter().all(|e| e.kinds == ALL_KINDS));
}

#[test]
fn world_sampling_speed_is_reported() {
    // Not a benchmark (see `luzhanqi bench worlds`): worlds come quickly.
    let (view_start, _, told) = refereed_game(3, 60, Colour::Red);
    let (belief, view) = Belief::from_history(&view_start, Colour::Red, &told).unwrap();
    let mut r = rng(1);
    let mut s = WorldSampler::new(&belief, None, &mut r).unwrap();
    let t = std::time::Instant::now();
    for _ in 0..2000 {
        s.next(&mut r);
        std::hint::black_box(s.world(&view, &belief));
    }
    let took = t.elapsed();
    if common::timing_asserted() {
        assert!(took < std::time::Duration::from_secs(2), "2000 worlds took {took:?}");
    }
}

#[test]
fn the_truth_explains_its_history_and_a_wrong_world_does_not() {
    let mut caught = 0;
    for seed in 0..20 {
        let (_, truth_start, told) = refereed_game(seed, 150, Colour::Red);
        explains(&truth_start, &told).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        // Swap Blue's flag with each of its movable pieces in turn: the
        // history stops fitting wherever that piece moved or fought.
        let flag = truth_start.pieces_of(Colour::Blue, Some(Kind::Flag)).first().unwrap();
        for other in truth_start.pieces(Colour::Blue) {
            let k = truth_start.kind_at(other).unwrap();
            if k == Kind::Flag || k == Kind::Mine {
                continue;
            }
            let mut wrong = truth_start.clone();
            wrong.reveal(flag, Piece::new(Colour::Blue, k));
            wrong.reveal(other, Piece::new(Colour::Blue, Kind::Flag));
            if explains(&wrong, &told).is_err() {
                caught += 1;
            }
        }
    }
    assert!(caught > 100, "{caught}");
}

#[test]
fn what_the_enemy_may_believe_of_our_own_pieces() {
    // Red's own pieces as Blue may believe them: the deployment rules and
    // the moves, never the kinds; a piece that won a combat, or fell, is
    // taken as known; the truth is always one of the worlds.
    let mut checked = 0;
    for seed in 0..30 {
        let viewer = Colour::BOTH[seed as usize % 2];
        let plies = 10 + (seed as usize * 11) % 100;
        let (view_start, _, told) = refereed_game(seed, plies, viewer);
        let (own, view) = Belief::of_own_pieces(&view_start, viewer, &told).unwrap();
        assert_eq!(own.viewer, viewer.opposite());
        assert_eq!(own.pieces.len(), 25);
        assert_eq!(own.contradictions, 0, "seed {seed}");
        let on_board: Vec<_> = own.pieces.iter().filter_map(|e| e.at).collect();
        assert_eq!(on_board.len(), view.pieces(viewer).count() as usize);
        for e in &own.pieces {
            let Some(p) = e.at else {
                assert_eq!(e.kinds.count_ones(), 1, "a fallen piece is known");
                continue;
            };
            let k = view.kind_at(p).expect("our own kinds are known to us");
            assert!(has(e.kinds, k), "seed {seed}: {p} is truly {k:?}");
            if e.moves > 0 {
                assert_eq!(e.kinds & IMMOBILE, 0);
            }
        }
        // Untouched pieces keep every kind the deployment rules allow.
        let (fresh, _) = Belief::of_own_pieces(&view_start, viewer, &[]).unwrap();
        assert!(fresh.pieces.iter().filter(|e| e.at.is_some()).all(|e| e.kinds.count_ones() > 1));
        let mut r = rng(seed);
        let mut sampler = WorldSampler::new(&own, None, &mut r).expect("the truth is consistent");
        for _ in 0..10 {
            let assign = sampler.next(&mut r).to_vec();
            for (e, k) in own.pieces.iter().zip(&assign) {
                assert!(has(e.kinds, *k));
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 300);
    // A piece of ours that won a combat attacking is known from then on.
    let mut found = 0;
    for seed in 0..20 {
        let (view_start, _, told) = refereed_game(seed, 80, Colour::Red);
        let mut pos = view_start.clone();
        for (i, t) in told.iter().enumerate() {
            if let Token::Attack { from, to, outcome: Outcome::AttackerWins, .. } = *t {
                if pos.colour_at(from) == Some(Colour::Red) {
                    let k = pos.kind_at(from).unwrap();
                    let (own, _) = Belief::of_own_pieces(&view_start, Colour::Red, &told[..=i]).unwrap();
                    assert_eq!(own.pieces[own.piece_at(to).unwrap()].kinds, only(k), "seed {seed}");
                    found += 1;
                    break;
                }
            }
            pos.apply_token(*t).unwrap();
        }
    }
    assert!(found >= 10, "{found}");
}
