//! `ricochet-lab solvers`: lists the registered solvers.

use super::output::outln;
use ricochet_lab::solver::{Optimality, SolverId};
use std::process::ExitCode;

/// Prints each solver's name, description, optimality and source.
pub fn run() -> anyhow::Result<ExitCode> {
    for kind in SolverId::ALL.map(SolverId::kind) {
        let optimal = match kind.optimality {
            Optimality::Guaranteed => "optimal",
            Optimality::NotGuaranteed => "optimal: not guaranteed",
        };
        outln!("{:<16} {} ({optimal})", kind.name, kind.description)?;
        outln!("{:<16} from: {}", "", kind.source)?;
    }
    Ok(ExitCode::SUCCESS)
}
