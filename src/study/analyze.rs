//! The board analyser: how hard is a board? For every printed target and many seeded random
//! robot deals, the `fast` solver finds the optimum; the results give the distribution of
//! optimal lengths, each target's mean difficulty and the hardest positions. A local search
//! can then make the hardest positions harder still.
//!
//! Like the experiment runner, this study code runs its solves on a rayon pool of its own and
//! hands each result to the calling thread as soon as it exists; a shared flag cancels.

use crate::model::tiles::random_robots;
use crate::model::{Cell, Goal, ModelError, Puzzle, RobotColor, Target};
use crate::solver::{self, Limits, NoProbe, Outcome, SolveError, SolverOptions};
use crate::study::statistics::mean;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The solver every position is solved with.
pub const SOLVER: &str = solver::fast::NAME;

/// What an analysis runs.
#[derive(Clone, Debug)]
pub struct AnalyzeConfig {
    /// Random robot deals per target.
    pub deals: u32,
    /// The seed every deal derives from.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// Time limit of one solve.
    pub solve_time: Duration,
    /// Memory limit of one solve, in bytes.
    pub memory_limit: usize,
}

/// One solved position.
#[derive(Clone, Debug)]
pub struct PositionResult {
    /// The target's index in the board's target list.
    pub target: usize,
    /// The deal's number for that target (0-based).
    pub deal: u32,
    /// The position.
    pub puzzle: Puzzle,
    /// The optimal move count, when the solver finished with a solution.
    pub moves: Option<u32>,
    /// How the solve ended (`solved`, `unsolvable`, `time-limit`, ...).
    pub outcome: &'static str,
    /// The solve's wall-clock time in milliseconds.
    pub millis: f64,
}

/// A target's results.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetSummary {
    /// The target's index in the board's target list.
    pub index: usize,
    /// The target.
    pub target: Target,
    /// Positions solved.
    pub solved: u64,
    /// Positions without a solution or stopped by a limit.
    pub unsolved: u64,
    /// The mean optimal move count of the solved positions.
    pub mean: Option<f64>,
    /// The largest optimal move count.
    pub max: Option<u32>,
}

/// Everything an analysis found, ordered by target and deal whatever order the threads
/// finished in.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The board's targets (index = [`PositionResult::target`]).
    pub targets: Vec<Target>,
    /// Targets no robot of the puzzle can take (a colour without its robot), skipped.
    pub skipped: Vec<Target>,
    /// Every finished position, by target then deal.
    pub results: Vec<PositionResult>,
    /// Whether the run was cancelled before every position was solved.
    pub cancelled: bool,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl Analysis {
    /// Optimal move count -> number of positions.
    pub fn distribution(&self) -> BTreeMap<u32, u64> {
        let mut counts = BTreeMap::new();
        for moves in self.results.iter().filter_map(|r| r.moves) {
            *counts.entry(moves).or_insert(0) += 1;
        }
        counts
    }

    /// The number of positions a limit stopped (time or memory), whose optimum is unknown.
    pub fn stopped(&self) -> u64 {
        self.results
            .iter()
            .filter(|r| matches!(r.outcome, "time-limit" | "memory-limit"))
            .count() as u64
    }

    /// The number of positions solved.
    pub fn solved(&self) -> u64 {
        self.results.iter().filter(|r| r.moves.is_some()).count() as u64
    }

    /// The mean optimal move count.
    pub fn mean(&self) -> Option<f64> {
        mean(self.results.iter().filter_map(|r| r.moves).map(f64::from))
    }

    /// The share (0..1) of solved positions that take one or two moves.
    pub fn short_share(&self) -> Option<f64> {
        let solved = self.solved();
        (solved > 0).then(|| {
            let short = self
                .results
                .iter()
                .filter(|r| r.moves.is_some_and(|m| m <= 2))
                .count();
            short as f64 / solved as f64
        })
    }

    /// One summary per analysed target, in board order.
    pub fn per_target(&self) -> Vec<TargetSummary> {
        self.targets
            .iter()
            .enumerate()
            .filter(|(_, t)| !self.skipped.contains(t))
            .map(|(index, &target)| {
                let rows: Vec<&PositionResult> =
                    self.results.iter().filter(|r| r.target == index).collect();
                let moves: Vec<u32> = rows.iter().filter_map(|r| r.moves).collect();
                TargetSummary {
                    index,
                    target,
                    solved: moves.len() as u64,
                    unsolved: (rows.len() - moves.len()) as u64,
                    mean: mean(moves.iter().copied().map(f64::from)),
                    max: moves.iter().copied().max(),
                }
            })
            .collect()
    }

    /// The `count` hardest positions: most moves first, then by target and deal.
    pub fn hardest(&self, count: usize) -> Vec<&PositionResult> {
        let mut solved: Vec<&PositionResult> =
            self.results.iter().filter(|r| r.moves.is_some()).collect();
        solved.sort_by(|a, b| {
            b.moves
                .cmp(&a.moves)
                .then(a.target.cmp(&b.target))
                .then(a.deal.cmp(&b.deal))
        });
        solved.truncate(count);
        solved
    }
}

