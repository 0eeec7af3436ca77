//! The four-player board (RULES-4P.md §1-§2): 129 points, their kinds and
//! names, the 288 links (196 road, 92 railway, the four curves and the
//! centre included), the 18 railway lines and, per start point, the rays a
//! non-engineer slides along, all as tables built at compile time.
//!
//! Points are indexed as RULES-4P.md §1.5 suggests: an arm point is
//! `30 * seat + 5 * (rank - 1) + file` (seats S, E, N, W = 0..4, file
//! a..e = 0..5, rank 1..=6 from the owner's back row), a centre point
//! `120 + 3 * (rank - 1) + file` (file a..c west to east, rank 1..=3 south
//! to north). So `Sa1` is 0, `We6` is 119, `Ca1` is 120 and `Cc3` is 128.

use std::fmt;
use std::str::FromStr;

use super::bitset::PointSet;
pub use crate::board::PointKind;

/// Number of points of the four-player board.
pub const NUM_POINTS: usize = 129;
/// Points in one arm.
pub const ARM_POINTS: usize = 30;
/// Index of the first centre point (`Ca1`).
pub const CENTRE_START: usize = 120;

/// One of the four seats, counter-clockwise seen from above (RULES-4P.md §1.1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Seat {
    /// South (`S`), moves first.
    South = 0,
    /// East (`E`).
    East = 1,
    /// North (`N`), South's partner.
    North = 2,
    /// West (`W`), East's partner.
    West = 3,
}

impl Seat {
    /// The four seats in turn order.
    pub const ALL: [Seat; 4] = [Seat::South, Seat::East, Seat::North, Seat::West];

    /// 0..4 in turn order.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The seat with index `i % 4`.
    #[inline]
    pub const fn from_index(i: usize) -> Seat {
        Seat::ALL[i % 4]
    }

    /// The seat on this one's right, the next in turn order.
    #[inline]
    pub const fn right(self) -> Seat {
        Seat::from_index(self.index() + 1)
    }

    /// The seat on this one's left, the previous in turn order.
    #[inline]
    pub const fn left(self) -> Seat {
        Seat::from_index(self.index() + 3)
    }

    /// The partner, sitting opposite.
    #[inline]
    pub const fn partner(self) -> Seat {
        Seat::from_index(self.index() + 2)
    }

    /// The team: 0 for S+N, 1 for E+W.
    #[inline]
    pub const fn team(self) -> usize {
        self.index() % 2
    }

    /// The two opponents (the other team), in turn order after this seat.
    #[inline]
    pub const fn opponents(self) -> [Seat; 2] {
        [self.right(), self.left()]
    }

    /// The upper-case letter of point names: `S`, `E`, `N`, `W`.
    pub const fn to_char(self) -> char {
        match self {
            Seat::South => 'S',
            Seat::East => 'E',
            Seat::North => 'N',
            Seat::West => 'W',
        }
    }

