//! One solve's report as JSON: the object `solve --json` prints, and what the bench reads back
//! from another build of the program. Fields a build does not write read as their defaults,
//! so older builds' reports still parse.

use super::profile::NodeProfile;
use super::{Outcome, Report};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The JSON object of one solve.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReportJson {
    /// The solver's command-line name.
    pub solver: String,
    /// How the run ended ([`Outcome::name`]).
    pub outcome: String,
    /// The number of moves of the answer (solved or claimed), if any.
    #[serde(default)]
    pub moves: Option<usize>,
    /// The answer's moves in move notation (`RN`, `GE`, ...).
    #[serde(default)]
    pub solution: Vec<String>,
    /// The per-depth rows.
    #[serde(default)]
    pub depths: Vec<DepthJson>,
    /// The run's time in milliseconds.
    #[serde(default)]
    pub millis: f64,
    /// The nodes searched.
    #[serde(default)]
    pub nodes: u64,
    /// The most memory the solver's tables held.
    #[serde(default)]
    pub peak_memory_bytes: usize,
    /// The threads the search ran on.
    #[serde(default = "one_thread")]
    pub threads: usize,
    /// The process's CPU time for the run, where the system tells it.
    #[serde(default)]
    pub cpu_millis: Option<f64>,
    /// Where a claimed answer failed its replay (invalid answers only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_error: Option<String>,
    /// The bound an unsolvability proof holds to (unsolvable outcomes only; `null` for none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<Option<u32>>,
    /// The nodes under each move prefix (`--profile-depth` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<Vec<ProfileEntryJson>>,
}

fn one_thread() -> usize {
    1
}

/// One per-depth row.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DepthJson {
    /// The depth, bound or level.
    pub depth: u32,
    /// The first counter (usually nodes).
    pub nodes: u64,
    /// The second counter.
    pub inner: u64,
    /// The third counter.
    pub hits: u64,
    /// When the row finished, on the clock of the report's `millis` (non-decreasing, never
    /// past it); left out where the rows were not timed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub millis: Option<f64>,
    /// The solver's further named counters.
    #[serde(flatten)]
    pub extra: BTreeMap<String, u64>,
}

/// One prefix of the node profile: its moves in move notation and the nodes under it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileEntryJson {
    /// The moves of the prefix.
    pub prefix: Vec<String>,
    /// The nodes of its subtree over the whole run.
    pub nodes: u64,
}

impl ReportJson {
    /// The JSON of a report, without row times or a profile (see [`ReportJson::with_profile`]).
    pub fn of(report: &Report) -> ReportJson {
        let solution = match &report.outcome {
            Outcome::Solved { moves } => moves.iter().map(ToString::to_string).collect(),
            Outcome::Invalid { claimed, .. } => claimed.iter().map(ToString::to_string).collect(),
            _ => Vec::new(),
        };
        ReportJson {
            solver: report.solver.to_string(),
            outcome: report.outcome.name().to_string(),
            moves: report.outcome.move_count(),
            solution,
            depths: report
                .depths
                .iter()
                .map(|d| DepthJson {
                    depth: d.depth,
                    nodes: d.nodes,
                    inner: d.inner,
                    hits: d.hits,
                    millis: None,
                    extra: d
                        .extra
                        .iter()
                        .map(|&(name, value)| (name.to_string(), value))
                        .collect(),
                })
                .collect(),
            millis: report.elapsed.as_secs_f64() * 1000.0,
            nodes: report.nodes,
            peak_memory_bytes: report.peak_memory,
            threads: report.threads,
            cpu_millis: report.cpu_millis,
            replay_error: match &report.outcome {
                Outcome::Invalid { error, .. } => Some(error.to_string()),
                _ => None,
            },
            within: match &report.outcome {
                Outcome::Unsolvable { within } => Some(*within),
                _ => None,
            },
            profile: None,
        }
    }

    /// The same report with a node profile's entries, in the profile's tree order.
    pub fn with_profile(mut self, profile: &NodeProfile) -> ReportJson {
        self.profile = Some(
            profile
                .entries()
                .into_iter()
                .map(|entry| ProfileEntryJson {
                    prefix: entry.prefix.iter().map(ToString::to_string).collect(),
                    nodes: entry.nodes,
                })
                .collect(),
        );
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{board, run};

    #[test]
    fn a_report_reads_back_as_it_was_written() {
        let report = run("iddfs", &board("small-6x6.ron"), None);
        let mut json = ReportJson::of(&report);
        // A time whose shortest decimal form read back by a fast float parser can land one
        // unit in the last place off: reports must read back exactly.
        json.millis = 0.057_062_999_999_999_996;
        let text = serde_json::to_string(&json).unwrap();
        let back: ReportJson = serde_json::from_str(&text).unwrap();
        assert_eq!(back, json);
        assert_eq!(back.moves, Some(5));
        assert_eq!(back.depths.len(), report.depths.len());
    }

    #[test]
    fn an_older_builds_report_without_the_newer_fields_still_reads() {
        let back: ReportJson =
            serde_json::from_str(r#"{"solver":"fast","outcome":"solved","moves":3}"#).unwrap();
        assert_eq!(back.moves, Some(3));
        assert_eq!(back.threads, 1);
        assert!(back.depths.is_empty());
    }
}
