//! Rule sets as data: a `Rules` value of independent settings, with the
//! presets `flip`, `classic`, `open` and `ccgc` (RULES.md §4).

use std::fmt;
use std::str::FromStr;

use crate::setting::{BadValue, Field, Setting, combo};

/// How pieces start and what each player sees.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Mode {
    /// 翻棋: all 50 pieces dealt face down; flip or move each turn.
    Flip,
    /// 暗棋: secret deployment; a referee judges attacks.
    Classic,
    /// 明棋: deployment, then everything visible.
    Open,
}

impl Mode {
    /// The name used in options and records.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Flip => "flip",
            Mode::Classic => "classic",
            Mode::Open => "open",
        }
    }
}

/// What happens when the quiet-ply limit is reached.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum QuietResult {
    /// The side with more pieces on the board wins; equal counts draw (`flip`).
    MorePieces,
    /// The game is drawn (`classic`, `open`).
    Draw,
    /// The side to move loses (the `ccgc` preset as first specified; the
    /// other reading of the CCGC 31-step rule, ADAPTERS.md §1.11 (b)).
    SideToMoveLoses,
    /// The side that made the last quiet ply, the one that reached the
    /// limit, loses: with `limit - 1` quiet plies behind, the side to move
    /// must attack or lose (`ccgc`: the 31-step rule as the existing CCGC
    /// engines read it, ADAPTERS.md §1.11 (a)).
    LastMoverLoses,
}

impl QuietResult {
    /// All values, in option order.
    pub const ALL: [QuietResult; 4] =
        [QuietResult::MorePieces, QuietResult::Draw, QuietResult::SideToMoveLoses, QuietResult::LastMoverLoses];

    /// The name used in options.
    pub const fn name(self) -> &'static str {
        match self {
            QuietResult::MorePieces => "morepieces",
            QuietResult::Draw => "draw",
            QuietResult::SideToMoveLoses => "moverloses",
            QuietResult::LastMoverLoses => "lastmoverloses",
        }
    }
}

/// The named presets.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// RULES.md §4.1.
    Flip,
    /// RULES.md §4.2.
    Classic,
    /// RULES.md §4.3.
    Open,
    /// `classic` with the CCGC platform's rules: a 31-ply quiet limit
    /// whose last quiet ply loses, a bomb and the flag both removed.
    Ccgc,
    /// `classic` with the NEU CS4500 referee's rules: any ranked piece and a
    /// mine both removed, a bomb and the flag both removed, no quiet limit.
    Cs4500,
}

impl Variant {
    /// All presets, in option order.
    pub const ALL: [Variant; 5] = [Variant::Flip, Variant::Classic, Variant::Open, Variant::Ccgc, Variant::Cs4500];

    /// The name used in options.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Flip => "flip",
            Variant::Classic => "classic",
            Variant::Open => "open",
            Variant::Ccgc => "ccgc",
            Variant::Cs4500 => "cs4500",
        }
    }

    /// The settings of this preset.
    pub const fn rules(self) -> Rules {
        match self {
            Variant::Flip => Rules::FLIP,
            Variant::Classic => Rules::CLASSIC,
            Variant::Open => Rules::OPEN,
            Variant::Ccgc => Rules::CCGC,
            Variant::Cs4500 => Rules::CS4500,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a variant.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown variant '{}' (expected flip, classic, open, ccgc or cs4500)", self.0)
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        Variant::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| UnknownVariant(s.to_owned()))
    }
}

/// The rules in force: independent settings, each of which can be changed
/// on its own (the house rules of RULES.md §4.4 are toggles here).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// How pieces start and what players see.
    pub mode: Mode,
    /// Only an Engineer may attack the flag (`flip`; the seed-001 house rule
    /// "flag capturable by any piece in flip" turns it off).
    pub flag_needs_engineer: bool,
    /// The flag may be attacked only once all three of its side's landmines
    /// are gone (`flip`).
    pub flag_needs_mines_cleared: bool,
    /// Bombs may attack landmines and the flag (seed 001 turns it off).
    pub bomb_attacks_mine_and_flag: bool,
    /// Any ranked piece that attacks a landmine dies and takes the mine with
    /// it (seed 001, "Einfache Minen"); the Engineer still clears it and lives.
    pub any_rank_clears_mine: bool,
    /// A landmine is removed after it destroys an attacker (seed 000).
    pub mine_removed_after_kill: bool,
    /// The winner of a refereed combat learns the loser's identity (seed 001).
    pub winner_learns_loser: bool,
    /// When a Marshal is removed the referee reveals its side's flag.
    pub marshal_reveals_flag: bool,
    /// A bomb attacking the flag removes both (`=`); the flag's owner still
    /// loses (the CCGC and CS4500 referees report it so, ADAPTERS.md §7 Q5).
    pub bomb_ties_flag: bool,
    /// Consecutive plies without a flip or a removal that end the game; 0 for none.
    pub quiet_limit: u16,
    /// The result when the quiet limit is reached.
    pub quiet_result: QuietResult,
}

