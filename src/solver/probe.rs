//! The probe: how a running solver reports what it does and is asked to stop.
//!
//! Every solver is generic over a [`Probe`]. All methods default to doing nothing and events
//! are built lazily, so a run with [`NoProbe`] compiles to the same code as a run without any
//! hooks. The app's live counters, the debugger's stepping and recording, cancellation and the
//! node profile per move prefix ([`super::profile`]) all go through this one trait.

use super::picture::SearchPicture;
use super::profile::{NodeProfile, ProfileDepthError};
use crate::model::{Board, Cell, Move};
use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// Statistics of one finished depth (or iteration, or level) of a search.
///
/// The meaning of the three counters is the solver's own and is named by its
/// [`SolverKind::columns`](super::SolverKind::columns); the deck's IDDFS counts nodes
/// visited, inner nodes (past the depth and bound cut-offs) and transposition-table hits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DepthStats {
    /// The depth, bound or level this row is about.
    pub depth: u32,
    /// First counter (usually nodes visited).
    pub nodes: u64,
    /// Second counter (usually inner or expanded nodes).
    pub inner: u64,
    /// Third counter (usually duplicates or table hits).
    pub hits: u64,
    /// Further named counters some solvers add.
    pub extra: Vec<(&'static str, u64)>,
}

/// Robot cells in colour order: a search state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RobotCells {
    cells: [Cell; 5],
    len: u8,
}

impl RobotCells {
    /// Copies up to five cells.
    pub fn new(cells: &[Cell]) -> RobotCells {
        let mut array = [0; 5];
        let len = cells.len().min(5);
        array[..len].copy_from_slice(&cells[..len]);
        RobotCells {
            cells: array,
            len: len as u8,
        }
    }

    /// The cells in colour order.
    pub fn as_slice(&self) -> &[Cell] {
        &self.cells[..usize::from(self.len)]
    }
}

/// Why a node was not expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PruneReason {
    /// The node is at the iteration's depth limit.
    DepthLimit,
    /// The lower bound exceeds the moves left.
    LowerBound {
        /// The lower bound on moves still needed.
        bound: u32,
        /// The moves left in this iteration.
        remaining: u32,
    },
    /// The transposition table already holds the state searched at least this deep.
    TableHit {
        /// The moves left when it was searched before.
        stored: u32,
    },
    /// The state was already visited (breadth-first searches).
    Visited,
    /// A solver-specific reason.
    Other(&'static str),
}

impl PruneReason {
    /// The reason in a few words, for a caption under a frame ("needs 3, 1 left").
    pub fn in_brief(&self) -> String {
        match self {
            PruneReason::DepthLimit => "at the depth limit".into(),
            PruneReason::LowerBound { bound, remaining } => {
                format!("needs {bound}, {remaining} left")
            }
            PruneReason::TableHit { stored } => format!("seen with {stored} left"),
            PruneReason::Visited => "seen before".into(),
            PruneReason::Other(why) => (*why).into(),
        }
    }
}

impl fmt::Display for PruneReason {
    /// The reason in words, as the debugger, the event log and the exports give it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PruneReason::DepthLimit => write!(f, "depth limit"),
            PruneReason::LowerBound { bound, remaining } => {
                write!(f, "lower bound {bound} > {remaining} moves left")
            }
            PruneReason::TableHit { stored } => {
                write!(f, "table hit (searched with {stored} moves left)")
            }
            PruneReason::Visited => write!(f, "already visited"),
            PruneReason::Other(why) => write!(f, "{why}"),
        }
    }
}

/// Something that happened in a search, for the debugger and event log.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// A new depth, bound or level begins.
    IterationStarted {
        /// Its depth or bound.
        depth: u32,
    },
    /// A node is examined.
    Node {
        /// Its distance from the root.
        depth: u32,
        /// The robots' cells there, in colour order.
        cells: RobotCells,
        /// The moves from the root to it; the last one led to it. Built only for a probe that
        /// wants events, so every solver can report it, breadth-first ones through their
        /// parent links.
        path: Vec<Move>,
    },
    /// A successor of the node examined last joins the open list of a breadth-first or
    /// best-first search, to be examined later in the search's order: what the frontier is
    /// made of. Depth-first searches, which examine a successor at once, send none.
    Generated {
        /// Its distance from the root (g): one more than its parent's.
        depth: u32,
        /// The robots' cells there, in colour order.
        cells: RobotCells,
        /// The moves from the root to it; the last one led to it from the node examined last.
        path: Vec<Move>,
        /// The solver's estimate of the moves still needed from it (h), if it has one.
        h: Option<u32>,
    },
    /// The node just examined was cut off.
    Pruned {
        /// Its depth.
        depth: u32,
        /// Why.
        reason: PruneReason,
    },
    /// A depth, bound or level is finished.
    IterationFinished(DepthStats),
    /// A solution was found.
    Solution {
        /// The moves, in order.
        moves: Vec<Move>,
    },
    /// An event only one solver knows (the graph solvers' slide-graph changes, the stateless
    /// solver's stores): the solver defines its type, which describes and draws itself.
    Solver(SolverPayload),
}

