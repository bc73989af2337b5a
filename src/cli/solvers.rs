//! `ricochet-lab solvers`: lists the registered solvers.

use ricochet_lab::solver::{Optimality, SolverId};
use std::process::ExitCode;

/// Prints each solver's name, description, optimality and source.
pub fn run() -> anyhow::Result<ExitCode> {
    for kind in SolverId::ALL.map(SolverId::kind) {
        let optimal = match kind.optimality {
            Optimality::Guaranteed => "optimal",
            Optimality::NotGuaranteed => "optimal: not guaranteed",
        };
        println!("{:<16} {} ({optimal})", kind.name, kind.description);
        println!("{:<16} from: {}", "", kind.source);
    }
    Ok(ExitCode::SUCCESS)
}
