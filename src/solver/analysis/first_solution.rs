//! The first optimal solution in the listing's order, searched for directly instead of read
//! from the whole listing.
//!
//! [`all_solutions`](super::all_solutions) ranks optimal solutions by the number of robots
//! moved, then the number of robot changes, then move by move (robots R, G, B, Y, K;
//! directions N, E, S, W). Its cost grows with the number of solutions; this search's does
//! not, because it asks each key in turn a question with a short answer:
//!
//! 1. **Robots.** For the sets of robots in order of size, does a solution of the optimal
//!    length `d` exist that moves only the robots of the set? The first size with an answer is
//!    the fewest robots any solution moves, `k`; every set of that size is asked, and a set
//!    that says yes holds only solutions that move all of its robots (one moving fewer would
//!    have been found at a smaller size).
//! 2. **Changes and moves.** Each set that said yes is searched with at most `c` robot
//!    changes, trying the moves in the listing's order: the first solution met is the first
//!    of that set with at most `c` changes. The fewest changes `k` robots can have, `k - 1`,
//!    is asked first: its proof is cheap, and an answer with that few needs no other
//!    question. Otherwise each set is searched once for its fewest changes, branch and bound:
//!    the budget starts one below the fewest changes of the solutions in hand, each solution
//!    met lowers it to one below its own, the search goes on, and the robot that moved last
//!    is tried first so that such solutions come early. Then the first solution within the
//!    fewest, move by move, is asked of every set. Going down proves one budget impossible;
//!    going up from `k - 1` would prove every budget below the fewest impossible, each costing
//!    more than the one before (on hansel-24, 14, 132, 345 and 568 million nodes for budgets
//!    3 to 6). On hansel-24 the one search went from 9 changes down to 7 and proved 6
//!    impossible in 444 million nodes, where asking 9, 8, 7 and 6 in the listing's order took
//!    684 million.
//!
//! Each question is a depth-first search at exactly `d` moves with cuts that never cut an
//! optimal solution: the minimum-move bound, no move straight back, and `fast`'s rules for
//! helper moves that cannot matter with one or two moves to spare (see `spare`). Under a change
//! budget a node is also cut when the robots of the set that have not moved yet would need more
//! changes than are left (each must move, and each first move after another robot's is a
//! change). A subtree searched whole reports the fewest changes its solutions need, as far as
//! it proved (its children's, plus each child's own change; none when no budget cut anything
//! in it).
//!
//! **What a thread remembers**, per set and per state (see `seeker::Seeker`): the numbers of
//! moves left with which it has no solution (as in the listing); the most moves left it was
//! reached with, since a state reached again with fewer has no solution (with the earlier
//! path, that would be one shorter than the optimum); and, for that number, the fewest changes
//! proved per robot that moved last (told apart by its cell, since helpers that swap cells
//! share a key) and whichever moved last. All are facts about the state alone, so the tables
//! of one question serve the later questions of the same set.
//!
//! **The graph, past a budget.** Questions whose proofs are long (robot sets and change budgets
//! that have no solution) can cost far more than a solve: on hansel-24 over 200 million nodes.
//! Past a budget of nodes (see `question_budget`) they are dropped and `fast` gathers the
//! graph of every optimal solution instead (see `crate::solver::fast::gather`): the states on
//! optimal solutions and the moves between them, from the iterations below the optimum and
//! one exhaustive iteration at it, whatever the number of solutions. The graph is small (324
//! to 3,345 states on real-21, real-21 with blue moved west, hardest-25 and fogleman-22, for
//! 80,294 to 454 million solutions), so the first solution is read from it exactly: per set of
//! robots, the fewest changes from each state after each robot (from the goal up), then move
//! by move the first move that keeps them. [`first_optimal_from_graph`] reads the graph alone,
//! for cross-checks.
//!
//! **A race, after a solve.** Given the table of the `fast` solve that found the optimum (see
//! [`SolveLeftovers`]), the iterations below the optimum need not run again, and on two
//! threads or more the questions run on one thread while the others gather the graph; the
//! first to finish answers, and past their budget the questions' thread joins the graph. On a
//! 2-core machine the questions are no slower on one thread than on two (2.3 s against 2.7 s
//! on real-21: each thread has its own tables), so the race costs them nothing. On hansel-24
//! this took the level-4 hint from 52-56 s to about 2.2 solves. Starting from a solve whose
//! table is gone (an earlier run's report), the graph is gathered from nothing beside the
//! questions (see `beside`).
//!
//! **On every core.** Each question's search is cut at [`SPLIT_DEPTH`] moves into work units,
//! in the order their moves are tried, which the threads take in turn. The answer is the
//! solution of the first unit that has one: a thread stops a unit as soon as an earlier unit
//! has answered, and the answer does not depend on the threads. The calling thread does not
//! search: it polls the limits and the probe every millisecond and stops the threads through a
//! flag, which they look at every `POLL_INTERVAL` nodes.

