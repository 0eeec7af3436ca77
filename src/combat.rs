//! Combat: the outcome of any attack under the rules in force (RULES.md §3
//! and the flag rules of §4).

use std::fmt;

use crate::piece::Kind;
use crate::rules::Rules;

/// What an attack does, as a referee announces it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// `+`: the defender is removed and the attacker takes its point.
    AttackerWins,
    /// `-`: the attacker is removed; the defender stays.
    DefenderWins,
    /// `=`: both are removed.
    BothRemoved,
}

impl Outcome {
    /// All outcomes.
    pub const ALL: [Outcome; 3] = [Outcome::AttackerWins, Outcome::DefenderWins, Outcome::BothRemoved];

    /// The notation suffix: `+`, `-` or `=`.
    pub const fn to_char(self) -> char {
        match self {
            Outcome::AttackerWins => '+',
            Outcome::DefenderWins => '-',
            Outcome::BothRemoved => '=',
        }
    }

    /// Reads a notation suffix.
    pub const fn from_char(c: char) -> Option<Outcome> {
        match c {
            '+' => Some(Outcome::AttackerWins),
            '-' => Some(Outcome::DefenderWins),
            '=' => Some(Outcome::BothRemoved),
            _ => None,
        }
    }

    /// Whether the attacker leaves the board.
    pub const fn attacker_removed(self) -> bool {
        !matches!(self, Outcome::AttackerWins)
    }

    /// Whether the defender leaves the board.
    pub const fn defender_removed(self) -> bool {
        !matches!(self, Outcome::DefenderWins)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// Whether the rules let an `attacker` attack a `defender` whose kind is
/// known. `mines_cleared` tells whether all three of the defender's side's
/// landmines are gone (it matters for the flag in `flip`).
#[inline]
pub fn attack_allowed(rules: &Rules, attacker: Kind, defender: Kind, mines_cleared: bool) -> bool {
    if !attacker.is_movable() {
        return false;
    }
    let bomb_barred = attacker == Kind::Bomb && !rules.bomb_attacks_mine_and_flag;
    match defender {
        Kind::Flag => {
            !bomb_barred
                && (!rules.flag_needs_engineer || attacker == Kind::Engineer)
                && (!rules.flag_needs_mines_cleared || mines_cleared)
        }
        Kind::Mine => !bomb_barred,
        _ => true,
    }
}

/// The outcome of `attacker` attacking `defender`.
///
/// An attack the rules forbid (see [`attack_allowed`]) cannot be chosen when
/// the defender is known; when it is hidden, as in `classic`, the attack
/// fails: the attacker is removed and the defender stays (decision).
#[inline]
pub fn combat(rules: &Rules, attacker: Kind, defender: Kind, mines_cleared: bool) -> Outcome {
    if !attack_allowed(rules, attacker, defender, mines_cleared) {
        return Outcome::DefenderWins;
    }
    match (attacker, defender) {
        (Kind::Bomb, Kind::Flag) if rules.bomb_ties_flag => Outcome::BothRemoved,
        (_, Kind::Flag) => Outcome::AttackerWins,
        (Kind::Bomb, _) | (_, Kind::Bomb) => Outcome::BothRemoved,
        (Kind::Engineer, Kind::Mine) => Outcome::AttackerWins,
        (_, Kind::Mine) => {
            if rules.any_rank_clears_mine || rules.mine_removed_after_kill {
                Outcome::BothRemoved
            } else {
                Outcome::DefenderWins
            }
        }
        (a, d) => match (a as u8).cmp(&(d as u8)) {
            std::cmp::Ordering::Greater => Outcome::AttackerWins,
            std::cmp::Ordering::Less => Outcome::DefenderWins,
            std::cmp::Ordering::Equal => Outcome::BothRemoved,
        },
    }
}
