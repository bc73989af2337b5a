//! What a results file is the result of: the study's description, written as the file's first
//! line so that it travels with the rows.
//!
//! A resumed run checks that it continues the same study, and a merge checks that its files
//! are shards of one study, that every shard is there once, and that every row is one the
//! described study deals and judges.

use super::shard::{Shard, ShardError};
use crate::model::Board;
use serde::{Deserialize, Serialize};
use std::hash::{Hash, Hasher};

/// The marker the description line starts with. CSV readers told that `#` starts a comment
/// (ours are) skip the line.
pub const LINE_PREFIX: &str = "# study: ";

/// Everything that decides a study's rows but their times: the board, the configurations, the
/// solvers and their limits, and the slice of the configurations one file holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyDescription {
    /// `standard` for boards dealt from the real tiles, or `fixed <fingerprint>` for one fixed
    /// board (see [`board_fingerprint`]).
    pub board: String,
    /// How many configurations the study has.
    pub configs: u64,
    /// The experiment seed configurations are dealt from.
    pub seed: u64,
    /// Robots per configuration.
    pub robots: usize,
    /// The compared solvers, as given.
    pub solvers: Vec<String>,
    /// The solver whose move count is the required number of moves.
    pub baseline: String,
    /// The per-run time limit in seconds.
    pub time_limit_secs: f64,
    /// The per-run memory limit in bytes.
    pub memory_limit_bytes: usize,
    /// The depth limit given to the compared solvers, if any.
    pub depth_limit: Option<u32>,
    /// Which slice of the configurations this file holds, as `I/N`.
    pub shard: String,
}

/// The solvers of a study in run order: the baseline first, then the others once each.
pub fn run_order(baseline: &str, solvers: &[String]) -> Vec<String> {
    let mut order = vec![baseline.to_string()];
    for name in solvers {
        if !order.contains(name) {
            order.push(name.clone());
        }
    }
    order
}

/// A board's fingerprint: an FNV-1a hash of its walls, targets and size, the same on every
/// run and machine of one word size, so two files can tell whether they used one fixed board
/// without holding it.
pub fn board_fingerprint(board: &Board) -> String {
    let mut hasher = Fnv1a::default();
    board.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// The 64-bit FNV-1a hash: simple, fixed and free of the per-process keys of the standard
/// hasher, so fingerprints stay the same between runs.
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv1a {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A study description line whose JSON does not read: what the JSON reader said.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("its study description does not read: {0}")]
pub struct DescriptionError(pub String);

impl StudyDescription {
    /// The description line, with its newline.
    pub fn line(&self) -> String {
        // Serialising a plain struct of strings and numbers cannot fail.
        let json = serde_json::to_value(self).map_or_else(|_| String::new(), |v| v.to_string());
        format!("{LINE_PREFIX}{json}\n")
    }

    /// Reads a description line (with or without its newline); `None` when the line is not
    /// one, an error naming the fault when it is one that does not read.
    pub fn parse_line(line: &str) -> Option<Result<StudyDescription, DescriptionError>> {
        let json = line.trim_end().strip_prefix(LINE_PREFIX)?;
        Some(serde_json::from_str(json).map_err(|error| DescriptionError(error.to_string())))
    }

    /// The solvers in run order (see [`run_order`]).
    pub fn run_order(&self) -> Vec<String> {
        run_order(&self.baseline, &self.solvers)
    }

    /// The shard this file holds; an unreadable one is named as such.
    pub fn shard(&self) -> Result<Shard, ShardError> {
        self.shard.parse()
    }

    /// The same study's description for another slice of its configurations.
    pub fn with_shard(&self, shard: Shard) -> StudyDescription {
        StudyDescription {
            shard: shard.to_string(),
            ..self.clone()
        }
    }

    /// How `other` differs from this description, one item per field, such as
    /// `robots 3 against 4`; empty when they describe the same study and slice.
    pub fn differences(&self, other: &StudyDescription) -> Vec<String> {
        let mut found = Vec::new();
        let mut compare = |name: &str, mine: String, theirs: String| {
            if mine != theirs {
                found.push(format!("{name} {mine} against {theirs}"));
            }
        };
        compare("board", self.board.clone(), other.board.clone());
        compare(
            "configs",
            self.configs.to_string(),
            other.configs.to_string(),
        );
        compare("seed", self.seed.to_string(), other.seed.to_string());
        compare("robots", self.robots.to_string(), other.robots.to_string());
        compare("solvers", self.solvers.join(","), other.solvers.join(","));
        compare("baseline", self.baseline.clone(), other.baseline.clone());
        compare(
            "time limit",
            format!("{} s", self.time_limit_secs),
            format!("{} s", other.time_limit_secs),
        );
        compare(
            "memory limit",
            format!("{} bytes", self.memory_limit_bytes),
            format!("{} bytes", other.memory_limit_bytes),
        );
        let depth =
            |limit: Option<u32>| limit.map_or_else(|| "none".to_string(), |d| d.to_string());
        compare(
            "depth limit",
            depth(self.depth_limit),
            depth(other.depth_limit),
        );
        compare("shard", self.shard.clone(), other.shard.clone());
        found
    }
}

#[cfg(test)]
impl StudyDescription {
    /// For tests: the description of a whole study of ten configurations on standard boards.
    pub fn for_tests() -> StudyDescription {
        StudyDescription {
            board: "standard".into(),
            configs: 10,
            seed: 1,
            robots: 4,
            solvers: vec!["bfs".into()],
            baseline: "iddfs".into(),
            time_limit_secs: 40.0,
            memory_limit_bytes: 1 << 30,
            depth_limit: None,
            shard: Shard::WHOLE.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::SolverOptions;
    use crate::study::experiment::runner::{BoardSource, ExperimentConfig};
    use std::time::Duration;

    fn config() -> ExperimentConfig {
        ExperimentConfig {
            board: BoardSource::Standard,
            configs: 10,
            seed: 3,
            robots: 4,
            solvers: vec![crate::solver::SolverId::Bfs.into()],
            baseline: crate::solver::SolverId::Iddfs,
            options: SolverOptions::default(),
            time_limit: Duration::from_secs(40),
            memory_limit: 1 << 30,
            threads: 1,
            shard: Shard::WHOLE,
        }
    }

    #[test]
    fn a_description_line_reads_back_and_names_what_differs() {
        let description = config().description();
        let line = description.line();
        assert!(line.starts_with(LINE_PREFIX) && line.ends_with('\n'));
        assert_eq!(
            StudyDescription::parse_line(&line),
            Some(Ok(description.clone()))
        );
        assert_eq!(StudyDescription::parse_line("config,config_seed"), None);
        assert!(matches!(
            StudyDescription::parse_line("# study: {"),
            Some(Err(_))
        ));
        let mut other = config();
        other.robots = 3;
        other.time_limit = Duration::from_secs(10);
        assert_eq!(
            description.differences(&other.description()),
            vec!["robots 4 against 3", "time limit 40 s against 10 s"]
        );
    }

    #[test]
    fn a_fixed_board_is_named_by_a_fingerprint_that_tells_boards_apart() {
        let (first, _) = crate::model::tiles::random_game(1, 4).unwrap();
        let (second, _) = crate::model::tiles::random_game(2, 4).unwrap();
        assert_eq!(
            board_fingerprint(first.board()),
            board_fingerprint(&first.board().clone())
        );
        assert_ne!(
            board_fingerprint(first.board()),
            board_fingerprint(second.board())
        );
    }
}
