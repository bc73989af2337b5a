//! The search of one node: the cuts before it is expanded (goal, depth, bound, the last-moves
//! search, the table), then its children, generated first with their table buckets fetched,
//! then searched in order.

use super::MAX_DEPTH;
use super::control::{Control, Halt};
use super::one_to_spare::ONE_TO_SPARE;
use super::regions::CellSets;
use super::setup::Setup;
use super::table::Lookup;
use super::two_to_spare::SpareMove;
use super::units::Unit;
use super::worker::Worker;
use crate::model::puzzle::MAX_ROBOTS;
use crate::solver::probe::{Event, PruneReason};
use crate::solver::stops::unreachable;
use arrayvec::ArrayVec;

/// How the search of a node ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Visit {
    /// A solution: the worker's path holds it.
    Found,
    /// No solution within the moves left; the node needs at least this many moves
    /// (`MAX_DEPTH + 1` when none is possible).
    Failed(u32),
}

/// What the checks before expanding a node decided.
enum Verdict {
    /// The node is settled without children.
    Settled(Visit),
    /// The node is expanded; its bound leaves at least one move to spare.
    Expand {
        /// The rook bound of the node (the blocker bound adds nothing where it does not cut).
        bound: u32,
    },
}

/// A generated move: the robot, the direction, where it lands and, when the parent looks the
/// child up, the table hash of its key.
#[derive(Clone, Copy)]
struct Child {
    robot: u8,
    dir: u8,
    probed: bool,
    cell: u16,
    column: u16,
    hash: u64,
}

/// What the pruning rules know at one node, found once before its moves are generated.
struct Pruning<'s> {
    /// The last move, as (robot, direction).
    last: Option<(u8, u8)>,
    /// Where the last move started.
    last_from: u16,
    /// The helpers passed over whole, and [`ONE_TO_SPARE`] (see
    /// [`Worker::helpers_that_cannot_matter`]).
    skip: u32,
    /// With one move to spare, the cell sets and the target robot's cell, for helper moves
    /// filtered one by one.
    region_of: Option<(&'s CellSets, u16)>,
    /// With two moves to spare, the helpers that can change the target robot's last moves.
    two_to_spare: Option<SpareMove<'s>>,
}

/// The children of one node, and whether a real move was left out (it would have failed with
/// one move fewer).
struct Children {
    /// Not zeroed first: a node writes only the children it has.
    list: ArrayVec<Child, { MAX_ROBOTS * 4 }>,
    passed_over: bool,
}

impl<'g, C: Control, const NO_REBOUND: bool> Worker<'g, C, NO_REBOUND> {
    /// Searches the node reached by `self.path` with `left` moves to go. Returns whether a
    /// solution was found (then `self.path` holds it), or else a lower bound on the moves the
    /// node needs, more than `left`.
    ///
    /// `stored` says the parent already looked it up in the table and recorded this search.
    pub fn node(
        &mut self,
        depth: u32,
        left: u32,
        last_from: u16,
        stored: bool,
    ) -> Result<Visit, Halt> {
        if self.split == Some(depth) {
            return Ok(self.split_off_unit(last_from, stored));
        }
        self.counters.nodes += 1;
        self.profile_node();
        self.control.tick()?;
        self.node_event(depth);
        let bound = match self.before_expanding(depth, left)? {
            Verdict::Settled(visit) => return Ok(visit),
            Verdict::Expand { bound } => bound,
        };
        self.counters.expanded += 1;
        // A parent that looked this node up has already recorded it in the table.
        if !stored && let Some(visit) = self.table_cut(depth, left) {
            return Ok(visit);
        }
        // Built in place: returning the list would copy it.
        let mut children = Children {
            list: ArrayVec::new(),
            passed_over: false,
        };
        self.generate_children(&mut children, depth, left, last_from, bound);
        if C::GATHERS {
            let first = self.first_child(depth, children.list.len());
            children.list.rotate_left(first);
        }
        let needed = match self.search_children(&children, depth, left)? {
            Visit::Found => return Ok(Visit::Found),
            Visit::Failed(needed) => needed,
        };
        // A move left out proves no more than the least a failure proves.
        let needed = if children.passed_over {
            needed.min(left + 1)
        } else {
            needed
        };
        Ok(Visit::Failed(needed.max(left + 1)))
    }

