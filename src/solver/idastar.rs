//! Iterative-deepening A* with a retrograde heuristic, carried over from the Chexers report
//! (its "Retrograde Dijkstra Heuristic" and IDA* search) to Ricochet Robots.
//!
//! - The heuristic is the retrograde table of this game: the [`min_moves`](super::min_moves)
//!   table, computed once per puzzle backwards from the target on the static board with the
//!   robots left out (the relaxed problem in which a robot may stop anywhere). It never
//!   overestimates, so the search is optimal. For the vortex the smallest value over all
//!   robots counts; a state from which the target is unreachable is cut off for good.
//! - Iterations: the first bound is h of the start; each iteration is a depth-first search
//!   that cuts off every node with g + h above the bound, and the next bound is the smallest
//!   g + h that was cut off. The first solution found is returned, so it is shortest.
//! - Transposition table (the report's "trimming nodes whose evaluation was not better than a
//!   previous encounter"), kept across iterations as in Fogleman's IDDFS: each state maps to
//!   the most moves left (bound - g) it was searched with. A node whose state was searched
//!   with at least as many moves left is a *hit* and cut off: within an iteration no solution
//!   was missed there, and an entry from an earlier iteration proves that no solution of that
//!   length starts from the state, so the node offers `g + stored + 1` as a next bound. Nodes
//!   one move from the bound are not stored (their children can only be goals). Before the
//!   table grows past the memory limit the run stops with "memory limit".
//! - Move order: the robot the target asks for first, then the others in colour order, each in
//!   directions N, E, S, W (the analogue of the report's "exit first": the moves that can end
//!   the search come first). Zero-length moves are not moves.
//! - Moves that cannot help are not made: when h equals the moves left, a move leaves h as it
//!   is unless it moves the robot the target asks for (for the vortex: a robot whose own
//!   table value equals h), and such a child would be cut off with f = bound + 1. Those moves
//!   are skipped, and bound + 1 is offered as a next bound in their place (Fogleman's IDDFS
//!   makes the same cut). Skipped moves are not counted as nodes.
//! - A robot never moves straight back along the move just made. This loses nothing: after
//!   `X d` the move `X opposite(d)` either returns the robot to where it was or stops where
//!   `X opposite(d)` made directly would, so any solution doing it has a shorter one. Under the
//!   ricochet rule the shorter one could be too short, so the rule applies only from the third
//!   move on.
//!
//! Under the no-rebound rule each robot's last direction is part of the state; under the
//! ricochet rule the key also holds `min(g, 2)` and h is raised to the moves still needed.
//!
//! Proving a puzzle unsolvable: when an iteration stores no state that was not in the table
//! already, the reachable states are probably all known, and the next iteration is a *closure
//! check*: it starts from an empty table, stores every node it searches, and marks every state
//! cut off by the bound. If it ends with no mark left unsearched (or nothing cut off at all),
//! the searched states contain every successor of every searched state and no goal: the puzzle
//! has no solution. Otherwise the search goes on with the table that check built.
//!
//! Per-bound statistics: *Bound* is the iteration's bound, *Nodes* the nodes visited, *inner*
//! the nodes within the bound (table hits included), *hits* the nodes cut off by the table.

use super::dfs_state::{DfsState, Frame, TreeSearch, Visit, walk};
use super::heuristics::{Estimator, Heuristic};
use super::key::{KeyLayout, StateKey};
use super::key::{state_key, with_key_width};
use super::memory::hash_table_bytes;
use super::min_moves::UNREACHABLE;
use super::probe::{DepthStats, Event, PruneReason};
use super::{
    Columns, Optimality, Probe, RuleSupport, Search, SearchEnd, SearchShape, SolverKind, Stop,
};
use crate::model::{Cell, Direction, Puzzle};
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;

/// The command-line name.
pub const NAME: &str = "idastar";

/// The registry entry.
pub const KIND: SolverKind = SolverKind {
    name: NAME,
    title: "IDA* (retrograde heuristic)",
    description: "Iterative-deepening A* on f = g + h with the minimum-move table as the \
                  retrograde heuristic and a transposition table kept across iterations",
    source: "Chexers report (retrograde Dijkstra heuristic, IDA*), carried over to this game",
    optimality: Optimality::Guaranteed,
    rules: RuleSupport::BOTH,
    columns: Columns {
        depth: "Bound",
        nodes: "Nodes",
        inner: "inner",
        hits: "hits",
    },
    deepest_limit: None,
    shape: SearchShape::DepthFirst(Some(Heuristic::MinMoves)),
};

