//! Match statistics: score, Elo difference with a 95% interval (from the
//! trinomial game results or the pentanomial game-pair results), the
//! likelihood of superiority, and a sequential probability ratio test over
//! game pairs.
//!
//! All scores are from the first engine's side. Elo is the logistic
//! difference `-400 log10(1/s - 1)`; the interval is the normal
//! approximation `s ± 1.96 σ/√n` mapped through it.

use std::fmt;
use std::str::FromStr;

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Complete game pairs before the SPRT may stop a match (decision: the
/// normal approximation of the LLR is poor on a handful of pairs).
pub const SPRT_MIN_PAIRS: u64 = 10;

/// The logistic Elo difference of an expected score (infinite at 0 and 1).
pub fn elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns -0 into 0.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// The expected score of an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

/// Likelihood of superiority: the probability that the first engine is
/// the stronger, from wins and losses (draws carry no information).
pub fn los(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((wins as f64 - losses as f64) / (2.0 * (wins + losses) as f64).sqrt()))
}

/// Mean, variance (per observation) and total weight of a discrete
/// distribution given as (value, count) pairs.
fn moments(dist: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    let n: f64 = dist.iter().map(|(_, c)| c).sum();
    if n <= 0.0 {
        return None;
    }
    let mean = dist.iter().map(|(x, c)| x * c).sum::<f64>() / n;
    let var = dist.iter().map(|(x, c)| c * (x - mean).powi(2)).sum::<f64>() / n;
    Some((mean, var, n))
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct EloInterval {
    /// The score the estimate comes from.
    pub score: f64,
    /// Lower end of the score's interval (at least 0).
    pub score_lo: f64,
    /// Upper end of the score's interval (at most 1).
    pub score_hi: f64,
    /// Elo difference.
    pub elo: f64,
    /// Lower end of the interval.
    pub lo: f64,
    /// Upper end of the interval.
    pub hi: f64,
}

impl EloInterval {
    fn from_dist(dist: &[(f64, f64)]) -> Option<EloInterval> {
        let (mean, var, n) = moments(dist)?;
        let half = Z95 * (var / n).sqrt();
        let (score_lo, score_hi) = ((mean - half).max(0.0), (mean + half).min(1.0));
        Some(EloInterval { score: mean, score_lo, score_hi, elo: elo(mean), lo: elo(score_lo), hi: elo(score_hi) })
    }

    /// Half the width of the interval, in Elo (infinite when an end is).
    pub fn margin(&self) -> f64 {
        (self.hi - self.lo) / 2.0
    }
}

impl fmt::Display for EloInterval {
    /// `+147.2 ± 268.7`; `+919.5 [+767.8, +inf]` when an end of the
    /// interval is infinite; `+inf` when the score is 1.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.elo.is_infinite() {
            return f.write_str(if self.elo > 0.0 { "+inf" } else { "-inf" });
        }
        if self.margin().is_finite() {
            write!(f, "{:+.1} ± {:.1}", self.elo, self.margin())
        } else {
            write!(f, "{:+.1} [{:+.1}, {:+.1}]", self.elo, self.lo, self.hi)
        }
    }
}

/// The first engine's game results and game-pair results.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Complete pairs by their total score 0, 1/2, 1, 3/2, 2.
    pub penta: [u64; 5],
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Complete pairs counted.
    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// Adds one game: `points` is 0, 1 (draw) or 2 half-points.
    pub fn add_game(&mut self, half_points: u8) {
        match half_points {
            0 => self.losses += 1,
            1 => self.draws += 1,
            _ => self.wins += 1,
        }
    }

    /// Adds a complete pair with its total in half-points (0..=4).
    pub fn add_pair(&mut self, half_points: u8) {
        self.penta[usize::from(half_points.min(4))] += 1;
    }

    /// The score, 0 to 1.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }

    /// Elo from the game results (trinomial model).
    pub fn elo_trinomial(&self) -> Option<EloInterval> {
        EloInterval::from_dist(&[(1.0, self.wins as f64), (0.5, self.draws as f64), (0.0, self.losses as f64)])
    }

    /// Elo from the pair results (pentanomial model): the pairs of a
    /// match share deals or seeds, so their two games are not independent.
    pub fn elo_pentanomial(&self) -> Option<EloInterval> {
        EloInterval::from_dist(&penta_dist(&self.penta, 0.0))
    }

    /// Elo from pairs where there are any, from games otherwise.
    pub fn elo(&self) -> Option<(EloInterval, &'static str)> {
        match self.elo_pentanomial() {
            Some(e) => Some((e, "pentanomial")),
            None => self.elo_trinomial().map(|e| (e, "trinomial")),
        }
    }

    /// Likelihood of superiority.
    pub fn los(&self) -> f64 {
        los(self.wins, self.losses)
    }
}

