//! A search's frontier at any event of its trace: the open list of a breadth-first or
//! best-first search (what waits to be examined, in the order it will be, with g, h and f),
//! or the stack of a depth-first one (each level's move, its numbers, the moves still to try).
//!
//! The open list is rebuilt by replaying the trace: each [`Event::Generated`] adds an entry,
//! each node examined takes its entry out. The order is the search's own rule
//! ([`SearchShape`]): first in, first out for a queue; lowest f first, the newest of equal f
//! first, for A*'s buckets. Entries hold the event that made them, not their path, so a
//! frontier of millions costs tens of bytes an entry; the entries shown are read back whole.

use super::TraceError;
use super::codec::Decoded;
use super::reader::{TraceReader, TracedEvent};
use crate::model::{Cell, Move, MoveTables, Puzzle, RobotColor, Rules};
use crate::solver::heuristics::{Estimator, Heuristic};
use crate::solver::key::{KeyLayout, state_key};
use crate::solver::{Event, RobotCells, SearchShape};
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::{BTreeMap, VecDeque};

/// One node waiting in the open list.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FrontierEntry {
    /// The event that generated it.
    pub event: u64,
    /// Its moves from the start (g).
    pub g: u32,
    /// The solver's estimate of the moves still needed (h), if it has one.
    pub h: Option<u32>,
    /// The robots' cells there, in colour order.
    pub cells: Vec<Cell>,
    /// The moves from the start.
    #[serde(serialize_with = "moves_as_text")]
    pub path: Vec<Move>,
}

/// Moves as their notation ("RN"), as the trace's other exports write them.
fn moves_as_text<S: serde::Serializer>(moves: &[Move], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(moves.iter().map(ToString::to_string))
}

/// A move as its notation, or null.
fn move_as_text<S: serde::Serializer>(mv: &Option<Move>, serializer: S) -> Result<S::Ok, S::Error> {
    match mv {
        Some(mv) => serializer.serialize_some(&mv.to_string()),
        None => serializer.serialize_none(),
    }
}

impl FrontierEntry {
    /// g + h, the number the best-first order sorts by (g alone without an estimate).
    pub fn f(&self) -> u32 {
        self.g + self.h.unwrap_or(0)
    }
}

/// The open list after an event, as shown.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Frontier {
    /// The event after which it stands.
    pub after_event: u64,
    /// The nodes in the open list.
    pub size: u64,
    /// The nodes examined so far: the closed set.
    pub closed: u64,
    /// The first entries, in the order the search will examine them; the first is next.
    pub next: Vec<FrontierEntry>,
}

/// An entry as the replay keeps it.
#[derive(Clone, Copy, Debug)]
struct Open {
    event: u64,
    g: u32,
    h: Option<u32>,
}

/// A state as the open list tells it apart, as the searches' own tables key it: the robots'
/// cells with the robots that only stand in the way interchangeable, and what else the rules
/// make part of it (each robot's last direction under no-rebound, the moves made while fewer
/// than the ricochet rule's minimum).
type StateKey = u128;

/// The open list being replayed.
enum OpenList {
    /// First in, first out.
    Queue(VecDeque<(StateKey, Open)>),
    /// By f, then newest first; with each state's entry, as A*'s table keeps the best.
    Best {
        order: BTreeMap<(u32, Reverse<u64>), StateKey>,
        entries: FxHashMap<StateKey, Open>,
    },
}

/// Rebuilds a trace's open list event by event; reaching a later event goes on from where it
/// stands, an earlier one starts again.
pub struct FrontierBuilder {
    rules: Rules,
    layout: KeyLayout,
    /// The robots' colours in the puzzle's order, to find each one's last move.
    colors: Vec<RobotColor>,
    /// The events replayed: the list stands after event `replayed - 1`.
    replayed: u64,
    closed: u64,
    open: OpenList,
}

/// How many events [`FrontierBuilder::advance`] replays in one call.
pub const FRONTIER_STRIDE: u64 = 1_000_000;

