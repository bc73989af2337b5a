//! The graph of every optimal solution that [`super::gather`] fills: the states on optimal
//! solutions, robot by robot, with the moves between them.

use crate::model::Move;
use crate::model::puzzle::MAX_ROBOTS;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering, fence};
use std::sync::{Mutex, MutexGuard};

/// A state told apart robot by robot (where the table's key lets helpers swap): the robots'
/// cells in colour order and, under the no-rebound rule, their last directions (index plus
/// one; 0: not moved).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Place {
    /// The robots' cells; unused slots are 0.
    pub cells: [u16; MAX_ROBOTS],
    /// The robots' last directions under the no-rebound rule; 0 otherwise.
    pub dirs: [u8; MAX_ROBOTS],
}

/// A state on an optimal solution.
#[derive(Clone, Debug, Default)]
pub(crate) struct GraphNode {
    /// The moves left from it.
    pub left: u32,
    /// The moves from it that stay on an optimal solution, with the states they lead to.
    pub edges: Vec<(Move, Place)>,
}

/// Every state on an optimal solution, by place and moves left, and the start.
///
/// Without the ricochet rule a state on optimal solutions has the same moves left on all of
/// them; under it, a solution may leave the goal and come back, so the start can also be a
/// last state: the moves left tell them apart.
#[derive(Clone, Debug, Default)]
pub(crate) struct SolutionGraph {
    /// The states; a move from one with `left` moves left leads to one with `left - 1`.
    pub nodes: FxHashMap<(Place, u32), GraphNode>,
    /// The start position.
    pub root: Place,
    /// The moves left at the start: the optimal length.
    pub depth: u32,
    /// The table keys of the states, with their moves left: a key lets helpers swap, so a
    /// table entry for a key in here may belong to a state on a solution.
    pub(super) keys: FxHashSet<(u64, u32)>,
}

impl SolutionGraph {
    /// Whether `place` is on a solution with `left` moves left.
    #[inline]
    pub(super) fn solved(&self, place: &Place, left: u32) -> bool {
        self.nodes.contains_key(&(*place, left))
    }

    /// Keeps the move `mv` from `from` (with `left` moves left) to `to` as on a solution.
    pub(super) fn add_edge(&mut self, from: Place, key: u64, left: u32, mv: Move, to: Place) {
        self.keys.insert((key, left));
        let node = self.nodes.entry((from, left)).or_insert_with(|| GraphNode {
            left,
            edges: Vec::new(),
        });
        // A state whose table entry gave way is searched again: its moves are kept once.
        if !node.edges.iter().any(|(m, _)| *m == mv) {
            node.edges.push((mv, to));
        }
    }
}

/// Bits of the filter in front of the shared graph: 2^17 bits (16 KiB), so a graph of a few
/// thousand states answers nearly every lookup without its lock.
const FILTER_BITS: u32 = 17;

/// Slots per thread for the keys of the states on its path, one per depth.
const PATH_SLOTS: usize = super::MAX_DEPTH as usize + 2;

/// What the threads of a gathering iteration share (see `super::gather`): the graph, behind a
/// lock and a filter that answers most lookups without it, and each thread's path, so that a
/// state another thread is still searching is not taken for dead.
pub(crate) struct SharedGraph {
    graph: Mutex<SolutionGraph>,
    /// Two bits per (key, moves left) in the graph: a lookup whose bits are not both set is
    /// not in it, and only the others take the lock.
    filter: Box<[AtomicU64]>,
    /// For each thread, the key plus one of the state it is searching at each depth (0: none).
    paths: Box<[AtomicU64]>,
    /// The most threads the paths have room for.
    max_threads: usize,
    /// The threads that have joined: only their paths are read.
    joined: AtomicUsize,
    /// Set when the run stops: the threads leave their search.
    pub stop: AtomicBool,
}

impl SharedGraph {
    /// An empty graph for at most `max_threads` threads.
    pub fn new(max_threads: usize) -> SharedGraph {
        SharedGraph {
            graph: Mutex::new(SolutionGraph::default()),
            filter: (0..1usize << (FILTER_BITS - 6))
                .map(|_| AtomicU64::new(0))
                .collect(),
            paths: (0..max_threads * PATH_SLOTS)
                .map(|_| AtomicU64::new(0))
                .collect(),
            max_threads,
            joined: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        }
    }

