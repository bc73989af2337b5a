//! Opening a trace the way every `trace` command does: checked whole before it is read.

use ricochet_lab::solver::trace::{self, TraceReader};
use std::path::Path;

/// Opens a trace and checks every block of it, as every trace command does before it
/// reads: a damaged trace is an error that says where; a trace cut off is read as far as it
/// goes, with a note on standard error that says so.
pub(super) fn open(path: &Path) -> anyhow::Result<TraceReader> {
    let reader = TraceReader::open_checked(path)?;
    if let trace::Health::Incomplete(why) = reader.health() {
        eprintln!(
            "note: {} is incomplete ({why}): it holds {} events",
            path.display(),
            reader.events()
        );
    }
    Ok(reader)
}