mod beside;
mod graph;
mod leftovers;
mod seeker;
mod spare;

use super::walk::Walk;
use crate::model::{Move, MoveTables, Puzzle};
use crate::solver::fast::gather::{GatherJob, solution_graph};
use crate::solver::fast::regions::CellSets;
use crate::solver::fast::table::Table;
use crate::solver::key::{KeyLayout, StateKey, with_key_width};
use crate::solver::min_moves::min_moves;
use crate::solver::stops::StopTables;
use crate::solver::{Limits, Probe, Search, Stop};
use beside::Rival;
pub use leftovers::SolveLeftovers;
use leftovers::{QUESTION_BUDGET, question_budget};
use seeker::Seeker;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The moves after which a question's search is cut into work units.
pub const SPLIT_DEPTH: usize = 3;

/// Nodes between two looks at the shared flags.
const POLL_INTERVAL: u32 = 1 << 12;

/// How often the calling thread polls the limits and the probe while the threads search.
const MAIN_POLL: Duration = Duration::from_millis(1);

/// The most moves left that the dead-state tables record (one bit per count in a word).
const MAX_TABLE_DEPTH: u32 = 63;

/// What the search for the first solution produced.
#[derive(Clone, Debug)]
pub struct FirstSolution {
    /// The first optimal solution in the listing's order, replayed; or why the search stopped.
    pub solution: Result<Vec<Move>, FirstError>,
    /// Nodes visited by every thread.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Why no first solution came back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FirstError {
    /// A limit or a cancel stopped the search.
    #[error("the search stopped: {0:?}")]
    Stopped(Stop),
    /// No solution of the given length exists: the length was not the optimum of this puzzle.
    #[error("no solution of {0} moves exists")]
    NoneOfLength(u32),
    /// The system started no thread to search on.
    #[error("the system refused every thread of the search")]
    NoThread,
    /// The answer failed its replay (a bug).
    #[error("the answer {0} failed its replay")]
    Invalid(String),
}

/// [`first_optimal`] after the solve that found `known`, using what it leaves (see
/// [`SolveLeftovers`]); leftovers of another puzzle are ignored.
pub fn first_optimal_after<P: Probe>(
    puzzle: &Puzzle,
    known: &[Move],
    mut leftovers: SolveLeftovers,
    threads: Option<usize>,
    limits: &Limits,
    probe: &mut P,
) -> FirstSolution {
    if leftovers.puzzle.as_ref() != Some(puzzle) {
        leftovers = SolveLeftovers::default();
    }
    first_by(
        Strategy::Questions,
        puzzle,
        known,
        leftovers,
        threads,
        limits,
        probe,
    )
}

/// Finds the first of the optimal solutions of `puzzle` in the listing's order, given the
/// optimal length `known.len()` and one optimal solution `known` (an optimal solver's answer):
/// `known` bounds the robots and changes to look for. On `threads` threads (`None`: one per
/// core). The probe sees the nodes of every thread and may stop the search.
pub fn first_optimal<P: Probe>(
    puzzle: &Puzzle,
    known: &[Move],
    threads: Option<usize>,
    limits: &Limits,
    probe: &mut P,
) -> FirstSolution {
    first_by(
        Strategy::Questions,
        puzzle,
        known,
        SolveLeftovers::default(),
        threads,
        limits,
        probe,
    )
}

/// [`first_optimal`] read from the graph of every optimal solution alone, without asking the
/// questions first: the same answer, at the cost of one exhaustive iteration. For
/// cross-checks, and to time the two ways against each other.
pub fn first_optimal_from_graph<P: Probe>(
    puzzle: &Puzzle,
    known: &[Move],
    threads: Option<usize>,
    limits: &Limits,
    probe: &mut P,
) -> FirstSolution {
    first_by(
        Strategy::Graph,
        puzzle,
        known,
        SolveLeftovers::default(),
        threads,
        limits,
        probe,
    )
}