    /// Reads a seat letter, either case.
    pub const fn from_char(c: char) -> Option<Seat> {
        match c {
            'S' | 's' => Some(Seat::South),
            'E' | 'e' => Some(Seat::East),
            'N' | 'n' => Some(Seat::North),
            'W' | 'w' => Some(Seat::West),
            _ => None,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// A point of the four-player board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

/// Where a point lies: in a seat's arm or in the centre.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Region {
    /// The arm of this seat.
    Arm(Seat),
    /// The centre (九宫).
    Centre,
}

impl Point {
    /// The arm point of `seat` on `file` (0 = a .. 4 = e) and `rank`
    /// (1 = back row .. 6 = front row), if those are in range.
    #[inline]
    pub const fn arm(seat: Seat, file: u8, rank: u8) -> Option<Point> {
        if file < 5 && rank >= 1 && rank <= 6 { Some(Point((30 * seat as u8) + 5 * (rank - 1) + file)) } else { None }
    }

    /// The centre point on `file` (0 = a, west .. 2 = c, east) and `rank`
    /// (1 = south .. 3 = north), if those are in range.
    #[inline]
    pub const fn centre(file: u8, rank: u8) -> Option<Point> {
        if file < 3 && rank >= 1 && rank <= 3 { Some(Point(120 + 3 * (rank - 1) + file)) } else { None }
    }

    /// The point with this index, if below 129.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Point> {
        if i < NUM_POINTS { Some(Point(i as u8)) } else { None }
    }

    /// Index 0..129.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The arm it lies in, or the centre.
    #[inline]
    pub const fn region(self) -> Region {
        if (self.0 as usize) < CENTRE_START {
            Region::Arm(Seat::from_index(self.0 as usize / ARM_POINTS))
        } else {
            Region::Centre
        }
    }

    /// File, 0-based: a..e in an arm (as its owner sees it), a..c in the centre.
    #[inline]
    pub const fn file(self) -> u8 {
        if (self.0 as usize) < CENTRE_START { self.0 % 30 % 5 } else { (self.0 - 120) % 3 }
    }

    /// Rank, 1-based: 1..=6 in an arm, 1..=3 in the centre.
    #[inline]
    pub const fn rank(self) -> u8 {
        if (self.0 as usize) < CENTRE_START { self.0 % 30 / 5 + 1 } else { (self.0 - 120) / 3 + 1 }
    }

    /// What kind of point this is; centre points are posts.
    #[inline]
    pub const fn kind(self) -> PointKind {
        if CAMPS.contains(self) {
            PointKind::Camp
        } else if HQS.contains(self) {
            PointKind::Hq
        } else {
            PointKind::Post
        }
    }

    /// Whether the point is on the railway (73 points).
    #[inline]
    pub const fn on_railway(self) -> bool {
        RAILWAY.contains(self)
    }

    /// The image under the quarter turn that takes S's arm onto E's
    /// (RULES-4P.md §1.5).
    pub const fn quarter_turn(self) -> Point {
        if (self.0 as usize) < CENTRE_START {
            Point((self.0 + 30) % 120)
        } else {
            // (file, rank) centred on Cb2 turns counter-clockwise: Ca1 -> Cc1.
            let x = self.file() as i8 - 1;
            let y = self.rank() as i8 - 2;
            let (nx, ny) = (-y, x);
            Point(120 + 3 * (ny + 1) as u8 + (nx + 1) as u8)
        }
    }

    /// The image under the left-right mirror: seats E and W swap, files a
    /// and e swap in every arm, centre files a and c swap.
    pub const fn mirror(self) -> Point {
        match self.region() {
            Region::Arm(seat) => {
                let s = match seat {
                    Seat::East => Seat::West,
                    Seat::West => Seat::East,
                    other => other,
                };
                Point(30 * s as u8 + 5 * (self.rank() - 1) + (4 - self.file()))
            }
            Region::Centre => Point(120 + 3 * (self.rank() - 1) + (2 - self.file())),
        }
    }

    /// All 129 points in index order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..NUM_POINTS as u8).map(Point)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let region = match self.region() {
            Region::Arm(s) => s.to_char(),
            Region::Centre => 'C',
        };
        write!(f, "{region}{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a four-player point name does not parse.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PointError {
    /// Not three characters.
    Length(String),
    /// The first character is not one of `S E N W C`.
    Region(char),
    /// A file outside `a`..`e` (`a`..`c` in the centre).
    File(char),
    /// A rank outside `1`..`6` (`1`..`3` in the centre).
    Rank(char),
}

impl fmt::Display for PointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PointError::Length(s) => write!(f, "'{s}': a four-player point has three characters, like Sa1 or Cb2"),
            PointError::Region(c) => write!(f, "'{c}': a point starts with S, E, N, W or C"),
            PointError::File(c) => write!(f, "'{c}': files run a..e in an arm, a..c in the centre"),
            PointError::Rank(c) => write!(f, "'{c}': ranks run 1..6 in an arm, 1..3 in the centre"),
        }
    }
}

impl std::error::Error for PointError {}

impl FromStr for Point {
    type Err = PointError;

    /// Reads `Sa1`..`We6` or `Ca1`..`Cc3`, either case.
    fn from_str(s: &str) -> Result<Point, PointError> {
        let mut chars = s.chars();
        let (Some(r), Some(fc), Some(rc), None) = (chars.next(), chars.next(), chars.next(), chars.next()) else {
            return Err(PointError::Length(s.to_owned()));
        };
        let seat = match r {
            'C' | 'c' => None,
            _ => Some(Seat::from_char(r).ok_or(PointError::Region(r))?),
        };
        let file = match fc.to_ascii_lowercase() {
            c @ 'a'..='e' => c as u8 - b'a',
            _ => return Err(PointError::File(fc)),
        };
        let rank = match rc {
            '1'..='6' => rc as u8 - b'0',
            _ => return Err(PointError::Rank(rc)),
        };
        match seat {
            Some(seat) => Point::arm(seat, file, rank).ok_or(PointError::Rank(rc)),
            None if file > 2 => Err(PointError::File(fc)),
            None => Point::centre(file, rank).ok_or(PointError::Rank(rc)),
        }
    }
}

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

const fn ap(seat: usize, file: u8, rank: u8) -> u8 {
    (30 * seat as u8) + 5 * (rank - 1) + file
}

