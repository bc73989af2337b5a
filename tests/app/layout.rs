//! The dock's layout holds in the smallest window the app supports: with a debugged search 25
//! moves deep, every tab keeps Solve, Cancel, the solver's choice and (on the Debugger tab) the
//! step buttons inside the window and where they were when the run started.

use crate::common::{harness_on, paused_at, step_until};
use egui::{Pos2, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::solver::SolverId;
use std::time::Duration;

/// The smallest window the app is laid out for.
const SMALLEST: [f32; 2] = [1024.0, 700.0];

/// The solver's controls at the top of the dock, on every tab.
const CONTROLS: [&str; 4] = ["Solve", "Cancel", "Solver", "Debug mode"];

/// The debugger's step buttons.
const STEP_BUTTONS: [&str; 8] = [
    "Step back",
    "Step",
    "Step over",
    "Step depth",
    "Continue",
    "Pause",
    "Run to solution",
    "Play",
];

fn deck_puzzle() -> ricochet_lab::model::Puzzle {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/real-21.ron");
    let text = std::fs::read_to_string(path).unwrap();
    ricochet_lab::model::formats::native::parse(&text).unwrap()
}

fn rects(harness: &Harness<'_, RicochetApp>, labels: &[&str]) -> Vec<(String, Rect)> {
    labels
        .iter()
        .map(|label| (label.to_string(), harness.get_by_label(label).rect()))
        .collect()
}

/// Shows a tab of the dock.
fn tab(harness: &mut Harness<'_, RicochetApp>, name: &str) {
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, name)
        .click();
    harness.run_steps(3);
}

fn path_len(app: &RicochetApp) -> usize {
    app.debugger().map_or(0, |d| d.shown_view().path.len())
}

/// A depth-limited search dives straight to its limit, so a few dozen steps give a 25-move
/// path on the deck's puzzle.
#[test]
fn every_dock_tab_keeps_its_controls_in_place_with_a_25_move_path_at_1024x700() {
    let mut harness = harness_on(&deck_puzzle(), SMALLEST, |state| {
        state.solver.solver = SolverId::Dls.into();
        state.solver.use_depth_limit = true;
        state.solver.depth_limit = 30;
        state.debug.enabled = true;
        state.debug.start_paused = true;
    });
    tab(&mut harness, "Debugger");
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        paused_at(app, 1)
    });
    harness.run_steps(2);
    let window = Rect::from_min_size(Pos2::ZERO, SMALLEST.into());
    let mut before = rects(&harness, &CONTROLS);
    before.extend(rects(&harness, &STEP_BUTTONS));
    for (label, rect) in &before {
        assert!(
            window.contains_rect(*rect),
            "{label} at {rect:?} is outside the window"
        );
    }
    // Step until the shown node is 25 moves deep.
    let mut events = 1;
    while path_len(harness.state()) < 25 {
        events += 1;
        harness.key_press(egui::Key::F11);
        step_until(&mut harness, Duration::from_secs(20), |app| {
            paused_at(app, events)
        });
        assert!(events < 500, "the search never went 25 moves deep");
    }
    for name in ["Debugger", "Run", "Overlays", "Debugger"] {
        tab(&mut harness, name);
        let labels: Vec<&str> = if name == "Debugger" {
            CONTROLS.iter().chain(&STEP_BUTTONS).copied().collect()
        } else {
            CONTROLS.to_vec()
        };
        for (label, rect) in rects(&harness, &labels) {
            assert!(
                window.contains_rect(rect),
                "{name} tab: {label} at {rect:?} is outside the window"
            );
            let (_, was) = before.iter().find(|(l, _)| *l == label).unwrap();
            assert_eq!(rect, *was, "{name} tab: {label} moved");
        }
        // Nothing in the dock reaches past the window's right edge.
        let widest = harness
            .query_all_by_label_contains("")
            .map(|node| node.rect())
            .filter(|rect| rect.width() > 0.0 && rect.left() >= SMALLEST[0] * 0.6)
            .map(|rect| rect.right())
            .fold(0.0_f32, f32::max);
        use egui_kittest::kittest::NodeT;
        let culprits: Vec<String> = harness
            .query_all_by_label_contains("")
            .filter(|node| {
                node.rect().right() > SMALLEST[0] + 0.5 && node.rect().left() >= SMALLEST[0] * 0.6
            })
            .map(|node| format!("{:?} {:?}", node.accesskit_node().label(), node.rect()))
            .collect();
        assert!(
            widest <= SMALLEST[0] + 0.5,
            "{name} tab: something reaches to x = {widest}: {culprits:?}"
        );
    }
}
