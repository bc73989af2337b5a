//! The debugger's popups keep their controls: every combo box in a popup opens its list, an
//! entry other than the one shown is chosen, and the popup stays open with the choice made;
//! Escape then closes the popup and leaves the run alone. A breakpoint at a new depth stops
//! with the board at that depth's root.

use crate::common::{app_harness, start_debugging, step_until};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use ricochet_lab::app::RicochetApp;
use ricochet_lab::app::command::{Command, DebugCommand};
use ricochet_lab::model::formats::game_id;
use ricochet_lab::model::tiles::random_game;
use std::collections::BTreeSet;
use std::time::Duration;

/// The combo boxes shown, by their label, and what each shows.
fn combos(harness: &Harness<'_, RicochetApp>) -> Vec<(String, String)> {
    harness
        .query_all_by_role(Role::ComboBox)
        .map(|node| {
            let node = node.accesskit_node();
            (
                node.label().unwrap_or_default(),
                node.value().unwrap_or_default(),
            )
        })
        .collect()
}

/// The button that opens a popup, found by the start of its label (the Breakpoints button
/// counts the breakpoints set).
fn popup_button(harness: &Harness<'_, RicochetApp>, label: &str) -> egui::Rect {
    harness
        .get_all_by_role(Role::Button)
        .find(|node| {
            node.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with(label))
        })
        .unwrap_or_else(|| panic!("no button {label}"))
        .rect()
}

/// The entries of the open combo box's list.
fn list_entries(harness: &Harness<'_, RicochetApp>) -> Vec<String> {
    let list = harness.get_by_role(Role::ListBox);
    list.children_recursive()
        .filter_map(|entry| entry.accesskit_node().label())
        .collect()
}

#[test]
fn every_combo_in_a_popup_chooses_and_the_popup_stays_open() {
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    start_debugging(&mut harness, &game_id::write(&puzzle).unwrap());
    harness.get_by_label("Debugger").click();
    harness.run();
    let outside: BTreeSet<String> = combos(&harness).into_iter().map(|(l, _)| l).collect();
    // Every popup of the debugger's tab; each holds at least one combo box.
    for popup in ["Breakpoints (", "Go to…"] {
        let button = popup_button(&harness, popup);
        crate::common::click_at(&mut harness, button.center());
        let inside: Vec<(String, String)> = combos(&harness)
            .into_iter()
            .filter(|(label, _)| !outside.contains(label))
            .collect();
        assert!(!inside.is_empty(), "{popup} holds a combo box");
        for (label, shown) in inside {
            harness
                .get_by_role_and_label(Role::ComboBox, &label)
                .click();
            harness.run();
            let entries = list_entries(&harness);
            // The first entry not shown: the list is scrolled to its top.
            let choice = entries
                .iter()
                .find(|entry| **entry != shown)
                .unwrap_or_else(|| panic!("{popup} {label}: no other entry in {entries:?}"))
                .clone();
            harness
                .get_by_role(Role::ListBox)
                .get_by_label(&choice)
                .click();
            harness.run();
            assert!(
                harness.query_by_role(Role::ListBox).is_none(),
                "{popup} {label}: choosing closes the list"
            );
            let now = harness
                .query_by_role_and_label(Role::ComboBox, &label)
                .unwrap_or_else(|| panic!("{popup} closed when {label} chose {choice}"));
            assert_eq!(
                now.accesskit_node().value().as_deref(),
                Some(choice.as_str()),
                "{popup} {label}"
            );
        }
        // Escape closes the popup, and only the popup: the run goes on paused.
        harness.key_press(egui::Key::Escape);
        harness.run();
        assert!(
            combos(&harness)
                .iter()
                .all(|(label, _)| outside.contains(label)),
            "Escape closes {popup}"
        );
        assert!(
            harness.state().run_summary().is_some_and(|r| r.running),
            "Escape closed {popup} and left the run alone"
        );
    }
}

// A breakpoint at a new depth shows where that depth starts: the root, the robots where the
// puzzle has them and no path, not the last node of the depth before.
#[test]
fn a_new_depth_breakpoint_shows_that_depths_root() {
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    start_debugging(&mut harness, &game_id::write(&puzzle).unwrap());
    let start = harness.state().shown_robots();
    harness.get_by_label("Debugger").click();
    harness.run();
    let button = popup_button(&harness, "Breakpoints (");
    crate::common::click_at(&mut harness, button.center());
    harness
        .get_by_role_and_label(Role::CheckBox, "When a new depth or bound starts")
        .click();
    harness.run();
    harness.key_press(egui::Key::Escape);
    harness.run();
    // On to the solution (a breakpoint of its own), stopping at every depth on the way.
    let mut stops = Vec::new();
    loop {
        let before = harness.state().debugger().unwrap().frame().view.events;
        harness.key_press(egui::Key::F5);
        step_until(&mut harness, Duration::from_secs(20), |app| {
            app.debugger()
                .is_some_and(|d| d.is_paused() && d.frame().view.events > before)
        });
        let debugger = harness.state().debugger().unwrap();
        let reason = debugger.frame().stop_reason.clone().unwrap_or_default();
        if !reason.contains("starts") {
            assert!(reason.contains("solution"), "{reason}");
            break;
        }
        let view = debugger.shown_view().clone();
        let stop = stops.len();
        assert!(view.path.is_empty(), "stop {stop}: {:?}", view.path);
        assert_eq!(view.depth, 0, "stop {stop}");
        assert_eq!(
            view.cells.map(|c| c.as_slice().to_vec()),
            Some(puzzle.robot_cells()),
            "stop {stop}"
        );
        assert_eq!(harness.state().shown_robots(), start, "stop {stop}");
        stops.push(view);
    }
    assert!(!stops.is_empty(), "no depth started before the solution");
    // Read back from the recording, those events show the same.
    for view in &stops {
        harness
            .state_mut()
            .apply_command(Command::Debug(DebugCommand::Scrub(view.events - 1)));
        harness.run();
        assert_eq!(harness.state().debugger().unwrap().shown_view(), view);
        assert_eq!(harness.state().shown_robots(), start);
    }
}
