//! The search's tunable constants, each declared once in [`tunables!`]:
//! its name in the `SearchParams` option, its default for each rule set and
//! the values it accepts. From that one table come [`Params`], the
//! overrides of the option ([`ParamOverrides`]) and their parser.

use std::fmt;
use std::str::FromStr;

use crate::belief::sampler::STEPS_PER_WORLD;
use crate::rules::Mode;

/// How several search threads share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// One tree per thread, the roots merged at the end.
    Root,
    /// One tree shared behind a lock, with virtual loss.
    Tree,
}

impl FromStr for Parallel {
    type Err = ();

    fn from_str(s: &str) -> Result<Parallel, ()> {
        match s {
            "root" => Ok(Parallel::Root),
            "tree" => Ok(Parallel::Tree),
            _ => Err(()),
        }
    }
}

/// Why a `SearchParams` value was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ParamError {
    /// A word that is not `name=value`.
    NotNameValue(String),
    /// A name no tunable has.
    Unknown(String),
    /// A value the tunable does not accept.
    BadValue {
        /// The tunable's name.
        name: &'static str,
        /// The value given.
        value: String,
        /// What it accepts.
        expected: &'static str,
    },
}

/// What was expected instead (the option's error reads "expected ...").
impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::NotNameValue(w) => write!(f, "name=value words, not '{w}'"),
            ParamError::Unknown(k) => write!(f, "one of {}, not '{k}'", ParamOverrides::NAMES.join(", ")),
            ParamError::BadValue { name, value, expected } => write!(f, "{name}: {expected}, not '{value}'"),
        }
    }
}

impl std::error::Error for ParamError {}

