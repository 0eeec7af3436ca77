//! The `expert` player, behaviour by behaviour: it takes a flag it can
//! take, keeps its Marshal out of attacks that may remove it, blocks the
//! approach to its revealed flag, sends an engineer at the guards of a
//! revealed enemy flag, plays safe exchanges in `open`, and answers the
//! same for the same seed; the search may score its big pieces' attacks
//! with another caution.

use luzhanqi::belief::BeliefSettings;
use luzhanqi::notation::{parse_piece, parse_point};
use luzhanqi::piece::ARMY;
use luzhanqi::players::expert;
use luzhanqi::position::Setup;
use luzhanqi::random::rng;
use luzhanqi::{Action, Cell, Colour, Kind, Piece, Position, Rules};

/// A position with Red to move: `pieces` as (point, piece) pairs (`b?` for
/// a Blue piece Red does not know); the unknown pieces stand for the kinds
/// `hidden`, and every other piece of each army is removed and named, so
/// the belief knows that the unknown pieces are exactly `hidden`.
fn view(rules: Rules, pieces: &[(&str, &str)], hidden: &[Kind]) -> Position {
    let mut cells = [Cell::Empty; 60];
    let mut left = [ARMY; 2];
    for (pt, pc) in pieces {
        let p = parse_point(pt).expect("point");
        let piece = parse_piece(pc).expect("piece");
        cells[p.index()] = Cell::Piece(piece);
        if let Some(k) = piece.kind {
            left[piece.colour.index()][k.index()] -= 1;
        }
    }
    for k in hidden {
        left[Colour::Blue.index()][k.index()] -= 1;
    }
    let mut removed = Vec::new();
    for c in Colour::BOTH {
        for k in Kind::ALL {
            removed.extend(std::iter::repeat_n(Piece::new(c, k), usize::from(left[c.index()][k.index()])));
        }
    }
    let setup = Setup { cells, side: Some(Colour::Red), quiet: 0, ply: 40, removed };
    Position::from_setup(&setup, rules).unwrap_or_else(|e| panic!("bad test position: {e}"))
}

fn choose(pos: &Position, seed: u64) -> Action {
    let choice = expert::choose(pos, None, BeliefSettings::default(), &mut rng(seed));
    choice.expect("a legal action").action
}

fn act(s: &str) -> Action {
    luzhanqi::notation::parse_action(s).expect("action")
}

#[test]
fn it_takes_a_flag_it_can_take() {
    // Blue's flag was shown; Red's Captain stands beside it.
    let pieces = [("b12", "bF"), ("a12", "b?"), ("c12", "b?"), ("b11", "r3"), ("b1", "rF"), ("c7", "b?"), ("c6", "r9")];
    let pos = view(Rules::CLASSIC, &pieces, &[Kind::Mine, Kind::Mine, Kind::Marshal]);
    assert_eq!(choose(&pos, 1), act("b11xb12"));
}

#[test]
fn its_marshal_keeps_out_of_attacks_that_may_remove_it() {
    // An unknown Blue piece beside Red's Marshal may be a bomb or Blue's
    // Marshal: the Marshal does not attack it.
    let pieces = [("c7", "b?"), ("a10", "b?"), ("e10", "b?"), ("b12", "b?"), ("c6", "r9"), ("a3", "r4"), ("b1", "rF")];
    let hidden = [Kind::Bomb, Kind::Marshal, Kind::Captain, Kind::Flag];
    let pos = view(Rules::CLASSIC, &pieces, &hidden);
    for seed in 1..=5 {
        let a = choose(&pos, seed);
        assert_ne!(a, act("c6xc7"), "seed {seed}");
    }
    // Once every Blue piece that could beat or trade with it is gone, it does.
    let hidden = [Kind::Captain, Kind::Lieutenant, Kind::Major, Kind::Flag];
    let pos = view(Rules::CLASSIC, &pieces, &hidden);
    assert_eq!(choose(&pos, 1), act("c6xc7"));
}