/// The pentanomial counts as (pair score / 2, count), empty bins raised to
/// `floor`.
fn penta_dist(penta: &[u64; 5], floor: f64) -> [(f64, f64); 5] {
    std::array::from_fn(|i| (i as f64 / 4.0, (penta[i] as f64).max(floor)))
}

/// Which hypothesis an SPRT accepted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// H0: the difference is `elo0` (or less).
    H0,
    /// H1: the difference is `elo1` (or more).
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
        })
    }
}

/// A sequential probability ratio test of `elo0` against `elo1` (logistic
/// Elo) over game pairs, with the normal approximation of the pentanomial
/// log-likelihood ratio: `LLR = N (s1 - s0)(2 mean - s0 - s1) / (2 var)`,
/// empty bins counted as 0.001 pairs (as fishtest regularizes).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

impl Sprt {
    /// The lower and upper LLR bounds: `ln(β/(1-α))` and `ln((1-β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of the pair results.
    pub fn llr(&self, penta: &[u64; 5]) -> f64 {
        let Some((mean, var, n)) = moments(&penta_dist(penta, 1e-3)) else { return 0.0 };
        let (s0, s1) = (score_of(self.elo0), score_of(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The verdict, once there is one (and at least [`SPRT_MIN_PAIRS`] pairs).
    pub fn verdict(&self, penta: &[u64; 5]) -> Option<Verdict> {
        if penta.iter().sum::<u64>() < SPRT_MIN_PAIRS {
            return None;
        }
        let llr = self.llr(penta);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        }
    }
}

impl FromStr for Sprt {
    type Err = String;

    /// `elo0=0 elo1=10 alpha=0.05 beta=0.05` (commas or spaces; alpha and
    /// beta default to 0.05).
    fn from_str(s: &str) -> Result<Sprt, String> {
        let mut t = Sprt { elo0: f64::NAN, elo1: f64::NAN, alpha: 0.05, beta: 0.05 };
        for part in s.split([' ', ',']).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| format!("sprt: '{part}' is not key=value"))?;
            let v: f64 = v.parse().map_err(|_| format!("sprt: bad number '{v}'"))?;
            match k {
                "elo0" => t.elo0 = v,
                "elo1" => t.elo1 = v,
                "alpha" => t.alpha = v,
                "beta" => t.beta = v,
                _ => return Err(format!("sprt: unknown key '{k}' (elo0, elo1, alpha, beta)")),
            }
        }
        if t.elo0.is_nan() || t.elo1.is_nan() || t.elo0 >= t.elo1 {
            return Err("sprt: needs elo0 < elo1".to_owned());
        }
        let rate = |p: f64| p > 0.0 && p < 0.5;
        if !rate(t.alpha) || !rate(t.beta) {
            return Err("sprt: alpha and beta must lie between 0 and 0.5".to_owned());
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo(0.75), 190.848, 1e-3)); // 400 log10(3)
        assert!(close(elo(0.5), 0.0, 1e-12));
        assert!(close(elo(0.25), -190.848, 1e-3));
        assert_eq!(elo(1.0), f64::INFINITY);
        assert!(close(score_of(elo(0.6)), 0.6, 1e-12));
    }

    #[test]
    fn erf_and_los() {
        assert!(close(erf(1.0), 0.842_700_8, 2e-7));
        assert!(close(erf(-0.5), -0.520_499_9, 2e-7));
        // 6 wins, 2 losses: 0.5 (1 + erf(4 / sqrt(16))) = 0.5 (1 + erf(1)).
        assert!(close(los(6, 2), 0.921_350_4, 1e-6));
        assert_eq!(los(0, 0), 0.5);
    }

    #[test]
    fn trinomial_interval_by_hand() {
        // 6-2-2: score 0.7, variance (6·0.09 + 2·0.04 + 2·0.49)/10 = 0.16,
        // standard error sqrt(0.016) = 0.126491, interval 0.452082 .. 0.947918.
        let t = Tally { wins: 6, draws: 2, losses: 2, penta: [0; 5] };
        let e = t.elo_trinomial().unwrap();
        assert!(close(e.score, 0.7, 1e-12));
        assert!(close(e.elo, 147.19, 0.01), "{e:?}");
        assert!(close(e.lo, -33.40, 0.01), "{e:?}");
        assert!(close(e.hi, 504.03, 0.05), "{e:?}");
        assert!(close(e.score_lo, 0.452_082, 1e-6) && close(e.score_hi, 0.947_918, 1e-6), "{e:?}");
        assert_eq!(t.elo().unwrap().1, "trinomial");
    }

    #[test]
    fn pentanomial_interval_by_hand() {
        // Pairs 0, 1/2, 1, 3/2, 2 seen 1, 2, 4, 2, 1 times: mean 0.5, variance
        // (0.25 + 2·0.0625 + 2·0.0625 + 0.25)/10 = 0.075, half width
        // 1.96·sqrt(0.0075) = 0.169738: Elo 0 ± 122.8.
        let t = Tally { penta: [1, 2, 4, 2, 1], ..Tally::default() };
        let (e, model) = t.elo().unwrap();
        assert_eq!(model, "pentanomial");
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.hi, 122.818, 1e-3), "{e:?}");
        assert!(close(e.lo, -122.818, 1e-3), "{e:?}");
        assert_eq!(e.to_string(), "+0.0 ± 122.8");
        let lopsided = Tally { penta: [0, 0, 2, 0, 198], ..Tally::default() };
        let e = lopsided.elo_pentanomial().unwrap();
        assert!(e.hi.is_infinite() && e.lo.is_finite());
        assert!(e.to_string().ends_with(", +inf]"), "{e}");
    }

    #[test]
    fn sprt_llr_by_hand() {
        let sprt: Sprt = "elo0=0 elo1=10 alpha=0.05 beta=0.05".parse().unwrap();
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        // Mean 0.5, variance 0.075, N 10: LLR = 10·d·(−d)/0.15 with
        // d = s1 − 0.5 = 0.014388: −0.013801.
        let llr = sprt.llr(&[1, 2, 4, 2, 1]);
        assert!(close(llr, -0.013_801, 1e-5), "{llr}");
        assert_eq!(sprt.verdict(&[1, 2, 4, 2, 1]), None);
        // Twenty pairs won 2-0 decide for H1; lost ones for H0; too few pairs decide nothing.
        assert_eq!(sprt.verdict(&[0, 0, 0, 0, 20]), Some(Verdict::H1));
        assert_eq!(sprt.verdict(&[20, 0, 0, 0, 0]), Some(Verdict::H0));
        assert_eq!(sprt.verdict(&[0, 0, 0, 0, 3]), None);
        assert!("elo0=10 elo1=0".parse::<Sprt>().is_err());
        assert!("elo0=0 elo1=5 gamma=1".parse::<Sprt>().is_err());
    }

    #[test]
    fn tally_counts() {
        let mut t = Tally::default();
        for h in [2, 1, 0, 2] {
            t.add_game(h);
        }
        t.add_pair(3);
        t.add_pair(2);
        assert_eq!((t.wins, t.draws, t.losses, t.games(), t.pairs()), (2, 1, 1, 4, 2));
        assert!(close(t.score(), 0.625, 1e-12));
        assert_eq!(t.penta, [0, 0, 1, 1, 0]);
    }
}
