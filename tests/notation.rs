//! Round trips of the notation (points, pieces, actions, history tokens,
//! position strings, deployments) and typed errors on garbage.

use luzhanqi::notation::{
    NotationError, PositionStringError, parse_action, parse_deployment, parse_piece, parse_point, parse_position,
    parse_setup, parse_token,
};
use luzhanqi::position::PositionError;
use luzhanqi::random::{random_start, random_step, rng};
use luzhanqi::{Action, Colour, Deployment, Kind, Outcome, Piece, Point, Position, Rules, Token};
use rand::RngExt;

const FLIP_START: &str = "?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? - 0 0 -";

#[test]
fn points_and_pieces_round_trip() {
    for p in Point::all() {
        assert_eq!(parse_point(&p.to_string()), Ok(p));
    }
    assert_eq!(Point::all().next().map(|p| p.to_string()), Some("a1".into()));
    assert_eq!(Point::all().last().map(|p| p.to_string()), Some("e12".into()));
    for c in Colour::BOTH {
        for k in Kind::ALL {
            let pc = Piece::new(c, k);
            assert_eq!(parse_piece(&pc.to_string()), Ok(pc));
        }
        assert_eq!(parse_piece(&format!("{}?", c.to_char())), Ok(Piece::unknown(c)));
    }
    assert_eq!(parse_piece("r9").map(|p| p.kind), Ok(Some(Kind::Marshal)));
    assert_eq!(parse_piece("b1").map(|p| p.kind), Ok(Some(Kind::Engineer)));
    for bad in ["", "a0", "a13", "f1", "a01", "A1", "a1 ", "a", "1", "e120", "a-1"] {
        assert!(parse_point(bad).is_err(), "{bad:?}");
    }
    for bad in ["", "r", "r0", "x9", "rb", "R9", "r9 ", "?", "rr9"] {
        assert!(parse_piece(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn actions_and_tokens_round_trip() {
    for from in Point::all() {
        let flip = Action::flip(from);
        assert_eq!(parse_action(&flip.to_string()), Ok(flip));
        for to in Point::all() {
            for a in [Action::moving(from, to), Action::attack(from, to)] {
                assert_eq!(parse_action(&a.to_string()), Ok(a));
                assert_eq!(parse_token(&a.to_string()), Ok(Token::Action(a)));
            }
            for outcome in Outcome::ALL {
                let t = Token::Attack { from, to, outcome, loser: None };
                assert_eq!(parse_token(&t.to_string()), Ok(t));
            }
        }
    }
    let cases = ["c3=r9", "d12=bF", "a6xa7+", "a6xa7-", "a6xa7=", "a6xa7+b3", "a6xa7-rB", "a10xa11+bM", "e12", "a4-a5"];
    for s in cases {
        let t = parse_token(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!(t.to_string(), s);
    }
    assert_eq!(
        parse_token("a6xa7+b3"),
        Ok(Token::Attack {
            from: parse_point("a6").unwrap(),
            to: parse_point("a7").unwrap(),
            outcome: Outcome::AttackerWins,
            loser: Some(Piece::new(Colour::Blue, Kind::Captain)),
        })
    );
    for bad in [
        "",
        "c3=",
        "c3=r",
        "a6xa7=b3",
        "a6xa7+b?",
        "a6xa7#",
        "a6x",
        "a6-",
        "a6--a7",
        "a6xa7++",
        "c3 ",
        " c3",
        "c3=r9x",
        "a4-a5+",
        "c13",
        "x",
        "a6xa7+b3c",
    ] {
        assert!(parse_token(bad).is_err(), "{bad:?}");
        assert!(parse_action(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn flip_start_string() {
    let pos = Position::flip_start(Rules::FLIP);
    assert_eq!(pos.to_string(), FLIP_START);
    assert_eq!(parse_position(FLIP_START, Rules::FLIP), Ok(pos));
}

fn views(pos: &Position) -> Vec<Position> {
    let mut v = vec![pos.clone()];
    if pos.rules().mode == luzhanqi::Mode::Classic {
        for c in Colour::BOTH {
            v.push(pos.view_for(c).position().clone());
        }
    }
    v
}

#[test]
fn position_strings_round_trip_through_random_play() {
    let mut buf = Vec::new();
    let mut checked = 0;
    for rules in [Rules::FLIP, Rules::CLASSIC, Rules::OPEN, Rules::CCGC] {
        for seed in 0..40 {
            let mut r = rng(seed);
            let mut pos = random_start(rules, &mut r);
            loop {
                for view in views(&pos) {
                    // The empty pre-deployment board is not a position string users give.
                    let text = view.to_string();
                    let back = parse_position(&text, rules).unwrap_or_else(|e| panic!("{text}: {e}"));
                    assert_eq!(back, view, "{text}");
                    assert_eq!(back.to_string(), text);
                    checked += 1;
                }
                if random_step(&mut pos, &mut r, &mut buf).is_none() || pos.ply() > 400 {
                    break;
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn deployments_round_trip() {
    let mut r = rng(9);
    for _ in 0..500 {
        for c in Colour::BOTH {
            let d = Deployment::random(c, &mut r);
            d.check().expect("random deployments are legal");
            let text = d.to_string();
            assert_eq!(text.split('/').count(), 6);
            assert_eq!(parse_deployment(&text, c), Ok(d), "{text}");
            // The other colour's deployment string is refused.
            assert!(parse_deployment(&text, c.opposite()).is_err());
        }
    }
}

#[test]
fn deployment_errors_say_what_is_wrong() {
    let good = "r5r3r7r4r6/r51r31r7/r2r21r2r1/r31r41r8/r9r1rMr6r1/rBrFrBrMrM";
    // Rank order for red: 6 down to 1. Bomb at a1? no: rB is on rank 1 here.
    let d = parse_deployment(good, Colour::Red);
    assert!(d.is_ok(), "{d:?}");
    let msg = |s: &str| parse_deployment(s, Colour::Red).unwrap_err().to_string();
    assert!(msg("rBr3r7r4r6/r51r31r7/r2r21r2r1/r31r41r8/r9r1rMr6r1/r5rFrBrMrM").contains("front rank"));
    assert!(msg("r5r3r7r4r6/r5r3r31r7/r2r21r2r1/r31r41r8/r9r1rMr6r1/rBrFrBrMrM").contains("camp"));
    assert!(msg("r5r3r7r4r6/r51r31r7/r2r21r2r1/r31r41r8/r9r1rMr6r1").contains("6 separated"));
    assert!(msg("rMr3r7r4r6/r51r31r7/r2r21r2r1/r31r41r8/r9r1r5r6r1/rBrFrBrMrM").contains("landmine"));
    assert!(msg("r5r3r7r4r6/r51r31r7/r2r21r2r1/r31r41r8/r9r1rMr6r1/rBr1rBrMrM").contains("placed"));
}

#[test]
fn position_errors_are_typed_and_located() {
    // Rank 7 with 6 points.
    let bad_rank = "?????/?????/?1?1?/??1??/?1?1?/??????/?????/?1?1?/??1??/?1?1?/?????/????? - 0 0 -";
    assert_eq!(parse_setup(bad_rank), Err(NotationError::RankWidth { rank: 7, points: 6 }));
    assert_eq!(parse_setup(bad_rank).unwrap_err().to_string(), "bad rank 7: 6 points");
    let cases: &[(&str, &str)] = &[
        ("", "missing board"),
        ("?????/?????", "2 ranks"),
        (
            "?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????x - 0 0 -",
            "bad rank 1: unexpected 'x'",
        ),
        ("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/?????", "missing side"),
        ("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? x 0 0 -", "bad side"),
        ("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? - q 0 -", "quiet-ply"),
        ("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? - 0 -1 -", "ply count"),
        ("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? - 0 0 r9x", "removed"),
        ("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? - 0 0 - extra", "unexpected 'extra'"),
        ("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? - 99999 0 -", "quiet-ply"),
    ];
    for (text, expected) in cases {
        let e = parse_setup(text).unwrap_err().to_string();
        assert!(e.contains(expected), "{text:?}: {e}");
    }
    // Rule errors.
    let rule_cases: &[(&str, Rules, &str)] = &[
        // A face-down piece in classic.
        (FLIP_START, Rules::CLASSIC, "only flip"),
        // Too many marshals.
        (
            "r9r9???/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? r 0 2 -",
            Rules::FLIP,
            "too many r9",
        ),
        // Pieces in a camp at the start.
        ("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/???r9? - 0 0 -", Rules::FLIP, "side '-'"),
        // Side '-' after flips.
        ("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/r9???? - 0 1 -", Rules::FLIP, "side '-'"),
        // Face-down count.
        ("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/4? r 0 1 -", Rules::FLIP, "face-down"),
        // A face-down piece in a camp.
        (
            "?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1???/?????/1???? r 0 1 -",
            Rules::FLIP,
            "camps start empty",
        ),
        // Quiet counter above the ply.
        ("?????/?????/?1?1?/??1??/?1?1?/?????/?????/?1?1?/??1??/?1?1?/?????/????? r 5 1 -", Rules::FLIP, "quiet"),
    ];
    for (text, rules, expected) in rule_cases {
        let e = parse_position(text, *rules).unwrap_err();
        assert!(e.to_string().contains(expected), "{text:?}: {e}");
    }
    // A flag outside an HQ in classic, and a piece in a camp at the start.
    let mut r = rng(3);
    let red = Deployment::random(Colour::Red, &mut r);
    let blue = Deployment::random(Colour::Blue, &mut r);
    let start = Position::from_deployments(Rules::CLASSIC, &red, &blue);
    let text = start.to_string();
    assert_eq!(parse_position(&text, Rules::CLASSIC), Ok(start.clone()));
    let flag = start.pieces_of(Colour::Red, Some(Kind::Flag)).first().unwrap();
    let mut setup = start.to_setup();
    // Swap the flag with a piece on a post of the second rank that is not a mine.
    let swap = Point::all().find(|p| p.rank() == 1 && start.kind_at(*p).is_some_and(|k| k != Kind::Mine)).unwrap();
    setup.cells.swap(flag.index(), swap.index());
    assert_eq!(Position::from_setup(&setup, Rules::CLASSIC), Err(PositionError::FlagOutsideHq(swap)));
    let mut setup = start.to_setup();
    let camp = parse_point("c4").unwrap();
    let from = parse_point("c3").unwrap();
    setup.cells.swap(camp.index(), from.index());
    assert_eq!(Position::from_setup(&setup, Rules::CLASSIC), Err(PositionError::StartInCamp(camp)));
    assert!(matches!(
        parse_position("5/5/5/5/5/5/5/5/5/5/5/5 r 0 0 -", Rules::CLASSIC),
        Err(PositionStringError::Rules(PositionError::WrongTotal { .. }))
    ));
}

/// Random and mutated inputs never panic the parsers.
#[test]
fn garbage_never_panics() {
    let alphabet: Vec<char> = "abcdefr?bBMF0123456789/ -+=x\t\u{e9}\u{4e2d}".chars().collect();
    let mut r = rng(77);
    let seeds = [FLIP_START, "a6xa7+b3", "r5r3r7r4r6/r51r31r7/r2r21r2r1/r31r41r8/r9r1rMr6r1/rBrFrBrMrM"];
    for i in 0..100_000u32 {
        let s: String = if i % 2 == 0 {
            let n = r.random_range(0..40);
            (0..n).map(|_| alphabet[r.random_range(0..alphabet.len())]).collect()
        } else {
            let mut chars: Vec<char> = seeds[i as usize % seeds.len()].chars().collect();
            for _ in 0..r.random_range(1..4) {
                let at = r.random_range(0..chars.len().max(1));
                match r.random_range(0..3) {
                    0 if !chars.is_empty() => {
                        chars.remove(at.min(chars.len() - 1));
                    }
                    1 => chars.insert(at.min(chars.len()), alphabet[r.random_range(0..alphabet.len())]),
                    _ if !chars.is_empty() => {
                        let j = at.min(chars.len() - 1);
                        chars[j] = alphabet[r.random_range(0..alphabet.len())];
                    }
                    _ => {}
                }
            }
            chars.into_iter().collect()
        };
        let _ = parse_token(&s);
        let _ = parse_action(&s);
        let _ = parse_point(&s);
        for rules in [Rules::FLIP, Rules::CLASSIC] {
            let _ = parse_position(&s, rules);
        }
        let _ = parse_deployment(&s, Colour::Red);
    }
}