/// How the first solution is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strategy {
    /// The questions, then the graph if they pass [`QUESTION_BUDGET`] nodes.
    Questions,
    /// The graph alone.
    Graph,
}

fn first_by<P: Probe>(
    strategy: Strategy,
    puzzle: &Puzzle,
    known: &[Move],
    leftovers: SolveLeftovers,
    threads: Option<usize>,
    limits: &Limits,
    probe: &mut P,
) -> FirstSolution {
    let threads = threads
        .unwrap_or_else(crate::solver::fast::available_threads)
        .max(1);
    let mut search = Search::new(probe, limits);
    search.threads = threads;
    // The cell sets of the rules for helper moves that cannot matter; they need a target robot.
    let sets = puzzle
        .active_robot()
        .map(|_| CellSets::new(&StopTables::new(puzzle.board(), puzzle.goal_cell())));
    let solution = with_key_width!(puzzle, |layout, Key| {
        let mut finder =
            Finder::<Key, P>::new(puzzle, layout, known, threads, sets.as_ref(), &mut search);
        finder.strategy = strategy;
        finder.solve_nodes = leftovers.puzzle.is_some().then_some(leftovers.nodes);
        finder.solve_table = leftovers.table;
        finder.find()
    });
    let solution = solution.and_then(|moves| match puzzle.replay(&moves) {
        Ok(_) => Ok(moves),
        Err(error) => Err(FirstError::Invalid(format!(
            "{}: {error}",
            crate::model::format_moves(&moves)
        ))),
    });
    FirstSolution {
        solution,
        nodes: search.nodes,
        elapsed: search.elapsed(),
    }
}

/// The robots of a set (a bit per robot index).
fn set_of(moves: &[Move], puzzle: &Puzzle) -> u32 {
    moves
        .iter()
        .filter_map(|mv| puzzle.robot_index(mv.robot))
        .fold(0, |set, r| set | 1 << r)
}

/// Robot changes along a sequence.
fn changes_of(moves: &[Move]) -> u32 {
    moves
        .windows(2)
        .filter(|pair| pair[0].robot != pair[1].robot)
        .count() as u32
}

/// One question: a set of robots and, when given, the most robot changes.
#[derive(Clone, Copy, Debug)]
struct Question {
    set: u32,
    budget: Option<u32>,
    /// Whether the question is the fewest changes within the budget rather than the first
    /// solution: each solution found lowers the budget below its own changes and the search
    /// goes on, trying the robot that moved last first.
    fewest: bool,
}

/// The questions' driver on the calling thread.
struct Finder<'a, 's, 'p, K: StateKey, P: Probe> {
    puzzle: &'a Puzzle,
    known: &'a [Move],
    depth: u32,
    search: &'s mut Search<'p, P>,
    /// One seeker per thread, each with its own tables.
    seekers: Vec<Seeker<'a, K>>,
    shared: Shared,
    strategy: Strategy,
    /// The nodes the questions have taken.
    question_nodes: u64,
    /// The nodes of the solve that found the known solution, when known.
    solve_nodes: Option<u64>,
    /// The nodes the questions may take (see [`question_budget`]).
    question_budget: u64,
    /// Whether the questions were stopped for passing their budget.
    over_budget: bool,
    /// The table of the `fast` solve that found the known solution, for the graph.
    solve_table: Option<Table>,
    /// The graph gathered while the questions are asked, when it is.
    racing: Option<Arc<dyn Rival>>,
    /// Whether the questions were stopped because the graph was complete first.
    graph_won: bool,
}

/// What the threads of one question share.
struct Shared {
    /// Set by the calling thread when a limit or a cancel stops the search.
    stop: AtomicBool,
    /// Nodes not yet counted by the calling thread.
    nodes: AtomicU64,
    /// The bytes of every thread's tables.
    memory: AtomicUsize,
    /// The next work unit to hand out.
    next_unit: AtomicUsize,
    /// The first unit known to hold a solution (`usize::MAX`: none yet).
    first_found: AtomicUsize,
    /// The solutions found, with their units.
    found: Mutex<Vec<(usize, Vec<Move>)>>,
    /// For a question of the fewest changes: the budget now, one below the fewest changes
    /// found so far.
    budget: AtomicU32,
    /// For a question of the fewest changes: the solution with the fewest found so far.
    fewest: Mutex<Option<(u32, Vec<Move>)>>,
}

