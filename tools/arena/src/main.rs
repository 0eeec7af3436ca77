//! arena: referee and match runner (work in progress).

fn main() {}
