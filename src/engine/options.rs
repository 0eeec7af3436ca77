//! The engine's options: their announcement after `uli`, their values, and
//! `setoption` with range checks.

use std::fmt;

use crate::players::PlayerKind;
use crate::protocol::{OptionKind, OptionSpec};
use crate::rules::{QuietResult, Rules, Variant};

/// Largest `Seed` value.
pub const MAX_SEED: i64 = 4_294_967_295;

/// Current option values.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The preset last chosen with `Variant`.
    pub variant: Variant,
    /// The rules in force: the preset with any toggles applied since.
    pub rules: Rules,
    /// Search threads.
    pub threads: usize,
    /// Search memory cap, MiB.
    pub hash_mb: usize,
    /// 0: seed from the clock; otherwise searches are reproducible.
    pub seed: u64,
    /// Milliseconds kept back per move.
    pub move_overhead: u64,
    /// Who plays behind `go`.
    pub player: PlayerKind,
    /// Copy of the whole exchange, or empty.
    pub debug_log_file: String,
    /// Whether the GUI may send `go ponder` (informative).
    pub ponder: bool,
    /// Print the belief about enemy pieces before `bestmove` (`classic`).
    pub show_belief: bool,
    /// What the search believes about hidden enemy pieces (`classic`).
    pub belief_model: BeliefModel,
    /// How `go setup` deploys.
    pub setup_style: SetupStyle,
    /// Weigh the belief by soft evidence (`classic`).
    pub soft_evidence: bool,
    /// Changes to the search's tuned constants (for experiments).
    pub search_params: crate::search::params::ParamOverrides,
}

/// What the search believes about hidden enemy pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BeliefModel {
    /// Every fact the history proves.
    Inference,
    /// Only the counts (a baseline for measuring the inference).
    Uniform,
}

/// How `go setup` deploys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupStyle {
    /// The best of many random deployments by a scoring function, drawn at
    /// random among the best (a mixed strategy).
    Scored,
    /// A uniform random legal deployment (a baseline).
    Random,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            variant: Variant::Flip,
            rules: Rules::FLIP,
            threads: 1,
            hash_mb: 64,
            seed: 0,
            move_overhead: 30,
            player: PlayerKind::Mcts,
            debug_log_file: String::new(),
            ponder: false,
            show_belief: false,
            belief_model: BeliefModel::Inference,
            setup_style: SetupStyle::Scored,
            soft_evidence: true,
            search_params: crate::search::params::ParamOverrides::default(),
        }
    }
}

/// What changed with a `setoption`, for the engine to act on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effect {
    /// Nothing beyond the stored value.
    None,
    /// The rules changed: the position goes back to the start.
    Rules,
    /// The log file changed.
    LogFile,
    /// The seed changed.
    Seed,
}

/// Why a `setoption` was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionError {
    /// No option of that name.
    Unknown(String),
    /// A value was required.
    MissingValue(String),
    /// Not a valid value.
    BadValue {
        /// Option name.
        name: String,
        /// The value.
        value: String,
        /// What is expected.
        expected: String,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "setoption: unknown option '{n}'"),
            OptionError::MissingValue(n) => write!(f, "setoption: option '{n}' needs a value"),
            OptionError::BadValue { name, value, expected } => {
                write!(f, "setoption: bad value '{value}' for {name} (expected {expected})")
            }
        }
    }
}

impl std::error::Error for OptionError {}

fn spin(name: &str, default: i64, min: i64, max: i64) -> OptionSpec {
    OptionSpec { name: name.into(), kind: OptionKind::Spin { default, min, max } }
}

fn check(name: &str, default: bool) -> OptionSpec {
    OptionSpec { name: name.into(), kind: OptionKind::Check { default } }
}

fn combo(name: &str, default: &str, vars: &[&str]) -> OptionSpec {
    OptionSpec {
        name: name.into(),
        kind: OptionKind::Combo { default: default.into(), vars: vars.iter().map(|v| (*v).to_owned()).collect() },
    }
}

