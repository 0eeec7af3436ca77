//! The search's constants: PUCT exploration, first-play urgency, the
//! switches of each technique, and how threads share the work.

use crate::rules::Mode;

/// Tunable constants of the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Exploration constant of PUCT.
    pub cpuct: f32,
    /// First-play urgency: an unvisited action is valued at the parent's
    /// value minus this.
    pub fpu_reduction: f32,
    /// Use the priors (false: uniform priors).
    pub use_priors: bool,
    /// Use the solver.
    pub solver: bool,
    /// Plies of light playout before the static evaluation at a new leaf.
    pub playout_plies: u32,
    /// How several threads search (`flip` and `open`; `classic` always
    /// searches one tree per thread).
    pub parallel: Parallel,
}

/// How several search threads share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallel {
    /// One tree per thread, the roots merged at the end.
    Root,
    /// One tree shared behind a lock, with virtual loss.
    Tree,
}

impl Default for Params {
    fn default() -> Params {
        Params::for_mode(Mode::Open)
    }
}

impl Params {
    /// The constants tuned for a rule set (self-play at 3000 iterations a
    /// move: in `flip` a lower exploration and no first-play reduction, the
    /// flips' chance values being noisy; in `open` more exploration). In
    /// `flip` a 6-ply light playout runs before the static evaluation: at
    /// equal time (50 ms a move, 200 games) the static-only search scored
    /// about 41% against it; in `open` playouts changed nothing at equal
    /// iterations (49.2%), so they are not worth their cost there.
    pub fn for_mode(mode: Mode) -> Params {
        let base = Params {
            cpuct: 2.5,
            fpu_reduction: 0.3,
            use_priors: true,
            solver: true,
            playout_plies: 0,
            parallel: Parallel::Root,
        };
        match mode {
            Mode::Flip => Params { cpuct: 1.4, fpu_reduction: 0.0, playout_plies: 6, ..base },
            Mode::Classic | Mode::Open => base,
        }
    }
}

/// Changes to the tuned [`Params`], from the `SearchParams` option: words
/// `cpuct=<f>`, `fpu=<f>`, `priors=<bool>`, `solver=<bool>`,
/// `playout=<plies>`, `parallel=root|tree`, separated by spaces (for
/// measuring what each technique adds).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ParamOverrides {
    cpuct: Option<f32>,
    fpu_reduction: Option<f32>,
    use_priors: Option<bool>,
    solver: Option<bool>,
    playout_plies: Option<u32>,
    parallel: Option<Parallel>,
}

impl ParamOverrides {
    /// Parses the option's value (empty: no change).
    ///
    /// # Errors
    /// A message naming the word that is not understood.
    pub fn parse(text: &str) -> Result<ParamOverrides, String> {
        let mut o = ParamOverrides::default();
        for word in text.split_whitespace() {
            let (k, v) = word.split_once('=').ok_or_else(|| format!("'{word}' is not name=value"))?;
            let bad = || format!("'{word}': bad value");
            match k {
                "cpuct" => o.cpuct = Some(v.parse().ok().filter(|x: &f32| x.is_finite() && *x >= 0.0).ok_or_else(bad)?),
                "fpu" => o.fpu_reduction = Some(v.parse().ok().filter(|x: &f32| x.is_finite()).ok_or_else(bad)?),
                "priors" => o.use_priors = Some(v.parse().map_err(|_| bad())?),
                "solver" => o.solver = Some(v.parse().map_err(|_| bad())?),
                "playout" => o.playout_plies = Some(v.parse().ok().filter(|x| *x <= 200).ok_or_else(bad)?),
                "parallel" => {
                    o.parallel = Some(match v {
                        "root" => Parallel::Root,
                        "tree" => Parallel::Tree,
                        _ => return Err(bad()),
                    });
                }
                _ => {
                    return Err(format!(
                        "unknown search parameter '{k}' (cpuct, fpu, priors, solver, playout, parallel)"
                    ));
                }
            }
        }
        Ok(o)
    }

    /// `p` with the overrides applied.
    pub fn apply(&self, p: Params) -> Params {
        Params {
            cpuct: self.cpuct.unwrap_or(p.cpuct),
            fpu_reduction: self.fpu_reduction.unwrap_or(p.fpu_reduction),
            use_priors: self.use_priors.unwrap_or(p.use_priors),
            solver: self.solver.unwrap_or(p.solver),
            playout_plies: self.playout_plies.unwrap_or(p.playout_plies),
            parallel: self.parallel.unwrap_or(p.parallel),
        }
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
        for bad in ["cpuct", "cpuct=x", "cpuct=-1", "solver=maybe", "depth=3", "playout=999"] {
            assert!(ParamOverrides::parse(bad).is_err(), "{bad}");
        }
    }
}
