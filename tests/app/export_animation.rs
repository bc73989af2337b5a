//! The Export animation window driven by its accessible labels: the solution played back
//! exported as a GIF (and refused a second time rather than replaced), the window told when
//! the board changes, and a debugged search's steps exported as numbered PNG frames, or
//! refused with the folder named when it cannot be written.

use crate::common::{
    finished, harness_on, replace_text, start_debugging, step_to_event, step_until,
};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use ricochet_lab::app::RicochetApp;
use ricochet_lab::app::command::Command;
use ricochet_lab::app::document::draft::Edit;
use ricochet_lab::model::formats::game_id;
use ricochet_lab::model::tiles::random_game;
use std::path::Path;
use std::time::Duration;

fn small_puzzle() -> ricochet_lab::model::Puzzle {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/small-6x6.ron");
    ricochet_lab::model::formats::native::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn status(harness: &Harness<'_, RicochetApp>) -> String {
    harness
        .state()
        .status_message()
        .unwrap_or_default()
        .to_string()
}

/// Clicks Export and steps until the status line tells how it ended.
fn export(harness: &mut Harness<'_, RicochetApp>) -> String {
    let before = status(harness);
    harness.get_by_label("Export").click();
    harness.step();
    step_until(harness, Duration::from_secs(60), |app| {
        app.status_message().is_some_and(|m| {
            m != before && (m.starts_with("Exported") || m.starts_with("Could not"))
        })
    });
    status(harness)
}

#[test]
fn the_solution_shown_exports_as_a_gif_and_a_changed_board_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = harness_on(&small_puzzle(), [1024.0, 700.0], |_| {});
    harness.get_by_label("Solve").click();
    harness.step();
    step_until(&mut harness, Duration::from_secs(30), finished);
    let moves = harness
        .state()
        .playback()
        .expect("a solution shown")
        .moves()
        .len();
    // The keys open the window as the button does.
    harness.key_press_modifiers(
        egui::Modifiers::COMMAND | egui::Modifiers::SHIFT,
        egui::Key::E,
    );
    harness.run();
    assert!(harness.query_by_label("Export animation").is_some());
    assert!(
        harness
            .query_by_label_contains(&format!("The {moves}-move solution"))
            .is_some()
    );
    // The window is as tall as its form: no empty room under Export (a window that scrolls
    // opened at egui's default height, about twice the form's).
    let window = harness
        .query_all_by_role(egui::accesskit::Role::Window)
        .find(|node| node.accesskit_node().label().as_deref() == Some("Export animation"))
        .expect("the window")
        .rect();
    let button = harness.get_by_label("Export").rect();
    assert!(
        window.bottom() - button.bottom() < 30.0,
        "{:.0} px under Export",
        window.bottom() - button.bottom()
    );
    let gif = dir.path().join("solution.gif");
    replace_text(&mut harness, Some("File"), &gif.display().to_string());
    let said = export(&mut harness);
    assert!(said.starts_with("Exported"), "{said}");
    assert!(said.contains(&format!("{} frames", moves + 1)), "{said}");
    let bytes = std::fs::read(&gif).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
    // The logical screen is the default side.
    assert_eq!(u16::from_le_bytes([bytes[6], bytes[7]]), 800);
    // A second export is refused, naming the file, and leaves it as it was.
    let said = export(&mut harness);
    assert!(said.contains("already exists"), "{said}");
    assert!(said.contains("solution.gif"), "{said}");
    assert_eq!(std::fs::read(&gif).unwrap(), bytes);
    // Once the board changes, the window says so and exports nothing.
    harness
        .state_mut()
        .apply_command(Command::edit(Edit::ClearRobots));
    harness.run();
    assert!(
        harness
            .query_by_label_contains("The board changed since")
            .is_some()
    );
    assert!(
        harness
            .get_by_label("Export")
            .accesskit_node()
            .is_disabled()
    );
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert!(!harness.state().any_window_open());
}

#[test]
fn a_debugged_search_exports_its_steps_as_frames_and_an_unwritable_folder_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let mut harness = harness_on(&small_puzzle(), [1360.0, 900.0], |_| {});
    let (puzzle, _) = random_game(2, 4).unwrap();
    start_debugging(&mut harness, &game_id::write(&puzzle).unwrap());
    step_to_event(&mut harness, 12);
    harness.get_by_label("Debugger").click();
    harness.run();
    harness.get_by_label("Export steps…").click();
    harness.run();
    assert!(harness.query_by_label("From event").is_some());
    assert!(harness.query_by_label("To event").is_some());
    harness.get_by_label("PNG frames").click();
    harness.run();
    let frames = dir.path().join("steps");
    replace_text(&mut harness, Some("Folder"), &frames.display().to_string());
    let said = export(&mut harness);
    assert!(said.starts_with("Exported"), "{said}");
    let written = std::fs::read_dir(&frames).unwrap().count();
    assert!(written >= 1, "{written} frames");
    assert!(said.contains(&format!("{written} frames")), "{said}");
    assert!(frames.join("frame-00.png").is_file());
    // A folder inside a missing folder cannot be written: the message names it.
    let missing = dir.path().join("no-such-folder").join("steps");
    replace_text(&mut harness, Some("Folder"), &missing.display().to_string());
    let said = export(&mut harness);
    assert!(said.starts_with("Could not export"), "{said}");
    assert!(said.contains("no-such-folder"), "{said}");
    assert!(!missing.exists());
}
