//! Table-driven tests, one or more rows per rule of RULES.md: each rule has a
//! position where it allows an action and one where it forbids it.

mod common;

use common::{legal, sparse, sparse_quiet};
use luzhanqi::combat::{Outcome, attack_allowed, combat};
use luzhanqi::notation::parse_action;
use luzhanqi::position::EndReason;
use luzhanqi::{Colour, Kind, Position, Rules};

const R: Option<Colour> = Some(Colour::Red);
const B: Option<Colour> = Some(Colour::Blue);

/// Rules with a toggle changed.
fn flip_any_piece_flag() -> Rules {
    Rules { flag_needs_engineer: false, ..Rules::FLIP }
}

fn no_bomb_on_mines(base: Rules) -> Rules {
    Rules { bomb_attacks_mine_and_flag: false, ..base }
}

struct Case {
    rule: &'static str,
    pos: Position,
    allowed: &'static [&'static str],
    forbidden: &'static [&'static str],
}

/// Both flags somewhere harmless so that no game is over.
const FLAGS: [(&str, &str); 2] = [("b1", "rF"), ("d12", "bF")];

fn with_flags<'a>(extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v: Vec<(&str, &str)> = FLAGS.to_vec();
    v.extend_from_slice(extra);
    v
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            rule: "a step along a road link, not to a non-neighbour",
            pos: sparse(Rules::OPEN, R, &with_flags(&[("c1", "r5")]), &[], &[]),
            allowed: &["c1-c2"],
            forbidden: &["c1-c3", "c1-b2"],
        },
        Case {
            rule: "camps link to their four diagonal neighbours; posts do not",
            pos: sparse(Rules::OPEN, R, &with_flags(&[("a2", "r5"), ("d3", "r4"), ("c2", "r3")]), &[], &[]),
            allowed: &["a2-b3", "d3-e4", "d3-c4", "d3-e2", "c2-b3"],
            forbidden: &["a2-b1", "c2-b1", "c2-d1", "a2-b4"],
        },
        Case {
            rule: "mountains: b and d do not cross the middle; a, c and e do",
            pos: sparse(
                Rules::OPEN,
                R,
                &with_flags(&[("a6", "r5"), ("b6", "r4"), ("c6", "r3"), ("d6", "r7"), ("e6", "r6")]),
                &[],
                &[],
            ),
            allowed: &["a6-a7", "c6-c7", "e6-e7"],
            forbidden: &["b6-b7", "d6-d7"],
        },
        Case {
            rule: "a slide runs along one straight railway line through empty points",
            pos: sparse(Rules::OPEN, R, &with_flags(&[("a2", "r5")]), &[], &[]),
            allowed: &["a2-a11", "a2-e2", "a2-a6"],
            forbidden: &["a2-b6", "a2-e11", "a2-b11"],
        },
        Case {
            rule: "only the engineer turns at railway junctions",
            pos: sparse(Rules::OPEN, R, &with_flags(&[("c2", "r1"), ("c6", "r5")]), &[], &[]),
            allowed: &["c2-a5", "c2-e11", "c2-a7", "c6-e6", "c6-c7"],
            forbidden: &["c6-a5", "c6-e11", "c6-c8"],
        },
        Case {
            rule: "the engineer's route needs every intermediate point empty",
            pos: sparse(Rules::OPEN, R, &with_flags(&[("c2", "r1"), ("a2", "r9"), ("e2", "r8")]), &[], &[]),
            allowed: &["c2-b2", "c2-d2", "c2-c3"],
            forbidden: &["c2-a3", "c2-e3", "c2-a11"],
        },
        Case {
            rule: "a face-down piece blocks a slide and cannot be entered or attacked",
            pos: sparse(Rules::FLIP, R, &with_flags(&[("a2", "r5"), ("e2", "r1")]), &["a4", "c2"], &["b3", "bM"]),
            allowed: &["a2-a3", "a4", "c2", "a2-b2", "e2-d2"],
            forbidden: &["a2-a5", "a2xa4", "a2-a4", "e2-a3", "e2-c2", "e2xc2"],
        },
        Case {
            rule: "an attack at the end of a slide (first piece met only)",
            pos: sparse(Rules::OPEN, R, &with_flags(&[("a2", "r5"), ("a6", "b3"), ("a9", "b4")]), &[], &[]),
            allowed: &["a2xa6", "a2-a5"],
            forbidden: &["a2xa9", "a2-a7"],
        },
        Case {
            rule: "an attack at the end of an engineer route",
            pos: sparse(Rules::OPEN, R, &with_flags(&[("c2", "r1"), ("e2", "r4"), ("a6", "b3")]), &[], &[]),
            allowed: &["c2xa6", "c2-a5"],
            forbidden: &["e2xa6", "c2-a7", "e2-a5"],
        },
        Case {
            rule: "a piece in a camp cannot be attacked; on a post it can",
            pos: sparse(Rules::OPEN, R, &with_flags(&[("c3", "r5"), ("c4", "b4"), ("c2", "b3")]), &[], &[]),
            allowed: &["c3xc2"],
            forbidden: &["c3xc4", "c3-c4"],
        },
        Case {
            rule: "a piece on an HQ never moves, including one that starts there; pieces may enter an HQ",
            pos: sparse(Rules::OPEN, R, &with_flags(&[("d1", "r5"), ("e1", "r4")]), &[], &[]),
            allowed: &["e1-e2"],
            forbidden: &["d1-d2", "d1-c1", "e1-d1"],
        },
        Case {
            rule: "an empty HQ can be entered",
            pos: sparse(Rules::FLIP, R, &[("b12", "bF"), ("b2", "rF"), ("e1", "r4")], &[], &[]),
            allowed: &["e1-d1"],
            forbidden: &["b2-b1"],
        },
        Case {
            rule: "a piece on an HQ never moves (flip: dealt there)",
            pos: sparse(Rules::FLIP, R, &[("b1", "r9"), ("a1", "r4"), ("d12", "bF")], &["c3"], &["rF"]),
            allowed: &["a1-a2", "c3"],
            forbidden: &["b1-c1", "b1-b2", "a1-b1"],
        },
        Case {
            rule: "landmines and flags never move",
            pos: sparse(Rules::FLIP, R, &[("a1", "rM"), ("c1", "rF"), ("e1", "r2"), ("a12", "bF")], &[], &[]),
            allowed: &["e1-e2"],
            forbidden: &["a1-a2", "c1-c2"],
        },
        Case {
            rule: "flip: only an engineer attacks the flag, and only once its three mines are gone",
            pos: sparse(
                Rules::FLIP,
                R,
                &[("c1", "rF"), ("c11", "bF"), ("b11", "r1"), ("d11", "r9"), ("c10", "rB")],
                &[],
                &[],
            ),
            allowed: &["b11xc11"],
            forbidden: &["d11xc11", "c10xc11"],
        },
        Case {
            rule: "flip: no flag attack while an enemy mine remains (on the board)",
            pos: sparse(
                Rules::FLIP,
                R,
                &[("c1", "rF"), ("c11", "bF"), ("b11", "r1"), ("a11", "bM"), ("d11", "r9")],
                &[],
                &[],
            ),
            allowed: &["b11xa11"],
            forbidden: &["b11xc11", "d11xc11"],
        },
        Case {
            rule: "flip: no flag attack while an enemy mine remains (face down)",
            pos: sparse(Rules::FLIP, R, &[("c1", "rF"), ("c11", "bF"), ("b11", "r1")], &["a1"], &["bM"]),
            allowed: &["a1", "b11-a11"],
            forbidden: &["b11xc11"],
        },
        Case {
            rule: "flip toggle 'flag capturable by any piece': any piece once mines are gone",
            pos: sparse(
                flip_any_piece_flag(),
                R,
                &[("c1", "rF"), ("c11", "bF"), ("d11", "r9"), ("b11", "rB")],
                &[],
                &[],
            ),
            allowed: &["d11xc11", "b11xc11"],
            forbidden: &[],
        },
        Case {
            rule: "classic: any movable piece, a bomb too, attacks the flag; mines need not be cleared",
            pos: sparse(
                Rules::CLASSIC,
                R,
                &[("c1", "r5"), ("b1", "rF"), ("d12", "bF"), ("c12", "r3"), ("d11", "rB"), ("e11", "bM")],
                &[],
                &[],
            ),
            allowed: &["c12xd12", "d11xd12", "d11xe11"],
            forbidden: &[],
        },
        Case {
            rule: "toggle 'bombs may not attack landmines or the flag'",
            pos: sparse(
                no_bomb_on_mines(Rules::CLASSIC),
                R,
                &[("b1", "rF"), ("d12", "bF"), ("d11", "rB"), ("e11", "bM"), ("c11", "b5")],
                &[],
                &[],
            ),
            allowed: &["d11xc11"],
            forbidden: &["d11xd12", "d11xe11"],
        },
        Case {
            rule: "only the side to move moves, and only its own pieces",
            pos: sparse(Rules::OPEN, B, &with_flags(&[("c1", "r5"), ("c12", "b5")]), &[], &[]),
            allowed: &["c12-c11"],
            forbidden: &["c1-c2"],
        },
        Case {
            rule: "flip: before colours are assigned, only flips",
            pos: Position::flip_start(Rules::FLIP),
            allowed: &["a1", "e12", "c3"],
            forbidden: &["b3", "a1-a2"],
        },
        Case {
            rule: "classic view: an enemy piece of unknown kind may route like an engineer, not from an HQ",
            pos: sparse(
                Rules::CLASSIC,
                B,
                &[("b1", "rF"), ("d12", "b?"), ("a11", "b?"), ("c2", "r5"), ("b12", "b?")],
                &[],
                &[],
            ),
            allowed: &["a11-e2", "a11-c11", "a11-b2", "a11xc2"],
            forbidden: &["d12-d11", "b12-a12"],
        },
        Case {
            rule: "classic view: own pieces attack enemy pieces of unknown kind, except in camps",
            pos: sparse(
                Rules::CLASSIC,
                R,
                &[("b1", "rF"), ("d12", "b?"), ("c7", "b?"), ("c6", "r4"), ("b8", "b?"), ("a7", "r1")],
                &[],
                &[],
            ),
            allowed: &["c6xc7", "a7xc7"],
            forbidden: &["a7xb8"],
        },
    ]
}

