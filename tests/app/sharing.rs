//! Boards that travel through the clipboard: Ctrl+V over the window pastes a DriftingDroids
//! dump (or any board text), Edit > Copy board copies the board line.

use crate::common::{app_harness, click_menu_item};
use ricochet_lab::model::formats::{dd_dump, game_id};

#[test]
fn a_pasted_dump_opens_its_board_and_copy_board_says_what_it_copied() {
    let mut harness = app_harness();
    let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
    let dump = dd_dump::write(&puzzle).unwrap();
    harness.event(egui::Event::Paste(dump));
    harness.run_ok();
    let opened = harness.state().draft().to_puzzle().unwrap();
    assert_eq!(opened, puzzle);
    click_menu_item(&mut harness, "Edit", "Copy board");
    harness.run_ok();
    let status = harness
        .state()
        .status_message()
        .unwrap_or_default()
        .to_string();
    assert!(status.contains("Copied the board as one line"), "{status}");
    // Text that is no board is refused by name, and the board stays.
    harness.event(egui::Event::Paste("hello, world".into()));
    harness.run_ok();
    let status = harness
        .state()
        .status_message()
        .unwrap_or_default()
        .to_string();
    assert!(status.contains("is no board"), "{status}");
    assert_eq!(harness.state().draft().to_puzzle().unwrap(), puzzle);
}
