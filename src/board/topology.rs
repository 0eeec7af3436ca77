//! The two-player board: 60 points, their kinds, the 133 links (98 road and
//! 35 railway), the railway lines and the mountains, all as tables built at
//! compile time (RULES.md §1).
//!
//! Points are indexed `file + 5 * rank` with file 0..5 (`a`..`e`, left to right
//! as Red sees the board) and rank 0..12 (rank 1 is Red's back row). So `a1`
//! is 0, `e1` is 4 and `e12` is 59.

use std::fmt;

use super::bitboard::Bitboard;

/// Number of files (`a`..`e`).
pub const FILES: u8 = 5;
/// Number of ranks (1..12).
pub const RANKS: u8 = 12;
/// Number of points on the two-player board.
pub const NUM_POINTS: usize = (FILES as usize) * (RANKS as usize);

/// A point of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

impl Point {
    /// The point on `file` (0 = a) and `rank` (0 = rank 1), if on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Point> {
        if file < FILES && rank < RANKS { Some(Point(file + FILES * rank)) } else { None }
    }

    /// The point with this index, if below 60.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Point> {
        if i < NUM_POINTS { Some(Point(i as u8)) } else { None }
    }

    /// The point with this index; the caller guarantees `i < 60`.
    #[inline]
    pub(crate) const fn from_index_unchecked(i: u8) -> Point {
        debug_assert!((i as usize) < NUM_POINTS);
        Point(i)
    }

    /// Index 0..60.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File, 0 = `a` .. 4 = `e`.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// Rank, 0-based: 0 is rank 1 (Red's back row), 11 is rank 12.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// What kind of point this is.
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

    /// All 60 points in index order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..NUM_POINTS as u8).map(Point)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The three kinds of point (RULES.md §1).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PointKind {
    /// 兵站: an ordinary point.
    Post,
    /// 行营: a piece standing here cannot be attacked.
    Camp,
    /// 大本营: a piece standing here never moves again.
    Hq,
}

/// A railway direction; sliding follows one of these along one line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    /// Towards rank 12.
    North = 0,
    /// Towards file e.
    East = 1,
    /// Towards rank 1.
    South = 2,
    /// Towards file a.
    West = 3,
}

impl Direction {
    /// The four directions.
    pub const ALL: [Direction; 4] = [Direction::North, Direction::East, Direction::South, Direction::West];

    /// Whether moving this way increases the point index.
    #[inline]
    pub const fn is_increasing(self) -> bool {
        matches!(self, Direction::North | Direction::East)
    }
}

const fn bit(file: u8, rank: u8) -> u64 {
    1u64 << (file + FILES * rank)
}

const fn mask_of(points: &[(u8, u8)]) -> u64 {
    let mut m = 0;
    let mut i = 0;
    while i < points.len() {
        m |= bit(points[i].0, points[i].1);
        i += 1;
    }
    m
}

/// The ten camps: b3, d3, c4, b5, d5, b8, d8, c9, b10, d10.
pub const CAMPS: Bitboard =
    Bitboard(mask_of(&[(1, 2), (3, 2), (2, 3), (1, 4), (3, 4), (1, 7), (3, 7), (2, 8), (1, 9), (3, 9)]));

/// The four headquarters: b1, d1, b12, d12.
pub const HQS: Bitboard = Bitboard(mask_of(&[(1, 0), (3, 0), (1, 11), (3, 11)]));

/// Every point that is neither camp nor HQ.
pub const POSTS: Bitboard = Bitboard(Bitboard::ALL.0 & !CAMPS.0 & !HQS.0);

/// The 50 points where pieces start (everything but the camps).
pub const START_POINTS: Bitboard = Bitboard(Bitboard::ALL.0 & !CAMPS.0);

const fn rank_mask(rank: u8) -> u64 {
    0b11111u64 << (FILES * rank)
}

const fn ranks_mask(lo: u8, hi: u8) -> u64 {
    let mut m = 0;
    let mut r = lo;
    while r <= hi {
        m |= rank_mask(r);
        r += 1;
    }
    m
}

/// The point set of one rank (0-based).
pub const fn rank_bb(rank: u8) -> Bitboard {
    Bitboard(rank_mask(rank))
}

/// Whether the link from (file, rank) one step north is a railway link.
const fn rail_north(file: u8, rank: u8) -> bool {
    // Files a and e run from rank 2 to rank 11; file c only from c6 to c7.
    ((file == 0 || file == 4) && rank >= 1 && rank < 10) || (file == 2 && rank == 5)
}

/// Whether the link from (file, rank) one step east is a railway link.
const fn rail_east(file: u8, rank: u8) -> bool {
    file < FILES - 1 && (rank == 1 || rank == 5 || rank == 6 || rank == 10)
}

/// Whether there is any link from (file, rank) one step north.
const fn link_north(file: u8, rank: u8) -> bool {
    if rank + 1 >= RANKS {
        return false;
    }
    // Between the halves only a6-a7, c6-c7 and e6-e7 cross: b and d are mountains.
    rank != 5 || file == 0 || file == 2 || file == 4
}

