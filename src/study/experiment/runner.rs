//! Runs every chosen solver on every configuration and judges each run against the baseline.

use super::description;
use super::record::{Record, Results, ResultsError, ResultsWriter, Status, read_results};
use super::shard::Shard;
use crate::model::formats::game_id;
use crate::model::tiles::{random_game, random_game_on};
use crate::model::{ModelError, Puzzle};
use crate::solver::{
    self, Limits, NoProbe, Outcome, SolveError, SolverChoice, SolverId, SolverOptions,
};
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Where configurations come from.
#[derive(Clone, Debug)]
pub enum BoardSource {
    /// A standard board dealt from the real tiles for each configuration.
    Standard,
    /// One fixed board; each configuration deals robots and a target on it.
    Fixed(Box<Puzzle>),
}

/// What an experiment runs.
#[derive(Clone, Debug)]
pub struct ExperimentConfig {
    /// Where boards come from.
    pub board: BoardSource,
    /// How many configurations.
    pub configs: u64,
    /// The experiment's seed; configuration `i` is dealt from [`config_seed`]`(seed, i)`.
    pub seed: u64,
    /// Robots per configuration (red, green, blue, yellow, then silver).
    pub robots: usize,
    /// The solvers to compare: built-in solvers and external engines.
    pub solvers: Vec<SolverChoice>,
    /// The optimal solver whose move count is the required number of moves: a built-in one,
    /// since only the registry can promise shortest answers.
    pub baseline: SolverId,
    /// Options passed to every solver.
    pub options: SolverOptions,
    /// Per-run time limit.
    pub time_limit: Duration,
    /// Per-run memory limit in bytes.
    pub memory_limit: usize,
    /// Worker threads (1 keeps timings undisturbed).
    pub threads: usize,
    /// The slice of the configurations this run covers ([`Shard::WHOLE`] for all of them).
    pub shard: Shard,
}

impl ExperimentConfig {
    /// The solvers' names in run order: the baseline first, then the others once each. The
    /// results file keys its rows by these names.
    pub fn run_order(&self) -> Vec<String> {
        self.run_choices()
            .iter()
            .map(|choice| choice.name().to_string())
            .collect()
    }

    /// The solvers in run order (see [`run_order`](Self::run_order)).
    fn run_choices(&self) -> Vec<SolverChoice> {
        let mut order = vec![SolverChoice::BuiltIn(self.baseline)];
        for choice in &self.solvers {
            if order.iter().all(|known| known.name() != choice.name()) {
                order.push(choice.clone());
            }
        }
        order
    }

    /// Checks everything a run needs before it starts: every solver exists, the baseline
    /// guarantees optimal answers, and the first configuration can be dealt (which checks the
    /// robot count and a fixed board). The command line and the app both start here.
    pub fn validate(&self) -> Result<(), ConfigError> {
        // Two solvers of one name would write their rows under one key.
        for choice in &self.solvers {
            if self
                .solvers
                .iter()
                .any(|other| other.name() == choice.name() && other != choice)
            {
                return Err(ConfigError::SameName(choice.name().to_string()));
            }
        }
        crate::study::optimal_baseline(self.baseline.name())?;
        if self.configs > 0 {
            config_puzzle(self, 0).map_err(ConfigError::Deal)?;
        }
        // A fixed board's rules hold in every configuration: a built-in solver that does not
        // implement one is refused before anything runs (an engine says so itself).
        if let BoardSource::Fixed(puzzle) = &self.board {
            for choice in self.run_choices() {
                if let SolverChoice::BuiltIn(id) = choice {
                    let kind = id.kind();
                    if let Some(rule) = kind.rules.unsupported(puzzle.rules()) {
                        return Err(ConfigError::Solver(SolveError::UnsupportedRule {
                            solver: kind.name,
                            rule,
                        }));
                    }
                }
            }
        }
        Ok(())
    }
}

