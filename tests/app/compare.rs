//! The Compare runs window: two runs recorded from the open board, compared, stepped together
//! and taken to their first difference, one of them opened in the debugger there; the same
//! solver twice is the same search.

use crate::common::harness_on;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use ricochet_lab::app::RicochetApp;
use ricochet_lab::app::command::Command;
use std::time::{Duration, Instant};

/// Steps frames until a label containing `text` shows (the window's threads run on their
/// own and wake the app).
fn wait_for_label(harness: &mut Harness<'_, RicochetApp>, text: &str) {
    let start = Instant::now();
    loop {
        harness.step();
        if harness.query_all_by_label_contains(text).next().is_some() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "'{text}' never showed"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    harness.run_steps(2);
}

/// The text of the first label that contains `text`.
fn label_with(harness: &Harness<'_, RicochetApp>, text: &str) -> String {
    labels_with(harness, text)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no label contains '{text}'"))
}

/// The texts of the labels that contain `text`, in the window's order.
fn labels_with(harness: &Harness<'_, RicochetApp>, text: &str) -> Vec<String> {
    harness
        .query_all_by_label_contains(text)
        .map(|node| {
            let node = node.accesskit_node();
            node.label()
                .or_else(|| node.value())
                .unwrap_or_else(|| format!("{node:?}"))
        })
        .collect()
}

/// Records both runs and steps frames until both have solved the small board.
fn record_both(harness: &mut Harness<'_, RicochetApp>) {
    harness.get_by_label("Record first run").click();
    harness.get_by_label("Record second run").click();
    let start = Instant::now();
    while harness
        .query_all_by_label_contains("solved in 5 moves")
        .count()
        < 2
    {
        harness.step();
        assert!(start.elapsed() < Duration::from_secs(120));
        std::thread::sleep(Duration::from_millis(10));
    }
    harness.run_steps(2);
}

fn disabled(harness: &Harness<'_, RicochetApp>, label: &str) -> bool {
    harness.get_by_label(label).accesskit_node().is_disabled()
}

fn open_window_on_small_board() -> Harness<'static, RicochetApp> {
    let mut harness = harness_on(&ricochet_lab::testing::small(), [1360.0, 900.0], |_| {});
    harness.state_mut().apply_command(Command::ToggleCompare);
    harness.run_steps(2);
    harness
}

#[test]
fn two_solvers_recorded_differ_and_both_land_on_their_first_difference() {
    let mut harness = open_window_on_small_board();
    // The window starts with iterative deepening against fast.
    record_both(&mut harness);
    assert!(harness.query_by_label("Second − first").is_some());

    harness.get_by_label("Compare").click();
    wait_for_label(&mut harness, "They differ after");
    let verdict = label_with(&harness, "They differ after");
    assert!(verdict.contains("in order"), "{verdict}");
    harness.get_by_label("First difference").click();
    harness.run_steps(2);
    let events: Vec<String> = labels_with(&harness, "Event ");
    assert_eq!(events.len(), 2, "{events:?}");
    // Iterative deepening starts at depth 1, fast at its lower bound: their iterations line
    // up by their place, not their numbers, so the two agree past their roots.
    assert!(!verdict.contains("after 0 nodes"), "{verdict}");

    // Stepping both moves both; stepping back returns both.
    harness.get_by_label("Step both").click();
    harness.run_steps(2);
    let stepped: Vec<String> = labels_with(&harness, "Event ");
    assert_ne!(stepped, events);
    harness.get_by_label("Back both").click();
    harness.run_steps(2);
    let back: Vec<String> = labels_with(&harness, "Event ");
    assert_eq!(back, events);

    // The first run opens in the debugger at the node the window shows.
    let shown: u64 = events[0]
        .trim_start_matches("Event ")
        .split(' ')
        .next()
        .unwrap()
        .replace('\u{2009}', "")
        .parse()
        .unwrap();
    harness
        .get_by_label("Open first run in the debugger")
        .click();
    harness.run_steps(3);
    let debugger = harness.state().debugger().expect("the trace opens");
    assert!(debugger.is_from_file());
    assert_eq!(debugger.shown_view().events, shown + 1);
    // And it numbers the event as the Compare pane does: from 0, as the trace file does.
    let shown = ricochet_lab::app::widgets::format_count(shown);
    assert!(
        harness
            .query_by_label_contains(&format!("{shown} of 0–"))
            .is_some(),
        "the debugger names event {shown}, as the Compare pane did"
    );
}

#[test]
fn two_algorithms_compared_by_states_list_the_positions_by_moves_and_their_heat_maps() {
    let mut harness = open_window_on_small_board();
    record_both(&mut harness);
    harness.get_by_label("Same positions by moves").click();
    harness.run();
    harness.get_by_label("Compare").click();
    wait_for_label(&mut harness, "by positions at each number of moves");
    let verdict = label_with(&harness, "by positions at each number of moves");
    assert!(!verdict.contains("…"), "the verdict reads whole: {verdict}");
    assert!(
        harness
            .query_by_label("Positions first examined at each number of moves")
            .is_some()
    );
    for title in ["In both", "Only first", "Only second"] {
        assert!(harness.query_by_label(title).is_some(), "{title}");
    }
    assert!(harness.query_by_label("Only in the first run").is_some());
    assert!(harness.query_by_label("Only in the second run").is_some());
}

#[test]
fn one_solver_recorded_twice_is_the_same_search_in_order_and_as_sets() {
    let mut harness = open_window_on_small_board();
    // The second run records iterative deepening too.
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "Second run")
        .click();
    harness.run();
    let listed = harness.query_all_by_label("iddfs").last().unwrap();
    listed.click();
    harness.run();
    record_both(&mut harness);
    harness.get_by_label("Compare").click();
    wait_for_label(&mut harness, "The same search (in order)");
    assert!(disabled(&harness, "First difference"));
    harness.get_by_label("Same nodes per iteration").click();
    harness.run();
    harness.get_by_label("Compare").click();
    wait_for_label(&mut harness, "The same search (as sets per iteration)");
    // No row differs.
    assert!(harness.query_all_by_label("same").count() >= 2);
}

#[test]
fn a_trace_file_that_is_no_trace_is_refused_by_name_and_compare_waits_for_two_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("not-a-trace.rltrace");
    std::fs::write(&path, "hello").unwrap();
    let mut harness = open_window_on_small_board();
    assert!(disabled(&harness, "Compare"));
    crate::common::replace_text(
        &mut harness,
        Some("First trace"),
        &path.display().to_string(),
    );
    harness.get_by_label("Open first run").click();
    harness.run_steps(2);
    let refused = label_with(&harness, "not-a-trace.rltrace");
    assert!(refused.contains("not-a-trace.rltrace"), "{refused}");
    assert!(disabled(&harness, "Compare"));
}