const fn cp(file: u8, rank: u8) -> u8 {
    120 + 3 * (rank - 1) + file
}

const fn set_of(points: &[u8]) -> PointSet {
    let mut s = PointSet::EMPTY;
    let mut i = 0;
    while i < points.len() {
        s.insert(Point(points[i]));
        i += 1;
    }
    s
}

const fn per_arm(pattern: &[(u8, u8)]) -> PointSet {
    let mut s = PointSet::EMPTY;
    let mut seat = 0;
    while seat < 4 {
        let mut i = 0;
        while i < pattern.len() {
            s.insert(Point(ap(seat, pattern[i].0, pattern[i].1)));
            i += 1;
        }
        seat += 1;
    }
    s
}

/// The 20 camps: `Xb3 Xd3 Xc4 Xb5 Xd5` in every arm.
pub const CAMPS: PointSet = per_arm(&[(1, 3), (3, 3), (2, 4), (1, 5), (3, 5)]);

/// The 8 headquarters: `Xb1 Xd1`.
pub const HQS: PointSet = per_arm(&[(1, 1), (3, 1)]);

/// The 9 centre points.
pub const CENTRE: PointSet = set_of(&[120, 121, 122, 123, 124, 125, 126, 127, 128]);

/// Points of each seat's arm.
pub const ARMS: [PointSet; 4] = {
    let mut out = [PointSet::EMPTY; 4];
    let mut i = 0;
    while i < CENTRE_START {
        out[i / ARM_POINTS].insert(Point(i as u8));
        i += 1;
    }
    out
};

/// A link between two points, and whether it is a railway link.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Link {
    /// One end (the lower index).
    pub a: Point,
    /// The other end.
    pub b: Point,
    /// Railway (true) or road (false).
    pub rail: bool,
}

/// Number of links.
pub const NUM_LINKS: usize = 288;

/// Centre points joined to each seat's `a6`, `c6`, `e6` (RULES-4P.md §2.2).
const ARM_TO_CENTRE: [[u8; 3]; 4] = [
    [cp(0, 1), cp(1, 1), cp(2, 1)], // S: Ca1 Cb1 Cc1
    [cp(2, 1), cp(2, 2), cp(2, 3)], // E: Cc1 Cc2 Cc3
    [cp(2, 3), cp(1, 3), cp(0, 3)], // N: Cc3 Cb3 Ca3
    [cp(0, 3), cp(0, 2), cp(0, 1)], // W: Ca3 Ca2 Ca1
];

/// Every link, built from RULES-4P.md §2.1-§2.2.
pub const LINKS: [Link; NUM_LINKS] = {
    let mut out = [Link { a: Point(0), b: Point(0), rail: false }; NUM_LINKS];
    let mut n = 0;
    macro_rules! add {
        ($x:expr, $y:expr, $rail:expr) => {{
            let (x, y) = ($x, $y);
            out[n] = if x < y {
                Link { a: Point(x), b: Point(y), rail: $rail }
            } else {
                Link { a: Point(y), b: Point(x), rail: $rail }
            };
            n += 1;
        }};
    }
    let mut s = 0;
    while s < 4 {
        // Road along ranks 1, 3, 4, 5.
        let ranks = [1u8, 3, 4, 5];
        let mut i = 0;
        while i < 4 {
            let mut f = 0;
            while f < 4 {
                add!(ap(s, f, ranks[i]), ap(s, f + 1, ranks[i]), false);
                f += 1;
            }
            i += 1;
        }
        // Road along files: a1-a2, e1-e2, and files b, c, d from rank 1 to 6.
        add!(ap(s, 0, 1), ap(s, 0, 2), false);
        add!(ap(s, 4, 1), ap(s, 4, 2), false);
        let mut f = 1;
        while f <= 3 {
            let mut r = 1;
            while r < 6 {
                add!(ap(s, f, r), ap(s, f, r + 1), false);
                r += 1;
            }
            f += 1;
        }
        // Camp diagonals of b3, d3, b5, d5.
        let camps = [(1u8, 3u8), (3, 3), (1, 5), (3, 5)];
        let mut c = 0;
        while c < 4 {
            let (cf, cr) = camps[c];
            add!(ap(s, cf, cr), ap(s, cf - 1, cr - 1), false);
            add!(ap(s, cf, cr), ap(s, cf + 1, cr - 1), false);
            add!(ap(s, cf, cr), ap(s, cf - 1, cr + 1), false);
            add!(ap(s, cf, cr), ap(s, cf + 1, cr + 1), false);
            c += 1;
        }
        // Arm railway: ranks 2 and 6, files a and e from rank 2 to 6.
        let mut f = 0;
        while f < 4 {
            add!(ap(s, f, 2), ap(s, f + 1, 2), true);
            add!(ap(s, f, 6), ap(s, f + 1, 6), true);
            f += 1;
        }
        let mut r = 2;
        while r < 6 {
            add!(ap(s, 0, r), ap(s, 0, r + 1), true);
            add!(ap(s, 4, r), ap(s, 4, r + 1), true);
            r += 1;
        }
        // Into the centre from a6, c6, e6.
        add!(ap(s, 0, 6), ARM_TO_CENTRE[s][0], true);
        add!(ap(s, 2, 6), ARM_TO_CENTRE[s][1], true);
        add!(ap(s, 4, 6), ARM_TO_CENTRE[s][2], true);
        // The curve: a6 to the left neighbour's e6.
        add!(ap(s, 0, 6), ap((s + 3) % 4, 4, 6), true);
        s += 1;
    }
    // The centre grid.
    let mut k = 0;
    while k < 3 {
        let mut j = 1;
        while j < 3 {
            add!(cp(k, j), cp(k, j + 1), true);
            add!(cp(j - 1, k + 1), cp(j, k + 1), true);
            j += 1;
        }
        k += 1;
    }
    assert!(n == NUM_LINKS);
    out
};

