//! Fogleman's iterative-deepening depth-first search, exactly as his deck describes it and as
//! his code stood when the deck was made, so that it prints the deck's "Solver Output" node
//! counts line for line.
//!
//! - Iterations with maximum depth 1, 2, 3, ... until one finds a solution; the first solution
//!   of that iteration is returned, so the answer is shortest.
//! - One transposition table kept across all iterations, keyed on the active robot's cell and
//!   the other robots' cells sorted, storing the depth left when the state was searched: a state
//!   is pruned (a *hit*) when it was searched before with at least as much depth left, and
//!   otherwise its entry is raised.
//! - The minimum-move lower bound ([`min_moves`](super::min_moves)) prunes nodes whose bound
//!   exceeds the depth left; when the bound equals the depth left only the active robot moves.
//! - At each node, in this order: count the node; stop if the goal is reached; stop at the
//!   depth limit; stop if the bound exceeds the depth left; count it as *inner*; unless only
//!   one move is left, look the state up and stop on a hit; then expand.
//! - Robots are tried in the list red, green, blue, yellow (silver last) after swapping the
//!   active robot with the list's first entry, each in directions N, E, S, W. A robot may not
//!   move straight back along its own previous move when that was the last move made;
//!   zero-length moves are not moves.
//!
//! For the vortex (any robot) the bound is the smallest over all robots, the key sorts all
//! robots, the list keeps its natural order, and when the bound equals the depth left only the
//! robots whose own bound equals it move. With the no-rebound rule each robot's last direction
//! joins the key and the opposite direction is skipped; with the ricochet rule a goal reached
//! in fewer than two moves does not end the search, the number of moves made (up to two) joins
//! the key, and moving straight back is allowed until the move after the first two.
//!
//! How it is made fast without changing a count: slides read the fast solver's stop tables
//! (no division per robot); the table is open addressing with linear probing and a
//! one-multiplication hash, in one-word slots when the key fits 48 bits (as Fogleman's C keeps
//! eight-byte entries), on huge pages where the system gives them; and a node generates its
//! children in the deck's order first, asking the processor for their table slots, before it
//! searches them in that same order.
//!
//! The search stops with "unsolvable" when an iteration finishes without cutting anything off:
//! no node at the depth limit, no finite bound above the depth left, no robot held back
//! because the bound equals the depth left, and no table hit on an entry written in an earlier
//! iteration (every entry carries the iteration that wrote it; this changes no count). A deeper
//! iteration would then search the same tree. Iterations stop at depth 255, the most a table
//! entry records, with "no solution within 255 moves"; a depth limit option stops them sooner.

use super::heuristics::Heuristic;
use super::key::{KeyLayout, StateKey, key_bits, state_key};
use super::min_moves::UNREACHABLE;
use super::pages::advise_huge_pages;
use super::probe::{DepthStats, Event, PruneReason};
use super::profile::{PrefixTally, move_code};
use super::stops::StopTables as Geometry;
use super::{
    DECK_COLUMNS, Optimality, Probe, RuleSupport, Search, SearchEnd, SearchShape, SolverKind,
    SolverOptions, Stop,
};
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Cell, Direction, Move, Puzzle, RobotColor};
use std::convert::Infallible;

/// The command-line name.
pub const NAME: &str = "iddfs";

/// The registry entry.
pub const KIND: SolverKind = SolverKind {
    name: NAME,
    title: "IDDFS (Fogleman)",
    description: "Iterative deepening with a transposition table and the minimum-move bound, \
                  exactly as Fogleman's deck describes it",
    source: "Fogleman's slide deck; thesis draft, section IDDFS",
    optimality: Optimality::Guaranteed,
    rules: RuleSupport::BOTH,
    columns: DECK_COLUMNS,
    deepest_limit: Some(MAX_DEPTH),
    shape: SearchShape::DepthFirst(Some(Heuristic::MinMoves)),
};