impl FrontierBuilder {
    /// A builder for a search of `shape` (one with an open list) on `puzzle`; `None` for a
    /// search without one.
    pub fn new(shape: SearchShape, puzzle: &Puzzle) -> Option<FrontierBuilder> {
        let rules = puzzle.rules();
        let open = match shape {
            SearchShape::Queue => OpenList::Queue(VecDeque::new()),
            SearchShape::BestFirst(_) => OpenList::Best {
                order: BTreeMap::new(),
                entries: FxHashMap::default(),
            },
            SearchShape::DepthFirst(_) | SearchShape::Own => return None,
        };
        Some(FrontierBuilder {
            rules,
            layout: KeyLayout::new(
                puzzle.board().cell_count(),
                puzzle.active_robot(),
                rules.no_rebound,
            ),
            colors: puzzle.robots().iter().map(|r| r.color).collect(),
            replayed: 0,
            closed: 0,
            open,
        })
    }

    /// Replays toward the state after event `index`, at most `stride` events; `Some` with the
    /// frontier (its first `top` entries read back) once there, `None` to be called again.
    pub fn advance(
        &mut self,
        reader: &TraceReader,
        index: u64,
        top: usize,
        stride: u64,
    ) -> Result<Option<Frontier>, TraceError> {
        if self.replayed > index + 1 {
            // Behind: start again from the first event.
            self.replayed = 0;
            self.closed = 0;
            self.open = match self.open {
                OpenList::Queue(_) => OpenList::Queue(VecDeque::new()),
                OpenList::Best { .. } => OpenList::Best {
                    order: BTreeMap::new(),
                    entries: FxHashMap::default(),
                },
            };
        }
        if self.replayed <= index {
            let mut replay = reader.replay(self.replayed)?;
            let stop = (index + 1).min(self.replayed.saturating_add(stride));
            while self.replayed < stop {
                let Some((at, decoded)) = replay.next_decoded()? else {
                    break;
                };
                match decoded {
                    Decoded::Node { .. } | Decoded::Generated { .. } => {
                        let event = replay.materialize(at, decoded)?;
                        self.apply(&event);
                    }
                    _ => {}
                }
                self.replayed = at + 1;
            }
            if self.replayed <= index && self.replayed < reader.events() {
                return Ok(None);
            }
        }
        Ok(Some(self.frontier(reader, index, top)?))
    }

    /// Replays all the way to the state after event `index`.
    pub fn build(
        &mut self,
        reader: &TraceReader,
        index: u64,
        top: usize,
    ) -> Result<Frontier, TraceError> {
        loop {
            if let Some(frontier) = self.advance(reader, index, top, FRONTIER_STRIDE)? {
                return Ok(frontier);
            }
        }
    }

    /// The state key of a node, as the search's own table has it.
    fn key(&self, cells: &RobotCells, path: &[Move], g: u32) -> StateKey {
        let mut last_dirs = [None; 5];
        if self.rules.no_rebound {
            for (robot, info) in self.colors.iter().enumerate() {
                last_dirs[robot] = path
                    .iter()
                    .rev()
                    .find(|mv| mv.robot == *info)
                    .map(|mv| mv.dir);
            }
        }
        let last = if self.rules.no_rebound {
            &last_dirs[..self.colors.len().min(5)]
        } else {
            &[][..]
        };
        state_key::<u128>(
            &self.layout,
            cells.as_slice(),
            last,
            g,
            self.rules.min_solution_len() as u32,
        )
    }