    /// A new thread's index; before it starts. `None` past the most threads.
    pub fn join(&self) -> Option<usize> {
        let index = self.joined.fetch_add(1, Ordering::AcqRel);
        (index < self.max_threads).then_some(index)
    }

    /// How many threads have joined (past the most threads too).
    pub fn joined(&self) -> usize {
        self.joined.load(Ordering::Acquire)
    }

    /// The graph gathered, once every thread has finished.
    pub fn into_graph(self) -> SolutionGraph {
        self.graph.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    /// The graph, under its lock (a poisoned lock only means another thread panicked, which
    /// the run reports when it joins it).
    fn lock(&self) -> MutexGuard<'_, SolutionGraph> {
        self.graph.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The filter's two bits for `key` with `left` moves left, as (word, mask) pairs.
    #[inline(always)]
    fn bits(key: u64, left: u32) -> [(usize, u64); 2] {
        let hash = (key ^ u64::from(left).rotate_right(8)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let bit = |h: u64| {
            let index = (h >> (64 - FILTER_BITS)) as usize;
            (index >> 6, 1u64 << (index & 63))
        };
        [bit(hash), bit(hash.rotate_left(FILTER_BITS))]
    }

    /// Whether `key` with `left` moves left may be in the graph.
    #[inline(always)]
    fn may_hold(&self, key: u64, left: u32) -> bool {
        Self::bits(key, left)
            .iter()
            .all(|&(word, mask)| self.filter[word].load(Ordering::Acquire) & mask != 0)
    }

    /// Sets the filter's bits for `key` with `left` moves left; after the graph holds it.
    fn mark(&self, key: u64, left: u32) {
        for (word, mask) in Self::bits(key, left) {
            self.filter[word].fetch_or(mask, Ordering::Release);
        }
    }

    /// Whether `place`, whose table key is `key`, is on a solution with `left` moves left.
    #[inline(always)]
    pub fn solved(&self, place: &Place, key: u64, left: u32) -> bool {
        self.may_hold(key, left) && self.lock().solved(place, left)
    }

    /// Whether a state of table key `key` is on a solution with `left` moves left (helpers
    /// that swap cells share a key).
    #[inline(always)]
    pub fn key_solved(&self, key: u64, left: u32) -> bool {
        self.may_hold(key, left) && self.lock().keys.contains(&(key, left))
    }

    /// Keeps the goal state `place` of table key `key`.
    pub fn keep_goal(&self, place: Place, key: u64) {
        let mut graph = self.lock();
        graph.nodes.entry((place, 0)).or_default();
        graph.keys.insert((key, 0));
        drop(graph);
        self.mark(key, 0);
    }

    /// Keeps the move `mv` from `from` (of table key `key`, with `left` moves left) to `to`.
    pub fn add_edge(&self, from: Place, key: u64, left: u32, mv: Move, to: Place) {
        self.lock().add_edge(from, key, left, mv, to);
        self.mark(key, left);
    }

    /// Says that thread `thread` now searches the state of table key `key` at `depth`; before
    /// the table records it, so that a thread that sees the entry sees this too.
    #[inline(always)]
    pub fn publish(&self, thread: usize, depth: u32, key: u64) {
        // Keys hold at most 60 bits (five robots of 12), so one more is never 0.
        self.paths[thread * PATH_SLOTS + depth as usize]
            .store(key.wrapping_add(1), Ordering::Release);
        fence(Ordering::Release);
    }

    /// Says that thread `thread` has finished the state at `depth`; after what it kept of it.
    #[inline(always)]
    pub fn unpublish(&self, thread: usize, depth: u32) {
        self.paths[thread * PATH_SLOTS + depth as usize].store(0, Ordering::Release);
    }

    /// Whether a thread other than `thread` is searching a state of table key `key` at
    /// `depth`; after the table entry that recorded it was seen.
    #[inline(always)]
    pub fn searched_elsewhere(&self, thread: usize, depth: u32, key: u64) -> bool {
        fence(Ordering::Acquire);
        // Read after the fence: a thread whose entry was seen had joined before it wrote it.
        let joined = self.joined.load(Ordering::Acquire).min(self.max_threads);
        (0..joined).any(|other| {
            other != thread
                && self.paths[other * PATH_SLOTS + depth as usize].load(Ordering::Acquire)
                    == key.wrapping_add(1)
        })
    }
}
