//! The game state: what stands on every point, the side to move, the
//! counters, the removed pieces and the face-down pool; applying actions;
//! the end of the game by flag or quiet limit; validation of a parsed
//! position string. What needs the legal actions (the end by no legal
//! action, legality, checked history tokens) is in `crate::legal`.
//!
//! A `Position` is what one observer knows. In `flip` it is the public state
//! (face-down pieces are `?`, their identities are only known as a pool); in
//! `classic` a player's view names its own pieces and shows the enemy's as
//! `r?`/`b?`; a referee's or an `open` position names everything.

use std::fmt;

use crate::action::{Action, ActionKind};
use crate::board::topology::{BACK_TWO_RANKS, CAMPS, FRONT_RANK, HALVES, NUM_POINTS, OWN_HQS, START_POINTS};
use crate::board::{Bitboard, Point};
use crate::combat::{self, Outcome};
use crate::deployment::Deployment;
use crate::piece::{ARMY, Colour, Kind, NUM_KINDS, PIECES_PER_SIDE, Piece};
use crate::rules::{Mode, QuietResult, Rules};

/// Index used for "kind unknown" in per-kind tables.
pub const UNKNOWN_SLOT: usize = NUM_KINDS;
/// Per-kind table width: the twelve kinds and "unknown".
pub const SLOTS: usize = NUM_KINDS + 1;

/// What stands on a point.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A face-down piece: colour and kind unknown (`?`).
    FaceDown,
    /// A piece of known colour; its kind may be unknown (`r?`).
    Piece(Piece),
}

impl Cell {
    /// The piece, if the cell holds a face-up one.
    pub const fn piece(self) -> Option<Piece> {
        match self {
            Cell::Piece(p) => Some(p),
            _ => None,
        }
    }
}

/// A position as written in a position string, before validation.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// The 60 cells, by point index.
    pub cells: [Cell; NUM_POINTS],
    /// Side to move; `None` before the first flip of a `flip` game.
    pub side: Option<Colour>,
    /// Consecutive plies without a flip or a removal.
    pub quiet: u16,
    /// Plies played since the start.
    pub ply: u32,
    /// Pieces removed from the board.
    pub removed: Vec<Piece>,
}

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

/// Why a position string was rejected by the rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// A face-down piece outside `flip`.
    FaceDownOutsideFlip(Point),
    /// A face-down piece on a camp (pieces are never dealt there and never move face down).
    FaceDownInCamp(Point),
    /// A piece of unknown kind where every piece is shown.
    UnknownKind(Point, Mode),
    /// A removed piece of unknown kind where every piece is shown.
    UnknownRemoved(Piece, Mode),
    /// More pieces of a kind than a side has.
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many the position accounts for (board and removed).
        found: u8,
    },
    /// A side's pieces on board and removed do not add up to 25.
    WrongTotal {
        /// The side.
        colour: Colour,
        /// How many it has on board and removed.
        found: u8,
    },
    /// In `flip`, the face-down pieces and the pieces not accounted for differ.
    FaceDownCount {
        /// Face-down pieces on the board.
        found: u32,
        /// Pieces neither face up nor removed.
        expected: u32,
    },
    /// Side `-` outside `flip`, or after the first flip.
    SideUnassigned,
    /// A flag outside its side's headquarters (`classic`, `open`).
    FlagOutsideHq(Point),
    /// A landmine outside its side's last two ranks (`classic`, `open`).
    MineOutsideBackRanks(Point),
    /// At ply 0: a piece on a camp.
    StartInCamp(Point),
    /// At ply 0: a piece outside its side's half (`classic`, `open`).
    StartOutsideHalf(Point),
    /// At ply 0: a bomb on its side's front rank (`classic`, `open`).
    StartBombFrontRank(Point),
    /// At ply 0: removed pieces.
    StartRemoved,
    /// The quiet counter exceeds the ply count.
    QuietAbovePly,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::FaceDownOutsideFlip(p) => {
                write!(f, "face-down piece at {p}: only flip has face-down pieces")
            }
            PositionError::FaceDownInCamp(p) => write!(f, "face-down piece at {p}: camps start empty"),
            PositionError::UnknownKind(p, m) => {
                write!(f, "piece of unknown kind at {p}: {} shows every piece", m.name())
            }
            PositionError::UnknownRemoved(pc, m) => write!(f, "removed piece {pc}: {} shows every piece", m.name()),
            PositionError::TooMany { piece, found } => {
                let max = piece.kind.map_or(0, Kind::count);
                write!(f, "too many {piece}: {found} (a side has {max})")
            }
            PositionError::WrongTotal { colour, found } => {
                write!(f, "{colour} has {found} pieces on the board and removed (a side has {PIECES_PER_SIDE})")
            }
            PositionError::FaceDownCount { found, expected } => {
                write!(f, "{found} face-down pieces, but {expected} pieces are neither face up nor removed")
            }
            PositionError::SideUnassigned => {
                f.write_str("side '-' (colours not assigned) is only valid in flip before the first flip")
            }
            PositionError::FlagOutsideHq(p) => write!(f, "flag at {p} is not on its side's headquarters"),
            PositionError::MineOutsideBackRanks(p) => write!(f, "landmine at {p} is not on its side's last two ranks"),
            PositionError::StartInCamp(p) => write!(f, "piece at {p} on a camp at the start (ply 0)"),
            PositionError::StartOutsideHalf(p) => {
                write!(f, "piece at {p} outside its side's half at the start (ply 0)")
            }
            PositionError::StartBombFrontRank(p) => {
                write!(f, "bomb at {p} on its side's front rank at the start (ply 0)")
            }
            PositionError::StartRemoved => f.write_str("removed pieces at the start (ply 0)"),
            PositionError::QuietAbovePly => f.write_str("quiet-ply counter above the ply count"),
        }
    }
}