    fn apply(&mut self, event: &TracedEvent) {
        match &event.event {
            Event::Generated {
                depth,
                cells,
                path,
                h,
            } => {
                let key = self.key(cells, path, *depth);
                let open = Open {
                    event: event.index,
                    g: *depth,
                    h: *h,
                };
                match &mut self.open {
                    OpenList::Queue(queue) => queue.push_back((key, open)),
                    OpenList::Best { order, entries } => {
                        // A state reached again with fewer moves replaces its entry, which
                        // the search skips when it comes to it.
                        if let Some(old) = entries.insert(key, open) {
                            order.remove(&(old.g + old.h.unwrap_or(0), Reverse(old.event)));
                        }
                        order.insert((open.g + open.h.unwrap_or(0), Reverse(open.event)), key);
                    }
                }
            }
            Event::Node { depth, cells, path } => {
                self.closed += 1;
                let key = self.key(cells, path, *depth);
                match &mut self.open {
                    OpenList::Queue(queue) => {
                        if queue.front().is_some_and(|(front, _)| *front == key) {
                            queue.pop_front();
                        } else if let Some(at) = queue.iter().position(|(k, _)| *k == key) {
                            // Not the search's order (an engine's own queue): take it out
                            // where it stands.
                            queue.remove(at);
                        }
                    }
                    OpenList::Best { order, entries } => {
                        if let Some(old) = entries.remove(&key) {
                            order.remove(&(old.g + old.h.unwrap_or(0), Reverse(old.event)));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn size(&self) -> u64 {
        match &self.open {
            OpenList::Queue(queue) => queue.len() as u64,
            OpenList::Best { entries, .. } => entries.len() as u64,
        }
    }

    fn frontier(
        &self,
        reader: &TraceReader,
        index: u64,
        top: usize,
    ) -> Result<Frontier, TraceError> {
        let first: Vec<Open> = match &self.open {
            OpenList::Queue(queue) => queue.iter().take(top).map(|(_, open)| *open).collect(),
            OpenList::Best { order, entries } => order
                .values()
                .take(top)
                .filter_map(|key| entries.get(key).copied())
                .collect(),
        };
        let mut next = Vec::with_capacity(first.len());
        for open in first {
            let Event::Generated { cells, path, .. } = reader.event(open.event)?.event else {
                continue;
            };
            next.push(FrontierEntry {
                event: open.event,
                g: open.g,
                h: open.h,
                cells: cells.as_slice().to_vec(),
                path,
            });
        }
        Ok(Frontier {
            after_event: index,
            size: self.size(),
            closed: self.closed,
            next,
        })
    }
}

/// One level of a depth-first search's stack.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StackLevel {
    /// Its depth (g): the moves from the start to the node at this level.
    pub g: u32,
    /// The lower bound on the moves still needed from there (h), if the solver uses one.
    pub h: Option<u32>,
    /// The move this level took toward the node shown (`None` at the node shown itself).
    #[serde(serialize_with = "move_as_text")]
    pub taken: Option<Move>,
    /// The moves from this level's position, of those that move a robot.
    #[serde(serialize_with = "moves_as_text")]
    pub legal: Vec<Move>,
    /// The moves the search examines from here after the one taken, in its order, as far as
    /// the trace tells (a run still going has not told yet).
    #[serde(serialize_with = "moves_as_text")]
    pub left: Vec<Move>,
    /// Whether the trace went on long enough to tell every move left.
    pub left_complete: bool,
}

/// A depth-first search's stack after an event: from the root down to the node shown.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Stack {
    /// The event after which it stands.
    pub after_event: u64,
    /// The iteration's depth limit or bound.
    pub bound: Option<u32>,
    /// The levels, the root first.
    pub levels: Vec<StackLevel>,
}

/// How many events the stack reads ahead for the moves left to try.
pub const STACK_LOOKAHEAD: u64 = 2_000_000;

/// The stack of a depth-first trace after event `index`: the path of the last node examined,
/// each level with its numbers, and the moves left to try read from the events after it
/// (at most `lookahead` of them).
pub fn stack_at(
    reader: &TraceReader,
    index: u64,
    heuristic: Option<Heuristic>,
    lookahead: u64,
) -> Result<Stack, TraceError> {
    let puzzle = reader.puzzle();
    let mut replay = reader.replay(index)?;
    let shown = replay.next_event()?;
    let bound = shown.as_ref().and_then(|e| e.iteration);
    let path: Vec<Move> = match shown.as_ref().map(|e| &e.event) {
        Some(Event::Node { path, .. }) => path.clone(),
        _ => replay.path(),
    };
    let tables = MoveTables::new(puzzle.board());
    let estimates = Estimates::new(puzzle, heuristic);
    let mut levels = Vec::with_capacity(path.len() + 1);
    let mut cells = puzzle.robot_cells();
    for g in 0..=path.len() {
        let taken = path.get(g).copied();
        levels.push(StackLevel {
            g: g as u32,
            h: estimates.h(&cells, g as u32),
            taken,
            legal: legal_moves(puzzle, &tables, &cells),
            left: Vec::new(),
            left_complete: false,
        });
        if let Some(mv) = taken
            && let Some(robot) = puzzle.robot_index(mv.robot)
        {
            cells[robot] = tables.slide(&cells, robot, mv.dir);
        }
    }
    moves_left(
        &mut replay,
        &path,
        &mut levels,
        lookahead,
        reader.is_finished(),
    )?;
    Ok(Stack {
        after_event: index,
        bound,
        levels,
    })
}

/// The moves that move a robot from `cells`, robots in colour order.
fn legal_moves(puzzle: &Puzzle, tables: &MoveTables, cells: &[Cell]) -> Vec<Move> {
    let mut moves = Vec::new();
    for (robot, info) in puzzle.robots().iter().enumerate() {
        for dir in crate::model::Direction::ALL {
            if tables.slide(cells, robot, dir) != cells[robot] {
                moves.push(Move::new(info.color, dir));
            }
        }
    }
    moves
}

/// Reads ahead for each level's moves left: the children at depth `g + 1` that share the
/// level's path, until the search climbs above the level. At the end of a finished trace
/// every level is told whole.
fn moves_left(
    replay: &mut super::Replay<'_>,
    path: &[Move],
    levels: &mut [StackLevel],
    lookahead: u64,
    finished: bool,
) -> Result<(), TraceError> {
    // Levels still open: the deepest one above which the search has not climbed.
    let mut open = levels.len();
    let mut read = 0u64;
    while open > 0 && read < lookahead {
        let Some((_, decoded)) = replay.next_decoded()? else {
            if finished {
                levels[..open]
                    .iter_mut()
                    .for_each(|l| l.left_complete = true);
            }
            return Ok(());
        };
        read += 1;
        let Decoded::Node { depth, .. } = decoded else {
            continue;
        };
        let depth = depth as usize;
        // A node at depth d closes every level at d or deeper: their subtrees are done.
        while open > depth {
            open -= 1;
            levels[open].left_complete = true;
        }
        if depth == 0 || depth > open {
            continue;
        }
        let parent = depth - 1;
        let cursor = replay.path();
        if cursor.len() == depth && cursor[..parent] == path[..parent.min(path.len())] {
            levels[parent].left.push(cursor[parent]);
        }
    }
    Ok(())
}

/// The numbers a search's heuristic gives a node: h from its cells and g, for the solver of a
/// trace or of a run.
pub struct Estimates {
    estimator: Option<Estimator>,
}

impl Estimates {
    /// The estimates of `heuristic` on `puzzle` (none without a heuristic).
    pub fn new(puzzle: &Puzzle, heuristic: Option<Heuristic>) -> Estimates {
        Estimates {
            estimator: heuristic.map(|h| Estimator::new(puzzle, h)),
        }
    }

    /// The estimates of the solver a trace holds.
    pub fn of_trace(reader: &TraceReader) -> Estimates {
        Estimates::new(reader.puzzle(), shape_of_trace(reader).heuristic())
    }

    /// h for robots at `cells` reached with `g` moves: `None` without a heuristic, or when
    /// the target cannot be reached from there.
    pub fn h(&self, cells: &[Cell], g: u32) -> Option<u32> {
        self.estimator.as_ref()?.estimate(cells, g)
    }
}

/// How the search a trace holds chooses its next node: a built-in solver's own shape; for an
/// engine, depth-first when its trace is in depth-first order and its own order otherwise.
pub fn shape_of_trace(reader: &TraceReader) -> SearchShape {
    let header = reader.header();
    match crate::solver::SolverId::from_name(&header.solver) {
        Some(id) if !header.external => id.kind().shape,
        _ if reader.is_depth_first() => SearchShape::DepthFirst(None),
        _ => SearchShape::Own,
    }
}

#[cfg(test)]
mod tests;