algorithm!(
    /// IDA* in the registry.
    Idastar, KIND, |puzzle, _, search| solve(puzzle, search)
);

/// Solves a puzzle with IDA*.
pub fn solve<P: Probe>(puzzle: &Puzzle, search: &mut Search<'_, P>) -> SearchEnd {
    let result = with_key_width!(puzzle, |layout, Key| {
        IdaStar::<P, Key>::new(puzzle, layout, search).run()
    });
    result.unwrap_or_else(SearchEnd::Stopped)
}

/// A table entry: the most moves left a state was searched with and the bound of that
/// iteration.
#[derive(Clone, Copy)]
struct Seen {
    remaining: u32,
    bound: u32,
}

/// The `remaining` of a state only marked as cut off by the bound in a closure check.
const CUT_ONLY: u32 = u32::MAX;

struct IdaStar<'s, 'p, P: Probe, K: StateKey> {
    search: &'s mut Search<'p, P>,
    dfs: DfsState,
    estimator: Estimator,
    layout: KeyLayout,
    /// The most moves left each state was searched with, and in which iteration.
    table: FxHashMap<K, Seen>,
    /// Whether this iteration is a closure check.
    closure: bool,
    /// States marked as cut off by the bound and not searched yet (closure checks only).
    marks: u64,
    /// States stored in this iteration that were not in the table before.
    new_states: u64,
    /// The open levels; each notes the node's table value when it equals the moves left:
    /// then only a robot whose own value equals it can bring a child within the bound.
    frames: Vec<Frame<Option<u32>>>,
    stats: DepthStats,
    next_bound: Option<u32>,
}

impl<'s, 'p, P: Probe, K: StateKey> IdaStar<'s, 'p, P, K> {
    fn new(puzzle: &Puzzle, layout: KeyLayout, search: &'s mut Search<'p, P>) -> Self {
        let mut dfs = DfsState::new(puzzle);
        // The robot the target asks for first: its moves can end the search.
        let active = dfs.active;
        dfs.order.sort_by_key(|&robot| Some(robot) != active);
        IdaStar {
            search,
            dfs,
            estimator: Estimator::new(puzzle, Heuristic::MinMoves),
            layout,
            table: FxHashMap::default(),
            closure: false,
            marks: 0,
            new_states: 0,
            frames: Vec::new(),
            stats: DepthStats::default(),
            next_bound: None,
        }
    }

    fn run(mut self) -> Result<SearchEnd, Stop> {
        let Some(mut bound) = self.estimator.estimate(&self.dfs.cells, 0) else {
            self.search.finish_depth(DepthStats::default());
            return Ok(SearchEnd::Unsolvable(None));
        };
        loop {
            self.stats = DepthStats {
                depth: bound,
                ..DepthStats::default()
            };
            self.next_bound = None;
            self.new_states = 0;
            self.marks = 0;
            if self.closure {
                self.table.clear();
            }
            self.search
                .probe
                .event(|| Event::IterationStarted { depth: bound });
            let found = self.iterate(bound)?;
            let stats = std::mem::take(&mut self.stats);
            self.search.finish_depth(stats);
            if found {
                return Ok(SearchEnd::Found(self.dfs.moves()));
            }
            // Without anything cut off, or (in a closure check) with every cut-off state
            // searched, the searched states are closed under moves and hold no goal.
            if self.next_bound.is_none() || (self.closure && self.marks == 0) {
                return Ok(SearchEnd::Unsolvable(None));
            }
            self.closure = !self.closure && self.new_states == 0;
            if let Some(next) = self.next_bound {
                bound = next;
            }
        }
    }

    /// Offers a bound for the next iteration.
    #[inline(always)]
    fn offer_bound(&mut self, f: u32) {
        self.next_bound = Some(self.next_bound.map_or(f, |next| next.min(f)));
    }

    /// One iteration: a depth-first search cut off at `bound`. Leaves the solution in `path`
    /// and returns `true` when it finds one.
    fn iterate(&mut self, bound: u32) -> Result<bool, Stop> {
        self.dfs.path.clear();
        self.frames.clear();
        walk(self, bound)
    }