algorithm!(
    /// The deck's iterative deepening in the registry.
    IterativeDeepening, KIND
);

/// Solves a puzzle with Fogleman's IDDFS.
pub fn solve<P: Probe>(
    puzzle: &Puzzle,
    options: &SolverOptions,
    search: &mut Search<'_, P>,
) -> SearchEnd {
    let layout = KeyLayout::new(
        puzzle.board().cell_count(),
        puzzle.active_robot(),
        puzzle.rules().no_rebound,
    );
    let phase = puzzle.rules().min_solution_len() > 0;
    let bits = key_bits(&layout, puzzle.robots().len(), phase);
    if bits <= PACKED_KEY_BITS {
        Iddfs::<P, PackedSlot>::new(puzzle, layout, search).run(options)
    } else if bits <= u64::BITS {
        Iddfs::<P, WideSlot<u64>>::new(puzzle, layout, search).run(options)
    } else {
        Iddfs::<P, WideSlot<u128>>::new(puzzle, layout, search).run(options)
    }
}

/// The deepest iteration: table entries record depths in a byte.
const MAX_DEPTH: u32 = 255;

/// A table slot: a state key, the depth left when the state was searched and the iteration
/// that wrote it. A height of zero marks an empty slot: a stored state always has at least
/// two moves left.
trait Slot: Copy + Default + 'static {
    /// The state key it holds.
    type Key: StateKey;
    fn new(key: Self::Key, height: u8, iteration: u8) -> Self;
    fn key(&self) -> Self::Key;
    fn height(&self) -> u8;
    fn iteration(&self) -> u8;
}

/// A slot of one word for keys of at most 48 bits (four robots on a 16 by 16 board take 34):
/// the key above the iteration byte and the height byte. Half the size of a [`WideSlot`], so
/// twice as many fit each cache line and page.
#[derive(Clone, Copy, Default)]
struct PackedSlot(u64);

/// The widest key a [`PackedSlot`] holds.
const PACKED_KEY_BITS: u32 = 48;

impl Slot for PackedSlot {
    type Key = u64;
    #[inline(always)]
    fn new(key: u64, height: u8, iteration: u8) -> Self {
        PackedSlot(key << 16 | u64::from(iteration) << 8 | u64::from(height))
    }
    #[inline(always)]
    fn key(&self) -> u64 {
        self.0 >> 16
    }
    #[inline(always)]
    fn height(&self) -> u8 {
        self.0 as u8
    }
    #[inline(always)]
    fn iteration(&self) -> u8 {
        (self.0 >> 8) as u8
    }
}

/// A slot for any key.
#[derive(Clone, Copy, Default)]
struct WideSlot<K> {
    key: K,
    height: u8,
    iteration: u8,
}

impl<K: StateKey> Slot for WideSlot<K> {
    type Key = K;
    #[inline(always)]
    fn new(key: K, height: u8, iteration: u8) -> Self {
        WideSlot {
            key,
            height,
            iteration,
        }
    }
    #[inline(always)]
    fn key(&self) -> K {
        self.key
    }
    #[inline(always)]
    fn height(&self) -> u8 {
        self.height
    }
    #[inline(always)]
    fn iteration(&self) -> u8 {
        self.iteration
    }
}

/// The transposition table: open addressing with linear probing, hashed by one
/// multiplication, doubled when half full. Like Fogleman's own table it does one memory read
/// for most lookups and never allocates per state.
struct DepthTable<S> {
    slots: Vec<S>,
    /// `64 - log2(slots)`: the hash's top bits pick the home slot.
    shift: u32,
    len: usize,
}

/// The slots a table starts with.
const INITIAL_SLOTS: usize = 1 << 12;

/// How many slots a table writes or moves over between two polls while it is made or doubled.
const POLL_SLOTS: usize = 1 << 18;

