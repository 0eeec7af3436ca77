//! The engine's options: their announcement after `uli`, their values, and
//! `setoption` with range checks.

use std::fmt;

use crate::players::PlayerKind;
use crate::protocol::{OptionKind, OptionSpec};
use crate::rules::{Rules, Variant};
use crate::setting::{BadValue, Field, Setting, combo};
use crate::siguo::SiguoRules;

/// Largest `Seed` value.
pub const MAX_SEED: i64 = 4_294_967_295;

/// Current option values.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The preset last chosen with `Variant`.
    pub variant: Variant,
    /// The rules in force: the preset with any toggles applied since.
    pub rules: Rules,
    /// The four-player preset, when one is chosen (`Variant siguo` or
    /// `siguo-open`); `variant` and `rules` then keep the last two-player
    /// ones, unused.
    pub siguo: Option<SiguoVariant>,
    /// The four-player rules in force (used while `siguo` is chosen).
    pub siguo_rules: SiguoRules,
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
    /// Report this many best root actions, each as its own `info` line.
    pub multipv: usize,
    /// Print the belief about enemy pieces before `bestmove` (`classic`).
    pub show_belief: bool,
    /// Follow each progress report with one line per root action.
    pub show_root_stats: bool,
    /// What the search believes about hidden enemy pieces (`classic`).
    pub belief_model: BeliefModel,
    /// How `go setup` deploys.
    pub setup_style: SetupStyle,
    /// Weigh the belief by soft evidence (`classic`).
    pub soft_evidence: bool,
    /// Changes to the search's tuned constants (for experiments).
    pub search_params: crate::search::params::ParamOverrides,
    /// `search_params` as last set (`SearchParams`), empty for none.
    pub search_params_text: String,
}

/// What the search believes about hidden enemy pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BeliefModel {
    /// Every fact the history proves.
    Inference,
    /// Only the counts (a baseline for measuring the inference).
    Uniform,
}

impl BeliefModel {
    /// All models, in option order.
    pub const ALL: [BeliefModel; 2] = [BeliefModel::Inference, BeliefModel::Uniform];

    /// The option value.
    pub const fn name(self) -> &'static str {
        match self {
            BeliefModel::Inference => "inference",
            BeliefModel::Uniform => "uniform",
        }
    }
}

/// A four-player preset (RULES-4P.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiguoVariant {
    /// Hidden pieces, a referee (四暗).
    Siguo,
    /// Every piece visible (明棋).
    SiguoOpen,
}

impl SiguoVariant {
    /// Both presets, in option order.
    pub const ALL: [SiguoVariant; 2] = [SiguoVariant::Siguo, SiguoVariant::SiguoOpen];

    /// The `Variant` value.
    pub const fn name(self) -> &'static str {
        match self {
            SiguoVariant::Siguo => "siguo",
            SiguoVariant::SiguoOpen => "siguo-open",
        }
    }

    /// The settings of this preset.
    pub const fn rules(self) -> SiguoRules {
        match self {
            SiguoVariant::Siguo => SiguoRules::CLASSIC,
            SiguoVariant::SiguoOpen => SiguoRules::OPEN,
        }
    }
}

/// The `Variant` values: the two-player presets ([`Variant::ALL`]), then
/// the four-player ones ([`SiguoVariant::ALL`]).
const VARIANT_NAMES: [&str; 7] = ["flip", "classic", "open", "ccgc", "cs4500", "siguo", "siguo-open"];

/// How `go setup` deploys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupStyle {
    /// The best of many random deployments by a scoring function, drawn at
    /// random among the best (a mixed strategy).
    Scored,
    /// A uniform random legal deployment (a baseline).
    Random,
}

impl SetupStyle {
    /// All styles, in option order.
    pub const ALL: [SetupStyle; 2] = [SetupStyle::Scored, SetupStyle::Random];

