//! Stepping through a search: a probe that records the solver's events and can hold the solver
//! thread inside [`Probe::event`](crate::solver::Probe::event) until the user interface lets it go on.
//!
//! The solver is the same code as in a plain run; only the probe differs. A plain run uses the
//! batched live probe of [`super`] and never pays for any of this. Here every event is
//! recorded whole to the run's trace file (see [`crate::solver::trace`]), updates the view and
//! the picture of the search ([`DebugView`], the heat map, the slide graph, the stateless
//! stores) that the solver thread keeps, and is checked against the run mode and the
//! breakpoints; the interface sees them when the thread publishes them, a few times a second
//! and at every stop, so a run that does not stop pays no lock per event. When the search must
//! stop, the solver thread waits on a condition variable; the cancel flag is polled while it
//! waits, so cancelling (or dropping the run) still ends a paused search. The timeline reads
//! the whole run back from the trace.
//!
//! ```no_run
//! use ricochet_lab::model::samples;
//! use ricochet_lab::worker::debug::{DebugSetup, RunMode};
//! use ricochet_lab::solver::SolverId;
//! use ricochet_lab::worker::{SolveJob, Waker};
//! use std::sync::Arc;
//!
//! let waker: Waker = Arc::new(|_delay| {});
//! let job = SolveJob::new(SolverId::Iddfs, samples::fogleman_22());
//! let (run, debug) = job.spawn_debug(waker, DebugSetup::default()).unwrap();
//! debug.wait_paused(std::time::Duration::from_secs(1));
//! debug.set_mode(RunMode::Steps(10));
//! ```

//!
//! The files: `stepping` (run modes, breakpoints, when to stop), `history` (the run read
//! back from its trace, and time travel through it), `gate` (the state shared with the
//! interface and its handle) and `probe` (the probe and the thread); [`compare`] records two
//! runs and compares their traces for the Compare runs window.

pub mod compare;
mod gate;
mod history;
mod probe;
mod stepping;

pub use gate::DebugHandle;
pub use history::{History, PictureStep, Recorded};
pub use stepping::{Breakpoints, RunMode, breakpoint_hit};
// The picture lives with the solvers, whose events draw it; the debugger's users find it here.
pub use crate::solver::picture::SearchPicture;

use crate::model::Move;
use crate::model::Puzzle;
use crate::solver::{DepthStats, PruneReason, RobotCells};

/// How a debugged run starts.
#[derive(Clone, Debug)]
pub struct DebugSetup {
    /// Pause on the first event.
    pub start_paused: bool,
    /// The breakpoints to start with.
    pub breakpoints: Breakpoints,
}

impl Default for DebugSetup {
    fn default() -> Self {
        DebugSetup {
            start_paused: true,
            breakpoints: Breakpoints::default(),
        }
    }
}

/// The node being examined and what the search knows about it: what the board and the panel
/// show at a stop. Small, so one is kept with every recorded event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DebugView {
    /// The number of events seen so far (this view follows event number `events - 1`).
    pub events: u64,
    /// The current depth, bound or level.
    pub iteration: Option<u32>,
    /// The depth of the node last examined.
    pub depth: u32,
    /// The robots' cells in the node last examined, in colour order.
    pub cells: Option<RobotCells>,
    /// The moves from the root to that node.
    pub path: Vec<Move>,
    /// Why the last node was cut off, when it was.
    pub last_prune: Option<PruneReason>,
    /// Nodes examined so far.
    pub nodes: u64,
    /// Nodes cut off so far.
    pub pruned: u64,
    /// The latest status a solver's own events gave, as a label and a text (the graph
    /// solvers' search of the goal robot alone, for one).
    pub solver_status: Option<(&'static str, String)>,
    /// The solution, once found.
    pub solution: Option<Vec<Move>>,
    /// The last finished depth's statistics.
    pub last_depth: Option<DepthStats>,
}

