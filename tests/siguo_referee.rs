//! The four-player referee (RULES-4P.md §4 item 11, §5 rows 6, 11, 12):
//! what each seat is told after a move, an attack, a Marshal's fall, a
//! captured flag, an elimination, a resignation and a team defeat; the
//! token notation; and, over random games, that no seat ever receives an
//! identity it may not see and that every view agrees with the truth where
//! the truth is public.

use std::collections::BTreeSet;

use luzhanqi::siguo::{
    Action, ApplyError, OutReason, Piece, Point, Position, Seat, SiguoReferee, SiguoRules, SiguoToken, Team,
};
use luzhanqi::{Colour, Deployment, Kind, Outcome};

fn pt(s: &str) -> Point {
    s.parse().expect("point")
}

fn tok(s: &str) -> SiguoToken {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn act(s: &str) -> Action {
    match s.split_once('x') {
        Some((f, t)) => Action::attacking(pt(f), pt(t)),
        None => {
            let (f, t) = s.split_once('-').expect("from-to");
            Action::moving(pt(f), pt(t))
        }
    }
}

fn referee(text: &str, rules: SiguoRules) -> SiguoReferee {
    SiguoReferee::new(Position::parse(text, rules).unwrap_or_else(|e| panic!("{text}: {e}")))
}

fn told(r: &SiguoReferee, s: Seat) -> Vec<String> {
    r.told(s).iter().map(ToString::to_string).collect()
}

fn kind_seen(r: &SiguoReferee, viewer: Seat, p: &str) -> Option<Kind> {
    r.view(viewer).cell(pt(p)).and_then(|c| c.kind)
}

/// Every seat has a flag on `b1` and a Major on `c3`; South a General on
/// `Sa6`, East a Colonel on `Ca1` (railway-linked to `Sa6`).
const BASE: &str = "S - Sb1:sF Sc3:s4 Sa6:s8 Eb1:eF Ec3:e4 Ca1:e7 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";

#[test]
fn tokens_print_and_read_back() {
    for s in [
        "Sa3-Sa4",
        "Sa6xCa1+",
        "Sa6xCa1-",
        "Sa6xCa1=",
        "Sa6xCa1+e3",
        "Ca1xSa6-sB",
        "Nb1=nF",
        "N#flag",
        "E#noaction",
        "W#resign",
        "S#given",
    ] {
        assert_eq!(tok(s).to_string(), s);
    }
    assert_eq!(tok("sa6xca1+E3").to_string(), "Sa6xCa1+e3", "either case reads");
    for bad in [
        "",
        "Sa3",
        "Sa3-",
        "Sa3-Sa9",
        "Sa6xCa1",
        "Sa6xCa1?",
        "Sa6xCa1=e3",
        "Sa6xCa1+e",
        "Nb1=nX",
        "Nb1=",
        "N#",
        "X#flag",
        "N#won",
        "NE#flag",
        "Sa3~Sa4",
        "Ÿa3-Sa4",
    ] {
        assert!(bad.parse::<SiguoToken>().is_err(), "{bad} read");
    }
    assert_eq!(SiguoToken::of_move(act("Sa3-Sa4")), Some(tok("Sa3-Sa4")));
    assert_eq!(SiguoToken::of_move(act("Sa6xCa1")), None);
}

#[test]
fn a_move_is_told_as_played_to_everybody() {
    let mut r = referee(BASE, SiguoRules::CLASSIC);
    r.play(act("Sc3-Sc2")).unwrap();
    for s in Seat::ALL {
        assert_eq!(told(&r, s), ["Sc3-Sc2"]);
        assert_eq!(r.view(s).side_to_move(), Seat::East);
    }
    assert_eq!(kind_seen(&r, Seat::East, "Sc2"), None);
    assert_eq!(kind_seen(&r, Seat::South, "Sc2"), Some(Kind::Major));
}

#[test]
fn an_attack_is_told_with_its_outcome_only() {
    let mut r = referee(BASE, SiguoRules::CLASSIC);
    let ply = r.play(act("Sa6xCa1")).unwrap();
    assert_eq!(ply.token, tok("Sa6xCa1+"));
    for s in Seat::ALL {
        assert_eq!(told(&r, s), ["Sa6xCa1+"], "{s}");
        assert_eq!(r.view(s).cell(pt("Ca1")).map(|c| c.seat), Some(Seat::South));
        assert_eq!(r.view(s).cell(pt("Sa6")), None);
        assert_eq!(r.view(s).quiet(), 0);
    }
    assert_eq!(kind_seen(&r, Seat::South, "Ca1"), Some(Kind::General));
    for s in [Seat::East, Seat::North, Seat::West] {
        assert_eq!(kind_seen(&r, s, "Ca1"), None, "{s} learns nothing of the winner");
    }
}

#[test]
fn an_attack_legal_in_the_movers_view_but_not_on_the_true_kind_fails() {
    // South's General next to East's flag, which South does not know: with
    // FlagNeedsEngineer the truth forbids the attack, South's view allows it.
    let text = "S - Sb1:sF Sc3:s4 Eb2:s8 Eb1:eF Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let mut rules = SiguoRules::CLASSIC;
    rules.base.flag_needs_engineer = true;
    let mut r = referee(text, rules);
    let mut truth_legal = Vec::new();
    r.truth().legal_actions(&mut truth_legal);
    assert!(!truth_legal.contains(&act("Eb2xEb1")) && r.is_legal(act("Eb2xEb1")));
    let ply = r.play(act("Eb2xEb1")).unwrap();
    assert_eq!(ply.token, tok("Eb2xEb1-"));
    for s in Seat::ALL {
        assert_eq!(told(&r, s), ["Eb2xEb1-"], "{s}");
    }
    assert_eq!(r.truth().cell(pt("Eb1")), Some(Piece::new(Seat::East, Some(Kind::Flag))));
    assert_eq!(r.truth().cell(pt("Eb2")), None);
    assert!(!r.truth().is_out(Seat::East));
    // A bomb on a landmine it cannot attack fails the same way.
    let text = "S - Sb1:sF Sc3:s4 Eb3:sB Eb2:eM Eb1:eF Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let mut rules = SiguoRules::CLASSIC;
    rules.base.bomb_attacks_mine_and_flag = false;
    let mut r = referee(text, rules);
    assert_eq!(r.play(act("Eb3xEb2")).unwrap().token, tok("Eb3xEb2-"));
    // What no view allows stays illegal, and the referee is unchanged.
    let mut r = referee(BASE, SiguoRules::CLASSIC);
    let before = r.truth().clone();
    assert!(!r.is_legal(act("Sc3-Ec3")));
    assert!(r.play(act("Sc3-Ec3")).is_err());
    assert_eq!((r.truth(), r.told(Seat::South).len()), (&before, 0));
}

#[test]
fn winner_learns_loser_tells_the_winner_only() {
    let mut rules = SiguoRules::CLASSIC;
    rules.base.winner_learns_loser = true;
    let mut r = referee(BASE, rules);
    r.play(act("Sa6xCa1")).unwrap();
    assert_eq!(told(&r, Seat::South), ["Sa6xCa1+e7"]);
    for s in [Seat::East, Seat::North, Seat::West] {
        assert_eq!(told(&r, s), ["Sa6xCa1+"], "{s}");
    }
    // An attack that fails tells the defender the attacker.
    let mut r = referee("S - Sb1:sF Sc3:s4 Sa6:s3 Eb1:eF Ec3:e4 Ca1:e7 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4", rules);
    r.play(act("Sa6xCa1")).unwrap();
    assert_eq!(told(&r, Seat::East), ["Sa6xCa1-s3"]);
    assert_eq!(told(&r, Seat::North), ["Sa6xCa1-"]);
}

#[test]
fn a_marshals_fall_shows_its_owners_flag_to_everybody() {
    // South's Marshal runs into East's bomb: both removed, South's flag shown.
    let text = "S - Sb1:sF Sc3:s4 Sa6:s9 Eb1:eF Ec3:e4 Ca1:eB Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let mut r = referee(text, SiguoRules::CLASSIC);
    let ply = r.play(act("Sa6xCa1")).unwrap();
    for s in Seat::ALL {
        assert_eq!(ply.told[s.index()], [tok("Sa6xCa1="), tok("Sb1=sF")]);
        assert_eq!(told(&r, s), ["Sa6xCa1=", "Sb1=sF"]);
        assert_eq!(kind_seen(&r, s, "Sb1"), Some(Kind::Flag), "{s}");
    }
    assert_eq!(kind_seen(&r, Seat::East, "Eb1"), Some(Kind::Flag), "own flag only");
    assert_eq!(kind_seen(&r, Seat::South, "Eb1"), None, "East's Marshal did not fall");
    // Two Marshals trade: both flags, attacker's first.
    let text = "S - Sb1:sF Sc3:s4 Sa6:s9 Ed1:eF Ec3:e4 Ca1:e9 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let mut r = referee(text, SiguoRules::CLASSIC);
    r.play(act("Sa6xCa1")).unwrap();
    assert_eq!(told(&r, Seat::North), ["Sa6xCa1=", "Sb1=sF", "Ed1=eF"]);
    // Without MarshalRevealsFlag nothing is shown.
    let mut rules = SiguoRules::CLASSIC;
    rules.base.marshal_reveals_flag = false;
    let mut r = referee(text, rules);
    r.play(act("Sa6xCa1")).unwrap();
    assert_eq!(told(&r, Seat::North), ["Sa6xCa1="]);
    assert_eq!(kind_seen(&r, Seat::North, "Sb1"), None);
}

#[test]
fn a_captured_flag_is_announced_and_takes_its_owner_out_of_every_view() {
    let text = "S - Sb1:sF Sc3:s4 Eb2:s9 Eb1:eF Ec3:e4 Ca1:e7 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let mut r = referee(text, SiguoRules::CLASSIC);
    r.play(act("Eb2xEb1")).unwrap();
    for s in Seat::ALL {
        assert_eq!(told(&r, s), ["Eb2xEb1+", "E#flag"], "{s}");
        let v = r.view(s);
        assert_eq!(v.out_reason(Seat::East), Some(OutReason::FlagCaptured));
        assert!(v.pieces(Seat::East).is_empty(), "{s}: {v}");
        assert_eq!(v.side_to_move(), Seat::North, "East is skipped");
    }
}

#[test]
fn a_bomb_that_takes_a_flag_is_announced_like_any_capture() {
    // RULES-4P.md §5 row 15: both removed, the owner out all the same.
    let text = "S - Sb1:sF Sc3:s4 Eb2:sB Eb1:eF Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let mut r = referee(text, SiguoRules::CLASSIC);
    r.play(act("Eb2xEb1")).unwrap();
    for s in Seat::ALL {
        assert_eq!(told(&r, s), ["Eb2xEb1=", "E#flag"], "{s}");
        assert_eq!(r.view(s).cell(pt("Eb1")), None, "the HQ ends empty");
    }
}

#[test]
fn a_marshal_whose_owner_goes_out_with_it_shows_nothing() {
    // South's Marshal is its only movable piece and dies on East's bomb:
    // South is out at once, its flag gone with it, so nothing is shown.
    let text = "S - Sb1:sF Sa6:s9 Eb1:eF Ec3:e4 Ca1:eB Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let mut r = referee(text, SiguoRules::CLASSIC);
    r.play(act("Sa6xCa1")).unwrap();
    for s in Seat::ALL {
        assert_eq!(told(&r, s), ["Sa6xCa1=", "S#noaction"], "{s}");
    }
}

#[test]
fn seats_out_are_announced_in_the_order_the_truth_took_them_out() {
    // South takes East's last movable piece (East out at once, §4 item 6);
    // North, next, has no movable piece either (out when its turn comes);
    // West moves next in every view.
    let text = "S - Sb1:sF Sc3:s4 Sa6:s8 Eb1:eF Ca1:e7 Nb1:nF Na1:nM Wb1:wF Wc3:w4";
    let mut r = referee(text, SiguoRules::CLASSIC);
    r.play(act("Sa6xCa1")).unwrap();
    for s in Seat::ALL {
        assert_eq!(told(&r, s), ["Sa6xCa1+", "E#noaction", "N#noaction"], "{s}");
        assert_eq!(r.view(s).out_order(Seat::East), Some(1));
        assert_eq!(r.view(s).out_order(Seat::North), Some(2));
        assert_eq!(r.view(s).side_to_move(), Seat::West);
    }
}

#[test]
fn a_seat_left_without_an_action_is_announced_out() {
    // East's only movable piece is taken: East is out at once (§4 item 6).
    let text = "S - Sb1:sF Sc3:s4 Sa6:s8 Eb1:eF Ea1:eM Ca1:e7 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let mut r = referee(text, SiguoRules::CLASSIC);
    r.play(act("Sa6xCa1")).unwrap();
    for s in Seat::ALL {
        assert_eq!(told(&r, s), ["Sa6xCa1+", "E#noaction"], "{s}");
        assert_eq!(r.view(s).out_reason(Seat::East), Some(OutReason::NoLegalAction));
        assert!(r.view(s).pieces(Seat::East).is_empty());
        assert_eq!(r.view(s).side_to_move(), Seat::North);
    }
}

#[test]
fn team_defeat_ends_the_game_in_every_view() {
    // West is out already; East's flag falls: South and North win.
    let text = "S W Sb1:sF Sc3:s4 Eb2:s9 Eb1:eF Ec3:e4 Nb1:nF Nc3:n4";
    let mut r = referee(text, SiguoRules::CLASSIC);
    r.play(act("Eb2xEb1")).unwrap();
    let result = r.outcome().expect("over");
    assert_eq!(result.winner, Some(Team::SouthNorth));
    for s in Seat::ALL {
        assert_eq!(r.view(s).outcome(), Some(result), "{s}");
        assert_eq!(told(&r, s), ["Eb2xEb1+", "E#flag"]);
    }
    assert!(r.play(act("Nc3-Nc2")).is_err(), "the game is over");
    assert!(r.resign(Seat::North).is_err());
}

#[test]
fn a_resignation_is_told_to_everybody() {
    let mut r = referee(BASE, SiguoRules::CLASSIC);
    let ply = r.resign(Seat::South).unwrap();
    assert_eq!(ply.token, tok("S#resign"));
    for s in Seat::ALL {
        assert_eq!(told(&r, s), ["S#resign"]);
        assert_eq!(r.view(s).side_to_move(), Seat::East);
        assert!(r.view(s).pieces(Seat::South).is_empty());
    }
    assert!(r.resign(Seat::South).is_err(), "already out");
    assert!(r.play(act("Sc3-Sc2")).is_err(), "nothing there any more");
}

#[test]
fn partner_visible_shows_the_partner_from_the_start_only() {
    let mut rules = SiguoRules::CLASSIC;
    rules.partner_visible = true;
    let r = referee(BASE, rules);
    assert_eq!(kind_seen(&r, Seat::North, "Sa6"), Some(Kind::General));
    assert_eq!(kind_seen(&r, Seat::North, "Ca1"), None);
    let r = referee(BASE, SiguoRules::CLASSIC);
    assert_eq!(kind_seen(&r, Seat::North, "Sa6"), None);
    let r = referee(BASE, SiguoRules::OPEN);
    assert_eq!(kind_seen(&r, Seat::North, "Ca1"), Some(Kind::MajorGeneral), "open: everything");
}

#[test]
fn a_view_refuses_what_does_not_fit() {
    let mut v = Position::parse(BASE, SiguoRules::CLASSIC).unwrap().view(Seat::East);
    let before = v.clone();
    for (t, want) in [
        ("Ec3-Ec2", "Illegal"),
        ("Sa6xCa1+n7", "WrongPiece"),
        ("Sb1=eF", "WrongPiece"),
        ("Sc2=sF", "WrongPiece"),
        ("Eb1=e9", "WrongPiece"),
    ] {
        let e = v.apply_token(tok(t)).expect_err(t);
        assert!(format!("{e:?}").starts_with(want), "{t}: {e:?}");
        assert_eq!(v, before, "{t} changed the view");
    }
    v.apply_token(tok("N#resign")).unwrap();
    assert!(matches!(v.apply_token(tok("N#resign")), Err(ApplyError::AlreadyOut(_))));
    // Only where both kinds are known is the outcome checked.
    let mut open = Position::parse(BASE, SiguoRules::OPEN).unwrap();
    let e = open.apply_token(tok("Sa6xCa1-")).unwrap_err();
    assert_eq!(e, ApplyError::WrongOutcome { token: tok("Sa6xCa1-"), expected: Outcome::AttackerWins });
    let mut south = Position::parse(BASE, SiguoRules::CLASSIC).unwrap().view(Seat::South);
    assert_eq!(south.apply_token(tok("Sa6xCa1-")), Ok(()), "South does not know Ca1's kind");
}

/// Plays ~200 random `classic` games through the referee under varied
/// settings and checks every token told and every view after every ply.
#[test]
fn no_seat_ever_receives_an_identity_it_may_not_see() {
    let mut rng = luzhanqi::random::rng(19);
    let (mut shows, mut losers, mut outs, mut plies) = (0, 0, 0, 0);
    for game in 0..200u64 {
        let d: [Deployment; 4] =
            std::array::from_fn(|i| Deployment::random(if i % 2 == 0 { Colour::Red } else { Colour::Blue }, &mut rng));
        let mut rules = if game % 10 == 9 { SiguoRules::OPEN } else { SiguoRules::CLASSIC };
        rules.partner_visible = game % 2 == 1;
        rules.base.winner_learns_loser = game % 3 == 0;
        rules.base.marshal_reveals_flag = game % 5 != 4;
        let mut r = SiguoReferee::new(Position::start(rules, &d));
        let mut shown: [BTreeSet<Point>; 4] = Default::default();
        let mut list = Vec::new();
        for _ in 0..3_000 {
            if r.outcome().is_some() {
                break;
            }
            let truth = r.truth().clone();
            let ply = if rand::RngExt::random_range(&mut rng, 0..400u32) == 0 {
                let s = Seat::ALL[rand::RngExt::random_range(&mut rng, 0..4usize)];
                if truth.is_out(s) {
                    continue;
                }
                r.resign(s).unwrap()
            } else {
                list.clear();
                truth.legal_actions(&mut list);
                let a = list[rand::RngExt::random_range(&mut rng, 0..list.len())];
                r.play(a).unwrap_or_else(|e| panic!("{a} in {truth}: {e}"))
            };
            plies += 1;
            let after = r.truth();
            for viewer in Seat::ALL {
                let mine = &ply.told[viewer.index()];
                let south = usize::from(viewer == Seat::South);
                assert_eq!(mine.len(), ply.told[0].len());
                for (k, &t) in mine.iter().enumerate() {
                    assert_eq!(t.to_string().parse::<SiguoToken>(), Ok(t), "round trip of {t}");
                    match t {
                        SiguoToken::Move(a) => assert!(!a.attack),
                        SiguoToken::Attack { from, to, outcome, loser } => {
                            assert_eq!(k, 0, "the attack comes first");
                            let (att, def) = (truth.cell(from).unwrap(), truth.cell(to).unwrap());
                            assert_eq!(truth.attack_outcome(from, to), Some(outcome));
                            if let Some(l) = loser {
                                losers += 1; // to the winner only
                                assert!(rules.base.winner_learns_loser, "{t} told without WinnerLearnsLoser");
                                assert_eq!(rules.base.mode, luzhanqi::Mode::Classic, "{t} in open");
                                let (winner, lost) = match outcome {
                                    Outcome::AttackerWins => (att.seat, def),
                                    _ => (def.seat, att),
                                };
                                assert_eq!((winner, l), (viewer, lost), "{t} told to {viewer}");
                            }
                        }
                        SiguoToken::Show { at, piece } => {
                            shows += south;
                            assert!(rules.base.marshal_reveals_flag && rules.base.mode == luzhanqi::Mode::Classic);
                            assert_eq!(piece.kind, Some(Kind::Flag), "{t}: only flags are shown");
                            assert_eq!(truth.cell(at), Some(piece), "{t}");
                            let marshal_fell = truth.pieces(piece.seat).into_iter().any(|p| {
                                truth.cell(p).and_then(|c| c.kind) == Some(Kind::Marshal)
                                    && after.cell(p).is_none_or(|c| c.seat != piece.seat)
                            });
                            assert!(marshal_fell, "{t} shown though no Marshal of {} fell", piece.seat);
                            shown[viewer.index()].insert(at);
                        }
                        SiguoToken::Out { seat, reason } => {
                            outs += south;
                            assert!(!truth.is_out(seat) && after.out_reason(seat) == Some(reason), "{t}");
                        }
                    }
                    // Everybody is told the same, but for the loser's name.
                    let strip = |t: SiguoToken| match t {
                        SiguoToken::Attack { from, to, outcome, .. } => {
                            SiguoToken::Attack { from, to, outcome, loser: None }
                        }
                        t => t,
                    };
                    assert_eq!(strip(t), strip(ply.told[0][k]));
                }
            }
            for viewer in Seat::ALL {
                let v = r.view(viewer);
                for s in Seat::ALL {
                    assert_eq!(v.pieces(s), after.pieces(s), "{viewer}'s view of {s}'s pieces: {v} / {after}");
                    assert_eq!(v.out_reason(s), after.out_reason(s));
                    assert_eq!(v.out_order(s), after.out_order(s));
                }
                assert_eq!(v.quiet(), after.quiet());
                assert_eq!(v.outcome(), after.outcome());
                if !after.is_over() {
                    assert_eq!(v.side_to_move(), after.side_to_move(), "{viewer}: {v} / {after}");
                }
                if rules.base.mode == luzhanqi::Mode::Open {
                    assert!(!v.has_hidden_kinds(), "{viewer}'s open view: {v}");
                }
                for p in v.occupied() {
                    let Some(Piece { seat, kind: Some(k) }) = v.cell(p) else { continue };
                    assert_eq!(after.cell(p), Some(Piece::new(seat, Some(k))), "{viewer} knows {p} wrong");
                    let may_see = rules.base.mode == luzhanqi::Mode::Open
                        || seat == viewer
                        || (rules.partner_visible && seat == viewer.partner());
                    if !may_see {
                        assert!(
                            k == Kind::Flag && shown[viewer.index()].contains(&p),
                            "{viewer} knows {p}={k:?} of {seat} untold"
                        );
                    }
                }
                assert_eq!(r.told(viewer).len(), r.told(Seat::South).len());
            }
        }
        assert!(r.outcome().is_some(), "game {game} did not end");
    }
    println!("{plies} plies, {shows} flags shown, {losers} losers named, {outs} seats announced out");
    assert!(shows > 0 && losers > 0 && outs > 0);
}
