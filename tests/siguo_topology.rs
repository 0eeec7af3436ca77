//! The four-player board (RULES-4P.md §1-§2): points and names, the 288
//! links against `tests/data/topology4p-links.txt` (the output of
//! `python3 topology4p.py --links`), symmetry, the 18 railway lines of
//! §2.4 (`tests/data/rules4p-lines.txt`), the rays, the worked slide
//! examples of §2.5 and engineer routes through curves and the centre.

use std::collections::{BTreeMap, BTreeSet};

use luzhanqi::Kind;
use luzhanqi::board::PointKind;
use luzhanqi::siguo::topology::{
    ADJACENT, LINES, LINKS, RAIL_ADJACENT, RAILWAY, RAYS, rail_link_count, road_link_count,
};
use luzhanqi::siguo::{Action, Piece, Point, PointError, Position, Seat};

fn pt(s: &str) -> Point {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Expands `Ne6..Ne2` into `Ne6 Ne5 Ne4 Ne3 Ne2` (same region and file).
fn expand(list: &str) -> BTreeSet<Point> {
    let mut out = BTreeSet::new();
    for w in list.split_whitespace() {
        if let Some((a, b)) = w.split_once("..") {
            let (a, b) = (pt(a), pt(b));
            let (lo, hi) = if a.rank() <= b.rank() { (a, b) } else { (b, a) };
            let (lo_file, hi_file) = (lo.file().min(hi.file()), lo.file().max(hi.file()));
            for p in Point::all() {
                if p.region() == a.region()
                    && (lo.rank()..=hi.rank()).contains(&p.rank())
                    && (lo_file..=hi_file).contains(&p.file())
                {
                    out.insert(p);
                }
            }
        } else {
            out.insert(pt(w));
        }
    }
    out
}

fn lines_of_the_spec() -> Vec<Vec<Point>> {
    include_str!("data/rules4p-lines.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().map(pt).collect())
        .collect()
}

#[test]
fn points_have_names_kinds_and_indices() {
    let all: Vec<Point> = Point::all().collect();
    assert_eq!(all.len(), 129);
    let mut kinds = BTreeMap::new();
    for &p in &all {
        let name = p.to_string();
        assert_eq!(pt(&name), p, "{name}");
        assert_eq!(pt(&name.to_lowercase()), p);
        assert_eq!(pt(&name.to_uppercase()), p);
        *kinds.entry(format!("{:?}", p.kind())).or_insert(0) += 1;
    }
    assert_eq!(kinds["Post"], 92 + 9);
    assert_eq!(kinds["Camp"], 20);
    assert_eq!(kinds["Hq"], 8);
    assert_eq!(RAILWAY.count(), 73);
    // RULES-4P.md §1.5: index = 30 * seat + 5 * (rank - 1) + file; centre 120 + 3 * (rank - 1) + file.
    assert_eq!(pt("Sa1").index(), 0);
    assert_eq!(pt("Ee1").index(), 34);
    assert_eq!(pt("We6").index(), 119);
    assert_eq!(pt("Ca1").index(), 120);
    assert_eq!(pt("Cb2").index(), 124);
    assert_eq!(pt("Cc3").index(), 128);
    // The appendix's kinds.
    for s in "Sb1 Sd1 Eb1 Ed1 Nb1 Nd1 Wb1 Wd1".split(' ') {
        assert_eq!(pt(s).kind(), PointKind::Hq, "{s}");
    }
    for seat in "SENW".chars() {
        for c in ["b3", "d3", "c4", "b5", "d5"] {
            assert_eq!(pt(&format!("{seat}{c}")).kind(), PointKind::Camp);
        }
        for c in ["a1", "c1", "e1", "c3", "b4", "d4", "c5"] {
            let p = pt(&format!("{seat}{c}"));
            assert_eq!((p.kind(), p.on_railway()), (PointKind::Post, false), "{p}");
        }
    }
    for p in all.iter().filter(|p| p.to_string().starts_with('C')) {
        assert!(p.on_railway() && p.kind() == PointKind::Post, "{p}");
    }
}

#[test]
fn bad_point_names_are_errors() {
    for (s, e) in [
        ("", PointError::Length(String::new())),
        ("Sa", PointError::Length("Sa".into())),
        ("Sa10", PointError::Length("Sa10".into())),
        ("Xa1", PointError::Region('X')),
        ("Sf1", PointError::File('f')),
        ("Sa0", PointError::Rank('0')),
        ("Sa7", PointError::Rank('7')),
        ("Cd1", PointError::File('d')),
        ("Ca4", PointError::Rank('4')),
        ("a1b", PointError::Region('a')),
        ("Sé1", PointError::File('é')),
    ] {
        assert_eq!(s.parse::<Point>(), Err(e.clone()), "{s}");
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn links_count_288_of_which_196_road_and_92_railway() {
    assert_eq!(LINKS.len(), 288);
    assert_eq!(road_link_count(), 196);
    assert_eq!(rail_link_count(), 92);
    let distinct: BTreeSet<(Point, Point)> = LINKS.iter().map(|l| (l.a, l.b)).collect();
    assert_eq!(distinct.len(), 288, "no link twice");
    // Railway: 64 in the arms, 12 in the centre grid, 12 arm to centre, 4 curves.
    let centre = |p: Point| p.to_string().starts_with('C');
    let arm_seat = |p: Point| p.to_string().chars().next();
    let rail = LINKS.iter().filter(|l| l.rail);
    let mut kinds = BTreeMap::new();
    for l in rail {
        let k = match (centre(l.a), centre(l.b)) {
            (true, true) => "centre",
            (false, false) if arm_seat(l.a) == arm_seat(l.b) => "arm",
            (false, false) => "curve",
            _ => "arm-centre",
        };
        *kinds.entry(k).or_insert(0) += 1;
    }
    assert_eq!(kinds, BTreeMap::from([("arm", 64), ("centre", 12), ("arm-centre", 12), ("curve", 4)]));
    // Degrees (topology4p.py's histogram).
    let mut degrees = BTreeMap::new();
    for p in Point::all() {
        *degrees.entry(ADJACENT[p.index()].count()).or_insert(0) += 1;
    }
    assert_eq!(degrees, BTreeMap::from([(2, 8), (3, 36), (4, 41), (5, 16), (6, 8), (8, 20)]));
    // The tables agree with the list.
    for p in Point::all() {
        for q in ADJACENT[p.index()] {
            assert!(ADJACENT[q.index()].contains(p));
        }
        assert_eq!(RAIL_ADJACENT[p.index()] - ADJACENT[p.index()], Default::default());
    }
}

#[test]
fn the_graph_is_the_one_topology4p_prints() {
    let data = include_str!("data/topology4p-links.txt");
    let theirs: BTreeSet<(Point, Point, bool)> = data
        .lines()
        .map(|l| {
            let (pair, kind) = l.split_once(' ').expect("'P-Q kind'");
            let (a, b) = pair.split_once('-').expect("P-Q");
            let (a, b) = (pt(a), pt(b));
            let rail = match kind {
                "rail" => true,
                "road" => false,
                other => panic!("kind {other}"),
            };
            (a.min(b), a.max(b), rail)
        })
        .collect();
    assert_eq!(theirs.len(), 288);
    let ours: BTreeSet<(Point, Point, bool)> = LINKS.iter().map(|l| (l.a, l.b, l.rail)).collect();
    let missing: Vec<_> = theirs.difference(&ours).collect();
    let extra: Vec<_> = ours.difference(&theirs).collect();
    assert!(missing.is_empty() && extra.is_empty(), "missing {missing:?}, extra {extra:?}");
    // And the file is the script's output format, sorted.
    let mut sorted: Vec<&str> = data.lines().collect();
    sorted.sort();
    assert_eq!(sorted, data.lines().collect::<Vec<_>>());
}

#[test]
fn the_quarter_turn_and_the_mirror_map_the_board_onto_itself() {
    let links: BTreeSet<(Point, Point, bool)> = LINKS.iter().map(|l| (l.a, l.b, l.rail)).collect();
    let lines: BTreeSet<Vec<Point>> = LINES.iter().map(|l| l.points().to_vec()).collect();
    let norm = |mut v: Vec<Point>| {
        let mut r = v.clone();
        r.reverse();
        if r < v {
            v = r;
        }
        v
    };
    let lines_norm: BTreeSet<Vec<Point>> = lines.iter().cloned().map(norm).collect();
    type Map = fn(Point) -> Point;
    for (name, f) in [("quarter turn", Point::quarter_turn as Map), ("mirror", Point::mirror as Map)] {
        let image: BTreeSet<Point> = Point::all().map(f).collect();
        assert_eq!(image.len(), 129, "{name} is a bijection");
        for p in Point::all() {
            assert_eq!(f(p).kind(), p.kind(), "{name} {p}");
            assert_eq!(f(p).on_railway(), p.on_railway(), "{name} {p}");
        }
        let mapped: BTreeSet<(Point, Point, bool)> =
            links.iter().map(|&(a, b, r)| (f(a).min(f(b)), f(a).max(f(b)), r)).collect();
        assert_eq!(mapped, links, "{name} maps links onto links");
        let mapped_lines: BTreeSet<Vec<Point>> =
            lines.iter().map(|l| norm(l.iter().map(|&p| f(p)).collect())).collect();
        assert_eq!(mapped_lines, lines_norm, "{name} maps lines onto lines");
        for p in Point::all() {
            let rays: BTreeSet<Vec<Point>> =
                RAYS[p.index()].rays().iter().map(|r| r.points().iter().map(|&q| f(q)).collect()).collect();
            let theirs: BTreeSet<Vec<Point>> = RAYS[f(p).index()].rays().iter().map(|r| r.points().to_vec()).collect();
            assert_eq!(rays, theirs, "{name} maps the rays of {p}");
        }
    }
    for p in Point::all() {
        let t = p.quarter_turn();
        assert_eq!(t.quarter_turn().quarter_turn().quarter_turn(), p);
        assert_eq!(p.mirror().mirror(), p);
    }
    assert_eq!(pt("Sa6").quarter_turn(), pt("Ea6"));
    assert_eq!(pt("Ca1").quarter_turn(), pt("Cc1"));
    assert_eq!(pt("Cb1").quarter_turn(), pt("Cc2"));
    assert_eq!(pt("Cb2").quarter_turn(), pt("Cb2"));
    assert_eq!(pt("Sa6").mirror(), pt("Se6"));
    assert_eq!(pt("Eb3").mirror(), pt("Wd3"));
    assert_eq!(pt("Ca1").mirror(), pt("Cc1"));
}

#[test]
fn the_railway_lines_are_those_of_rules_4p() {
    let spec = lines_of_the_spec();
    assert_eq!(spec.len(), 18);
    let ours: Vec<Vec<Point>> = LINES.iter().map(|l| l.points().to_vec()).collect();
    assert_eq!(ours, spec);
    let rail: BTreeSet<(Point, Point)> = LINKS.iter().filter(|l| l.rail).map(|l| (l.a, l.b)).collect();
    let mut covered = BTreeSet::new();
    for line in &spec {
        let distinct: BTreeSet<_> = line.iter().collect();
        assert_eq!(distinct.len(), line.len(), "no point twice");
        for w in line.windows(2) {
            let link = (w[0].min(w[1]), w[0].max(w[1]));
            assert!(rail.contains(&link), "{:?} is a railway link", link);
            covered.insert(link);
        }
    }
    assert_eq!(covered, rail, "every railway link lies on a line");
}

#[test]
fn rays_fork_at_the_front_corners_and_follow_the_lines() {
    let spec = lines_of_the_spec();
    let mut longest = 0;
    for p in Point::all() {
        let rays = RAYS[p.index()].rays();
        if !p.on_railway() {
            assert!(rays.is_empty(), "{p}");
            continue;
        }
        assert!((2..=4).contains(&rays.len()), "{p}: {} rays", rays.len());
        for r in rays {
            longest = longest.max(r.points().len());
            // Each ray is the rest of a line beyond p, one way.
            let on_line = spec.iter().any(|line| {
                let Some(k) = line.iter().position(|&q| q == p) else { return false };
                let up = &line[k + 1..];
                let down: Vec<Point> = line[..k].iter().rev().copied().collect();
                up == r.points() || down == r.points()
            });
            assert!(on_line, "{p}: {:?}", r.points());
        }
        // No ray is the beginning of another.
        for (i, a) in rays.iter().enumerate() {
            for (j, b) in rays.iter().enumerate() {
                assert!(i == j || !b.points().starts_with(a.points()), "{p}");
            }
        }
    }
    assert_eq!(longest, 12);
    let sa3: Vec<String> = RAYS[pt("Sa3").index()]
        .rays()
        .iter()
        .map(|r| r.points().iter().map(|p| p.to_string()).collect::<Vec<_>>().join(" "))
        .collect();
    assert!(sa3.contains(&"Sa4 Sa5 Sa6 Ca1 Ca2 Ca3 Ne6 Ne5 Ne4 Ne3 Ne2".to_string()), "{sa3:?}");
    assert!(sa3.contains(&"Sa4 Sa5 Sa6 We6 We5 We4 We3 We2".to_string()), "{sa3:?}");
}

/// Destinations of the piece on `from` in `pos`, as a set.
fn destinations(pos: &Position, from: Point) -> (BTreeSet<Point>, BTreeSet<Point>) {
    let mut v: Vec<Action> = Vec::new();
    pos.legal_actions(&mut v);
    let moves = v.iter().filter(|a| a.from == from && !a.attack).map(|a| a.to).collect();
    let attacks = v.iter().filter(|a| a.from == from && a.attack).map(|a| a.to).collect();
    (moves, attacks)
}

fn board(text: &str) -> Position {
    Position::parse(text, luzhanqi::Rules::OPEN).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn the_worked_slide_examples_of_rules_4p() {
    // RULES-4P.md §2.5: a non-engineer alone on the board (road steps included).
    for (from, n, list) in [
        ("Sa3", 18, "Sa2 Sb3 Sa4 Sa5 Sa6 Ca1 Ca2 Ca3 Ne6..Ne2 We6..We2"),
        ("Sb6", 5, "Sa6 Sc6 Sd6 Se6 Sb5"),
        ("Sa6", 22, "Sa5..Sa2 Sb6..Se6 Sb5 Ca1 Ca2 Ca3 Ne6..Ne2 We6..We2"),
        ("Ca1", 24, "Sa6..Sa2 Ca2 Ca3 Ne6..Ne2 We6..We2 Cb1 Cc1 Ea6..Ea2"),
        ("We4", 20, "We3 We2 Wd3 Wd4 Wd5 We5 We6 Ca1 Cb1 Cc1 Ea6..Ea2 Sa6..Sa2"),
        ("Sc6", 11, "Sb6 Sa6 Sd6 Se6 Sb5 Sc5 Sd5 Cb1 Cb2 Cb3 Nc6"),
        ("Cb2", 8, "Cb1 Sc6 Cb3 Nc6 Ca2 Wc6 Cc2 Ec6"),
    ] {
        let want = expand(list);
        assert_eq!(want.len(), n, "{from}: the table's count");
        for seat in ["s", "e", "n", "w"] {
            let pos = board(&format!("{} - {from}:{seat}5", seat.to_uppercase()));
            let (moves, attacks) = destinations(&pos, pt(from));
            assert_eq!(moves, want, "{from} ({seat})");
            assert!(attacks.is_empty());
        }
    }
}

#[test]
fn curves_bypass_the_centre_and_slides_never_turn() {
    // A piece on Ca1 does not block the curve Sa6-We6.
    let (moves, _) = destinations(&board("S - Sa4:s5 Ca1:n5"), pt("Sa4"));
    assert!(moves.contains(&pt("We2")) && !moves.contains(&pt("Ca2")));
    // A front-rank slide enters neither the curve nor the centre.
    let (moves, attacks) = destinations(&board("S - Sb6:s5 We6:e5 Ca1:e5"), pt("Sb6"));
    assert!(moves.contains(&pt("Sa6")) && attacks.is_empty(), "{attacks:?}");
    // From the centre the slide does not take the curve, and a corner is no turn.
    let (moves, _) = destinations(&board("S - Ca1:s5"), pt("Ca1"));
    assert!(!moves.contains(&pt("Sb6")) && !moves.contains(&pt("Cb2")));
    // Attacks end a slide on the first enemy; a partner blocks and is never attacked.
    let (moves, attacks) = destinations(&board("S - Sa2:s5 Sa5:n5 We4:e5"), pt("Sa2"));
    assert_eq!(moves, expand("Sa1 Sb2 Sc2 Sd2 Se2 Sa3 Sa4 Sb3"));
    assert!(attacks.is_empty());
    let (moves, attacks) = destinations(&board("S - Sa2:s5 We4:e5 Ca3:w2"), pt("Sa2"));
    assert_eq!(attacks, expand("We4 Ca3"));
    assert!(moves.contains(&pt("We5")) && !moves.contains(&pt("We3")) && !moves.contains(&pt("Ne6")));
    // A piece in a camp is never attacked; mines, flags and pieces on an HQ never move.
    let (_, attacks) = destinations(&board("S - Sa4:s5 Sb5:e5 Sb4:e5"), pt("Sa4"));
    assert_eq!(attacks, expand("Sb4"));
    let pos = board("S - Sa2:sM Sc1:sF Sb1:s9");
    assert_eq!(pos.count_actions(), 0);
}

#[test]
fn engineers_turn_anywhere_on_the_railway() {
    // From any railway point of the empty board an engineer reaches the 72 others.
    for p in Point::all().filter(|p| p.on_railway()) {
        let pos = board(&format!("S - {p}:s1"));
        let (moves, _) = destinations(&pos, p);
        let rail: BTreeSet<Point> = RAILWAY.into_iter().filter(|&q| q != p).collect();
        assert!(rail.is_subset(&moves), "{p}");
        assert_eq!(moves.len(), 72 + (ADJACENT[p.index()] - RAILWAY).count() as usize, "{p}");
    }
    // Sb6 turns at Sa6 into the curve (a slide could not).
    let (moves, _) = destinations(&board("S - Sb6:s1 Sc6:s5 Sa5:s5 Ca1:s5"), pt("Sb6"));
    assert!(moves.contains(&pt("We6")) && moves.contains(&pt("Wa2")) && moves.contains(&pt("Ne2")));
    // Through the centre, turning at Cb2, onto the first enemy piece met.
    let pos = board("S - Sc6:s1 Sb6:s5 Sd6:s5 Ec6:e5 Cb3:n5 Ca2:n5");
    let (moves, attacks) = destinations(&pos, pt("Sc6"));
    assert!(attacks.contains(&pt("Ec6")), "{attacks:?}");
    assert!(moves.contains(&pt("Cc2")) && moves.contains(&pt("Ee6")) && moves.contains(&pt("Na2")));
    assert!(moves.contains(&pt("Nc6")) && moves.contains(&pt("Ea2")));
    // Boxed in: only the road steps are left.
    let (moves, attacks) = destinations(&board("S - Sa2:s1 Sb2:s5 Sa3:n5"), pt("Sa2"));
    assert_eq!(moves, expand("Sa1 Sb3"));
    assert!(attacks.is_empty());
    // A piece of unknown kind moves as an engineer would.
    let (moves, _) = destinations(&board("S - Sb6:s?"), pt("Sb6"));
    assert_eq!(moves.len(), 72 + 1);
}

#[test]
fn positions_read_and_print() {
    let text = "E W Sb1:sF Sc2:s9 Sb3:n? Ca1:e1";
    let pos = Position::parse(text, luzhanqi::Rules::CLASSIC).expect("reads");
    assert_eq!(pos.to_string(), text);
    assert_eq!(pos.side_to_move(), Seat::East);
    assert!(pos.is_out(Seat::West) && !pos.is_out(Seat::North));
    assert_eq!(pos.cell(pt("Ca1")), Some(Piece::new(Seat::East, Some(Kind::Engineer))));
    for bad in [
        "",
        "X -",
        "S",
        "S Q",
        "S - Sa1",
        "S - Sa1:s",
        "S - Sa1:x1",
        "S - Sa1:sZ",
        "S - Sz1:s1",
        "S - Sa1:s1 Sa1:e1",
        "S E Sa1:e1",
        "S - Sa1:s12",
    ] {
        let e = Position::parse(bad, luzhanqi::Rules::CLASSIC);
        assert!(e.is_err(), "{bad}");
        assert!(!e.unwrap_err().to_string().is_empty());
    }
}

#[test]
fn a_lone_piece_of_unknown_kind_has_siguozeros_static_action_space() {
    // siguozero's figures (RULES-4P.md §6): steps plus every railway point from a railway
    // point, nothing from an HQ: 5624 ordered pairs, 121 origins, at most 76 targets.
    let mut pairs = 0;
    let mut origins = 0;
    let mut most = 0;
    for p in Point::all() {
        let n = board(&format!("S - {p}:s?")).count_actions();
        pairs += n;
        origins += u64::from(n > 0);
        most = most.max(n);
    }
    assert_eq!((pairs, origins, most), (5624, 121, 76));
}

#[test]
fn every_slide_from_to_has_one_path() {
    // Rays that share a point share the whole way to it (they fork only after it).
    for p in Point::all() {
        let mut path_to: BTreeMap<Point, Vec<Point>> = BTreeMap::new();
        for r in RAYS[p.index()].rays() {
            for (k, &q) in r.points().iter().enumerate() {
                let way = r.points()[..k].to_vec();
                let old = path_to.entry(q).or_insert_with(|| way.clone());
                assert_eq!(*old, way, "{p} to {q}");
            }
        }
    }
}

#[test]
fn reading_garbage_never_panics() {
    let samples = ["Sa1", "Ca1", "S - Sa1:s1", "E NS Cb2:w? We6:eF", "W - q70 Sa1:s1"];
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let alphabet: Vec<char> = "SENWCsenwcabcdefxyz0123456789?:-+ =\u{e9}\u{4e2d}\t".chars().collect();
    for _ in 0..20_000 {
        let base = samples[(next() % samples.len() as u64) as usize];
        let mut s: Vec<char> = base.chars().collect();
        for _ in 0..(next() % 4) {
            let c = alphabet[(next() % alphabet.len() as u64) as usize];
            let at = (next() % (s.len() as u64 + 1)) as usize;
            match next() % 3 {
                0 => s.insert(at, c),
                1 if at < s.len() => s[at] = c,
                _ if at < s.len() => {
                    s.remove(at);
                }
                _ => {}
            }
        }
        let s: String = s.into_iter().collect();
        let _ = s.parse::<Point>();
        if let Ok(pos) = Position::parse(&s, luzhanqi::Rules::CLASSIC) {
            assert_eq!(Position::parse(&pos.to_string(), luzhanqi::Rules::CLASSIC), Ok(pos.clone()), "{s}");
            let _ = luzhanqi::siguo::perft::perft(&pos, 2);
        }
    }
}
