//! The app started on a puzzle (`ricochet-lab PUZZLE`): a file, a game id, one that cannot be
//! read.

use crate::common::app_harness;
use ricochet_lab::app::Opening;
use ricochet_lab::testing::board_path;

#[test]
fn started_on_a_file_the_app_opens_it_and_saves_back_to_it() {
    let mut harness = app_harness();
    let path = std::path::PathBuf::from(board_path("small-6x6.ron"));
    harness
        .state_mut()
        .apply_command(Opening::File(path.clone()).command());
    harness.run();
    assert_eq!(harness.state().file(), Some(path.as_path()));
    assert_eq!(harness.state().board_name(), "small-6x6.ron");
    assert!(!harness.state().is_dirty());
}

#[test]
fn started_on_a_game_id_the_app_imports_it() {
    let mut harness = app_harness();
    harness
        .state_mut()
        .apply_command(Opening::Text("7650+42+E2302B12+C9".into()).command());
    harness.run();
    assert_eq!(harness.state().board_name(), "7650+42+E2302B12+C9");
    assert_eq!(harness.state().file(), None);
}

#[test]
fn started_on_a_file_that_cannot_be_read_the_app_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.ron");
    std::fs::write(&broken, "(format: 1, width: 0").unwrap();
    let mut harness = app_harness();
    let before = harness.state().board_name();
    harness
        .state_mut()
        .apply_command(Opening::File(broken.clone()).command());
    harness.run();
    let message = harness
        .state()
        .status_message()
        .unwrap_or_default()
        .to_string();
    assert!(
        message.contains("Could not open") && message.contains("broken.ron"),
        "{message}"
    );
    assert_eq!(harness.state().board_name(), before);
}

/// A board opened from a copy of `small-6x6.ron` in a folder of its own, then edited.
fn edited_copy() -> (
    tempfile::TempDir,
    std::path::PathBuf,
    egui_kittest::Harness<'static, ricochet_lab::app::RicochetApp>,
) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.ron");
    std::fs::copy(board_path("small-6x6.ron"), &path).unwrap();
    let mut harness = app_harness();
    harness
        .state_mut()
        .apply_command(Opening::File(path.clone()).command());
    harness.run();
    harness
        .state_mut()
        .apply_command(ricochet_lab::app::command::Command::edit(
            ricochet_lab::app::document::draft::Edit::ClearWalls,
        ));
    harness.run();
    assert!(harness.state().is_dirty());
    (dir, path, harness)
}

/// Another window's save of the same file: a whole other board.
fn written_elsewhere(path: &std::path::Path) -> String {
    let other =
        ricochet_lab::model::formats::native::write(&ricochet_lab::model::samples::fogleman_22());
    std::fs::write(path, &other).unwrap();
    other
}

// Two windows on one file: A's save was silently overwritten by B's, opened earlier.
#[test]
fn save_asks_before_replacing_a_file_changed_on_disk() {
    use egui_kittest::kittest::Queryable;
    let (_dir, path, mut harness) = edited_copy();
    let other = written_elsewhere(&path);
    harness
        .state_mut()
        .apply_command(ricochet_lab::app::command::Command::Save);
    harness.run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), other);
    assert!(harness.state().is_dirty());
    harness.get_by_label("Overwrite").click();
    harness.run();
    assert!(!harness.state().is_dirty());
    let saved = ricochet_lab::model::formats::load_source(path.to_str().unwrap()).unwrap();
    assert_eq!(saved, harness.state().draft().to_puzzle().unwrap());
    // Saved here, the file is this window's again: the next save does not ask.
    harness
        .state_mut()
        .apply_command(ricochet_lab::app::command::Command::Save);
    harness.run();
    assert!(harness.query_by_label("Overwrite").is_none());
}

#[test]
fn the_file_changed_on_disk_can_be_reloaded_and_is_noticed_on_focus() {
    use egui_kittest::kittest::Queryable;
    let (_dir, path, mut harness) = edited_copy();
    written_elsewhere(&path);
    harness
        .input_mut()
        .events
        .push(egui::Event::WindowFocused(true));
    harness.run();
    let line = harness.state().status_message().unwrap().to_string();
    assert!(line.contains("changed on disk"), "{line}");
    harness
        .state_mut()
        .apply_command(ricochet_lab::app::command::Command::Save);
    harness.run();
    harness.get_by_label("Reload from disk").click();
    harness.run();
    assert!(!harness.state().is_dirty());
    assert_eq!(
        harness.state().draft().to_puzzle().unwrap(),
        ricochet_lab::model::samples::fogleman_22()
    );
}

// The settings keep the file's stamp: a change made while the app was closed is said at the
// next start, and Save then asks as it does for a change made while it was open.
#[test]
fn a_file_changed_while_the_app_was_closed_is_noticed_at_the_next_start() {
    use egui_kittest::kittest::Queryable;
    let (_dir, path, harness) = edited_copy();
    let kept = harness.state().persisted_state();
    assert!(
        kept.file_stamp.is_some(),
        "the settings keep the file's stamp"
    );
    drop(harness);

    // Unchanged, the next start says nothing.
    let mut again = crate::common::harness_from(kept.clone(), [1360.0, 900.0]);
    assert!(
        !again
            .state()
            .status_message()
            .unwrap_or_default()
            .contains("changed on disk")
    );
    drop(again);

    // Written by another program while the app was closed.
    let other = written_elsewhere(&path);
    again = crate::common::harness_from(kept, [1360.0, 900.0]);
    let line = again
        .state()
        .status_message()
        .unwrap_or_default()
        .to_string();
    assert!(
        line.contains("changed on disk while the app was closed"),
        "{line}"
    );
    assert!(again.state().is_dirty(), "the unsaved edit is restored");
    again
        .state_mut()
        .apply_command(ricochet_lab::app::command::Command::Save);
    again.run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), other);
    assert!(again.query_by_label("Overwrite").is_some());
}
