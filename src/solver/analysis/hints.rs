//! Hints in steps, as players know them from DriftingDroids: the optimal move count, then the
//! robots that move, then the first move, then the whole solution.
//!
//! The move count is the optimum of one solve by the fastest optimal solver (or of a finished
//! solve the caller already has). The other levels are read from the first of the sorted
//! optimal solutions (see [`all_solutions`]), which moves the fewest
//! robots and changes robot least often; it is searched for directly (see
//! [`first_solution`]), so a hint costs about a solve however many optimal solutions there are.
//! A hint that a limit or a cancel stopped says so and nothing else: it never shows a part of a
//! search's answer.

use super::all_solutions::{self, EnumerateError, robots_in_order};
use super::first_solution::{self, FirstError, SolveLeftovers};
use crate::model::{Move, Puzzle, RobotColor, format_moves};
use crate::solver::{Limits, Outcome, Probe, Report, SolverId, SolverOptions, Stop};
use std::fmt;

/// How much a hint gives away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum HintLevel {
    /// The optimal number of moves.
    MoveCount = 1,
    /// Which robots move.
    Robots = 2,
    /// The first move.
    FirstMove = 3,
    /// The whole solution.
    Solution = 4,
}

impl HintLevel {
    /// Every level, least revealing first.
    pub const ALL: [HintLevel; 4] = [
        HintLevel::MoveCount,
        HintLevel::Robots,
        HintLevel::FirstMove,
        HintLevel::Solution,
    ];

    /// The level numbered 1 to 4.
    pub fn from_number(number: u8) -> Option<HintLevel> {
        HintLevel::ALL
            .get(usize::from(number).checked_sub(1)?)
            .copied()
    }

    /// The level's number, 1 to 4.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The next level, or this one when it is the last.
    pub fn next(self) -> HintLevel {
        HintLevel::from_number(self.number() + 1).unwrap_or(HintLevel::Solution)
    }
}

/// A hint: what is known of the first of the sorted optimal solutions, or why nothing is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Only the optimal number of moves is known (all a level-1 hint needs).
    MoveCount {
        /// The optimal number of moves.
        moves: usize,
    },
    /// The puzzle is solved by `solution`, the first of the sorted optimal solutions: every
    /// level can be shown.
    Solved {
        /// That solution.
        solution: Vec<Move>,
    },
    /// No solution exists (within `within` moves, when the solver was bounded).
    Unsolvable {
        /// The bound of the proof.
        within: Option<u32>,
    },
    /// A limit or a cancel stopped the search before it knew.
    Stopped {
        /// Which.
        stop: Stop,
    },
    /// The search ended without an answer for another reason; the text says which.
    Unknown {
        /// Why.
        reason: String,
    },
}

impl Hint {
    /// Whether the hint holds what `level` shows: a [`Hint::MoveCount`] holds only the first
    /// level; every other hint holds all there is to show.
    pub fn covers(&self, level: HintLevel) -> bool {
        match self {
            Hint::MoveCount { .. } => level == HintLevel::MoveCount,
            Hint::Solved { .. }
            | Hint::Unsolvable { .. }
            | Hint::Stopped { .. }
            | Hint::Unknown { .. } => true,
        }
    }

    /// The lines of the hint at `level`, each level adding one line to those of the level
    /// before: `Moves: N` (or `Moves: none`, `Moves: unknown`), then `Robots: ...`, then
    /// `First move: ...`, then `Solution: ...`. A hint that does not [`cover`](Hint::covers)
    /// the level shows what it holds.
    pub fn lines(&self, level: HintLevel) -> Vec<String> {
        match self {
            Hint::MoveCount { moves } => vec![format!("Moves: {moves}")],
            Hint::Solved { solution } => {
                let mut lines = vec![format!("Moves: {}", solution.len())];
                if level >= HintLevel::Robots {
                    let robots: Vec<&str> = robots_in_order(solution)
                        .into_iter()
                        .map(RobotColor::name)
                        .collect();
                    lines.push(format!("Robots: {}", robots.join(", ")));
                }
                if level >= HintLevel::FirstMove {
                    lines.push(match solution.first() {
                        Some(first) => format!("First move: {first}"),
                        None => "First move: none, the target is reached".into(),
                    });
                }
                if level >= HintLevel::Solution {
                    lines.push(format!("Solution: {}", format_moves(solution)));
                }
                lines
            }
            Hint::Unsolvable { within: None } => {
                vec!["Moves: none".into(), "No solution exists.".into()]
            }
            Hint::Unsolvable { within: Some(n) } => vec![
                "Moves: none".into(),
                format!("No solution within {n} moves."),
            ],
            Hint::Stopped { stop } => vec![
                "Moves: unknown".into(),
                format!("the search ended: {}.", stop_name(*stop)),
            ],
            Hint::Unknown { reason } => vec!["Moves: unknown".into(), format!("{reason}.")],
        }
    }
}

