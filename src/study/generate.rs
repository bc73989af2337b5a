//! Positions made to order: positions on a board whose optimal solution has exactly a chosen
//! number of moves.
//!
//! Each *walk* starts from a seeded random deal (the robots placed off targets and closed
//! cells, a printed target they can take as the goal) and climbs towards the wanted length:
//! it moves one robot to another free cell, or picks another target, and keeps the change
//! when the optimum, found by [`SOLVER`], is no farther from the wanted length than before.
//! A walk ends at its first position of the wanted length, or after [`STEPS_PER_WALK`] changes.
//!
//! Walks run on a rayon pool of their own, a batch at a time, and their results are taken in
//! walk order. A walk depends only on the seed and its number, so the positions found are the
//! same for a seed on any number of threads, as long as no time limit cuts a solve short.

use super::analyze::{SOLVER, deal_seed, solve_position};
use crate::model::tiles::random_robots;
use crate::model::{Cell, Goal, ModelError, Puzzle, RobotColor, Target};
use crate::solver::{self, Outcome, SolveError};
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How many changes a walk tries before it gives up and a fresh deal takes its place.
pub const STEPS_PER_WALK: u32 = 300;

/// The longest optimum that can be asked for.
pub const MAX_MOVES: u32 = 60;

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenerateConfig {
    /// The wanted optimal move count.
    pub moves: u32,
    /// How many distinct positions to find.
    pub count: usize,
    /// The seed every walk derives from.
    pub seed: u64,
    /// How many robots to deal, in colour order; `None` keeps the puzzle's own robots.
    pub robots: Option<usize>,
    /// Worker threads.
    pub threads: usize,
    /// The time the whole search may take.
    pub time_limit: Duration,
    /// Memory limit of one solve, in bytes.
    pub memory_limit: usize,
}

/// A position with its optimum.
#[derive(Clone, Debug)]
pub struct Found {
    /// The position.
    pub puzzle: Puzzle,
    /// Its optimal move count.
    pub moves: u32,
    /// The walk that reached it (0-based).
    pub walk: u64,
}

/// Why the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// As many positions as asked for were found.
    Complete,
    /// The time limit came first.
    TimeLimit,
    /// The caller cancelled.
    Cancelled,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Generated {
    /// Distinct positions of exactly the wanted length, in walk order.
    pub positions: Vec<Found>,
    /// When fewer positions than asked for were found: the position whose optimum came
    /// closest to the wanted length (the longer one on a tie, then the earliest walk).
    pub closest: Option<Found>,
    /// Why the search ended.
    pub ending: Ending,
    /// Walks finished.
    pub walks: u64,
    /// Positions solved.
    pub solves: u64,
    /// Wall-clock time of the whole search.
    pub elapsed: Duration,
}

/// Progress, reported after every batch of walks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Positions found so far.
    pub found: usize,
    /// Walks finished so far.
    pub walks: u64,
    /// Positions solved so far.
    pub solves: u64,
    /// The optimum of the closest position so far.
    pub closest: Option<u32>,
}

/// Why positions cannot be generated.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The wanted length is out of range.
    #[error("--moves must be between {min} and {MAX_MOVES}, not {moves}")]
    Moves {
        /// The length asked for.
        moves: u32,
        /// The shortest length the rules accept.
        min: u32,
    },
    /// No position was asked for.
    #[error("--count must be at least 1")]
    Count,
    /// The robot count is out of range.
    #[error("--robots must be between 1 and 5, not {0}")]
    Robots(usize),
    /// No target on the board can be taken by the dealt robots.
    #[error("no target on this board can be taken by the dealt robots ({0})")]
    NoTargets(String),
    /// The board has too little room, or another model error.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// The solver refused the positions (an unsupported rule, say).
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The worker threads could not start.
    #[error("the worker threads could not start: {0}")]
    Pool(String),
}

/// The board, robots and goals a search deals from.
struct Deck<'a> {
    base: &'a Puzzle,
    colors: Vec<RobotColor>,
    goals: Vec<Goal>,
}

/// How often [`generate`] tells its progress while a batch of walks runs.
pub const LIVE_PROGRESS: Duration = Duration::from_millis(100);