const fn adjacency(rail_only: bool) -> [PointSet; NUM_POINTS] {
    let mut out = [PointSet::EMPTY; NUM_POINTS];
    let mut i = 0;
    while i < NUM_LINKS {
        let l = LINKS[i];
        if l.rail || !rail_only {
            out[l.a.index()].insert(l.b);
            out[l.b.index()].insert(l.a);
        }
        i += 1;
    }
    out
}

/// Every link of each point (road or railway): the one-step neighbours.
pub const ADJACENT: [PointSet; NUM_POINTS] = adjacency(false);

/// The railway links of each point.
pub const RAIL_ADJACENT: [PointSet; NUM_POINTS] = adjacency(true);

/// The 73 points on the railway.
pub const RAILWAY: PointSet = {
    let mut s = PointSet::EMPTY;
    let mut i = 0;
    while i < NUM_POINTS {
        if RAIL_ADJACENT[i].any() {
            s.insert(Point(i as u8));
        }
        i += 1;
    }
    s
};

/// Longest railway line (points).
pub const MAX_LINE: usize = 13;

/// A railway line: an ordered list of points (RULES-4P.md §2.4).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Line {
    len: u8,
    points: [Point; MAX_LINE],
}

impl Line {
    /// The points in order.
    pub fn points(&self) -> &[Point] {
        &self.points[..self.len as usize]
    }
}

const fn line_of(points: &[u8]) -> Line {
    let mut l = Line { len: points.len() as u8, points: [Point(0); MAX_LINE] };
    let mut i = 0;
    while i < points.len() {
        l.points[i] = Point(points[i]);
        i += 1;
    }
    l
}

/// `X?2..X?6`: a side file (file 0 or 4) up to the front, 5 points.
const fn up_file(s: usize, f: u8) -> [u8; 5] {
    [ap(s, f, 2), ap(s, f, 3), ap(s, f, 4), ap(s, f, 5), ap(s, f, 6)]
}

const fn through_centre(s: usize, f: u8, c: [u8; 3], t: usize, g: u8) -> Line {
    let a = up_file(s, f);
    let b = up_file(t, g);
    line_of(&[a[0], a[1], a[2], a[3], a[4], c[0], c[1], c[2], b[4], b[3], b[2], b[1], b[0]])
}

const fn round_curve(s: usize) -> Line {
    let a = up_file(s, 0);
    let b = up_file((s + 3) % 4, 4);
    line_of(&[a[0], a[1], a[2], a[3], a[4], b[4], b[3], b[2], b[1], b[0]])
}

const fn rank_line(s: usize, r: u8) -> Line {
    line_of(&[ap(s, 0, r), ap(s, 1, r), ap(s, 2, r), ap(s, 3, r), ap(s, 4, r)])
}

/// Number of railway lines.
pub const NUM_LINES: usize = 18;

