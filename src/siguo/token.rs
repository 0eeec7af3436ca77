//! What a four-player referee tells a seat, one token at a time, and how a
//! seat's position takes it in (RULES-4P.md §4 item 11), in the spirit of
//! the two-player history tokens (`a6xa7+`, `d12=bF`) with the four-player
//! point names:
//!
//! - `Sa3-Sa4`: a move, as played;
//! - `Sa6xCa1+`: an attack and its outcome (`+` attacker won, `-` defender
//!   won, `=` both removed), never an identity; `Sa6xCa1+e3` also names the
//!   loser (owner in lower case, kind) for the winner where
//!   `WinnerLearnsLoser` (§5 row 11);
//! - `Nb1=nF`: a point shows a piece (the referee's reveal: a fallen
//!   Marshal's flag, §4 item 11, §5 row 12); not a ply;
//! - `N#flag`: a seat is out and why (`flag`, `noaction`, `resign`,
//!   `given`; §4 items 5-7), told to every seat; not a ply.
//!
//! [`Position::apply_token`] plays a token on a seat's view without
//! guessing anything it was not told: an action moves the pieces, counts
//! the quiet plies and passes the turn to the next seat still in; only an
//! out token takes a seat out (its pieces off, the turn on if it was to
//! move).

use std::fmt;
use std::str::FromStr;

use super::action::Action;
use super::position::{OutReason, Piece, Position};
use super::topology::{Point, PointError, Seat};
use crate::combat::Outcome;
use crate::piece::Kind;

/// One token told to a seat.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SiguoToken {
    /// A move to an empty point: `Sa3-Sa4`.
    Move(Action),
    /// An attack with the referee's outcome, optionally naming the loser:
    /// `Sa6xCa1+`, `Sa6xCa1+e3`.
    Attack {
        /// The attacker's point.
        from: Point,
        /// The defender's point.
        to: Point,
        /// What happened.
        outcome: Outcome,
        /// The losing piece, when told (only with `+` or `-`).
        loser: Option<Piece>,
    },
    /// A point shows a piece: `Nb1=nF`.
    Show {
        /// Where.
        at: Point,
        /// Its owner and kind.
        piece: Piece,
    },
    /// A seat is out: `N#flag`.
    Out {
        /// The seat.
        seat: Seat,
        /// Why.
        reason: OutReason,
    },
}

impl SiguoToken {
    /// The token of a bare action (an attack without its outcome is not a
    /// token: `None`).
    pub fn of_move(action: Action) -> Option<SiguoToken> {
        (!action.attack).then_some(SiguoToken::Move(action))
    }

    /// Whether the token is a ply (a move or an attack), not an announcement.
    pub fn is_ply(self) -> bool {
        matches!(self, SiguoToken::Move(_) | SiguoToken::Attack { .. })
    }
}

fn piece_text(p: Piece) -> String {
    let k = p.kind.map_or('?', Kind::to_char);
    format!("{}{k}", p.seat.to_char().to_ascii_lowercase())
}

impl fmt::Display for SiguoToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SiguoToken::Move(a) => write!(f, "{a}"),
            SiguoToken::Attack { from, to, outcome, loser } => {
                write!(f, "{from}x{to}{outcome}")?;
                if let Some(p) = loser {
                    f.write_str(&piece_text(p))?;
                }
                Ok(())
            }
            SiguoToken::Show { at, piece } => write!(f, "{at}={}", piece_text(piece)),
            SiguoToken::Out { seat, reason } => write!(f, "{seat}#{}", reason.name()),
        }
    }
}

/// Why a token's text does not read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TokenError {
    /// Not one of the four forms.
    Form(String),
    /// A bad point.
    Point(PointError),
    /// A piece is not a seat letter and a known kind (`nF`).
    Piece(String),
    /// An out reason other than `flag`, `noaction`, `resign`, `given`.
    Reason(String),
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenError::Form(s) => {
                write!(f, "'{s}': a token is Sa3-Sa4, Sa6xCa1+ (or -, =, with the loser: +e3), Nb1=nF or N#flag")
            }
            TokenError::Point(e) => write!(f, "{e}"),
            TokenError::Piece(s) => write!(f, "'{s}': a piece is a seat letter and a kind, like nF"),
            TokenError::Reason(s) => write!(f, "'{s}': a seat is out for flag, noaction, resign or given"),
        }
    }
}

impl std::error::Error for TokenError {}

impl From<PointError> for TokenError {
    fn from(e: PointError) -> Self {
        TokenError::Point(e)
    }
}

fn parse_piece(s: &str) -> Result<Piece, TokenError> {
    let bad = || TokenError::Piece(s.to_owned());
    let mut c = s.chars();
    let (Some(sc), Some(kc), None) = (c.next(), c.next(), c.next()) else {
        return Err(bad());
    };
    let seat = Seat::from_char(sc).ok_or_else(bad)?;
    let kind = Kind::from_char(kc).ok_or_else(bad)?;
    Ok(Piece::new(seat, Some(kind)))
}

fn parse_reason(s: &str) -> Result<OutReason, TokenError> {
    [OutReason::FlagCaptured, OutReason::NoLegalAction, OutReason::Resigned, OutReason::Given]
        .into_iter()
        .find(|r| r.name().eq_ignore_ascii_case(s))
        .ok_or_else(|| TokenError::Reason(s.to_owned()))
}

impl FromStr for SiguoToken {
    type Err = TokenError;