    /// Keeps the node as a work unit instead of searching it.
    fn split_off_unit(&mut self, last_from: u16, stored: bool) -> Visit {
        self.units.push(Unit {
            cells: self.cells,
            columns: self.columns,
            last_dirs: self.last_dirs,
            path: self.path.clone(),
            last_from,
            stored,
        });
        // The unit's own search reports what it needs; here it proves nothing.
        Visit::Failed(MAX_DEPTH + 1)
    }

    /// The checks that settle a node without children: the goal, no moves left, a bound above
    /// the moves left, and a bound equal to them (the last-moves search).
    #[inline(always)]
    fn before_expanding(&mut self, depth: u32, left: u32) -> Result<Verdict, Halt> {
        if self.at_goal() && depth >= self.setup.min_len {
            self.keep_goal();
            return Ok(Verdict::Settled(Visit::Found));
        }
        if left == 0 {
            self.counters.cut = true;
            self.control.event(|| Event::Pruned {
                depth,
                reason: PruneReason::DepthLimit,
            });
            return Ok(Verdict::Settled(Visit::Failed(1)));
        }
        let rook = self.rook_bound();
        // Where it cuts, the blocker bound raises the rook bound past the moves left.
        let bound = if rook <= left {
            self.blocker_bound(rook, left)
        } else {
            rook
        };
        if bound > left {
            if !unreachable(bound) {
                self.counters.cut = true;
            }
            self.counters.bound_cuts += 1;
            self.control.event(|| Event::Pruned {
                depth,
                reason: PruneReason::LowerBound {
                    bound,
                    remaining: left,
                },
            });
            return Ok(Verdict::Settled(Visit::Failed(bound.min(MAX_DEPTH + 1))));
        }
        if bound == left {
            // Only a robot that can reach the target with every move lowering its bound can
            // finish in time: nobody else has a move to spare.
            self.counters.last_moves += 1;
            self.counters.cut = true;
            let found = self.finish_alone(depth, left)?;
            return Ok(Verdict::Settled(if found {
                Visit::Found
            } else {
                Visit::Failed(left + 1)
            }));
        }
        Ok(Verdict::Expand { bound })
    }

    /// Looks the node up in the table and records this search; the failure to report when
    /// the node was searched with at least as many moves left before.
    #[inline(always)]
    fn table_cut(&mut self, depth: u32, left: u32) -> Option<Visit> {
        if left < 2 || depth < self.setup.min_len || !self.setup.use_table {
            return None;
        }
        self.publish(depth);
        match self.table.probe_or_store(self.key(), left, self.iteration) {
            Lookup::Stored { new } => {
                self.counters.inserted += u64::from(new);
                None
            }
            Lookup::Hit { stored, older } if self.hit_needs_search(depth, left, stored, older) => {
                None
            }
            Lookup::Hit { stored, older } => {
                self.counters.hits += 1;
                // A state searched earlier in this iteration adds nothing a deeper iteration
                // could extend beyond what that search already counted.
                self.counters.cut |= older;
                self.control.event(|| Event::Pruned {
                    depth,
                    reason: PruneReason::TableHit { stored },
                });
                // An entry of an earlier iteration is a finished search's proof; one of this
                // iteration may belong to a search still under way, so only `left + 1` is
                // certain.
                Some(Visit::Failed(if older { stored + 1 } else { left + 1 }))
            }
        }
    }

