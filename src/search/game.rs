//! What the search core needs of a game, so that one core, one tree and one
//! search loop (time, threads, `Hash`, reports) serve the two-player games
//! and the four-player team game alike: a position type whose nodes the
//! tree holds ([`GameState`]) and an action type an edge can carry in its
//! 16-bit label ([`Label`]).
//!
//! Both games are contests of two sides, so values stay two-sided: a value
//! is for Red, and a node's mover is a [`Colour`]. In the four-player game
//! the sides are the teams, South-North as Red and East-West as Blue
//! ([`crate::siguo::Team::side`]): a win for a team is a win for both
//! partners.

use std::fmt;

use super::priors;
use crate::action::{Action, ActionKind};
use crate::piece::Colour;
use crate::position::Position;

/// An action stored in an edge's 16-bit label.
pub trait Label: Copy + PartialEq + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// The label of the action.
    fn to_label(self) -> u16;

    /// The action of a label made by [`Label::to_label`].
    fn from_label(label: u16) -> Self;

    /// Whether `label` is one [`Label::to_label`] makes (for debug checks).
    fn is_label(label: u16) -> bool;
}

impl Label for Action {
    #[inline]
    fn to_label(self) -> u16 {
        self.to_u16()
    }

    #[inline]
    fn from_label(label: u16) -> Action {
        Action::from_u16_trusted(label)
    }

    fn is_label(label: u16) -> bool {
        Action::from_u16(label).is_some()
    }
}

/// A position the search core can grow a tree over.
pub trait GameState: Clone + Send + Sync + fmt::Debug + 'static {
    /// What a player chooses at a decision node.
    type Action: Label;

    /// The side to move as the core's two sides (`None`: the root of a
    /// `flip` game before the first flip, where no side has a colour yet).
    fn mover(&self) -> Option<Colour>;

    /// The legal actions of the side to move, into `out` (cleared first
    /// by the callee's contract: appended to an empty vector).
    fn legal(&self, out: &mut Vec<Self::Action>);

    /// The priors of a new decision node's `actions`, one per action into
    /// `out` (uniform when `use_priors` is off).
    fn priors(&self, actions: &[Self::Action], use_priors: bool, scratch: &mut Vec<Self::Action>, out: &mut Vec<f32>);

    /// Whether the reply to `action` in the principal variation can be
    /// pondered on (not after a flip, whose identity is not known yet).
    fn ponderable(action: Self::Action) -> bool;
}

impl GameState for Position {
    type Action = Action;

    #[inline]
    fn mover(&self) -> Option<Colour> {
        self.side_to_move()
    }

    #[inline]
    fn legal(&self, out: &mut Vec<Action>) {
        self.legal_actions(out);
    }

    fn priors(&self, actions: &[Action], use_priors: bool, scratch: &mut Vec<Action>, out: &mut Vec<f32>) {
        priors::for_node(self, actions, use_priors, scratch, out);
    }

    fn ponderable(action: Action) -> bool {
        action.kind() != ActionKind::Flip
    }
}

/// Uniform priors over `n` actions, into `out`.
pub fn uniform(n: usize, out: &mut Vec<f32>) {
    out.clear();
    out.resize(n, 1.0 / n.max(1) as f32);
}
