//! The game state: what stands on every point, the side to move, the
//! counters, the removed pieces and the face-down pool; its construction,
//! accessors and the end of the game by flag or quiet limit. Cell codes,
//! position strings, history errors, playing actions and other views are
//! in the submodules; what needs the legal actions (the end by no legal
//! action, legality, checked history tokens) is in `crate::legal`.
//!
//! A `Position` is what one observer knows. In `flip` it is the public state
//! (face-down pieces are `?`, their identities are only known as a pool); in
//! `classic` a player's view names its own pieces and shows the enemy's as
//! `r?`/`b?`; a referee's or an `open` position names everything.

mod cell;
mod history;
mod play;
mod setup;
mod view;

use std::fmt;

use crate::board::topology::{NUM_POINTS, START_POINTS};
use crate::board::{Bitboard, Point};
use crate::deployment::Deployment;
use crate::piece::{ARMY, Colour, Kind, NUM_KINDS, PIECES_PER_SIDE, Piece};
use crate::rules::{Mode, QuietResult, Rules};

pub use cell::{Cell, SLOTS, UNKNOWN_SLOT};
use cell::{EMPTY_CODE, FACEDOWN_CODE, decode, slot};
pub use history::PlayError;
pub use setup::{PositionError, Setup};
pub use view::View;

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// A flag was captured.
    FlagCaptured,
    /// The side to move had no legal action.
    NoLegalAction,
    /// The quiet-ply limit was reached.
    QuietLimit,
}

impl EndReason {
    /// The name used in records and protocol messages.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::FlagCaptured => "flag",
            EndReason::NoLegalAction => "noaction",
            EndReason::QuietLimit => "quietlimit",
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GameResult {
    /// The winner, `None` for a draw.
    pub winner: Option<Colour>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins ({})", self.reason.name()),
            None => write!(f, "draw ({})", self.reason.name()),
        }
    }
}

/// The state of a game as one observer knows it. Cheap to copy (copy-make).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    cells: [u8; NUM_POINTS],
    by_colour: [Bitboard; 2],
    by_kind: [[Bitboard; SLOTS]; 2],
    facedown: Bitboard,
    pool: [[u8; NUM_KINDS]; 2],
    pool_distinct: u8,
    removed: [[u8; SLOTS]; 2],
    side: Option<Colour>,
    quiet: u16,
    ply: u32,
    rules: Rules,
}

impl Position {
    fn blank(rules: Rules, side: Option<Colour>) -> Position {
        Position {
            cells: [EMPTY_CODE; NUM_POINTS],
            by_colour: [Bitboard::EMPTY; 2],
            by_kind: [[Bitboard::EMPTY; SLOTS]; 2],
            facedown: Bitboard::EMPTY,
            pool: [[0; NUM_KINDS]; 2],
            pool_distinct: 0,
            removed: [[0; SLOTS]; 2],
            side,
            quiet: 0,
            ply: 0,
            rules,
        }
    }

    /// The start of a `flip` game: all 50 pieces face down, colours not yet
    /// assigned. The rules' mode should be `flip`.
    pub fn flip_start(rules: Rules) -> Position {
        let mut pos = Position::blank(rules, None);
        for p in START_POINTS {
            pos.cells[p.index()] = FACEDOWN_CODE;
        }
        pos.facedown = START_POINTS;
        pos.pool = [ARMY; 2];
        pos.pool_distinct = pos.count_pool_distinct();
        pos
    }

    /// The board before deployment in `classic`/`open`: empty, Red to move.
    /// Its only use is to ask for deployments; it has no legal action.
    pub fn empty(rules: Rules) -> Position {
        Position::blank(rules, Some(Colour::Red))
    }

    /// The start position of `rules`: [`Position::flip_start`] in `flip`,
    /// [`Position::empty`] otherwise.
    pub fn startpos(rules: Rules) -> Position {
        if rules.has_deployment() { Position::empty(rules) } else { Position::flip_start(rules) }
    }

    /// The start of a `classic`/`open` game from both deployments, Red to
    /// move, every piece named (the referee's truth).
    pub fn from_deployments(rules: Rules, red: &Deployment, blue: &Deployment) -> Position {
        let mut pos = Position::blank(rules, Some(Colour::Red));
        for d in [red, blue] {
            for (p, pc) in d.pieces() {
                pos.put(p, pc);
            }
        }
        pos.debug_check();
        pos
    }

    /// The rules in force.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Replaces the rules (the position must make sense under them; the
    /// caller re-validates through a position string when unsure).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// Side to move; `None` before the first flip of a `flip` game.
    #[inline]
    pub fn side_to_move(&self) -> Option<Colour> {
        self.side
    }

    /// Consecutive plies without a flip or a removal.
    #[inline]
    pub fn quiet(&self) -> u16 {
        self.quiet
    }

