//! Another build of the program, run on the same puzzles through its `solve --json` so two builds
//! compare on one machine.

use super::*;
use crate::solver::report_json::ReportJson;

/// The command-line names of the built-in solvers `names` gives (`all`: every one), checked
/// against this build's list: the other build is run through its own `--solver NAME`.
fn built_in_names(names: &[String]) -> anyhow::Result<Vec<&'static str>> {
    if names.iter().any(|n| n == "all") {
        return Ok(SolverId::ALL.iter().map(|id| id.name()).collect());
    }
    names
        .iter()
        .map(|name| Ok(name.trim().parse::<SolverId>()?.name()))
        .collect()
}

/// Another build of this program, run through its `solve --json` on the reference puzzles.
pub struct OtherBuild {
    path: PathBuf,
    /// Its file name, shown beside its solvers.
    name: String,
    pub(super) solvers: Vec<&'static str>,
    boards: PathBuf,
}

impl OtherBuild {
    /// Checks that `path` can be run.
    pub fn new(path: &Path, solvers: &[String], boards: &Path) -> anyhow::Result<OtherBuild> {
        std::process::Command::new(path)
            .arg("--version")
            .output()
            .with_context(|| format!("cannot run {}", path.display()))?;
        let solvers = built_in_names(solvers)?;
        Ok(OtherBuild {
            path: path.to_path_buf(),
            name: path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            ),
            solvers,
            boards: boards.to_path_buf(),
        })
    }

    /// Runs `solver` on the reference puzzle `name` (a file of the boards folder or a game
    /// id) `repeat` times and keeps the median run; the CPU time is the child's.
    pub(super) fn measure(
        &self,
        name: &str,
        solver: &'static str,
        limits: &Limits,
        repeat: usize,
    ) -> anyhow::Result<Measurement> {
        let source = if REFERENCE_GAME_IDS.contains(&name) {
            name.to_string()
        } else {
            self.boards
                .join(format!("{name}.ron"))
                .to_string_lossy()
                .into_owned()
        };
        let mut runs = Vec::with_capacity(repeat.clamp(1, super::MAX_REPEAT));
        for index in 0..repeat.clamp(1, super::MAX_REPEAT) {
            // A cancel is seen between runs as well as in them; the first run always goes, so
            // that there is a measurement to return.
            if index > 0 && super::cancelled(limits) {
                break;
            }
            let mut command = std::process::Command::new(&self.path);
            command.args(["solve", &source, "--solver", solver, "--json"]);
            if let Some(time) = limits.time {
                command.args(["--time-limit", &time.as_secs_f64().to_string()]);
            }
            if let Some(bytes) = limits.memory_bytes {
                command.args(["--memory-limit", &(bytes >> 20).max(1).to_string()]);
            }
            let cpu_before = crate::solver::children_cpu_time();
            let output = command
                .output()
                .with_context(|| format!("cannot run {}", self.path.display()))?;
            let cpu = crate::solver::children_cpu_time()
                .zip(cpu_before)
                .map(|(after, before)| after.saturating_sub(before));
            let report: ReportJson = serde_json::from_slice(&output.stdout)
                .with_context(|| format!("{} gave no JSON report on {name}", self.name))?;
            let outcome = match report.outcome.as_str() {
                "solved" => "solved",
                "unsolvable" => "unsolvable",
                "none-within" => "none-within",
                "time-limit" => "time-limit",
                "memory-limit" => "memory-limit",
                _ => "error",
            };
            let finished = matches!(outcome, "solved" | "unsolvable" | "none-within");
            runs.push(Measurement {
                puzzle: name.to_string(),
                solver,
                optimal: solver::kind(solver)
                    .is_some_and(|k| k.optimality == Optimality::Guaranteed),
                external: false,
                outcome,
                moves: report.moves,
                time: Duration::from_secs_f64(report.millis.max(0.0) / 1e3),
                nodes: report.nodes,
                peak_memory: report.peak_memory_bytes,
                threads: report.threads,
                cpu,
                huge_pages: None,
                // The other build runs with its own default: huge pages where given.
                pages: Pages::Huge,
                build: Some(self.name.clone()),
            });
            if !finished {
                break;
            }
        }
        runs.sort_by_key(|m| m.time);
        let median = runs.len() / 2;
        Ok(runs.swap_remove(median))
    }
}
