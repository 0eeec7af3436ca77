//! The tree search: chance nodes weighted by the pool, no dependence on
//! hidden identities, the solver, limits (nodes, time, stop, Hash), threads
//! and tree reuse.

mod common;

use std::time::{Duration, Instant};

use common::sparse;
use luzhanqi::piece::{Colour, Kind, Piece};
use luzhanqi::position::View;
use luzhanqi::random::{rng, seeded_position};
use luzhanqi::search::mcts::Worker;
use luzhanqi::search::params::Params;
use luzhanqi::search::tree::{Proven, Tree};
use luzhanqi::search::{Control, Event, Limits, SearchConfig, Searcher};
use luzhanqi::{ActionKind, Position, Rules};

fn cfg(seed: u64) -> SearchConfig {
    SearchConfig { threads: 1, hash_mb: 64, seed, move_overhead: 0, ..SearchConfig::default() }
}

fn nodes(n: u64) -> Limits {
    Limits::nodes(n)
}

#[test]
fn chance_nodes_are_weighted_by_pool_counts() {
    let pos = seeded_position(Rules::FLIP, 5, 10);
    let mut w = Worker::new(Tree::new(pos.clone(), 64 << 20), rng(1), Params::default());
    for _ in 0..30_000 {
        w.iterate();
    }
    let total: f32 = pos.pool().iter().flatten().map(|&n| f32::from(n)).sum();
    let tree = &w.tree;
    let mut checked = 0;
    for e in tree.edges_of(0) {
        let a = e.as_action();
        if a.kind() != ActionKind::Flip || e.child == u32::MAX {
            continue;
        }
        let chance = &tree.nodes[e.child as usize];
        assert!(chance.chance);
        let outcomes = tree.edges_of(e.child);
        assert_eq!(outcomes.len() as u32, pos.pool_distinct());
        for o in outcomes {
            let p = o.as_piece();
            let expected = f32::from(pos.pool_count(p.colour, p.kind.expect("known"))) / total;
            // Priors are stored to 1/65535; sampling uses the exact counts.
            assert!((o.prior() - expected).abs() < 2e-5, "{p}: {} vs {expected}", o.prior());
        }
        // Sampling follows the weights: visits per identity against the count share.
        if chance.visits >= 2000 {
            for o in outcomes.iter().filter(|o| o.child != u32::MAX) {
                let share = tree.nodes[o.child as usize].visits as f32 / chance.visits as f32;
                let prior = o.prior();
                let sd = (prior * (1.0 - prior) / chance.visits as f32).sqrt();
                assert!((share - prior).abs() < 5.0 * sd + 1e-3, "share {share} prior {prior}");
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "no heavily visited flip");
}

/// Two deals that agree on everything already flipped but differ in what is
/// still face down: the engine sees the same history and answers the same.
#[test]
fn search_does_not_depend_on_hidden_identities() {
    use luzhanqi::engine::Engine;
    use luzhanqi::engine::output::Output;
    let run = |deal_seed: u64| {
        // A referee dealing from `deal_seed`: play 12 plies of random actions,
        // revealing flips from the deal; the public history is the same for
        // every deal as long as the flips show the same identities, so draw
        // the flips from a fixed sequence and the deal only for the rest.
        let mut pos = Position::flip_start(Rules::FLIP);
        let shown = ["r9", "b2", "r5", "b7", "rM", "b1"];
        let points = ["c3", "c7", "a1", "e12", "b2", "d11"];
        let mut history = Vec::new();
        for (pt, pc) in points.iter().zip(shown) {
            history.push(format!("{pt}={pc}"));
            pos.apply_token(luzhanqi::notation::parse_token(&format!("{pt}={pc}")).unwrap()).unwrap();
        }
        // The hidden rest of the deal differs per seed: shuffle the pool over
        // the face-down points (never shown to the engine).
        let mut r = rng(deal_seed);
        let mut truth = Vec::new();
        let mut p = pos.clone();
        for at in pos.facedown() {
            let pc = p.sample_pool(&mut r).unwrap();
            p.play_flip(at, pc);
            truth.push(pc);
        }
        let (out, rx) = Output::channel();
        let mut e = Engine::new(out);
        for line in [
            "setoption name Seed value 5".to_owned(),
            format!("position startpos moves {}", history.join(" ")),
            "go nodes 3000".to_owned(),
        ] {
            e.handle_line(&line);
        }
        let mut lines = Vec::new();
        while let Ok(l) = rx.recv_timeout(Duration::from_secs(30)) {
            let done = l.starts_with("bestmove");
            // Times differ run to run.
            let l: Vec<&str> = l.split(' ').collect();
            let masked: Vec<String> = l
                .iter()
                .enumerate()
                .map(|(i, w)| if i > 0 && matches!(l[i - 1], "time" | "nps") { "*".into() } else { (*w).to_owned() })
                .collect();
            lines.push(masked.join(" "));
            if done {
                break;
            }
        }
        (lines, truth)
    };
    let (a, truth_a) = run(1);
    let (b, truth_b) = run(2);
    assert_ne!(truth_a, truth_b, "the hidden truths differ");
    assert_eq!(a, b);
    assert!(a.last().is_some_and(|l| l.starts_with("bestmove")));
}

#[test]
fn solver_finds_a_forced_flag_capture_in_two() {
    // Red's Marshal on the camp b10 reaches b11 and then takes the flag on
    // b12; Blue's only mobile piece, a Colonel on e2, cannot stop it.
    let pos = sparse(
        Rules::OPEN,
        Some(Colour::Red),
        &[("b10", "r9"), ("d1", "rF"), ("b12", "bF"), ("d11", "bM"), ("e11", "bM"), ("e12", "bM"), ("e2", "b5")],
        &[],
        &[],
    );
    let mut s = Searcher::new();
    let mut infos = Vec::new();
    let r = s.go(&View::told(pos.clone()), &nodes(200_000), &cfg(3), &Control::default(), &mut |x| infos.push(x));
    assert_eq!(r.best.map(|a| a.to_string()), Some("b10-b11".to_owned()));
    assert_eq!(r.last.centipawns(), 10_000, "proven win: {:?}", r.last);
    // The proof ends the search long before the node limit.
    assert!(r.last.nodes < 200_000);
    let tree = &s.trees()[0];
    let best = tree.edges_of(0).iter().find(|e| e.as_action().to_string() == "b10-b11");
    let child = best.map(|e| tree.nodes[e.child as usize].proven);
    assert_eq!(child, Some(Proven::Win));
}

#[test]
fn node_limit_is_exact_and_reproducible_with_one_thread() {
    let pos = seeded_position(Rules::FLIP, 9, 30);
    let run = || {
        let mut s = Searcher::new();
        s.go(&View::told(pos.clone()), &nodes(5000), &cfg(42), &Control::default(), &mut |_| {})
    };
    let a = run();
    let b = run();
    assert_eq!(a.last.nodes, 5000);
    assert_eq!(a.best, b.best);
    assert_eq!(a.last.pv, b.last.pv);
    assert_eq!((a.last.q, a.last.proven), (b.last.q, b.last.proven));
}

#[test]
fn movetime_and_clocks_are_respected() {
    let pos = seeded_position(Rules::OPEN, 3, 20);
    let mut s = Searcher::new();
    let t = Instant::now();
    s.go(&View::told(pos.clone()), &Limits::movetime(200), &cfg(1), &Control::default(), &mut |_| {});
    let used = t.elapsed();
    if common::timing_asserted() {
        assert!(used <= Duration::from_millis(260), "movetime 200 took {used:?}");
    }
    let mut s = Searcher::new();
    let t = Instant::now();
    let go = Limits { time: [Some(3000), Some(3000)], ..Limits::default() };
    s.go(&View::told(pos.clone()), &go, &cfg(1), &Control::default(), &mut |_| {});
    let used = t.elapsed();
    if common::timing_asserted() {
        assert!(used <= Duration::from_millis(1100), "a 3 s clock: took {used:?}");
    }
}

#[test]
fn stop_ends_an_infinite_search_quickly() {
    let pos = seeded_position(Rules::FLIP, 4, 40);
    let control = std::sync::Arc::new(Control::default());
    let c2 = std::sync::Arc::clone(&control);
    let handle = std::thread::spawn(move || {
        let mut s = Searcher::new();
        let go = Limits { infinite: true, ..Limits::default() };
        let mut n = 0;
        let r = s.go(&View::told(pos.clone()), &go, &cfg(1), &c2, &mut |x| {
            if matches!(x, Event::Progress(_)) {
                n += 1;
            }
        });
        (r, n)
    });
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    control.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let (r, infos) = handle.join().unwrap();
    let latency = t.elapsed();
    if common::timing_asserted() {
        assert!(latency < Duration::from_millis(100), "stop took {latency:?}");
    }
    assert!(r.best.is_some());
    assert!(infos >= 1);
}

#[test]
fn hash_caps_the_tree() {
    let pos = seeded_position(Rules::OPEN, 8, 30);
    let mut s = Searcher::new();
    let c = SearchConfig { hash_mb: 1, ..cfg(2) };
    let r = s.go(&View::told(pos.clone()), &nodes(150_000), &c, &Control::default(), &mut |_| {});
    assert!(s.tree_bytes() <= 1 << 20, "{} bytes", s.tree_bytes());
    assert!(r.last.hashfull.is_some_and(|h| h >= 900), "{:?}", r.last.hashfull);
    assert_eq!(r.last.nodes, 150_000, "a full tree keeps searching");
    assert!(r.best.is_some());
}

#[test]
fn two_threads_search_and_agree_on_a_legal_action() {
    let pos = seeded_position(Rules::FLIP, 6, 50);
    let mut s = Searcher::new();
    let c = SearchConfig { threads: 2, ..cfg(7) };
    let r = s.go(&View::told(pos.clone()), &nodes(20_000), &c, &Control::default(), &mut |_| {});
    let best = r.best.expect("an action");
    assert!(pos.is_legal(best));
    assert!(r.last.nodes >= 20_000);
    assert_eq!(s.trees().len(), 2);
}

/// Tree parallelism (`SearchParams parallel=tree`): the threads share one
/// tree, which counts every iteration once at its root, and `Hash` caps it.
#[test]
fn with_parallel_tree_two_threads_share_one_tree_within_hash() {
    let tree_mode = |c: SearchConfig| SearchConfig {
        params: luzhanqi::search::params::ParamOverrides::parse("parallel=tree").unwrap(),
        ..c
    };
    let pos = seeded_position(Rules::FLIP, 6, 50);
    let mut s = Searcher::new();
    let c = tree_mode(SearchConfig { threads: 2, ..cfg(7) });
    let r = s.go(&View::told(pos.clone()), &nodes(20_000), &c, &Control::default(), &mut |_| {});
    assert!(pos.is_legal(r.best.expect("an action")));
    assert_eq!(s.trees().len(), 1);
    let root = s.trees()[0].nodes[0];
    assert_eq!(u64::from(root.visits), r.last.nodes);
    assert!(root.visits >= 20_000);
    assert!(s.trees()[0].nodes.iter().all(|n| n.value.abs() <= n.visits as f32 + 1e-3));

    let pos = seeded_position(Rules::OPEN, 8, 30);
    let mut s = Searcher::new();
    let c = tree_mode(SearchConfig { threads: 2, hash_mb: 1, ..cfg(2) });
    let r = s.go(&View::told(pos.clone()), &nodes(150_000), &c, &Control::default(), &mut |_| {});
    assert!(s.tree_bytes() <= 1 << 20, "{} bytes", s.tree_bytes());
    assert!(r.last.hashfull.is_some_and(|h| h >= 900), "{:?}", r.last.hashfull);
    assert!(r.last.nodes >= 150_000, "a full tree keeps searching");
    assert!(r.best.is_some());
}

#[test]
fn the_tree_is_reused_after_the_expected_reply() {
    let pos = seeded_position(Rules::OPEN, 12, 10);
    let mut s = Searcher::new();
    let r = s.go(&View::told(pos.clone()), &nodes(20_000), &cfg(1), &Control::default(), &mut |_| {});
    let best = r.best.unwrap();
    let reply = r.ponder.expect("a ponder move in open");
    let mut next = pos.clone();
    next.play_known(best, None);
    next.play_known(reply, None);
    let kept = s.trees()[0].find(&next).map(|n| s.trees()[0].nodes[n as usize].visits).unwrap_or(0);
    assert!(kept > 100, "the expected position has {kept} visits in the old tree");
    let r2 = s.go(&View::told(next.clone()), &nodes(1), &cfg(1), &Control::default(), &mut |_| {});
    assert!(s.trees()[0].nodes[0].visits >= kept, "reused root keeps its visits");
    assert!(r2.best.is_some());
    let _ = Piece::new(Colour::Red, Kind::Flag);
}

/// A tree as seen from its root: every reachable node's statistics and
/// edges in edge order, without the indices they happen to sit at.
fn shape(t: &Tree) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![0u32];
    while let Some(n) = stack.pop() {
        let node = &t.nodes[n as usize];
        let edges: Vec<_> = if node.expanded { t.edges_of(n).to_vec() } else { Vec::new() };
        out.push(format!(
            "{} {} {} {} {} {} {:?} {} {:?}",
            node.visits,
            node.value.to_bits(),
            node.num_edges,
            node.expanded,
            node.chance,
            node.terminal,
            node.proven,
            node.pending,
            edges.iter().map(|e| (e.label(), e.prior().to_bits(), e.child != u32::MAX)).collect::<Vec<_>>()
        ));
        stack.extend(edges.iter().rev().filter(|e| e.child != u32::MAX).map(|e| e.child));
    }
    out
}

#[test]
fn rerooting_in_place_keeps_the_subtree_a_copy_would() {
    for (rules, ply) in [(Rules::FLIP, 10), (Rules::OPEN, 10)] {
        let pos = seeded_position(rules, 3, ply);
        let mut w = Worker::new(Tree::new(pos.clone(), 64 << 20), rng(7), Params::for_mode(rules.mode));
        for _ in 0..20_000 {
            w.iterate();
        }
        let tree = w.tree;
        // Grandchildren of the root (our action, their reply or the shown
        // identity), the nodes a reuse roots at, and a few deeper ones.
        let mut targets: Vec<u32> = tree
            .edges_of(0)
            .iter()
            .filter(|e| e.child != u32::MAX && tree.nodes[e.child as usize].expanded)
            .flat_map(|e| tree.edges_of(e.child).iter().map(|g| g.child))
            .filter(|&c| c != u32::MAX)
            .take(12)
            .collect();
        targets.extend([1, tree.nodes.len() as u32 / 3, tree.nodes.len() as u32 - 1]);
        for n in targets {
            let copied = tree.subtree(n, pos.clone());
            let moved = tree.clone().reroot(n, pos.clone());
            assert_eq!(moved.nodes.len(), copied.nodes.len(), "{rules:?} node {n}");
            assert_eq!(moved.edges.len(), copied.edges.len(), "{rules:?} node {n}");
            assert_eq!(shape(&moved), shape(&copied), "{rules:?} node {n}");
        }
    }
}

/// Classic: two deals of Blue's pieces behind the same observations give the
/// same search with the same seed.
#[test]
fn classic_search_does_not_depend_on_the_hidden_truth() {
    use luzhanqi::engine::Engine;
    use luzhanqi::engine::output::Output;
    let red = luzhanqi::Deployment::random(Colour::Red, &mut rng(1));
    let run = |blue_seed: u64| {
        let blue = luzhanqi::Deployment::random(Colour::Blue, &mut rng(blue_seed));
        let truth = Position::from_deployments(Rules::CLASSIC, &red, &blue);
        // Front-rank pieces step forward: legal whatever they are (no mine, flag or bomb there).
        let view = truth.hide_enemy(Colour::Red, luzhanqi::Bitboard::EMPTY);
        let (out, rx) = Output::channel();
        let mut e = Engine::new(out);
        for line in [
            "setoption name Variant value classic".to_owned(),
            "setoption name Seed value 9".to_owned(),
            "setoption name ShowBelief value true".to_owned(),
            format!("position fen {view} moves a6-b5 a7-b8 e6-d5 e7-d8"),
            "go nodes 2000".to_owned(),
        ] {
            e.handle_line(&line);
        }
        let mut lines = Vec::new();
        while let Ok(l) = rx.recv_timeout(Duration::from_secs(30)) {
            let done = l.starts_with("bestmove");
            let w: Vec<&str> = l.split(' ').collect();
            let masked: Vec<String> = w
                .iter()
                .enumerate()
                .map(|(i, x)| if i > 0 && matches!(w[i - 1], "time" | "nps") { "*".into() } else { (*x).to_owned() })
                .collect();
            lines.push(masked.join(" "));
            if done {
                break;
            }
        }
        (lines, blue.to_string())
    };
    let (a, truth_a) = run(2);
    let (b, truth_b) = run(3);
    assert_ne!(truth_a, truth_b);
    assert_eq!(a, b);
    assert!(a.iter().any(|l| l.starts_with("info belief")), "{a:?}");
    assert!(a.last().is_some_and(|l| l.starts_with("bestmove")));
}

/// Classic: the root's priors from the expert, as `info rootstat` reports
/// them after a search of `nodes` iterations with `params`, by action.
fn classic_root_priors(params: &str, nodes: u32) -> Vec<(String, f32)> {
    use luzhanqi::engine::Engine;
    use luzhanqi::engine::output::Output;
    let red = luzhanqi::Deployment::random(Colour::Red, &mut rng(1));
    let blue = luzhanqi::Deployment::random(Colour::Blue, &mut rng(2));
    let view =
        Position::from_deployments(Rules::CLASSIC, &red, &blue).hide_enemy(Colour::Red, luzhanqi::Bitboard::EMPTY);
    let (out, rx) = Output::channel();
    let mut e = Engine::new(out);
    for line in [
        "setoption name Variant value classic".to_owned(),
        "setoption name Seed value 3".to_owned(),
        "setoption name ShowRootStats value true".to_owned(),
        format!("setoption name SearchParams value {params}"),
        format!("position fen {view} moves a6-b5 a7-b8"),
        format!("go nodes {nodes}"),
    ] {
        e.handle_line(&line);
    }
    let mut priors: Vec<(String, f32)> = Vec::new();
    while let Ok(l) = rx.recv_timeout(Duration::from_secs(30)) {
        if l.starts_with("bestmove") {
            break;
        }
        let w: Vec<&str> = l.split(' ').collect();
        if w.get(1) == Some(&"rootstat") {
            let prior = w.iter().position(|&x| x == "prior").and_then(|i| w.get(i + 1)).unwrap().parse().unwrap();
            match priors.iter_mut().find(|(a, _)| a == w[2]) {
                Some(p) => p.1 = prior,
                None => priors.push((w[2].to_owned(), prior)),
            }
        }
    }
    priors.sort_by(|a, b| a.0.cmp(&b.0));
    priors
}

/// `tempgrowth`: the root's expert priors flatten as its visits grow past
/// `tempvisits`, and not before.
#[test]
fn the_expert_priors_flatten_as_the_root_visits_grow() {
    let top = |p: &[(String, f32)]| p.iter().map(|x| x.1).fold(0.0, f32::max);
    let fixed = classic_root_priors("experttemp=100 tempgrowth=0", 6000);
    let grown = classic_root_priors("experttemp=100 tempvisits=1000 tempgrowth=1", 6000);
    assert!(fixed.len() > 10, "{fixed:?}");
    let actions = |p: &[(String, f32)]| p.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
    assert_eq!(actions(&fixed), actions(&grown));
    assert!(top(&grown) < 0.8 * top(&fixed), "{} against {}", top(&grown), top(&fixed));
    // Below `tempvisits` nothing changes.
    let early = classic_root_priors("experttemp=100 tempvisits=100000 tempgrowth=1", 6000);
    assert_eq!(early, fixed);
}

/// An ISMCTS worker for Red after Red's piece on a10 attacked a11 and lost
/// to what can only be a landmine and Blue stepped e8-e7: Red's `pieces`,
/// Blue's pieces on a11, d12, e8, c9 and at `more_blue`, all unknown.
fn worker_after_a_mine_is_proven(
    pieces: &[(&str, &str)],
    more_blue: &[&str],
    params: Params,
) -> (luzhanqi::search::ismcts::IsWorker, luzhanqi::belief::Belief) {
    use luzhanqi::belief::Belief;
    use luzhanqi::belief::sampler::WorldSampler;
    use luzhanqi::search::ismcts::IsWorker;
    let blue = ["a11", "d12", "e8", "c9"].iter().chain(more_blue).map(|p| (*p, "b?"));
    let all: Vec<(&str, &str)> = pieces.iter().copied().chain(blue).collect();
    let start = sparse(Rules::CLASSIC, Some(Colour::Red), &all, &[], &[]);
    let history: Vec<luzhanqi::Token> =
        ["a10xa11-", "e8-e7"].iter().map(|t| luzhanqi::notation::parse_token(t).unwrap()).collect();
    let (belief, view) = Belief::from_history(&start, Colour::Red, &history).unwrap();
    let mut r = rng(4);
    let sampler = WorldSampler::new(&belief, None, &mut r).unwrap();
    let own = luzhanqi::search::ismcts::own_view(Some((&start, &history)), &view, Colour::Red, &params, &mut r);
    assert_eq!(own.is_some(), params.own_view > 0.0);
    (IsWorker::new(Tree::new(view, 64 << 20), rng(5), params, belief.clone(), sampler, false, own), belief)
}

/// `SearchParams ownview`: that share of the iterations plays Red's pieces
/// as Blue may believe them and teaches only Blue's statistics, so Red's
/// root actions take about the rest, while the root counts every iteration.
#[test]
fn own_view_iterations_teach_only_the_enemy() {
    let more_blue = ["a12", "b12", "c12", "e12", "b11", "c11", "e11", "a9", "e9"];
    let pieces = [("b1", "rF"), ("a10", "r9"), ("d7", "r5"), ("e1", "r3"), ("c2", "r1"), ("a3", "r7")];
    let red_share = |own_view: f32| {
        let (mut w, _) = worker_after_a_mine_is_proven(&pieces, &more_blue, Params { own_view, ..Params::default() });
        for _ in 0..4000 {
            w.iterate();
        }
        let tree = w.tree();
        let red: u32 =
            tree.edges_of(0).iter().filter(|e| e.child != u32::MAX).map(|e| tree.nodes[e.child as usize].visits).sum();
        (tree.nodes[0].visits, f64::from(red) / 4000.0)
    };
    assert_eq!(red_share(0.0), (4000, 1.0));
    let (root, share) = red_share(0.5);
    assert_eq!(root, 4000);
    assert!((0.44..0.56).contains(&share), "{share}");
}

/// Classic: a piece the history proves to be a landmine is never moved in
/// the tree, though the view (where it is just "a Blue piece") offers moves.
#[test]
fn ismcts_selects_only_actions_legal_in_the_sampled_world() {
    let pieces = [("b1", "rF"), ("a10", "r9"), ("c6", "r5"), ("e1", "r3")];
    let (mut w, belief) = worker_after_a_mine_is_proven(&pieces, &[], Params::default());
    let mine = belief.piece_at(luzhanqi::notation::parse_point("a11").unwrap()).unwrap();
    assert_eq!(belief.pieces[mine].kinds, luzhanqi::belief::only(Kind::Mine));
    for _ in 0..5000 {
        w.iterate();
    }
    let tree = w.tree();
    let a11 = luzhanqi::notation::parse_point("a11").unwrap();
    let mut blue_nodes = 0;
    for e in tree.edges_of(0).iter().filter(|e| e.child != u32::MAX) {
        let n = &tree.nodes[e.child as usize];
        if n.chance || !n.expanded {
            continue;
        }
        blue_nodes += 1;
        for be in tree.edges_of(e.child) {
            let a = be.as_action();
            if a.from() == a11 {
                assert_eq!(be.child, u32::MAX, "the landmine moved: {a}");
            }
        }
        // The view offers the mine's moves: they exist as edges.
        assert!(tree.edges_of(e.child).iter().any(|be| be.as_action().from() == a11));
    }
    assert!(blue_nodes > 3);
}

/// `SearchParams priors=false` reaches both workers: the classic (ISMCTS)
/// root's edges get uniform priors, and the heuristic ones otherwise.
#[test]
fn the_priors_switch_reaches_the_classic_search() {
    // Enough unknown Blue pieces that the one that moved may be of any rank.
    let more_blue = ["a12", "b12", "c12", "e12", "b11", "c11", "e11", "a9", "e9"];
    let pieces = [("b1", "rF"), ("a10", "r9"), ("d7", "r5"), ("e1", "r3")];
    let root_priors = |use_priors: bool| {
        let params = Params { use_priors, ..Params::default() };
        let (mut w, _) = worker_after_a_mine_is_proven(&pieces, &more_blue, params);
        for _ in 0..50 {
            w.iterate();
        }
        w.tree().edges_of(0).iter().map(|e| e.prior()).collect::<Vec<f32>>()
    };
    let uniform = root_priors(false);
    assert!(uniform.len() > 3, "{uniform:?}");
    assert!(uniform.iter().all(|&p| (p - 1.0 / uniform.len() as f32).abs() < 1e-4), "{uniform:?}"); // stored in 16 bits
    let heuristic = root_priors(true);
    assert_eq!(heuristic.len(), uniform.len());
    assert!(heuristic.iter().any(|&p| (p - 1.0 / heuristic.len() as f32).abs() > 1e-3), "{heuristic:?}");
}