impl std::error::Error for PositionError {}

/// Why a history token could not be applied.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The game is already over.
    GameOver(GameResult),
    /// Not a legal action here.
    Illegal(Action),
    /// A flip in a history must say what it showed (`c3=r9`).
    FlipNeedsPiece(Point),
    /// The flipped identity is no longer in the face-down pool.
    NotInPool(Point, Piece),
    /// A shown piece of unknown kind (`c3=r?`).
    ShowsUnknown(Point),
    /// A reveal that contradicts what stands on the point.
    BadReveal(Point, Piece),
    /// An attack on a piece of unknown identity needs the referee's outcome.
    OutcomeNeeded(Action),
    /// The outcome given contradicts the known pieces.
    WrongOutcome {
        /// The attack.
        action: Action,
        /// What the rules say.
        expected: Outcome,
        /// What the token said.
        found: Outcome,
    },
    /// The loser named does not match the piece that lost.
    WrongLoser(Action, Piece),
    /// A reveal would make more pieces of a kind than a side has.
    TooMany(Piece),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(r) => write!(f, "the game is over: {r}"),
            PlayError::Illegal(a) => write!(f, "illegal action {a}"),
            PlayError::FlipNeedsPiece(p) => write!(f, "flip {p} must say what it showed, as {p}=r9"),
            PlayError::NotInPool(p, pc) => write!(f, "flip {p}={pc}: no face-down {pc} is left"),
            PlayError::ShowsUnknown(p) => write!(f, "{p} must show a piece of known kind"),
            PlayError::BadReveal(p, pc) => write!(f, "{p}={pc} does not match what stands on {p}"),
            PlayError::OutcomeNeeded(a) => write!(f, "attack {a} needs the referee's outcome (+, - or =)"),
            PlayError::WrongOutcome { action, expected, found } => {
                write!(f, "attack {action}{found}: the pieces give {action}{expected}")
            }
            PlayError::WrongLoser(a, p) => write!(f, "attack {a}: the loser is not {p}"),
            PlayError::TooMany(p) => write!(f, "{p} would be one {p} too many"),
        }
    }
}

impl std::error::Error for PlayError {}

const EMPTY_CODE: u8 = 0;
const FACEDOWN_CODE: u8 = 1;

#[inline]
const fn slot(kind: Option<Kind>) -> usize {
    match kind {
        Some(k) => k as usize,
        None => UNKNOWN_SLOT,
    }
}

#[inline]
const fn encode(p: Piece) -> u8 {
    2 + (p.colour as u8) * SLOTS as u8 + slot(p.kind) as u8
}