impl<'a, 's, 'p, K: StateKey + Send, P: Probe> Finder<'a, 's, 'p, K, P> {
    fn new(
        puzzle: &'a Puzzle,
        layout: KeyLayout,
        known: &'a [Move],
        threads: usize,
        sets: Option<&'a CellSets>,
        search: &'s mut Search<'p, P>,
    ) -> Self {
        let tables = MoveTables::new(puzzle.board());
        let bound = min_moves(puzzle.board(), puzzle.goal_cell());
        Finder {
            puzzle,
            known,
            depth: known.len() as u32,
            search,
            seekers: (0..threads)
                .map(|_| Seeker::new(puzzle, layout, tables.clone(), bound.clone(), sets))
                .collect(),
            shared: Shared {
                stop: AtomicBool::new(false),
                nodes: AtomicU64::new(0),
                memory: AtomicUsize::new(0),
                next_unit: AtomicUsize::new(0),
                first_found: AtomicUsize::new(usize::MAX),
                found: Mutex::new(Vec::new()),
                budget: AtomicU32::new(u32::MAX),
                fewest: Mutex::new(None),
            },
            strategy: Strategy::Questions,
            question_nodes: 0,
            solve_nodes: None,
            question_budget: QUESTION_BUDGET,
            over_budget: false,
            solve_table: None,
            racing: None,
            graph_won: false,
        }
    }

    /// The two phases of the module documentation.
    fn ask_questions(&mut self) -> Result<Vec<Move>, FirstError> {
        let n = self.puzzle.robots().len();
        let known_set = set_of(self.known, self.puzzle);
        let known_robots = known_set.count_ones();
        // Phase 1: the fewest robots, and every set of that many that has a solution, with
        // one solution each.
        let mut feasible: Vec<(u32, Vec<Move>)> = Vec::new();
        for size in 0..=known_robots {
            let mut sets: Vec<u32> = (0..1u32 << n)
                .filter(|set| set.count_ones() == size)
                .collect();
            sets.sort_unstable();
            for set in sets {
                if set == known_set {
                    feasible.push((set, self.known.to_vec()));
                    continue;
                }
                let question = Question {
                    set,
                    budget: None,
                    fewest: false,
                };
                if let Some(solution) = self.ask(question)? {
                    feasible.push((set, solution));
                }
            }
            if !feasible.is_empty() {
                break;
            }
        }
        let robots = feasible
            .first()
            .map(|(set, _)| set.count_ones())
            .ok_or(FirstError::NoneOfLength(self.depth))?;
        // Only the sets that have a solution are asked again.
        for seeker in &mut self.seekers {
            seeker.keep_only(|set| feasible.iter().any(|(s, _)| *s == set));
        }
        // Phase 2: the fewest changes, then the first move by move. A known solution has
        // `most` changes; each question one change below the fewest found so far either finds
        // fewer or proves the fewest. Searching down from above proves one budget impossible,
        // where searching up would prove every budget below the fewest impossible, each
        // costing more than the last.
        let mut fewest = feasible
            .iter()
            .map(|(_, solution)| changes_of(solution))
            .min()
            .unwrap_or(0);
        // No solution of `robots` robots has fewer changes than this; that question's proof is
        // cheap, and an answer to it ends the search.
        let floor = robots.saturating_sub(1);
        if fewest > floor {
            let firsts = self.ask_every_set(&feasible, floor)?;
            if let Some(first) = firsts.into_iter().min() {
                return Ok(first);
            }
        }
        // The fewest changes: one search per set, its budget one below the fewest found so
        // far, going down with each solution it meets. The floor was proved out above.
        for &(set, _) in &feasible {
            if fewest <= floor + 1 {
                break;
            }
            let question = Question {
                set,
                budget: Some(fewest - 1),
                fewest: true,
            };
            if let Some(solution) = self.ask(question)? {
                fewest = changes_of(&solution);
            }
        }
        let firsts = self.ask_every_set(&feasible, fewest)?;
        firsts.into_iter().min().ok_or_else(|| {
            FirstError::Invalid("no set's solution was found again within its own changes".into())
        })
    }