impl fmt::Display for HintLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            HintLevel::MoveCount => "the move count",
            HintLevel::Robots => "the robots that move",
            HintLevel::FirstMove => "the first move",
            HintLevel::Solution => "the whole solution",
        };
        f.write_str(name)
    }
}

/// The optimal solver hints use for a puzzle: `fast` when it implements the puzzle's rules,
/// otherwise `iddfs`.
pub fn hint_solver(puzzle: &Puzzle) -> SolverId {
    if puzzle.rules().no_rebound && !SolverId::Fast.kind().rules.no_rebound {
        SolverId::Iddfs
    } else {
        SolverId::Fast
    }
}

/// A stop's name, as a run's outcome names it.
fn stop_name(stop: Stop) -> &'static str {
    match stop {
        Stop::Cancelled => Outcome::Cancelled.name(),
        Stop::TimeLimit => Outcome::TimeLimit.name(),
        Stop::MemoryLimit => Outcome::MemoryLimit.name(),
    }
}

/// Computes the whole hint for a puzzle (every level) within the limits.
pub fn hint<P: Probe>(
    puzzle: &Puzzle,
    limits: &Limits,
    probe: &mut P,
) -> Result<Hint, EnumerateError> {
    hint_at(puzzle, HintLevel::Solution, None, limits, probe)
}

/// Computes what the hint at `level` shows for a puzzle, within the limits: at level 1 the
/// optimum of one solve, at levels 2 to 4 the first of the sorted optimal solutions.
///
/// `known` is a finished run of the same puzzle (rules included) that the hint may start from
/// instead of solving again: it is used when its solver guarantees optimal answers and it
/// either solved the puzzle with a solution that replays on `puzzle`, or proved that no
/// solution exists at all; otherwise the hint solves the puzzle itself. With a reusable run a
/// level-1 hint costs nothing.
///
/// The limits hold for the solve and the search after it together; the probe sees both. A
/// stop in either gives [`Hint::Stopped`], never a part of an answer.
pub fn hint_at<P: Probe>(
    puzzle: &Puzzle,
    level: HintLevel,
    known: Option<&Report>,
    limits: &Limits,
    probe: &mut P,
) -> Result<Hint, EnumerateError> {
    hint_and_solve(puzzle, level, known, limits, probe).map(|(hint, _)| hint)
}

/// [`hint_at`], with the solve it made on the way (none when it started from `known`), so
/// that asking for a later level of the same puzzle can start from that solve instead of
/// solving again.
pub fn hint_and_solve<P: Probe>(
    puzzle: &Puzzle,
    level: HintLevel,
    known: Option<&Report>,
    limits: &Limits,
    probe: &mut P,
) -> Result<(Hint, Option<Report>), EnumerateError> {
    hint_in_steps(puzzle, level, known, limits, probe, |_, _| {})
}

/// [`hint_and_solve`], telling `on_move_count` the optimal move count and the solve that found
/// it as soon as the solve ends, when a search for the first solution follows it (at levels 2
/// to 4, after a solve of its own): the first level can be shown while the others are
/// searched for.
pub fn hint_in_steps<P: Probe>(
    puzzle: &Puzzle,
    level: HintLevel,
    known: Option<&Report>,
    limits: &Limits,
    probe: &mut P,
    on_move_count: impl FnOnce(usize, &Report),
) -> Result<(Hint, Option<Report>), EnumerateError> {
    let reused = known.and_then(|report| Some((reusable(puzzle, report)?, report)));
    let (optimum, solve, leftovers) = match reused {
        Some((outcome, report)) => (outcome, None, SolveLeftovers::nodes_of(puzzle, report)),
        None => {
            let (report, mut retired) = crate::solver::run_keeping_memory(
                hint_solver(puzzle),
                puzzle,
                &SolverOptions::default(),
                limits,
                probe,
            )?;
            // The level 1 hint has no use for the solve's tables: they go at once.
            let leftovers = if level == HintLevel::MoveCount {
                SolveLeftovers::nodes_of(puzzle, &report)
            } else {
                SolveLeftovers::of(puzzle, &report, &mut retired)
            };
            drop(retired);
            (report.outcome.clone(), Some(report), leftovers)
        }
    };
    let spent = solve
        .as_ref()
        .map_or(std::time::Duration::ZERO, |report| report.elapsed);
    if let (Some(report), Outcome::Solved { moves }) = (&solve, &optimum)
        && level > HintLevel::MoveCount
    {
        on_move_count(moves.len(), report);
    }
    let hint = hint_from_optimum(puzzle, level, optimum, spent, leftovers, limits, probe);
    Ok((hint, solve))
}

