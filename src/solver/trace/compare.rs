//! Two traces of one puzzle side by side: their rows, and the first place their searches
//! differ.

use super::reader::{TraceReader, TracedEvent};
use super::{TraceError, TraceRow};
use crate::solver::{Event, RobotCells};
use rustc_hash::FxHashSet;

/// What counts as the same search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DivergenceRule {
    /// The same nodes (depth and robot cells) in the same order, iteration by iteration: for
    /// two solvers that should walk the same tree the same way.
    Order,
    /// The same set of nodes (depth and robot cells) in each iteration, in any order: for
    /// solvers that order their moves differently.
    Sets,
}

/// Where two searches first differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// The iteration (depth or bound) in which they differ, if the traces have iterations.
    pub iteration: Option<u32>,
    /// The first trace's node there (`None`: it has no more nodes, or none the other lacks).
    pub first: Option<TracedEvent>,
    /// The second trace's node there.
    pub second: Option<TracedEvent>,
    /// What differs, in words.
    pub why: String,
}

/// Two traces compared.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceComparison {
    /// The first trace's rows.
    pub first_rows: Vec<TraceRow>,
    /// The second trace's rows.
    pub second_rows: Vec<TraceRow>,
    /// Nodes compared before the divergence (or in all, when there is none).
    pub nodes_compared: u64,
    /// Where they first differ; `None` when they are the same search by the rule.
    pub divergence: Option<Divergence>,
}

/// The most distinct nodes one iteration may hold for [`DivergenceRule::Sets`]: each costs
/// a hash of 8 bytes and more in a set, so 40 million keep the comparison under 1 GB.
pub const MAX_SET_NODES: usize = 40_000_000;

/// Compares two traces by `rule`. Traces of different puzzles are refused, naming both files.
pub fn compare_traces(
    first: &mut TraceReader,
    second: &mut TraceReader,
    rule: DivergenceRule,
) -> Result<TraceComparison, TraceError> {
    if first.puzzle() != second.puzzle() {
        return Err(TraceError::Incomparable {
            path: second.path().to_path_buf(),
            why: format!(
                "it is a trace of another puzzle than {}: traces compare only on one puzzle",
                first.path().display()
            ),
        });
    }
    let first_rows = first.summary()?.rows;
    let second_rows = second.summary()?.rows;
    let (nodes_compared, divergence) = match rule {
        DivergenceRule::Order => in_order(first, second)?,
        DivergenceRule::Sets => as_sets(first, second)?,
    };
    Ok(TraceComparison {
        first_rows,
        second_rows,
        nodes_compared,
        divergence,
    })
}

/// A node as the comparison sees it: depth and cells.
fn node_key(event: &TracedEvent) -> Option<(u32, RobotCells)> {
    match &event.event {
        Event::Node { depth, cells, .. } => Some((*depth, *cells)),
        _ => None,
    }
}

/// The next node event of a replay, if any.
fn next_node(replay: &mut super::Replay<'_>) -> Result<Option<TracedEvent>, TraceError> {
    while let Some(event) = replay.next_event()? {
        if node_key(&event).is_some() {
            return Ok(Some(event));
        }
    }
    Ok(None)
}

fn in_order(
    first: &TraceReader,
    second: &TraceReader,
) -> Result<(u64, Option<Divergence>), TraceError> {
    let (mut a, mut b) = (first.replay(0)?, second.replay(0)?);
    let mut compared = 0u64;
    loop {
        let (x, y) = (next_node(&mut a)?, next_node(&mut b)?);
        let why = match (&x, &y) {
            (None, None) => return Ok((compared, None)),
            (Some(_), None) => "the second search ends here; the first goes on".to_string(),
            (None, Some(_)) => "the first search ends here; the second goes on".to_string(),
            (Some(x), Some(y)) => {
                if node_key(x) == node_key(y) && x.iteration == y.iteration {
                    compared += 1;
                    continue;
                }
                if x.iteration != y.iteration {
                    format!(
                        "node {compared} is in iteration {} in the first and {} in the second",
                        show(x.iteration),
                        show(y.iteration)
                    )
                } else {
                    format!("node {compared} differs")
                }
            }
        };
        let iteration = x.as_ref().or(y.as_ref()).and_then(|e| e.iteration);
        return Ok((
            compared,
            Some(Divergence {
                iteration,
                first: x,
                second: y,
                why,
            }),
        ));
    }
}