/// The 18 railway lines of RULES-4P.md §2.4, in its order.
pub const LINES: [Line; NUM_LINES] = [
    rank_line(0, 2),
    rank_line(1, 2),
    rank_line(2, 2),
    rank_line(3, 2),
    rank_line(0, 6),
    rank_line(1, 6),
    rank_line(2, 6),
    rank_line(3, 6),
    through_centre(0, 0, [cp(0, 1), cp(0, 2), cp(0, 3)], 2, 4),
    through_centre(0, 4, [cp(2, 1), cp(2, 2), cp(2, 3)], 2, 0),
    through_centre(3, 4, [cp(0, 1), cp(1, 1), cp(2, 1)], 1, 0),
    through_centre(3, 0, [cp(0, 3), cp(1, 3), cp(2, 3)], 1, 4),
    line_of(&[ap(0, 2, 6), cp(1, 1), cp(1, 2), cp(1, 3), ap(2, 2, 6)]),
    line_of(&[ap(3, 2, 6), cp(0, 2), cp(1, 2), cp(2, 2), ap(1, 2, 6)]),
    round_curve(0),
    round_curve(3),
    round_curve(2),
    round_curve(1),
];

/// Longest ray (points beyond its start).
pub const MAX_RAY: usize = 12;
/// Most rays from one point.
pub const MAX_RAYS: usize = 4;

/// A ray: the points a non-engineer passes, in order, sliding from a start
/// point (excluded) in one direction along one line to its end.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Ray {
    len: u8,
    points: [Point; MAX_RAY],
}

impl Ray {
    const EMPTY: Ray = Ray { len: 0, points: [Point(0); MAX_RAY] };

    /// The points in order, nearest first.
    #[inline]
    pub fn points(&self) -> &[Point] {
        &self.points[..self.len as usize]
    }

    /// Whether `self` starts with all of `other`.
    const fn extends(&self, other: &Ray) -> bool {
        if other.len > self.len {
            return false;
        }
        let mut i = 0;
        while i < other.len as usize {
            if self.points[i].0 != other.points[i].0 {
                return false;
            }
            i += 1;
        }
        true
    }
}

/// The rays of one start point: the maximal ones, none a beginning of
/// another. A ray up a side file forks at the front corner (into the
/// centre, or round the curve): two rays share that beginning.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rays {
    len: u8,
    rays: [Ray; MAX_RAYS],
}

impl Rays {
    /// The rays.
    #[inline]
    pub fn rays(&self) -> &[Ray] {
        &self.rays[..self.len as usize]
    }

    const fn add(&mut self, r: Ray) {
        if r.len == 0 {
            return;
        }
        let mut i = 0;
        while i < self.len as usize {
            if self.rays[i].extends(&r) {
                return;
            }
            if r.extends(&self.rays[i]) {
                self.rays[i] = r;
                return;
            }
            i += 1;
        }
        assert!((self.len as usize) < MAX_RAYS);
        self.rays[self.len as usize] = r;
        self.len += 1;
    }
}

/// `RAYS[p]`: every maximal ray from `p` (none off the railway).
pub const RAYS: [Rays; NUM_POINTS] = {
    let mut out = [Rays { len: 0, rays: [Ray::EMPTY; MAX_RAYS] }; NUM_POINTS];
    let mut l = 0;
    while l < NUM_LINES {
        let line = LINES[l];
        let n = line.len as usize;
        let mut k = 0;
        while k < n {
            let start = line.points[k].index();
            let mut up = Ray::EMPTY;
            let mut j = k + 1;
            while j < n {
                up.points[up.len as usize] = line.points[j];
                up.len += 1;
                j += 1;
            }
            let mut down = Ray::EMPTY;
            let mut j = k;
            while j > 0 {
                j -= 1;
                down.points[down.len as usize] = line.points[j];
                down.len += 1;
            }
            out[start].add(up);
            out[start].add(down);
            k += 1;
        }
        l += 1;
    }
    out
};

/// Number of road links.
pub fn road_link_count() -> usize {
    LINKS.iter().filter(|l| !l.rail).count()
}

/// Number of railway links.
pub fn rail_link_count() -> usize {
    LINKS.iter().filter(|l| l.rail).count()
}

/// The number of steps along links (road or railway, one link a step)
/// between every two points, capped at 255: the board's plain distance.
pub fn step_distances() -> &'static [[u8; NUM_POINTS]; NUM_POINTS] {
    static TABLE: std::sync::OnceLock<Box<[[u8; NUM_POINTS]; NUM_POINTS]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[u8::MAX; NUM_POINTS]; NUM_POINTS]);
        for from in Point::all() {
            let row = &mut t[from.index()];
            row[from.index()] = 0;
            let mut frontier = PointSet::from_point(from);
            let mut seen = frontier;
            let mut d = 0u8;
            while frontier.any() {
                d = d.saturating_add(1);
                let mut next = PointSet::EMPTY;
                for p in frontier {
                    next |= ADJACENT[p.index()];
                }
                next = next - seen;
                for p in next {
                    row[p.index()] = d;
                }
                seen |= next;
                frontier = next;
            }
        }
        t
    })
}
