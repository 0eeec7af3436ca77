//! Deployments: one side's 25 pieces on the 25 non-camp points of its half
//! (RULES.md §4.2), their legality, and uniform random legal deployments.

use std::fmt;

use rand::{Rng, RngExt};

use crate::board::topology::{BACK_TWO_RANKS, CAMPS, FRONT_RANK, HALVES, NUM_POINTS, OWN_HQS};
use crate::board::{Bitboard, Point};
use crate::piece::{ARMY, Colour, Kind, NUM_KINDS, Piece};

/// One side's starting placement.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Deployment {
    colour: Colour,
    kinds: [Option<Kind>; NUM_POINTS],
}

/// Why a deployment is illegal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DeploymentError {
    /// A piece of the other colour.
    WrongColour(Point),
    /// A piece of unknown kind.
    UnknownKind(Point),
    /// A point outside the side's half.
    OutsideHalf(Point),
    /// A camp is occupied (camps start empty).
    InCamp(Point),
    /// A non-camp point of the half is empty.
    Empty(Point),
    /// Wrong number of pieces of a kind.
    Count {
        /// The kind.
        kind: Kind,
        /// How many were placed.
        found: u8,
    },
    /// The flag is not on one of the side's two HQs.
    FlagOutsideHq(Point),
    /// A landmine outside the side's last two ranks.
    MineOutsideBackRanks(Point),
    /// A bomb on the side's front rank.
    BombOnFrontRank(Point),
}

impl fmt::Display for DeploymentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeploymentError::WrongColour(p) => write!(f, "{p}: a deployment holds one colour"),
            DeploymentError::UnknownKind(p) => write!(f, "{p}: a deployment names every piece"),
            DeploymentError::OutsideHalf(p) => write!(f, "{p} is outside the side's half"),
            DeploymentError::InCamp(p) => write!(f, "{p} is a camp: camps start empty"),
            DeploymentError::Empty(p) => write!(f, "{p} is empty: every non-camp point of the half is filled"),
            DeploymentError::Count { kind, found } => {
                write!(f, "{} {}s placed, a side has {}", found, kind.name(), kind.count())
            }
            DeploymentError::FlagOutsideHq(p) => write!(f, "flag at {p}: it must stand on a headquarters"),
            DeploymentError::MineOutsideBackRanks(p) => write!(f, "landmine at {p}: mines go on the last two ranks"),
            DeploymentError::BombOnFrontRank(p) => write!(f, "bomb at {p}: bombs never start on the front rank"),
        }
    }
}

impl std::error::Error for DeploymentError {}

impl Deployment {
    /// The 25 points a side deploys on.
    pub fn points(colour: Colour) -> Bitboard {
        HALVES[colour.index()] - CAMPS
    }

    /// Builds and checks a deployment from pieces on points.
    ///
    /// # Errors
    /// The first rule the placement breaks.
    pub fn new(colour: Colour, placed: &[(Point, Piece)]) -> Result<Deployment, DeploymentError> {
        let mut kinds = [None; NUM_POINTS];
        for &(p, pc) in placed {
            if pc.colour != colour {
                return Err(DeploymentError::WrongColour(p));
            }
            if !HALVES[colour.index()].contains(p) {
                return Err(DeploymentError::OutsideHalf(p));
            }
            if CAMPS.contains(p) {
                return Err(DeploymentError::InCamp(p));
            }
            kinds[p.index()] = Some(pc.kind.ok_or(DeploymentError::UnknownKind(p))?);
        }
        let d = Deployment { colour, kinds };
        d.check()?;
        Ok(d)
    }

    /// Checks every deployment rule.
    ///
    /// # Errors
    /// The first rule the placement breaks.
    pub fn check(&self) -> Result<(), DeploymentError> {
        let ci = self.colour.index();
        let mut counts = [0u8; NUM_KINDS];
        for p in Deployment::points(self.colour) {
            let Some(k) = self.kinds[p.index()] else {
                return Err(DeploymentError::Empty(p));
            };
            counts[k.index()] += 1;
            match k {
                Kind::Flag if !OWN_HQS[ci].contains(p) => return Err(DeploymentError::FlagOutsideHq(p)),
                Kind::Mine if !BACK_TWO_RANKS[ci].contains(p) => {
                    return Err(DeploymentError::MineOutsideBackRanks(p));
                }
                Kind::Bomb if FRONT_RANK[ci].contains(p) => return Err(DeploymentError::BombOnFrontRank(p)),
                _ => {}
            }
        }
        for k in Kind::ALL {
            if counts[k.index()] != k.count() {
                return Err(DeploymentError::Count { kind: k, found: counts[k.index()] });
            }
        }
        Ok(())
    }

    /// The side deploying.
    pub fn colour(&self) -> Colour {
        self.colour
    }

    /// The kind placed on `p`, if any.
    pub fn kind_at(&self, p: Point) -> Option<Kind> {
        self.kinds[p.index()]
    }

    /// The placed pieces in point order.
    pub fn pieces(&self) -> impl Iterator<Item = (Point, Piece)> + '_ {
        Deployment::points(self.colour)
            .into_iter()
            .filter_map(|p| self.kinds[p.index()].map(|k| (p, Piece::new(self.colour, k))))
    }

    /// This deployment with the pieces on `a` and `b` exchanged, if that
    /// is still legal.
    pub fn swapped(&self, a: Point, b: Point) -> Option<Deployment> {
        let mut d = self.clone();
        d.kinds.swap(a.index(), b.index());
        d.check().ok().map(|()| d)
    }

    /// A random legal deployment, drawn in stages: the flag on one of the two
    /// HQs, the mines among the free points of the last two ranks, the bombs
    /// among the free points off the front rank, then every other piece on a
    /// free point. Each stage is uniform and every legal deployment can come
    /// out, though not all with the same probability.
    pub fn random<R: Rng + ?Sized>(colour: Colour, rng: &mut R) -> Deployment {
        let ci = colour.index();
        let mut kinds = [None; NUM_POINTS];
        let mut free = Deployment::points(colour);
        let mut place = |kinds: &mut [Option<Kind>; NUM_POINTS], free: &mut Bitboard, allowed: Bitboard, k: Kind| {
            let choices = *free & allowed;
            let n = rng.random_range(0..choices.count());
            if let Some(p) = choices.nth(n) {
                kinds[p.index()] = Some(k);
                free.remove(p);
            }
        };
        place(&mut kinds, &mut free, OWN_HQS[ci], Kind::Flag);
        for _ in 0..Kind::Mine.count() {
            place(&mut kinds, &mut free, BACK_TWO_RANKS[ci], Kind::Mine);
        }
        for _ in 0..Kind::Bomb.count() {
            place(&mut kinds, &mut free, !FRONT_RANK[ci], Kind::Bomb);
        }
        for k in Kind::ALL {
            if matches!(k, Kind::Flag | Kind::Mine | Kind::Bomb) {
                continue;
            }
            for _ in 0..ARMY[k.index()] {
                place(&mut kinds, &mut free, Bitboard::ALL, k);
            }
        }
        Deployment { colour, kinds }
    }
}