/// Why an analysis cannot run.
#[derive(Debug, thiserror::Error)]
pub enum AnalyzeError {
    /// The board has no target any of the puzzle's robots can take.
    #[error(
        "the board has no target its robots can take (add targets, or robots of their colours)"
    )]
    NoTargets,
    /// The solver refused the puzzle's rules.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// Robots could not be dealt.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The thread pool could not start.
    #[error("the worker threads could not start: {0}")]
    Pool(String),
}

/// The seed deal `deal` of target `target` is dealt from: distinct for every target and deal of
/// one analysis seed, and the same on every run.
pub fn deal_seed(seed: u64, target: usize, deal: u32) -> u64 {
    // SplitMix64's mixing of the three parts, so nearby seeds give unrelated deals.
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add((target as u64) << 32 | u64::from(deal));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The position of deal `deal` on target `target`: the puzzle's robots (their colours) placed
/// at random off targets and closed cells, and that target as the goal.
pub fn deal_position(
    puzzle: &Puzzle,
    seed: u64,
    target: usize,
    deal: u32,
) -> Result<Puzzle, ModelError> {
    let board = puzzle.board();
    let colors: Vec<RobotColor> = puzzle.robots().iter().map(|r| r.color).collect();
    let printed = board.targets()[target];
    let mut rng = ChaCha8Rng::seed_from_u64(deal_seed(seed, target, deal));
    let robots = random_robots(board, &colors, &mut rng)?;
    let goal = Goal {
        pos: printed.pos,
        color: printed.color,
    };
    Puzzle::new(board.clone(), robots, goal, puzzle.rules())
}

/// Whether one of the puzzle's robots can take the target.
pub fn takeable(puzzle: &Puzzle, target: &Target) -> bool {
    match target.color.robot() {
        Some(color) => puzzle.robot_index(color).is_some(),
        None => true,
    }
}

/// Solves one position with [`SOLVER`].
pub fn solve_position(
    puzzle: &Puzzle,
    time: Duration,
    memory_limit: usize,
    cancel: &Arc<AtomicBool>,
) -> Result<(Option<u32>, &'static str, f64), SolveError> {
    let limits = Limits {
        time: Some(time),
        memory_bytes: Some(memory_limit),
        cancel: Some(cancel.clone()),
    };
    // The pool runs one position per thread: each solve keeps to its own thread.
    let options = SolverOptions {
        threads: Some(1),
        ..SolverOptions::default()
    };
    let report = solver::run(SOLVER, puzzle, &options, &limits, &mut NoProbe)?;
    let moves = match &report.outcome {
        Outcome::Solved { moves } => Some(moves.len() as u32),
        _ => None,
    };
    Ok((
        moves,
        report.outcome.name(),
        report.elapsed.as_secs_f64() * 1000.0,
    ))
}

/// Analyses the board of `puzzle` (its walls and targets, its robots' colours and its rules):
/// every takeable target with `config.deals` deals. `on_result` is called on this thread as
/// each position finishes, in whatever order they finish. Setting `cancel` stops the run
/// within a solve's poll interval; the finished positions are kept.
pub fn analyze(
    puzzle: &Puzzle,
    config: &AnalyzeConfig,
    cancel: &Arc<AtomicBool>,
    mut on_result: impl FnMut(&PositionResult),
) -> Result<Analysis, AnalyzeError> {
    let start = Instant::now();
    let board = puzzle.board();
    let targets = board.targets().to_vec();
    let skipped: Vec<Target> = targets
        .iter()
        .filter(|t| !takeable(puzzle, t))
        .copied()
        .collect();
    let jobs: Vec<(usize, u32)> = targets
        .iter()
        .enumerate()
        .filter(|(_, t)| takeable(puzzle, t))
        .flat_map(|(i, _)| (0..config.deals).map(move |d| (i, d)))
        .collect();
    if targets.len() == skipped.len() {
        return Err(AnalyzeError::NoTargets);
    }
    // Refuse unsupported rules and undealable boards before starting any thread.
    let first = deal_position(puzzle, config.seed, jobs[0].0, jobs[0].1)?;
    let kind = solver::kind(SOLVER).ok_or_else(|| SolveError::UnknownSolver(SOLVER.into()))?;
    if puzzle.rules().no_rebound && !kind.rules.no_rebound {
        return Err(SolveError::UnsupportedRule {
            solver: kind.name,
            rule: "no-rebound",
        }
        .into());
    }
    drop(first);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .thread_name(|i| format!("analyze-{i}"))
        .build()
        .map_err(|e| AnalyzeError::Pool(e.to_string()))?;
    // Bounded: workers wait if the caller falls behind, which never takes long.
    let (sender, receiver) = mpsc::sync_channel::<Result<PositionResult, AnalyzeError>>(256);
    let mut results = Vec::with_capacity(jobs.len());
    let mut error = None;
    std::thread::scope(|scope| {
        let jobs = &jobs;
        scope.spawn(move || {
            pool.install(|| {
                jobs.par_iter()
                    .for_each_with(sender, |sender, &(target, deal)| {
                        if cancel.load(Ordering::Relaxed) {
                            return;
                        }
                        let result = deal_position(puzzle, config.seed, target, deal)
                            .map_err(AnalyzeError::from)
                            .and_then(|position| {
                                let (moves, outcome, millis) = solve_position(
                                    &position,
                                    config.solve_time,
                                    config.memory_limit,
                                    cancel,
                                )?;
                                Ok(PositionResult {
                                    target,
                                    deal,
                                    puzzle: position,
                                    moves,
                                    outcome,
                                    millis,
                                })
                            });
                        // A cancelled solve is not a result.
                        if matches!(&result, Ok(r) if r.outcome == Outcome::Cancelled.name()) {
                            return;
                        }
                        let _ = sender.send(result);
                    });
            });
        });
        for result in receiver {
            match result {
                Ok(result) => {
                    on_result(&result);
                    results.push(result);
                }
                Err(e) => {
                    error.get_or_insert(e);
                    cancel.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    if let Some(e) = error {
        return Err(e);
    }
    results.sort_by_key(|r| (r.target, r.deal));
    Ok(Analysis {
        targets,
        skipped,
        cancelled: results.len() < jobs.len(),
        results,
        elapsed: start.elapsed(),
    })
}

/// A position improved by the local search.
#[derive(Clone, Debug)]
pub struct Improved {
    /// The hardest position reached.
    pub puzzle: Puzzle,
    /// Its optimal move count.
    pub moves: u32,
    /// The move count it started from.
    pub start_moves: u32,
    /// Accepted changes (each moved one robot and made the optimum grow).
    pub steps: u32,
    /// Whether the search ended at a local optimum (no single robot relocation makes it
    /// harder) rather than at the time limit or a cancel.
    pub local_optimum: bool,
}

/// The number of relocations tried together before the best improving one is taken.
const RELOCATION_BATCH: usize = 64;

/// Makes a position harder by local search: move one robot to another free cell and keep the
/// change when the optimum grows. Relocations are tried in a seeded order, a batch at a time
/// on the pool's threads; the best improvement of the first batch holding one is taken (ties
/// to the earliest), so the path taken depends only on the seed while time allows. Stops at a
/// local optimum, at `deadline` or on `cancel`.
pub fn improve(
    puzzle: &Puzzle,
    moves: u32,
    seed: u64,
    config: &AnalyzeConfig,
    deadline: Instant,
    cancel: &Arc<AtomicBool>,
) -> Result<Improved, AnalyzeError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .thread_name(|i| format!("analyze-hardest-{i}"))
        .build()
        .map_err(|e| AnalyzeError::Pool(e.to_string()))?;
    let mut current = Improved {
        puzzle: puzzle.clone(),
        moves,
        start_moves: moves,
        steps: 0,
        local_optimum: false,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let board = puzzle.board();
    loop {
        let cells = current.puzzle.robot_cells();
        let goal = current.puzzle.goal_cell();
        let mut candidates: Vec<(usize, Cell)> = (0..cells.len())
            .flat_map(|robot| (0..board.cell_count() as Cell).map(move |c| (robot, c)))
            .filter(|&(_, c)| !board.is_closed(c) && c != goal && !cells.contains(&c))
            .collect();
        candidates.shuffle(&mut rng);
        let mut improved = None;
        for batch in candidates.chunks(RELOCATION_BATCH) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || cancel.load(Ordering::Relaxed) {
                return Ok(current);
            }
            let tried: Vec<Result<Option<(u32, Puzzle)>, SolveError>> = pool.install(|| {
                batch
                    .par_iter()
                    .map(|&(robot, cell)| {
                        let mut moved = cells.clone();
                        moved[robot] = cell;
                        let candidate = current.puzzle.with_robot_cells(&moved);
                        let left = deadline.saturating_duration_since(Instant::now());
                        if left.is_zero() {
                            return Ok(None);
                        }
                        let (found, _, _) =
                            solve_position(&candidate, left, config.memory_limit, cancel)?;
                        Ok(found.map(|m| (m, candidate)))
                    })
                    .collect()
            });
            if Instant::now() >= deadline || cancel.load(Ordering::Relaxed) {
                // The batch may be cut short; only whole batches decide.
                return Ok(current);
            }
            let mut best: Option<(u32, Puzzle)> = None;
            for result in tried {
                if let Some((m, candidate)) = result?
                    && m > current.moves
                    && best.as_ref().is_none_or(|(b, _)| m > *b)
                {
                    best = Some((m, candidate));
                }
            }
            if best.is_some() {
                improved = best;
                break;
            }
        }
        match improved {
            Some((m, candidate)) => {
                current.puzzle = candidate;
                current.moves = m;
                current.steps += 1;
            }
            None => {
                current.local_optimum = true;
                return Ok(current);
            }
        }
    }
}
