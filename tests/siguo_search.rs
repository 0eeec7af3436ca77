//! The four-player search and what it stands on: actions in the tree's
//! edge labels, the belief a seat reads from what the referee told it (it
//! never excludes the truth, and it knows what the history proves), the
//! search's answers (legal, reproducible, within the node limit, a team's
//! result for both partners), and the four-player `greedy` player.

use luzhanqi::deployment::Deployment;
use luzhanqi::piece::{Colour, Kind};
use luzhanqi::random::rng;
use luzhanqi::search::four::{self, Request};
use luzhanqi::search::game::Label;
use luzhanqi::search::{Control, Limits, SearchConfig};
use luzhanqi::siguo::belief::SiguoBelief;
use luzhanqi::siguo::notation::parse_siguo_action;
use luzhanqi::siguo::{Action, Position, Seat, SiguoReferee, SiguoRules, SiguoToken};
use rand::RngExt;

fn deployments(seed: u64) -> [Deployment; 4] {
    let mut r = rng(seed);
    std::array::from_fn(|_| Deployment::random(Colour::Red, &mut r))
}

/// A refereed game of up to `plies` random actions from deployments `seed`;
/// `each` sees the referee before every action.
fn game(rules: SiguoRules, seed: u64, plies: usize, mut each: impl FnMut(&SiguoReferee)) -> SiguoReferee {
    let mut referee = SiguoReferee::new(Position::start(rules, &deployments(seed)));
    let mut r = rng(seed ^ 0x5eed);
    for _ in 0..plies {
        if referee.outcome().is_some() {
            break;
        }
        each(&referee);
        let mut legal = Vec::new();
        referee.truth().legal_actions(&mut legal);
        let a = legal[r.random_range(0..legal.len())];
        referee.play(a).expect("a legal action");
    }
    referee
}

