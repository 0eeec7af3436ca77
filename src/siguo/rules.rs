//! Four-player rule settings (RULES-4P.md §5): the two-player [`Rules`]
//! for everything RULES.md decides (mode, combat, mines, the flag, what an
//! attack reveals), plus the toggles of RULES-4P.md §5 rows 1, 4, 6, 7 and
//! 10, declared as named settings the way [`Rules::SETTINGS`] are so that a
//! protocol step can expose them as options.
//!
//! The two-player quiet limit and quiet result do not apply on four seats:
//! [`SiguoRules::quiet_limit`] (a draw, §5 row 7) replaces them.

use std::fmt;

use super::topology::Seat;
use crate::rules::{RuleError, Rules};
use crate::setting::{Field, Setting};

/// The four-player rules in force.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SiguoRules {
    /// Mode and combat settings shared with the two-player game.
    pub base: Rules,
    /// The seat that moves first (§5 row 1; `S`, forknay `N`). Turn order
    /// stays S, E, N, W from there.
    pub first_seat: Seat,
    /// Partners see each other's pieces (§5 row 6; off: 四暗). Used by
    /// [`super::Position::view`].
    pub partner_visible: bool,
    /// Consecutive plies without an attack after which the game is drawn;
    /// 0 for none (§5 row 7; 71, the QQ client). Skipped seats do not count.
    pub quiet_limit: u16,
    /// The very centre `Cb2` may be passed through but not stopped on
    /// (§5 row 4, forknay).
    pub centre_transit_only: bool,
    /// A piece may enter only the camps of its own arm (§5 row 10).
    pub own_camps_only: bool,
}

/// The default four-player quiet limit (RULES-4P.md §5 row 7).
pub const DEFAULT_QUIET_LIMIT: u16 = 71;

impl SiguoRules {
    /// The defaults of RULES-4P.md §5 over the two-player settings `base`.
    pub const fn with_base(base: Rules) -> SiguoRules {
        SiguoRules {
            base,
            first_seat: Seat::South,
            partner_visible: false,
            quiet_limit: DEFAULT_QUIET_LIMIT,
            centre_transit_only: false,
            own_camps_only: false,
        }
    }

    /// `classic` on four seats (secret deployment, a referee), §5 defaults.
    pub const CLASSIC: SiguoRules = SiguoRules::with_base(Rules::CLASSIC);

    /// `open` on four seats (everything visible), §5 defaults.
    pub const OPEN: SiguoRules = SiguoRules::with_base(Rules::OPEN);

    /// The settings that can be changed by name: the four-player toggles of
    /// RULES-4P.md §5, then the two-player ones that still make sense on
    /// four seats (combat, mines, the flag, what an attack reveals).
    pub const SETTINGS: [Setting<SiguoRules>; 12] = [
        Setting {
            name: "FirstSeat",
            field: Field::Combo {
                vars: &SEAT_NAMES,
                get: |r| SEAT_NAMES[r.first_seat.index()],
                set: |r, i| r.first_seat = Seat::from_index(i),
            },
        },
        toggle("PartnerVisible", |r| r.partner_visible, |r, v| r.partner_visible = v),
        Setting {
            name: "QuietLimit",
            field: Field::Spin {
                min: 0,
                max: 10_000,
                get: |r| i64::from(r.quiet_limit),
                set: |r, v| r.quiet_limit = u16::try_from(v).unwrap_or(u16::MAX),
            },
        },
        toggle("CentreTransitOnly", |r| r.centre_transit_only, |r, v| r.centre_transit_only = v),
        toggle("OwnCampsOnly", |r| r.own_camps_only, |r, v| r.own_camps_only = v),
        toggle("FlagNeedsEngineer", |r| r.base.flag_needs_engineer, |r, v| r.base.flag_needs_engineer = v),
        toggle(
            "FlagNeedsMinesCleared",
            |r| r.base.flag_needs_mines_cleared,
            |r, v| r.base.flag_needs_mines_cleared = v,
        ),
        toggle(
            "BombAttacksMineAndFlag",
            |r| r.base.bomb_attacks_mine_and_flag,
            |r, v| r.base.bomb_attacks_mine_and_flag = v,
        ),
        toggle("AnyRankClearsMine", |r| r.base.any_rank_clears_mine, |r, v| r.base.any_rank_clears_mine = v),
        toggle("MineRemovedAfterKill", |r| r.base.mine_removed_after_kill, |r, v| r.base.mine_removed_after_kill = v),
        toggle("WinnerLearnsLoser", |r| r.base.winner_learns_loser, |r, v| r.base.winner_learns_loser = v),
        toggle("MarshalRevealsFlag", |r| r.base.marshal_reveals_flag, |r, v| r.base.marshal_reveals_flag = v),
    ];

    /// Sets the setting `name` (any case) from its text.
    ///
    /// # Errors
    /// [`RuleError`] for an unknown name or a bad value; the rules are then
    /// unchanged.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let setting =
            SiguoRules::SETTINGS.iter().find(|s| s.is(name)).ok_or_else(|| RuleError::Unknown(name.to_owned()))?;
        setting.apply(self, value).map_err(RuleError::BadValue)
    }
}

const SEAT_NAMES: [&str; 4] = ["S", "E", "N", "W"];

const fn toggle(
    name: &'static str,
    get: fn(&SiguoRules) -> bool,
    set: fn(&mut SiguoRules, bool),
) -> Setting<SiguoRules> {
    Setting { name, field: Field::Check { get, set } }
}

impl From<Rules> for SiguoRules {
    /// `base` with the four-player defaults.
    fn from(base: Rules) -> SiguoRules {
        SiguoRules::with_base(base)
    }
}

impl Default for SiguoRules {
    fn default() -> SiguoRules {
        SiguoRules::CLASSIC
    }
}

impl fmt::Display for SiguoRules {
    /// Every setting as `Name=value`, space separated, the mode first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.base.mode.name())?;
        for s in &SiguoRules::SETTINGS {
            write!(f, " {}={}", s.name, s.text(self))?;
        }
        Ok(())
    }
}
