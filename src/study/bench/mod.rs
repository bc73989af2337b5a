//! The `bench` command: runs solvers on a fixed suite of puzzles and prints what they took.
//!
//! Two suites, both deterministic so that two commits can be compared on one machine:
//!
//! - **reference**: every `.ron` puzzle in the boards folder (sorted by file name), plus the
//!   known hard game ids that are not among them;
//! - **random**: 1,000 standard games dealt by [`random_game`] for seeds 1 to 1,000, four robots.
//!
//! Per solver and reference puzzle the table gives the moves, the median time over the
//! repeats, nodes, nodes per second and the peak memory the solver reported; for the random
//! suite the mean, median, 99th percentile and largest time per solver. Every puzzle solved by
//! more than one optimal solver is checked for equal move counts, and any disagreement is
//! printed loudly and fails the command. Each run has a time limit, so a slow solver cannot
//! hang the bench. Progress goes to standard error, one plain line per step.

mod chart;
mod json;
mod measure;
mod other_build;
mod stats;
mod suite;
mod tables;

pub use chart::time_chart;
pub use measure::{MAX_REPEAT, measure};
pub use other_build::OtherBuild;
pub use stats::{compared_puzzles, disagreements, summarize};
pub use suite::{random_puzzles, reference_puzzles};
pub use tables::{
    engine_table, pages_table, ratio_table, reference_table, speedup_table, summary_table,
};

use json::to_json;
use measure::{FastRuns, cancelled, measure_all};
use stats::finished;

use super::format::{format_bytes, format_ms, format_rate, format_time};
use crate::model::Puzzle;
use crate::model::formats::{self, game_id};
use crate::model::tiles::random_game;
use crate::solver::{
    self, Limits, NoProbe, Optimality, Outcome, Pages, Report, SolverChoice, SolverId,
    SolverOptions,
};
use anyhow::Context;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The known hard positions, by game id (see the reference puzzle notes).
pub const REFERENCE_GAME_IDS: [&str; 3] = [
    "7650+42+E2302B12+C9",
    "0765+42+2E21BD0F+93",
    "3650+42+1CF10F0C+C9",
];

/// The seeds of the random suite.
pub const RANDOM_SEEDS: std::ops::RangeInclusive<u64> = 1..=1000;

/// Which puzzles to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suite {
    /// The puzzles in the boards folder and the known hard game ids.
    Reference,
    /// 1,000 seeded random standard games.
    Random,
    /// Both.
    All,
}

impl Suite {
    /// Every suite.
    pub const ALL: [Suite; 3] = [Suite::Reference, Suite::Random, Suite::All];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Suite::Reference => "reference",
            Suite::Random => "random",
            Suite::All => "all",
        }
    }
}

impl std::fmt::Display for Suite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the bench runs.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// The solvers, built-in ones and external engines, in the order their rows appear.
    pub solvers: Vec<SolverChoice>,
    /// Which suite to run.
    pub suite: Suite,
    /// Runs per puzzle and solver, 1 to [`MAX_REPEAT`]; the median time is reported.
    pub repeat: usize,
    /// Print one JSON object instead of tables.
    pub json: bool,
    /// The limits of each run.
    pub limits: Limits,
    /// The folder of reference puzzles.
    pub boards: PathBuf,
    /// The reference puzzles to run, by name (a file name without `.ron`, or a game id);
    /// every one when empty.
    pub puzzles: Vec<String>,
    /// Thread counts to run `fast` with, each in turn (empty: one run with its default).
    pub threads: Vec<usize>,
    /// The memory pages to run `fast` with, each in turn (empty: huge pages only).
    pub pages: Vec<Pages>,
    /// Another build of this program to time in the same run, puzzle by puzzle, through
    /// its `solve --json` (reference suite only).
    pub compare_with: Option<PathBuf>,
    /// The solvers to run in that build.
    pub compare_solvers: Vec<String>,
}