    fn from_str(s: &str) -> Result<SiguoToken, TokenError> {
        let form = || TokenError::Form(s.to_owned());
        if let Some((seat, reason)) = s.split_once('#') {
            let mut c = seat.chars();
            let seat = match (c.next(), c.next()) {
                (Some(ch), None) => Seat::from_char(ch).ok_or_else(form)?,
                _ => return Err(form()),
            };
            return Ok(SiguoToken::Out { seat, reason: parse_reason(reason)? });
        }
        // Every point name is three ASCII characters.
        let (Some(first), Some(sep), Some(rest)) = (s.get(..3), s.get(3..4), s.get(4..)) else {
            return Err(form());
        };
        let from: Point = first.parse()?;
        match sep {
            "-" => {
                let to: Point = rest.parse()?;
                Ok(SiguoToken::Move(Action::moving(from, to)))
            }
            "=" => Ok(SiguoToken::Show { at: from, piece: parse_piece(rest)? }),
            "x" | "X" => {
                let (Some(to), Some(o), Some(loser)) = (rest.get(..3), rest.get(3..4), rest.get(4..)) else {
                    return Err(form());
                };
                let to: Point = to.parse()?;
                let outcome = o.chars().next().and_then(Outcome::from_char).ok_or_else(form)?;
                let loser = if loser.is_empty() { None } else { Some(parse_piece(loser)?) };
                if loser.is_some() && outcome == Outcome::BothRemoved {
                    return Err(form());
                }
                Ok(SiguoToken::Attack { from, to, outcome, loser })
            }
            _ => Err(form()),
        }
    }
}

/// Why a position refused a token.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ApplyError {
    /// A ply after the end of the game.
    GameOver(SiguoToken),
    /// A ply that is not a legal action of the side to move here.
    Illegal(SiguoToken),
    /// An attack whose outcome the known kinds decide otherwise.
    WrongOutcome {
        /// The token.
        token: SiguoToken,
        /// What the kinds decide.
        expected: Outcome,
    },
    /// A named piece that is not the one on its point (another seat, a
    /// known other kind, or nobody), or a loser with `=`.
    WrongPiece(SiguoToken),
    /// An out token for a seat already out.
    AlreadyOut(SiguoToken),
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApplyError::GameOver(t) => write!(f, "{t}: the game is over"),
            ApplyError::Illegal(t) => write!(f, "{t}: not a legal action of the side to move"),
            ApplyError::WrongOutcome { token, expected } => write!(f, "{token}: the kinds decide {expected}"),
            ApplyError::WrongPiece(t) => write!(f, "{t}: not the piece on that point"),
            ApplyError::AlreadyOut(t) => write!(f, "{t}: that seat is already out"),
        }
    }
}

impl std::error::Error for ApplyError {}

impl Position {
    /// Whether `piece` may be the piece on `at`: same seat, and the kind
    /// unknown here or the same.
    fn may_be(&self, at: Point, piece: Piece) -> bool {
        self.cell(at).is_some_and(|pc| pc.seat == piece.seat && (pc.kind.is_none() || pc.kind == piece.kind))
    }

    /// Takes in a token told by the referee (module documentation): a move
    /// or an attack of the side to move, checked legal here; a reveal; a
    /// seat out. Nothing is inferred: a flag removed or a seat left
    /// without an action is taken out only by its out token.
    ///
    /// # Errors
    /// [`ApplyError`]; the position is then unchanged.
    pub fn apply_token(&mut self, token: SiguoToken) -> Result<(), ApplyError> {
        match token {
            SiguoToken::Show { at, piece } => {
                if piece.kind.is_none() || !self.may_be(at, piece) {
                    return Err(ApplyError::WrongPiece(token));
                }
                self.put(at, Some(piece));
            }
            SiguoToken::Out { seat, reason } => {
                if self.is_out(seat) {
                    return Err(ApplyError::AlreadyOut(token));
                }
                self.take_out(seat, reason);
                if self.side_to_move() == seat {
                    self.pass_turn();
                }
            }
            SiguoToken::Move(a) => {
                self.check_ply(a, token)?;
                let piece = self.cell(a.from);
                self.put(a.from, None);
                self.put(a.to, piece);
                self.set_quiet(self.quiet().saturating_add(1));
                self.pass_turn();
            }
            SiguoToken::Attack { from, to, outcome, loser } => {
                let a = Action::attacking(from, to);
                self.check_ply(a, token)?;
                if let Some(expected) = self.attack_outcome(from, to).filter(|&e| e != outcome) {
                    return Err(ApplyError::WrongOutcome { token, expected });
                }
                let loser_at = match outcome {
                    Outcome::AttackerWins => Some(to),
                    Outcome::DefenderWins => Some(from),
                    Outcome::BothRemoved => None,
                };
                if let Some(named) = loser {
                    if loser_at.is_none_or(|at| !self.may_be(at, named)) || named.kind.is_none() {
                        return Err(ApplyError::WrongPiece(token));
                    }
                }
                if let (Some(at), Some(named)) = (loser_at, loser) {
                    self.put(at, Some(named));
                }
                let attacker = self.cell(from);
                let defender = self.cell(to);
                self.put(from, None);
                if outcome.defender_removed() {
                    self.put(to, None);
                    if let Some(d) = defender.filter(|d| d.kind == Some(Kind::Mine)) {
                        self.count_mine_removed(d.seat);
                    }
                }
                if !outcome.attacker_removed() {
                    self.put(to, attacker);
                }
                self.set_quiet(0);
                self.pass_turn();
            }
        }
        Ok(())
    }

    fn check_ply(&self, a: Action, token: SiguoToken) -> Result<(), ApplyError> {
        if self.is_over() {
            return Err(ApplyError::GameOver(token));
        }
        let mut legal = Vec::new();
        self.legal_actions(&mut legal);
        if legal.contains(&a) { Ok(()) } else { Err(ApplyError::Illegal(token)) }
    }
}