/// Finds `config.count` distinct positions on the board of `puzzle` (its walls, targets and
/// rules) whose optimum is exactly `config.moves`. `on_progress` is called on this thread
/// after every batch of walks, and every [`LIVE_PROGRESS`] while one runs (a walk towards a
/// long optimum can take many solves). Setting `cancel` stops the search within a solve's poll
/// interval; what was found is kept.
pub fn generate(
    puzzle: &Puzzle,
    config: &GenerateConfig,
    cancel: &Arc<AtomicBool>,
    mut on_progress: impl FnMut(&Progress),
) -> Result<Generated, GenerateError> {
    let start = Instant::now();
    let deck = deck(puzzle, config)?;
    // Any limit past a year is as good as none, and keeps the clock from overflowing.
    let deadline = start + config.time_limit.min(Duration::from_secs(365 * 24 * 3600));
    let threads = config.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("generate-{i}"))
        .build()
        .map_err(|e| GenerateError::Pool(e.to_string()))?;
    let mut positions: Vec<Found> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut closest: Option<Found> = None;
    let mut progress = Progress::default();
    // Solves of every walk so far, counted as they end.
    let solves = AtomicU64::new(0);
    let mut next_walk = 0u64;
    let ending = loop {
        if positions.len() >= config.count {
            break Ending::Complete;
        }
        if cancel.load(Ordering::Relaxed) {
            break Ending::Cancelled;
        }
        if Instant::now() >= deadline {
            break Ending::TimeLimit;
        }
        // Twice as many walks as threads, so one long walk does not idle the others for long.
        let batch: Vec<u64> = (next_walk..next_walk + 2 * threads as u64).collect();
        next_walk += batch.len() as u64;
        let walks: Vec<Result<Walk, GenerateError>> = std::thread::scope(|scope| {
            let batch_run = std::thread::Builder::new()
                .name("generate-batch".to_string())
                .spawn_scoped(scope, || {
                    pool.install(|| {
                        batch
                            .par_iter()
                            .map(|&walk| run_walk(&deck, config, walk, deadline, cancel, &solves))
                            .collect()
                    })
                })
                .map_err(|e| GenerateError::Pool(e.to_string()))?;
            // This thread waits for the batch, telling how many solves are done meanwhile.
            while !batch_run.is_finished() {
                std::thread::sleep(LIVE_PROGRESS);
                progress.solves = solves.load(Ordering::Relaxed);
                on_progress(&progress);
            }
            Ok::<_, GenerateError>(
                batch_run
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            )
        })?;
        progress.solves = solves.load(Ordering::Relaxed);
        for walk in walks {
            let walk = walk?;
            progress.walks += u64::from(walk.finished);
            // A walk cut short still holds an exactly solved position.
            let Some(best) = walk.best else { continue };
            if best.moves == config.moves {
                let goal = best.puzzle.goal();
                let key = (best.puzzle.robot_cells(), goal.pos, goal.color);
                if seen.insert(key) && positions.len() < config.count {
                    positions.push(best);
                }
            } else if closest
                .as_ref()
                .is_none_or(|c| nearer(best.moves, c.moves, config.moves))
            {
                closest = Some(best);
            }
        }
        progress.found = positions.len();
        progress.closest = if positions.is_empty() {
            closest.as_ref().map(|c| c.moves)
        } else {
            Some(config.moves)
        };
        on_progress(&progress);
    };
    Ok(Generated {
        closest: if positions.len() < config.count {
            closest
        } else {
            None
        },
        positions,
        ending,
        walks: progress.walks,
        solves: progress.solves,
        elapsed: start.elapsed(),
    })
}

/// Whether `moves` is nearer to `wanted` than `than` is; on a tie the longer optimum wins.
fn nearer(moves: u32, than: u32, wanted: u32) -> bool {
    let (a, b) = (moves.abs_diff(wanted), than.abs_diff(wanted));
    a < b || (a == b && moves > than)
}