impl ExperimentConfig {
    /// The description of the study this configuration runs, for the first line of its
    /// results file.
    pub fn description(&self) -> description::StudyDescription {
        description::StudyDescription {
            board: match &self.board {
                BoardSource::Standard => "standard".to_string(),
                BoardSource::Fixed(puzzle) => {
                    let rules = puzzle.rules();
                    let mut board =
                        format!("fixed {}", description::board_fingerprint(puzzle.board()));
                    // Two studies of one board under other rules are other studies.
                    for (on, name) in [
                        (rules.ricochet, "ricochet"),
                        (rules.no_rebound, "no-rebound"),
                    ] {
                        if on {
                            board.push_str(&format!(" +{name}"));
                        }
                    }
                    board
                }
            },
            configs: self.configs,
            seed: self.seed,
            robots: self.robots,
            solvers: self
                .solvers
                .iter()
                .map(|choice| choice.name().to_string())
                .collect(),
            baseline: self.baseline.name().to_string(),
            time_limit_secs: self.time_limit.as_secs_f64(),
            memory_limit_bytes: self.memory_limit,
            depth_limit: self.options.depth_limit,
            shard: self.shard.to_string(),
        }
    }
}

/// Why an experiment cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A solver is unknown.
    #[error(transparent)]
    Solver(#[from] SolveError),
    /// Two different solvers (a built-in one and an engine, or two engines) have one name.
    #[error("two different solvers are called '{0}'; register the engine under another name")]
    SameName(String),
    /// The baseline is unknown or not optimal.
    #[error(transparent)]
    Baseline(#[from] crate::study::BaselineError),
    /// The configurations cannot be dealt.
    #[error("configurations cannot be dealt: {0}")]
    Deal(ModelError),
}

/// How far apart the configuration seeds of consecutive experiment seeds start.
pub const SEED_STRIDE: u64 = 1_000_000;

/// The seed configuration `index` of an experiment with `seed` is dealt from.
pub fn config_seed(seed: u64, index: u64) -> u64 {
    seed.wrapping_mul(SEED_STRIDE).wrapping_add(index)
}

/// The puzzle of configuration `index`.
pub fn config_puzzle(config: &ExperimentConfig, index: u64) -> Result<Puzzle, ModelError> {
    deal(&config.board, config.seed, index, config.robots)
}

/// The puzzle of configuration `index` of an experiment with `seed`, `robots` robots and
/// boards from `board`.
pub fn deal(
    board: &BoardSource,
    seed: u64,
    index: u64,
    robots: usize,
) -> Result<Puzzle, ModelError> {
    let seed = config_seed(seed, index);
    match board {
        BoardSource::Standard => random_game(seed, robots).map(|(p, _)| p),
        // The board's rules come with it: a study of a ricochet board is played under the
        // ricochet rule.
        BoardSource::Fixed(puzzle) => random_game_on(puzzle.board(), seed, robots)
            .map(|dealt| dealt.with_rules(puzzle.rules())),
    }
}

/// Judges one run against the required move count.
pub fn judge(outcome: &Outcome, required: Option<u32>) -> Status {
    match outcome {
        Outcome::Solved { moves } => match required {
            None => Status::Unknown,
            Some(r) if moves.len() as u32 == r => Status::Optimal,
            Some(r) if moves.len() as u32 > r => Status::Suboptimal,
            // Shorter than the optimum: one of the two solvers is wrong.
            Some(_) => Status::Invalid,
        },
        Outcome::Invalid { .. } => Status::Invalid,
        Outcome::TimeLimit => Status::Timeout,
        Outcome::MemoryLimit => Status::Memory,
        Outcome::Cancelled => Status::Cancelled,
        Outcome::Unsolvable { .. } | Outcome::NotFound => Status::Unsolved,
    }
}

/// Runs the experiment, skipping runs already in `done`, and hands each finished record to
/// `on_record` on the calling thread as soon as it exists. Cancelled runs are not handed on.
/// Returns when every run is done or `cancel` is set.
pub fn run(
    config: &ExperimentConfig,
    done: &BTreeMap<(u64, String), Record>,
    cancel: &Arc<AtomicBool>,
    mut on_record: impl FnMut(Record),
) -> Result<(), RunError> {
    config
        .validate()
        .map_err(|error| RunError::Config(Box::new(error)))?;
    let order = config.run_choices();
    let pending: Vec<u64> = config
        .shard
        .configs(config.configs)
        .filter(|&i| {
            order
                .iter()
                .any(|s| !done.contains_key(&(i, s.name().to_string())))
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .thread_name(|i| format!("experiment-{i}"))
        .build()?;
    // Bounded: workers wait if the writer falls behind, which never takes long.
    let (sender, receiver) = mpsc::sync_channel::<Result<Record, RunError>>(256);
    std::thread::scope(|scope| {
        let order = &order;
        scope.spawn(move || {
            pool.install(|| {
                pending.par_iter().for_each_with(sender, |sender, &index| {
                    if cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    for result in run_config(config, order, done, index, cancel) {
                        if sender.send(result).is_err() {
                            return;
                        }
                    }
                });
            });
        });
        let mut error = None;
        for result in receiver {
            match result {
                Ok(record) => on_record(record),
                Err(message) => {
                    error.get_or_insert(message);
                    cancel.store(true, Ordering::Relaxed);
                }
            }
        }
        error.map_or(Ok(()), Err)
    })
}

/// Runs the missing solvers of one configuration, the baseline first.
fn run_config(
    config: &ExperimentConfig,
    order: &[SolverChoice],
    done: &BTreeMap<(u64, String), Record>,
    index: u64,
    cancel: &Arc<AtomicBool>,
) -> Vec<Result<Record, RunError>> {
    let puzzle = match config_puzzle(config, index) {
        Ok(p) => p,
        Err(error) => return vec![Err(RunError::Deal { index, error })],
    };
    let limits = Limits {
        time: Some(config.time_limit),
        memory_bytes: Some(config.memory_limit),
        cancel: Some(cancel.clone()),
    };
    // The runner's workers share the cores: a parallel solver in each of them, on every core,
    // would slow all the others down and distort their times.
    let options = SolverOptions {
        threads: config.options.threads.or(Some(
            (solver::fast::available_threads() / config.threads.max(1)).max(1),
        )),
        ..config.options.clone()
    };
    let puzzle_id = game_id::write(&puzzle).unwrap_or_default();
    let mut required = done
        .get(&(index, config.baseline.name().to_string()))
        .map(|r| r.required_moves);
    let mut results = Vec::new();
    for choice in order {
        let name = choice.name().to_string();
        if done.contains_key(&(index, name.clone())) {
            continue;
        }
        let is_baseline = choice.built_in() == Some(config.baseline);
        // The baseline fixes the required move count, so it searches without the depth limit
        // the compared solvers get: a limit below the optimum would leave every row unsolved.
        let baseline_options;
        let run_options = if is_baseline {
            baseline_options = SolverOptions {
                depth_limit: None,
                ..options.clone()
            };
            &baseline_options
        } else {
            &options
        };
        let report = match solver::run(choice, &puzzle, run_options, &limits, &mut NoProbe) {
            Ok(report) => report,
            Err(error) => {
                results.push(Err(RunError::Solve(error)));
                break;
            }
        };
        if report.outcome == Outcome::Cancelled {
            break;
        }
        if is_baseline {
            required = Some(match &report.outcome {
                Outcome::Solved { moves } => Some(moves.len() as u32),
                _ => None,
            });
        }
        let required_moves = required.flatten();
        results.push(Ok(Record {
            config: index,
            config_seed: config_seed(config.seed, index),
            puzzle: puzzle_id.clone(),
            solver: name,
            required_moves,
            found_moves: report.outcome.move_count().map(|m| m as u32),
            status: judge(&report.outcome, required_moves),
            millis: report.elapsed.as_secs_f64() * 1000.0,
            nodes: report.nodes,
            peak_memory_bytes: report.peak_memory as u64,
        }));
    }
    results
}

/// Checks that rows from an earlier run belong to this experiment (same seeds), so that a
/// resumed run never mixes two experiments in one file.
pub fn check_resume(config: &ExperimentConfig, records: &[Record]) -> Result<(), ResumeError> {
    let known: BTreeSet<String> = config.run_order().into_iter().collect();
    for record in records {
        if !config.shard.contains(record.config) {
            return Err(ResumeError::OtherShard {
                config: record.config,
                shard: config.shard,
            });
        }
        let seed = config_seed(config.seed, record.config);
        if record.config_seed != seed {
            return Err(ResumeError::OtherSeed {
                config: record.config,
                found: record.config_seed,
                expected: seed,
            });
        }
        if !known.contains(&record.solver) {
            return Err(ResumeError::OtherSolver(record.solver.clone()));
        }
    }
    Ok(())
}

/// Why an experiment's run stopped short of its end.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The experiment is not one that can run (boxed: the configuration's error is large,
    /// and a run's error travels through a channel per record).
    #[error(transparent)]
    Config(Box<ConfigError>),
    /// The pool of worker threads could not start.
    #[error(transparent)]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// A configuration could not be dealt.
    #[error("configuration {index}: {error}")]
    Deal {
        /// The configuration.
        index: u64,
        /// Why its deal failed.
        error: ModelError,
    },
    /// A solver refused a configuration.
    #[error(transparent)]
    Solve(#[from] SolveError),
}

/// Why the rows already in a results file cannot be resumed by this experiment.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    /// A row's configuration is outside this run's shard.
    #[error(
        "the file has rows of configuration {config}, which is not in shard {shard}: resume \
         with the same --shard"
    )]
    OtherShard {
        /// The row's configuration.
        config: u64,
        /// This run's shard.
        shard: Shard,
    },
    /// A row's configuration was dealt from another seed.
    #[error(
        "the file's configuration {config} was dealt from seed {found}, but this experiment \
         deals it from {expected}: was it made with another --seed?"
    )]
    OtherSeed {
        /// The row's configuration.
        config: u64,
        /// The seed in the row.
        found: u64,
        /// The seed this experiment deals it from.
        expected: u64,
    },
    /// A row is of a solver this run does not run.
    #[error(
        "the file has rows of solver '{0}', which this experiment does not run: resume with \
         the same --solvers"
    )]
    OtherSolver(String),
}

