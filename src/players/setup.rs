//! Deployments for `go setup`. The `scored` generator draws many random
//! legal deployments, scores each with the function below, and plays one
//! drawn uniformly among the best tenth: a mixed strategy (every answer
//! differs, so a fixed setup cannot be exploited) biased towards what strong
//! players do. In most answers (`SEAL_SHARE`) the candidates first get the
//! three landmines on the links of the flag's headquarters: over 800
//! deployments of 400 recorded games between equal searches (1000
//! iterations a move), a side whose flag was sealed so lost 25% of its
//! games (36 deployments), with two mines there 46%, with one or none 55-58%.
//! The score, in points per feature, for the side deploying:
//!
//! - each landmine on a link of the flag's headquarters: +30 (the flag's
//!   guard); each landmine elsewhere on the last two ranks: +5;
//! - a landmine on the other headquarters: +12 (a decoy);
//! - an officer of rank 6 or more on a headquarters: −25 (it never moves);
//! - each bomb within two links of the flag: +12; on the railway: +6;
//! - Marshal and General on the railway: +10 each; on the back rank: −15 each;
//! - an Engineer on the front rank: −10; on the railway behind it: +5;
//! - each officer of rank 3 to 6 on the front rank: +5 (probes and guards);
//! - the Marshal on the front rank: −8 (first to be bombed).

use rand::RngExt;

use crate::board::Point;
use crate::board::topology::{ADJACENT, BACK_TWO_RANKS, FRONT_RANK, OWN_HQS, RAILWAY};
use crate::deployment::Deployment;
use crate::piece::{Colour, Kind};
use crate::random::Rng;

/// Random deployments scored per answer.
pub const CANDIDATES: usize = 200;
/// Share of the best candidates the answer is drawn from.
pub const TOP_SHARE: usize = 10;

/// The score of a deployment (see the module documentation).
pub fn score(d: &Deployment) -> f32 {
    let c = d.colour();
    let ci = c.index();
    let flag = d.pieces().find(|(_, p)| p.kind == Some(Kind::Flag)).map(|(p, _)| p);
    let mut s = 0.0;
    for (p, piece) in d.pieces() {
        let Some(k) = piece.kind else { continue };
        let on_hq = OWN_HQS[ci].contains(p);
        let near_flag = flag.is_some_and(|f| ADJACENT[f.index()].contains(p));
        let within_two = flag.is_some_and(|f| {
            ADJACENT[f.index()].contains(p) || ADJACENT[f.index()].into_iter().any(|q| ADJACENT[q.index()].contains(p))
        });
        let back_rank = back_rank(c, p);
        let front = FRONT_RANK[ci].contains(p);
        let rail = RAILWAY.contains(p);
        s += match k {
            Kind::Mine if on_hq => 12.0,
            Kind::Mine if near_flag => 30.0,
            Kind::Mine if BACK_TWO_RANKS[ci].contains(p) => 5.0,
            Kind::Bomb => (if within_two { 12.0 } else { 0.0 }) + if rail { 6.0 } else { 0.0 },
            Kind::Marshal | Kind::General => {
                (if rail { 10.0 } else { 0.0 })
                    + (if back_rank { -15.0 } else { 0.0 })
                    + (if on_hq { -25.0 } else { 0.0 })
                    + (if k == Kind::Marshal && front { -8.0 } else { 0.0 })
            }
            Kind::Engineer => (if front { -10.0 } else { 0.0 }) + if rail && !front { 5.0 } else { 0.0 },
            _ => {
                let r = k.rank().unwrap_or(0);
                (if on_hq && r >= 6 { -25.0 } else { 0.0 }) + if front && (3..=6).contains(&r) { 5.0 } else { 0.0 }
            }
        };
    }
    s
}

fn back_rank(c: Colour, p: Point) -> bool {
    p.rank() == if c == Colour::Red { 0 } else { 11 }
}

/// Share of answers whose candidates all have the flag sealed by mines.
pub const SEAL_SHARE: f64 = 0.85;

