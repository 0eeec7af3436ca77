//! Drawing complete worlds: an assignment of kinds to the enemy's 25
//! pieces in which every piece gets a kind it can be and every kind is used
//! exactly as often as the army has it. A first assignment comes from a
//! bipartite matching in random order (pieces against the 25 "slots" of the
//! army); after that a Markov chain of swaps between two pieces and
//! rotations among three, each kept only if every piece can take its new
//! kind, walks among all consistent assignments (Metropolis acceptance on
//! the soft-evidence weights, uniform without them).

use rand::{Rng as _, RngExt};

use super::{Belief, KindSet, has};
use crate::piece::{ARMY, Kind, NUM_KINDS, Piece};
use crate::position::Position;
use crate::random::Rng;

/// Chain steps between two worlds handed out.
pub const STEPS_PER_WORLD: usize = 40;

/// A sampler of worlds for one belief.
#[derive(Clone, Debug)]
pub struct WorldSampler {
    /// The kind of every piece of the belief now.
    assign: Vec<Kind>,
    /// The pieces that can be more than one kind: the chain's moves.
    free: Vec<usize>,
    /// The free pieces' possible kinds, weights and kinds now, in the order
    /// of `free` (the chain's steps read these, without going through
    /// `free`; `assign` is brought up to date after each walk).
    free_kinds: Vec<KindSet>,
    free_weights: Vec<[f32; NUM_KINDS]>,
    free_assign: Vec<Kind>,
}

/// Slots of the army: each kind as many times as the army has it.
fn army_slots() -> Vec<Kind> {
    Kind::ALL.into_iter().flat_map(|k| std::iter::repeat_n(k, usize::from(ARMY[k.index()]))).collect()
}

/// A perfect matching of pieces to slots respecting `kinds`, pieces and
/// candidate slots tried in random order (Kuhn's augmenting paths).
fn random_matching(kinds: &[KindSet], rng: &mut Rng) -> Option<Vec<Kind>> {
    let slots = army_slots();
    let n = kinds.len();
    if n != slots.len() {
        return None;
    }
    let mut slot_of_piece = vec![usize::MAX; n];
    let mut piece_of_slot = vec![usize::MAX; n];
    let mut order: Vec<usize> = (0..n).collect();
    shuffle(&mut order, rng);
    let mut slot_order: Vec<usize> = (0..n).collect();
    shuffle(&mut slot_order, rng);
    fn augment(
        p: usize,
        kinds: &[KindSet],
        slots: &[Kind],
        slot_order: &[usize],
        seen: &mut [bool],
        slot_of_piece: &mut [usize],
        piece_of_slot: &mut [usize],
    ) -> bool {
        for &s in slot_order {
            if seen[s] || !has(kinds[p], slots[s]) {
                continue;
            }
            seen[s] = true;
            let q = piece_of_slot[s];
            if q == usize::MAX || augment(q, kinds, slots, slot_order, seen, slot_of_piece, piece_of_slot) {
                slot_of_piece[p] = s;
                piece_of_slot[s] = p;
                return true;
            }
        }
        false
    }
    for &p in &order {
        let mut seen = vec![false; n];
        if !augment(p, kinds, &slots, &slot_order, &mut seen, &mut slot_of_piece, &mut piece_of_slot) {
            return None;
        }
    }
    Some(slot_of_piece.into_iter().map(|s| slots[s]).collect())
}

fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

impl WorldSampler {
    /// A sampler for `belief`, with soft-evidence `weights` per piece and
    /// kind (`None`: uniform). `None` if no consistent world exists even
    /// after setting aside every fact but the counts.
    pub fn new(belief: &Belief, weights: Option<Vec<[f32; NUM_KINDS]>>, rng: &mut Rng) -> Option<WorldSampler> {
        WorldSampler::from_kinds(belief.pieces.iter().map(|e| e.kinds).collect(), weights, rng)
    }

    /// A sampler for one army's pieces that can each be the kinds of
    /// `kinds` (one set per piece, 25 in all), weighted as in
    /// [`WorldSampler::new`].
    pub fn from_kinds(
        mut kinds: Vec<KindSet>,
        weights: Option<Vec<[f32; NUM_KINDS]>>,
        rng: &mut Rng,
    ) -> Option<WorldSampler> {
        let assign = match random_matching(&kinds, rng) {
            Some(a) => a,
            None => {
                // Contradictory facts: keep only the singletons (reveals).
                for k in &mut kinds {
                    if k.count_ones() > 1 {
                        *k = super::ALL_KINDS;
                    }
                }
                random_matching(&kinds, rng)?
            }
        };
        let weights = weights.unwrap_or_else(|| vec![[1.0; NUM_KINDS]; kinds.len()]);
        let free: Vec<usize> = (0..kinds.len()).filter(|&i| kinds[i].count_ones() > 1).collect();
        let free_kinds = free.iter().map(|&i| kinds[i]).collect();
        let free_weights = free.iter().map(|&i| weights[i]).collect();
        let free_assign = free.iter().map(|&i| assign[i]).collect();
        let mut s = WorldSampler { assign, free, free_kinds, free_weights, free_assign };
        s.walk(STEPS_PER_WORLD * 4, rng);
        Some(s)
    }

