//! Every optimal solution at once: one exhaustive iteration at the optimal length that keeps
//! each state on a solution, with the moves from it that stay on one, instead of stopping at
//! the first. The states on optimal solutions are few (498 to 3,345 on real-21, hardest-25 and
//! fogleman-22, for 200,311 to 454 million solutions), so the graph is small; its cost is the
//! iteration's.
//!
//! The iterations below the optimum run first, as in a solve, on every core; each proves its
//! length impossible, so its table entries are facts about states (a state met after `j`
//! moves with `k` left has no solution in `k`: with that path it would make one shorter than
//! the optimum), and the gathering iteration starts from them. Every cut of that iteration is
//! such a fact too (the bounds, the table, the rules for helper moves that cannot matter, no
//! move straight back), except swapped pairs, which depend on the move before: a state whose
//! search skipped a swapped order would pass for dead when reached by another path, so both
//! orders of every pair are searched. A state reached again with the moves left it was
//! solved with is read from the graph, not searched again. The table's key lets helpers swap
//! cells; a state whose key is that of a solved state, but which is not one itself, is
//! searched rather than cut (on real-21, cutting them lost a third of the 200,311
//! solutions). The iteration runs on one thread: a state another thread was still searching
//! would pass for dead.
//!
//! Measured on hansel-24, real-21, hardest-25 and fogleman-22: 49, 47, 69 and 76 million
//! nodes for the whole run (iterations below included), 5-8 s on a 2-core machine.

use super::INITIAL_BUCKET_BITS;
use super::control::{Control, Halt, MainControl, NoControl};
use super::driver::Driver;
use super::node::Visit;
use super::setup::Setup;
use super::solution_graph::{Place, SolutionGraph};
use super::table::Table;
use super::worker::Worker;
use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Direction, Move, Puzzle};
use crate::solver::probe::Event;
use crate::solver::profile::NodeProfile;
use crate::solver::{Probe, Search, SearchEnd, SolverOptions, Stop};

/// The main thread's control, keeping the graph.
struct GatherControl<'a, 'p, P: Probe> {
    main: MainControl<'a, 'static, 'p, P>,
    graph: SolutionGraph,
}

impl<P: Probe> Control for GatherControl<'_, '_, P> {
    const GATHERS: bool = true;

    #[inline(always)]
    fn tick(&mut self) -> Result<(), Halt> {
        self.main.tick()
    }

    #[inline(always)]
    fn event(&mut self, event: impl FnOnce() -> Event) {
        self.main.event(event);
    }

    #[inline(always)]
    fn node_profile(&mut self) -> Option<&mut NodeProfile> {
        self.main.node_profile()
    }

    #[inline(always)]
    fn graph(&mut self) -> Option<&mut SolutionGraph> {
        Some(&mut self.graph)
    }
}

impl<C: Control, const NO_REBOUND: bool> Worker<'_, C, NO_REBOUND> {
    /// The current state, robot by robot.
    #[inline]
    pub fn place(&self) -> Place {
        let mut place = Place {
            cells: [0; MAX_ROBOTS],
            dirs: [0; MAX_ROBOTS],
        };
        let n = self.setup.robots;
        place.cells[..n].copy_from_slice(&self.cells[..n]);
        if NO_REBOUND {
            place.dirs[..n].copy_from_slice(&self.last_dirs[..n]);
        }
        place
    }

    /// Whether the current state is in the graph with `left` moves left (never when the
    /// search does not gather).
    #[inline(always)]
    pub fn gathered(&mut self, left: u32) -> bool {
        if !C::GATHERS {
            return false;
        }
        let place = self.place();
        self.control
            .graph()
            .is_some_and(|graph| graph.solved(&place, left))
    }

    /// Keeps the goal state reached now in the graph.
    #[inline]
    pub fn keep_goal(&mut self) {
        if C::GATHERS {
            let place = self.place();
            let key = self.key();
            if let Some(graph) = self.control.graph() {
                graph.nodes.entry((place, 0)).or_default();
                graph.keys.insert((key, 0));
            }
        }
    }

    /// Whether a table entry that would cut the current state with `left` moves left may
    /// belong to a state on a solution that differs from it by helpers that swap cells: then
    /// the state is searched, not cut (never when the search does not gather).
    #[inline(always)]
    pub fn hit_may_be_solved(&mut self, left: u32) -> bool {
        if !C::GATHERS {
            return false;
        }
        let key = self.key();
        self.control
            .graph()
            .is_some_and(|graph| graph.keys.contains(&(key, left)))
    }

    /// Keeps the move `(robot, dir)` from `from` (with `left` moves left) to the current state
    /// in the graph.
    #[inline]
    pub fn keep_edge(&mut self, from: (Place, u64), left: u32, robot: u8, dir: u8) {
        if C::GATHERS {
            let to = self.place();
            let mv = Move::new(
                self.setup.colors[usize::from(robot)],
                Direction::ALL[usize::from(dir)],
            );
            if let Some(graph) = self.control.graph() {
                graph.add_edge(from.0, from.1, left, mv, to);
            }
        }
    }
}

