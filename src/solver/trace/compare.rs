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
    /// The same positions first reached at each number of moves from the start: for any two
    /// algorithms (see [`super::compare_states_until`]).
    States,
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
    /// The positions at each number of moves, for [`DivergenceRule::States`].
    pub states: Option<Box<super::StateComparison>>,
}

/// The most distinct nodes one iteration may hold for [`DivergenceRule::Sets`]: each costs
/// a hash of 8 bytes and more in a set, so 40 million keep the comparison under 1 GB.
pub const MAX_SET_NODES: usize = 40_000_000;

/// How many nodes a comparison reads between two calls of its `keep_going`.
const WATCH_EVERY: u64 = 1 << 16;

/// Compares two traces by `rule`. Traces of different puzzles are refused, naming both files.
pub fn compare_traces(
    first: &mut TraceReader,
    second: &mut TraceReader,
    rule: DivergenceRule,
) -> Result<TraceComparison, TraceError> {
    let compared = compare_traces_until(first, second, rule, &mut |_| true)?;
    // A `keep_going` that always says yes never stops the comparison.
    Ok(compared.expect("a comparison that is never stopped finishes"))
}

/// Compares two traces by `rule` as [`compare_traces`] does, calling `keep_going` with the
/// nodes read so far every few ten thousand nodes; when it says no, the comparison stops and
/// returns `None`. A comparison of two long traces takes seconds to minutes, so a window
/// shows its progress and lets it be cancelled this way.
pub fn compare_traces_until(
    first: &mut TraceReader,
    second: &mut TraceReader,
    rule: DivergenceRule,
    keep_going: &mut dyn FnMut(u64) -> bool,
) -> Result<Option<TraceComparison>, TraceError> {
    refuse_other_puzzles(first, second)?;
    let first_rows = first.summary()?.rows;
    let second_rows = second.summary()?.rows;
    let mut watch = Watch::new(keep_going);
    let compared = match rule {
        DivergenceRule::Order => in_order(first, second, &mut watch)?,
        DivergenceRule::Sets => as_sets(first, second, &mut watch)?,
        DivergenceRule::States => {
            let Some(states) = super::compare_states_until(first, second, watch.keep_going)? else {
                return Ok(None);
            };
            return Ok(Some(by_states(
                first,
                second,
                first_rows,
                second_rows,
                states,
            )?));
        }
    };
    Ok(
        compared.map(|(nodes_compared, divergence)| TraceComparison {
            first_rows,
            second_rows,
            nodes_compared,
            divergence,
            states: None,
        }),
    )
}

/// A comparison by states as a [`TraceComparison`]: the positions both reach are the nodes
/// compared, and the first position one run examines and the other never does is where they
/// differ.
fn by_states(
    first: &TraceReader,
    second: &TraceReader,
    first_rows: Vec<TraceRow>,
    second_rows: Vec<TraceRow>,
    states: super::StateComparison,
) -> Result<TraceComparison, TraceError> {
    let nodes_compared = states.depths.iter().map(|d| d.both).sum();
    let divergence = if states.is_same() {
        None
    } else {
        let node = |reader: &TraceReader, difference: &Option<super::StateDifference>| {
            difference
                .as_ref()
                .map(|d| reader.event(d.here.event))
                .transpose()
        };
        let differs = states
            .depths
            .iter()
            .find(|d| d.complete_in_both && !d.is_equal());
        let why = match differs {
            Some(depth) => format!(
                "at {} moves, {} positions only in the first and {} only in the second",
                depth.moves, depth.only_first, depth.only_second
            ),
            None => "they reach different positions".to_string(),
        };
        Some(Divergence {
            iteration: None,
            first: node(first, &states.only_in_first)?,
            second: node(second, &states.only_in_second)?,
            why,
        })
    };
    Ok(TraceComparison {
        first_rows,
        second_rows,
        nodes_compared,
        divergence,
        states: Some(Box::new(states)),
    })
}

/// Refuses two traces of different puzzles, naming both files.
pub(super) fn refuse_other_puzzles(
    first: &TraceReader,
    second: &TraceReader,
) -> Result<(), TraceError> {
    if first.puzzle() == second.puzzle() {
        return Ok(());
    }
    Err(TraceError::Incomparable {
        path: second.path().to_path_buf(),
        why: format!(
            "it is a trace of another puzzle than {}: traces compare only on one puzzle",
            first.path().display()
        ),
    })
}

