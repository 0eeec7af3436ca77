//! The `luzhanqi` binary: with no subcommand it speaks ULI on stdin/stdout;
//! `perft` and `bench` are command-line tools over the same library.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use luzhanqi::bench;
use luzhanqi::notation::{parse_position, parse_token};
use luzhanqi::perft::divide;
use luzhanqi::{Position, Variant};

#[derive(Parser)]
#[command(name = "luzhanqi", version, about = "A Luzhanqi (army chess) engine speaking ULI on stdin/stdout")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf action sequences to a depth, split by first action.
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Rule set: flip, classic, open or ccgc.
        #[arg(long, default_value = "flip")]
        variant: Variant,
        /// Position string (default: the start of the variant).
        #[arg(long)]
        fen: Option<String>,
        /// History tokens to play first.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
    },
    /// Benchmarks: move generation (perft) and random playouts.
    Bench {
        /// What to measure: movegen, playout or all.
        #[arg(default_value = "all")]
        what: String,
    },
}

fn perft_command(depth: u32, variant: Variant, fen: Option<String>, moves: &[String]) -> Result<(), String> {
    let rules = variant.rules();
    let mut pos = match fen {
        Some(f) => parse_position(&f, rules).map_err(|e| e.to_string())?,
        None => Position::startpos(rules),
    };
    for m in moves {
        let t = parse_token(m).map_err(|e| e.to_string())?;
        pos.apply_token(t).map_err(|e| format!("{m}: {e}"))?;
    }
    let start = std::time::Instant::now();
    let lines = divide(&pos, depth).map_err(|e| e.to_string())?;
    let mut total = 0;
    for (a, n) in &lines {
        println!("{a}: {n}");
        total += n;
    }
    if depth == 0 {
        total = 1;
    }
    println!();
    println!("nodes {total}");
    eprintln!("time {:.3} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn bench_command(what: &str) -> Result<(), String> {
    let mut lines = Vec::new();
    if matches!(what, "movegen" | "all") {
        lines.extend(bench::movegen_bench());
    }
    if matches!(what, "playout" | "all") {
        lines.push(bench::playout_bench(luzhanqi::Rules::FLIP, 20_000));
        lines.push(bench::playout_bench(luzhanqi::Rules::OPEN, 5_000));
    }
    if lines.is_empty() {
        return Err(format!("unknown benchmark '{what}' (movegen, playout or all)"));
    }
    for l in &lines {
        println!("{:<28} {:>14} in {:>8.3} s  {:>12.0} /s", l.name, l.count, l.time.as_secs_f64(), l.rate());
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft { depth, variant, fen, moves }) => perft_command(depth, variant, fen, &moves),
        Some(Command::Bench { what }) => bench_command(&what),
        None => Err("the protocol loop is not built yet".to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
