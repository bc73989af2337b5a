//! Two searches of one puzzle compared by the positions they reach, whatever their algorithm.
//!
//! Each run is read as the set of positions (the robots' cells) it first examines at each
//! number of moves from the start. Two runs of one algorithm family walk the same nodes in a
//! comparable order, which [`DivergenceRule::Order`](super::DivergenceRule) and
//! [`Sets`](super::DivergenceRule::Sets) check; two different algorithms do not, but they still
//! examine positions at distances from the start, and which positions one reaches that the
//! other never does is what tells them apart: the nodes a bound prunes, the revisits a table
//! saves, the positions a heuristic leads past.

use super::reader::{TraceReader, TracedEvent};
use super::{TraceError, compare::Watch};
use crate::model::Cell;
use crate::solver::{Event, RobotCells};
use rustc_hash::FxHashMap;

/// The most distinct positions one run may hold for a comparison by states: each costs about
/// 24 bytes in the map, so 40 million keep the comparison near 1 GB.
pub const MAX_STATE_POSITIONS: usize = 40_000_000;

/// Where a run first examines a position: the number of moves from the start and the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Reached {
    /// Moves from the start (the node's depth).
    pub moves: u32,
    /// The event's number in the trace, from 0.
    pub event: u64,
}

/// The positions of one number of moves, compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StateDepth {
    /// The number of moves from the start.
    pub moves: u32,
    /// Positions both runs first examine at this number of moves.
    pub both: u64,
    /// Positions only the first run first examines here.
    pub only_first: u64,
    /// Positions only the second run first examines here.
    pub only_second: u64,
    /// Whether both runs examined every position they would at this number of moves (each
    /// went deeper, or ended its search), so that a difference here is the algorithms' own
    /// and not where a run stopped.
    pub complete_in_both: bool,
}

impl StateDepth {
    /// Whether the two runs' sets are equal at this number of moves.
    pub fn is_equal(&self) -> bool {
        self.only_first == 0 && self.only_second == 0
    }
}

/// A position one run examines at a number of moves at which the other never does.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StateDifference {
    /// The robots' cells, in colour order.
    pub cells: Vec<Cell>,
    /// Where the run that has it first examines it.
    pub here: Reached,
    /// Where the other run first examines it, at another number of moves, if it does at all.
    pub there: Option<Reached>,
}

/// Two runs compared by states.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StateComparison {
    /// Per number of moves, from 0 to the deepest either run examined.
    pub depths: Vec<StateDepth>,
    /// The first position (in the first run's order) that the first run examines at a number
    /// of moves the second run completed without it.
    pub only_in_first: Option<StateDifference>,
    /// The same for the second run.
    pub only_in_second: Option<StateDifference>,
    /// Per cell (row-major), how many positions only the first run examines have the active
    /// robot there: the first run's side of the difference as a heat map.
    pub heat_only_first: Vec<u64>,
    /// The same for the second run.
    pub heat_only_second: Vec<u64>,
}

impl StateComparison {
    /// Whether the runs' sets are equal at every number of moves both completed.
    pub fn is_same(&self) -> bool {
        self.depths
            .iter()
            .filter(|d| d.complete_in_both)
            .all(StateDepth::is_equal)
    }
}

/// One run's positions, each with where it was first examined.
struct RunStates {
    first: FxHashMap<RobotCells, Reached>,
    /// The positions in the order the run first examined them.
    order: Vec<RobotCells>,
    /// The deepest number of moves every position of which the run examined.
    complete_up_to: Option<u32>,
}

/// Compares two traces by the positions each first examines at each number of moves,
/// calling `keep_going` with the nodes read so far every few ten thousand nodes; `None` when
/// it said no. Traces of two puzzles are refused, as [`super::compare_traces`] refuses them.
pub fn compare_states_until(
    first: &mut TraceReader,
    second: &mut TraceReader,
    keep_going: &mut dyn FnMut(u64) -> bool,
) -> Result<Option<StateComparison>, TraceError> {
    super::compare::refuse_other_puzzles(first, second)?;
    let mut watch = Watch::new(keep_going);
    let Some(a) = read_states(first, &mut watch)? else {
        return Ok(None);
    };
    let Some(b) = read_states(second, &mut watch)? else {
        return Ok(None);
    };
    let board = first.puzzle().board();
    let cells = usize::from(board.width()) * usize::from(board.height());
    let active = first.puzzle().active_robot().unwrap_or(0);
    let deepest = a
        .first
        .values()
        .chain(b.first.values())
        .map(|r| r.moves)
        .max()
        .unwrap_or(0);
    let complete = |run: &RunStates, moves: u32| run.complete_up_to.is_some_and(|d| moves <= d);
    let mut depths: Vec<StateDepth> = (0..=deepest)
        .map(|moves| StateDepth {
            moves,
            both: 0,
            only_first: 0,
            only_second: 0,
            complete_in_both: complete(&a, moves) && complete(&b, moves),
        })
        .collect();
    let mut heat_only_first = vec![0; cells];
    let mut heat_only_second = vec![0; cells];
    for (cells_there, reached) in &a.first {
        let row = &mut depths[reached.moves as usize];
        match b.first.get(cells_there) {
            Some(other) if other.moves == reached.moves => row.both += 1,
            _ => {
                row.only_first += 1;
                count_heat(&mut heat_only_first, cells_there, active);
            }
        }
    }
    for (cells_there, reached) in &b.first {
        if a.first.get(cells_there).map(|r| r.moves) != Some(reached.moves) {
            depths[reached.moves as usize].only_second += 1;
            count_heat(&mut heat_only_second, cells_there, active);
        }
    }
    Ok(Some(StateComparison {
        depths,
        only_in_first: first_missing(&a, &b),
        only_in_second: first_missing(&b, &a),
        heat_only_first,
        heat_only_second,
    }))
}