    #[inline(always)]
    fn key(&self, g: u32) -> K {
        state_key(
            &self.layout,
            &self.dfs.cells,
            &self.dfs.last_dir,
            g,
            self.dfs.min_len,
        )
    }

    /// Marks the current state as cut off by the bound, unless it is in the table already.
    fn mark_cut(&mut self) -> Result<(), Stop> {
        let key = self.key(self.dfs.path.len() as u32);
        if !self.table.contains_key(&key) {
            if self.table.len() == self.table.capacity() {
                self.grow_table()?;
            }
            self.table.insert(
                key,
                Seen {
                    remaining: CUT_ONLY,
                    bound: 0,
                },
            );
            self.marks += 1;
        }
        Ok(())
    }

    /// Doubles the transposition table after checking the memory limit.
    fn grow_table(&mut self) -> Result<(), Stop> {
        let more = self.table.capacity().max(1024);
        let bytes = hash_table_bytes(
            self.table.capacity() + more,
            std::mem::size_of::<(K, Seen)>(),
        );
        self.search.set_memory(bytes)?;
        self.table.try_reserve(more).map_err(|_| Stop::MemoryLimit)
    }
}

impl<P: Probe, K: StateKey> TreeSearch for IdaStar<'_, '_, P, K> {
    type Note = Option<u32>;

    fn dfs(&mut self) -> &mut DfsState {
        &mut self.dfs
    }

    fn frames(&mut self) -> &mut Vec<Frame<Option<u32>>> {
        &mut self.frames
    }

    fn push_frame(&mut self, frame: Frame<Option<u32>>) -> Result<(), Stop> {
        if self.frames.len() == self.frames.capacity() {
            // The path is never longer than the bound, so this stays small.
            self.frames
                .try_reserve(self.frames.len().max(64))
                .map_err(|_| Stop::MemoryLimit)?;
        }
        self.frames.push(frame);
        Ok(())
    }

    /// The next legal move from the node of frame `top` (at depth `g`): its robot, direction
    /// and stop cell. Advances the frame past it. At a tight node only a robot that can lower
    /// the table value is moved: the one the target asks for, or (for the vortex) one whose
    /// own value equals it.
    fn next_move(&mut self, top: usize, g: u32) -> Option<(usize, Direction, Cell)> {
        let frame = &mut self.frames[top];
        let (dfs, estimator) = (&self.dfs, &self.estimator);
        let may_lower = |robot: usize| match (frame.note, dfs.active) {
            (None, _) => true,
            (Some(_), Some(active)) => robot == active,
            (Some(h), None) => estimator.cell_value(dfs.cells[robot]) == h,
        };
        dfs.next_move(&mut frame.next, g, may_lower, || {})
    }

