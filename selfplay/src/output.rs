//! The commands' standard output, shared by every command module.

/// `println!` for the command's output: a closed standard output (the reader of a pipe
/// went away, as `| head` does) ends the program quietly with success, as `grep` and `ls`
/// do, instead of panicking.
macro_rules! out {
    ($($t:tt)*) => {
        $crate::output::write_stdout(format_args!($($t)*))
    };
}
pub(crate) use out;

/// Writes one line to standard output (see [`out!`]).
pub fn write_stdout(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    if let Err(e) = o.write_fmt(args).and_then(|()| o.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to standard output: {e}");
        std::process::exit(1);
    }
}