/// Declares the tunables: for each, the field, its type, its name in
/// `SearchParams`, its defaults in `flip`, `open` and `classic`, a check of
/// the values it accepts with their description, and its documentation.
macro_rules! tunables {
    ($(
        $(#[doc = $doc:literal])*
        $field:ident: $ty:ty, $key:literal,
        [$flip:expr, $open:expr, $classic:expr],
        $check:expr, $expected:literal;
    )*) => {
        /// Tunable constants of the search.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $field: $ty,)*
        }

        impl Params {
            /// The constants tuned for a rule set.
            pub fn for_mode(mode: Mode) -> Params {
                match mode {
                    Mode::Flip => Params { $($field: $flip,)* },
                    Mode::Open => Params { $($field: $open,)* },
                    Mode::Classic => Params { $($field: $classic,)* },
                }
            }
        }

        /// Changes to the tuned [`Params`], from the `SearchParams` option:
        /// `name=value` words separated by spaces (for measuring what each
        /// technique adds).
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub struct ParamOverrides {
            $($(#[doc = $doc])* pub $field: Option<$ty>,)*
        }

        impl ParamOverrides {
            /// The names the option accepts, in declaration order.
            pub const NAMES: &[&str] = &[$($key),*];

            /// Parses the option's value (empty: no change).
            ///
            /// # Errors
            /// [`ParamError`] for the first word that is not understood.
            pub fn parse(text: &str) -> Result<ParamOverrides, ParamError> {
                let mut o = ParamOverrides::default();
                for word in text.split_whitespace() {
                    let (k, v) = word.split_once('=').ok_or_else(|| ParamError::NotNameValue(word.to_owned()))?;
                    match k {
                        $($key => {
                            let check: fn(&$ty) -> bool = $check;
                            let parsed = v.parse::<$ty>().ok().filter(check);
                            o.$field = Some(parsed.ok_or_else(|| ParamError::BadValue {
                                name: $key,
                                value: v.to_owned(),
                                expected: $expected,
                            })?);
                        })*
                        _ => return Err(ParamError::Unknown(k.to_owned())),
                    }
                }
                Ok(o)
            }

            /// `p` with the overrides applied.
            pub fn apply(&self, p: Params) -> Params {
                Params { $($field: self.$field.unwrap_or(p.$field),)* }
            }
        }
    };
}

tunables! {
    /// Exploration constant of PUCT (self-play at 3000 iterations a move:
    /// lower in `flip`, the flips' chance values being noisy; higher in
    /// `open`).
    cpuct: f32, "cpuct", [1.4, 2.5, 2.5], |x| x.is_finite() && *x >= 0.0, "a number >= 0";
    /// First-play urgency: an unvisited action is valued at the parent's
    /// value minus this (none in `flip`). In `classic`, against `expert` at
    /// 3000 iterations a move, 200 games a seed: 0.1 scored
    /// 69.5/73.5/76.0/69.2/76.2/69.8% at seeds 11-61 (72.4%) where 0.3
    /// scored 66.5/69.0/68.2/73.8/69.2/69.0% (69.3%); 0 scored 71.5% at
    /// the same seeds, 0.5 64.0% at seeds 11/21. Four players keep 0.3
    /// ([`FOUR_PLAYER_FPU`]).
    fpu_reduction: f32, "fpu", [0.0, 0.3, 0.1], |x| x.is_finite(), "a number";
    /// Use the priors (false: uniform priors).
    use_priors: bool, "priors", [true, true, true], |_| true, "true or false";
    /// Use the solver.
    solver: bool, "solver", [true, true, true], |_| true, "true or false";
    /// Plies of light playout before the static evaluation at a new leaf.
    /// In `flip` a 6-ply playout: at equal time (50 ms a move, 200 games)
    /// the static-only search scored about 41% against it; in `open`
    /// playouts changed nothing at equal iterations (49.2%), so they are
    /// not worth their cost there. In `classic`, a playout in the sampled
    /// world: against `expert` at 3000 iterations a move, 200 games a seed,
    /// 4 plies scored 66.5/67.2/66.2/72.8/68.5/67.2% at seeds 11-61
    /// (68.1%), where none scored 64.0/56.0/60.0/57.5/62.5/60.3% (60.0%);
    /// 2 plies 66.5/69.2/67.2/64.0% at seeds 11-41, 8 plies 66.5/68.0/65.2%
    /// at seeds 11-31.
    playout_plies: u32, "playout", [6, 0, 4], |x| *x <= 200, "a whole number up to 200";
    /// The light playout's policy: the best favourable capture with this
    /// probability, else a uniformly random action. In `classic` 0.9 since
    /// the session of 2026-12-07 (the ninth): against `expert` at 10000
    /// iterations a move, 200 games a seed, 80.0/80.0/84.3/83.0% at seeds
    /// 11-41 where 0.75 scored 76.0/77.5/76.2/81.0% (1: 77.5/80.7/75.7/77.7%;
    /// 0.5: 78.2/70.0% at seeds 11/21); at 100 ms a move, 400 games, 79.8%
    /// and 80.6% at the arena's seeds 1 and 2 where 0.75 scored 80.4% and
    /// 77.8%.
    playout_capture: f32, "playoutcapture", [0.75, 0.75, 0.9], |x| (0.0..=1.0).contains(x), "a number from 0 to 1";
    /// Weight of the flag race in the static evaluation (0: none): the
    /// danger to a flag the enemy knows, by the distance in actions of the
    /// enemy pieces able to take it (see `evaluate`).
    flag_race: f32, "race", [0.0, 0.0, 1.0], |x| x.is_finite() && *x >= 0.0, "a number >= 0";
    /// Share of the root's priors taken from the `expert` player's scores
    /// (0: none), the rest from the usual priors.
    expert_prior: f32, "expert", [0.0, 0.0, 1.0], |x| (0.0..=1.0).contains(x), "a number from 0 to 1";
    /// Temperature of the softmax over the expert's scores, centipawns,
    /// up to `tempvisits` root visits; beyond them it grows as
    /// `(visits / tempvisits) ^ tempgrowth` (in `classic` 100 cp to 3000
    /// visits, then the square root: 173 cp at 9000, 200 at 12000). Sharp
    /// priors are what a short search needs (at 3000 iterations against
    /// `expert`, seeds 11-41: 72.7% at 100 cp, 69.9% at 200), flatter ones
    /// leave a long search more of its own choice (12000 against 3000
    /// iterations in self-play, seed 11: 53.8% at 100 cp, 59.2% at 200,
    /// 63.2% growing). At 100 ms a move the growing temperature scored
    /// 78.3% against `expert` (200 cp: 78.9%, 100 cp: 77.1%) and 61.8%
    /// against itself at 25 ms (200 cp: 58.0%, 100 cp: 55.1%); an exponent
    /// of 1 did worse at 12000 against 3000 (57.5%) and at 10000 iterations
    /// against `expert` (69.8% against 76.0%, seed 11).
    expert_temp: f32, "experttemp", [100.0, 100.0, 100.0], |x| x.is_finite() && *x > 0.0, "a number > 0";
    /// `classic`: root visits up to which the expert's temperature is
    /// `experttemp`,
    temp_visits: f32, "tempvisits", [3000.0, 3000.0, 3000.0], |x| x.is_finite() && *x >= 1.0, "a number >= 1";
    /// and the exponent of its growth beyond them (0: it stays).
    temp_growth: f32, "tempgrowth", [0.0, 0.0, 0.5], |x| x.is_finite() && *x >= 0.0, "a number >= 0";
    /// `classic`: the root side's nodes within this many of its own moves
    /// below the root take the expert's priors once they reach
    /// `expertvisits` visits (0: only the root does; see
    /// `priors::DeepPriors`). Depth 1 at 20 visits scored 77.5/80.5% at
    /// seeds 11/21 against `expert` at 10000 iterations where 0 scored
    /// 76.0/75.8%, but at 100 ms a move 78.0% against `expert` (0: 78.3%)
    /// and 56.1% against itself at 25 ms (0: 61.8%), so it is off.
    expert_depth: u32, "expertdepth", [0, 0, 0], |x| *x <= 8, "a whole number up to 8";
    /// The visits at which such a node takes them.
    expert_visits: u32, "expertvisits", [20, 20, 20], |x| *x >= 1, "a whole number >= 1";
    /// `classic`: a multiple of the extra risk the `expert` charges a
    /// Major general, General or Marshal in its own attacks, in the root's
    /// priors (1: the player's own; 0: none). Against `expert` at 10000
    /// iterations a move, 200 games a seed: 2 scored 79.5/76.2% at seeds
    /// 11/21 where 1 scored 76.0/75.8%; 0 scored 71.2% at seed 11. At
    /// 100 ms a move 2 scored 75.2% (1: 74.6% the same day), so 1 stays.
    expert_caution: f32, "expertcaution", [1.0, 1.0, 1.0], |x| x.is_finite() && *x >= 0.0, "a number >= 0";
    /// `classic`: root actions the `expert` scores more than this many
    /// centipawns below its best are not searched (0: all are).
    expert_cut: f32, "expertcut", [0.0, 0.0, 0.0], |x| x.is_finite() && *x >= 0.0, "a number >= 0";
    /// Weights of the static evaluation's other terms (`evaluate::TERMS`,
    /// fitted with `arena tune`): the material,
    w_material: f32, "material", [1.0, 1.0, 1.0], |x| x.is_finite(), "a number";
    /// the engineers where only they take flags,
    w_engineers: f32, "engineers", [1.0, 1.0, 1.0], |x| x.is_finite(), "a number";
    /// the bombs left without a target,
    w_idle_bombs: f32, "idlebombs", [1.0, 1.0, 1.0], |x| x.is_finite(), "a number";
    /// the mine-breakers (Engineers and bombs) where a side's flag need
    /// not be taken by an Engineer and the enemy has landmines left
    /// (none left -300, one -100; on in `classic` since the session of
    /// 2026-12-07: 10000 iterations a move against `expert`, 200 games a
    /// seed, 76.0/77.5% at seeds 11/21 where 0 scored 72.3/77.8%; 100 ms a
    /// move, 400 games, 80.4% where 0 scored 77.8%),
    w_breachers: f32, "breachers", [0.0, 0.0, 1.0], |x| x.is_finite(), "a number";
    /// the best immediate gain of the side to move,
    w_own_threat: f32, "ownthreat", [0.6, 0.6, 0.6], |x| x.is_finite(), "a number";
    /// and that of its opponent, held against it.
    w_their_threat: f32, "theirthreat", [0.25, 0.25, 0.25], |x| x.is_finite(), "a number";
    /// `classic`: weight of the danger from the enemy's bombs to our
    /// Marshal once it has shown itself by winning a combat (in the history
    /// or in the iteration), by the nearest bomb's distance, none while it
    /// stands in a camp (0: off). With the camp rule, against `expert`, 1
    /// scored 77.8% at 100 ms a move (0: 74.9% and 74.6% on two days) and
    /// 76.2/80.0% at seeds 11/21 at 10000 iterations (0: 76.0/75.8%);
    /// without it, at 3000 iterations, no clear gain. 2 since the thirteenth
    /// session (2026-12-07): at 10000 iterations 78.1% over seeds 11-41 where 1
    /// scored 76.2%; at 100 ms 77.4% over the arena's seeds 1-2 where 1
    /// scored 75.6%; against itself at 25 ms, both sides with it, 63.2% and
    /// 61.6% at seeds 1-2 where 1 scored 59.4% and 59.6%; `greedy` 98.5%.
    exposed_risk: f32, "exposedrisk", [0.0, 0.0, 2.0], |x| x.is_finite() && *x >= 0.0, "a number >= 0";
    /// `classic`: share of iterations that draw our own unseen pieces as
    /// the enemy may believe them (`Belief::of_own_pieces`) and update only
    /// the enemy's statistics, so that its replies in the tree do not learn
    /// our true pieces (0: every iteration plays our true pieces). Against
    /// `expert` at 3000 iterations a move, 200 games a seed: 0.5 scored
    /// 60.0/58.3/61.0% (seeds 11/21/31) where 0 scored 64.0/56.0/60.0%,
    /// 0.8 61.5/49.5% (seeds 21/31): no gain, so it is off.
    own_view: f32, "ownview", [0.0, 0.0, 0.0], |x| (0.0..=1.0).contains(x), "a number from 0 to 1";
    /// `classic`: steps of the belief's Markov chain (swaps and rotations
    /// of the enemy's kinds) between the worlds of two iterations, as
    /// many as the sampler's own. 10 steps bought about 10% more
    /// iterations a second but scored 72.0/74.5/73.0/73.8% at seeds 11-41
    /// against `expert` at 10000 iterations a move, where 40 scored
    /// 76.0/75.8/76.5/72.2%; 100 steps scored 79.0/72.5/73.8/79.2%
    /// (within the noise) for about 28% fewer iterations a second.
    world_steps: u32, "worldsteps", [WORLD_STEPS, WORLD_STEPS, WORLD_STEPS], |x| (1..=10_000).contains(x), "a whole number from 1 to 10000";
    /// Four players only: what a drawn game costs the team searching, in
    /// [-1, 1] units (a draw counted as this much of a loss), and what the
    /// evaluation fades towards as the quiet limit nears. Against `greedy`
    /// at 3000 iterations a move, 40 games on the same deals: 0.3 scored
    /// 90.0% (8 draws), 0 86.2% (9 draws, 1 loss).
    contempt: f32, "contempt", [0.0, 0.3, 0.3], |x| (0.0..=1.0).contains(x), "a number from 0 to 1";
    /// Four players only: weight of each seat's pressure on its
    /// opponents' flags in the evaluation (0: none).
    pressure: f32, "pressure", [1.0, 1.0, 1.0], |x| x.is_finite() && *x >= 0.0, "a number >= 0";
    /// How several threads search (`flip` and `open`; `classic` always
    /// searches one tree per thread).
    parallel: Parallel, "parallel", [Parallel::Root, Parallel::Root, Parallel::Root], |_| true, "root or tree";
}

/// The sampler's chain steps between two worlds, as `worldsteps` takes them.
const WORLD_STEPS: u32 = STEPS_PER_WORLD as u32;

/// The first-play reduction of the four-player search (its tables were
/// measured with it; `classic`'s own moved to 0.1 without a four-player match).
const FOUR_PLAYER_FPU: f32 = 0.3;

impl Params {
    /// The constants of the four-player search under `mode`: the rule
    /// set's, but its own first-play reduction ([`FOUR_PLAYER_FPU`]).
    pub fn for_four_players(mode: Mode) -> Params {
        Params { fpu_reduction: FOUR_PLAYER_FPU, ..Params::for_mode(mode) }
    }
}

impl Default for Params {
    fn default() -> Params {
        Params::for_mode(Mode::Open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_params_override_only_what_they_name() {
        let tuned = Params::for_mode(Mode::Flip);
        assert_eq!(ParamOverrides::parse("").unwrap().apply(tuned), tuned);
        let p = ParamOverrides::parse("priors=false  cpuct=3").unwrap().apply(tuned);
        assert!(!p.use_priors && p.cpuct == 3.0);
        assert_eq!(
            (p.solver, p.fpu_reduction, p.playout_plies),
            (tuned.solver, tuned.fpu_reduction, tuned.playout_plies)
        );
        for bad in ["cpuct", "cpuct=x", "cpuct=-1", "solver=maybe", "depth=3", "playout=999", "parallel=both"] {
            assert!(ParamOverrides::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn every_tunable_can_be_set_by_its_name() {
        for name in ParamOverrides::NAMES {
            let value = match *name {
                "priors" | "solver" => "false",
                "parallel" => "tree",
                "expert" | "ownview" | "contempt" | "playoutcapture" => "0.5",
                _ => "3",
            };
            let o = ParamOverrides::parse(&format!("{name}={value}")).expect(name);
            assert_ne!(o, ParamOverrides::default(), "{name}");
        }
    }

    #[test]
    fn the_error_names_the_parameter_and_what_it_accepts() {
        let e = ParamOverrides::parse("cpuct=abc").unwrap_err().to_string();
        assert_eq!(e, "cpuct: a number >= 0, not 'abc'");
    }
}
