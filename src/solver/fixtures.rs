//! Test fixtures the solvers' unit tests share: shipped boards, small hand-made puzzles and
//! run helpers.

use crate::model::formats::load_source;
use crate::model::{
    Board, Goal, Pos, Puzzle, Robot, RobotColor, Rules, Shape, Target, TargetColor,
};
use crate::solver::{self, Limits, NoProbe, Outcome, Probe, RecordingProbe, Report, SolverOptions};

/// A shipped board from `boards/`.
pub fn board(name: &str) -> Puzzle {
    load_source(&format!("{}/boards/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
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

/// Runs a solver with a depth limit (`None`: its default) within `limits`, reporting to
/// `probe`.
pub fn run_probed<P: Probe>(
    name: &str,
    puzzle: &Puzzle,
    depth_limit: Option<u32>,
    limits: &Limits,
    probe: &mut P,
) -> Report {
    let options = SolverOptions {
        depth_limit,
        ..SolverOptions::default()
    };
    solver::run(name, puzzle, &options, limits, probe).unwrap()
}

/// Runs a solver without limits.
pub fn run(name: &str, puzzle: &Puzzle, depth_limit: Option<u32>) -> Report {
    run_probed(name, puzzle, depth_limit, &Limits::default(), &mut NoProbe)
}

/// Runs a solver with its default options within `limits`.
pub fn run_within(name: &str, puzzle: &Puzzle, limits: &Limits) -> Report {
    run_probed(name, puzzle, None, limits, &mut NoProbe)
}

/// Runs a solver without limits, recording every event and depth row.
pub fn recorded(name: &str, puzzle: &Puzzle, depth_limit: Option<u32>) -> (Report, RecordingProbe) {
    let mut probe = RecordingProbe::default();
    let report = run_probed(name, puzzle, depth_limit, &Limits::default(), &mut probe);
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
    let report = run_probed(name, puzzle, depth_limit, &limits, &mut NoProbe);
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