/// A results file opened for a run: locked for this run alone, with the rows already in it.
pub struct OpenedResults {
    /// Appends this run's rows.
    pub writer: ResultsWriter,
    /// The rows an earlier run of the same study left in the file.
    pub records: Vec<Record>,
}

/// Why a results file cannot take a run's rows.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The file exists and the run is not a resumption; each front end says how to go on.
    #[error("{} already exists", path.display())]
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// The file cannot be read, written or locked.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// The file holds rows of another study.
    #[error("{}: {why}", path.display())]
    OtherStudy {
        /// The file.
        path: PathBuf,
        /// How the studies differ.
        why: String,
    },
}

/// Opens the results file of a run, or of a resumed run: refuses an existing file unless
/// `resume` is set, locks the file before reading it (so the rows read are not being written
/// by another run), and checks that rows already there are of this study. The command line and
/// the app both open their files here.
pub fn open_results(
    path: &Path,
    resume: bool,
    config: &ExperimentConfig,
) -> Result<OpenedResults, OpenError> {
    // An empty file holds no rows to protect or resume (an earlier version could leave one
    // when it was killed while making the file), so it is taken as no file.
    let exists = std::fs::metadata(path).is_ok_and(|m| !m.is_file() || m.len() > 0);
    if exists && !resume {
        return Err(OpenError::Exists {
            path: path.to_path_buf(),
        });
    }
    let description = config.description();
    let writer = ResultsWriter::open(path, resume, &description)?;
    let results = if exists {
        read_results(path)?
    } else {
        Results::default()
    };
    let other = |why| OpenError::OtherStudy {
        path: path.to_path_buf(),
        why,
    };
    if let Some(found) = &results.description {
        let differences = found.differences(&description);
        if !differences.is_empty() {
            return Err(other(format!(
                "the file holds another study (the file's against this run's: {}); resume \
                 with the same options",
                differences.join(", ")
            )));
        }
    }
    check_resume(config, &results.records).map_err(|error| other(error.to_string()))?;
    Ok(OpenedResults {
        writer,
        records: results.records,
    })
}