    /// The current assignment: a kind for each piece of the belief.
    pub fn assignment(&self) -> &[Kind] {
        &self.assign
    }

    /// Runs `steps` steps of the chain.
    pub fn walk(&mut self, steps: usize, rng: &mut Rng) {
        let n = self.free.len();
        if n < 2 {
            return;
        }
        let (kinds, weights, assign) = (&self.free_kinds[..n], &self.free_weights[..n], &mut self.free_assign[..n]);
        let weight = |i: usize, k: Kind| weights[i][k.index()];
        // Indices from 32-bit halves of one draw by multiply-shift (n is at
        // most 25: a bias below 1e-8), the rotation's quarter from the top
        // bits of a second draw and its third index from that draw's low half.
        let index = |bits: u64| (((bits & 0xffff_ffff) * n as u64) >> 32) as usize;
        for _ in 0..steps {
            let r = rng.next_u64();
            let (i, j) = (index(r), index(r >> 32));
            let (ki, kj) = (assign[i], assign[j]);
            let r = if n >= 3 { rng.next_u64() } else { u64::MAX };
            if r >> 62 == 0 {
                // Rotate i -> j -> l -> i.
                let l = index(r);
                let kl = assign[l];
                if i == j || j == l || i == l || !has(kinds[i], kl) || !has(kinds[j], ki) || !has(kinds[l], kj) {
                    continue;
                }
                let ratio = weight(i, kl) * weight(j, ki) * weight(l, kj)
                    / (weight(i, ki) * weight(j, kj) * weight(l, kl)).max(f32::MIN_POSITIVE);
                if ratio >= 1.0 || rng.random::<f32>() < ratio {
                    assign[i] = kl;
                    assign[j] = ki;
                    assign[l] = kj;
                }
                continue;
            }
            if ki == kj || !has(kinds[i], kj) || !has(kinds[j], ki) {
                continue;
            }
            let ratio = weight(i, kj) * weight(j, ki) / (weight(i, ki) * weight(j, kj)).max(f32::MIN_POSITIVE);
            if ratio >= 1.0 || rng.random::<f32>() < ratio {
                assign.swap(i, j);
            }
        }
        for (&p, &k) in self.free.iter().zip(assign.iter()) {
            self.assign[p] = k;
        }
    }

    /// Moves the chain on and returns the next assignment.
    pub fn next(&mut self, rng: &mut Rng) -> &[Kind] {
        self.walk(STEPS_PER_WORLD, rng);
        &self.assign
    }

    /// The full-knowledge position of the current assignment: `view` with
    /// every enemy piece of unknown kind named, and the removed enemy pieces
    /// recorded with their assigned kinds.
    pub fn world(&self, view: &Position, belief: &Belief) -> Position {
        let enemy = belief.viewer.opposite();
        let mut w = view.clone();
        for k in Kind::ALL {
            for _ in 0..w.removed_count(enemy, Some(k)) {
                w.forget_removed(Piece::new(enemy, k));
            }
        }
        for (e, &k) in belief.pieces.iter().zip(&self.assign) {
            let piece = Piece::new(enemy, k);
            match e.at {
                Some(p) => {
                    if w.kind_at(p).is_none() {
                        w.reveal(p, piece);
                    }
                }
                None => w.name_removed(piece),
            }
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::belief::{ALL_KINDS, only};

    /// The chain's worlds are uniform over the consistent assignments: a
    /// piece that can only be the Marshal or a General is each half the
    /// time, and an unconstrained piece a bomb 2 times in 24 (the other 24
    /// slots, two of them bombs, shared among the 24 other pieces).
    #[test]
    fn the_chain_draws_consistent_assignments_uniformly() {
        let mut kinds = vec![ALL_KINDS; 25];
        kinds[0] = only(Kind::Marshal) | only(Kind::General);
        let mut r = crate::random::rng(3);
        let mut s = WorldSampler::from_kinds(kinds.clone(), None, &mut r).expect("consistent");
        let n = 20_000;
        let (mut marshal, mut bomb) = (0, 0);
        for _ in 0..n {
            let a = s.next(&mut r);
            assert!(a.iter().zip(&kinds).all(|(&k, &set)| has(set, k)), "every piece a kind it can be");
            let mut counts = [0u8; NUM_KINDS];
            a.iter().for_each(|k| counts[k.index()] += 1);
            assert_eq!(counts, ARMY, "every kind as often as the army has it");
            marshal += usize::from(a[0] == Kind::Marshal);
            bomb += usize::from(a[7] == Kind::Bomb);
        }
        let (m, b) = (marshal as f64 / n as f64, bomb as f64 / n as f64);
        assert!((m - 0.5).abs() < 0.03, "Marshal share {m}");
        assert!((b - 2.0 / 24.0).abs() < 0.012, "bomb share {b}");
    }
}