/// One solver's result on one puzzle: the median run of the repeats.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// The puzzle's name.
    pub puzzle: String,
    /// The solver's name.
    pub solver: &'static str,
    /// Whether the solver's answers are known to be shortest (a built-in optimal solver),
    /// so that its move counts are compared with the other optimal solvers'.
    pub optimal: bool,
    /// Whether the solver is an external engine.
    pub external: bool,
    /// How the run ended.
    pub outcome: &'static str,
    /// Moves of the solution, when solved.
    pub moves: Option<usize>,
    /// The median wall time of the repeats.
    pub time: Duration,
    /// Nodes counted in the median run.
    pub nodes: u64,
    /// The largest memory estimate the solver reported, in bytes.
    pub peak_memory: usize,
    /// The threads the run was allowed (the count asked for), or else the most it used.
    pub threads: usize,
    /// CPU time of the median run (all threads), where the system reports it.
    pub cpu: Option<Duration>,
    /// Bytes backed by huge pages at the end of the median run, when the solver measured it.
    pub huge_pages: Option<usize>,
    /// The pages the solver was asked to use.
    pub pages: Pages,
    /// The other build that made this measurement (its file name), or `None` for this one.
    pub build: Option<String>,
}

impl Measurement {
    /// The solver's name, with the other build's name when it made the measurement.
    pub fn label(&self) -> String {
        let pages = match self.pages {
            Pages::Huge => "",
            Pages::Small => ", 4 KiB pages",
        };
        match &self.build {
            None if self.external => format!("{} (external)", self.solver),
            Some(build) => format!("{} ({build}{pages})", self.solver),
            None if pages.is_empty() => self.solver.to_string(),
            None => format!("{} ({})", self.solver, &pages[2..]),
        }
    }

    /// Nodes per second of wall time.
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            self.nodes as f64 / secs
        } else {
            0.0
        }
    }
}

/// Time statistics of one solver over the random suite.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The solver's name.
    pub solver: &'static str,
    /// Puzzles it solved or proved unsolvable.
    pub finished: usize,
    /// Puzzles it did not finish (time or memory limit, invalid answer).
    pub unfinished: usize,
    /// Mean time in milliseconds.
    pub mean_ms: f64,
    /// Median time in milliseconds.
    pub median_ms: f64,
    /// 99th percentile time in milliseconds.
    pub p99_ms: f64,
    /// Largest time in milliseconds.
    pub max_ms: f64,
    /// Mean moves of the solved puzzles.
    pub mean_moves: f64,
    /// Nodes over all puzzles.
    pub nodes: u64,
}

/// Optimal solvers that gave different move counts for one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The puzzle's name.
    pub puzzle: String,
    /// Each solver's move count (`None`: it proved there is no solution).
    pub answers: Vec<(&'static str, Option<usize>)>,
}

/// What one bench run measured.
#[derive(Clone, Debug)]
pub struct BenchResults {
    /// The reference suite's measurements.
    pub reference: Vec<Measurement>,
    /// The random suite's measurements.
    pub random: Vec<Measurement>,
    /// Per solver, its summary over the random suite.
    pub summaries: Vec<Summary>,
    /// Puzzles on which optimal solvers gave different move counts.
    pub disagreements: Vec<Disagreement>,
    /// How many solvers ran.
    pub solvers: usize,
    /// How many times each run was repeated.
    pub repeat: usize,
    /// Whether a Ctrl-C (the limits' cancel flag) cut the run short.
    pub interrupted: bool,
}

