//! The slide-graph layer in the real app: the editor's graph is brought up to the board by a
//! worker thread, never in the frame that turns the layer on or applies an edit, and it is
//! shown only for the board it follows.

use crate::common::{app_harness, step_until};
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::model::Cell;
use ricochet_lab::solver::graph_tracker::GraphTracker;
use std::time::Duration;

const COMPUTING: &str = "being computed on a worker thread";

/// The robots of the board edited, as cells.
fn robot_cells(app: &RicochetApp) -> Vec<Cell> {
    let board = &app.draft().board;
    app.draft()
        .robots
        .iter()
        .filter(|r| board.contains(r.pos))
        .map(|r| board.cell(r.pos))
        .collect()
}

#[test]
fn the_slide_graph_comes_from_a_worker_and_an_edit_hides_it_until_brought_forward() {
    let mut harness = app_harness();
    harness.get_by_label("Overlays").click();
    harness.run();
    assert!(harness.state().graph_tracker().is_none());

    // The frame that takes the click only turns the switch on; the next one hands the graph
    // to a worker and shows the panel's note, without a graph: nothing was built in a frame.
    harness.get_by_label("Slide-graph edges").click();
    harness.step();
    assert!(harness.state().graph_tracker().is_none());
    harness.step();
    assert!(harness.state().graph_tracker_computing());
    assert!(harness.state().graph_tracker().is_none());
    harness.get_by_label_contains(COMPUTING);

    step_until(&mut harness, Duration::from_secs(10), |app| {
        app.graph_tracker().is_some()
    });
    let board = harness.state().draft().board.clone();
    let robots = robot_cells(harness.state());
    let mut direct = GraphTracker::default();
    direct.follow(&board, &robots);
    let tracker = harness.state().graph_tracker().unwrap();
    assert_eq!(tracker.edges(), direct.edges());
    assert!(
        tracker.changes().is_empty(),
        "a first build changes nothing"
    );
    assert!(!harness.state().graph_tracker_computing());
    assert!(harness.query_by_label_contains(COMPUTING).is_none());

    // An edit: the graph of the board before it is not shown in the frame the edit is
    // applied, and comes back brought forward robot by robot, with the edges that changed.
    harness.get_by_label("Random robots").scroll_to_me();
    harness.run();
    harness.get_by_label("Random robots").click();
    for _ in 0..5 {
        harness.step();
        if robot_cells(harness.state()) != robots {
            break;
        }
    }
    let moved = robot_cells(harness.state());
    assert_ne!(moved, robots);
    assert!(
        harness.state().graph_tracker().is_none(),
        "no graph of the board before the edit"
    );
    step_until(&mut harness, Duration::from_secs(10), |app| {
        app.graph_tracker().is_some()
    });
    direct.follow(&board, &moved);
    let tracker = harness.state().graph_tracker().unwrap();
    assert_eq!(tracker.edges(), direct.edges());
    assert_eq!(tracker.changes(), direct.changes());
    assert!(!tracker.changes().is_empty(), "moving robots changes edges");
    assert!(direct.run_check().is_ok(), "{:?}", direct.check);
}
