//! The one path every command's standard output takes.
//!
//! Commands print through [`out!`](crate::cli::output::out) and
//! [`outln!`](crate::cli::output::outln), which hand a write error back instead of panicking as
//! `print!` does. [`exit_code`] then turns the error the command returns into the way the
//! program ends: a reader that closed the pipe (`solve ... | head -2`) is a quiet exit, since
//! the reader has all it wanted; any other write error (a full disk, `> /dev/full`) is a
//! message naming what could not be written.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

/// A write to standard output failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot write the output")]
pub(crate) struct OutputError(#[source] io::Error);

/// Writes to standard output; the error of a failed write is returned.
pub(crate) fn write_out(args: fmt::Arguments<'_>) -> Result<(), OutputError> {
    io::stdout().lock().write_fmt(args).map_err(OutputError)
}

/// Writes everything still buffered to standard output.
pub(crate) fn flush_out() -> Result<(), OutputError> {
    io::stdout().lock().flush().map_err(OutputError)
}

/// `print!` that returns the write's `io::Result` instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::write_out(format_args!($($arg)*))
    };
}

/// `println!` that returns the write's `io::Result` instead of panicking.
macro_rules! outln {
    () => {
        $crate::cli::output::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::output::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};

/// A write to standard output that failed, kept for a caller that cannot return it at once
/// (a probe printing rows from inside a search).
#[derive(Default)]
pub(crate) struct WriteFailure(Option<OutputError>);

impl WriteFailure {
    /// Keeps the first error of `result`.
    pub(crate) fn note(&mut self, result: Result<(), OutputError>) {
        if let (None, Err(error)) = (&self.0, result) {
            self.0 = Some(error);
        }
    }

    /// Whether a write failed.
    pub(crate) fn failed(&self) -> bool {
        self.0.is_some()
    }

    /// The first failed write as an error.
    pub(crate) fn check(&mut self) -> Result<(), OutputError> {
        match self.0.take() {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

/// Whether an error is, or was caused by, the reader of standard output closing the pipe.
fn is_closed_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        let io = match cause.downcast_ref::<OutputError>() {
            Some(OutputError(io)) => Some(io),
            None => cause.downcast_ref::<io::Error>(),
        };
        io.is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// How the program ends after a command: its own code when it succeeded and its output was
/// written out, a quiet exit when the reader closed the pipe, and a message otherwise.
pub(crate) fn exit_code(result: anyhow::Result<ExitCode>) -> ExitCode {
    let result = result.and_then(|code| {
        flush_out()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        // The reader has what it wanted: nothing to say, and nothing went wrong for it.
        Err(error) if is_closed_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            // A closed standard error leaves no way to say more; the exit code still tells.
            let _ = writeln!(io::stderr(), "error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
