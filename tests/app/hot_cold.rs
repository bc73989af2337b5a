//! Hot/cold play in the real app: after each move the play panel says whether the player is on
//! an optimal path and how many moves were lost (moves made + fewest moves still needed − the
//! optimum), worked out in the background; the View menu's setting hides it.

use crate::common::{click_menu_item, step_until};
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::HotCold;
use ricochet_lab::app::document::mode::Mode;
use ricochet_lab::model::formats::game_id;
use ricochet_lab::model::{Direction, Move, MoveTables, Puzzle, RobotColor};
use ricochet_lab::solver::{self, Limits, NoProbe, Outcome, SolverOptions};
use std::time::Duration;

/// A standard game whose optimum is three moves.
const GAME: &str = "EF81+40+09AF0E2D+1A";

/// An optimal solution of a puzzle, as the fast solver finds it (`None`: none).
fn solve(puzzle: &Puzzle) -> Option<Vec<Move>> {
    let options = SolverOptions::default();
    let report = solver::run("fast", puzzle, &options, &Limits::default(), &mut NoProbe).unwrap();
    match report.outcome {
        Outcome::Solved { moves } => Some(moves),
        _ => None,
    }
}

/// The position after a move, when the move changes it.
fn after(puzzle: &Puzzle, mv: Move) -> Option<Puzzle> {
    let index = puzzle.robot_index(mv.robot)?;
    let mut cells = puzzle.robot_cells();
    let to = MoveTables::new(puzzle.board()).slide(&cells, index, mv.dir);
    (to != cells[index]).then(|| {
        cells[index] = to;
        puzzle.with_robot_cells(&cells)
    })
}

fn play_move(
    harness: &mut egui_kittest::Harness<'static, ricochet_lab::app::RicochetApp>,
    mv: Move,
) {
    let robot = match mv.robot {
        RobotColor::Red => egui::Key::R,
        RobotColor::Green => egui::Key::G,
        RobotColor::Blue => egui::Key::B,
        RobotColor::Yellow => egui::Key::Y,
        _ => egui::Key::K,
    };
    let arrow = match mv.dir {
        Direction::North => egui::Key::ArrowUp,
        Direction::East => egui::Key::ArrowRight,
        Direction::South => egui::Key::ArrowDown,
        Direction::West => egui::Key::ArrowLeft,
    };
    harness.key_press(robot);
    harness.key_press(arrow);
    harness.run();
}

fn answered(app: &ricochet_lab::app::RicochetApp) -> bool {
    !matches!(app.hot_cold(), Some(HotCold::Working) | None)
}

#[test]
fn each_move_says_whether_it_kept_to_an_optimal_path() {
    let puzzle = game_id::parse(GAME).unwrap();
    let optimal = solve(&puzzle).unwrap();
    assert_eq!(optimal.len(), 3);
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |_| {});
    harness.key_press(egui::Key::P);
    harness.run();
    assert_eq!(harness.state().mode(), Mode::Play);
    assert_eq!(harness.state().hot_cold(), Some(HotCold::NoMove));

    play_move(&mut harness, optimal[0]);
    step_until(&mut harness, Duration::from_secs(60), answered);
    let status = harness.state().hot_cold().unwrap();
    assert_eq!(
        status,
        HotCold::Known {
            lost: 0,
            to_go: 2,
            made: 1
        }
    );
    harness.get_by_label(&status.line());

    // A move that loses: found by solving every move's result here.
    let here = after(&puzzle, optimal[0]).unwrap();
    let (losing, left) = RobotColor::ALL
        .into_iter()
        .filter(|color| here.robot_index(*color).is_some())
        .flat_map(|robot| {
            Direction::ALL
                .into_iter()
                .map(move |dir| Move { robot, dir })
        })
        .filter_map(|mv| {
            let next = after(&here, mv)?;
            let left = solve(&next).map(|moves| moves.len());
            Some((mv, left))
        })
        .find(|(_, left)| left.is_none_or(|left| left + 2 > 3))
        .expect("some move loses");
    play_move(&mut harness, losing);
    step_until(&mut harness, Duration::from_secs(60), answered);
    let expected = match left {
        Some(to_go) => HotCold::Known {
            lost: 2 + to_go - 3,
            to_go,
            made: 2,
        },
        None => HotCold::Stuck,
    };
    assert_eq!(harness.state().hot_cold(), Some(expected.clone()));
    harness.get_by_label(&expected.line());

    // Undo answers from what was solved already.
    harness.get_by_label("Undo move").click();
    harness.run();
    assert_eq!(harness.state().hot_cold(), Some(status));

    click_menu_item(&mut harness, "View", "Hot/cold in play");
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert_eq!(harness.state().hot_cold(), None);
    assert!(harness.query_by_label(&expected.line()).is_none());
}

// The board's finished optimal solve is not solved again: after its first move the panel
// answers at once, in the frames the move itself takes, where a solve of the deck's 22-move
// puzzle would take a second or more.
#[test]
fn the_boards_optimal_solve_answers_along_its_line_without_a_solve() {
    let puzzle = ricochet_lab::model::samples::fogleman_22();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |_| {});
    crate::common::solve_with(&mut harness, "fast");
    let solution = harness
        .state()
        .playback()
        .expect("the solution shown")
        .moves()
        .to_vec();
    assert_eq!(solution.len(), 22);
    harness.key_press(egui::Key::P);
    harness.run();
    assert_eq!(harness.state().mode(), Mode::Play);
    for (made, &mv) in solution.iter().take(3).enumerate() {
        play_move(&mut harness, mv);
        assert_eq!(
            harness.state().hot_cold(),
            Some(HotCold::Known {
                lost: 0,
                to_go: 21 - made,
                made: made + 1
            }),
            "after move {}",
            made + 1
        );
    }
}
