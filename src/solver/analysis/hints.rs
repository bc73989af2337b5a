//! Hints in steps, as players know them from DriftingDroids: the optimal move count, then the
//! robots that move, then the first move, then the whole solution.
//!
//! Every level is read from the first of the sorted optimal solutions (see
//! [`all_solutions`]), so a hint prefers the solution that moves the
//! fewest robots and changes robot least often.

use super::all_solutions::{self, EnumerateError, Enumeration, robots_in_order};
use crate::model::{Move, Puzzle, RobotColor, format_moves};
use crate::solver::{Limits, Probe, SolverOptions};
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

/// A hint: the optimal solution it is read from, or the reason there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// The puzzle is solved by `solution`, the first of the sorted optimal solutions.
    Solved {
        /// That solution.
        solution: Vec<Move>,
    },
    /// No solution exists (within `within` moves, when the solver was bounded).
    Unsolvable {
        /// The bound of the proof.
        within: Option<u32>,
    },
    /// The search stopped (a limit or a cancel) before it knew; the text says which.
    Unknown {
        /// Why.
        reason: String,
    },
}

impl Hint {
    /// Reads the hint from an enumeration.
    pub fn from_enumeration(enumeration: &Enumeration) -> Hint {
        use crate::solver::Outcome;
        match (
            &enumeration.optimum.outcome,
            enumeration.listing.solutions.first(),
        ) {
            (Outcome::Solved { .. }, Some(first)) => Hint::Solved {
                solution: first.clone(),
            },
            // The optimal solver's own answer when the listing was stopped before any.
            (Outcome::Solved { moves }, None) => Hint::Solved {
                solution: moves.clone(),
            },
            (Outcome::Unsolvable { within }, _) => Hint::Unsolvable { within: *within },
            (other, _) => Hint::Unknown {
                reason: format!("the search ended: {}", other.name()),
            },
        }
    }

    /// The lines of the hint at `level`, each level adding one line to those of the level
    /// before: `Moves: N` (or `Moves: none`, `Moves: unknown`), then `Robots: ...`, then
    /// `First move: ...`, then `Solution: ...`.
    pub fn lines(&self, level: HintLevel) -> Vec<String> {
        match self {
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
pub fn hint_solver(puzzle: &Puzzle) -> &'static str {
    let fast = crate::solver::fast::KIND;
    if puzzle.rules().no_rebound && !fast.rules.no_rebound {
        crate::solver::iddfs::NAME
    } else {
        fast.name
    }
}

/// Computes the hint for a puzzle within the limits.
pub fn hint<P: Probe>(
    puzzle: &Puzzle,
    limits: &Limits,
    probe: &mut P,
) -> Result<Hint, EnumerateError> {
    let enumeration = all_solutions::enumerate(
        hint_solver(puzzle),
        puzzle,
        &SolverOptions::default(),
        // Only the first solution is read, and the listing keeps the best of all of them.
        1,
        limits,
        probe,
    )?;
    Ok(Hint::from_enumeration(&enumeration))
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
