//! The solver panel driven by its accessible labels: a fast solve on a small puzzle shows its
//! solution and per-depth rows; a long solve shows rows as they come and stops on Cancel;
//! editing the board cancels a running solve. One test renders the app through wgpu (software
//! rendering when there is no GPU) and checks pixels on the board.

use crate::common::{app_harness, choose_solver, finished, import, start_long_solve, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::model::formats::game_id;
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::solver::{self, Outcome};
use ricochet_lab::study::format::format_time;
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
        assert_eq!(summary.solver.name(), name);
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
    // The run belongs to the board before the edit: it is no longer this board's run, and the
    // Run tab says what became of it.
    assert!(harness.state().run_summary().is_none());
    harness.run_steps(2);
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

#[test]
fn row_times_and_the_total_are_read_from_one_clock_and_shown_so() {
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    import(&mut harness, &game_id::write(&puzzle).unwrap());
    for name in ["stateless", "fast", "iddfs", "bfs"] {
        choose_solver(&mut harness, name);
        harness.get_by_label("Solve").click();
        harness.step();
        step_until(&mut harness, Duration::from_secs(60), finished);
        let summary = harness.state().run_summary().unwrap();
        let total = summary.total.expect("the run ended");
        assert_eq!(summary.row_times.len(), summary.rows.len(), "{name}");
        assert!(!summary.row_times.is_empty(), "{name}");
        assert!(
            summary.row_times.windows(2).all(|w| w[0] <= w[1]),
            "{name}: {:?}",
            summary.row_times
        );
        assert!(
            summary.row_times.iter().all(|at| *at <= total),
            "{name}: rows {:?} after the total {total:?}",
            summary.row_times
        );
        // The figures on screen are these: the total beside the solver's name, and the last
        // row's time in the table.
        let title = solver::kind(name).unwrap().title;
        assert!(
            harness
                .query_all_by_label_contains(&format!("{title} in {}", format_time(total)))
                .next()
                .is_some(),
            "{name}: the total {} is shown",
            format_time(total)
        );
        let last = format_time(*summary.row_times.last().unwrap());
        assert!(
            harness.query_all_by_label(&last).next().is_some(),
            "{name}: the last row's time {last} is shown"
        );
    }
}

#[test]
fn a_debugged_run_held_at_its_solution_reports_its_running_time() {
    let (puzzle, _) = random_game(2, 4).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |state| {
        state.solver.solver = solver::SolverId::Iddfs.into();
    });
    harness.get_by_label("Debug mode").click();
    harness.run();
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        crate::common::paused_at(app, 1)
    });
    // F8 runs to the solution, where the search waits; it is held there for longer than the
    // whole search takes, then F5 lets it end.
    harness.key_press(egui::Key::F8);
    step_until(&mut harness, Duration::from_secs(60), |app| {
        app.debugger().is_some_and(|d| {
            d.is_paused() && d.frame().view.solution.is_some() && d.frame().stop_reason.is_some()
        })
    });
    std::thread::sleep(Duration::from_millis(300));
    harness.key_press(egui::Key::F5);
    step_until(&mut harness, Duration::from_secs(60), finished);
    harness.get_by_label("Run").click();
    harness.run_steps(2);
    let summary = harness.state().run_summary().unwrap();
    assert!(matches!(summary.outcome, Some(Outcome::Solved { .. })));
    let total = summary.total.unwrap();
    assert!(total > Duration::ZERO);
    assert!(
        summary.row_times.iter().all(|at| *at <= total),
        "rows {:?} after the total {total:?}",
        summary.row_times
    );
    assert!(
        harness
            .query_all_by_label_contains(&format!("IDDFS (Fogleman) in {}", format_time(total)))
            .next()
            .is_some()
    );
    assert!(
        harness
            .query_all_by_label_contains("in 0 µs")
            .next()
            .is_none(),
        "a debugged run is not reported as taking no time"
    );
    // Its time includes the stepping, so the plot of solve times leaves it out.
    assert_eq!(harness.state().plotted_solves(), 0);
    // A debugged run counts where its nodes went as a plain run does, and the Run tab
    // charts it.
    profile_that_adds_up(&harness);
    assert!(harness.query_by_label("Nodes per first moves").is_some());
}

/// The finished run's node profile, checked to count every node but the roots (one per row
/// at most) under its first move.
fn profile_that_adds_up(
    harness: &Harness<'_, RicochetApp>,
) -> Vec<ricochet_lab::solver::profile::ProfileEntry> {
    let summary = harness.state().run_summary().unwrap();
    let entries = harness
        .state()
        .run_profile()
        .expect("the run counted a profile")
        .to_vec();
    let first_moves: u64 = entries
        .iter()
        .filter(|e| e.prefix.len() == 1)
        .map(|e| e.nodes)
        .sum();
    let nodes: u64 = summary.rows.iter().map(|r| r.nodes).sum();
    assert!(
        (1..=summary.rows.len() as u64).contains(&(nodes - first_moves)),
        "{first_moves} of {nodes}"
    );
    entries
}

#[test]
fn the_run_tab_charts_the_prefixes_hovers_and_shows_one_on_the_board() {
    use crate::common::{app_harness, import};
    use egui_kittest::kittest::Queryable;
    use ricochet_lab::app::run::icicle::block_label;

    let mut harness = app_harness();
    let (puzzle, _) = ricochet_lab::model::tiles::random_game(2, 4).unwrap();
    import(
        &mut harness,
        &ricochet_lab::model::formats::game_id::write(&puzzle).unwrap(),
    );
    crate::common::solve_with(&mut harness, "iddfs");
    harness.run_steps(4);
    let entries = profile_that_adds_up(&harness);
    // The largest first move and its largest second move are on screen by their labels.
    let biggest = |length: usize| {
        entries
            .iter()
            .filter(|e| e.prefix.len() == length)
            .max_by_key(|e| e.nodes)
            .unwrap()
            .prefix
            .clone()
    };
    let (first, second) = (biggest(1), biggest(2));
    assert!(harness.query_by_label("Nodes per first moves").is_some());
    harness.get_by_label(&block_label(&first)).hover();
    harness.run_steps(60);
    let count = entries.iter().find(|e| e.prefix == first).unwrap().nodes;
    let named = format!(
        "{}: {} nodes",
        ricochet_lab::model::format_moves(&first),
        ricochet_lab::app::widgets::format_count(count)
    );
    assert!(harness.query_by_label_contains(&named).is_some(), "{named}");
    harness.get_by_label(&block_label(&second)).click();
    harness.run_steps(2);
    let playback = harness.state().playback().expect("the prefix is shown");
    assert_eq!(playback.moves(), &second[..]);
    assert_eq!(playback.step(), second.len());
    // An edit drops the run, and its chart with it.
    harness.get_by_label("Clear robots").click();
    harness.step();
    harness.run_steps(2);
    assert!(harness.state().run_profile().is_none());
    assert!(harness.query_by_label(&block_label(&first)).is_none());
}