    /// The questions, and the graph of every optimal solution when they pass their budget.
    fn find(&mut self) -> Result<Vec<Move>, FirstError> {
        if let Strategy::Graph = self.strategy {
            return self.read_graph();
        }
        let job = match self.solve_table.take() {
            Some(table) if self.seekers.len() >= 2 && self.depth > 0 => {
                GatherJob::new(self.puzzle, self.depth, table)
            }
            table => {
                self.solve_table = table;
                None
            }
        };
        // Without a solve's table, the graph beside the questions starts from nothing.
        let beside = job.is_none() && self.seekers.len() >= 2 && self.depth > 0;
        let racing = job.is_some() || (beside && self.solve_nodes.is_some());
        self.question_budget = question_budget(self.solve_nodes, racing);
        if let Some(job) = job {
            return self.race(job);
        }
        if racing && let Some(answer) = self.race_beside() {
            return answer;
        }
        self.question_budget = question_budget(self.solve_nodes, false);
        match self.ask_questions() {
            Err(FirstError::Stopped(Stop::Cancelled)) if self.over_budget => self.read_graph(),
            answer => answer,
        }
    }

    /// The questions on one thread while the other threads gather the graph from the solve's
    /// table; the first to finish answers. Past their budget the questions stop and their
    /// thread joins the graph.
    fn race(&mut self, job: GatherJob) -> Result<Vec<Move>, FirstError> {
        job.start(self.search).map_err(FirstError::Stopped)?;
        let job = Arc::new(job);
        let graph_threads = job.threads(self.seekers.len() - 1);
        self.seekers.truncate(1);
        self.search.threads = self.search.threads.max(graph_threads + 1);
        let answer = std::thread::scope(|scope| {
            let mut workers: Vec<_> = (0..graph_threads)
                .filter_map(|_| job.spawn_worker(scope))
                .collect();
            self.racing = Some(Arc::clone(&job) as Arc<dyn Rival>);
            let answer = self.ask_questions();
            self.racing = None;
            let answer = match answer {
                Err(FirstError::Stopped(Stop::Cancelled)) if self.over_budget || self.graph_won => {
                    if self.over_budget {
                        // The questions' tables are of no more use; their thread joins the graph.
                        self.free_seekers();
                        workers.extend(job.spawn_worker(scope));
                    }
                    job.wait(self.search);
                    None
                }
                answer => {
                    job.halt(Stop::Cancelled);
                    Some(answer)
                }
            };
            for worker in workers {
                // A thread that panicked is a bug: its panic goes on here.
                if let Err(panic) = worker.join() {
                    std::panic::resume_unwind(panic);
                }
            }
            answer
        });
        if let Some(answer) = answer {
            return answer;
        }
        let job = Arc::into_inner(job).ok_or_else(|| {
            FirstError::Invalid("the graph was still shared after its threads ended".into())
        })?;
        let graph = job.finish(self.search).map_err(FirstError::Stopped)?;
        graph::first_in_order(&graph, self.puzzle).ok_or(FirstError::NoneOfLength(self.depth))
    }

    /// Frees the questions' tables.
    fn free_seekers(&mut self) {
        for seeker in &mut self.seekers {
            seeker.keep_only(|_| false);
            seeker.stored.shrink_to_fit();
            seeker.dead.states.shrink_to_fit();
        }
    }

    /// Gathers the graph of every optimal solution and reads the first solution in the
    /// listing's order from it.
    fn read_graph(&mut self) -> Result<Vec<Move>, FirstError> {
        if self.depth == 0 {
            // The goal is taken already: the empty solution is the only one.
            return Ok(Vec::new());
        }
        let threads = self.seekers.len();
        // The questions' tables are of no more use.
        self.free_seekers();
        let solve_table = self.solve_table.take();
        let graph = solution_graph(self.puzzle, self.depth, threads, solve_table, self.search)
            .map_err(FirstError::Stopped)?;
        graph::first_in_order(&graph, self.puzzle).ok_or(FirstError::NoneOfLength(self.depth))
    }

    /// Each set's first solution, in the order moves are tried, with at most `budget` robot
    /// changes, for the sets that have one.
    fn ask_every_set(
        &mut self,
        feasible: &[(u32, Vec<Move>)],
        budget: u32,
    ) -> Result<Vec<Vec<Move>>, FirstError> {
        let mut firsts = Vec::new();
        for &(set, _) in feasible {
            let question = Question {
                set,
                budget: Some(budget),
                fewest: false,
            };
            if let Some(solution) = self.ask(question)? {
                firsts.push(solution);
            }
        }
        Ok(firsts)
    }