#[test]
fn every_rule_allows_and_forbids() {
    let mut failures = Vec::new();
    for case in cases() {
        let actions = legal(&case.pos);
        for a in case.allowed {
            parse_action(a).expect("valid action text");
            if !actions.iter().any(|x| x == a) {
                failures.push(format!("{}: {a} should be legal in {}", case.rule, case.pos));
            }
        }
        for a in case.forbidden {
            parse_action(a).expect("valid action text");
            if actions.iter().any(|x| x == a) {
                failures.push(format!("{}: {a} should be illegal in {}", case.rule, case.pos));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// (attacker, defender, outcome) under the default classic rules.
#[test]
fn combat_table() {
    use Kind::*;
    use Outcome::*;
    let r = Rules::CLASSIC;
    let rows = [
        (Marshal, General, AttackerWins),
        (Captain, Major, DefenderWins),
        (Colonel, Colonel, BothRemoved),
        (Engineer, Engineer, BothRemoved),
        (Bomb, Marshal, BothRemoved),
        (Marshal, Bomb, BothRemoved),
        (Engineer, Bomb, BothRemoved),
        (Bomb, Bomb, BothRemoved),
        (Engineer, Mine, AttackerWins),
        (Marshal, Mine, DefenderWins),
        (Lieutenant, Mine, DefenderWins),
        (Bomb, Mine, BothRemoved),
        (Engineer, Flag, AttackerWins),
        (Lieutenant, Flag, AttackerWins),
        (Bomb, Flag, AttackerWins),
    ];
    for (a, d, o) in rows {
        assert_eq!(combat(&r, a, d, false), o, "{a:?} attacks {d:?}");
    }
}

#[test]
fn combat_toggles() {
    use Kind::*;
    use Outcome::*;
    let clears = Rules { any_rank_clears_mine: true, ..Rules::CLASSIC };
    assert_eq!(combat(&clears, Marshal, Mine, false), BothRemoved);
    assert_eq!(combat(&clears, Engineer, Mine, false), AttackerWins);
    let removed_after = Rules { mine_removed_after_kill: true, ..Rules::CLASSIC };
    assert_eq!(combat(&removed_after, Captain, Mine, false), BothRemoved);
    assert_eq!(combat(&Rules::CLASSIC, Captain, Mine, false), DefenderWins);
    let no_bomb = no_bomb_on_mines(Rules::CLASSIC);
    assert!(!attack_allowed(&no_bomb, Bomb, Mine, false));
    assert!(!attack_allowed(&no_bomb, Bomb, Flag, false));
    assert!(attack_allowed(&no_bomb, Bomb, Marshal, false));
    // Decision: a forbidden attack on a hidden piece fails.
    assert_eq!(combat(&no_bomb, Bomb, Mine, false), DefenderWins);
    // Flip flag rules.
    assert!(!attack_allowed(&Rules::FLIP, Engineer, Flag, false));
    assert!(attack_allowed(&Rules::FLIP, Engineer, Flag, true));
    assert!(!attack_allowed(&Rules::FLIP, Marshal, Flag, true));
    assert!(!attack_allowed(&Rules::FLIP, Bomb, Flag, true));
    assert!(attack_allowed(&flip_any_piece_flag(), Marshal, Flag, true));
    assert!(!attack_allowed(&flip_any_piece_flag(), Marshal, Flag, false));
    // Mines and flags never attack.
    assert!(!attack_allowed(&Rules::CLASSIC, Mine, Captain, false));
    assert!(!attack_allowed(&Rules::CLASSIC, Flag, Captain, false));
}

fn play(pos: &mut Position, token: &str) {
    let t = luzhanqi::notation::parse_token(token).expect("token");
    pos.apply_token(t).unwrap_or_else(|e| panic!("{token}: {e}"));
}

#[test]
fn applying_attacks_moves_and_removes_pieces() {
    let mut pos =
        sparse(Rules::OPEN, R, &with_flags(&[("c5", "r5"), ("c6", "b3"), ("a2", "r1"), ("a11", "bM")]), &[], &[]);
    play(&mut pos, "c5xc6+");
    assert_eq!(
        pos.cell(luzhanqi::notation::parse_point("c6").unwrap()).piece().map(|p| p.to_string()),
        Some("r5".into())
    );
    assert_eq!(pos.removed_count(Colour::Blue, Some(Kind::Captain)), 3);
    assert_eq!(pos.quiet(), 0);
    // Outcome contradicting the known pieces is refused.
    let mut p2 = pos.clone();
    p2.apply_token(luzhanqi::notation::parse_token("d12-d11").unwrap()).unwrap_err();
    // Mine kills a ranked attacker and stays.
    let mut pos = sparse(Rules::OPEN, R, &with_flags(&[("a10", "r9"), ("a11", "bM"), ("e1", "r3")]), &[], &[]);
    let err = pos.apply_token(luzhanqi::notation::parse_token("a10xa11+").unwrap());
    assert!(err.is_err(), "mine beats the Marshal: + is wrong");
    play(&mut pos, "a10xa11-");
    assert_eq!(pos.removed_count(Colour::Red, Some(Kind::Marshal)), 1);
    assert_eq!(pos.kind_at(luzhanqi::notation::parse_point("a11").unwrap()), Some(Kind::Mine));
}

#[test]
fn quiet_limit_per_preset() {
    // Flip: more pieces on the board wins (face-down pieces count).
    let mut pos = sparse_quiet(
        Rules::FLIP,
        R,
        &[("c1", "rF"), ("a1", "r5"), ("e12", "b5"), ("c12", "bF")],
        &["a3"],
        &["r3"],
        119,
    );
    assert!(pos.outcome().is_none());
    play(&mut pos, "a1-a2");
    let r = pos.outcome().expect("quiet limit reached");
    assert_eq!(r.reason, EndReason::QuietLimit);
    assert_eq!(r.winner, Some(Colour::Red), "red 4 pieces, blue 2");
    assert!(legal(&pos).is_empty(), "a finished game has no legal action");

    // Flip: a flip resets the counter.
    let mut pos = sparse_quiet(
        Rules::FLIP,
        R,
        &[("c1", "rF"), ("a1", "r5"), ("e12", "b5"), ("c12", "bF")],
        &["a3"],
        &["r3"],
        119,
    );
    play(&mut pos, "a3=r3");
    assert_eq!(pos.quiet(), 0);
    assert!(pos.outcome().is_none());

    // Classic: draw.
    let mut pos = sparse_quiet(Rules::CLASSIC, R, &with_flags(&[("a1", "r5"), ("e12", "b5")]), &[], &[], 119);
    play(&mut pos, "a1-a2");
    assert_eq!(pos.outcome().map(|r| (r.winner, r.reason)), Some((None, EndReason::QuietLimit)));

    // Classic before the limit: no end.
    let mut pos = sparse_quiet(Rules::CLASSIC, R, &with_flags(&[("a1", "r5"), ("e12", "b5")]), &[], &[], 118);
    play(&mut pos, "a1-a2");
    assert!(pos.outcome().is_none());

    // ccgc: the player who makes the 31st quiet ply loses (ADAPTERS.md §1.11 (a)).
    let mut pos = sparse_quiet(Rules::CCGC, R, &with_flags(&[("a1", "r5"), ("e12", "b5")]), &[], &[], 30);
    play(&mut pos, "a1-a2");
    assert_eq!(
        pos.outcome().map(|r| (r.winner, r.reason)),
        Some((Some(Colour::Blue), EndReason::QuietLimit)),
        "red made the 31st quiet ply and loses"
    );
    // The other reading as a toggle: after 31 quiet plies the side to move loses.
    let mut b = Rules::CCGC;
    b.set("QuietResult", "moverloses").unwrap();
    let mut pos = sparse_quiet(b, R, &with_flags(&[("a1", "r5"), ("e12", "b5")]), &[], &[], 30);
    play(&mut pos, "a1-a2");
    assert_eq!(
        pos.outcome().map(|r| (r.winner, r.reason)),
        Some((Some(Colour::Red), EndReason::QuietLimit)),
        "blue is to move and loses"
    );

    // A removal resets the counter.
    let mut pos = sparse_quiet(Rules::CCGC, R, &with_flags(&[("a5", "r5"), ("a6", "b3"), ("e12", "b2")]), &[], &[], 30);
    play(&mut pos, "a5xa6+");
    assert!(pos.outcome().is_none());
}

#[test]
fn side_without_actions_loses() {
    // Red has only a mine and a flag: no action, Red loses.
    let pos = sparse(Rules::OPEN, R, &[("b1", "rF"), ("a1", "rM"), ("d12", "bF"), ("c12", "b5")], &[], &[]);
    let r = pos.outcome().expect("no action");
    assert_eq!((r.winner, r.reason), (Some(Colour::Blue), EndReason::NoLegalAction));
    // With one movable piece it goes on.
    let pos = sparse(Rules::OPEN, R, &[("b1", "rF"), ("a1", "r2"), ("d12", "bF"), ("c12", "b5")], &[], &[]);
    assert!(pos.outcome().is_none());
    // Flip: a side that can still flip is not stuck.
    let pos = sparse(Rules::FLIP, R, &[("b1", "rF"), ("a1", "rM"), ("d12", "bF")], &["c1"], &["b5"]);
    assert!(pos.outcome().is_none());
}

#[test]
fn flag_capture_ends_the_game() {
    let mut pos = sparse(Rules::CLASSIC, R, &with_flags(&[("d11", "r2")]), &[], &[]);
    play(&mut pos, "d11xd12+");
    let r = pos.outcome().expect("flag captured");
    assert_eq!((r.winner, r.reason), (Some(Colour::Red), EndReason::FlagCaptured));
    // Flip: engineer after the three mines.
    let mut pos = sparse(Rules::FLIP, R, &[("c1", "rF"), ("c11", "bF"), ("b11", "r1")], &[], &[]);
    play(&mut pos, "b11xc11+");
    assert_eq!(pos.outcome().map(|r| r.winner), Some(Some(Colour::Red)));
}

#[test]
fn first_flip_assigns_colours() {
    let mut pos = Position::flip_start(Rules::FLIP);
    play(&mut pos, "c3=b7");
    assert_eq!(pos.side_to_move(), Some(Colour::Red), "the first player is blue, red moves next");
    assert_eq!(pos.pool_count(Colour::Blue, Kind::MajorGeneral), 1);
    // Blue's piece cannot be moved by red.
    assert!(!legal(&pos).iter().any(|a| a.starts_with("c3-")));
    play(&mut pos, "a1=b3");
    assert_eq!(pos.side_to_move(), Some(Colour::Blue));
    assert!(legal(&pos).iter().any(|a| a == "c3-c4"));
}
