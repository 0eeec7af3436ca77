//! Four-player perft numbers pinned in `tests/data/siguo-perft.txt`, the
//! depth-1 and depth-2 divides agreeing with the totals, the same numbers
//! for the position turned a quarter (seats and points together), and what
//! perft does with a captured flag, a finished game and hidden kinds.

use luzhanqi::Rules;
use luzhanqi::siguo::perft::{PerftError, child, divide, perft};
use luzhanqi::siguo::{Action, Piece, Point, Position, Seat};

fn rules_named(name: &str) -> Rules {
    match name {
        "open" => Rules::OPEN,
        "classic" => Rules::CLASSIC,
        other => panic!("rules {other}"),
    }
}

fn pinned() -> Vec<(Position, Vec<u64>)> {
    include_str!("data/siguo-perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let parts: Vec<&str> = line.split('|').map(str::trim).collect();
            assert_eq!(parts.len(), 3, "{line}");
            let pos = Position::parse(parts[1], rules_named(parts[0])).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(pos.to_string(), parts[1], "prints as it reads");
            (pos, parts[2].split_whitespace().map(|n| n.parse().expect("count")).collect())
        })
        .collect()
}

#[test]
fn pinned_perft_numbers() {
    let all = pinned();
    assert!(all.len() >= 5, "{}", all.len());
    for (pos, counts) in &all {
        for (i, &expected) in counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(perft(pos, depth), Ok(expected), "perft {depth} of {pos}");
            if depth <= 2 {
                let split = divide(pos, depth).expect("divide");
                assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), expected);
            }
        }
    }
}

/// The position with every point and seat turned a quarter (S to E, E to N ...).
fn turned(pos: &Position) -> Position {
    let mut out = Position::empty(*pos.rules(), pos.side_to_move().right());
    for s in Seat::ALL {
        if pos.is_out(s) {
            out.eliminate(s.right());
        }
    }
    for p in Point::all() {
        if let Some(pc) = pos.cell(p) {
            out.put(p.quarter_turn(), Some(Piece::new(pc.seat.right(), pc.kind)));
        }
    }
    out
}

#[test]
fn perft_is_the_same_a_quarter_turn_later() {
    for (pos, counts) in pinned().into_iter().filter(|(p, _)| !p.has_hidden_kinds()) {
        let mut t = pos.clone();
        for _ in 0..4 {
            t = turned(&t);
            for depth in 1..=counts.len().min(3) {
                assert_eq!(perft(&t, depth as u32), Ok(counts[depth - 1]), "depth {depth} of {t}");
            }
        }
        assert_eq!(t, pos, "four quarter turns");
    }
}

#[test]
fn a_captured_flag_takes_its_owner_out() {
    let hand = pinned().into_iter().map(|(p, _)| p).find(|p| p.to_string().contains("Eb2:s7")).expect("hand position");
    let take: Action = Action::attacking("Eb2".parse().expect("point"), "Eb1".parse().expect("point"));
    let mut list = Vec::new();
    hand.legal_actions(&mut list);
    assert!(list.contains(&take));
    let after = child(&hand, take);
    assert!(after.is_out(Seat::East));
    assert!(after.pieces(Seat::East).is_empty());
    assert_eq!(after.side_to_move(), Seat::North, "East is skipped");
    assert_eq!(after.cell("Eb1".parse().expect("point")).map(|p| p.seat), Some(Seat::South));
    // West's flag next: the game ends when both of a team are out.
    let mut west_out = after.clone();
    west_out.eliminate(Seat::West);
    assert!(west_out.is_over());
    assert_eq!(perft(&west_out, 1), Ok(0));
    assert_eq!(perft(&west_out, 3), Ok(0));
}

#[test]
fn hidden_kinds_allow_depth_one_only() {
    let view = pinned().into_iter().map(|(p, _)| p).find(Position::has_hidden_kinds).expect("a view");
    assert_eq!(perft(&view, 1), Ok(52));
    assert_eq!(perft(&view, 2), Err(PerftError::HiddenKinds { depth: 2 }));
    assert!(perft(&view, 2).unwrap_err().to_string().contains("only depth 1"));
    assert_eq!(perft(&view, 0), Ok(1));
    assert_eq!(divide(&view, 0), Ok(Vec::new()));
}

#[test]
fn the_start_puts_each_deployment_in_its_arm() {
    use luzhanqi::siguo::topology::{ARMS, CAMPS};
    use luzhanqi::{Colour, Deployment, Kind};
    let mut rng = luzhanqi::random::rng(7);
    for colour in [Colour::Red, Colour::Blue] {
        let d: [Deployment; 4] = std::array::from_fn(|_| Deployment::random(colour, &mut rng));
        let pos = Position::start(Rules::CLASSIC, &d);
        assert_eq!(pos.side_to_move(), Seat::South);
        for s in Seat::ALL {
            let arm = ARMS[s.index()];
            assert_eq!(pos.pieces(s), arm - CAMPS, "{colour:?} {s}: the 25 non-camp points of its arm");
            for p in pos.pieces(s) {
                let kind = pos.cell(p).and_then(|pc| pc.kind).expect("known");
                let name = p.to_string();
                match kind {
                    Kind::Flag => assert!(name.ends_with("b1") || name.ends_with("d1"), "{name}"),
                    Kind::Mine => assert!(p.rank() <= 2, "{name}"),
                    Kind::Bomb => assert!(p.rank() != 6, "{name}"),
                    _ => {}
                }
            }
        }
    }
}