    /// Plies played.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// What stands on `p`.
    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        decode(self.cells[p.index()])
    }

    /// The kind of the face-up piece at `p`, `None` if empty, face down or unknown.
    #[inline]
    pub fn kind_at(&self, p: Point) -> Option<Kind> {
        self.cell(p).piece().and_then(|pc| pc.kind)
    }

    /// The colour of the face-up piece at `p`, if any.
    #[inline]
    pub fn colour_at(&self, p: Point) -> Option<Colour> {
        self.cell(p).piece().map(|pc| pc.colour)
    }

    /// Face-up pieces (known colour) of `c`.
    #[inline]
    pub fn pieces(&self, c: Colour) -> Bitboard {
        self.by_colour[c.index()]
    }

    /// Face-up pieces of colour `c` and kind `k` (`None`: unknown kind).
    #[inline]
    pub fn pieces_of(&self, c: Colour, k: Option<Kind>) -> Bitboard {
        self.by_kind[c.index()][slot(k)]
    }

    /// Face-down pieces.
    #[inline]
    pub fn facedown(&self) -> Bitboard {
        self.facedown
    }

    /// Every occupied point.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_colour[0] | self.by_colour[1] | self.facedown
    }

    /// How many face-down pieces of this colour and kind remain (`flip`).
    #[inline]
    pub fn pool_count(&self, c: Colour, k: Kind) -> u8 {
        self.pool[c.index()][k.index()]
    }

    /// The face-down pool as counts per colour and kind.
    #[inline]
    pub fn pool(&self) -> &[[u8; NUM_KINDS]; 2] {
        &self.pool
    }

    /// Number of distinct (colour, kind) left in the face-down pool: the
    /// branching of a flip.
    #[inline]
    pub fn pool_distinct(&self) -> u32 {
        u32::from(self.pool_distinct)
    }

    /// Removed pieces of colour `c` and kind `k` (`None`: unknown kind).
    #[inline]
    pub fn removed_count(&self, c: Colour, k: Option<Kind>) -> u8 {
        self.removed[c.index()][slot(k)]
    }

    /// All removed pieces of colour `c`.
    pub fn removed_total(&self, c: Colour) -> u8 {
        self.removed[c.index()].iter().sum()
    }

    /// Pieces of `c` still on the board, face-down ones included.
    pub fn on_board(&self, c: Colour) -> u8 {
        PIECES_PER_SIDE - self.removed_total(c)
    }

    /// Whether all three landmines of `c` are gone.
    #[inline]
    pub fn mines_cleared(&self, c: Colour) -> bool {
        self.removed[c.index()][Kind::Mine.index()] >= Kind::Mine.count()
    }

    /// Draws an identity from the face-down pool, each piece equally likely
    /// (a flip's chance outcome); `None` if the pool is empty.
    pub fn sample_pool<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Piece> {
        let total: u32 = self.pool.iter().flatten().map(|&n| u32::from(n)).sum();
        if total == 0 {
            return None;
        }
        let mut r = rand::RngExt::random_range(rng, 0..total);
        for c in Colour::BOTH {
            for k in Kind::ALL {
                let n = u32::from(self.pool[c.index()][k.index()]);
                if r < n {
                    return Some(Piece::new(c, k));
                }
                r -= n;
            }
        }
        None
    }

    fn count_pool_distinct(&self) -> u8 {
        self.pool.iter().flatten().filter(|&&n| n > 0).count() as u8
    }

    /// The end of the game by flag capture or quiet limit, without looking
    /// at legal actions.
    pub fn outcome_without_actions(&self) -> Option<GameResult> {
        for c in Colour::BOTH {
            if self.removed[c.index()][Kind::Flag.index()] > 0 {
                return Some(GameResult { winner: Some(c.opposite()), reason: EndReason::FlagCaptured });
            }
        }
        if self.rules.quiet_limit > 0 && self.quiet >= self.rules.quiet_limit {
            let winner = match self.rules.quiet_result {
                QuietResult::Draw => None,
                QuietResult::MorePieces => match self.on_board(Colour::Red).cmp(&self.on_board(Colour::Blue)) {
                    std::cmp::Ordering::Greater => Some(Colour::Red),
                    std::cmp::Ordering::Less => Some(Colour::Blue),
                    std::cmp::Ordering::Equal => None,
                },
                QuietResult::SideToMoveLoses => self.side.map(Colour::opposite),
                QuietResult::LastMoverLoses => self.side,
            };
            return Some(GameResult { winner, reason: EndReason::QuietLimit });
        }
        None
    }

    #[inline]
    pub(crate) fn debug_check(&self) {
        #[cfg(debug_assertions)]
        self.check_invariants();
    }

    /// Panics if the redundant representations disagree (used in tests and
    /// debug builds).
    pub fn check_invariants(&self) {
        let mut by_colour = [Bitboard::EMPTY; 2];
        let mut by_kind = [[Bitboard::EMPTY; SLOTS]; 2];
        let mut facedown = Bitboard::EMPTY;
        for p in Point::all() {
            match self.cell(p) {
                Cell::Empty => {}
                Cell::FaceDown => facedown.insert(p),
                Cell::Piece(pc) => {
                    by_colour[pc.colour.index()].insert(p);
                    by_kind[pc.colour.index()][slot(pc.kind)].insert(p);
                }
            }
        }
        assert_eq!(by_colour, self.by_colour, "colour sets");
        assert_eq!(by_kind, self.by_kind, "kind sets");
        assert_eq!(facedown, self.facedown, "face-down set");
        let pool: u32 = self.pool.iter().flatten().map(|&n| u32::from(n)).sum();
        if self.rules.mode == Mode::Flip {
            assert_eq!(pool, facedown.count(), "pool size");
        }
        assert_eq!(self.pool_distinct, self.count_pool_distinct(), "pool distinct");
        assert!((by_colour[0] & by_colour[1]).is_empty());
        assert!((facedown & (by_colour[0] | by_colour[1])).is_empty());
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
