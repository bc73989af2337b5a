//! `ricochet-lab hint`: the optimal move count, then which robots move, the first move, the
//! whole solution.
//!
//! Ctrl-C at any moment of a hint (the solve, the search after it, or once the answer is known
//! but not yet printed) prints `cancelled` on standard error and exits 3, with nothing on
//! standard output: a hint is printed whole or not at all.

use super::common::{EXIT_STOPPED, stop_name, with_rules};
use super::output::out;
use anyhow::Context;
use ricochet_lab::model::formats;
use ricochet_lab::solver::analysis::hints::{self, Hint, HintLevel};
use ricochet_lab::solver::{Limits, NoProbe};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Arguments of `hint`.
#[derive(clap::Args, Debug)]
pub struct HintArgs {
    /// A .ron file, a .txt Cox file, or a game id.
    pub source: String,
    /// 1: the optimal move count; 2: which robots move; 3: the first move; 4: the whole
    /// solution.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub level: u8,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECS", value_parser = super::common::seconds, allow_negative_numbers = true)]
    pub time_limit: Option<Duration>,
    /// Stop before the process holds more than this many MiB, as `solve` does: the solve's
    /// and the search's tables get what the process does not already hold (see
    /// docs/command-line.md).
    #[arg(long, value_name = "MIB", default_value_t = 8192)]
    pub memory_limit: u64,
    /// Apply the ricochet rule (no solutions of zero or one move).
    #[arg(long)]
    pub ricochet: bool,
    /// Apply the no-rebound rule (a robot may not move straight back).
    #[arg(long)]
    pub no_rebound: bool,
}

/// Runs `hint`: the first line is always `Moves: N`.
pub fn run(args: &HintArgs) -> anyhow::Result<ExitCode> {
    // The handler first, so that a Ctrl-C while the puzzle loads is a cancel too.
    let cancel = super::common::cancel_on_signal()?;
    let puzzle = with_rules(formats::load(&args.source)?, args.ricochet, args.no_rebound);
    let level = HintLevel::from_number(args.level)
        .with_context(|| format!("--level {} is not 1, 2, 3 or 4", args.level))?;
    let limits = Limits {
        time: args.time_limit,
        memory_bytes: Some(super::common::search_budget(args.memory_limit)?),
        cancel: Some(cancel.clone()),
    };
    let hint = hints::hint_at(&puzzle, level, None, &limits, &mut NoProbe)?;
    // A signal after the search ended still cancels: the user asked to stop before anything
    // was printed.
    let hint = if cancel.load(Ordering::Relaxed) {
        Hint::Stopped {
            stop: ricochet_lab::solver::Stop::Cancelled,
        }
    } else {
        hint
    };
    if let Hint::Stopped { stop } = hint {
        eprintln!("{}", stop_name(stop));
        return Ok(ExitCode::from(EXIT_STOPPED));
    }
    // One write, so that the hint is printed whole.
    let text: String = hint
        .lines(level)
        .iter()
        .map(|line| format!("{line}\n"))
        .collect();
    out!("{text}")?;
    if cancel.load(Ordering::Relaxed) {
        eprintln!("{}", stop_name(ricochet_lab::solver::Stop::Cancelled));
        return Ok(ExitCode::from(EXIT_STOPPED));
    }
    Ok(match hint {
        Hint::Unknown { .. } => ExitCode::from(EXIT_STOPPED),
        _ => ExitCode::SUCCESS,
    })
}