impl<S: Slot> DepthTable<S> {
    fn new() -> Self {
        DepthTable {
            slots: Self::empty_slots(INITIAL_SLOTS),
            shift: 64 - INITIAL_SLOTS.trailing_zeros(),
            len: 0,
        }
    }

    /// `count` empty slots, on huge pages where the system gives them: lookups land at
    /// random places in a table of hundreds of MiB.
    fn empty_slots(count: usize) -> Vec<S> {
        match Self::empty_slots_polled(count, || Ok::<(), Infallible>(())) {
            Ok(slots) => slots,
            Err(never) => match never {},
        }
    }

    /// [`DepthTable::empty_slots`], calling `poll` between chunks of [`POLL_SLOTS`] slots and
    /// giving up with its error: writing hundreds of MiB can take a tenth of a second when
    /// the system assembles huge pages, too long to leave a cancel unanswered.
    fn empty_slots_polled<E>(
        count: usize,
        mut poll: impl FnMut() -> Result<(), E>,
    ) -> Result<Vec<S>, E> {
        let mut slots: Vec<S> = Vec::with_capacity(count);
        advise_huge_pages(slots.as_ptr().cast(), Self::bytes_for(count));
        while slots.len() < count {
            let next = (slots.len() + POLL_SLOTS).min(count);
            slots.resize(next, S::default());
            if next < count {
                poll()?;
            }
        }
        Ok(slots)
    }

    /// The bytes a table of `slots` slots takes.
    fn bytes_for(slots: usize) -> usize {
        slots * std::mem::size_of::<S>()
    }

    fn bytes(&self) -> usize {
        Self::bytes_for(self.slots.len())
    }

    /// Whether one more state would fill it past half.
    #[inline(always)]
    fn full(&self) -> bool {
        (self.len + 1) * 2 > self.slots.len()
    }

