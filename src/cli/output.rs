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

/// An argument a command cannot use, found after clap parsed it: a value outside the range
/// the command takes, or options that do not go together. It ends the program as clap's own
/// usage errors do, with the message on standard error and exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct UsageError(pub(crate) String);

/// A [`UsageError`] as the error a command returns.
pub(crate) fn usage(message: impl Into<String>) -> anyhow::Error {
    UsageError(message.into()).into()
}

/// How the program ends when clap does not hand it arguments to run: help and the version
/// are the program's output, written as every command's output is (a full device is an error
/// that says so, a closed pipe a quiet exit); a usage error goes to standard error with
/// clap's code (2).
pub(crate) fn clap_exit(error: &clap::Error) -> ExitCode {
    if error.use_stderr() {
        // A closed standard error leaves no way to say more; the exit code still tells.
        let _ = error.print();
        return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(EXIT_USAGE));
    }
    let printed = error.print().map_err(OutputError);
    exit_code(
        printed
            .map(|()| ExitCode::SUCCESS)
            .map_err(anyhow::Error::from),
    )
}

/// Exit code for a usage error: an unknown option, a value out of range.
pub(crate) const EXIT_USAGE: u8 = 2;

/// How the program ends after a command: its own code when it succeeded and its output was
/// written out, a quiet exit when the reader closed the pipe, code 2 for a usage error and 1
/// for any other, each with a message.
pub(crate) fn exit_code(result: anyhow::Result<ExitCode>) -> ExitCode {
    let result = result.and_then(|code| {
        flush_out()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        // The reader has what it wanted: nothing to say, and nothing went wrong for it.
        Err(error) if is_closed_pipe(&error) => ExitCode::SUCCESS,
        Err(error) if error.chain().any(|cause| cause.is::<UsageError>()) => {
            let _ = writeln!(io::stderr(), "error: {error:#}");
            ExitCode::from(EXIT_USAGE)
        }
        Err(error) => {
            // A closed standard error leaves no way to say more; the exit code still tells.
            let _ = writeln!(io::stderr(), "error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
