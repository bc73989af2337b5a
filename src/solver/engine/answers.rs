//! An engine's answers as the solver layer's own words: its rows as per-depth statistics, a
//! node's robots as robot cells, and its prune reasons.

use super::{NAME_CHARS, intern, protocol};
use crate::model::Puzzle;
use crate::solver::probe::{DepthStats, PruneReason, RobotCells};

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
                let short: String = name.chars().take(NAME_CHARS).collect();
                stats.extra.push((intern(&short), *value));
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
        other => {
            let short: String = other.chars().take(NAME_CHARS).collect();
            PruneReason::Other(intern(&short))
        }
    }
}
