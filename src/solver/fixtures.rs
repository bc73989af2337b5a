//! Test fixtures the solvers' unit tests share: shipped boards, small hand-made puzzles and
//! run helpers.

use crate::model::formats::load_source;
use crate::model::{
    Board, Goal, Pos, Puzzle, Robot, RobotColor, Rules, Shape, Target, TargetColor,
};
use crate::solver::{self, Limits, NoProbe, Outcome, Report, SolverOptions};

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

/// Runs a solver without limits.
pub fn run(name: &str, puzzle: &Puzzle, depth_limit: Option<u32>) -> Report {
    solver::run(
        name,
        puzzle,
        &SolverOptions {
            depth_limit,
            ..SolverOptions::default()
        },
        &Limits::default(),
        &mut NoProbe,
    )
    .unwrap()
}

/// The number of moves of a solved run; panics on any other outcome.
pub fn moves(report: &Report) -> usize {
    match &report.outcome {
        Outcome::Solved { moves } => moves.len(),
        other => panic!("{}: {other:?}", report.solver),
    }
}