/// What the hint at `level` shows, given the outcome of an optimal solve that took `spent` of
/// the limits' time.
fn hint_from_optimum<P: Probe>(
    puzzle: &Puzzle,
    level: HintLevel,
    optimum: Outcome,
    spent: std::time::Duration,
    leftovers: SolveLeftovers,
    limits: &Limits,
    probe: &mut P,
) -> Hint {
    let moves = match optimum {
        Outcome::Solved { moves } => moves,
        Outcome::Unsolvable { within } => return Hint::Unsolvable { within },
        Outcome::Cancelled => {
            return Hint::Stopped {
                stop: Stop::Cancelled,
            };
        }
        Outcome::TimeLimit => {
            return Hint::Stopped {
                stop: Stop::TimeLimit,
            };
        }
        Outcome::MemoryLimit => {
            return Hint::Stopped {
                stop: Stop::MemoryLimit,
            };
        }
        other @ (Outcome::NotFound | Outcome::Invalid { .. }) => {
            return Hint::Unknown {
                reason: format!("the search ended: {}", other.name()),
            };
        }
    };
    if level == HintLevel::MoveCount {
        return Hint::MoveCount { moves: moves.len() };
    }
    let rest = Limits {
        time: limits.time.map(|t| t.saturating_sub(spent)),
        ..limits.clone()
    };
    // The aimed search does not yet hold under the ricochet rule (its shortest accepted
    // length can make a robot leave the goal and come back, which the search's cuts do not
    // allow for), so such puzzles read the first solution from the listing, which keeps only
    // the best solution as it goes.
    if puzzle.rules().ricochet {
        let depth = u32::try_from(moves.len()).unwrap_or(u32::MAX);
        let listing = all_solutions::list_optimal(puzzle, depth, 1, None, &rest, probe);
        return match (listing.stopped, listing.solutions.into_iter().next()) {
            (Some(stop), _) => Hint::Stopped { stop },
            (None, Some(solution)) => Hint::Solved { solution },
            (None, None) => Hint::Unknown {
                reason: "the listing found no solution of the optimal length".to_string(),
            },
        };
    }
    let first = first_solution::first_optimal_after(puzzle, &moves, leftovers, None, &rest, probe);
    match first.solution {
        Ok(solution) => Hint::Solved { solution },
        Err(FirstError::Stopped(stop)) => Hint::Stopped { stop },
        Err(error) => Hint::Unknown {
            reason: format!("the search for the first solution failed: {error}"),
        },
    }
}

/// The outcome of `report` when a hint of `puzzle` may start from it: an optimal solver's
/// solution that replays on the puzzle, or its proof that none exists.
fn reusable(puzzle: &Puzzle, report: &Report) -> Option<Outcome> {
    if !report.from_optimal_solver() {
        return None;
    }
    match &report.outcome {
        Outcome::Solved { moves }
            if moves.len() >= puzzle.rules().min_solution_len() && puzzle.replay(moves).is_ok() =>
        {
            Some(report.outcome.clone())
        }
        Outcome::Unsolvable { within: None } => Some(report.outcome.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_moves;

    #[test]
    fn every_level_adds_one_line_to_the_level_before() {
        let hint = Hint::Solved {
            solution: parse_moves("BS, GE, BW").unwrap(),
        };
        assert_eq!(hint.lines(HintLevel::MoveCount), ["Moves: 3"]);
        assert_eq!(
            hint.lines(HintLevel::Robots),
            ["Moves: 3", "Robots: blue, green"]
        );
        assert_eq!(
            hint.lines(HintLevel::FirstMove),
            ["Moves: 3", "Robots: blue, green", "First move: BS"]
        );
        assert_eq!(
            hint.lines(HintLevel::Solution),
            [
                "Moves: 3",
                "Robots: blue, green",
                "First move: BS",
                "Solution: BS, GE, BW"
            ]
        );
        assert_eq!(HintLevel::from_number(0), None);
        assert_eq!(HintLevel::from_number(5), None);
        assert_eq!(HintLevel::Robots.next(), HintLevel::FirstMove);
        assert_eq!(HintLevel::Solution.next(), HintLevel::Solution);
    }
}