/// An event type of one solver, carried by [`Event::Solver`].
pub trait SolverEvent: Any + Send + Sync + fmt::Debug {
    /// One line for the event log; cells are named by column and row on `board`.
    fn describe(&self, board: &Board) -> String;

    /// Adds the event to the picture the overlays draw. A solver that shows more than the
    /// heat map draws into its own part, a type its module defines
    /// ([`SearchPicture::part_mut`]), and its overlay reads it back
    /// ([`SearchPicture::part`]). Most events draw nothing.
    fn draw(&self, _picture: &mut SearchPicture) {}

    /// A status the debugger shows until the next one, as a label and a text, if the event
    /// gives one.
    fn status(&self) -> Option<(&'static str, String)> {
        None
    }
}

/// One solver's own event, shared cheaply between the solver thread, the recorded log and the
/// picture the overlays draw. Built only inside [`Probe::event`]'s closure, so a probe that
/// does not want events never allocates one.
#[derive(Clone)]
pub struct SolverPayload {
    event: Arc<dyn SolverEvent>,
    // Compares two payloads by value when both hold the same type; a plain function pointer
    // made in `new`, where the concrete type is still known.
    same: fn(&dyn Any, &dyn Any) -> bool,
}

impl SolverPayload {
    /// Wraps a solver's event.
    pub fn new<T: SolverEvent + PartialEq>(event: T) -> SolverPayload {
        SolverPayload {
            event: Arc::new(event),
            same: |a, b| match (a.downcast_ref::<T>(), b.downcast_ref::<T>()) {
                (Some(a), Some(b)) => a == b,
                _ => false,
            },
        }
    }

    /// The event as the solver's own type, if it is one.
    pub fn downcast_ref<T: SolverEvent>(&self) -> Option<&T> {
        let any: &dyn Any = &*self.event;
        any.downcast_ref::<T>()
    }

    /// One line for the event log.
    pub fn describe(&self, board: &Board) -> String {
        self.event.describe(board)
    }

    /// Adds the event to a picture; see [`SolverEvent::draw`].
    pub fn draw(&self, picture: &mut SearchPicture) {
        self.event.draw(picture);
    }

    /// The status the event gives; see [`SolverEvent::status`].
    pub fn status(&self) -> Option<(&'static str, String)> {
        self.event.status()
    }
}

impl fmt::Debug for SolverPayload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.event.fmt(f)
    }
}

impl PartialEq for SolverPayload {
    fn eq(&self, other: &SolverPayload) -> bool {
        let (a, b): (&dyn Any, &dyn Any) = (&*self.event, &*other.event);
        (self.same)(a, b)
    }
}

impl Eq for SolverPayload {}

impl Event {
    /// A solver's own event, wrapped for [`Event::Solver`].
    pub fn solver<T: SolverEvent + PartialEq>(event: T) -> Event {
        Event::Solver(SolverPayload::new(event))
    }

    /// Adds the event to a picture: a node to the heat map, a solver's own event as it draws
    /// itself; other events leave the picture as it is.
    pub fn draw(&self, picture: &mut SearchPicture) {
        match self {
            Event::Node { cells, .. } => picture.count_node(cells.as_slice()),
            Event::Solver(payload) => payload.draw(picture),
            _ => {}
        }
        picture.end_event();
    }
}

/// What a solver reports to and asks of its observer. Every method defaults to nothing.
pub trait Probe {
    /// Whether the probe counts nodes per move prefix. Solvers report a node's path to
    /// [`node_profile`](Probe::node_profile) only under `if P::PROFILES`, a constant, so a
    /// probe that does not profile leaves no trace in the search loop.
    const PROFILES: bool = false;

    /// The counts nodes are added to, when the probe profiles (see
    /// [`PROFILES`](Probe::PROFILES)).
    #[inline(always)]
    fn node_profile(&mut self) -> Option<&mut NodeProfile> {
        None
    }

    /// Counts a node in the profile, when the probe profiles: `path` yields the moves from
    /// the root to it, of which the profile reads only its first few. Built only when the
    /// probe profiles, so a solver may walk parent links in it.
    #[inline(always)]
    fn profile_node<I: IntoIterator<Item = Move>>(&mut self, path: impl FnOnce() -> I)
    where
        Self: Sized,
    {
        if Self::PROFILES
            && let Some(profile) = self.node_profile()
        {
            profile.count(path());
        }
    }

    /// Whether the probe looks at events. Solvers may skip work that only feeds events.
    fn wants_events(&self) -> bool {
        false
    }

    /// Receives an event, built only when the probe wants it.
    #[inline(always)]
    fn event(&mut self, _event: impl FnOnce() -> Event) {}