/// Counts the nodes a comparison reads and asks its caller, now and then, whether to go on.
pub(super) struct Watch<'w> {
    pub(super) keep_going: &'w mut dyn FnMut(u64) -> bool,
    read: u64,
}

impl<'w> Watch<'w> {
    /// A watch over `keep_going`, with nothing read yet.
    pub(super) fn new(keep_going: &'w mut dyn FnMut(u64) -> bool) -> Watch<'w> {
        Watch {
            keep_going,
            read: 0,
        }
    }

    /// Counts one node read; `false` when the caller wants the comparison stopped.
    pub(super) fn node_read(&mut self) -> bool {
        self.read += 1;
        !self.read.is_multiple_of(WATCH_EVERY) || (self.keep_going)(self.read)
    }
}

/// What a comparison found, or `None` when its caller stopped it.
type Found = Option<(u64, Option<Divergence>)>;

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

/// A node a replay read, or why there is none: the replay ended, or the caller stopped.
enum Read {
    Node(TracedEvent),
    End,
    Stopped,
}

/// The next node event of a replay, counted by `watch`.
fn next_watched(replay: &mut super::Replay<'_>, watch: &mut Watch<'_>) -> Result<Read, TraceError> {
    Ok(match next_node(replay)? {
        Some(event) if watch.node_read() => Read::Node(event),
        Some(_) => Read::Stopped,
        None => Read::End,
    })
}

/// The nodes of a replay with the ordinal of the iteration each is in (0 for the first
/// iteration the trace has, whatever its depth or bound is numbered), so that two solvers that
/// number their first iteration 0, 1 or 3 still line up.
struct Ordinals {
    last: Option<Option<u32>>,
    ordinal: u32,
}

impl Ordinals {
    fn new() -> Ordinals {
        Ordinals {
            last: None,
            ordinal: 0,
        }
    }