    /// The option value.
    pub const fn name(self) -> &'static str {
        match self {
            SetupStyle::Scored => "scored",
            SetupStyle::Random => "random",
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            variant: Variant::Flip,
            rules: Rules::FLIP,
            siguo: None,
            siguo_rules: SiguoRules::CLASSIC,
            threads: 1,
            hash_mb: 64,
            seed: 0,
            move_overhead: 30,
            player: PlayerKind::Mcts,
            debug_log_file: String::new(),
            ponder: false,
            multipv: 1,
            show_belief: false,
            show_root_stats: false,
            belief_model: BeliefModel::Inference,
            setup_style: SetupStyle::Scored,
            soft_evidence: true,
            search_params: crate::search::params::ParamOverrides::default(),
            search_params_text: String::new(),
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
    BadValue(BadValue),
    /// A two-player rule option that the four-player variant in force
    /// does not have.
    NotForSiguo(&'static str, &'static str),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(n) => write!(f, "setoption: unknown option '{n}'"),
            OptionError::MissingValue(n) => write!(f, "setoption: option '{n}' needs a value"),
            OptionError::BadValue(b) => write!(f, "setoption: {b}"),
            OptionError::NotForSiguo(name, variant) => {
                write!(f, "setoption: {name} does not apply to the four-player variant {variant}")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// One announced option: either the engine's own setting, with what a
/// change means for the engine, or one of the [`Rules::SETTINGS`] applied
/// to the rules in force (a change resets the position).
enum Row {
    Own(&'static Setting<Options>, Effect),
    Rule(&'static Setting<Rules>),
    /// A four-player setting without a two-player namesake (a change
    /// resets the position).
    Siguo(&'static Setting<SiguoRules>),
}

/// The engine's own options announced before the rule settings.
const BEFORE_RULES: [(Setting<Options>, Effect); 8] = [
    (
        Setting {
            name: "Variant",
            field: Field::Combo {
                vars: &VARIANT_NAMES,
                get: |o| o.siguo.map_or(o.variant.name(), SiguoVariant::name),
                set: |o, i| match SiguoVariant::ALL.get(i.wrapping_sub(Variant::ALL.len())) {
                    Some(&v) => {
                        o.siguo = Some(v);
                        o.siguo_rules = v.rules();
                    }
                    None => {
                        o.variant = Variant::ALL[i];
                        o.rules = o.variant.rules();
                        o.siguo = None;
                    }
                },
            },
        },
        Effect::Rules,
    ),
    (
        Setting {
            name: "Threads",
            field: Field::Spin { min: 1, max: 256, get: |o| o.threads as i64, set: |o, v| o.threads = v as usize },
        },
        Effect::None,
    ),
    (
        Setting {
            name: "Hash",
            field: Field::Spin { min: 1, max: 65_536, get: |o| o.hash_mb as i64, set: |o, v| o.hash_mb = v as usize },
        },
        Effect::None,
    ),
    (
        Setting {
            name: "Seed",
            field: Field::Spin { min: 0, max: MAX_SEED, get: |o| o.seed as i64, set: |o, v| o.seed = v as u64 },
        },
        Effect::Seed,
    ),
    (
        Setting {
            name: "MoveOverhead",
            field: Field::Spin {
                min: 0,
                max: 10_000,
                get: |o| o.move_overhead as i64,
                set: |o, v| o.move_overhead = v as u64,
            },
        },
        Effect::None,
    ),
    (Setting { name: "Player", field: combo!(PlayerKind, player) }, Effect::None),
    (Setting { name: "Ponder", field: Field::Check { get: |o| o.ponder, set: |o, v| o.ponder = v } }, Effect::None),
    (
        Setting {
            name: "MultiPV",
            field: Field::Spin {
                min: 1,
                max: MAX_MULTIPV,
                get: |o| o.multipv as i64,
                set: |o, v| o.multipv = v as usize,
            },
        },
        Effect::None,
    ),
];

/// Largest `MultiPV` (a `flip` opening has about 50 root actions).
pub const MAX_MULTIPV: i64 = 256;

/// The engine's own options announced after the rule settings.
const AFTER_RULES: [(Setting<Options>, Effect); 7] = [
    (
        Setting { name: "ShowBelief", field: Field::Check { get: |o| o.show_belief, set: |o, v| o.show_belief = v } },
        Effect::None,
    ),
    (
        Setting {
            name: "ShowRootStats",
            field: Field::Check { get: |o| o.show_root_stats, set: |o, v| o.show_root_stats = v },
        },
        Effect::None,
    ),
    (Setting { name: "BeliefModel", field: combo!(BeliefModel, belief_model) }, Effect::None),
    (
        Setting {
            name: "SoftEvidence",
            field: Field::Check { get: |o| o.soft_evidence, set: |o, v| o.soft_evidence = v },
        },
        Effect::None,
    ),
    (Setting { name: "SetupStyle", field: combo!(SetupStyle, setup_style) }, Effect::None),
    (
        Setting {
            name: "DebugLogFile",
            field: Field::Str {
                get: |o| o.debug_log_file.clone(),
                set: |o, v| {
                    o.debug_log_file = v.to_owned();
                    Ok(())
                },
            },
        },
        Effect::LogFile,
    ),
    (
        Setting {
            name: "SearchParams",
            field: Field::Str {
                get: |o| o.search_params_text.clone(),
                set: |o, v| {
                    o.search_params = crate::search::params::ParamOverrides::parse(v).map_err(|e| e.to_string())?;
                    o.search_params_text = v.to_owned();
                    Ok(())
                },
            },
        },
        Effect::None,
    ),
];

/// Every option, in announcement order: the four-player settings that
/// have no two-player namesake come last.
fn rows() -> impl Iterator<Item = Row> {
    let own = |(s, e): &'static (Setting<Options>, Effect)| Row::Own(s, *e);
    let siguo_only = SiguoRules::SETTINGS.iter().filter(|s| !Rules::SETTINGS.iter().any(|r| r.name == s.name));
    BEFORE_RULES
        .iter()
        .map(own)
        .chain(Rules::SETTINGS.iter().map(Row::Rule))
        .chain(AFTER_RULES.iter().map(own))
        .chain(siguo_only.map(Row::Siguo))
}

impl Row {
    fn name(&self) -> &'static str {
        match self {
            Row::Own(s, _) => s.name,
            Row::Rule(s) => s.name,
            Row::Siguo(s) => s.name,
        }
    }

    /// The announcement, with the value in `o` as the default.
    fn spec(&self, o: &Options) -> OptionSpec {
        match *self {
            Row::Own(s, _) => spec(s, o),
            Row::Rule(s) => spec(s, &o.rules),
            Row::Siguo(s) => spec(s, &o.siguo_rules),
        }
    }

    /// Parses `raw` into `o`. While a four-player variant is chosen, a
    /// two-player rule option sets its four-player namesake, and one
    /// without a namesake is refused.
    fn apply(&self, o: &mut Options, raw: &str) -> Result<Effect, OptionError> {
        let result = match (self, o.siguo) {
            (&Row::Own(s, effect), _) => s.apply(o, raw).map(|()| effect),
            (Row::Rule(s), None) => s.apply(&mut o.rules, raw).map(|()| Effect::Rules),
            (Row::Rule(s), Some(v)) => match SiguoRules::SETTINGS.iter().find(|r| r.name == s.name) {
                Some(r) => r.apply(&mut o.siguo_rules, raw).map(|()| Effect::Rules),
                None => return Err(OptionError::NotForSiguo(s.name, v.name())),
            },
            (Row::Siguo(s), _) => s.apply(&mut o.siguo_rules, raw).map(|()| Effect::Rules),
        };
        result.map_err(OptionError::BadValue)
    }
}

/// The announcement of `s` with its value in `t` as the default.
fn spec<T>(s: &Setting<T>, t: &T) -> OptionSpec {
    let kind = match &s.field {
        Field::Check { get, .. } => OptionKind::Check { default: get(t) },
        Field::Spin { min, max, get, .. } => OptionKind::Spin { default: get(t), min: *min, max: *max },
        Field::Combo { vars, get, .. } => {
            OptionKind::Combo { default: get(t).to_owned(), vars: vars.iter().map(|v| (*v).to_owned()).collect() }
        }
        Field::Str { get, .. } => OptionKind::Str { default: get(t) },
    };
    OptionSpec { name: s.name.to_owned(), kind }
}

impl Options {
    /// The options as announced after `uli` (defaults, ranges).
    pub fn specs() -> Vec<OptionSpec> {
        let d = Options::default();
        rows().map(|r| r.spec(&d)).collect()
    }

    /// Applies `setoption name <name> value <value>`.
    ///
    /// # Errors
    /// [`OptionError`] for an unknown name or a value out of range; the
    /// options are then unchanged.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        let row = rows()
            .find(|r| r.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| OptionError::Unknown(name.to_owned()))?;
        let raw = value.ok_or_else(|| OptionError::MissingValue(row.name().to_owned()))?;
        row.apply(self, raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text `setoption` takes for an announced default.
    fn default_text(kind: &OptionKind) -> String {
        match kind {
            OptionKind::Check { default } => default.to_string(),
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Combo { default, .. } => default.clone(),
            OptionKind::Str { default } if default.is_empty() => "<empty>".to_owned(),
            OptionKind::Str { default } => default.clone(),
            OptionKind::Button => String::new(),
        }
    }

    #[test]
    fn every_announced_option_can_be_set_to_its_default() {
        let specs = Options::specs();
        assert_eq!(specs.len(), BEFORE_RULES.len() + Rules::SETTINGS.len() + AFTER_RULES.len() + 4);
        for spec in &specs {
            let mut o = Options::default();
            o.set(&spec.name, Some(&default_text(&spec.kind))).unwrap_or_else(|e| panic!("{}: {e}", spec.name));
            assert_eq!(o, Options::default(), "{}", spec.name);
            assert!(o.set(&spec.name.to_ascii_uppercase(), Some(&default_text(&spec.kind))).is_ok());
        }
    }

    #[test]
    fn every_value_in_range_round_trips() {
        for (row, spec) in rows().zip(Options::specs()) {
            let values: Vec<String> = match &spec.kind {
                OptionKind::Check { .. } => vec!["true".into(), "false".into()],
                OptionKind::Spin { min, max, .. } => vec![min.to_string(), max.to_string()],
                OptionKind::Combo { vars, .. } => vars.clone(),
                OptionKind::Str { .. } => vec!["<empty>".into()],
                OptionKind::Button => Vec::new(),
            };
            for v in values {
                let mut o = Options::default();
                o.set(&spec.name, Some(&v)).unwrap_or_else(|e| panic!("{}: {e}", spec.name));
                assert_eq!(default_text(&row.spec(&o).kind), v, "{}", spec.name);
            }
        }
    }

    #[test]
    fn effects_follow_the_option() {
        let mut o = Options::default();
        assert_eq!(o.set("seed", Some("5")), Ok(Effect::Seed));
        assert_eq!(o.set("WinnerLearnsLoser", Some("true")), Ok(Effect::Rules));
        assert!(o.rules.winner_learns_loser);
        assert_eq!(o.set("Variant", Some("CCGC")), Ok(Effect::Rules));
        assert_eq!((o.variant, o.rules), (Variant::Ccgc, Rules::CCGC));
        assert_eq!(o.set("DebugLogFile", Some(" <empty> ")), Ok(Effect::LogFile));
        assert_eq!(o.set("Threads", Some("3")), Ok(Effect::None));
        assert_eq!(o.threads, 3);
        assert!(matches!(o.set("SearchParams", Some("nonsense")), Err(OptionError::BadValue(_))));
        assert_eq!(o.search_params_text, "");
    }

    #[test]
    fn variant_names_are_the_presets_then_the_four_player_ones() {
        let two = Variant::ALL.map(Variant::name);
        let four = SiguoVariant::ALL.map(SiguoVariant::name);
        assert_eq!(VARIANT_NAMES[..5], two);
        assert_eq!(VARIANT_NAMES[5..], four);
    }

    #[test]
    fn four_player_variants_take_the_rule_options_they_have() {
        let mut o = Options::default();
        assert_eq!(o.set("Variant", Some("SIGUO")), Ok(Effect::Rules));
        assert_eq!((o.siguo, o.siguo_rules), (Some(SiguoVariant::Siguo), SiguoRules::CLASSIC));
        assert_eq!(o.siguo_rules.quiet_limit, 71);
        assert_eq!(o.set("QuietLimit", Some("30")), Ok(Effect::Rules));
        assert_eq!(o.set("firstseat", Some("n")), Ok(Effect::Rules));
        assert_eq!(o.set("PartnerVisible", Some("true")), Ok(Effect::Rules));
        assert_eq!(o.set("MarshalRevealsFlag", Some("false")), Ok(Effect::Rules));
        assert_eq!((o.siguo_rules.quiet_limit, o.siguo_rules.first_seat), (30, crate::siguo::Seat::North));
        assert!(o.siguo_rules.partner_visible && !o.siguo_rules.base.marshal_reveals_flag);
        assert_eq!(o.rules, Rules::FLIP, "the two-player rules are left alone");
        assert_eq!(o.set("QuietResult", Some("draw")), Err(OptionError::NotForSiguo("QuietResult", "siguo")));
        assert!(matches!(o.set("BombTiesFlag", Some("true")), Err(OptionError::NotForSiguo(..))));
        assert_eq!(o.set("Variant", Some("siguo-open")), Ok(Effect::Rules));
        assert_eq!(o.siguo_rules, SiguoRules::OPEN);
        assert_eq!(o.set("Variant", Some("classic")), Ok(Effect::Rules));
        assert_eq!((o.siguo, o.rules), (None, Rules::CLASSIC));
        assert_eq!(o.set("QuietResult", Some("draw")), Ok(Effect::Rules));
    }
}