    /// Receives a node: its depth, the robots' cells there in colour order, and its path,
    /// which `path` writes into the buffer it is given (cleared) when the probe reads it.
    /// Solvers report nodes here rather than through [`event`](Probe::event), so that a probe
    /// that keeps only the move from a node's parent (a trace recorder) allocates nothing per
    /// node; by default the node is passed on as an [`Event::Node`].
    #[inline(always)]
    fn node(&mut self, depth: u32, cells: &[Cell], path: impl FnOnce(&mut Vec<Move>))
    where
        Self: Sized,
    {
        self.event(|| {
            let mut moves = Vec::with_capacity(depth as usize);
            path(&mut moves);
            Event::Node {
                depth,
                cells: RobotCells::new(cells),
                path: moves,
            }
        });
    }

    /// A depth, bound or level finished with these statistics.
    #[inline(always)]
    fn depth_finished(&mut self, _stats: &DepthStats) {}

    /// Called every few thousand nodes with the nodes counted so far in the run and the
    /// current estimate of memory in use, so live counters can be published.
    #[inline(always)]
    fn progress(&mut self, _nodes: u64, _memory_bytes: usize) {}

    /// Asked every few thousand nodes; `true` stops the search as cancelled.
    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// A probe lent to a wrapper (such as [`Profiling`]) observes as itself.
impl<P: Probe> Probe for &mut P {
    const PROFILES: bool = P::PROFILES;

    #[inline(always)]
    fn node_profile(&mut self) -> Option<&mut NodeProfile> {
        (**self).node_profile()
    }

    #[inline(always)]
    fn wants_events(&self) -> bool {
        (**self).wants_events()
    }

    #[inline(always)]
    fn event(&mut self, event: impl FnOnce() -> Event) {
        (**self).event(event);
    }

    #[inline(always)]
    fn node(&mut self, depth: u32, cells: &[Cell], path: impl FnOnce(&mut Vec<Move>)) {
        (**self).node(depth, cells, path);
    }

    #[inline(always)]
    fn depth_finished(&mut self, stats: &DepthStats) {
        (**self).depth_finished(stats);
    }

    #[inline(always)]
    fn progress(&mut self, nodes: u64, memory_bytes: usize) {
        (**self).progress(nodes, memory_bytes);
    }

    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        (**self).should_stop()
    }
}

/// A probe that profiles nodes per move prefix and passes everything else on to `inner`.
pub struct Profiling<P: Probe> {
    /// The probe it wraps.
    pub inner: P,
    /// The counts so far.
    pub profile: NodeProfile,
}

impl<P: Probe> Profiling<P> {
    /// Wraps `inner`, profiling prefixes of 1 to `depth` moves.
    pub fn new(inner: P, depth: usize) -> Result<Profiling<P>, ProfileDepthError> {
        Ok(Profiling {
            inner,
            profile: NodeProfile::new(depth)?,
        })
    }
}

impl<P: Probe> Probe for Profiling<P> {
    const PROFILES: bool = true;

    #[inline(always)]
    fn node_profile(&mut self) -> Option<&mut NodeProfile> {
        Some(&mut self.profile)
    }

    #[inline(always)]
    fn wants_events(&self) -> bool {
        self.inner.wants_events()
    }

    #[inline(always)]
    fn event(&mut self, event: impl FnOnce() -> Event) {
        self.inner.event(event);
    }

    #[inline(always)]
    fn node(&mut self, depth: u32, cells: &[Cell], path: impl FnOnce(&mut Vec<Move>)) {
        self.inner.node(depth, cells, path);
    }

    #[inline(always)]
    fn depth_finished(&mut self, stats: &DepthStats) {
        self.inner.depth_finished(stats);
    }

    #[inline(always)]
    fn progress(&mut self, nodes: u64, memory_bytes: usize) {
        self.inner.progress(nodes, memory_bytes);
    }

    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        self.inner.should_stop()
    }
}

/// The probe that observes nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProbe;

impl Probe for NoProbe {}

/// A probe that keeps every event and depth row: for tests and small runs.
#[derive(Clone, Debug, Default)]
pub struct RecordingProbe {
    /// Every event, in order.
    pub events: Vec<Event>,
    /// Every finished depth, in order.
    pub depths: Vec<DepthStats>,
}

impl RecordingProbe {
    /// How many of the recorded events `is` holds for (for example `|e| matches!(e,
    /// Event::Node { .. })`, which a test compares with the report's node count).
    pub fn count(&self, is: impl Fn(&Event) -> bool) -> u64 {
        self.events.iter().filter(|e| is(e)).count() as u64
    }
}

impl Probe for RecordingProbe {
    fn wants_events(&self) -> bool {
        true
    }

    fn event(&mut self, event: impl FnOnce() -> Event) {
        self.events.push(event());
    }

    fn depth_finished(&mut self, stats: &DepthStats) {
        self.depths.push(stats.clone());
    }
}

/// A probe that prints each finished depth as the deck does, and nothing else.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintDepths;

impl Probe for PrintDepths {
    fn depth_finished(&mut self, stats: &DepthStats) {
        println!("{}", super::deck_line(stats));
    }
}