/// The live picture of a debugged search: everything the overlays and the panel draw.
#[derive(Clone, Debug, Default)]
pub struct DebugFrame {
    /// Whether the solver thread is waiting for the user.
    pub paused: bool,
    /// The run mode now.
    pub mode: Option<RunMode>,
    /// The view after the latest event.
    pub view: DebugView,
    /// Why the search stopped last ("breakpoint: depth 3"), if it stopped by itself.
    pub stop_reason: Option<String>,
    /// The overlays' picture after the latest event.
    pub picture: SearchPicture,
    /// How many events the trace holds now (every event of the run so far).
    pub recorded: u64,
}

/// The robots of a puzzle moved to a node's cells: what the board shows at a stop.
pub fn puzzle_at(puzzle: &Puzzle, cells: &RobotCells) -> Puzzle {
    if cells.as_slice().len() == puzzle.robots().len() {
        puzzle.with_robot_cells(cells.as_slice())
    } else {
        puzzle.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use crate::model::tiles;
    use crate::solver::Outcome;
    use crate::solver::{self, Event, Limits, SolverId};
    use crate::worker::{RunEnd, SolveJob, Waker};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    fn quiet_waker() -> Waker {
        Arc::new(|_| {})
    }

    fn small_puzzle() -> Puzzle {
        // An eight-move standard game that IDDFS solves in milliseconds.
        tiles::random_game(2, 4).unwrap().0
    }

    #[test]
    fn a_paused_run_lets_through_exactly_the_steps_asked_for() {
        let job = SolveJob::new(SolverId::Iddfs, small_puzzle());
        let (mut run, debug) = job
            .spawn_debug(quiet_waker(), DebugSetup::default())
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        assert_eq!(debug.view().events, 1);
        debug.set_mode(RunMode::Steps(5));
        // The thread may not have taken the steps yet: wait until it pauses again at 6.
        let deadline = Instant::now() + Duration::from_secs(10);
        while debug.view().events < 6 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(debug.wait_paused(Duration::from_secs(10)));
        assert_eq!(debug.view().events, 6);
        let latest = debug.latest_before(u64::MAX, 3);
        assert_eq!(
            latest.iter().map(|r| r.index).collect::<Vec<_>>(),
            vec![5, 4, 3]
        );
        // Read as a picture taken after event 3 shows it: up to there, however far the
        // search has gone since.
        let before = debug.latest_before(4, 3);
        assert_eq!(
            before.iter().map(|r| r.index).collect::<Vec<_>>(),
            vec![3, 2, 1]
        );
        assert!(debug.latest_before(0, 3).is_empty());
        assert!(!run.is_finished());
        run.cancel();
        let end = run.wait(Duration::from_secs(10)).expect("the run ends");
        assert!(matches!(end, RunEnd::Finished(r) if r.outcome == Outcome::Cancelled));
    }

    #[test]
    fn a_run_held_at_its_solution_counts_its_running_time_not_zero() {
        let (mut run, debug) = SolveJob::new(SolverId::Iddfs, small_puzzle())
            .spawn_debug(quiet_waker(), DebugSetup::default())
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        debug.set_mode(RunMode::ToSolution);
        let deadline = Instant::now() + Duration::from_secs(60);
        while debug.frame().view.solution.is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(debug.wait_paused(Duration::from_secs(10)));
        // Held at the solution for longer than the whole search ran: the hold is the user's
        // time, and only it is left out of the total.
        let held = run.elapsed();
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(run.elapsed(), held, "the clock stands still while paused");
        debug.set_mode(RunMode::Continue);
        let end = run.wait(Duration::from_secs(60)).cloned();
        let Some(RunEnd::Finished(report)) = end else {
            panic!("unexpected end {end:?}");
        };
        assert!(report.elapsed > Duration::ZERO);
        assert_eq!(run.elapsed(), report.elapsed);
        let rows: Vec<Duration> = run.rows().iter().map(|r| r.at).collect();
        assert_eq!(rows.len(), report.depths.len());
        assert!(rows.windows(2).all(|w| w[0] <= w[1]), "{rows:?}");
        assert!(
            rows.iter().all(|at| *at <= report.elapsed),
            "{rows:?} against {:?}",
            report.elapsed
        );
    }

    #[test]
    fn run_to_solution_ends_with_the_same_answer_as_a_plain_run() {
        let puzzle = small_puzzle();
        let (mut run, debug) = SolveJob::new(SolverId::Iddfs, puzzle.clone())
            .spawn_debug(quiet_waker(), DebugSetup::default())
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        debug.set_mode(RunMode::ToSolution);
        // The search stops on the solution, so that it can be looked at, and ends when let go.
        let deadline = Instant::now() + Duration::from_secs(60);
        while debug.frame().view.solution.is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(debug.wait_paused(Duration::from_secs(10)));
        assert_eq!(
            debug.frame().stop_reason.as_deref(),
            Some("a solution was found")
        );
        debug.set_mode(RunMode::Continue);
        let end = run.wait(Duration::from_secs(60)).cloned();
        let Some(RunEnd::Finished(report)) = end else {
            panic!("unexpected end {end:?}");
        };
        let plain = solver::run(
            "iddfs",
            &puzzle,
            &solver::SolverOptions::default(),
            &Limits::default(),
            &mut solver::NoProbe,
        )
        .unwrap();
        assert_eq!(report.outcome, plain.outcome);
        assert_eq!(report.nodes, plain.nodes);
        let frame = debug.frame();
        assert!(frame.view.solution.is_some());
        // Every event of the run is recorded, up to the last.
        assert_eq!(frame.recorded, frame.view.events);
        assert_eq!(debug.recorded_events(), frame.view.events);
        assert!(frame.picture.heat.iter().sum::<u32>() > 0);
    }

    #[test]
    fn depth_breakpoint_stops_on_the_first_node_of_that_depth_with_its_path() {
        let setup = DebugSetup {
            start_paused: false,
            breakpoints: Breakpoints {
                depth: Some(3),
                ..Breakpoints::default()
            },
        };
        let (mut run, debug) = SolveJob::new(SolverId::Iddfs, small_puzzle())
            .spawn_debug(quiet_waker(), setup)
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        let frame = debug.frame();
        assert_eq!(frame.view.depth, 3);
        assert_eq!(frame.view.path.len(), 3);
        assert_eq!(frame.stop_reason.as_deref(), Some("breakpoint: depth 3"));
        // The path slides the robots to the cells the node reports.
        let puzzle = small_puzzle();
        let tables = crate::model::MoveTables::new(puzzle.board());
        let mut cells = puzzle.robot_cells();
        for mv in &frame.view.path {
            let robot = puzzle.robot_index(mv.robot).unwrap();
            cells[robot] = tables.slide(&cells, robot, mv.dir);
        }
        assert_eq!(cells, frame.view.cells.unwrap().as_slice());
        run.cancel();
        assert!(run.wait(Duration::from_secs(10)).is_some());
    }

    #[test]
    fn step_depth_stops_at_the_end_of_an_iteration() {
        let (mut run, debug) = SolveJob::new(SolverId::Iddfs, small_puzzle())
            .spawn_debug(quiet_waker(), DebugSetup::default())
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        debug.set_mode(RunMode::StepDepth);
        let deadline = Instant::now() + Duration::from_secs(10);
        while debug.frame().view.last_depth.is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(debug.wait_paused(Duration::from_secs(10)));
        let latest = debug.latest_before(u64::MAX, 1);
        assert!(matches!(latest[0].event, Event::IterationFinished(_)));
        run.cancel();
        assert!(run.wait(Duration::from_secs(10)).is_some());
    }

    #[test]
    fn the_whole_run_is_kept_and_read_back_from_its_trace() {
        let setup = DebugSetup {
            start_paused: false,
            ..DebugSetup::default()
        };
        let (mut run, debug) = SolveJob::new(SolverId::Bfs, samples::fogleman_22())
            .spawn_debug(quiet_waker(), setup)
            .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        run.cancel();
        assert!(run.wait(Duration::from_secs(10)).is_some());
        let frame = debug.frame();
        let last = frame.view.events - 1;
        assert!(last > 20_000, "only {last} events in 300 ms");
        assert_eq!(debug.recorded_events(), frame.view.events);
        // The first event is kept as well as the last.
        assert!(matches!(
            debug.recorded(0).map(|r| r.event),
            Some(Event::IterationStarted { .. })
        ));
        assert_eq!(debug.recorded(last).unwrap().view, frame.view);
        assert!(debug.recorded(last + 1).is_none());
        // The log around an event holds it, half newer events, and stays inside the run.
        let middle = last / 2;
        let around: Vec<u64> = debug.around(middle, 10).iter().map(|r| r.index).collect();
        assert_eq!(around, (middle - 4..=middle + 5).rev().collect::<Vec<_>>());
        let oldest: Vec<u64> = debug.around(0, 10).iter().map(|r| r.index).collect();
        assert_eq!(oldest, (0..10).rev().collect::<Vec<_>>());
        let newest: Vec<u64> = debug.around(last, 10).iter().map(|r| r.index).collect();
        assert_eq!(newest.first(), Some(&last));
        assert_eq!(newest.len(), 10);
        // The view read back from the trace is the view the run had: counts add up.
        let at = debug.recorded(middle).unwrap().view;
        assert_eq!(at.events, middle + 1);
        assert!(at.nodes + at.pruned <= at.events);
    }

    #[test]
    fn the_picture_at_a_recorded_event_is_the_picture_shown_then() {
        // The same solvers run twice: recorded by a plain probe, from which the picture after
        // every event is built from scratch, and debugged with a short log, whose rebuilt
        // pictures must match them once the oldest events have left the log.
        let puzzle = small_puzzle();
        for solver in [SolverId::GraphV2, SolverId::Stateless, SolverId::Bfs] {
            let solver_name = solver.name();
            let mut recording = crate::solver::RecordingProbe::default();
            solver::run(
                solver_name,
                &puzzle,
                &crate::solver::SolverOptions::default(),
                &Limits::default(),
                &mut recording,
            )
            .unwrap();
            let setup = DebugSetup {
                start_paused: false,
                ..DebugSetup::default()
            };
            let (mut run, debug) = SolveJob::new(solver, puzzle.clone())
                .spawn_debug(quiet_waker(), setup)
                .unwrap();
            assert!(run.wait(Duration::from_secs(30)).is_some());
            let frame = debug.frame();
            let total = recording.events.len() as u64;
            assert_eq!(frame.view.events, total, "{solver_name}");
            let mut expected =
                SearchPicture::new(puzzle.board().cell_count(), puzzle.active_robot());
            for (index, event) in recording.events.iter().enumerate() {
                event.draw(&mut expected);
                let index = index as u64;
                // Every picture costs a replay from the block's start: a sample of them.
                if index.is_multiple_of(389) || index + 3 >= total {
                    let rebuilt = debug.picture_at(index).unwrap();
                    assert_eq!(rebuilt, expected, "{solver_name}: event {index}");
                }
            }
            assert_eq!(frame.picture, expected, "{solver_name}: the live picture");
            assert!(debug.picture_at(total).is_none());
        }
    }

    #[test]
    fn a_stepped_search_publishes_its_node_count_at_every_stop() {
        let (mut run, debug) = SolveJob::new(SolverId::Iddfs, small_puzzle())
            .spawn_debug(quiet_waker(), DebugSetup::default())
            .unwrap();
        assert!(debug.wait_paused(Duration::from_secs(10)));
        debug.set_mode(RunMode::Steps(40));
        let deadline = Instant::now() + Duration::from_secs(10);
        while debug.view().events < 41 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(debug.wait_paused(Duration::from_secs(10)));
        let nodes = debug.view().nodes;
        assert!(nodes > 0);
        assert_eq!(run.live().nodes(), nodes);
        run.cancel();
        assert!(run.wait(Duration::from_secs(10)).is_some());
    }
}