/// Checks the configuration and gathers the colours and goals to deal from.
fn deck<'a>(puzzle: &'a Puzzle, config: &GenerateConfig) -> Result<Deck<'a>, GenerateError> {
    let min = (puzzle.rules().min_solution_len() as u32).max(1);
    if !(min..=MAX_MOVES).contains(&config.moves) {
        return Err(GenerateError::Moves {
            moves: config.moves,
            min,
        });
    }
    if config.count == 0 {
        return Err(GenerateError::Count);
    }
    let colors: Vec<RobotColor> = match config.robots {
        None => puzzle.robots().iter().map(|r| r.color).collect(),
        Some(n) if (1..=RobotColor::ALL.len()).contains(&n) => RobotColor::ALL[..n].to_vec(),
        Some(n) => return Err(GenerateError::Robots(n)),
    };
    let takeable = |color: crate::model::TargetColor| {
        color.robot().is_none_or(|robot| colors.contains(&robot))
    };
    let mut goals: Vec<Goal> = puzzle
        .board()
        .targets()
        .iter()
        .filter(|t: &&Target| takeable(t.color))
        .map(|t| Goal {
            pos: t.pos,
            color: t.color,
        })
        .collect();
    // A board without printed targets still has the puzzle's own goal.
    if puzzle.board().targets().is_empty() && takeable(puzzle.goal().color) {
        goals.push(puzzle.goal());
    }
    if goals.is_empty() {
        let names: Vec<&str> = colors.iter().map(|c| c.name()).collect();
        return Err(GenerateError::NoTargets(names.join(", ")));
    }
    let kind = solver::kind(SOLVER).ok_or_else(|| SolveError::UnknownSolver(SOLVER.into()))?;
    if puzzle.rules().no_rebound && !kind.rules.no_rebound {
        return Err(SolveError::UnsupportedRule {
            solver: kind.name,
            rule: "no-rebound",
        }
        .into());
    }
    Ok(Deck {
        base: puzzle,
        colors,
        goals,
    })
}

/// What one walk reached.
struct Walk {
    /// The position nearest the wanted length (the position of that length, if reached).
    best: Option<Found>,
    /// Whether the walk ran to its end rather than being cut by the time limit or a cancel.
    finished: bool,
    /// Positions solved.
    solves: u64,
}

/// One walk: a seeded deal, then changes that keep the optimum no farther from the wanted
/// length, until it is reached or the steps run out.
fn run_walk(
    deck: &Deck<'_>,
    config: &GenerateConfig,
    walk: u64,
    deadline: Instant,
    cancel: &Arc<AtomicBool>,
    solves: &AtomicU64,
) -> Result<Walk, GenerateError> {
    let mut rng =
        ChaCha8Rng::seed_from_u64(deal_seed(config.seed, (walk >> 32) as usize, walk as u32));
    let board = deck.base.board();
    let robots = random_robots(board, &deck.colors, &mut rng)?;
    let goal = deck.goals[rng.random_range(0..deck.goals.len())];
    let mut current = Puzzle::new(board.clone(), robots, goal, deck.base.rules())?;
    let mut result = Walk {
        best: None,
        finished: false,
        solves: 0,
    };
    let solve =
        |puzzle: &Puzzle, result: &mut Walk| -> Result<Option<Option<u32>>, GenerateError> {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || cancel.load(Ordering::Relaxed) {
                return Ok(None);
            }
            let (moves, outcome, _) = solve_position(puzzle, left, config.memory_limit, cancel)?;
            result.solves += 1;
            solves.fetch_add(1, Ordering::Relaxed);
            // A solve cut short by the clock or a cancel ends the walk; any other outcome without
            // moves (unsolvable, out of memory) is a position to walk away from.
            if outcome == Outcome::TimeLimit.name() || outcome == Outcome::Cancelled.name() {
                return Ok(None);
            }
            Ok(Some(moves))
        };
    let Some(mut moves) = solve(&current, &mut result)? else {
        return Ok(result);
    };
    let wanted = config.moves;
    let distance = |m: Option<u32>| m.map_or(u32::MAX, |m| m.abs_diff(wanted));
    for _ in 0..STEPS_PER_WALK {
        if moves == Some(wanted) {
            break;
        }
        let candidate = neighbour(deck, &current, &mut rng);
        let Some(found) = solve(&candidate, &mut result)? else {
            result.best = moves.map(|m| Found {
                puzzle: current,
                moves: m,
                walk,
            });
            return Ok(result);
        };
        if distance(found) <= distance(moves) {
            current = candidate;
            moves = found;
        }
    }
    result.best = moves.map(|m| Found {
        puzzle: current,
        moves: m,
        walk,
    });
    result.finished = true;
    Ok(result)
}

