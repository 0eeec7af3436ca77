//! A deliberately naive four-player move generator, checked against the
//! engine's (`luzhanqi::siguo::movegen`) on random four-player positions,
//! 10,000 or more per variant (`open`: every kind known; `classic`: the
//! side to move's view, every other seat's kinds unknown) and a few
//! thousand under house-rule toggles (two-player ones and the four-player
//! `CentreTransitOnly` and `OwnCampsOnly`).
//!
//! The reference knows nothing of the engine's board: the points are the
//! names of RULES-4P.md §1.2 in a list of its own, the links are read from
//! `tests/data/topology4p-links.txt` (the output of `topology4p.py
//! --links`), the lines from `tests/data/rules4p-lines.txt` (RULES-4P.md
//! §2.4), camps and HQs from the names (§1.3). Slides walk one line one
//! way to the first piece; engineers search the railway breadth first;
//! attacks follow RULES.md §3-§4 and RULES-4P.md §4 item 4 (partners never
//! attacked, camps protect). The engine only supplies positions, read
//! through `Position::cell`, and its own action list.

use std::collections::{BTreeSet, HashMap, VecDeque};

use luzhanqi::siguo::perft::child;
use luzhanqi::siguo::{Action, Piece, Point, Position, Seat, SiguoRules};
use luzhanqi::{Colour, Deployment, Kind, Rules};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

// ---------------------------------------------------------------------------
// Board, from the data files and the names
// ---------------------------------------------------------------------------

struct Topo {
    names: Vec<String>,
    links: Vec<Vec<usize>>,
    rail: Vec<Vec<usize>>,
    lines: Vec<Vec<usize>>,
    camp: Vec<bool>,
    hq: Vec<bool>,
    /// The engine's point for each reference index (by name).
    engine: Vec<Point>,
}

