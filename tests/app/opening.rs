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
