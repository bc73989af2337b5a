//! The solver panel driven by its accessible labels: a fast solve on a small puzzle shows its
//! solution and per-depth rows; a long solve shows rows as they come and stops on Cancel;
//! editing the board cancels a running solve. One test renders the app through wgpu (software
//! rendering when there is no GPU) and checks pixels on the board.

mod common;

use common::{app_harness, choose_solver, finished, import, start_long_solve, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::model::formats::game_id;
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::solver::{self, Outcome};
use std::time::Duration;

#[test]
fn a_fast_solve_shows_the_solution_and_its_per_depth_rows() {
    let mut harness = app_harness();
    // An eight-move standard game.
    let (puzzle, _) = random_game(2, 4).unwrap();
    import(&mut harness, &game_id::write(&puzzle).unwrap());
    for name in ["bfs", "iddfs"] {
        choose_solver(&mut harness, name);
        harness.get_by_label("Solve").click();
        harness.step();
        step_until(&mut harness, Duration::from_secs(60), finished);
        let summary = harness.state().run_summary().unwrap();
        assert_eq!(summary.solver, name);
        let Some(Outcome::Solved { moves }) = &summary.outcome else {
            panic!("{name}: unexpected outcome {:?}", summary.outcome);
        };
        assert_eq!(moves.len(), 8, "{name} finds the optimum");
        assert!(!summary.rows.is_empty());
        // The rows are on screen, and so is the solution in deck notation.
        let kind = solver::kind(name).unwrap();
        assert!(harness.query_by_label(kind.columns.depth).is_some());
        let last = summary.rows.last().unwrap();
        assert!(harness.query_by_label(&last.depth.to_string()).is_some());
        assert!(
            harness
                .query_by_label_contains("Solved in 8 moves")
                .is_some()
        );
        let notation = ricochet_lab::model::format_moves(moves);
        assert!(
            harness.query_by_label(&notation).is_some(),
            "{notation} is shown"
        );
        // The solution plays back on the board.
        assert_eq!(harness.state().playback().unwrap().moves(), &moves[..]);
        harness.get_by_label("End").click();
        harness.step();
        assert_eq!(harness.state().playback().unwrap().step(), 8);
    }
    assert_eq!(harness.state().plotted_solves(), 2);
}

#[test]
fn cancel_stops_a_long_solve_and_keeps_its_rows() {
    let mut harness = app_harness();
    // Rows arrive while it runs.
    start_long_solve(&mut harness, 8);
    assert!(harness.query_by_label("Depth").is_some());
    harness.get_by_label("Cancel").click();
    harness.step();
    step_until(&mut harness, Duration::from_secs(30), finished);
    let summary = harness.state().run_summary().unwrap();
    assert_eq!(summary.outcome, Some(Outcome::Cancelled));
    assert!(summary.rows.len() >= 8, "the rows so far stay in the table");
    let latency = summary.cancel_latency.expect("a cancel was asked for");
    println!("the solver stopped {latency:?} after Cancel");
    assert!(
        harness
            .query_by_label_contains("Cancelled by you")
            .is_some()
    );
    assert!(harness.state().playback().is_none());
}

#[test]
fn editing_the_board_cancels_a_running_solve() {
    let mut harness = app_harness();
    start_long_solve(&mut harness, 1);
    harness.get_by_label("Clear robots").click();
    harness.step();
    step_until(&mut harness, Duration::from_secs(30), finished);
    let summary = harness.state().run_summary().unwrap();
    assert_eq!(summary.outcome, Some(Outcome::Cancelled));
    assert!(
        harness
            .query_by_label_contains("Cancelled because the board was edited")
            .is_some()
    );
}

#[test]
fn the_app_renders_its_board_without_a_gpu() {
    let mut harness = Harness::builder()
        .with_size([1360.0, 900.0])
        .wgpu()
        .build_eframe(|cc| RicochetApp::new(cc));
    harness.run();
    let board = harness.get_by_label("Board").rect();
    let image = harness
        .render()
        .expect("the software renderer draws the app");
    let cell = board.width() / 16.0;
    let pixel = |x: f32, y: f32| {
        let p = board.min + egui::vec2(x * cell, y * cell);
        let [r, g, b, _] = image.get_pixel(p.x as u32, p.y as u32).0;
        (r, g, b)
    };
    // The deck's puzzle: the red robot at (12, 1) (sampled above its white letter), the
    // closed centre at (7, 7).
    let (r, g, b) = pixel(12.5, 1.22);
    assert!(
        r > 150 && g < 100 && b < 100,
        "red robot, got {:?}",
        (r, g, b)
    );
    let (r, g, b) = pixel(7.5, 7.5);
    assert!(
        r < 120 && g < 120 && b < 120,
        "closed centre is dark, got {:?}",
        (r, g, b)
    );
    // The harness draws the dark look: an empty cell has the dark board colours.
    let palette = ricochet_lab::app::theme::palette(true);
    let cells = [palette.board, palette.board_alt].map(|c| (c.r(), c.g(), c.b()));
    let empty = pixel(0.5, 8.5);
    assert!(cells.contains(&empty), "an empty cell, got {empty:?}");
}