#[test]
fn the_search_may_weigh_its_big_pieces_risk_otherwise() {
    // The same coin-flip attack of the Marshal, scored for the search's
    // priors with the extra risk of a big piece's loss multiplied by 0, 1
    // (the player's own) and 2.
    let pieces = [("c7", "b?"), ("a10", "b?"), ("e10", "b?"), ("b12", "b?"), ("c6", "r9"), ("a3", "r4"), ("b1", "rF")];
    let pos = view(Rules::CLASSIC, &pieces, &[Kind::Bomb, Kind::Marshal, Kind::Captain, Kind::Flag]);
    let attack =
        |scored: Vec<(Action, f32)>| scored.into_iter().find(|(a, _)| *a == act("c6xc7")).expect("the attack").1;
    let score = |caution: f32| {
        attack(expert::scores_with_caution(&pos, None, BeliefSettings::default(), caution, &mut rng(1)).0)
    };
    assert_eq!(score(1.0), attack(expert::scores(&pos, None, BeliefSettings::default(), &mut rng(1))));
    assert!(score(0.0) > score(1.0) && score(1.0) > score(2.0), "{} {} {}", score(0.0), score(1.0), score(2.0));
}

#[test]
fn it_blocks_the_approach_to_its_shown_flag() {
    // Red's Marshal fell, so Blue knows Red's flag on b1; mines guard a1
    // and c1, and an unknown Blue piece in the camp b3 is two actions from
    // the flag through b2. Red's General can close b2.
    let pieces = [
        ("b1", "rF"),
        ("a1", "rM"),
        ("c1", "rM"),
        ("c2", "r8"),
        ("e4", "r3"),
        ("b3", "b?"),
        ("b12", "b?"),
        ("d12", "b?"),
    ];
    let pos = view(Rules::CLASSIC, &pieces, &[Kind::Colonel, Kind::Flag, Kind::Mine]);
    assert!(pos.removed_count(Colour::Red, Some(Kind::Marshal)) == 1);
    assert_eq!(choose(&pos, 1).to(), parse_point("b2").expect("point"));
}

#[test]
fn its_engineer_goes_for_the_guards_of_a_shown_flag() {
    // Blue's flag on b12 was shown; unknown pieces (mines, by the belief)
    // guard it. Red's Engineer on the railway can reach a guard at once,
    // which is worth more than the General's capture of a Major general.
    let pieces = [
        ("b12", "bF"),
        ("a12", "b?"),
        ("c12", "b?"),
        ("b11", "b?"),
        ("e2", "r1"),
        ("a3", "r5"),
        ("b1", "rF"),
        ("d9", "b?"),
        ("d10", "r8"),
    ];
    let hidden = [Kind::Mine, Kind::Mine, Kind::Mine, Kind::MajorGeneral];
    let pos = view(Rules::CLASSIC, &pieces, &hidden);
    let a = choose(&pos, 1);
    assert_eq!(a.from(), parse_point("e2").expect("point"), "{a}");
    let guards = ["a12", "c12", "b11"].map(|p| parse_point(p).expect("point"));
    assert!(guards.contains(&a.to()), "{a}");
}

#[test]
fn in_open_it_wins_material_without_leaving_a_piece_en_prise() {
    // Red's Major may take Blue's Captain on a7, but Blue's General on a8
    // would take it back; Red's Colonel takes the unguarded Lieutenant.
    let pieces = [
        ("a7", "b3"),
        ("a8", "b8"),
        ("e7", "b2"),
        ("a6", "r4"),
        ("e6", "r5"),
        ("b1", "rF"),
        ("a1", "rM"),
        ("c1", "rM"),
        ("e1", "rM"),
        ("b12", "bF"),
        ("a12", "bM"),
        ("c12", "bM"),
        ("e11", "bM"),
    ];
    let pos = view(Rules::OPEN, &pieces, &[]);
    assert_eq!(choose(&pos, 1), act("e6xe7"));
}

#[test]
fn the_same_seed_gives_the_same_answers() {
    for (seed, plies) in [(3, 20), (4, 60), (5, 120)] {
        let truth = luzhanqi::random::seeded_position(Rules::CLASSIC, seed, plies);
        if truth.outcome().is_some() {
            continue;
        }
        let side = truth.side_to_move().expect("a side");
        let v = truth.view_for(side);
        let (a, b) = (choose(v.position(), seed), choose(v.position(), seed));
        assert_eq!(a, b);
        assert!(v.is_legal(a));
    }
}
