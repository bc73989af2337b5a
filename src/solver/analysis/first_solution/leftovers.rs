//! What the optimal solve that found the known solution leaves for the search of the first
//! solution, and the nodes the questions may take before the graph is gathered instead.

use crate::model::Puzzle;
use crate::solver::fast::table::Table;
use crate::solver::{Outcome, Report, Retired, SolverId};

/// The most nodes the questions may take before the graph of every optimal solution is
/// gathered instead; the budget without a solve to measure it by.
pub(super) const QUESTION_BUDGET: u64 = 24_000_000;

/// The fewest nodes the questions may take.
const MIN_QUESTION_BUDGET: u64 = 4_000_000;

/// The nodes the questions may take before the graph is gathered instead, given the nodes of
/// the solve when known and whether the graph is gathered meanwhile (from the solve's table,
/// see `Finder::race`). The questions answer the reference puzzles in 0.6-15 million nodes on
/// two threads (5.9-7.9 million on one, which is faster: each thread has its own tables), but
/// on positions such as hansel-24, whose robot sets and changes take long to prove
/// impossible, they take over 200 million, where the graph costs one to two solves. Racing
/// the graph (from the solve's table or from nothing), the questions may take half the
/// solve's nodes on their one thread (real-21 and real-21 with blue moved west need 0.37 and
/// 0.44 of it); otherwise as many as the solve's (their threads walk about twice the nodes).
pub(super) fn question_budget(solve_nodes: Option<u64>, racing: bool) -> u64 {
    match solve_nodes {
        Some(nodes) if racing => (nodes / 2).clamp(MIN_QUESTION_BUDGET, QUESTION_BUDGET),
        Some(nodes) => nodes.clamp(MIN_QUESTION_BUDGET, QUESTION_BUDGET),
        None => QUESTION_BUDGET,
    }
}

/// What the optimal solve that found the known solution leaves for the search of the first:
/// its node count, which sets how long the questions may take before the graph is gathered
/// instead, and the table of a `fast` solve, which spares the graph the iterations below the
/// optimum.
#[derive(Default)]
pub struct SolveLeftovers {
    /// The puzzle solved.
    pub(super) puzzle: Option<Puzzle>,
    /// The solve's nodes.
    pub(super) nodes: u64,
    /// `fast`'s table, when the solve was `fast`'s.
    pub(super) table: Option<Table>,
}

impl SolveLeftovers {
    /// What the solve of `puzzle` that made `report` leaves: its node count and, from its
    /// retired tables, `fast`'s table.
    pub fn of(puzzle: &Puzzle, report: &Report, retired: &mut Retired) -> SolveLeftovers {
        let fast = report.solver == SolverId::Fast.kind().name
            && matches!(report.outcome, Outcome::Solved { .. });
        SolveLeftovers {
            puzzle: Some(puzzle.clone()),
            nodes: report.nodes,
            table: retired.take::<Table>().filter(|_| fast),
        }
    }

    /// A report's node count alone: the solve's tables are gone.
    pub fn nodes_of(puzzle: &Puzzle, report: &Report) -> SolveLeftovers {
        SolveLeftovers {
            puzzle: Some(puzzle.clone()),
            nodes: report.nodes,
            table: None,
        }
    }
}