/// A position one change away: another goal (one time in four, when there is a choice), or
/// one robot moved to a free cell (off targets, closed cells and the other robots).
fn neighbour(deck: &Deck<'_>, puzzle: &Puzzle, rng: &mut impl Rng) -> Puzzle {
    let board = puzzle.board();
    if deck.goals.len() > 1 && rng.random_ratio(1, 4) {
        let mut goal = puzzle.goal();
        while goal == puzzle.goal() {
            goal = deck.goals[rng.random_range(0..deck.goals.len())];
        }
        if let Ok(moved) = Puzzle::new(
            board.clone(),
            puzzle.robots().to_vec(),
            goal,
            puzzle.rules(),
        ) {
            return moved;
        }
    }
    let mut cells = puzzle.robot_cells();
    let free: Vec<Cell> = (0..board.cell_count() as Cell)
        .filter(|&c| {
            !board.is_closed(c) && board.target_at(board.pos(c)).is_none() && !cells.contains(&c)
        })
        .collect();
    if free.is_empty() {
        return puzzle.clone();
    }
    let robot = rng.random_range(0..cells.len());
    cells[robot] = free[rng.random_range(0..free.len())];
    puzzle.with_robot_cells(&cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use crate::solver::{Limits, NoProbe, SolverOptions};

    fn config(moves: u32, count: usize, threads: usize) -> GenerateConfig {
        GenerateConfig {
            moves,
            count,
            seed: 7,
            robots: None,
            threads,
            time_limit: Duration::from_secs(600),
            memory_limit: 1 << 30,
        }
    }

    #[test]
    fn every_position_has_the_wanted_optimum_by_a_second_solver() {
        let puzzle = samples::fogleman_22();
        let cancel = Arc::new(AtomicBool::new(false));
        let generated = generate(&puzzle, &config(9, 4, 2), &cancel, |_| {}).expect("runs");
        assert_eq!(generated.ending, Ending::Complete);
        assert_eq!(generated.positions.len(), 4);
        let mut keys = BTreeSet::new();
        for found in &generated.positions {
            assert_eq!(found.moves, 9);
            assert!(keys.insert((found.puzzle.robot_cells(), found.puzzle.goal().pos)));
            let report = solver::run(
                "iddfs",
                &found.puzzle,
                &SolverOptions::default(),
                &Limits::default(),
                &mut NoProbe,
            )
            .expect("iddfs runs");
            let Outcome::Solved { moves } = report.outcome else {
                panic!("iddfs did not solve {:?}", found.puzzle);
            };
            assert_eq!(moves.len(), 9);
        }
    }

    #[test]
    fn a_seed_gives_the_same_positions_on_any_number_of_threads() {
        let puzzle = samples::fogleman_22();
        let cancel = Arc::new(AtomicBool::new(false));
        let one = generate(&puzzle, &config(7, 3, 1), &cancel, |_| {}).expect("runs");
        let two = generate(&puzzle, &config(7, 3, 2), &cancel, |_| {}).expect("runs");
        let key = |g: &Generated| -> Vec<_> {
            g.positions
                .iter()
                .map(|f| (f.puzzle.robot_cells(), f.puzzle.goal(), f.walk))
                .collect()
        };
        assert_eq!(key(&one), key(&two));
        let mut other = config(7, 3, 2);
        other.seed = 8;
        let three = generate(&puzzle, &other, &cancel, |_| {}).expect("runs");
        assert_ne!(key(&one), key(&three));
    }

    #[test]
    fn an_unreachable_length_ends_at_the_time_limit_with_the_closest_position() {
        let puzzle = samples::fogleman_22();
        let cancel = Arc::new(AtomicBool::new(false));
        let mut asked = config(MAX_MOVES, 1, 2);
        asked.time_limit = Duration::from_millis(600);
        let mut told = Vec::new();
        let generated = generate(&puzzle, &asked, &cancel, |progress| {
            told.push(progress.solves)
        })
        .expect("runs");
        assert_eq!(generated.ending, Ending::TimeLimit);
        // Problem: the progress came only after a batch of walks, and walks towards a length
        // out of reach take the whole time, so nothing was told until the end. It is told
        // while the batch runs, and its last word has every solve.
        assert!(told.len() >= 3, "told {} times", told.len());
        assert_eq!(told.last().copied(), Some(generated.solves));
        assert!(generated.positions.is_empty());
        let closest = generated.closest.expect("some position was solved");
        assert!(closest.moves < MAX_MOVES);
    }

    #[test]
    fn out_of_range_requests_are_refused_by_name() {
        let puzzle = samples::fogleman_22();
        let cancel = Arc::new(AtomicBool::new(false));
        let refused = |c: GenerateConfig| generate(&puzzle, &c, &cancel, |_| {}).unwrap_err();
        assert!(matches!(
            refused(config(0, 1, 1)),
            GenerateError::Moves { .. }
        ));
        assert!(matches!(
            refused(config(MAX_MOVES + 1, 1, 1)),
            GenerateError::Moves { .. }
        ));
        assert!(matches!(refused(config(5, 0, 1)), GenerateError::Count));
        let mut robots = config(5, 1, 1);
        robots.robots = Some(6);
        assert!(matches!(refused(robots), GenerateError::Robots(6)));
    }
}