#[cfg(test)]
impl Record {
    /// For tests: an optimal three-move run of `solver` on configuration `config` of an
    /// experiment seeded `seed`.
    pub fn optimal_for_tests(config: u64, seed: u64, solver: &str) -> Record {
        Record {
            config,
            config_seed: config_seed(seed, config),
            puzzle: String::new(),
            solver: solver.into(),
            required_moves: Some(3),
            found_moves: Some(3),
            status: Status::Optimal,
            millis: 1.0,
            nodes: 10,
            peak_memory_bytes: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::experiment::record::done_runs;

    fn config(configs: u64) -> ExperimentConfig {
        ExperimentConfig {
            board: BoardSource::Standard,
            configs,
            seed: 3,
            robots: 4,
            solvers: vec![SolverId::Bfs.into(), SolverId::Iddfs.into()],
            baseline: SolverId::Iddfs,
            options: SolverOptions::default(),
            time_limit: Duration::from_secs(20),
            memory_limit: 1 << 30,
            threads: 2,
            shard: Shard::WHOLE,
        }
    }

    // A fixed board's rules were dropped when robots were dealt on it: a study of a ricochet
    // board recorded one-move solutions the rule forbids.
    #[test]
    fn a_fixed_board_deals_every_configuration_under_its_rules() {
        let rules = crate::model::Rules {
            ricochet: true,
            no_rebound: true,
        };
        let board = crate::model::samples::fogleman_22().with_rules(rules);
        let mut config = config(4);
        config.board = BoardSource::Fixed(Box::new(board));
        for index in 0..4 {
            assert_eq!(config_puzzle(&config, index).unwrap().rules(), rules);
        }
        assert!(
            config
                .description()
                .board
                .ends_with(" +ricochet +no-rebound")
        );
        // A solver that does not implement a rule is refused before anything runs.
        config.solvers.push(SolverId::Stateless.into());
        let error = config.validate().unwrap_err().to_string();
        assert!(
            error.contains("stateless") && error.contains("rule"),
            "{error}"
        );
    }

    #[test]
    fn every_run_is_recorded_and_judged() {
        let mut records = Vec::new();
        let cancel = Arc::new(AtomicBool::new(false));
        run(&config(12), &BTreeMap::new(), &cancel, |r| records.push(r)).unwrap();
        assert_eq!(records.len(), 24);
        assert!(
            records.iter().all(|r| r.status == Status::Optimal),
            "{records:?}"
        );
        let first = records.iter().find(|r| r.config == 0).unwrap();
        assert_eq!(first.config_seed, 3_000_000);
        let puzzle = game_id::parse(&first.puzzle).unwrap();
        assert_eq!(puzzle, config_puzzle(&config(12), 0).unwrap());
    }

    #[test]
    fn resuming_skips_finished_runs_and_repeats_none() {
        let cancel = Arc::new(AtomicBool::new(false));
        let mut first = Vec::new();
        run(&config(5), &BTreeMap::new(), &cancel, |r| first.push(r)).unwrap();
        // Keep a partial result set, as after an interruption: drop one configuration
        // entirely and the second solver's row of another.
        let kept: Vec<Record> = first
            .iter()
            .filter(|r| r.config != 2 && !(r.config == 4 && r.solver == "bfs"))
            .cloned()
            .collect();
        let done = done_runs(&kept);
        let mut second = Vec::new();
        run(&config(5), &done, &cancel, |r| second.push(r)).unwrap();
        let mut redone: Vec<(u64, String)> = second
            .iter()
            .map(|r| (r.config, r.solver.clone()))
            .collect();
        redone.sort();
        assert_eq!(
            redone,
            vec![(2, "bfs".into()), (2, "iddfs".into()), (4, "bfs".into())]
        );
        let resumed = second.iter().find(|r| r.config == 4).unwrap();
        assert_eq!(
            resumed.required_moves,
            first.iter().find(|r| r.config == 4).unwrap().required_moves
        );
        assert!(check_resume(&config(5), &kept).is_ok());
        let mut other = config(5);
        other.seed = 4;
        assert!(
            check_resume(&other, &kept)
                .unwrap_err()
                .to_string()
                .contains("--seed")
        );
    }

    #[test]
    fn judging_follows_the_baseline() {
        let solved = |n| Outcome::Solved {
            moves: vec![
                crate::model::Move::new(
                    crate::model::RobotColor::Red,
                    crate::model::Direction::North
                );
                n
            ],
        };
        assert_eq!(judge(&solved(5), Some(5)), Status::Optimal);
        assert_eq!(judge(&solved(6), Some(5)), Status::Suboptimal);
        assert_eq!(judge(&solved(4), Some(5)), Status::Invalid);
        assert_eq!(judge(&solved(4), None), Status::Unknown);
        assert_eq!(judge(&Outcome::TimeLimit, Some(5)), Status::Timeout);
    }
}
