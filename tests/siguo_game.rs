//! The four-player game flow and rule settings (RULES-4P.md §4, §5): one
//! test per rule point. Positions are written in the text form of
//! `src/siguo/position.rs` (`<side> <out> <point>:<seat><kind> ...`).

use luzhanqi::siguo::rules::DEFAULT_QUIET_LIMIT;
use luzhanqi::siguo::{
    Action, OutReason, Point, Position, Seat, SiguoEndReason, SiguoPlayError, SiguoResult, SiguoRules, Team,
};
use luzhanqi::{Colour, Deployment, Kind, Outcome};

fn pt(s: &str) -> Point {
    s.parse().expect("point")
}

fn pos(text: &str, rules: SiguoRules) -> Position {
    Position::parse(text, rules).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn open(text: &str) -> Position {
    pos(text, SiguoRules::OPEN)
}

fn act(s: &str) -> Action {
    let (from, to, attack) = match s.split_once('x') {
        Some((f, t)) => (f, t, true),
        None => {
            let (f, t) = s.split_once('-').expect("from-to");
            (f, t, false)
        }
    };
    if attack { Action::attacking(pt(from), pt(to)) } else { Action::moving(pt(from), pt(to)) }
}

fn play(p: &mut Position, s: &str) {
    p.play(act(s), None).unwrap_or_else(|e| panic!("{s} in {p}: {e}"));
}

fn actions(p: &Position) -> Vec<Action> {
    let mut v = Vec::new();
    p.legal_actions(&mut v);
    v
}

fn targets(p: &Position, from: &str) -> Vec<String> {
    actions(p).into_iter().filter(|a| a.from == pt(from)).map(|a| a.to.to_string()).collect()
}

/// Every seat with a flag on its HQ `b1` and a Major on `c3`; South also
/// has a Marshal on `Eb2` (next to East's flag) and a General on `Wb2`.
const FOUR: &str = "S - Sb1:sF Sc3:s4 Eb1:eF Eb2:s9 Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wb2:s8 Wc3:w4";

#[test]
fn a_captured_flag_takes_its_owner_out_with_all_its_pieces() {
    let mut p = open(FOUR);
    play(&mut p, "Eb2xEb1");
    assert_eq!(p.out_reason(Seat::East), Some(OutReason::FlagCaptured));
    assert!(p.pieces(Seat::East).is_empty(), "Ec3 removed too: {p}");
    assert_eq!(p.cell(pt("Eb1")).map(|c| (c.seat, c.kind)), Some((Seat::South, Some(Kind::Marshal))));
    assert_eq!(p.outcome(), None, "West is still in");
    assert_eq!(p.quiet(), 0, "an attack");
}

#[test]
fn play_skips_a_seat_that_is_out() {
    let mut p = open(FOUR);
    let mut sides = vec![p.side_to_move()];
    for a in ["Eb2xEb1", "Nc3-Nc2", "Wc3-Wc2", "Sc3-Sc2", "Nc2-Nc3"] {
        play(&mut p, a);
        sides.push(p.side_to_move());
    }
    use Seat::*;
    assert_eq!(sides, [South, North, West, South, North, West], "East skipped");
}

#[test]
fn a_team_loses_when_both_partners_are_out() {
    let mut p = open(FOUR);
    for a in ["Eb2xEb1", "Nc3-Nc2", "Wc3-Wc2"] {
        play(&mut p, a);
    }
    play(&mut p, "Wb2xWb1");
    let won =
        Some(SiguoResult { winner: Some(Team::SouthNorth), reason: SiguoEndReason::TeamOut(OutReason::FlagCaptured) });
    assert_eq!(p.outcome(), won);
    assert_eq!(p.outcome().map(|r| r.to_string()).as_deref(), Some("SN wins (flag)"));
    assert!(p.is_over() && actions(&p).is_empty());
    assert_eq!(p.play(act("Sc3-Sc2"), None), Err(SiguoPlayError::GameOver));
    // One partner out is not enough, whoever it is.
    let mut q = open(FOUR);
    q.eliminate(Seat::North);
    assert_eq!(q.outcome(), None);
    q.eliminate(Seat::South);
    assert_eq!(q.outcome().map(|r| r.winner), Some(Some(Team::EastWest)));
}

#[test]
fn the_mover_left_without_an_action_is_out_at_once() {
    // South's only movable piece steps onto its empty HQ Sd1 and never moves again.
    let mut p = open("S - Sb1:sF Sc1:s4 Eb1:eF Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4");
    play(&mut p, "Sc1-Sd1");
    assert_eq!(p.out_reason(Seat::South), Some(OutReason::NoLegalAction));
    assert!(p.pieces(Seat::South).is_empty());
    assert_eq!(p.side_to_move(), Seat::East);
    // South's last movable piece attacks and loses.
    let mut p = open("S - Sb1:sF Ca1:s2 Eb1:eF Cb1:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4");
    play(&mut p, "Ca1xCb1");
    assert_eq!(p.out_reason(Seat::South), Some(OutReason::NoLegalAction));
    assert_eq!(p.side_to_move(), Seat::East);
}

#[test]
fn the_attacked_seat_left_without_an_action_is_out_at_once_even_out_of_turn() {
    // South takes West's only movable piece; West (to move last) is out now, East moves next.
    let mut p = open("S - Sb1:sF Sc3:s4 Eb1:eF Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w2 Wc4:s9");
    play(&mut p, "Wc4xWc3");
    assert_eq!(p.out_reason(Seat::West), Some(OutReason::NoLegalAction));
    assert!(p.pieces(Seat::West).is_empty(), "its flag removed too");
    assert_eq!(p.side_to_move(), Seat::East);
    assert_eq!(p.outcome(), None);
}

#[test]
fn any_other_seat_without_an_action_is_out_when_its_turn_comes() {
    // South blocks North's only piece (Na1, whose one free neighbour is Na2) with its own.
    let mut p = open("S - Sb1:sF Sc3:s4 Na3:s5 Eb1:eF Ec3:e4 Nb1:nF Na1:n4 Wb1:wF Wc3:w4");
    play(&mut p, "Na3-Na2");
    assert!(!p.is_out(Seat::North), "not the mover nor attacked: checked at its turn");
    assert!(!p.has_legal_action(Seat::North));
    assert_eq!(p.side_to_move(), Seat::East);
    play(&mut p, "Ec3-Ec2");
    assert_eq!(p.out_reason(Seat::North), Some(OutReason::NoLegalAction));
    assert_eq!(p.side_to_move(), Seat::West, "North's turn skipped");
    assert_eq!(p.quiet(), 2, "two plies; the skipped turn does not count");
}

#[test]
fn both_teams_out_by_one_action_is_a_draw() {
    let mut p = open("S NW Sb1:sF Ca1:s5 Eb1:eF Cb1:e5");
    play(&mut p, "Ca1xCb1");
    assert!(p.is_out(Seat::South) && p.is_out(Seat::East));
    let draw = SiguoResult { winner: None, reason: SiguoEndReason::TeamOut(OutReason::NoLegalAction) };
    assert_eq!(p.outcome(), Some(draw));
}

#[test]
fn the_quiet_limit_draws_after_71_plies_without_an_attack() {
    assert_eq!(SiguoRules::CLASSIC.quiet_limit, 71);
    assert_eq!(DEFAULT_QUIET_LIMIT, 71);
    let mut p = open(FOUR);
    p.set_quiet(69);
    play(&mut p, "Sc3-Sc2");
    assert_eq!((p.quiet(), p.outcome()), (70, None));
    play(&mut p, "Ec3-Ec2");
    let draw = SiguoResult { winner: None, reason: SiguoEndReason::QuietLimit };
    assert_eq!((p.quiet(), p.outcome()), (71, Some(draw)));
    assert_eq!(draw.to_string(), "draw (quietlimit)");
    assert!(actions(&p).is_empty());
    // The count is part of the text form.
    let text = p.to_string();
    assert!(text.starts_with("N - q71 Sb1:sF"), "{text}");
    assert_eq!(Position::parse(&text, SiguoRules::OPEN), Ok(p.clone()));
    assert!(Position::parse("S - q Sb1:sF", SiguoRules::OPEN).is_err());
    assert!(Position::parse("S - q70000 Sb1:sF", SiguoRules::OPEN).is_err());
    // An attack resets the count.
    let mut p = open(FOUR);
    p.set_quiet(70);
    play(&mut p, "Eb2xEb1");
    assert_eq!((p.quiet(), p.outcome()), (0, None));
    // QuietLimit 0: no limit.
    let mut rules = SiguoRules::OPEN;
    rules.set("QuietLimit", "0").expect("setting");
    let mut p = pos(FOUR, rules);
    p.set_quiet(5000);
    play(&mut p, "Sc3-Sc2");
    assert_eq!(p.outcome(), None);
}

#[test]
fn a_bomb_that_takes_a_flag_is_removed_with_it() {
    let mut p = open("S - Sb1:sF Sc3:s4 Eb1:eF Eb2:sB Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4");
    assert_eq!(p.attack_outcome(pt("Eb2"), pt("Eb1")), Some(Outcome::BothRemoved));
    play(&mut p, "Eb2xEb1");
    assert_eq!(p.cell(pt("Eb1")), None, "the HQ ends empty");
    assert_eq!(p.cell(pt("Eb2")), None);
    assert_eq!(p.out_reason(Seat::East), Some(OutReason::FlagCaptured));
    // The two-player toggle applies: no bomb on the flag.
    let mut rules = SiguoRules::OPEN;
    rules.set("BombAttacksMineAndFlag", "false").expect("setting");
    let mut p = pos("S - Sb1:sF Sc3:s4 Eb1:eF Eb2:sB Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4", rules);
    assert_eq!(p.play(act("Eb2xEb1"), None), Err(SiguoPlayError::Illegal(act("Eb2xEb1"))));
}

#[test]
fn first_seat_picks_who_moves_first() {
    let mut rng = luzhanqi::random::rng(3);
    let d: [Deployment; 4] = std::array::from_fn(|_| Deployment::random(Colour::Red, &mut rng));
    assert_eq!(Position::start(SiguoRules::CLASSIC, &d).side_to_move(), Seat::South);
    let mut rules = SiguoRules::CLASSIC;
    rules.set("firstseat", "n").expect("setting");
    assert_eq!(rules.first_seat, Seat::North);
    let p = Position::start(rules, &d);
    assert_eq!(p.side_to_move(), Seat::North);
    let mut p = p;
    let a = actions(&p)[0];
    p.play(a, None).expect("legal");
    assert_eq!(p.side_to_move(), Seat::West, "then N, W, S, E");
}

#[test]
fn partner_visible_shows_the_partner_in_a_view() {
    let text = "S - Sb1:sF Sc3:s4 Eb1:eF Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let kind = |p: &Position, at: &str| p.cell(pt(at)).and_then(|c| c.kind);
    let hidden = pos(text, SiguoRules::CLASSIC).view(Seat::South);
    assert_eq!((kind(&hidden, "Sc3"), kind(&hidden, "Nc3"), kind(&hidden, "Ec3")), (Some(Kind::Major), None, None));
    let mut rules = SiguoRules::CLASSIC;
    rules.set("PartnerVisible", "true").expect("setting");
    let seen = pos(text, rules).view(Seat::South);
    assert_eq!(
        (kind(&seen, "Nc3"), kind(&seen, "Nb1"), kind(&seen, "Ec3")),
        (Some(Kind::Major), Some(Kind::Flag), None)
    );
    // A view of hidden kinds cannot decide an attack without the referee.
    let mut v = pos("S - Sb1:sF Sc3:s4 Eb1:eF Eb2:s9 Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4", SiguoRules::CLASSIC)
        .view(Seat::South);
    assert_eq!(v.play(act("Eb2xEb1"), None), Err(SiguoPlayError::OutcomeNeeded(act("Eb2xEb1"))));
    v.play(act("Eb2xEb1"), Some(Outcome::AttackerWins)).expect("referee's outcome");
    // The view does not know Eb1 held the flag: East stays in until a referee says so (later step).
    assert!(!v.is_out(Seat::East));
    assert_eq!(v.cell(pt("Eb1")).map(|c| c.seat), Some(Seat::South));
}

#[test]
fn centre_transit_only_forbids_stopping_on_cb2() {
    let text = "S - Sb1:sF Sc6:s4 Ca2:s1 Eb1:eF Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let p = open(text);
    assert!(targets(&p, "Sc6").contains(&"Cb2".to_owned()));
    assert!(targets(&p, "Ca2").contains(&"Cb2".to_owned()));
    let mut rules = SiguoRules::OPEN;
    rules.set("CentreTransitOnly", "true").expect("setting");
    let q = pos(text, rules);
    for from in ["Sc6", "Ca2"] {
        let t = targets(&q, from);
        assert!(!t.contains(&"Cb2".to_owned()), "{from}: {t:?}");
        assert!(
            t.contains(&"Cb3".to_owned()) && t.contains(&"Cc2".to_owned()) == (from == "Ca2"),
            "{from} passes through Cb2: {t:?}"
        );
    }
    assert!(targets(&q, "Sc6").contains(&"Nc6".to_owned()));
}

#[test]
fn own_camps_only_keeps_pieces_out_of_other_arms_camps() {
    let text = "S - Sb1:sF Sc5:s4 Ec5:s5 Eb1:eF Ea1:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let p = open(text);
    let mut t = targets(&p, "Ec5");
    t.sort();
    assert_eq!(t, ["Eb5", "Ec4", "Ec6", "Ed5"]);
    let mut rules = SiguoRules::OPEN;
    rules.set("OwnCampsOnly", "true").expect("setting");
    let q = pos(text, rules);
    assert_eq!(targets(&q, "Ec5"), ["Ec6"]);
    let mut own = targets(&q, "Sc5");
    own.sort();
    assert_eq!(own, ["Sb5", "Sc4", "Sc6", "Sd5"], "its own camps stay open");
}

#[test]
fn two_player_combat_toggles_apply_on_four_seats() {
    let text = "S - Sb1:sF Sc3:s4 Eb1:eF Eb2:s9 Ea1:s1 Ec3:e4 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let mut rules = SiguoRules::OPEN;
    rules.set("FlagNeedsEngineer", "true").expect("setting");
    assert!(rules.base.flag_needs_engineer);
    let p = pos(text, rules);
    assert!(!actions(&p).contains(&act("Eb2xEb1")));
    assert!(actions(&p).contains(&act("Ea1xEb1")));
    assert!(actions(&open(text)).contains(&act("Eb2xEb1")));
}

#[test]
fn resigning_takes_a_seat_out_in_turn_or_not() {
    let mut p = open(FOUR);
    p.resign(Seat::West);
    assert_eq!((p.out_reason(Seat::West), p.side_to_move()), (Some(OutReason::Resigned), Seat::South));
    p.resign(Seat::South);
    assert_eq!(p.side_to_move(), Seat::East, "South's turn passes on");
    assert_eq!(p.outcome(), None);
    p.resign(Seat::East);
    assert_eq!(p.outcome().map(|r| r.to_string()).as_deref(), Some("SN wins (resign)"));
}

#[test]
fn settings_are_declared_by_name_and_set_in_any_case() {
    let names: Vec<&str> = SiguoRules::SETTINGS.iter().map(|s| s.name).collect();
    for n in ["FirstSeat", "PartnerVisible", "QuietLimit", "CentreTransitOnly", "OwnCampsOnly", "MarshalRevealsFlag"] {
        assert!(names.contains(&n), "{n}");
    }
    let d = SiguoRules::CLASSIC;
    assert_eq!(
        d.to_string(),
        "classic FirstSeat=S PartnerVisible=false QuietLimit=71 CentreTransitOnly=false OwnCampsOnly=false \
         FlagNeedsEngineer=false FlagNeedsMinesCleared=false BombAttacksMineAndFlag=true AnyRankClearsMine=false \
         MineRemovedAfterKill=false WinnerLearnsLoser=false MarshalRevealsFlag=true"
    );
    for s in &SiguoRules::SETTINGS {
        let mut r = d;
        r.set(s.name, &s.text(&d)).expect("its own text");
        assert_eq!(r, d, "{}", s.name);
    }
    let mut r = d;
    assert_eq!(
        r.set("QuietLimit", "-1").unwrap_err().to_string(),
        "bad value '-1' for QuietLimit (expected an integer from 0 to 10000)"
    );
    assert_eq!(r.set("FirstSeat", "X").unwrap_err().to_string(), "bad value 'X' for FirstSeat (expected S, E, N, W)");
    assert_eq!(r.set("QuietResult", "draw").unwrap_err().to_string(), "unknown rule 'QuietResult'");
    assert_eq!(r, d);
}

#[test]
fn random_games_keep_the_flow_consistent_to_the_end() {
    let mut rng = luzhanqi::random::rng(11);
    let mut reasons = std::collections::BTreeMap::new();
    let mut stuck_outs = 0;
    for game in 0..200u64 {
        let d: [Deployment; 4] =
            std::array::from_fn(|i| Deployment::random(if i % 2 == 0 { Colour::Red } else { Colour::Blue }, &mut rng));
        let mut rules = SiguoRules::OPEN;
        rules.quiet_limit = if game % 4 == 0 { 0 } else { DEFAULT_QUIET_LIMIT };
        let mut p = Position::start(rules, &d);
        let mut list = Vec::new();
        for _ in 0..5_000 {
            for s in Seat::ALL {
                assert_eq!(p.is_out(s), p.out_reason(s).is_some());
                if p.is_out(s) {
                    assert!(p.pieces(s).is_empty(), "{s} out with pieces: {p}");
                }
            }
            if p.is_over() {
                break;
            }
            assert!(!p.is_out(p.side_to_move()), "{p}");
            list.clear();
            p.legal_actions(&mut list);
            assert!(!list.is_empty(), "the side to move can act while the game goes on: {p}");
            let a = list[(rand::RngExt::random_range(&mut rng, 0..list.len() as u64)) as usize];
            let before = p.quiet();
            p.play(a, None).expect("a legal action of known kinds");
            if !a.attack {
                assert_eq!(p.quiet(), before + 1);
            }
        }
        let r = p.outcome().expect("every game ends");
        stuck_outs += Seat::ALL.iter().filter(|&&s| p.out_reason(s) == Some(OutReason::NoLegalAction)).count();
        *reasons.entry(r.to_string()).or_insert(0) += 1;
    }
    println!("{reasons:?}, {stuck_outs} seats out for want of an action");
    assert!(reasons.keys().any(|k| k.contains("quietlimit")), "{reasons:?}");
    assert!(reasons.keys().any(|k| k.contains("wins")), "{reasons:?}");
}
