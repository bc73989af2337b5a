//! The Matches window driven by its labels in a 1024x700 window: a short real match of two
//! solvers over a three-puzzle suite ends with its report and its ratio plot; Cancel ends a
//! long match at once with the runs that finished; a missing suite and a single solver get
//! a message that names what is wrong, and start nothing.

use crate::common::{harness_from, replace_text};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use ricochet_lab::app::RicochetApp;
use ricochet_lab::app::settings::AppState;
use std::path::Path;
use std::time::{Duration, Instant};

/// The app at the projector's size, with no system dialogs.
fn small_window() -> Harness<'static, RicochetApp> {
    let state = AppState {
        native_dialogs: false,
        ..AppState::default()
    };
    harness_from(state, [1024.0, 700.0])
}

/// Opens the Matches window from the View menu.
fn open_matches(harness: &mut Harness<'_, RicochetApp>) {
    harness.get_by_label("View").click();
    harness.run();
    harness.get_by_label("Matches...").click();
    harness.run();
    assert!(
        harness.query_by_label("Start").is_some(),
        "the window is open"
    );
}

/// Steps frames until a label containing `text` shows; the match thread wakes the UI.
fn step_until_shown(harness: &mut Harness<'_, RicochetApp>, text: &str, timeout: Duration) {
    let start = Instant::now();
    while harness.query_by_label_contains(text).is_none() {
        assert!(
            start.elapsed() < timeout,
            "no label with {text:?} after {timeout:?}"
        );
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A suite of the first `count` puzzles of one of the shipped suites, in `dir`.
fn short_suite(dir: &Path, shipped: &str, count: usize) -> String {
    let text = std::fs::read_to_string(ricochet_lab::testing::board_path(&format!(
        "suites/{shipped}"
    )))
    .unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|line| !line.trim_start().starts_with('#') && !line.trim().is_empty())
        .take(count)
        .collect();
    assert_eq!(lines.len(), count);
    let path = dir.join("short.suite");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.display().to_string()
}

#[test]
fn a_short_match_ends_with_its_report_and_its_ratio_plot() {
    let dir = tempfile::tempdir().unwrap();
    let suite = short_suite(dir.path(), "length-06.suite", 3);
    let mut harness = small_window();
    open_matches(&mut harness);
    replace_text(&mut harness, Some("Suite"), &suite);
    replace_text(&mut harness, Some("Solvers"), "iddfs, bfs");
    harness.get_by_label("Start").click();
    harness.run();
    step_until_shown(&mut harness, "The match is over.", Duration::from_secs(120));
    // Both solvers solved all three puzzles optimally: the report says so, line by line.
    let report = harness
        .get_by_label_contains("3 of 3 puzzles run by every solver")
        .accesskit_node()
        .value()
        .unwrap_or_default();
    for solver in ["iddfs", "bfs"] {
        let row = report
            .lines()
            .find(|line| line.starts_with(&format!("| {solver} |")))
            .unwrap_or_else(|| panic!("no row for {solver} in\n{report}"));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // | solver | runs | optimal | ...
        assert_eq!(&cells[2..4], ["3", "3"], "{row}");
    }
    // The window can start another match, and its fields can be edited again.
    assert!(!harness.get_by_label("Start").accesskit_node().is_disabled());
}

#[test]
fn cancel_ends_a_long_match_at_once_with_the_runs_that_finished() {
    let dir = tempfile::tempdir().unwrap();
    // Twelve-move puzzles: BFS takes seconds on each, so the match is still running.
    let suite = short_suite(dir.path(), "length-12.suite", 20);
    let mut harness = small_window();
    open_matches(&mut harness);
    replace_text(&mut harness, Some("Suite"), &suite);
    replace_text(&mut harness, Some("Solvers"), "fast,bfs");
    harness.get_by_label("Start").click();
    harness.run();
    step_until_shown(&mut harness, "Running for", Duration::from_secs(10));
    let asked = Instant::now();
    // The solver panel has a Cancel of its own, idle while no solve runs.
    harness
        .get_all_by_label("Cancel")
        .find(|node| !node.accesskit_node().is_disabled())
        .expect("the match's Cancel is enabled")
        .click();
    step_until_shown(
        &mut harness,
        "Cancelled: the report covers the runs that finished.",
        Duration::from_secs(30),
    );
    // Cancel is heard by the running searches, not after the puzzle under way.
    let took = asked.elapsed();
    assert!(took < Duration::from_secs(10), "cancel took {took:?}");
    assert!(harness.query_by_label_contains("Running for").is_none());
}

#[test]
fn a_missing_suite_and_a_single_solver_are_refused_with_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.suite").display().to_string();
    let mut harness = small_window();
    open_matches(&mut harness);
    replace_text(&mut harness, Some("Suite"), &missing);
    harness.get_by_label("Start").click();
    harness.run();
    assert!(
        harness.query_by_label_contains("missing.suite").is_some(),
        "the message names the file"
    );
    assert!(harness.query_by_label_contains("Running for").is_none());

    let suite = short_suite(dir.path(), "length-06.suite", 1);
    replace_text(&mut harness, Some("Suite"), &suite);
    replace_text(&mut harness, Some("Solvers"), "fast");
    harness.get_by_label("Start").click();
    harness.run();
    assert!(
        harness
            .query_by_label("Name two or more solvers, separated by commas.")
            .is_some()
    );
    replace_text(&mut harness, Some("Solvers"), "fast, no-such-solver");
    harness.get_by_label("Start").click();
    harness.run();
    assert!(
        harness.query_by_label_contains("no-such-solver").is_some(),
        "the message names the solver"
    );
    assert!(harness.query_by_label_contains("Running for").is_none());
}