    /// Asks one question on every thread: the first solution, in the order moves are tried,
    /// of the set within the budget, or none.
    fn ask(&mut self, question: Question) -> Result<Option<Vec<Move>>, FirstError> {
        let depth = self.depth;
        // The units, cut on this thread: at most (4 robots)^SPLIT_DEPTH nodes, nothing beside
        // the search below them.
        let split = SPLIT_DEPTH.min(depth as usize);
        let cutter = &mut self.seekers[0];
        cutter.start(question);
        cutter.split = Some(split);
        let mut units = Vec::new();
        cutter.cut(depth, &mut units);
        cutter.split = None;
        let left = depth - split as u32;
        let shared = &self.shared;
        shared.next_unit.store(0, Ordering::Relaxed);
        shared.first_found.store(usize::MAX, Ordering::Relaxed);
        shared
            .found
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        shared
            .budget
            .store(question.budget.unwrap_or(u32::MAX), Ordering::Relaxed);
        *shared.fewest.lock().unwrap_or_else(|e| e.into_inner()) = None;
        let units = &units;
        let search = &mut *self.search;
        let question_budget = self.question_budget;
        let question_nodes = &mut self.question_nodes;
        // The solve's table waits for the graph, or the graph is gathered: it is still this
        // search's memory.
        let table_bytes = self.solve_table.as_ref().map_or(0, Table::bytes);
        let racing = self.racing.as_deref();
        let over_budget = &mut self.over_budget;
        let graph_won = &mut self.graph_won;
        let (stopped, threads) = std::thread::scope(|scope| {
            let mut running = Vec::new();
            for seeker in &mut self.seekers {
                seeker.start(question);
                let spawned = std::thread::Builder::new()
                    .name("hint-search".to_string())
                    .spawn_scoped(scope, move || seeker.take_units(units, left, shared));
                // A thread the system refuses leaves its share to the others.
                if let Ok(handle) = spawned {
                    running.push(handle);
                }
            }
            let threads = running.len();
            let mut stopped = None;
            while running.iter().any(|handle| !handle.is_finished()) {
                let nodes = shared.nodes.swap(0, Ordering::Relaxed);
                search.nodes += nodes;
                *question_nodes += nodes;
                if let Some(rival) = racing {
                    search.nodes += rival.take_nodes();
                    // The graph's search is over: the questions have nothing to add.
                    if stopped.is_none() && rival.is_over() {
                        shared.stop.store(true, Ordering::Relaxed);
                        *graph_won = true;
                        stopped = Some(Stop::Cancelled);
                    }
                }
                let kept_bytes = racing.map_or(table_bytes, Rival::bytes);
                let memory = shared.memory.load(Ordering::Relaxed) + kept_bytes;
                if stopped.is_none()
                    && let Err(stop) = search.set_memory(memory).and_then(|()| search.poll())
                {
                    shared.stop.store(true, Ordering::Relaxed);
                    stopped = Some(stop);
                }
                // Past the budget, the graph costs less than going on (see the module notes).
                if stopped.is_none() && *question_nodes > question_budget {
                    shared.stop.store(true, Ordering::Relaxed);
                    *over_budget = true;
                    stopped = Some(Stop::Cancelled);
                }
                std::thread::sleep(MAIN_POLL);
            }
            let nodes = shared.nodes.swap(0, Ordering::Relaxed);
            search.nodes += nodes;
            *question_nodes += nodes;
            // A thread that panicked is a bug: its panic goes on here.
            for handle in running {
                if let Err(panic) = handle.join() {
                    std::panic::resume_unwind(panic);
                }
            }
            (stopped, threads)
        });
        if threads == 0 {
            return Err(FirstError::NoThread);
        }
        if let Some(stop) = stopped {
            return Err(FirstError::Stopped(stop));
        }
        // A stop between the last poll and the end is still a stop: no answer is trusted
        // from a search that may have been cut.
        if let Err(stop) = search.poll() {
            shared.stop.store(true, Ordering::Relaxed);
            return Err(FirstError::Stopped(stop));
        }
        if question.fewest {
            let fewest = shared
                .fewest
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            return Ok(fewest.map(|(_, moves)| moves));
        }
        let found = std::mem::take(&mut *shared.found.lock().unwrap_or_else(|e| e.into_inner()));
        Ok(found
            .into_iter()
            .min_by_key(|(unit, _)| *unit)
            .map(|(_, moves)| moves))
    }
}

/// A node at [`SPLIT_DEPTH`] moves, searched whole by whichever thread takes it.
struct Unit {
    walk: Walk,
    changes: u32,
}