/// Runs the bench: every solver on the chosen suites, within the limits. A cancel through the
/// limits' flag ends it early, keeping the puzzles that finished.
pub fn run(args: &BenchConfig) -> anyhow::Result<BenchResults> {
    let solvers = &args.solvers;
    let limits = args.limits.clone();
    let fast_runs = FastRuns {
        pages: args.pages.clone(),
        threads: args.threads.clone(),
    };
    let repeat = args.repeat.clamp(1, MAX_REPEAT);
    let mut reference = Vec::new();
    let mut random = Vec::new();
    if matches!(args.suite, Suite::Reference | Suite::All) {
        let puzzles = chosen(reference_puzzles(&args.boards)?, &args.puzzles)?;
        let other = match &args.compare_with {
            Some(path) => Some(OtherBuild::new(path, &args.compare_solvers, &args.boards)?),
            None => None,
        };
        reference = measure_all(
            &puzzles,
            solvers,
            &limits,
            repeat,
            &fast_runs,
            other.as_ref(),
            "reference",
        )?;
    }
    if matches!(args.suite, Suite::Random | Suite::All) {
        let puzzles = random_puzzles()?;
        random = measure_all(
            &puzzles, solvers, &limits, repeat, &fast_runs, None, "random",
        )?;
    }
    let summaries: Vec<Summary> = solvers
        .iter()
        .map(|s| summarize(s.kind().name, &random))
        .collect();
    let mut found = disagreements(&reference);
    found.extend(disagreements(&random));
    Ok(BenchResults {
        reference,
        random,
        summaries,
        disagreements: found,
        solvers: solvers.len(),
        repeat,
        interrupted: cancelled(&limits),
    })
}

/// The puzzles of `names` in the suite's order (all of them when `names` is empty); a name
/// that is not in the suite is an error listing those that are.
fn chosen(
    puzzles: Vec<(String, Puzzle)>,
    names: &[String],
) -> anyhow::Result<Vec<(String, Puzzle)>> {
    if names.is_empty() {
        return Ok(puzzles);
    }
    if let Some(unknown) = names
        .iter()
        .find(|name| !puzzles.iter().any(|(known, _)| known == name.trim()))
    {
        let known: Vec<&str> = puzzles.iter().map(|(name, _)| name.as_str()).collect();
        anyhow::bail!(
            "there is no reference puzzle called '{unknown}'; the suite has {}",
            known.join(", ")
        );
    }
    Ok(puzzles
        .into_iter()
        .filter(|(name, _)| names.iter().any(|chosen| chosen.trim() == name))
        .collect())
}

impl BenchResults {
    /// The whole run as one JSON object.
    pub fn json(&self) -> serde_json::Value {
        to_json(
            &self.reference,
            &self.random,
            &self.summaries,
            &self.disagreements,
            self.repeat,
        )
    }

    /// The run's tables as text: the reference puzzles with their speed-up, page, ratio and
    /// engine tables, then the random suite's summary, then whether the optimal solvers agreed.
    pub fn tables(&self) -> String {
        let mut out = String::new();
        if !self.reference.is_empty() {
            out += &reference_table(&self.reference);
            for table in [
                speedup_table(&self.reference),
                pages_table(&self.reference),
                ratio_table(&self.reference),
                engine_table(&self.reference),
            ] {
                if !table.is_empty() {
                    out += "\n";
                    out += &table;
                }
            }
        }
        if !self.random.is_empty() {
            if !self.reference.is_empty() {
                out += "\n";
            }
            out += &summary_table(&self.summaries, self.random.len() / self.solvers.max(1));
        }
        let compared = compared_puzzles(&self.reference) + compared_puzzles(&self.random);
        out += &if self.disagreements.is_empty() && compared == 0 {
            "\nNo puzzle was finished by two optimal solvers: no move counts were compared.\n"
                .to_string()
        } else if self.disagreements.is_empty() {
            format!(
                "\nAll optimal solvers agree on every move count ({compared} puzzles compared).\n"
            )
        } else {
            format!(
                "\n{} DISAGREEMENTS between optimal solvers (listed on standard error).\n",
                self.disagreements.len()
            )
        };
        out
    }

