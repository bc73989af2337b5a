//! `ricochet-lab hint`: the optimal move count, then which robots move, the first move, the
//! whole solution.

use super::common::{EXIT_STOPPED, with_rules};
use super::output::outln;
use anyhow::Context;
use ricochet_lab::model::formats;
use ricochet_lab::solver::analysis::hints::{self, HintLevel};
use ricochet_lab::solver::{Limits, NoProbe};
use std::process::ExitCode;
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
    #[arg(long, value_name = "SECS", value_parser = super::common::seconds)]
    pub time_limit: Option<Duration>,
    /// Apply the ricochet rule (no solutions of zero or one move).
    #[arg(long)]
    pub ricochet: bool,
    /// Apply the no-rebound rule (a robot may not move straight back).
    #[arg(long)]
    pub no_rebound: bool,
}

/// Runs `hint`: the first line is always `Moves: N`.
pub fn run(args: &HintArgs) -> anyhow::Result<ExitCode> {
    let puzzle = with_rules(formats::load(&args.source)?, args.ricochet, args.no_rebound);
    let level = HintLevel::from_number(args.level)
        .with_context(|| format!("--level {} is not 1, 2, 3 or 4", args.level))?;
    let limits = Limits {
        time: args.time_limit,
        cancel: Some(super::common::cancel_on_signal()?),
        ..Limits::default()
    };
    let hint = hints::hint(&puzzle, &limits, &mut NoProbe)?;
    for line in hint.lines(level) {
        outln!("{line}")?;
    }
    Ok(match hint {
        hints::Hint::Unknown { .. } => ExitCode::from(EXIT_STOPPED),
        _ => ExitCode::SUCCESS,
    })
}