/// `d` with its three landmines moved onto the links of the flag's
/// headquarters (the pieces there take the mines' places).
pub fn sealed(d: &Deployment, rng: &mut Rng) -> Deployment {
    let Some(flag) = d.pieces().find(|(_, p)| p.kind == Some(Kind::Flag)).map(|(p, _)| p) else {
        return d.clone();
    };
    let guards = ADJACENT[flag.index()] & Deployment::points(d.colour());
    let mut out = d.clone();
    for g in guards {
        if out.kind_at(g) == Some(Kind::Mine) {
            continue;
        }
        let spare: Vec<Point> = out
            .pieces()
            .filter(|(p, pc)| pc.kind == Some(Kind::Mine) && !guards.contains(*p))
            .map(|(p, _)| p)
            .collect();
        if spare.is_empty() {
            break;
        }
        let m = spare[rng.random_range(0..spare.len())];
        if let Some(next) = out.swapped(g, m) {
            out = next;
        }
    }
    out
}

/// A deployment drawn among the best-scoring tenth of [`CANDIDATES`]
/// random legal ones; in [`SEAL_SHARE`] of the answers every candidate has
/// its flag sealed by the three mines first.
pub fn scored(colour: Colour, rng: &mut Rng) -> Deployment {
    let seal = rng.random_bool(SEAL_SHARE);
    let mut cands: Vec<(f32, Deployment)> = (0..CANDIDATES)
        .map(|_| {
            let mut d = Deployment::random(colour, rng);
            if seal {
                d = sealed(&d, rng);
            }
            (score(&d), d)
        })
        .collect();
    cands.sort_by(|a, b| b.0.total_cmp(&a.0));
    let top = (CANDIDATES / TOP_SHARE).max(1);
    let i = rng.random_range(0..top);
    cands.swap_remove(i).1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::rng;

    #[test]
    fn scored_deployments_are_legal_varied_and_better_than_random() {
        let mut r = rng(3);
        let mut seen = std::collections::HashSet::new();
        let (mut scored_total, mut random_total) = (0.0, 0.0);
        for c in Colour::BOTH {
            for _ in 0..50 {
                let d = scored(c, &mut r);
                d.check().expect("legal");
                scored_total += score(&d);
                random_total += score(&Deployment::random(c, &mut r));
                seen.insert(d.to_string());
            }
        }
        assert_eq!(seen.len(), 100, "every answer differs");
        assert!(scored_total > random_total + 100.0 * 20.0, "{scored_total} vs {random_total}");
    }

    #[test]
    fn sealing_puts_the_three_mines_around_the_flag() {
        let mut r = rng(5);
        for c in Colour::BOTH {
            for _ in 0..50 {
                let d = sealed(&Deployment::random(c, &mut r), &mut r);
                d.check().expect("legal");
                let flag = d.pieces().find(|(_, p)| p.kind == Some(Kind::Flag)).unwrap().0;
                let guards = ADJACENT[flag.index()] & Deployment::points(c);
                assert_eq!(guards.count(), 3);
                assert!(guards.into_iter().all(|g| d.kind_at(g) == Some(Kind::Mine)), "{d}");
            }
        }
    }

    #[test]
    fn the_score_rewards_a_guarded_flag() {
        let guarded = crate::notation::parse_deployment(
            "r5r3r7r4r6/r51r31r7/r2r21r2r1/r31r41r8/r9r1rMr6r1/rMrFrMrBrB",
            Colour::Red,
        )
        .expect("legal");
        // The same with the mine on a1 swapped for the Engineer on e2.
        let open = crate::notation::parse_deployment(
            "r5r3r7r4r6/r51r31r7/r2r21r2r1/r31r41r8/r9r1rMr6rM/r1rFrMrBrB",
            Colour::Red,
        )
        .expect("legal");
        assert!(score(&guarded) > score(&open));
        assert!(score(&guarded) >= 60.0);
    }
}