    /// What the pruning rules need at a node of bound `bound`, found once.
    #[inline(always)]
    fn pruning(&self, depth: u32, left: u32, last_from: u16, bound: u32) -> Pruning<'g> {
        // The cell sets, once built, are read many times per node: fetch them once.
        let setup: &'g Setup = self.setup;
        let sets = setup.cell_sets();
        let skip = sets.map_or(0, |sets| {
            self.helpers_that_cannot_matter(sets, depth, left, bound)
        });
        // Helper moves are filtered one by one with one move to spare.
        let region_of = sets.zip(
            self.setup
                .active
                .filter(|_| skip & ONE_TO_SPARE != 0)
                .map(|a| self.cells[a]),
        );
        Pruning {
            last: self.path.last().copied(),
            last_from,
            skip,
            region_of,
            two_to_spare: sets
                .and_then(|sets| self.spare_move_candidates(sets, depth, left, bound)),
        }
    }

    /// Every move worth searching, in the move order, into `children`, with the table buckets
    /// of those that will be looked up fetched, so the memory reads overlap instead of stalling
    /// one by one.
    #[inline(always)]
    fn generate_children(
        &mut self,
        children: &mut Children,
        depth: u32,
        left: u32,
        last_from: u16,
        bound: u32,
    ) {
        let pruning = self.pruning(depth, left, last_from, bound);
        let child_probes = left > 2 && depth + 1 >= self.setup.min_len && self.setup.use_table;
        for k in 0..self.setup.robots {
            let robot = self.robot_at_rank(k);
            if self.robot_passed_over(&pruning, k, robot) {
                children.passed_over = true;
                continue;
            }
            let from = self.cells[robot];
            for (dir, &to) in self.slides(robot).iter().enumerate() {
                if self.reverses(robot, dir) || to.0 == from {
                    continue;
                }
                if self.move_passed_over(&pruning, depth, k, robot, dir, to) {
                    children.passed_over = true;
                    continue;
                }
                // At most four moves per robot: the list never fills.
                let child = self.child(robot, dir, to, left, child_probes);
                children.list.push(child);
            }
        }
    }

    /// Whether all of `robot`'s moves (it is `k`-th in the move order) are left out: it is a
    /// helper that cannot matter with one move to spare, or every move of it commutes with the
    /// last move, which a robot later in the move order made, so they are all searched the
    /// other way round.
    #[inline(always)]
    fn robot_passed_over(&mut self, pruning: &Pruning, k: usize, robot: usize) -> bool {
        if pruning.skip & (1 << robot) != 0 {
            return true;
        }
        if let Some((r, d)) = pruning.last
            && !C::GATHERS
            && usize::from(r) != robot
            && k < self.rank(usize::from(r))
            && self.all_moves_commute(usize::from(r), usize::from(d), pruning.last_from, robot)
        {
            self.counters.swaps += 1;
            return true;
        }
        false
    }

    /// Whether the move of `robot` (`k`-th in the move order) in `dir` to `to` is left out by
    /// a pruning rule.
    #[inline(always)]
    fn move_passed_over(
        &mut self,
        pruning: &Pruning,
        depth: u32,
        k: usize,
        robot: usize,
        dir: usize,
        to: (u16, u16),
    ) -> bool {
        let from = self.cells[robot];
        // With one move to spare, a helper move that neither leaves nor enters the region of
        // the last-moves search leaves its outcome as it was: a failure.
        if self.outside_the_region(pruning.region_of, robot, from, to.0) {
            return true;
        }
        if self.skipped_with_two_to_spare(pruning.two_to_spare.as_ref(), robot, to.0) {
            return true;
        }
        let Some((r, d)) = pruning.last else {
            return false;
        };
        let (r, d) = (usize::from(r), usize::from(d));
        // A move straight back, by the robot that moved last: it passes the cell that robot
        // came from with nothing else moved, so it stops where a move from there would have
        // stopped (or there). A solution through it would give one a move shorter, and every
        // shorter length is proved impossible. Under the ricochet rule only once that shorter
        // solution is long enough to count.
        if depth > self.setup.min_len && r == robot && d == dir ^ 2 {
            return true;
        }
        // Two moves of different robots that give the same state in either order are
        // searched in one order only: the earlier robot first.
        if !C::GATHERS
            && r != robot
            && k < self.rank(r)
            && self.commutes(r, d, pruning.last_from, robot, dir, to)
        {
            self.counters.swaps += 1;
            return true;
        }
        false
    }

    /// The child of `robot`'s move in `dir` to `to`; when `child_probes` and the child will
    /// look itself up (its bound leaves it a move to spare), with its table hash, and its
    /// bucket fetched.
    #[inline(always)]
    fn child(
        &mut self,
        robot: usize,
        dir: usize,
        to: (u16, u16),
        left: u32,
        child_probes: bool,
    ) -> Child {
        let mut child = Child {
            robot: robot as u8,
            dir: dir as u8,
            cell: to.0,
            column: to.1,
            probed: false,
            hash: 0,
        };
        if child_probes {
            let from = self.cells[robot];
            let last_dir = self.last_dirs[robot];
            self.cells[robot] = to.0;
            self.set_last_dir(robot, dir);
            // Children at their bound go to the last-moves search, not the table.
            if self.rook_bound() < left - 1 {
                child.probed = true;
                child.hash = self.table.hash(self.key());
                self.table.prefetch_hash(child.hash);
            }
            self.cells[robot] = from;
            self.last_dirs[robot] = last_dir;
        }
        child
    }

    /// Searches the children in order; the solution, or the least over the children of one
    /// more than what each needs (`MAX_DEPTH + 1` without children: a dead end).
    #[inline(always)]
    fn search_children(
        &mut self,
        children: &Children,
        depth: u32,
        left: u32,
    ) -> Result<Visit, Halt> {
        let mut needed = MAX_DEPTH + 1;
        // Gathering: the state, for the moves kept from it, and whether any was.
        let place = if C::GATHERS {
            (self.place(), self.key())
        } else {
            Default::default()
        };
        let mut gathered = false;
        for child in &children.list {
            let robot = usize::from(child.robot);
            let from = (self.cells[robot], self.columns[robot]);
            let from_dir = self.last_dirs[robot];
            self.set(robot, (child.cell, child.column));
            self.set_last_dir(robot, usize::from(child.dir));
            // Gathering, a state on a solution is searched once (the start never is one yet).
            if C::GATHERS && self.gathered(left - 1) {
                self.keep_edge(place, left, child.robot, child.dir);
                gathered = true;
                self.set(robot, from);
                self.last_dirs[robot] = from_dir;
                continue;
            }
            if child.probed
                && let Some(child_needs) =
                    self.child_table_hit(child, depth, left, from, from_dir)?
            {
                self.unpublish(depth + 1);
                needed = needed.min(child_needs + 1);
                continue;
            }
            self.path.push((child.robot, child.dir));
            let visit = self.node(depth + 1, left - 1, from.0, child.probed);
            if let Ok(Visit::Found) = visit {
                if !C::GATHERS {
                    return visit;
                }
                // The child's search left the worker on the child.
                self.keep_edge(place, left, child.robot, child.dir);
                gathered = true;
            }
            self.path.pop();
            self.set(robot, from);
            self.last_dirs[robot] = from_dir;
            self.unpublish(depth + 1);
            if let Visit::Failed(child_needs) = visit? {
                needed = needed.min(child_needs + 1);
            }
        }
        if gathered {
            return Ok(Visit::Found);
        }
        Ok(Visit::Failed(needed))
    }

    /// Looks up a child the worker has just moved to (it passes every check before the
    /// table: its bound leaves it a move to spare and it is not the target), so a hit costs
    /// no call. On a hit it is counted exactly as if it had been visited, the robot goes back
    /// to `from` with its last direction `from_dir`, and the answer is what the child needs;
    /// otherwise the table now records the child's search.
    #[inline(always)]
    fn child_table_hit(
        &mut self,
        child: &Child,
        depth: u32,
        left: u32,
        from: (u16, u16),
        from_dir: u8,
    ) -> Result<Option<u32>, Halt> {
        self.publish(depth + 1);
        match self
            .table
            .probe_or_store_hash(child.hash, left - 1, self.iteration)
        {
            Lookup::Stored { new } => {
                self.counters.inserted += u64::from(new);
                Ok(None)
            }
            Lookup::Hit { stored, older }
                if self.hit_needs_search(depth + 1, left - 1, stored, older) =>
            {
                Ok(None)
            }
            Lookup::Hit { stored, older } => {
                self.counters.nodes += 1;
                self.counters.expanded += 1;
                self.counters.hits += 1;
                self.counters.cut |= older;
                let ticked = self.control.tick();
                self.path.push((child.robot, child.dir));
                self.profile_node();
                self.node_event(depth + 1);
                self.path.pop();
                self.control.event(|| Event::Pruned {
                    depth: depth + 1,
                    reason: PruneReason::TableHit { stored },
                });
                let robot = usize::from(child.robot);
                self.set(robot, from);
                self.last_dirs[robot] = from_dir;
                ticked?;
                Ok(Some(if older { stored + 1 } else { left }))
            }
        }
    }
}
