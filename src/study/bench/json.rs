//! The bench's report as one JSON object.

use super::*;

/// One measurement in the JSON report.
#[derive(Serialize)]
pub(super) struct MeasurementJson<'a> {
    puzzle: &'a str,
    solver: &'a str,
    external: bool,
    outcome: &'a str,
    moves: Option<usize>,
    millis: f64,
    nodes: u64,
    nodes_per_second: f64,
    peak_memory_bytes: usize,
    threads: usize,
    cpu_millis: Option<f64>,
    huge_page_bytes: Option<usize>,
    pages: Pages,
    build: Option<&'a str>,
}

impl<'a> MeasurementJson<'a> {
    fn new(m: &'a Measurement) -> MeasurementJson<'a> {
        MeasurementJson {
            puzzle: &m.puzzle,
            solver: m.solver,
            external: m.external,
            outcome: m.outcome,
            moves: m.moves,
            millis: m.time.as_secs_f64() * 1e3,
            nodes: m.nodes,
            nodes_per_second: m.nodes_per_second(),
            peak_memory_bytes: m.peak_memory,
            threads: m.threads,
            cpu_millis: m.cpu.map(|c| c.as_secs_f64() * 1e3),
            huge_page_bytes: m.huge_pages,
            pages: m.pages,
            build: m.build.as_deref(),
        }
    }
}

/// One solver's summary over the random puzzles in the JSON report.
#[derive(Serialize)]
pub(super) struct SummaryJson<'a> {
    solver: &'a str,
    finished: usize,
    unfinished: usize,
    mean_moves: f64,
    mean_millis: f64,
    median_millis: f64,
    p99_millis: f64,
    max_millis: f64,
    nodes: u64,
}

/// One solver's answer to a puzzle the solvers disagree on.
#[derive(Serialize)]
pub(super) struct AnswerJson<'a> {
    solver: &'a str,
    moves: Option<usize>,
}

/// A puzzle the solvers disagree on.
#[derive(Serialize)]
pub(super) struct DisagreementJson<'a> {
    puzzle: &'a str,
    answers: Vec<AnswerJson<'a>>,
}

/// The whole JSON report.
#[derive(Serialize)]
pub(super) struct BenchJson<'a> {
    repeat: usize,
    reference: Vec<MeasurementJson<'a>>,
    random: Vec<MeasurementJson<'a>>,
    random_summary: Vec<SummaryJson<'a>>,
    disagreements: Vec<DisagreementJson<'a>>,
}

pub(super) fn to_json(
    reference: &[Measurement],
    random: &[Measurement],
    summaries: &[Summary],
    disagreements: &[Disagreement],
    repeat: usize,
) -> serde_json::Value {
    let random_summary = summaries
        .iter()
        .filter(|_| !random.is_empty())
        .map(|s| SummaryJson {
            solver: s.solver,
            finished: s.finished,
            unfinished: s.unfinished,
            mean_moves: s.mean_moves,
            mean_millis: s.mean_ms,
            median_millis: s.median_ms,
            p99_millis: s.p99_ms,
            max_millis: s.max_ms,
            nodes: s.nodes,
        })
        .collect();
    let disagreements = disagreements
        .iter()
        .map(|d| DisagreementJson {
            puzzle: &d.puzzle,
            answers: d
                .answers
                .iter()
                .map(|&(solver, moves)| AnswerJson { solver, moves })
                .collect(),
        })
        .collect();
    let json = BenchJson {
        repeat,
        reference: reference.iter().map(MeasurementJson::new).collect(),
        random: random.iter().map(MeasurementJson::new).collect(),
        random_summary,
        disagreements,
    };
    // Plain numbers, strings and lists: serialising them cannot fail.
    serde_json::to_value(json).unwrap_or_default()
}