impl Rules {
    /// `flip` (翻棋), RULES.md §4.1.
    pub const FLIP: Rules = Rules {
        mode: Mode::Flip,
        flag_needs_engineer: true,
        flag_needs_mines_cleared: true,
        bomb_attacks_mine_and_flag: true,
        any_rank_clears_mine: false,
        mine_removed_after_kill: false,
        winner_learns_loser: false,
        marshal_reveals_flag: false,
        bomb_ties_flag: false,
        quiet_limit: 120,
        quiet_result: QuietResult::MorePieces,
    };

    /// `classic` (暗棋 with a referee), RULES.md §4.2.
    pub const CLASSIC: Rules = Rules {
        mode: Mode::Classic,
        flag_needs_engineer: false,
        flag_needs_mines_cleared: false,
        bomb_attacks_mine_and_flag: true,
        any_rank_clears_mine: false,
        mine_removed_after_kill: false,
        winner_learns_loser: false,
        marshal_reveals_flag: true,
        bomb_ties_flag: false,
        quiet_limit: 120,
        quiet_result: QuietResult::Draw,
    };

    /// `open` (明棋): `classic` with everything visible, RULES.md §4.3.
    pub const OPEN: Rules = Rules { mode: Mode::Open, ..Rules::CLASSIC };

    /// `ccgc`: `classic` with the Chinese Computer Games Championship's
    /// rules (ADAPTERS.md §1.9, §1.11): 31 consecutive quiet plies and the
    /// player who made the 31st loses (reading (a) of §1.11; reading (b) is
    /// `QuietResult` `moverloses`), a bomb attacking the flag removes both.
    pub const CCGC: Rules =
        Rules { quiet_limit: 31, quiet_result: QuietResult::LastMoverLoses, bomb_ties_flag: true, ..Rules::CLASSIC };

    /// `cs4500`: `classic` with the NEU CS4500 referee's rules as its
    /// players implement them (ADAPTERS.md §3.7): any ranked piece attacking
    /// a landmine dies with it, a bomb attacking the flag removes both, no
    /// quiet limit.
    pub const CS4500: Rules =
        Rules { any_rank_clears_mine: true, bomb_ties_flag: true, quiet_limit: 0, ..Rules::CLASSIC };

    /// Whether pieces are deployed by the players (everything but `flip`).
    pub const fn has_deployment(&self) -> bool {
        !matches!(self.mode, Mode::Flip)
    }

    /// The preset these settings equal, if any.
    pub fn variant(&self) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.rules() == *self)
    }

    /// The settings that can be changed by name, in announcement order
    /// (the engine's rule options, the arena's `--rule`). [`Rules::mode`]
    /// is not among them: it comes with the preset.
    pub const SETTINGS: [Setting<Rules>; 10] = [
        Setting {
            name: "QuietLimit",
            field: Field::Spin {
                min: 0,
                max: 10_000,
                get: |r| i64::from(r.quiet_limit),
                set: |r, v| r.quiet_limit = v as u16,
            },
        },
        Setting { name: "QuietResult", field: combo!(QuietResult, quiet_result) },
        toggle("FlagNeedsEngineer", |r| r.flag_needs_engineer, |r, v| r.flag_needs_engineer = v),
        toggle("FlagNeedsMinesCleared", |r| r.flag_needs_mines_cleared, |r, v| r.flag_needs_mines_cleared = v),
        toggle("BombAttacksMineAndFlag", |r| r.bomb_attacks_mine_and_flag, |r, v| r.bomb_attacks_mine_and_flag = v),
        toggle("AnyRankClearsMine", |r| r.any_rank_clears_mine, |r, v| r.any_rank_clears_mine = v),
        toggle("MineRemovedAfterKill", |r| r.mine_removed_after_kill, |r, v| r.mine_removed_after_kill = v),
        toggle("WinnerLearnsLoser", |r| r.winner_learns_loser, |r, v| r.winner_learns_loser = v),
        toggle("MarshalRevealsFlag", |r| r.marshal_reveals_flag, |r, v| r.marshal_reveals_flag = v),
        toggle("BombTiesFlag", |r| r.bomb_ties_flag, |r, v| r.bomb_ties_flag = v),
    ];

    /// Sets the setting `name` (any case) from its text, as the engine's
    /// `setoption` would.
    ///
    /// # Errors
    /// [`RuleError`] for an unknown name or a bad value; the rules are then
    /// unchanged.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let setting = Rules::SETTINGS.iter().find(|s| s.is(name)).ok_or_else(|| RuleError::Unknown(name.to_owned()))?;
        setting.apply(self, value).map_err(RuleError::BadValue)
    }
}

