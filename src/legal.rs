//! What needs the legal actions, above move generation: the end of the
//! game when the side to move has none, whether an action is legal, and the
//! checked application of history tokens. The position itself knows nothing
//! of move generation.

use crate::action::{Action, ActionKind, Token};
use crate::combat::Outcome;
use crate::piece::Colour;
use crate::position::{Cell, EndReason, GameResult, PlayError, Position};
use crate::rules::Mode;

impl Position {
    /// The result if the game is over: a flag captured, the quiet limit
    /// reached, or the side to move without a legal action (it loses).
    pub fn outcome(&self) -> Option<GameResult> {
        if let Some(r) = self.outcome_without_actions() {
            return Some(r);
        }
        if !self.has_legal_action() {
            let winner = self.side_to_move().map(Colour::opposite);
            return Some(GameResult { winner, reason: EndReason::NoLegalAction });
        }
        None
    }

    /// Whether `action` is legal here.
    pub fn is_legal(&self, action: Action) -> bool {
        let mut list = Vec::new();
        self.legal_actions(&mut list);
        list.contains(&action)
    }

    /// Applies one history token, checking it against the rules and what
    /// this observer knows.
    ///
    /// # Errors
    /// A [`PlayError`]; the position is unchanged.
    pub fn apply_token(&mut self, token: Token) -> Result<(), PlayError> {
        // A reveal is not a ply and stays possible whatever the state of the game.
        if let Token::Show { at, piece } = token {
            if self.cell(at) != Cell::FaceDown && self.rules().mode != Mode::Flip {
                return self.apply_reveal(at, piece);
            }
        }
        if let Some(r) = self.outcome_without_actions() {
            return Err(PlayError::GameOver(r));
        }
        match token {
            Token::Action(a) => {
                self.check_legal(a)?;
                match a.kind() {
                    ActionKind::Flip => return Err(PlayError::FlipNeedsPiece(a.from())),
                    ActionKind::Move => self.play_move(a.from(), a.to()),
                    ActionKind::Attack => {
                        let outcome = self.attack_outcome(a.from(), a.to()).ok_or(PlayError::OutcomeNeeded(a))?;
                        self.play_attack(a.from(), a.to(), outcome, None);
                    }
                }
            }
            Token::Show { at, piece } => {
                self.check_legal(Action::flip(at))?;
                let k = piece.kind.ok_or(PlayError::ShowsUnknown(at))?;
                if self.pool_count(piece.colour, k) == 0 {
                    return Err(PlayError::NotInPool(at, piece));
                }
                self.play_flip(at, piece);
            }
            Token::Attack { from, to, outcome, loser } => {
                let a = Action::attack(from, to);
                self.check_legal(a)?;
                if let Some(expected) = self.attack_outcome(from, to) {
                    if expected != outcome {
                        return Err(PlayError::WrongOutcome { action: a, expected, found: outcome });
                    }
                }
                let loser = match (loser, outcome) {
                    (None, _) => None,
                    (Some(named), Outcome::BothRemoved) => return Err(PlayError::WrongLoser(a, named)),
                    (Some(named), _) => {
                        let at = if outcome == Outcome::AttackerWins { to } else { from };
                        self.check_identity(at, named).map_err(|_| PlayError::WrongLoser(a, named))?;
                        Some(named)
                    }
                };
                self.play_attack(from, to, outcome, loser);
            }
        }
        self.debug_check();
        Ok(())
    }

    fn check_legal(&self, a: Action) -> Result<(), PlayError> {
        if self.is_legal(a) { Ok(()) } else { Err(PlayError::Illegal(a)) }
    }
}