    #[inline(always)]
    fn home(&self, key: S::Key) -> usize {
        (key.fold().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The index of `key`'s slot: its own, or the empty slot where it goes (the caller fills
    /// it). The table is never full, so the probe ends.
    #[inline(always)]
    fn find(&self, key: S::Key) -> usize {
        let mask = self.slots.len() - 1;
        let mut index = self.home(key);
        loop {
            let slot = &self.slots[index];
            if slot.height() == 0 || slot.key() == key {
                return index;
            }
            index = (index + 1) & mask;
        }
    }

    /// Hints the processor to fetch the home slot of `key`.
    #[inline(always)]
    fn prefetch(&self, key: S::Key) {
        let slot = &self.slots[self.home(key)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is only a hint and cannot fault; the pointer is to a live slot.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                std::ptr::from_ref(slot).cast::<i8>(),
                std::arch::x86_64::_MM_HINT_T0,
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    /// A table twice the size holding every entry, calling `poll` between chunks of
    /// [`POLL_SLOTS`] slots written or moved over, and giving up with its error (this table
    /// is then left as it was).
    fn doubled<E>(&self, mut poll: impl FnMut() -> Result<(), E>) -> Result<Self, E> {
        let mut bigger = DepthTable {
            slots: Self::empty_slots_polled(self.slots.len() * 2, &mut poll)?,
            shift: self.shift - 1,
            len: self.len,
        };
        for chunk in self.slots.chunks(POLL_SLOTS) {
            poll()?;
            for &slot in chunk.iter().filter(|s| s.height() != 0) {
                let index = bigger.find(slot.key());
                bigger.slots[index] = slot;
            }
        }
        Ok(bigger)
    }
}

/// A generated move: the robot, the direction, where it lands and, when it will look itself
/// up, the child's key.
#[derive(Clone, Copy)]
struct Child<K> {
    robot: u8,
    dir: Direction,
    to: (Cell, u16),
    key: Option<K>,
}

impl<K> Default for Child<K> {
    fn default() -> Self {
        Child {
            robot: 0,
            dir: Direction::North,
            to: (0, 0),
            key: None,
        }
    }
}

struct Iddfs<'s, 'p, P: Probe, S: Slot> {
    search: &'s mut Search<'p, P>,
    /// Stop tables and the minimum-move bound.
    geometry: Geometry,
    goal: Cell,
    active: Option<usize>,
    colors: Vec<RobotColor>,
    order: Vec<usize>,
    robots: usize,
    /// Row-major cells of the robots.
    cells: [Cell; MAX_ROBOTS],
    /// Column-major indices of the same cells.
    columns: [u16; MAX_ROBOTS],
    last_dir: [Option<Direction>; MAX_ROBOTS],
    no_rebound: bool,
    min_len: u32,
    layout: KeyLayout,
    table: DepthTable<S>,
    path: Vec<Move>,
    stats: DepthStats,
    cut: bool,
    /// The node profile's prefix the iteration is under, when the probe profiles.
    profile_tally: PrefixTally,
}

impl<'s, 'p, P: Probe, S: Slot> Iddfs<'s, 'p, P, S> {
    fn new(puzzle: &Puzzle, layout: KeyLayout, search: &'s mut Search<'p, P>) -> Self {
        let n = puzzle.robots().len();
        let active = puzzle.active_robot();
        let mut order: Vec<usize> = (0..n).collect();
        if let Some(a) = active {
            order.swap(0, a);
        }
        let geometry = Geometry::new(puzzle.board(), puzzle.goal_cell());
        let mut cells = [0; MAX_ROBOTS];
        let mut columns = [0; MAX_ROBOTS];
        for (i, cell) in puzzle.robot_cells().into_iter().enumerate() {
            cells[i] = cell;
            columns[i] = geometry.column_index[usize::from(cell)];
        }
        Iddfs {
            search,
            geometry,
            goal: puzzle.goal_cell(),
            active,
            colors: puzzle.robots().iter().map(|r| r.color).collect(),
            order,
            robots: n,
            cells,
            columns,
            last_dir: [None; MAX_ROBOTS],
            no_rebound: puzzle.rules().no_rebound,
            min_len: puzzle.rules().min_solution_len() as u32,
            layout,
            table: DepthTable::new(),
            path: Vec::new(),
            stats: DepthStats::default(),
            cut: false,
            profile_tally: PrefixTally::default(),
        }
    }

    fn run(mut self, options: &SolverOptions) -> SearchEnd {
        let end = self.iterate(options);
        // Freeing hundreds of MiB takes a while: the caller does it once it has reported.
        let table = std::mem::replace(&mut self.table, DepthTable::new());
        self.search.retire(table);
        end
    }

    fn iterate(&mut self, options: &SolverOptions) -> SearchEnd {
        if let Err(stop) = self.search.set_memory(self.table.bytes()) {
            return SearchEnd::Stopped(stop);
        }
        let mut max_depth = 1;
        let cap = options.depth_limit.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        loop {
            if max_depth > cap {
                return SearchEnd::Unsolvable(Some(cap));
            }
            self.stats = DepthStats {
                depth: max_depth,
                ..DepthStats::default()
            };
            self.cut = false;
            self.search
                .probe
                .event(|| Event::IterationStarted { depth: max_depth });
            let found = self.node(0, max_depth, None, None);
            if P::PROFILES
                && let Some(profile) = self.search.probe.node_profile()
            {
                self.profile_tally.flush(profile, self.stats.nodes);
            }
            let stats = std::mem::take(&mut self.stats);
            match found {
                Err(stop) => return SearchEnd::Stopped(stop),
                Ok(true) => {
                    self.search.finish_depth(stats);
                    return SearchEnd::Found(std::mem::take(&mut self.path));
                }
                Ok(false) => self.search.finish_depth(stats),
            }
            if !self.cut {
                return SearchEnd::Unsolvable(None);
            }
            max_depth += 1;
        }
    }

    /// The lower bound of the current position.
    #[inline(always)]
    fn lower_bound(&self) -> u32 {
        match self.active {
            Some(a) => self.geometry.rook(self.cells[a]),
            None => self.cells[..self.robots]
                .iter()
                .map(|&c| self.geometry.rook(c))
                .min()
                .unwrap_or(u32::from(UNREACHABLE)),
        }
    }

    #[inline(always)]
    fn at_goal(&self) -> bool {
        match self.active {
            Some(a) => self.cells[a] == self.goal,
            None => self.cells[..self.robots].contains(&self.goal),
        }
    }

    fn node(
        &mut self,
        depth: u32,
        max_depth: u32,
        last: Option<(usize, Direction)>,
        key: Option<S::Key>,
    ) -> Result<bool, Stop> {
        self.stats.nodes += 1;
        // Profiled before the tick, so a node counted as the run stops is profiled too; a
        // node deeper than the profile only by a comparison (see `PrefixTally`).
        if P::PROFILES
            && let Some(profile) = self.search.probe.node_profile()
        {
            let path = &self.path;
            self.profile_tally
                .count(profile, self.stats.nodes, path.len(), |i| {
                    move_code(path[i].robot, path[i].dir)
                });
        }
        self.search.tick()?;
        let path = &self.path;
        self.search
            .probe
            .node(depth, &self.cells[..self.robots], |moves| {
                moves.extend_from_slice(path)
            });
        if self.at_goal() && depth >= self.min_len {
            return Ok(true);
        }
        if depth == max_depth {
            self.cut = true;
            self.search.probe.event(|| Event::Pruned {
                depth,
                reason: PruneReason::DepthLimit,
            });
            return Ok(false);
        }
        let height = max_depth - depth;
        let bound = self.lower_bound();
        if bound > height {
            if bound != u32::from(UNREACHABLE) {
                self.cut = true;
            }
            self.search.probe.event(|| Event::Pruned {
                depth,
                reason: PruneReason::LowerBound {
                    bound,
                    remaining: height,
                },
            });
            return Ok(false);
        }
        self.stats.inner += 1;
        if height != 1 && self.seen_with_as_many_moves(depth, max_depth, key)? {
            return Ok(false);
        }
        let (children, count) = self.children(depth, height, bound, last);
        for child in &children[..count] {
            let robot = usize::from(child.robot);
            let dir = child.dir;
            let from = (self.cells[robot], self.columns[robot]);
            let previous_dir = self.last_dir[robot];
            (self.cells[robot], self.columns[robot]) = child.to;
            self.last_dir[robot] = Some(dir);
            self.path.push(Move::new(self.colors[robot], dir));
            let found = self.node(depth + 1, max_depth, Some((robot, dir)), child.key);
            if let Ok(true) = found {
                return found;
            }
            self.path.pop();
            (self.cells[robot], self.columns[robot]) = from;
            self.last_dir[robot] = previous_dir;
            found?;
        }
        Ok(false)
    }

    /// Looks the current state up in the table, `height` moves from the iteration's end, and
    /// says whether it was searched before with as many moves left (then it is cut); otherwise
    /// records it. `key` is the key the parent computed when it fetched the slot ahead.
    #[inline(always)]
    fn seen_with_as_many_moves(
        &mut self,
        depth: u32,
        max_depth: u32,
        key: Option<S::Key>,
    ) -> Result<bool, Stop> {
        let height = max_depth - depth;
        // Under the ricochet rule the moves made so far (up to two) join the key: a goal
        // reached too early does not count, so the same robots later are another state.
        // The parent computed the key when it fetched the slot ahead.
        let key: S::Key = key.unwrap_or_else(|| {
            state_key(
                &self.layout,
                &self.cells[..self.robots],
                &self.last_dir[..self.robots],
                depth,
                self.min_len,
            )
        });
        if self.table.full() {
            self.grow_table()?;
        }
        let index = self.table.find(key);
        let entry = self.table.slots[index];
        if u32::from(entry.height()) >= height {
            let stored = u32::from(entry.height());
            if entry.iteration() != max_depth as u8 {
                self.cut = true;
            }
            self.stats.hits += 1;
            self.search.probe.event(|| Event::Pruned {
                depth,
                reason: PruneReason::TableHit { stored },
            });
            return Ok(true);
        }
        if entry.height() == 0 {
            self.table.len += 1;
        }
        // Heights and iterations are at most MAX_DEPTH, so they fit a byte.
        self.table.slots[index] = S::new(key, height as u8, max_depth as u8);
        Ok(false)
    }

    /// The children of the current node, in the deck's order, with the table slots of those
    /// that will look themselves up already asked for.
    #[inline(always)]
    fn children(
        &mut self,
        depth: u32,
        height: u32,
        bound: u32,
        last: Option<(usize, Direction)>,
    ) -> ([Child<S::Key>; MAX_ROBOTS * 4], usize) {
        // Generate the children first, in the deck's order, and ask the processor for the table
        // slots of those that will look themselves up, so the memory reads overlap instead of
        // stalling one by one. The children are then searched in the same order, so every
        // count is the deck's.
        let mut children = [Child::<S::Key>::default(); MAX_ROBOTS * 4];
        let mut count = 0;
        // A child looks itself up unless it has one move left or its bound cuts it first.
        let child_height = height - 1;
        let child_probes = child_height >= 2;
        let n = self.robots;
        for i in 0..self.order.len() {
            let robot = self.order[i];
            if bound == height {
                let own = self.geometry.rook(self.cells[robot]);
                let may_reach = match self.active {
                    Some(a) => robot == a,
                    None => own == height,
                };
                if !may_reach {
                    self.cut = true;
                    continue;
                }
            }
            for dir in Direction::ALL {
                // Moving straight back lands where the robot stood before the last move, or
                // where it would have stopped moving this way from there one move earlier. The
                // deck's rule drops it, which under the ricochet rule is sound only when both
                // of those earlier states already had the first moves made: out, back and out
                // again can be what makes an early goal count.
                if last == Some((robot, dir.opposite())) && depth > self.min_len {
                    continue;
                }
                if self.no_rebound && self.last_dir[robot] == Some(dir.opposite()) {
                    continue;
                }
                let from = (self.cells[robot], self.columns[robot]);
                let to =
                    self.geometry
                        .slide(&self.cells[..n], &self.columns[..n], robot, dir.index());
                if to.0 == from.0 {
                    continue;
                }
                let mut child = Child {
                    robot: robot as u8,
                    dir,
                    to,
                    key: None,
                };
                if child_probes {
                    let previous_dir = self.last_dir[robot];
                    self.cells[robot] = to.0;
                    if self.lower_bound() <= child_height {
                        self.last_dir[robot] = Some(dir);
                        let key: S::Key = state_key(
                            &self.layout,
                            &self.cells[..n],
                            &self.last_dir[..n],
                            depth + 1,
                            self.min_len,
                        );
                        self.table.prefetch(key);
                        child.key = Some(key);
                    }
                    self.cells[robot] = from.0;
                    self.last_dir[robot] = previous_dir;
                }
                children[count] = child;
                count += 1;
            }
        }
        (children, count)
    }

    /// Doubles the table, within the memory limit: both tables are held while entries move.
    #[cold]
    fn grow_table(&mut self) -> Result<(), Stop> {
        let now = self.table.bytes();
        self.search.reserve_memory(now + 2 * now)?;
        self.search.set_memory(now + 2 * now)?;
        // Polled, so a cancel or the time limit is answered while a big table is written.
        self.table = self.table.doubled(|| self.search.poll())?;
        self.search.set_memory(self.table.bytes())
    }
}

#[cfg(test)]
mod tests;