const fn build_adjacency(rail_only: bool) -> [u64; NUM_POINTS] {
    let mut adj = [0u64; NUM_POINTS];
    let mut r = 0;
    while r < RANKS {
        let mut f = 0;
        while f < FILES {
            let here = (f + FILES * r) as usize;
            if f + 1 < FILES && (!rail_only || rail_east(f, r)) {
                let there = here + 1;
                adj[here] |= 1 << there;
                adj[there] |= 1 << here;
            }
            if link_north(f, r) && (!rail_only || rail_north(f, r)) {
                let there = here + FILES as usize;
                adj[here] |= 1 << there;
                adj[there] |= 1 << here;
            }
            if !rail_only && CAMPS.0 >> here & 1 != 0 {
                // Every camp links to its four diagonal neighbours, all inside its half.
                let diagonals = [(-1i8, -1i8), (1, -1), (-1, 1), (1, 1)];
                let mut d = 0;
                while d < 4 {
                    let nf = (f as i8 + diagonals[d].0) as u8;
                    let nr = (r as i8 + diagonals[d].1) as u8;
                    let there = (nf + FILES * nr) as usize;
                    adj[here] |= 1 << there;
                    adj[there] |= 1 << here;
                    d += 1;
                }
            }
            f += 1;
        }
        r += 1;
    }
    adj
}

const fn adjacency_table(rail_only: bool) -> [Bitboard; NUM_POINTS] {
    let raw = build_adjacency(rail_only);
    let mut out = [Bitboard::EMPTY; NUM_POINTS];
    let mut i = 0;
    while i < NUM_POINTS {
        out[i] = Bitboard(raw[i]);
        i += 1;
    }
    out
}

/// Every link of each point (road or railway): the one-step neighbours.
pub const ADJACENT: [Bitboard; NUM_POINTS] = adjacency_table(false);

/// The railway links of each point.
pub const RAIL_ADJACENT: [Bitboard; NUM_POINTS] = adjacency_table(true);

/// Points on the railway: every point with a railway link.
pub const RAILWAY: Bitboard = {
    let mut m = 0;
    let mut i = 0;
    while i < NUM_POINTS {
        if RAIL_ADJACENT[i].0 != 0 {
            m |= 1 << i;
        }
        i += 1;
    }
    Bitboard(m)
};

/// For each direction, the points that have a railway link that way.
pub const RAIL_STEP_FROM: [Bitboard; 4] = {
    let mut out = [0u64; 4];
    let mut r = 0;
    while r < RANKS {
        let mut f = 0;
        while f < FILES {
            if rail_north(f, r) {
                out[Direction::North as usize] |= bit(f, r);
                out[Direction::South as usize] |= bit(f, r + 1);
            }
            if rail_east(f, r) {
                out[Direction::East as usize] |= bit(f, r);
                out[Direction::West as usize] |= bit(f + 1, r);
            }
            f += 1;
        }
        r += 1;
    }
    [Bitboard(out[0]), Bitboard(out[1]), Bitboard(out[2]), Bitboard(out[3])]
};

/// One railway step from every point of `b`, in all four directions.
#[inline]
pub const fn rail_neighbours(b: Bitboard) -> Bitboard {
    let n = (b.0 & RAIL_STEP_FROM[0].0) << FILES;
    let e = (b.0 & RAIL_STEP_FROM[1].0) << 1;
    let s = (b.0 & RAIL_STEP_FROM[2].0) >> FILES;
    let w = (b.0 & RAIL_STEP_FROM[3].0) >> 1;
    Bitboard(n | e | s | w)
}

/// `RAYS[p][d]`: the points reached from `p` (excluded) by following railway
/// links in direction `d` along one straight line, to the end of the line.
pub const RAYS: [[Bitboard; 4]; NUM_POINTS] = {
    let mut out = [[Bitboard::EMPTY; 4]; NUM_POINTS];
    let mut i = 0;
    while i < NUM_POINTS {
        let mut d = 0;
        while d < 4 {
            let mut m = 0u64;
            let mut cur = i;
            loop {
                if RAIL_STEP_FROM[d].0 >> cur & 1 == 0 {
                    break;
                }
                cur = match d {
                    0 => cur + FILES as usize,
                    1 => cur + 1,
                    2 => cur - FILES as usize,
                    _ => cur - 1,
                };
                m |= 1 << cur;
            }
            out[i][d] = Bitboard(m);
            d += 1;
        }
        i += 1;
    }
    out
};

/// Ranks 1-6 (Red's half) and 7-12 (Blue's half), indexed by colour.
pub const HALVES: [Bitboard; 2] = [Bitboard(ranks_mask(0, 5)), Bitboard(ranks_mask(6, 11))];

/// Each side's front rank: rank 6 for Red, rank 7 for Blue.
pub const FRONT_RANK: [Bitboard; 2] = [Bitboard(rank_mask(5)), Bitboard(rank_mask(6))];

/// Each side's last two ranks, where its landmines are deployed.
pub const BACK_TWO_RANKS: [Bitboard; 2] = [Bitboard(ranks_mask(0, 1)), Bitboard(ranks_mask(10, 11))];

/// Each side's two headquarters.
pub const OWN_HQS: [Bitboard; 2] = [Bitboard(mask_of(&[(1, 0), (3, 0)])), Bitboard(mask_of(&[(1, 11), (3, 11)]))];

/// Total number of links of the board (road and railway).
pub fn link_count() -> usize {
    ADJACENT.iter().map(|b| b.count() as usize).sum::<usize>() / 2
}

/// Number of railway links.
pub fn rail_link_count() -> usize {
    RAIL_ADJACENT.iter().map(|b| b.count() as usize).sum::<usize>() / 2
}