    /// Counts and examines the current node at depth `g`.
    fn visit(&mut self, g: u32, bound: u32) -> Result<Visit<Option<u32>>, Stop> {
        self.stats.nodes += 1;
        if self.dfs.enter(self.search, g)? {
            return Ok(Visit::Goal);
        }
        let Some(raw) = self.estimator.raw(&self.dfs.cells) else {
            self.search.probe.event(|| Event::Pruned {
                depth: g,
                reason: PruneReason::LowerBound {
                    bound: u32::from(UNREACHABLE),
                    remaining: bound - g,
                },
            });
            return Ok(Visit::Cut);
        };
        let h = self.estimator.adjust(raw, g);
        let remaining = bound - g;
        if h > remaining {
            self.offer_bound(g + h);
            if self.closure {
                self.mark_cut()?;
            }
            self.search.probe.event(|| Event::Pruned {
                depth: g,
                reason: PruneReason::LowerBound {
                    bound: h,
                    remaining,
                },
            });
            return Ok(Visit::Cut);
        }
        self.stats.inner += 1;
        if remaining > 1 || self.closure {
            let key = self.key(g);
            if self.table.len() == self.table.capacity() && !self.table.contains_key(&key) {
                self.grow_table()?;
            }
            let now = Seen { remaining, bound };
            match self.table.entry(key) {
                Entry::Occupied(seen)
                    if seen.get().remaining != CUT_ONLY && seen.get().remaining >= remaining =>
                {
                    let stored = *seen.get();
                    if stored.bound != bound {
                        self.offer_bound(g + stored.remaining + 1);
                    }
                    self.stats.hits += 1;
                    self.search.probe.event(|| Event::Pruned {
                        depth: g,
                        reason: PruneReason::TableHit {
                            stored: stored.remaining,
                        },
                    });
                    return Ok(Visit::Cut);
                }
                Entry::Occupied(mut seen) => {
                    if seen.get().remaining == CUT_ONLY {
                        self.marks -= 1;
                    }
                    seen.insert(now);
                }
                Entry::Vacant(slot) => {
                    self.new_states += 1;
                    slot.insert(now);
                }
            }
        }
        // When the table value equals the moves left, a move of a robot whose own value is
        // larger leaves the value as it is, so the child would be cut off with f = bound + 1:
        // such moves are not made, and bound + 1 is offered for them. A closure check makes
        // every move, since it must see every state cut off.
        if raw == remaining && !self.closure {
            self.offer_bound(bound + 1);
            return Ok(Visit::Expand(Some(raw)));
        }
        Ok(Visit::Expand(None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Rules;
    use crate::solver::{Limits, Outcome, RecordingProbe, SolverOptions};
    use crate::testing::*;

    #[test]
    fn idastar_finds_the_optimum_on_the_small_board_and_with_five_robots() {
        assert_optimal_on_the_small_boards(NAME);
    }

    #[test]
    fn the_closure_check_proves_a_blocked_corridor_unsolvable() {
        let report = run(NAME, &corridor(true, Rules::default()), None);
        assert_eq!(report.outcome, Outcome::Unsolvable { within: None });
        // The bound stops growing once the few states are known.
        assert!(report.depths.len() < 10, "{:?}", report.depths);
    }

    #[test]
    fn rule_options_change_the_answer() {
        let ricochet = Rules {
            ricochet: true,
            no_rebound: false,
        };
        // East, west, east: the reversals the ricochet rule needs are allowed.
        assert_eq!(moves(&run(NAME, &corridor(false, ricochet), None)), 3);
        let both = Rules {
            ricochet: true,
            no_rebound: true,
        };
        assert_eq!(
            run(NAME, &corridor(false, both), None).outcome,
            Outcome::Unsolvable { within: None }
        );
    }

    #[test]
    fn bounds_start_at_the_heuristic_and_grow() {
        let mut probe = RecordingProbe::default();
        let limits = Limits {
            time: Some(std::time::Duration::from_millis(300)),
            ..Limits::default()
        };
        let report = report_with(
            NAME,
            &board("fogleman-22.ron"),
            &SolverOptions::default(),
            &limits,
            &mut probe,
        );
        assert_eq!(report.outcome, Outcome::TimeLimit);
        let bounds: Vec<u32> = report.depths.iter().map(|row| row.depth).collect();
        // The blue robot is four moves from the target as a rook.
        assert_eq!(bounds[0], 4);
        assert!(
            bounds.windows(2).all(|pair| pair[0] < pair[1]),
            "{bounds:?}"
        );
        assert_eq!(probe.depths, report.depths);
        let started = probe.count(|e| matches!(e, Event::IterationStarted { .. }));
        assert_eq!(started, report.depths.len() as u64 + 1);
    }

    #[test]
    fn events_count_every_node_and_table_hit() {
        let (report, probe) = recorded(NAME, &five_robots(), None);
        assert_eq!(
            probe.count(|e| matches!(e, Event::Node { .. })),
            report.nodes
        );
        let hits = probe.count(|e| {
            matches!(
                e,
                Event::Pruned {
                    reason: PruneReason::TableHit { .. },
                    ..
                }
            )
        });
        assert_eq!(hits, report.depths.iter().map(|row| row.hits).sum::<u64>());
        assert!(hits > 0);
        assert!(matches!(probe.events.last(), Some(Event::Solution { .. })));
    }

    #[test]
    fn idastar_stops_cleanly_at_the_memory_limit() {
        let limit = 1 << 20;
        let report = run_to_memory_limit(NAME, &board("fogleman-22.ron"), None, limit);
        // The refused growth is not counted: the peak is what the table held.
        assert!(report.peak_memory > limit / 4, "{}", report.peak_memory);
    }
}