/// The rule toggles: option name, getter and setter on [`Rules`].
type Toggle = (&'static str, fn(&Rules) -> bool, fn(&mut Rules, bool));

const TOGGLES: [Toggle; 7] = [
    ("FlagNeedsEngineer", |r| r.flag_needs_engineer, |r, v| r.flag_needs_engineer = v),
    ("FlagNeedsMinesCleared", |r| r.flag_needs_mines_cleared, |r, v| r.flag_needs_mines_cleared = v),
    ("BombAttacksMineAndFlag", |r| r.bomb_attacks_mine_and_flag, |r, v| r.bomb_attacks_mine_and_flag = v),
    ("AnyRankClearsMine", |r| r.any_rank_clears_mine, |r, v| r.any_rank_clears_mine = v),
    ("MineRemovedAfterKill", |r| r.mine_removed_after_kill, |r, v| r.mine_removed_after_kill = v),
    ("WinnerLearnsLoser", |r| r.winner_learns_loser, |r, v| r.winner_learns_loser = v),
    ("MarshalRevealsFlag", |r| r.marshal_reveals_flag, |r, v| r.marshal_reveals_flag = v),
];

impl Options {
    /// The options as announced after `uli` (defaults, ranges).
    pub fn specs() -> Vec<OptionSpec> {
        let d = Options::default();
        let variants: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        let players: Vec<&str> = PlayerKind::ALL.iter().map(|p| p.name()).collect();
        let results: Vec<&str> = QuietResult::ALL.iter().map(|q| q.name()).collect();
        let mut v = vec![
            combo("Variant", d.variant.name(), &variants),
            spin("Threads", d.threads as i64, 1, 256),
            spin("Hash", d.hash_mb as i64, 1, 65_536),
            spin("Seed", d.seed as i64, 0, MAX_SEED),
            spin("MoveOverhead", d.move_overhead as i64, 0, 10_000),
            combo("Player", d.player.name(), &players),
            check("Ponder", d.ponder),
            spin("QuietLimit", i64::from(d.rules.quiet_limit), 0, 10_000),
            combo("QuietResult", d.rules.quiet_result.name(), &results),
        ];
        for (name, get, _) in TOGGLES {
            v.push(check(name, get(&d.rules)));
        }
        v.push(check("ShowBelief", d.show_belief));
        v.push(combo("BeliefModel", "inference", &["inference", "uniform"]));
        v.push(check("SoftEvidence", d.soft_evidence));
        v.push(combo("SetupStyle", "scored", &["scored", "random"]));
        v.push(OptionSpec { name: "DebugLogFile".into(), kind: OptionKind::Str { default: String::new() } });
        v.push(OptionSpec { name: "SearchParams".into(), kind: OptionKind::Str { default: String::new() } });
        v
    }

    /// Applies `setoption name <name> value <value>`.
    ///
    /// # Errors
    /// [`OptionError`] for an unknown name or a value out of range; the
    /// options are then unchanged.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        let spec = Options::specs()
            .into_iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| OptionError::Unknown(name.to_owned()))?;
        let name = spec.name.as_str();
        let raw = value.ok_or_else(|| OptionError::MissingValue(name.to_owned()))?;
        let bad = |expected: String| OptionError::BadValue { name: name.to_owned(), value: raw.to_owned(), expected };
        match &spec.kind {
            OptionKind::Spin { min, max, .. } => {
                let v: i64 = raw.trim().parse().map_err(|_| bad(format!("an integer from {min} to {max}")))?;
                if v < *min || v > *max {
                    return Err(bad(format!("an integer from {min} to {max}")));
                }
                let v = v as u64;
                match name {
                    "Threads" => self.threads = v as usize,
                    "Hash" => self.hash_mb = v as usize,
                    "Seed" => {
                        self.seed = v;
                        return Ok(Effect::Seed);
                    }
                    "MoveOverhead" => self.move_overhead = v,
                    "QuietLimit" => {
                        self.rules.quiet_limit = v as u16;
                        return Ok(Effect::Rules);
                    }
                    _ => {}
                }
                Ok(Effect::None)
            }
            OptionKind::Check { .. } => {
                let v = match raw.trim().to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(bad("true or false".into())),
                };
                if let Some((_, _, setter)) = TOGGLES.iter().find(|(n, _, _)| *n == name) {
                    setter(&mut self.rules, v);
                    return Ok(Effect::Rules);
                }
                match name {
                    "Ponder" => self.ponder = v,
                    "ShowBelief" => self.show_belief = v,
                    "SoftEvidence" => self.soft_evidence = v,
                    _ => {}
                }
                Ok(Effect::None)
            }
            OptionKind::Combo { vars, .. } => {
                let v = raw.trim();
                let found = vars.iter().find(|x| x.eq_ignore_ascii_case(v)).ok_or_else(|| bad(vars.join(", ")))?;
                match name {
                    "Variant" => {
                        self.variant = found.parse().map_err(|_| bad(vars.join(", ")))?;
                        self.rules = self.variant.rules();
                        Ok(Effect::Rules)
                    }
                    "Player" => {
                        self.player = found.parse().map_err(|_| bad(vars.join(", ")))?;
                        Ok(Effect::None)
                    }
                    "BeliefModel" => {
                        self.belief_model =
                            if found == "uniform" { BeliefModel::Uniform } else { BeliefModel::Inference };
                        Ok(Effect::None)
                    }
                    "SetupStyle" => {
                        self.setup_style = if found == "random" { SetupStyle::Random } else { SetupStyle::Scored };
                        Ok(Effect::None)
                    }
                    "QuietResult" => {
                        self.rules.quiet_result = QuietResult::ALL
                            .into_iter()
                            .find(|q| q.name() == found)
                            .ok_or_else(|| bad(vars.join(", ")))?;
                        Ok(Effect::Rules)
                    }
                    _ => Ok(Effect::None),
                }
            }
            OptionKind::Str { .. } => {
                if name == "DebugLogFile" {
                    let v = raw.trim();
                    self.debug_log_file = if v == "<empty>" { String::new() } else { v.to_owned() };
                    return Ok(Effect::LogFile);
                }
                if name == "SearchParams" {
                    let v = raw.trim();
                    let v = if v == "<empty>" { "" } else { v };
                    self.search_params = crate::search::params::ParamOverrides::parse(v).map_err(bad)?;
                }
                Ok(Effect::None)
            }
            OptionKind::Button => Ok(Effect::None),
        }
    }
}