impl Topo {
    fn new() -> Topo {
        let mut names = Vec::new();
        for seat in ["S", "E", "N", "W"] {
            for rank in 1..=6 {
                for file in ["a", "b", "c", "d", "e"] {
                    names.push(format!("{seat}{file}{rank}"));
                }
            }
        }
        for file in ["a", "b", "c"] {
            for rank in 1..=3 {
                names.push(format!("C{file}{rank}"));
            }
        }
        let index: HashMap<String, usize> = names.iter().enumerate().map(|(i, n)| (n.clone(), i)).collect();
        let n = names.len();
        let mut links = vec![Vec::new(); n];
        let mut rail = vec![Vec::new(); n];
        for l in include_str!("data/topology4p-links.txt").lines() {
            let (pair, kind) = l.split_once(' ').expect("P-Q kind");
            let (a, b) = pair.split_once('-').expect("P-Q");
            let (a, b) = (index[a], index[b]);
            links[a].push(b);
            links[b].push(a);
            if kind == "rail" {
                rail[a].push(b);
                rail[b].push(a);
            }
        }
        let lines = include_str!("data/rules4p-lines.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.split_whitespace().map(|p| index[p]).collect())
            .collect();
        let arm = |name: &str, which: &[&str]| !name.starts_with('C') && which.contains(&&name[1..]);
        let camp = names.iter().map(|s| arm(s, &["b3", "d3", "c4", "b5", "d5"])).collect();
        let hq = names.iter().map(|s| arm(s, &["b1", "d1"])).collect();
        let engine = names.iter().map(|s| s.parse::<Point>().expect("engine reads the name")).collect();
        Topo { names, links, rail, lines, camp, hq, engine }
    }
}

// ---------------------------------------------------------------------------
// Reference generator
// ---------------------------------------------------------------------------

const MOVABLE: [Kind; 10] = [
    Kind::Engineer,
    Kind::Lieutenant,
    Kind::Captain,
    Kind::Major,
    Kind::Colonel,
    Kind::Brigadier,
    Kind::MajorGeneral,
    Kind::General,
    Kind::Marshal,
    Kind::Bomb,
];

/// Whether a piece of kind `a` may attack an enemy piece of kind `d`
/// (`None`: unknown); camps are checked by the caller. The rules used here
/// never ask for the flag's mines to be cleared.
fn kind_may_attack(rules: &Rules, a: Kind, d: Option<Kind>) -> bool {
    match d {
        Some(Kind::Flag) => {
            (!rules.flag_needs_engineer || a == Kind::Engineer) && (a != Kind::Bomb || rules.bomb_attacks_mine_and_flag)
        }
        Some(Kind::Mine) => a != Kind::Bomb || rules.bomb_attacks_mine_and_flag,
        _ => true,
    }
}

fn team(s: Seat) -> usize {
    match s {
        Seat::South | Seat::North => 0,
        Seat::East | Seat::West => 1,
    }
}

/// Every legal action of the side to move, as `from-to` / `fromxto` names.
fn reference_actions(t: &Topo, pos: &Position) -> BTreeSet<String> {
    let sq: Vec<Option<Piece>> = t.engine.iter().map(|&p| pos.cell(p)).collect();
    let rules = *pos.rules();
    let settings = *pos.settings();
    let side = pos.side_to_move();
    // RULES-4P.md §5 rows 4 and 10: points no piece of `side` may stop on.
    let side_letter = side.to_string();
    let barred = |to: usize| {
        let name = &t.names[to];
        (settings.centre_transit_only && name == "Cb2")
            || (settings.own_camps_only && t.camp[to] && !name.starts_with(side_letter.as_str()))
    };
    let mut out = BTreeSet::new();
    let over =
        (pos.is_out(Seat::South) && pos.is_out(Seat::North)) || (pos.is_out(Seat::East) && pos.is_out(Seat::West));
    if over || pos.is_out(side) {
        return out;
    }
    for from in 0..t.names.len() {
        let Some(piece) = sq[from] else { continue };
        if piece.seat != side || t.hq[from] || matches!(piece.kind, Some(Kind::Mine | Kind::Flag)) {
            continue;
        }
        let consider = |to: usize, out: &mut BTreeSet<String>| match sq[to] {
            _ if barred(to) => {}
            None => {
                out.insert(format!("{}-{}", t.names[from], t.names[to]));
            }
            Some(d) if team(d.seat) != team(side) && !t.camp[to] => {
                let ok = match piece.kind {
                    Some(a) => kind_may_attack(&rules, a, d.kind),
                    None => MOVABLE.iter().any(|&a| kind_may_attack(&rules, a, d.kind)),
                };
                if ok {
                    out.insert(format!("{}x{}", t.names[from], t.names[to]));
                }
            }
            Some(_) => {}
        };
        for &to in &t.links[from] {
            consider(to, &mut out);
        }
        if matches!(piece.kind, Some(Kind::Engineer) | None) {
            let mut seen = vec![false; t.names.len()];
            seen[from] = true;
            let mut queue = VecDeque::from([from]);
            while let Some(u) = queue.pop_front() {
                for &v in &t.rail[u] {
                    if !seen[v] {
                        seen[v] = true;
                        consider(v, &mut out);
                        if sq[v].is_none() {
                            queue.push_back(v);
                        }
                    }
                }
            }
        } else {
            for line in &t.lines {
                let Some(at) = line.iter().position(|&q| q == from) else { continue };
                for dir in [-1i64, 1] {
                    let mut k = at as i64 + dir;
                    while k >= 0 && (k as usize) < line.len() {
                        let to = line[k as usize];
                        consider(to, &mut out);
                        if sq[to].is_some() {
                            break;
                        }
                        k += dir;
                    }
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    compared: usize,
    actions: usize,
    failures: Vec<String>,
}

impl Tally {
    fn check(&mut self, t: &Topo, pos: &Position) {
        self.compared += 1;
        let want = reference_actions(t, pos);
        let mut got: Vec<Action> = Vec::new();
        pos.legal_actions(&mut got);
        let names: Vec<String> = got.iter().map(Action::to_string).collect();
        let set: BTreeSet<String> = names.iter().cloned().collect();
        self.actions += set.len();
        let mut errors = Vec::new();
        if set.len() != names.len() {
            errors.push(format!("{} duplicate(s)", names.len() - set.len()));
        }
        if pos.count_actions() != names.len() as u64 {
            errors.push(format!("count_actions {} for {} actions", pos.count_actions(), names.len()));
        }
        if pos.has_legal_action(pos.side_to_move()) == names.is_empty() {
            errors.push("has_legal_action disagrees".to_owned());
        }
        let missing: Vec<&String> = want.difference(&set).collect();
        let extra: Vec<&String> = set.difference(&want).collect();
        if !missing.is_empty() {
            errors.push(format!("engine lacks {missing:?}"));
        }
        if !extra.is_empty() {
            errors.push(format!("engine adds {extra:?}"));
        }
        if !errors.is_empty() && self.failures.len() < 5 {
            self.failures.push(format!("{}\n  position: {pos}", errors.join("; ")));
        }
    }

    fn assert_clean(&self, label: &str, at_least: usize) {
        assert!(self.failures.is_empty(), "{label}: disagreements:\n{}", self.failures.join("\n"));
        assert!(self.compared >= at_least, "{label}: only {} positions", self.compared);
        println!("{label}: {} positions, {} actions, all agree", self.compared, self.actions);
    }
}

type Rng = Xoshiro256PlusPlus;

const KINDS: [Kind; 12] = Kind::ALL;

/// A random scatter: any kind of any seat still in on any point, seats out
/// at times, any side to move; with `hide`, kinds of other seats unknown
/// and now and then one of the mover's own.
fn scattered(rng: &mut Rng, rules: SiguoRules, hide: bool) -> Position {
    let side = Seat::ALL[rng.random_range(0..4)];
    let mut pos = Position::empty(rules, side);
    let outs = rng.random_range(0..10u32);
    if outs >= 7 {
        pos.eliminate(Seat::ALL[rng.random_range(0..4)]);
    }
    if outs == 9 {
        pos.eliminate(Seat::ALL[rng.random_range(0..4)]);
    }
    if pos.is_out(side) && rng.random_range(0..4) != 0 {
        pos.pass_turn();
    }
    let fill = rng.random_range(5..90u32);
    for p in Point::all() {
        if rng.random_range(0..100) >= fill {
            continue;
        }
        let seat = Seat::ALL[rng.random_range(0..4)];
        if pos.is_out(seat) {
            continue;
        }
        let mut kind = Some(KINDS[rng.random_range(0..12)]);
        if hide && (seat != side || rng.random_range(0..10) == 0) {
            kind = None;
        }
        pos.put(p, Some(Piece::new(seat, kind)));
    }
    pos
}

/// Positions of random games from random deployments, each seen whole or,
/// with `hide`, by the side to move.
fn played(rng: &mut Rng, rules: SiguoRules, hide: bool, target: usize, tally: &mut Tally, t: &Topo) {
    let mut seen = 0;
    while seen < target {
        let deployments: [Deployment; 4] =
            std::array::from_fn(|i| Deployment::random(if i % 2 == 0 { Colour::Red } else { Colour::Blue }, &mut *rng));
        let mut pos = Position::start(rules, &deployments);
        let mut list = Vec::new();
        for _ in 0..400 {
            if pos.is_over() || seen >= target {
                break;
            }
            if hide {
                tally.check(t, &pos.view(pos.side_to_move()));
            } else {
                tally.check(t, &pos);
            }
            seen += 1;
            list.clear();
            pos.legal_actions(&mut list);
            if list.is_empty() {
                // The game flow takes a stuck seat out, so this is only a guard. Pass on.
                if Seat::ALL.iter().all(|&s| !pos.has_legal_action(s)) {
                    break;
                }
                pos.pass_turn();
                continue;
            }
            let a = list[rng.random_range(0..list.len())];
            pos = child(&pos, a);
        }
    }
}

fn run(label: &str, rules: impl Into<SiguoRules>, hide: bool, seed: u64, per_kind: usize) {
    let rules = rules.into();
    let t = Topo::new();
    let mut rng = Rng::seed_from_u64(seed);
    let mut tally = Tally::default();
    for _ in 0..per_kind {
        let pos = scattered(&mut rng, rules, hide);
        tally.check(&t, &pos);
    }
    played(&mut rng, rules, hide, per_kind, &mut tally, &t);
    tally.assert_clean(label, 2 * per_kind);
}

#[test]
fn reference_agrees_with_engine_in_open_positions() {
    run("open", Rules::OPEN, false, 1, 5_000);
}

#[test]
fn reference_agrees_with_engine_in_classic_views() {
    run("classic", Rules::CLASSIC, true, 2, 5_000);
}

#[test]
fn reference_agrees_with_engine_under_house_rules() {
    let toggles = [
        ("engineer-takes-flag", Rules { flag_needs_engineer: true, ..Rules::OPEN }, false),
        ("no-bomb-on-mine-or-flag", Rules { bomb_attacks_mine_and_flag: false, ..Rules::OPEN }, false),
        (
            "classic, both",
            Rules { flag_needs_engineer: true, bomb_attacks_mine_and_flag: false, ..Rules::CLASSIC },
            true,
        ),
    ];
    for (k, (label, rules, hide)) in toggles.into_iter().enumerate() {
        run(label, rules, hide, 10 + k as u64, 1_000);
    }
    // The four-player toggles of RULES-4P.md §5 that change moves.
    let centre = SiguoRules { centre_transit_only: true, ..SiguoRules::OPEN };
    let camps = SiguoRules { own_camps_only: true, ..SiguoRules::OPEN };
    let both = SiguoRules { centre_transit_only: true, own_camps_only: true, ..SiguoRules::CLASSIC };
    for (k, (label, rules, hide)) in
        [("centre-transit-only", centre, false), ("own-camps-only", camps, false), ("classic, both 4p", both, true)]
            .into_iter()
            .enumerate()
    {
        run(label, rules, hide, 20 + k as u64, 1_000);
    }
}

#[test]
fn the_reference_board_is_the_spec() {
    let t = Topo::new();
    assert_eq!(t.names.len(), 129);
    assert_eq!(t.links.iter().map(Vec::len).sum::<usize>(), 2 * 288);
    assert_eq!(t.rail.iter().map(Vec::len).sum::<usize>(), 2 * 92);
    assert_eq!(t.lines.len(), 18);
    assert_eq!(t.camp.iter().filter(|&&c| c).count(), 20);
    assert_eq!(t.hq.iter().filter(|&&c| c).count(), 8);
    for (i, ns) in t.rail.iter().enumerate() {
        assert!(ns.is_empty() || (!t.camp[i] && !t.hq[i]), "{}", t.names[i]);
    }
    // The reference alone reproduces a worked example of RULES-4P.md §2.5.
    let pos = Position::parse("S - Cb2:s5", Rules::OPEN).expect("reads");
    let got: BTreeSet<String> = reference_actions(&t, &pos);
    let want: BTreeSet<String> = "Cb1 Sc6 Cb3 Nc6 Ca2 Wc6 Cc2 Ec6".split(' ').map(|p| format!("Cb2-{p}")).collect();
    assert_eq!(got, want);
}
