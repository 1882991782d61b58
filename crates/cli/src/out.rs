//! Printing that never panics: every line the commands print goes through [`outln!`],
//! [`out!`] or [`errln!`] (`println!` and `eprintln!` panic when the reader has gone,
//! and the crate denies them).
//!
//! A reader that closes early (`tabletop log game.json --seat 1 | head -1`) is no
//! failure: the write reports [`Closed`], the command returns it like any error, and
//! `main` exits quietly with success. Any other failure to write (a full disk) is an
//! error that says which stream failed.
use std::fmt;
use std::io::{self, Write};

/// The reader of standard output (or of standard error) has closed it: nothing more can
/// be told, and nothing went wrong.
#[derive(Debug)]
pub struct Closed;

impl fmt::Display for Closed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the output was closed by its reader")
    }
}

impl std::error::Error for Closed {}

/// Whether `error`, or anything it was caused by, is a closed output.
pub fn is_closed(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| cause.is::<Closed>())
}

/// A write's failure as the commands report it: [`Closed`] for a broken pipe.
fn failed(stream: &str, error: io::Error) -> anyhow::Error {
    if error.kind() == io::ErrorKind::BrokenPipe {
        anyhow::Error::new(Closed)
    } else {
        anyhow::Error::new(error).context(format!("cannot write to {stream}"))
    }
}

/// Writes `args`, then a line break when `newline`, to standard output, and flushes.
///
/// # Errors
/// [`Closed`] when the reader has gone, else the write's error.
pub fn stdout(args: fmt::Arguments<'_>, newline: bool) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    write(&mut out, args, newline).map_err(|e| failed("standard output", e))
}

/// The same on standard error.
///
/// # Errors
/// [`Closed`] when the reader has gone, else the write's error.
pub fn stderr(args: fmt::Arguments<'_>, newline: bool) -> anyhow::Result<()> {
    let mut err = io::stderr().lock();
    write(&mut err, args, newline).map_err(|e| failed("standard error", e))
}

fn write(out: &mut impl Write, args: fmt::Arguments<'_>, newline: bool) -> io::Result<()> {
    out.write_fmt(args)?;
    if newline {
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// `println!` that returns an error instead of panicking: `outln!("{x}")?`.
macro_rules! outln {
    () => {
        $crate::out::stdout(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::out::stdout(format_args!($($arg)*), true)
    };
}

/// `print!` (flushed) that returns an error instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::stdout(format_args!($($arg)*), false)
    };
}

/// `eprintln!` that returns an error instead of panicking.
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::out::stderr(format_args!($($arg)*), true)
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose reader has gone.
    struct Gone;
    impl Write for Gone {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(io::ErrorKind::BrokenPipe))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_broken_pipe_is_closed_and_other_failures_are_errors() {
        let e = write(&mut Gone, format_args!("x"), true).expect_err("broken");
        let e = failed("standard output", e);
        assert!(is_closed(&e), "{e}");
        assert!(is_closed(&e.context("printing the log")));
        let full = failed("standard output", io::Error::other("disk full"));
        assert!(!is_closed(&full));
        assert!(format!("{full:#}").contains("cannot write to standard output"));
    }
}