#[inline]
const fn decode(code: u8) -> Cell {
    match code {
        EMPTY_CODE => Cell::Empty,
        FACEDOWN_CODE => Cell::FaceDown,
        _ => {
            let v = (code - 2) as usize;
            Cell::Piece(Piece { colour: Colour::from_index(v / SLOTS), kind: Kind::from_index(v % SLOTS) })
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

    /// Builds a position from a parsed position string, checking it against
    /// the rules.
    ///
    /// # Errors
    /// A [`PositionError`] saying what breaks the rules, and where.
    pub fn from_setup(setup: &Setup, rules: Rules) -> Result<Position, PositionError> {
        let mut pos = Position::blank(rules, setup.side);
        pos.quiet = setup.quiet;
        pos.ply = setup.ply;
        if u32::from(setup.quiet) > setup.ply {
            return Err(PositionError::QuietAbovePly);
        }
        let flip = rules.mode == Mode::Flip;
        for p in Point::all() {
            match setup.cells[p.index()] {
                Cell::Empty => {}
                Cell::FaceDown => {
                    if !flip {
                        return Err(PositionError::FaceDownOutsideFlip(p));
                    }
                    if CAMPS.contains(p) {
                        return Err(PositionError::FaceDownInCamp(p));
                    }
                    pos.cells[p.index()] = FACEDOWN_CODE;
                    pos.facedown.insert(p);
                }
                Cell::Piece(pc) => {
                    if pc.kind.is_none() && rules.mode != Mode::Classic {
                        return Err(PositionError::UnknownKind(p, rules.mode));
                    }
                    pos.put(p, pc);
                }
            }
        }
        for &pc in &setup.removed {
            if pc.kind.is_none() && rules.mode != Mode::Classic {
                return Err(PositionError::UnknownRemoved(pc, rules.mode));
            }
            pos.removed[pc.colour.index()][slot(pc.kind)] += 1;
        }
        // Counts per kind and per side.
        let mut unaccounted = 0u32;
        for c in Colour::BOTH {
            let mut total = 0u32;
            for k in Kind::ALL {
                let found = pos.by_kind[c.index()][k.index()].count() + u32::from(pos.removed[c.index()][k.index()]);
                if found > u32::from(k.count()) {
                    return Err(PositionError::TooMany { piece: Piece::new(c, k), found: found.min(255) as u8 });
                }
                total += found;
            }
            total += pos.by_kind[c.index()][UNKNOWN_SLOT].count() + u32::from(pos.removed[c.index()][UNKNOWN_SLOT]);
            if total > u32::from(PIECES_PER_SIDE) || (!flip && total != u32::from(PIECES_PER_SIDE)) {
                return Err(PositionError::WrongTotal { colour: c, found: total.min(255) as u8 });
            }
            unaccounted += u32::from(PIECES_PER_SIDE) - total;
        }
        if flip {
            if pos.facedown.count() != unaccounted {
                return Err(PositionError::FaceDownCount { found: pos.facedown.count(), expected: unaccounted });
            }
            for c in Colour::BOTH {
                for k in Kind::ALL {
                    pos.pool[c.index()][k.index()] =
                        k.count() - pos.by_kind[c.index()][k.index()].count() as u8 - pos.removed[c.index()][k.index()];
                }
            }
            pos.pool_distinct = pos.count_pool_distinct();
        }
        if setup.side.is_none() && (!flip || (pos.by_colour[0] | pos.by_colour[1]).any() || unaccounted != 50) {
            return Err(PositionError::SideUnassigned);
        }
        if !flip {
            for c in Colour::BOTH {
                let ci = c.index();
                if let Some(p) = (pos.by_kind[ci][Kind::Flag.index()] - OWN_HQS[ci]).first() {
                    return Err(PositionError::FlagOutsideHq(p));
                }
                if let Some(p) = (pos.by_kind[ci][Kind::Mine.index()] - BACK_TWO_RANKS[ci]).first() {
                    return Err(PositionError::MineOutsideBackRanks(p));
                }
            }
        }
        if setup.ply == 0 {
            if !setup.removed.is_empty() {
                return Err(PositionError::StartRemoved);
            }
            if let Some(p) = (pos.occupied() & CAMPS).first() {
                return Err(PositionError::StartInCamp(p));
            }
            if !flip {
                for c in Colour::BOTH {
                    let ci = c.index();
                    if let Some(p) = (pos.by_colour[ci] - HALVES[ci]).first() {
                        return Err(PositionError::StartOutsideHalf(p));
                    }
                    if let Some(p) = (pos.by_kind[ci][Kind::Bomb.index()] & FRONT_RANK[ci]).first() {
                        return Err(PositionError::StartBombFrontRank(p));
                    }
                }
            }
        }
        pos.debug_check();
        Ok(pos)
    }

    /// The position as a parsed position string.
    pub fn to_setup(&self) -> Setup {
        let mut cells = [Cell::Empty; NUM_POINTS];
        for p in Point::all() {
            cells[p.index()] = self.cell(p);
        }
        let mut removed = Vec::new();
        for c in Colour::BOTH {
            for s in 0..SLOTS {
                for _ in 0..self.removed[c.index()][s] {
                    removed.push(Piece { colour: c, kind: Kind::from_index(s) });
                }
            }
        }
        Setup { cells, side: self.side, quiet: self.quiet, ply: self.ply, removed }
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

    /// The same position with `side` to move (a null move, for asking what
    /// the other side threatens). Counters are unchanged.
    pub fn with_side_to_move(&self, side: Colour) -> Position {
        let mut p = self.clone();
        p.side = Some(side);
        p
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

    #[inline]
    fn put(&mut self, p: Point, pc: Piece) {
        self.cells[p.index()] = encode(pc);
        self.by_colour[pc.colour.index()].insert(p);
        self.by_kind[pc.colour.index()][slot(pc.kind)].insert(p);
    }

    #[inline]
    fn take(&mut self, p: Point) -> Piece {
        let code = self.cells[p.index()];
        debug_assert!(code >= 2, "no face-up piece at {p}");
        let v = (code - 2) as usize;
        let (ci, s) = (v / SLOTS, v % SLOTS);
        self.cells[p.index()] = EMPTY_CODE;
        self.by_colour[ci].remove(p);
        self.by_kind[ci][s].remove(p);
        Piece { colour: Colour::from_index(ci), kind: Kind::from_index(s) }
    }

    #[inline]
    fn end_ply(&mut self, mover: Colour, quiet: bool) {
        self.side = Some(mover.opposite());
        self.quiet = if quiet { self.quiet.saturating_add(1) } else { 0 };
        self.ply += 1;
    }

    /// Flips the face-down piece at `at`, which shows `piece` (known kind,
    /// still in the pool). No legality check (see [`Position::apply_token`]).
    #[inline]
    pub fn play_flip(&mut self, at: Point, piece: Piece) {
        debug_assert!(self.facedown.contains(at));
        let k = piece.kind.expect("a flip shows a known piece");
        let n = &mut self.pool[piece.colour.index()][k.index()];
        debug_assert!(*n > 0);
        *n -= 1;
        if *n == 0 {
            self.pool_distinct -= 1;
        }
        self.facedown.remove(at);
        self.put(at, piece);
        let mover = self.side.unwrap_or(piece.colour);
        self.end_ply(mover, false);
    }

    /// Moves the piece at `from` to the empty point `to`. No legality check.
    #[inline]
    pub fn play_move(&mut self, from: Point, to: Point) {
        let pc = self.take(from);
        debug_assert!(self.cells[to.index()] == EMPTY_CODE);
        self.put(to, pc);
        self.end_ply(pc.colour, true);
    }

    /// Resolves the attack `from`x`to` with `outcome`. `loser`, when given,
    /// names the piece that lost (a revealed identity), and is what the
    /// removed list records. No legality check.
    #[inline]
    pub fn play_attack(&mut self, from: Point, to: Point, outcome: Outcome, loser: Option<Piece>) {
        let att = self.take(from);
        match outcome {
            Outcome::AttackerWins => {
                let def = self.take(to);
                self.record_removed(loser.unwrap_or(def));
                self.put(to, att);
            }
            Outcome::DefenderWins => self.record_removed(loser.unwrap_or(att)),
            Outcome::BothRemoved => {
                let def = self.take(to);
                self.record_removed(att);
                self.record_removed(def);
            }
        }
        self.end_ply(att.colour, false);
    }

    #[inline]
    fn record_removed(&mut self, pc: Piece) {
        self.removed[pc.colour.index()][slot(pc.kind)] += 1;
    }

    /// Plays `action` in a position where every piece it touches is known
    /// (`open`, a referee's truth, a determinized search world); flips take
    /// their identity from `shown`.
    #[inline]
    pub fn play_known(&mut self, action: Action, shown: Option<Piece>) {
        match action.kind() {
            ActionKind::Flip => {
                if let Some(pc) = shown {
                    self.play_flip(action.from(), pc);
                }
            }
            ActionKind::Move => self.play_move(action.from(), action.to()),
            ActionKind::Attack => {
                let outcome = self.attack_outcome(action.from(), action.to()).unwrap_or(Outcome::DefenderWins);
                self.play_attack(action.from(), action.to(), outcome, None);
            }
        }
    }

    /// Replaces the piece of unknown kind at `at` by `piece` (a reveal).
    pub fn reveal(&mut self, at: Point, piece: Piece) {
        self.take(at);
        self.put(at, piece);
    }

    /// The outcome of attacking `to` from `from` when both kinds are known.
    #[inline]
    pub fn attack_outcome(&self, from: Point, to: Point) -> Option<Outcome> {
        let att = self.cell(from).piece()?;
        let def = self.cell(to).piece()?;
        Some(combat::combat(&self.rules, att.kind?, def.kind?, self.mines_cleared(def.colour)))
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
            };
            return Some(GameResult { winner, reason: EndReason::QuietLimit });
        }
        None
    }

    /// Checks that the piece at `at` may be `named`: same colour, and the
    /// same kind or an unknown kind with one of `named` still unaccounted for.
    pub(crate) fn check_identity(&self, at: Point, named: Piece) -> Result<(), PlayError> {
        let here = self.cell(at).piece().ok_or(PlayError::BadReveal(at, named))?;
        let k = named.kind.ok_or(PlayError::ShowsUnknown(at))?;
        if here.colour != named.colour {
            return Err(PlayError::BadReveal(at, named));
        }
        match here.kind {
            Some(known) if known == k => Ok(()),
            Some(_) => Err(PlayError::BadReveal(at, named)),
            None => {
                let ci = named.colour.index();
                let accounted = self.by_kind[ci][k.index()].count() + u32::from(self.removed[ci][k.index()]);
                if accounted >= u32::from(k.count()) { Err(PlayError::TooMany(named)) } else { Ok(()) }
            }
        }
    }

    pub(crate) fn apply_reveal(&mut self, at: Point, piece: Piece) -> Result<(), PlayError> {
        self.check_identity(at, piece)?;
        self.reveal(at, piece);
        self.debug_check();
        Ok(())
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

impl Position {
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

    /// What `viewer` sees of this position in `classic`: the enemy's pieces
    /// on the board with their kinds hidden, except where `keep` says the
    /// kind is known. Removed pieces keep their kinds (the caller decides
    /// what the viewer learned about them).
    pub fn hide_enemy(&self, viewer: Colour, keep: Bitboard) -> Position {
        let mut view = self.clone();
        let enemy = viewer.opposite();
        for p in self.by_colour[enemy.index()] - keep {
            view.take(p);
            view.put(p, Piece::unknown(enemy));
        }
        view
    }

    /// Moves the removed-piece record of `piece` to "unknown kind" (what a
    /// viewer who never learned its identity knows).
    pub fn forget_removed(&mut self, piece: Piece) {
        let ci = piece.colour.index();
        let s = slot(piece.kind);
        if s != UNKNOWN_SLOT && self.removed[ci][s] > 0 {
            self.removed[ci][s] -= 1;
            self.removed[ci][UNKNOWN_SLOT] += 1;
        }
    }

    /// The inverse of [`Position::forget_removed`]: one removed piece of
    /// `piece`'s colour and unknown kind is recorded as `piece` (a world
    /// sampled for a `classic` view names every removed piece).
    pub fn name_removed(&mut self, piece: Piece) {
        let ci = piece.colour.index();
        let s = slot(piece.kind);
        if s != UNKNOWN_SLOT && self.removed[ci][UNKNOWN_SLOT] > 0 {
            self.removed[ci][UNKNOWN_SLOT] -= 1;
            self.removed[ci][s] += 1;
        }
    }
}
