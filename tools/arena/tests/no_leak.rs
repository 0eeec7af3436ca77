//! Many random games through the referee: no message to an engine ever
//! names an enemy piece's kind except where the rules allow it (a flip, the
//! flag after a Marshal falls, the loser's identity for the winner under
//! `winner_learns_loser`), and each side's view agrees with the truth on
//! everything it may know.

use arena::referee::{Deal, Referee};
use luzhanqi::protocol::PositionStart;
use luzhanqi::random::rng;
use luzhanqi::{Action, Cell, Colour, Deployment, Kind, Mode, Outcome, Point, Rules, Token};
use rand::RngExt;

const GAMES: u64 = 150;
const MAX_PLIES: u32 = 600;

fn start(rules: Rules, seed: u64) -> Referee {
    let mut r = rng(seed);
    if rules.has_deployment() {
        let red = Deployment::random(Colour::Red, &mut r);
        let blue = Deployment::random(Colour::Blue, &mut r);
        Referee::deployed(rules, &red, &blue).unwrap()
    } else {
        Referee::flip(rules, Deal::from_seed(seed))
    }
}

/// Checks that the start `viewer` is sent names no enemy kind (classic).
fn check_start(referee: &Referee, viewer: Colour) {
    let PositionStart::Fen(setup) = referee.start_for(viewer) else {
        assert_eq!(referee.rules().mode, Mode::Flip);
        return;
    };
    let mode = referee.rules().mode;
    for p in Point::all() {
        if let Cell::Piece(pc) = setup.cells[p.index()] {
            let hidden = mode == Mode::Classic && pc.colour != viewer;
            assert_eq!(pc.kind.is_none(), hidden, "{viewer} is sent {pc} on {p} at the start");
        }
    }
}

/// Checks one token told to `viewer` against the truth before the ply.
fn check_token(rules: &Rules, before: &Referee, after: &Referee, viewer: Colour, t: Token, action: Action) {
    let enemy = viewer.opposite();
    match t {
        Token::Action(a) => assert_eq!(a, action),
        Token::Show { at, piece } if at == action.from() && rules.mode == Mode::Flip => {
            assert_eq!(Some(piece), before.deal().and_then(|d| d.at(at)), "a flip shows what was dealt");
        }
        Token::Show { at, piece } => {
            assert_eq!(rules.mode, Mode::Classic, "reveals only in classic: {t}");
            assert!(rules.marshal_reveals_flag, "{t} without marshal_reveals_flag");
            assert_eq!(piece.kind, Some(Kind::Flag), "only flags are revealed: {t}");
            let c = piece.colour;
            let marshals = |r: &Referee| r.truth().removed_count(c, Some(Kind::Marshal));
            assert_eq!(marshals(after), marshals(before) + 1, "{t} but no Marshal of {c} fell this ply");
            assert_eq!(before.truth().kind_at(at), Some(Kind::Flag), "{t} is not where the flag is");
        }
        Token::Attack { from, to, outcome, loser } => {
            assert_eq!(Action::attack(from, to), action);
            let Some(named) = loser else { return };
            assert_eq!(named.colour, enemy, "{viewer} told about its own piece: {t}");
            assert!(rules.winner_learns_loser, "{t} names a loser without winner_learns_loser");
            let (winner_at, loser_at) = match outcome {
                Outcome::AttackerWins => (from, to),
                Outcome::DefenderWins => (to, from),
                Outcome::BothRemoved => panic!("{t}: nobody won"),
            };
            assert_eq!(before.truth().colour_at(winner_at), Some(viewer), "{t} told to the loser");
            assert_eq!(before.truth().cell(loser_at).piece(), Some(named), "{t} names the wrong piece");
        }
    }
}

/// Every enemy piece whose kind the view knows was revealed to it; own
/// pieces and occupancy agree with the truth.
fn check_view(referee: &Referee, viewer: Colour, revealed: &[bool; 60]) {
    let (view, truth) = (referee.view(viewer), referee.truth());
    for p in Point::all() {
        match (view.cell(p), truth.cell(p)) {
            (Cell::Piece(v), Cell::Piece(t)) => {
                assert_eq!(v.colour, t.colour, "{p}");
                if v.kind.is_some() {
                    assert_eq!(v.kind, t.kind, "{viewer}'s view is wrong on {p}");
                }
                let may_know = referee.rules().mode != Mode::Classic || t.colour == viewer || revealed[p.index()];
                assert!(v.kind.is_none() || may_know, "{viewer}'s view knows the enemy's {t} on {p}");
            }
            (v, t) => assert_eq!(v, t, "{viewer}'s view of {p}"),
        }
    }
}

fn play_random_games(rules: Rules, seed0: u64) -> (u64, u64) {
    let (mut plies, mut finished) = (0u64, 0u64);
    let mut buf = Vec::new();
    for g in 0..GAMES {
        let mut referee = start(rules, seed0 + g);
        let mut r = rng(seed0 ^ (g << 20));
        // Points whose enemy kind each side was told (flag reveals; a
        // loser named to the winner leaves the board at once).
        let mut revealed = [[false; 60]; 2];
        for c in Colour::BOTH {
            check_start(&referee, c);
        }
        while referee.outcome().is_none() && referee.truth().ply() < MAX_PLIES {
            let mover = referee.side_to_move().unwrap_or(Colour::Red);
            buf.clear();
            referee.view(mover).legal_actions(&mut buf);
            assert!(!buf.is_empty(), "the view has fewer actions than the truth");
            let action = buf[r.random_range(0..buf.len())];
            let before = referee.clone();
            let ply = referee.play(action).unwrap_or_else(|e| panic!("{}: {e}", before.truth()));
            for viewer in Colour::BOTH {
                for t in ply.told_to(viewer) {
                    check_token(&rules, &before, &referee, viewer, t, action);
                    if let Token::Show { at, .. } = t {
                        revealed[viewer.index()][at.index()] = true;
                    }
                }
                check_view(&referee, viewer, &revealed[viewer.index()]);
            }
            plies += 1;
        }
        finished += u64::from(referee.outcome().is_some());
    }
    (plies, finished)
}

#[test]
fn classic_tells_no_enemy_kind() {
    let (plies, finished) = play_random_games(Rules::CLASSIC, 1);
    assert!(plies > 10_000 && finished > 0, "{plies} plies, {finished} finished");
}

#[test]
fn ccgc_tells_no_enemy_kind() {
    play_random_games(Rules::CCGC, 1000);
}

#[test]
fn house_rules_tell_only_what_they_allow() {
    let rules = Rules {
        winner_learns_loser: true,
        bomb_attacks_mine_and_flag: false,
        any_rank_clears_mine: true,
        ..Rules::CLASSIC
    };
    play_random_games(rules, 2000);
    play_random_games(Rules { mine_removed_after_kill: true, marshal_reveals_flag: false, ..Rules::CLASSIC }, 3000);
}

#[test]
fn flip_and_open_are_public() {
    play_random_games(Rules::FLIP, 4000);
    play_random_games(Rules::OPEN, 5000);
}