/// Counts a position on a heat map at its active robot's cell.
fn count_heat(heat: &mut [u64], cells: &RobotCells, active: usize) {
    if let Some(&cell) = cells.as_slice().get(active)
        && let Some(count) = heat.get_mut(usize::from(cell))
    {
        *count += 1;
    }
}

/// The first position, in `run`'s order, that `run` examines at a number of moves `other`
/// completed without examining it there.
fn first_missing(run: &RunStates, other: &RunStates) -> Option<StateDifference> {
    run.order.iter().find_map(|cells| {
        let here = run.first[cells];
        let there = other.first.get(cells).copied();
        let other_had_the_chance = other.complete_up_to.is_some_and(|d| here.moves <= d);
        (other_had_the_chance && there.map(|r| r.moves) != Some(here.moves)).then(|| {
            StateDifference {
                cells: cells.as_slice().to_vec(),
                here,
                there,
            }
        })
    })
}

/// Reads a run's positions; `None` when the comparison was stopped.
fn read_states(
    reader: &TraceReader,
    watch: &mut Watch<'_>,
) -> Result<Option<RunStates>, TraceError> {
    let mut run = RunStates {
        first: FxHashMap::default(),
        order: Vec::new(),
        complete_up_to: None,
    };
    let mut deepest: Option<u32> = None;
    let mut replay = reader.replay(0)?;
    while let Some(TracedEvent { index, event, .. }) = replay.next_event()? {
        let Event::Node { depth, cells, .. } = event else {
            continue;
        };
        if !watch.node_read() {
            return Ok(None);
        }
        deepest = deepest.max(Some(depth));
        let reached = Reached {
            moves: depth,
            event: index,
        };
        match run.first.get_mut(&cells) {
            // A shorter way to a position seen before: it is first reached at fewer moves.
            Some(known) if depth < known.moves => *known = reached,
            Some(_) => {}
            None => {
                if run.first.len() >= MAX_STATE_POSITIONS {
                    return Err(TraceError::Incomparable {
                        path: reader.path().to_path_buf(),
                        why: format!(
                            "the search examines more than {MAX_STATE_POSITIONS} distinct positions, more than a comparison by states keeps"
                        ),
                    });
                }
                run.first.insert(cells, reached);
                run.order.push(cells);
            }
        }
    }
    // A run examined every position at a number of moves once it went deeper; a search that
    // ran to its end without a solution examined every position it ever would.
    let exhausted = reader.is_finished() && reader.solution().is_none();
    run.complete_up_to = match deepest {
        Some(d) if exhausted => Some(d),
        Some(d) => d.checked_sub(1),
        None => None,
    };
    // Positions found again at fewer moves keep their first place in the order; the order
    // is by the event that reached them first at their own number of moves.
    run.order.sort_by_key(|cells| run.first[cells].event);
    Ok(Some(run))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(moves: u32, both: u64, only_first: u64, only_second: u64) -> StateDepth {
        StateDepth {
            moves,
            both,
            only_first,
            only_second,
            complete_in_both: true,
        }
    }

    #[test]
    fn runs_are_the_same_when_every_complete_depth_is_equal() {
        let mut comparison = StateComparison {
            depths: vec![depth(0, 1, 0, 0), depth(1, 4, 0, 0)],
            only_in_first: None,
            only_in_second: None,
            heat_only_first: Vec::new(),
            heat_only_second: Vec::new(),
        };
        assert!(comparison.is_same());
        comparison.depths.push(StateDepth {
            complete_in_both: false,
            ..depth(2, 3, 5, 0)
        });
        assert!(comparison.is_same(), "an incomplete depth does not count");
        comparison.depths[1].only_second = 1;
        assert!(!comparison.is_same());
    }
}
