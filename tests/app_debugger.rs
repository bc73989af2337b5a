//! The debugger driven by its accessible labels: a small IDDFS search started paused is
//! stepped forward event by event, stepped back through the recording (each step back shows
//! exactly what was shown at that event), forward again, to the end of a depth, to its
//! solution, and cancelled while paused. The graph overlay's check compares the editor's
//! updated slide graph with a fresh build after a robot moves.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::model::formats::game_id;
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::model::{MoveTables, Puzzle};
use ricochet_lab::solver::Outcome;
use ricochet_lab::worker::debug::DebugView;
use std::time::{Duration, Instant};

fn app_harness() -> Harness<'static, RicochetApp> {
    let mut harness = Harness::builder()
        .with_size([1360.0, 900.0])
        .build_eframe(|cc| RicochetApp::new(cc));
    harness.run();
    harness
}

fn import(harness: &mut Harness<'_, RicochetApp>, id: &str) {
    harness.get_by_label("File").click();
    harness.run();
    harness
        .get_by_label("Import game id or Cox text...")
        .click();
    harness.run();
    harness
        .get_by_role(egui::accesskit::Role::MultilineTextInput)
        .click();
    harness.run();
    harness
        .get_by_role(egui::accesskit::Role::MultilineTextInput)
        .type_text(id);
    harness.run();
    harness.get_by_label("Import").click();
    harness.run();
}

/// Steps frames until `done` (the solver thread runs on its own).
fn step_until(
    harness: &mut Harness<'_, RicochetApp>,
    timeout: Duration,
    done: impl Fn(&RicochetApp) -> bool,
) {
    let start = Instant::now();
    loop {
        harness.step();
        if done(harness.state()) {
            break;
        }
        assert!(start.elapsed() < timeout, "gave up after {timeout:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
    harness.step();
}

fn shown(harness: &Harness<'_, RicochetApp>) -> DebugView {
    harness
        .state()
        .debugger()
        .expect("a debugged run")
        .shown_view()
        .clone()
}

fn paused_at(app: &RicochetApp, events: u64) -> bool {
    app.debugger()
        .is_some_and(|d| d.is_paused() && d.frame().view.events == events)
}

/// The robots' cells after sliding along `path` from the puzzle's start.
fn cells_after(puzzle: &Puzzle, path: &[ricochet_lab::model::Move]) -> Vec<u16> {
    let tables = MoveTables::new(puzzle.board());
    let mut cells = puzzle.robot_cells();
    for mv in path {
        let robot = puzzle.robot_index(mv.robot).unwrap();
        cells[robot] = tables.slide(&cells, robot, mv.dir);
    }
    cells
}

#[test]
fn stepping_forward_and_back_shows_each_recorded_node_and_its_path() {
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    import(&mut harness, &game_id::write(&puzzle).unwrap());
    harness.get_by_label("Debug mode").click();
    harness.run();
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        paused_at(app, 1)
    });

    // Forward one event at a time, keeping what the panel and board show.
    let mut seen = vec![shown(&harness)];
    for events in 2..=12 {
        harness.get_by_label("Step").click();
        step_until(&mut harness, Duration::from_secs(20), |app| {
            paused_at(app, events)
        });
        let view = shown(&harness);
        assert_eq!(view.events, events);
        // The board shows the node's robots, and its path leads there from the root.
        if let Some(cells) = view.cells {
            assert_eq!(cells_after(&puzzle, &view.path), cells.as_slice());
            let (robots, trails) = harness.state().debugger().unwrap().board_picture().unwrap();
            assert_eq!(robots.len(), cells.as_slice().len());
            assert_eq!(trails.len(), view.path.len());
        }
        seen.push(view);
    }
    // Back through the recording: each step shows exactly what was shown then.
    for back in 1..=6 {
        harness.get_by_label("Step back").click();
        harness.run_steps(2);
        let expected = &seen[seen.len() - 1 - back];
        assert_eq!(&shown(&harness), expected, "{back} steps back");
        assert!(harness.state().debugger().unwrap().is_scrubbed_back());
    }
    // Forward again replays the recording without moving the solver on.
    harness.get_by_label("Step").click();
    harness.run_steps(2);
    assert_eq!(&shown(&harness), &seen[seen.len() - 6]);
    assert_eq!(
        harness.state().debugger().unwrap().frame().view.events,
        12,
        "the solver waits while the recording is replayed"
    );
    harness.get_by_label("Latest").click();
    harness.run_steps(2);
    assert_eq!(shown(&harness).events, 12);

    // To the end of the depth, then to the solution.
    harness.get_by_label("Step depth").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        app.debugger()
            .is_some_and(|d| d.is_paused() && d.frame().view.last_depth.is_some())
    });
    harness.get_by_label("Run to solution").click();
    step_until(&mut harness, Duration::from_secs(60), |app| {
        app.debugger()
            .is_some_and(|d| d.is_paused() && d.frame().view.solution.is_some())
    });
    let solution = shown(&harness).solution.unwrap();
    assert_eq!(solution.len(), 8);
    assert!(
        harness
            .query_by_label_contains("a solution was found")
            .is_some()
    );

    // Let go: the run ends with the solution shown.
    harness.get_by_label("Continue").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        app.run_summary().is_some_and(|r| !r.running)
    });
    let summary = harness.state().run_summary().unwrap();
    assert_eq!(summary.outcome, Some(Outcome::Solved { moves: solution }));

    // A new debugged run waits paused on its first event; Cancel still ends it.
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        paused_at(app, 1)
    });
    harness.get_by_label("Cancel").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        app.run_summary().is_some_and(|r| !r.running)
    });
    let summary = harness.state().run_summary().unwrap();
    assert_eq!(summary.outcome, Some(Outcome::Cancelled));
}

#[test]
fn moving_a_robot_with_the_graph_overlay_on_lists_changed_edges_and_checks_clean() {
    let mut harness = app_harness();
    harness.get_by_label("View").click();
    harness.run();
    harness.get_by_label("Slide-graph edges").click();
    harness.run_steps(3);
    assert!(harness.state().graph_tracker().changes().is_empty());
    // New random robots: the old ones are removed from the graph and the new ones placed.
    let before = harness.state().draft().robots.clone();
    harness.get_by_label("Random robots").click();
    harness.run_steps(3);
    let changes = harness.state().graph_tracker().changes().to_vec();
    assert_ne!(harness.state().draft().robots, before);
    assert!(!changes.is_empty(), "moving robots changes edges");
    assert!(
        harness
            .query_all_by_label_contains("(case 2")
            .next()
            .is_some()
    );
    harness.get_by_label("Check graph").click();
    harness.run_steps(2);
    assert!(matches!(harness.state().graph_tracker().check, Some(Ok(_))));
    assert!(
        harness
            .query_all_by_label_contains("equals a fresh build")
            .next()
            .is_some()
    );
}
