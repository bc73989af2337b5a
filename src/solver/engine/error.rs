//! What can go wrong with an engine, in words that name it.

use super::FLOOD_LINES;
use super::protocol::ProtocolError;
use std::time::Duration;

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineProblem {
    /// The program could not be started.
    #[error("it did not start: {0}")]
    DidNotStart(String),
    /// The process ended while it was expected to answer.
    #[error("{status}{}", line.as_ref().map(|l| format!(" (its last line was '{l}')")).unwrap_or_default())]
    Exited {
        /// How it ended, in words.
        status: String,
        /// The last line it wrote, if any.
        line: Option<String>,
    },
    /// No `repok` within the handshake's time (in milliseconds).
    #[error("it did not finish the handshake (repok) within {}", seconds(*.0))]
    NoHandshake(u64),
    /// It chose a version this driver does not speak.
    #[error(
        "it answered 'repok {0}', a protocol version this program does not speak (it speaks 1 and 2)"
    )]
    Version(u32),
    /// No `readyok` within the time allowed (in milliseconds).
    #[error("it did not answer isready within {}", seconds(*.0))]
    NotReady(u64),
    /// It ran past its time limit and the grace after `stop`.
    #[error("it sent no result within 1 s of its time limit of {0} ms")]
    Hung(u64),
    /// It did not answer `stop` within the grace.
    #[error("it ignored stop: no result within 1 s")]
    IgnoredStop,
    /// A line that breaks the protocol.
    #[error("it sent a malformed line: {0}")]
    Malformed(ProtocolError),
    /// A line longer than the protocol allows.
    #[error("it sent a line longer than 1 MiB, which begins '{0}'")]
    LineTooLong(String),
    /// Too many lines that carry nothing asked for.
    #[error(
        "it flooded its output: {FLOOD_LINES} lines that are neither rows, asked-for events nor a result; the last was '{0}'"
    )]
    Flood(String),
    /// The result names another puzzle.
    #[error(
        "it answered for puzzle '{got}' while solving puzzle '{expected}', in the line '{line}'"
    )]
    WrongPuzzle {
        /// The id sent.
        expected: String,
        /// The id answered.
        got: String,
        /// The line.
        line: String,
    },
    /// A `none N` answer that no depth limit allows: none was sent, or a smaller one.
    #[error(
        "it answered 'none {within}' {}, in the line '{line}'; without a limit, the answer is unsolvable or gaveup",
        match limit { Some(limit) => format!("above the depth limit of {limit} it was sent"), None => "though no depth limit was sent".to_string() }
    )]
    NoneWithoutLimit {
        /// The count it answered.
        within: u32,
        /// The depth limit sent, if any.
        limit: Option<u32>,
        /// The line.
        line: String,
    },
    /// A second `result` for a search whose result was read already.
    #[error("it sent a second result for puzzle '{id}', whose result it had sent: '{line}'")]
    SecondResult {
        /// The earlier puzzle's id.
        id: String,
        /// The line.
        line: String,
    },
    /// An option it was to be given that it does not declare, or a value its declaration
    /// refuses; the text says which and what it takes.
    #[error("{0}")]
    BadOption(String),
    /// A node event that does not match the puzzle's robots.
    #[error("its node event names other robots than the puzzle's, in the line '{0}'")]
    WrongRobots(String),
}

/// A time in milliseconds as a number of seconds: `10 s`, `0.5 s`.
fn seconds(millis: u64) -> String {
    if millis.is_multiple_of(1000) {
        format!("{} s", millis / 1000)
    } else {
        format!("{} s", millis as f64 / 1000.0)
    }
}

/// Whole milliseconds of a duration, saturated.
pub(super) fn millis_of(time: Duration) -> u64 {
    u64::try_from(time.as_millis()).unwrap_or(u64::MAX)
}

/// An engine's failure: which engine, what went wrong, and the last lines of its standard
/// error (oldest first).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine '{engine}': {problem}{}", stderr_note(stderr))]
pub struct EngineError {
    /// The engine's name.
    pub engine: String,
    /// What went wrong.
    pub problem: EngineProblem,
    /// The last lines of its standard error, oldest first (at most 50).
    pub stderr: Vec<String>,
}

/// The end of an error message: the last few lines of standard error, when there are any.
fn stderr_note(stderr: &[String]) -> String {
    const SHOWN: usize = 8;
    if stderr.is_empty() {
        return String::new();
    }
    let shown = &stderr[stderr.len().saturating_sub(SHOWN)..];
    format!("; its standard error ends with:\n  {}", shown.join("\n  "))
}