fn show(iteration: Option<u32>) -> String {
    iteration.map_or_else(|| "none".to_string(), |i| i.to_string())
}

/// The nodes of one iteration: their keys, and the first event of each key.
struct IterationNodes {
    iteration: Option<u32>,
    keys: FxHashSet<(u32, RobotCells)>,
    order: Vec<TracedEvent>,
    /// The first node of the next iteration, read ahead.
    next: Option<TracedEvent>,
}

fn read_iteration(
    replay: &mut super::Replay<'_>,
    start: Option<TracedEvent>,
    path: &std::path::Path,
) -> Result<Option<IterationNodes>, TraceError> {
    let Some(start) = start.map_or_else(|| next_node(replay), |s| Ok(Some(s)))? else {
        return Ok(None);
    };
    let mut nodes = IterationNodes {
        iteration: start.iteration,
        keys: FxHashSet::default(),
        order: Vec::new(),
        next: None,
    };
    let mut event = Some(start);
    while let Some(current) = event {
        if current.iteration != nodes.iteration {
            nodes.next = Some(current);
            break;
        }
        if let Some(key) = node_key(&current)
            && nodes.keys.insert(key)
        {
            // Only a key's first event is kept, to name it if the other trace lacks it.
            if nodes.order.len() < MAX_SET_NODES {
                nodes.order.push(current);
            } else {
                return Err(TraceError::Incomparable {
                    path: path.to_path_buf(),
                    why: format!(
                        "iteration {} holds more than {MAX_SET_NODES} distinct nodes, more than a comparison as sets keeps; compare in order instead",
                        show(nodes.iteration)
                    ),
                });
            }
        }
        event = next_node(replay)?;
    }
    Ok(Some(nodes))
}

fn as_sets(
    first: &TraceReader,
    second: &TraceReader,
) -> Result<(u64, Option<Divergence>), TraceError> {
    let (mut a, mut b) = (first.replay(0)?, second.replay(0)?);
    let (mut ahead_a, mut ahead_b) = (None, None);
    let mut compared = 0u64;
    loop {
        let x = read_iteration(&mut a, ahead_a.take(), first.path())?;
        let y = read_iteration(&mut b, ahead_b.take(), second.path())?;
        let (x, y) = match (x, y) {
            (None, None) => return Ok((compared, None)),
            (Some(x), None) => {
                return Ok((
                    compared,
                    Some(Divergence {
                        iteration: x.iteration,
                        first: x.order.into_iter().next(),
                        second: None,
                        why: "the second search ends before this iteration".into(),
                    }),
                ));
            }
            (None, Some(y)) => {
                return Ok((
                    compared,
                    Some(Divergence {
                        iteration: y.iteration,
                        first: None,
                        second: y.order.into_iter().next(),
                        why: "the first search ends before this iteration".into(),
                    }),
                ));
            }
            (Some(x), Some(y)) => (x, y),
        };
        if x.iteration != y.iteration {
            return Ok((
                compared,
                Some(Divergence {
                    iteration: x.iteration,
                    first: x.order.into_iter().next(),
                    second: y.order.into_iter().next(),
                    why: format!(
                        "the next iteration is {} in the first and {} in the second",
                        show(x.iteration),
                        show(y.iteration)
                    ),
                }),
            ));
        }
        let only_first = x
            .order
            .iter()
            .find(|e| node_key(e).is_some_and(|k| !y.keys.contains(&k)));
        let only_second = y
            .order
            .iter()
            .find(|e| node_key(e).is_some_and(|k| !x.keys.contains(&k)));
        if only_first.is_some() || only_second.is_some() {
            let why = match (only_first, only_second) {
                (Some(_), Some(_)) => "each search examines a node the other does not",
                (Some(_), None) => "the first search examines a node the second does not",
                _ => "the second search examines a node the first does not",
            };
            return Ok((
                compared,
                Some(Divergence {
                    iteration: x.iteration,
                    first: only_first.cloned(),
                    second: only_second.cloned(),
                    why: format!("in iteration {}, {why}", show(x.iteration)),
                }),
            ));
        }
        compared += x.keys.len() as u64;
        ahead_a = x.next;
        ahead_b = y.next;
    }
}
