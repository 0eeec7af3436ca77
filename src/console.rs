//! Printing for the command-line tools (`luzhanqi perft`, `bench`, the
//! arena's reports): like `print!`, except that a closed stdout (`arena
//! tune ... | head`) ends the program quietly instead of panicking.

use std::fmt;
use std::io::Write;

/// Writes `args` to stdout; exits the process with status 0 when stdout is
/// closed (a reader that has all it wants is not an error of ours).
pub fn write_out(args: fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if out.write_fmt(args).and_then(|()| out.flush()).is_err() {
        std::process::exit(0);
    }
}

/// `print!` that ends the program quietly on a closed stdout.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::console::write_out(format_args!($($arg)*)) };
}

/// `println!` that ends the program quietly on a closed stdout.
#[macro_export]
macro_rules! outln {
    () => { $crate::console::write_out(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::console::write_out(format_args!("{}\n", format_args!($($arg)*))) };
}