    /// How many distinct puzzles were measured.
    pub fn puzzles(&self) -> usize {
        let names = |rows: &[Measurement]| {
            rows.iter()
                .map(|m| m.puzzle.as_str())
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        };
        names(&self.reference) + names(&self.random)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn measurement(
        puzzle: &str,
        solver: &'static str,
        moves: Option<usize>,
        ms: u64,
    ) -> Measurement {
        Measurement {
            puzzle: puzzle.to_string(),
            solver,
            optimal: solver::kind(solver).is_some_and(|k| k.optimality == Optimality::Guaranteed),
            external: false,
            outcome: "solved",
            moves,
            time: Duration::from_millis(ms),
            nodes: 10,
            peak_memory: 0,
            threads: 1,
            cpu: None,
            huge_pages: None,
            pages: Pages::Huge,
            build: None,
        }
    }

    #[test]
    fn thread_counts_of_one_puzzle_give_its_speed_up() {
        let mut two = measurement("hard", "fast", Some(20), 500);
        two.threads = 2;
        let runs = vec![
            measurement("hard", "fast", Some(20), 900),
            two,
            measurement("hard", "iddfs", Some(20), 2000),
        ];
        let table = speedup_table(&runs);
        assert!(table.contains("| hard | fast | 1 × 900 ms | 2 × 500 ms | 1.80x |"));
        assert!(!table.contains("iddfs"));
        assert!(speedup_table(&runs[2..]).is_empty());
    }

    #[test]
    fn small_pages_are_set_beside_huge_ones_of_the_same_thread_count() {
        let mut small = measurement("hard", "fast", Some(20), 1100);
        small.pages = Pages::Small;
        let mut huge = measurement("hard", "fast", Some(20), 1000);
        huge.huge_pages = Some(64 << 20);
        let mut two = measurement("hard", "fast", Some(20), 600);
        two.threads = 2;
        let runs = vec![huge, two, small];
        let table = pages_table(&runs);
        assert!(
            table.contains("| hard | fast × 1 | 1.00 s | 64 MiB | 1.10 s | 1.10x |"),
            "{table}"
        );
        assert_eq!(table.matches("| hard |").count(), 1, "{table}");
        assert!(pages_table(&runs[..2]).is_empty());
        // Thread speed-ups compare runs on the same pages only.
        assert!(!speedup_table(&runs).contains("4 KiB"));
    }

    #[test]
    fn engines_are_set_beside_every_built_in_run_of_their_puzzle() {
        let mut peer = measurement("hard", "peer", Some(20), 4000);
        peer.external = true;
        let mut unfinished = measurement("easy", "peer", None, 60_000);
        unfinished.external = true;
        unfinished.outcome = "time-limit";
        let mut two = measurement("hard", "fast", Some(20), 600);
        two.threads = 2;
        let runs = vec![
            measurement("hard", "fast", Some(20), 1000),
            two,
            peer,
            measurement("easy", "fast", Some(5), 10),
            unfinished,
        ];
        let table = engine_table(&runs);
        assert!(
            table.contains("| hard | fast × 1 | peer (external) | 20 | 20 | 4.00 s | 4.00x |"),
            "{table}"
        );
        assert!(
            table.contains("| hard | fast × 2 | peer (external) |"),
            "{table}"
        );
        // A run the engine did not finish gives no ratio.
        assert!(!table.contains("| easy |"), "{table}");
        assert!(engine_table(&runs[..2]).is_empty());
        // An engine's answer is not an optimal solver's: its move count is shown, not judged.
        assert!(disagreements(&runs).is_empty());
    }

    #[test]
    fn figures_an_engine_did_not_report_are_dashes_not_zeros() {
        let mut silent = measurement("hard", "peer", Some(20), 4000);
        silent.external = true;
        silent.nodes = 0;
        let mut counting = measurement("hard", "peer2", Some(20), 4000);
        counting.external = true;
        let table = reference_table(&[silent, counting, measurement("hard", "bfs", Some(20), 10)]);
        let row = |solver: &str| {
            table
                .lines()
                .find(|line| line.starts_with(&format!("| hard | {solver}")))
                .unwrap_or_default()
                .to_string()
        };
        assert!(row("peer (external)").contains("| – | – | – |"), "{table}");
        // Nodes the engine sent are shown; its memory never is.
        assert!(row("peer2").contains("| 10 |"), "{table}");
        assert!(row("peer2").contains("| – |"), "{table}");
        assert!(!row("bfs").contains('–'), "{table}");
    }

    #[test]
    fn the_other_build_is_compared_with_every_solver_of_this_one() {
        let mut theirs = measurement("hard", "iddfs", Some(20), 3000);
        theirs.build = Some("old".to_string());
        let runs = vec![
            measurement("hard", "fast", Some(20), 1000),
            measurement("hard", "iddfs", Some(20), 2000),
            theirs,
        ];
        let mut small = measurement("hard", "fast", Some(20), 1500);
        small.pages = Pages::Small;
        let mut with_small = runs.clone();
        with_small.push(small);
        let table = ratio_table(&with_small);
        assert!(
            table.contains("| hard | fast (4 KiB pages) × 1 | iddfs (old) | 2.00x |"),
            "{table}"
        );
        let table = ratio_table(&runs);
        assert!(
            table.contains("| hard | fast × 1 | iddfs (old) | 3.00x |"),
            "{table}"
        );
        assert!(
            table.contains("| hard | iddfs × 1 | iddfs (old) | 1.50x |"),
            "{table}"
        );
        assert!(ratio_table(&runs[..2]).is_empty());
    }

    #[test]
    fn percentiles_use_the_nearest_rank() {
        let runs: Vec<Measurement> = (1..=100)
            .map(|ms| measurement(&format!("seed {ms}"), "fast", Some(5), ms))
            .collect();
        let summary = summarize("fast", &runs);
        assert_eq!(summary.finished, 100);
        assert_eq!(summary.median_ms, 50.0);
        assert_eq!(summary.p99_ms, 99.0);
        assert_eq!(summary.max_ms, 100.0);
        assert_eq!(summary.mean_ms, 50.5);
        assert_eq!(summary.nodes, 1000);
    }

    #[test]
    fn differing_move_counts_of_optimal_solvers_are_reported() {
        let runs = vec![
            measurement("a", "fast", Some(5), 1),
            measurement("a", "iddfs", Some(5), 1),
            measurement("b", "fast", Some(6), 1),
            measurement("b", "iddfs", Some(7), 1),
        ];
        let found = disagreements(&runs);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].puzzle, "b");
        assert_eq!(
            found[0].answers,
            vec![("fast", Some(6)), ("iddfs", Some(7))]
        );
    }

    #[test]
    fn the_reference_suite_holds_the_boards_and_the_hard_game_ids_once() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards");
        let puzzles = reference_puzzles(&dir).unwrap();
        let names: Vec<&str> = puzzles.iter().map(|(n, _)| n.as_str()).collect();
        assert!(names.contains(&"fogleman-22"));
        // Every game id is either a shipped board or listed by its id, never both.
        for id in REFERENCE_GAME_IDS {
            let puzzle = game_id::parse(id).unwrap();
            assert_eq!(
                puzzles.iter().filter(|(_, p)| *p == puzzle).count(),
                1,
                "{id}"
            );
        }
        // Files come first, sorted by name; game ids follow.
        let files: Vec<&str> = names.iter().copied().filter(|n| !n.contains('+')).collect();
        let mut sorted = files.clone();
        sorted.sort_unstable();
        assert_eq!(files, sorted);
        assert_eq!(&names[..files.len()], &files[..]);
    }

    #[test]
    fn the_random_suite_is_the_same_every_time() {
        let a = random_puzzles().unwrap();
        let b = random_puzzles().unwrap();
        assert_eq!(a.len(), 1000);
        assert!(a.iter().zip(&b).all(|(x, y)| x == y));
    }
}