const fn toggle(name: &'static str, get: fn(&Rules) -> bool, set: fn(&mut Rules, bool)) -> Setting<Rules> {
    Setting { name, field: Field::Check { get, set } }
}

/// Why [`Rules::set`] refused a setting.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RuleError {
    /// No rule setting of that name.
    Unknown(String),
    /// Not a valid value for the setting.
    BadValue(BadValue),
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::Unknown(n) => write!(f, "unknown rule '{n}'"),
            RuleError::BadValue(b) => b.fmt(f),
        }
    }
}

impl std::error::Error for RuleError {}

impl Default for Rules {
    fn default() -> Rules {
        Rules::FLIP
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_set_by_name_in_any_case() {
        let mut r = Rules::CLASSIC;
        r.set("winnerlearnsloser", "TRUE").unwrap();
        r.set("QuietLimit", " 31 ").unwrap();
        r.set("QuietResult", "LastMoverLoses").unwrap();
        r.set("bombtiesflag", "true").unwrap();
        assert!(r.winner_learns_loser);
        r.set("WinnerLearnsLoser", "false").unwrap();
        assert_eq!(r, Rules::CCGC);
        assert_eq!(r.variant(), Some(Variant::Ccgc));
    }

    #[test]
    fn bad_settings_are_refused_with_a_reason() {
        let mut r = Rules::FLIP;
        let e = r.set("NoSuchRule", "1").unwrap_err();
        assert_eq!(
            (e.to_string().as_str(), &e),
            ("unknown rule 'NoSuchRule'", &RuleError::Unknown("NoSuchRule".into()))
        );
        let e = r.set("quietlimit", "10001").unwrap_err();
        assert_eq!(e.to_string(), "bad value '10001' for QuietLimit (expected an integer from 0 to 10000)");
        let e = r.set("QuietResult", "never").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value 'never' for QuietResult (expected morepieces, draw, moverloses, lastmoverloses)"
        );
        assert_eq!(
            r.set("MarshalRevealsFlag", "1").unwrap_err().to_string(),
            "bad value '1' for MarshalRevealsFlag (expected true or false)"
        );
        assert_eq!(r, Rules::FLIP);
    }

    #[test]
    fn every_setting_round_trips_every_value() {
        for preset in Variant::ALL.map(Variant::rules) {
            for s in Rules::SETTINGS.iter() {
                let mut r = preset;
                r.set(s.name, &s.text(&preset)).unwrap();
                assert_eq!(r, preset, "{}", s.name);
                let values: Vec<String> = match &s.field {
                    Field::Check { .. } => vec!["true".into(), "false".into()],
                    Field::Spin { min, max, .. } => vec![min.to_string(), max.to_string()],
                    Field::Combo { vars, .. } => vars.iter().map(|v| (*v).to_owned()).collect(),
                    Field::Str { .. } => unreachable!("no text rules"),
                };
                for v in values {
                    r.set(s.name, &v).unwrap();
                    assert_eq!(s.text(&r), v, "{}", s.name);
                }
            }
        }
    }

    #[test]
    fn platform_presets_add_to_classic() {
        use crate::combat::combat;
        use crate::piece::Kind;
        assert_eq!(combat(&Rules::CCGC, Kind::Bomb, Kind::Flag, false), crate::Outcome::BothRemoved);
        assert_eq!(combat(&Rules::CS4500, Kind::Bomb, Kind::Flag, false), crate::Outcome::BothRemoved);
        assert_eq!(combat(&Rules::CLASSIC, Kind::Bomb, Kind::Flag, false), crate::Outcome::AttackerWins);
        assert_eq!(combat(&Rules::CS4500, Kind::Major, Kind::Mine, false), crate::Outcome::BothRemoved);
        assert_eq!(combat(&Rules::CCGC, Kind::Major, Kind::Mine, false), crate::Outcome::DefenderWins);
        assert_eq!(Rules::CS4500.quiet_limit, 0);
        assert_eq!("cs4500".parse::<Variant>(), Ok(Variant::Cs4500));
        // The new value and toggle are announced with the rest.
        let Field::Combo { vars, .. } = &Rules::SETTINGS[1].field else { panic!("QuietResult is a combo") };
        assert_eq!(vars.last(), Some(&"lastmoverloses"));
        assert!(Rules::SETTINGS.iter().any(|s| s.name == "BombTiesFlag"));
    }
}
