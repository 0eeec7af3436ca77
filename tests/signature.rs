//! The search's signatures: the node totals of `bench` (flip and open, the
//! tree search), of `bench classic` (the information-set search) and of
//! `bench siguo` (the four-player search). Each
//! changes only when search behaviour changes; a commit that changes one
//! on purpose updates it here and says so (Stockfish checks its bench on
//! every commit).

use luzhanqi::search::Control;
use luzhanqi::search::bench::{classic, run, siguo};

/// `bench`'s node total.
const BENCH_SIGNATURE: u64 = 126_400;

#[test]
fn bench_signature_is_pinned() {
    let mut lines = Vec::new();
    let (nodes, _) = run(&mut |l| lines.push(l), &Control::default());
    assert_eq!(nodes, BENCH_SIGNATURE, "search behaviour changed:\n{}", lines.join("\n"));
}

/// `bench classic`'s node total.
const CLASSIC_SIGNATURE: u64 = 71_248;

#[test]
fn classic_signature_is_pinned() {
    let mut lines = Vec::new();
    let (nodes, _) = classic(&mut |l| lines.push(l), &Control::default());
    assert_eq!(nodes, CLASSIC_SIGNATURE, "classic search behaviour changed:\n{}", lines.join("\n"));
}

/// `bench siguo`'s node total (the four-player search).
const SIGUO_SIGNATURE: u64 = 25_024;

#[test]
fn siguo_signature_is_pinned() {
    let mut lines = Vec::new();
    let (nodes, _) = siguo(&mut |l| lines.push(l), &Control::default());
    assert_eq!(nodes, SIGUO_SIGNATURE, "four-player search behaviour changed:\n{}", lines.join("\n"));
}