fn act(s: &str) -> Action {
    parse_siguo_action(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn search(req: &Request<'_>, nodes: u64, seed: u64) -> luzhanqi::search::Report<Action> {
    let cfg = SearchConfig { seed, ..SearchConfig::default() };
    four::go(req, &Limits::nodes(nodes), &cfg, &Control::default(), &mut |_| {})
}

#[test]
fn every_action_has_its_own_edge_label() {
    let mut seen = std::collections::HashMap::new();
    game(SiguoRules::OPEN, 1, 300, |r| {
        let mut legal = Vec::new();
        r.truth().legal_actions(&mut legal);
        for a in legal {
            let l = a.to_label();
            assert!(Action::is_label(l), "{a}");
            assert_eq!(Action::from_label(l), a);
            assert_eq!(*seen.entry(l).or_insert(a), a, "two actions share label {l}");
        }
    });
    assert!(seen.len() > 500, "{}", seen.len());
    assert!(!Action::is_label(0), "a point to itself is not an action");
}

/// Along random refereed games, every seat's belief read from what it was
/// told leads to its view, meets no contradiction, and leaves every unseen
/// piece's true kind possible; the facts narrow the kinds, and sampled
/// worlds name every unseen piece within each army's counts.
#[test]
fn the_belief_never_excludes_the_truth() {
    let mut narrowed = 0usize;
    let mut pieces = 0usize;
    for seed in 0..12 {
        let rules = if seed % 3 == 2 {
            let mut r = SiguoRules::CLASSIC;
            r.set("WinnerLearnsLoser", "true").expect("setting");
            r
        } else {
            SiguoRules::CLASSIC
        };
        game(rules, seed, 400, |referee| {
            let truth = referee.truth();
            let n: usize = referee.told(Seat::South).len();
            if n % 25 != 0 {
                return;
            }
            for seat in Seat::ALL.into_iter().filter(|&s| !truth.is_out(s)) {
                let (belief, end) =
                    SiguoBelief::from_history(referee.start(seat), seat, referee.told(seat), true).expect("history");
                assert_eq!(&end, referee.view(seat));
                assert_eq!(belief.contradictions, 0, "seed {seed} seat {seat}");
                for s in &belief.seats {
                    assert!(s.seat != seat && !truth.is_out(s.seat));
                    for e in s.pieces.iter().filter(|e| e.at.is_some()) {
                        let p = e.at.expect("on the board");
                        let k = truth.cell(p).and_then(|c| c.kind).expect("the truth names it");
                        assert_eq!(truth.cell(p).map(|c| c.seat), Some(s.seat));
                        assert!(e.kinds >> k as u16 & 1 == 1, "seed {seed}: {seat} excludes {k:?} at {p}");
                        pieces += 1;
                        narrowed += usize::from(e.kinds.count_ones() < 12);
                    }
                }
                let mut r = rng(seed);
                let samplers = belief.samplers(&mut r).expect("a consistent world");
                let world = belief.world(referee.view(seat), &samplers);
                assert!(!world.has_hidden_kinds());
                for s in Seat::ALL {
                    let mut count = [0u8; 12];
                    for p in world.pieces(s) {
                        count[world.cell(p).and_then(|c| c.kind).expect("named").index()] += 1;
                    }
                    assert!(Kind::ALL.iter().all(|k| count[k.index()] <= k.count()), "{s}: {count:?}");
                }
            }
        });
    }
    assert!(narrowed * 2 > pieces, "the facts narrowed {narrowed} of {pieces} pieces");
}

/// protocol.md's South view: West's piece that traded with South's Marshal
/// was West's Marshal (West's flag was shown next), so no West piece on the
/// board can be one; a piece that moved is neither landmine nor flag, and
/// one that took a railway turn is an Engineer.
#[test]
fn the_history_proves_what_it_proves() {
    let start = "n?n?n?n?n?/n?n?n?n?n?/n?1n?1n?/n?n?1n?n?/n?1n?1n?/n?n?n?n?n?/w?w?w?w?w?w?3e?e?e?e?e?e?/w?w?1w?1w?e?1e?1e?e?/w?w?w?1w?w?3e?e?1e?e?e?/w?w?1w?1w?e?1e?1e?e?/w?w?w?w?w?w?3e?e?e?e?e?e?/s2s2s2s1s3/s91s71s4/s1s31sBs4/s31s51sB/s7sMs8s6s6/sMsFsMs5s1 s 0 0 - -";
    let state = luzhanqi::siguo::notation::parse_siguo_setup(start)
        .expect("position")
        .state(SiguoRules::CLASSIC)
        .expect("legal");
    let history: Vec<SiguoToken> = "Sa6xWe6- Eb4-Eb3 Na6xEe6+ We6-Sa6 Sa5xSa6+ Ec6-Cb2 Na2-Nb3 We5xSa6= Wd1=wF Sb1=sF"
        .split(' ')
        .map(|t| t.parse().expect("token"))
        .collect();
    let (belief, _) = SiguoBelief::from_history(&state.pos, Seat::South, &history, true).expect("history");
    let west = belief.seats.iter().find(|s| s.seat == Seat::West).expect("West unseen");
    assert!(west.flag_shown);
    let marshal = 1u16 << Kind::Marshal as u16;
    let removed: Vec<_> = west.pieces.iter().filter(|e| e.at.is_none()).collect();
    assert!(removed.iter().any(|e| e.kinds == marshal), "{removed:?}");
    let mut r = rng(1);
    for (p, k) in belief.marginals(2000, &mut r) {
        if p.to_string().starts_with('W') {
            assert_eq!(k[Kind::Marshal.index()], 0.0, "{p}");
        }
    }
    // East's piece that moved Ec6-Cb2: it moves, and that is a step, not a turn.
    let east = belief.seats.iter().find(|s| s.seat == Seat::East).expect("East unseen");
    let cb2 = east.pieces.iter().find(|e| e.at == Some(act("Cb2-Cb1").from)).expect("on Cb2");
    assert_eq!(cb2.kinds & (1 << Kind::Mine as u16 | 1 << Kind::Flag as u16), 0);
}

#[test]
fn a_railway_turn_proves_an_engineer() {
    // East's piece on Ea2 runs the railway round to Ec2... only an engineer turns.
    let text = "E - Sb1:sF Sa1:s4 Eb1:eF Ea2:e1 Nb1:nF Nc3:n4 Wb1:wF Wc3:w4";
    let truth = Position::parse(text, SiguoRules::CLASSIC).expect("position");
    let view = truth.view(Seat::South);
    let mut legal = Vec::new();
    truth.legal_actions(&mut legal);
    // An engineer route that no straight slide reaches.
    let straight = {
        let mut t = truth.clone();
        t.put(act("Ea2-Ea3").from, Some(luzhanqi::siguo::Piece::new(Seat::East, Some(Kind::Captain))));
        let mut v = Vec::new();
        t.legal_actions(&mut v);
        v
    };
    let turn = legal.into_iter().find(|a| !straight.contains(a)).expect("a route only an engineer takes");
    let history = [SiguoToken::Move(turn)];
    let start = Position::parse("E - Sb1:sF Sa1:s4 Eb1:e? Ea2:e? Nb1:n? Nc3:n? Wb1:w? Wc3:w?", SiguoRules::CLASSIC)
        .expect("view");
    assert_eq!(start.side_to_move(), view.side_to_move());
    let (belief, _) = SiguoBelief::from_history(&start, Seat::South, &history, false).expect("history");
    let east = belief.seats.iter().find(|s| s.seat == Seat::East).expect("East unseen");
    let moved = east.pieces.iter().find(|e| e.at == Some(turn.to)).expect("moved piece");
    assert_eq!(moved.kinds, 1 << Kind::Engineer as u16, "{turn}");
}

/// The search answers a legal action of the seat to move in views along
/// refereed games, the same answer for the same seed, within the node
/// limit; in `siguo-open` too.
#[test]
fn the_search_answers_legal_reproducible_actions() {
    for (rules, seed) in [(SiguoRules::CLASSIC, 3), (SiguoRules::CLASSIC, 4), (SiguoRules::OPEN, 5)] {
        let mut asked = 0;
        game(rules, seed, 240, |referee| {
            if referee.told(Seat::South).len() % 40 != 7 {
                return;
            }
            let seat = referee.truth().side_to_move();
            let req = Request::told_by(referee, seat);
            let a = search(&req, 300, seed);
            let b = search(&req, 300, seed);
            let best = a.best.expect("an action");
            assert_eq!(Some(best), b.best);
            assert_eq!(a.last.nodes, 300);
            assert_eq!(a.last.pv, b.last.pv);
            let mut legal = Vec::new();
            referee.truth().legal_actions(&mut legal);
            assert!(legal.contains(&best), "{best} for {seat}");
            assert!(a.ponder.is_none());
            asked += 1;
        });
        assert!(asked >= 4, "{asked}");
    }
}

/// A team's result is both partners': with East out and West nearly
/// bare, South and North both expect to win and West to lose; South takes
/// a flag in reach at once.
#[test]
fn a_team_wins_or_loses_together() {
    let text = |side: char| {
        format!("{side} e Sb1:sF Sc3:s9 Sa2:s7 Sc6:s1 Nb1:nF Nc3:n9 Na2:n7 Nc5:n8 Wb1:wF Wd1:wM Wc4:w3 Wa2:wB")
    };
    let cp = |side: char| {
        let pos = Position::parse(&text(side), SiguoRules::OPEN).expect("position");
        let req = Request { start: &pos, at_deployment: false, history: &[], view: &pos };
        search(&req, 3000, 1).last.centipawns()
    };
    assert!(cp('S') > 200, "{}", cp('S'));
    assert!(cp('N') > 200, "{}", cp('N'));
    assert!(cp('W') < -200, "{}", cp('W'));
    // A flag in reach: South's engineer next to West's flag.
    let pos = Position::parse("S e Sb1:sF Sc3:s9 Wb2:s1 Nb1:nF Nc3:n9 Wb1:wF Wd1:wM Wc4:w5", SiguoRules::OPEN)
        .expect("position");
    let req = Request { start: &pos, at_deployment: false, history: &[], view: &pos };
    let best = search(&req, 2000, 1).best.expect("an action");
    assert_eq!(best.to, act("Wb1-Wb2").from, "{best}");
    assert!(best.attack);
}

/// `greedy` takes a known flag, and does not throw a piece at one that
/// beats it when a quiet move is there.
#[test]
fn greedy_takes_flags_and_keeps_its_pieces() {
    let mut r = rng(1);
    let flag = Position::parse("S e Sb1:sF Sc3:s9 Wb2:s1 Nb1:nF Nc3:n9 Wb1:wF Wd1:wM Wc4:w5", SiguoRules::OPEN)
        .expect("position");
    let c = luzhanqi::players::siguo::greedy(&flag, &mut r).expect("a choice");
    assert_eq!(c.action, act("Wb2xWb1"), "{c:?}");
    let bad = Position::parse("S - Sb1:sF Sc6:s3 Nb1:nF Nc3:n9 Ea6:e9 Eb1:eF Wb1:wF Wd1:wM", SiguoRules::OPEN)
        .expect("position");
    for seed in 0..20 {
        let mut r = rng(seed);
        let c = luzhanqi::players::siguo::greedy(&bad, &mut r).expect("a choice");
        assert!(!c.action.attack || c.action.to != act("Ea6-Ea5").from, "{c:?}");
    }
}