    /// The ordinal of `event`'s iteration, counting a change of iteration from the one before.
    fn of(&mut self, event: &TracedEvent) -> u32 {
        match self.last {
            Some(last) if last != event.iteration => self.ordinal += 1,
            _ => {}
        }
        self.last = Some(event.iteration);
        self.ordinal
    }
}

fn in_order(
    first: &TraceReader,
    second: &TraceReader,
    watch: &mut Watch<'_>,
) -> Result<Found, TraceError> {
    let (mut a, mut b) = (first.replay(0)?, second.replay(0)?);
    let (mut ordinals_a, mut ordinals_b) = (Ordinals::new(), Ordinals::new());
    let mut compared = 0u64;
    loop {
        let (x, y) = match (next_watched(&mut a, watch)?, next_watched(&mut b, watch)?) {
            (Read::Stopped, _) | (_, Read::Stopped) => return Ok(None),
            (x, y) => (read_node(x), read_node(y)),
        };
        let why = match (&x, &y) {
            (None, None) => return Ok(Some((compared, None))),
            (Some(_), None) => "the second search ends here; the first goes on".to_string(),
            (None, Some(_)) => "the first search ends here; the second goes on".to_string(),
            (Some(x), Some(y)) => {
                let (ordinal_x, ordinal_y) = (ordinals_a.of(x), ordinals_b.of(y));
                // A trace without iterations (an engine that reports none) lines up with any.
                let both_iterate = x.iteration.is_some() && y.iteration.is_some();
                let same_iteration = !both_iterate || ordinal_x == ordinal_y;
                if node_key(x) == node_key(y) && same_iteration {
                    compared += 1;
                    continue;
                }
                if !same_iteration {
                    format!(
                        "node {compared} is in the {} iteration of the first (numbered {}) and the {} of the second (numbered {})",
                        nth(ordinal_x),
                        show(x.iteration),
                        nth(ordinal_y),
                        show(y.iteration)
                    )
                } else {
                    format!("node {compared} differs")
                }
            }
        };
        let iteration = x.as_ref().or(y.as_ref()).and_then(|e| e.iteration);
        return Ok(Some((
            compared,
            Some(Divergence {
                iteration,
                first: x,
                second: y,
                why,
            }),
        )));
    }
}

/// "1st", "2nd", ... for an ordinal counted from 0.
fn nth(ordinal: u32) -> String {
    let n = ordinal + 1;
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The node a read gave, if any.
fn read_node(read: Read) -> Option<TracedEvent> {
    match read {
        Read::Node(event) => Some(event),
        Read::End | Read::Stopped => None,
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

/// An iteration's nodes as [`read_iteration`] found them.
enum Iteration {
    Nodes(IterationNodes),
    End,
    Stopped,
}

/// Reads the nodes of one iteration, or of the whole rest of the run when `by_iteration` is
/// false.
fn read_iteration(
    replay: &mut super::Replay<'_>,
    start: Option<TracedEvent>,
    path: &std::path::Path,
    by_iteration: bool,
    watch: &mut Watch<'_>,
) -> Result<Iteration, TraceError> {
    let start = match start {
        Some(start) => start,
        None => match next_watched(replay, watch)? {
            Read::Node(event) => event,
            Read::End => return Ok(Iteration::End),
            Read::Stopped => return Ok(Iteration::Stopped),
        },
    };
    let mut nodes = IterationNodes {
        iteration: start.iteration,
        keys: FxHashSet::default(),
        order: Vec::new(),
        next: None,
    };
    let mut event = start;
    loop {
        if by_iteration && event.iteration != nodes.iteration {
            nodes.next = Some(event);
            break;
        }
        if let Some(key) = node_key(&event)
            && nodes.keys.insert(key)
        {
            // Only a key's first event is kept, to name it if the other trace lacks it.
            if nodes.order.len() < MAX_SET_NODES {
                nodes.order.push(event);
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
        event = match next_watched(replay, watch)? {
            Read::Node(next) => next,
            Read::End => break,
            Read::Stopped => return Ok(Iteration::Stopped),
        };
    }
    Ok(Iteration::Nodes(nodes))
}

fn as_sets(
    first: &TraceReader,
    second: &TraceReader,
    watch: &mut Watch<'_>,
) -> Result<Found, TraceError> {
    let (mut a, mut b) = (first.replay(0)?, second.replay(0)?);
    let (mut ahead_a, mut ahead_b) = (next_node(&mut a)?, next_node(&mut b)?);
    // A trace without iterations (an engine that reports none) is one set, and so is the
    // other run then: iterations line up only when both have them.
    let by_iteration = [&ahead_a, &ahead_b]
        .iter()
        .all(|node| node.as_ref().is_none_or(|n| n.iteration.is_some()));
    let mut compared = 0u64;
    let mut iteration = 0u32;
    loop {
        let x = read_iteration(&mut a, ahead_a.take(), first.path(), by_iteration, watch)?;
        let y = read_iteration(&mut b, ahead_b.take(), second.path(), by_iteration, watch)?;
        let (x, y) = match (x, y) {
            (Iteration::Stopped, _) | (_, Iteration::Stopped) => return Ok(None),
            (Iteration::End, Iteration::End) => return Ok(Some((compared, None))),
            (Iteration::Nodes(x), Iteration::End) => {
                return Ok(Some((
                    compared,
                    Some(Divergence {
                        iteration: x.iteration,
                        first: x.order.into_iter().next(),
                        second: None,
                        why: "the second search ends before this iteration".into(),
                    }),
                )));
            }
            (Iteration::End, Iteration::Nodes(y)) => {
                return Ok(Some((
                    compared,
                    Some(Divergence {
                        iteration: y.iteration,
                        first: None,
                        second: y.order.into_iter().next(),
                        why: "the first search ends before this iteration".into(),
                    }),
                )));
            }
            (Iteration::Nodes(x), Iteration::Nodes(y)) => (x, y),
        };
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
            return Ok(Some((
                compared,
                Some(Divergence {
                    iteration: x.iteration,
                    first: only_first.cloned(),
                    second: only_second.cloned(),
                    why: if by_iteration {
                        format!(
                            "in the {} iteration (numbered {} in the first, {} in the second), {why}",
                            nth(iteration),
                            show(x.iteration),
                            show(y.iteration)
                        )
                    } else {
                        why.to_string()
                    },
                }),
            )));
        }
        compared += x.keys.len() as u64;
        iteration += 1;
        ahead_a = x.next;
        ahead_b = y.next;
    }
}