/// The graph of every solution of `depth` moves of `puzzle`, which must be its optimal
/// length. The iterations below it run first as in [`super::solve`] (on `threads` threads),
/// each proving its length impossible; their table entries are then facts about states (a
/// state met with `k` moves left after `j` moves has no solution in `k`: with that path it
/// would make one shorter than the optimum), so the gathering iteration, on one thread,
/// starts from them. The run's limits and cancel apply.
pub(crate) fn solution_graph<P: Probe>(
    puzzle: &Puzzle,
    depth: u32,
    threads: usize,
    search: &mut Search<'_, P>,
) -> Result<SolutionGraph, Stop> {
    let setup = Setup::new(puzzle);
    let table = Table::new(INITIAL_BUCKET_BITS, setup.robot_bits * setup.robots as u32);
    if setup.no_rebound {
        gather::<P, true>(&setup, table, depth, threads, search)
    } else {
        gather::<P, false>(&setup, table, depth, threads, search)
    }
}

fn gather<P: Probe, const NO_REBOUND: bool>(
    setup: &Setup,
    table: Table,
    depth: u32,
    threads: usize,
    search: &mut Search<'_, P>,
) -> Result<SolutionGraph, Stop> {
    let mut driver = Driver::<NO_REBOUND> {
        setup,
        table,
        inserted: 0,
        threads,
    };
    let below = SolverOptions {
        depth_limit: Some(depth.saturating_sub(1)),
        threads: Some(threads),
        ..SolverOptions::default()
    };
    let root = Worker::<_, NO_REBOUND>::new(setup, &driver.table, NoControl, 0).place();
    let empty = SolutionGraph {
        root,
        depth,
        ..SolutionGraph::default()
    };
    match driver.iterate(&below, search) {
        SearchEnd::Stopped(stop) => return Err(stop),
        // A shorter solution, or none at all: `depth` was not the optimum.
        SearchEnd::Found(_) | SearchEnd::Unsolvable(None) | SearchEnd::NotFound => {
            return Ok(empty);
        }
        SearchEnd::Unsolvable(Some(_)) => {}
    }
    // The last iteration's growth, and the cell sets even when the search below was small.
    driver.grow_table(search)?;
    let bytes = driver.table.bytes() + setup.bytes() + setup.cell_sets_bytes();
    search.reserve_memory(bytes)?;
    search.set_memory(bytes)?;
    setup.prepare_cell_sets();
    search.probe.event(|| Event::IterationStarted { depth });
    let control = GatherControl {
        main: MainControl::new(search, None),
        graph: SolutionGraph::default(),
    };
    let mut worker = Worker::<_, NO_REBOUND>::new(setup, &driver.table, control, depth);
    let visit = worker.node(0, depth, u16::MAX, false);
    let graph = std::mem::take(&mut worker.control.graph);
    let counters = worker.counters;
    search.finish_depth(counters.depth_stats(depth));
    match visit {
        Ok(Visit::Found) => Ok(SolutionGraph {
            root,
            depth,
            ..graph
        }),
        Ok(Visit::Failed(_)) => Ok(empty),
        Err(Halt::Stop(stop)) => Err(stop),
        // Nothing abandons a run on one thread.
        Err(Halt::Abandon) => Err(Stop::Cancelled),
    }
}
