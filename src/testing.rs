//! The helpers the tests share, unit and integration alike: shipped boards, small hand-made
//! puzzles, and solver runs with limits, cancellation and recording. Built for the crate's own
//! tests and, behind the `testing` feature, for the integration tests in `tests/`; never part of
//! the app. Failing to load a shipped board is a broken test setup, so the helpers unwrap.

use crate::model::formats::load_source;
use crate::model::{
    Board, Goal, Pos, Puzzle, Robot, RobotColor, Rules, Shape, Target, TargetColor,
};
use crate::solver::{
    self, Limits, NoProbe, Outcome, Probe, RecordingProbe, Report, SolverOptions, SolverRef,
};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The path of a shipped board in `boards/`, as the loaders take it.
pub fn board_path(name: &str) -> String {
    format!("{}/boards/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The shipped boards' files (`boards/*.ron`), sorted; the folders beside them (the puzzle
/// suites) are left out.
pub fn shipped_board_paths() -> Vec<std::path::PathBuf> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/boards");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_file())
        .collect();
    paths.sort();
    paths
}

/// A shipped board from `boards/`, loaded.
pub fn board(name: &str) -> Puzzle {
    load_source(&board_path(name)).unwrap()
}

/// The report's 6x6 three-robot game (optimum 5).
pub fn small() -> Puzzle {
    board("small-6x6.ron")
}

/// A standard board with five robots (optimum 9).
pub fn five_robots() -> Puzzle {
    board("five-robots.ron")
}

/// The small board with its target made a vortex: any robot may take it.
pub fn small_vortex() -> Puzzle {
    let puzzle = small();
    let goal = Goal {
        pos: puzzle.goal().pos,
        color: TargetColor::Any,
    };
    Puzzle::new(
        puzzle.board().clone(),
        puzzle.robots().to_vec(),
        goal,
        Rules::default(),
    )
    .unwrap()
}

/// A 3x1 corridor: red at the west end, the red target at the east end, and green (when
/// `blocked`) in between, where it can never get out of red's way.
pub fn corridor(blocked: bool, rules: Rules) -> Puzzle {
    let mut board = Board::new(3, 1).unwrap();
    board
        .set_target(Target {
            pos: Pos::new(2, 0),
            color: TargetColor::Red,
            shape: Shape::Circle,
        })
        .unwrap();
    let mut robots = vec![Robot {
        color: RobotColor::Red,
        pos: Pos::new(0, 0),
    }];
    if blocked {
        robots.push(Robot {
            color: RobotColor::Green,
            pos: Pos::new(1, 0),
        });
    }
    let goal = Goal {
        pos: Pos::new(2, 0),
        color: TargetColor::Red,
    };
    Puzzle::new(board, robots, goal, rules).unwrap()
}

/// Red and green on an empty `width` x `height` board, the red target at `goal` (no target
/// tile is drawn there).
pub fn red_and_green(width: u16, height: u16, red: Pos, green: Pos, goal: Pos) -> Puzzle {
    let board = Board::new(width, height).unwrap();
    let robots = vec![
        Robot {
            color: RobotColor::Red,
            pos: red,
        },
        Robot {
            color: RobotColor::Green,
            pos: green,
        },
    ];
    let goal = Goal {
        pos: goal,
        color: TargetColor::Red,
    };
    Puzzle::new(board, robots, goal, Rules::default()).unwrap()
}

/// The default options with a depth limit (`None`: the solver's default).
pub fn depth_limited(depth_limit: Option<u32>) -> SolverOptions {
    SolverOptions {
        depth_limit,
        ..SolverOptions::default()
    }
}

/// Runs a solver without limits.
pub fn run(solver: impl SolverRef, puzzle: &Puzzle, depth_limit: Option<u32>) -> Report {
    let options = depth_limited(depth_limit);
    report_with(solver, puzzle, &options, &Limits::default(), &mut NoProbe)
}

/// Runs a solver without limits, recording every event and depth row.
pub fn recorded(
    solver: impl SolverRef,
    puzzle: &Puzzle,
    depth_limit: Option<u32>,
) -> (Report, RecordingProbe) {
    let mut probe = RecordingProbe::default();
    let options = depth_limited(depth_limit);
    let report = report_with(solver, puzzle, &options, &Limits::default(), &mut probe);
    (report, probe)
}

/// Runs a solver with `limit` bytes for its tables on a puzzle that needs more, and checks
/// that it stops at the memory limit holding no more than the limit (growth that would pass
/// it is refused, not made). Returns the report for further checks.
pub fn run_to_memory_limit(
    name: &str,
    puzzle: &Puzzle,
    depth_limit: Option<u32>,
    limit: usize,
) -> Report {
    let limits = Limits {
        memory_bytes: Some(limit),
        // Generous: a search that ignored the memory limit would run for much longer.
        time: Some(std::time::Duration::from_secs(20)),
        cancel: None,
    };
    let options = depth_limited(depth_limit);
    let report = report_with(name, puzzle, &options, &limits, &mut NoProbe);
    assert_eq!(report.outcome, Outcome::MemoryLimit, "{name}");
    assert!(
        report.peak_memory <= limit,
        "{name}: {}",
        report.peak_memory
    );
    report
}

/// Checks that an optimal solver finds the optimum of the small board (5), of the
/// five-robot board (9) and of the small board's vortex (BFS's).
pub fn assert_optimal_on_the_small_boards(name: &str) {
    assert_eq!(moves(&run(name, &small(), None)), 5);
    assert_eq!(moves(&run(name, &five_robots(), None)), 9);
    let vortex = small_vortex();
    assert_eq!(
        moves(&run(name, &vortex, None)),
        moves(&run("bfs", &vortex, None))
    );
}

/// The number of moves of a solved run; panics on any other outcome.
pub fn moves(report: &Report) -> usize {
    match &report.outcome {
        Outcome::Solved { moves } => moves.len(),
        other => panic!("{}: {other:?}", report.solver),
    }
}

/// Runs a solver with `options` and `limits`, reporting to `probe`. Panics when the solver
/// cannot take the puzzle.
pub fn report_with<P: Probe>(
    solver: impl SolverRef,
    puzzle: &Puzzle,
    options: &SolverOptions,
    limits: &Limits,
    probe: &mut P,
) -> Report {
    solver::run(solver, puzzle, options, limits, probe).unwrap()
}

/// Runs a solver with default options within `limits`.
pub fn report_within(solver: impl SolverRef, puzzle: &Puzzle, limits: &Limits) -> Report {
    report_with(
        solver,
        puzzle,
        &SolverOptions::default(),
        limits,
        &mut NoProbe,
    )
}

/// Runs a solver with default options and a cancel flag that another thread sets after
/// `delay`.
pub fn report_cancelled_after(solver: impl SolverRef, puzzle: &Puzzle, delay: Duration) -> Report {
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(delay);
        flag.store(true, Ordering::Relaxed);
    });
    let limits = Limits {
        cancel: Some(cancel),
        ..Limits::default()
    };
    let report = report_within(solver, puzzle, &limits);
    canceller.join().unwrap();
    report
}

