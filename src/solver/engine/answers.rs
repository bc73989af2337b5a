//! An engine's answers as the solver layer's own words: its rows as per-depth statistics, a
//! node's robots as robot cells, and its prune reasons.

use super::protocol::{ResultLine, Verdict};
use super::{EngineGaveUp, EngineProblem, process, protocol};
use crate::model::Puzzle;
use crate::solver::Outcome;
use crate::solver::intern::intern_name;
use crate::solver::probe::{DepthStats, Event, Probe, PruneReason, RobotCells};

/// A row as the solver layer's per-depth statistics: its nodes, the counters named `inner`
/// and `hits` in those columns, its time as the extra counter `time`, and every other counter
/// as an extra counter under its own name (cut to 32 characters). `millis`, the name of a
/// row's time in reports, is left out so that it cannot be taken for that.
pub(super) fn depth_stats(row: &protocol::Row) -> DepthStats {
    let mut stats = DepthStats {
        depth: row.depth,
        nodes: row.nodes,
        ..DepthStats::default()
    };
    if let Some(time) = row.time_millis {
        stats.extra.push(("time", time));
    }
    for (name, value) in &row.counters {
        match name.as_str() {
            "inner" => stats.inner = *value,
            "hits" => stats.hits = *value,
            "millis" => {}
            _ => {
                stats.extra.push((intern_name(name), *value));
            }
        }
    }
    stats
}

/// A node event's robots in the puzzle's colour order, when they are exactly its robots.
pub(super) fn robot_cells(
    puzzle: &Puzzle,
    robots: &[(crate::model::RobotColor, crate::model::Pos)],
) -> Option<RobotCells> {
    if robots.len() != puzzle.robots().len() {
        return None;
    }
    let board = puzzle.board();
    let mut cells = Vec::with_capacity(robots.len());
    for robot in puzzle.robots() {
        let (_, pos) = robots.iter().find(|(color, _)| *color == robot.color)?;
        if !board.contains(*pos) {
            return None;
        }
        cells.push(board.cell(*pos));
    }
    Some(RobotCells::new(&cells))
}

/// A prune reason as the solver layer names it: `seen` and `visited` as a visited state,
/// `depth` as the depth limit, `bound` with its numbers as a lower bound, `table` with
/// `stored=` as a table hit, and any other word as itself.
pub(super) fn prune_reason(reason: &str, numbers: &[(String, i64)]) -> PruneReason {
    let number = |key: &str| {
        numbers
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| u32::try_from(*v).ok())
    };
    match reason {
        "seen" | "visited" => PruneReason::Visited,
        "depth" => PruneReason::DepthLimit,
        "bound" => match (number("bound"), number("remaining")) {
            (Some(bound), Some(remaining)) => PruneReason::LowerBound { bound, remaining },
            _ => PruneReason::Other("bound"),
        },
        "table" => match number("stored") {
            Some(stored) => PruneReason::TableHit { stored },
            None => PruneReason::Other("table"),
        },
        other => PruneReason::Other(intern_name(other)),
    }
}

/// How many of the ids last sent to an engine are known as its own, so that a late result
/// for one of them is recognised as stale rather than as another puzzle's.
pub(super) const KEPT_IDS: usize = 64;

/// A puzzle id never sent before by this program (`p1`, `p2`, … over all engines), so that
/// no result can be taken for another puzzle's, even across restarts.
pub(super) fn fresh_id() -> String {
    static SENT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    format!(
        "p{}",
        SENT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1
    )
}

/// Whether a `result` answers the puzzle sent as `expected` (a result for an earlier puzzle
/// sent to the engine is stale, and set aside before this is asked): any other id is for
/// another puzzle.
pub(super) fn check_result_id(
    result: &ResultLine,
    expected: &str,
    line: &str,
) -> Result<(), EngineProblem> {
    if result.id != expected {
        return Err(EngineProblem::WrongPuzzle {
            expected: expected.to_string(),
            got: result.id.clone(),
            line: process::quoted(line),
        });
    }
    Ok(())
}

/// What a verdict claims for `puzzle`, its solution replayed on the board first: a solution
/// that does not replay is an invalid answer; `none N` needs a depth limit of at least N;
/// a give-up after the time limit's `stop` is that limit, any other a search that found
/// nothing (its reason sent to the probe).
pub(super) fn outcome_of<P: Probe>(
    verdict: Verdict,
    puzzle: &Puzzle,
    depth_limit: Option<u32>,
    stopped_by_time: bool,
    line: &str,
    probe: &mut P,
) -> Result<Outcome, EngineProblem> {
    Ok(match verdict {
        Verdict::Solved(moves) => match puzzle.replay(&moves) {
            Ok(_) => {
                probe.event(|| Event::Solution {
                    moves: moves.clone(),
                });
                Outcome::Solved { moves }
            }
            Err(error) => Outcome::Invalid {
                claimed: moves,
                error,
            },
        },
        Verdict::Unsolvable => Outcome::Unsolvable { within: None },
        Verdict::NoneWithin(n) if depth_limit.is_some_and(|limit| n <= limit) => {
            Outcome::Unsolvable { within: Some(n) }
        }
        Verdict::NoneWithin(within) => {
            return Err(EngineProblem::NoneWithoutLimit {
                within,
                limit: depth_limit,
                line: process::quoted(line),
            });
        }
        Verdict::GaveUp(_) if stopped_by_time => Outcome::TimeLimit,
        Verdict::GaveUp(reason) => {
            probe.event(|| Event::solver(EngineGaveUp { reason }));
            Outcome::NotFound
        }
    })
}