/// The optimal move count `solver` finds, with no limits, for a puzzle source (a path or a
/// game id). Panics when it does not solve the puzzle.
pub fn optimum(solver: impl SolverRef, source: &str) -> usize {
    moves(&report_within(
        solver,
        &load_source(source).unwrap(),
        &Limits::default(),
    ))
}

/// Runs a solver with `options`, `time` and 1 GiB of tables, and returns how it ended.
pub fn solve_with(
    solver: impl SolverRef,
    puzzle: &Puzzle,
    options: &SolverOptions,
    time: Duration,
) -> Outcome {
    let limits = Limits {
        time: Some(time),
        memory_bytes: Some(1 << 30),
        cancel: None,
    };
    report_with(solver, puzzle, options, &limits, &mut NoProbe).outcome
}

/// Runs a solver with default options, `seconds` of time and 1 GiB of tables, and returns how
/// it ended. Panics when the solver cannot take the puzzle.
pub fn solve_within(solver: impl SolverRef, puzzle: &Puzzle, seconds: u64) -> Outcome {
    solve_with(
        solver,
        puzzle,
        &SolverOptions::default(),
        Duration::from_secs(seconds),
    )
}

/// [`solve_within`] with 20 seconds, far more than any test puzzle needs.
pub fn solve(solver: impl SolverRef, puzzle: &Puzzle) -> Outcome {
    solve_within(solver, puzzle, 20)
}
