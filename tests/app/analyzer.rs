//! The Analyse board window in the real app: opened from the View menu, run with few deals,
//! its histogram and summary read by their labels, and a hardest position opened as the
//! board by clicking it.

use crate::common::step_until;
use egui_kittest::kittest::Queryable;
use ricochet_lab::model::formats::game_id;
use std::time::Duration;

const GAME: &str = "EF81+40+09AF0E2D+1A";

#[test]
fn the_window_analyses_the_board_and_opens_a_hardest_position() {
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 1000.0], |_| {});
    harness.get_by_label("View").click();
    harness.run();
    harness.get_by_label("Analyse board...").click();
    harness.run();
    assert!(harness.state().analyzer().open);
    harness.get_by_label_contains("No data yet");

    // Two deals per target: typed into the field.
    harness.get_by_label("Deals per target").click();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.get_by_label("Deals per target").type_text("2");
    harness.key_press(egui::Key::Enter);
    harness.run();
    assert_eq!(harness.state().analyzer().deals, 2);

    harness.get_by_label("Start").click();
    step_until(&mut harness, Duration::from_secs(300), |app| {
        !app.analyzer().is_running() && app.analyzer().analysis().is_some()
    });
    let analysis = harness.state().analyzer().analysis().unwrap();
    assert!(!analysis.cancelled);
    // Every target of the board with two deals each.
    let targets = puzzle.board().targets().len() as u64;
    assert_eq!(analysis.results.len() as u64, targets * 2);
    let solved = analysis.solved();
    let hardest = analysis.hardest(1)[0].clone();
    harness.get_by_label(&format!("Puzzles solved: {solved}"));
    harness.get_by_label_contains("Mean optimal length: ");
    harness.get_by_label_contains("1-2 move puzzles: ");
    assert!(harness.query_by_label_contains("No data yet").is_none());

    // The hardest position opens as the board (the board has no unsaved edits, so nothing is
    // asked).
    let moves = hardest.moves.unwrap();
    let id = game_id::write(&hardest.puzzle).unwrap();
    harness
        .get_by_label(&format!("{moves} moves: {id}"))
        .click();
    harness.run();
    assert_eq!(harness.state().draft().to_puzzle().unwrap(), hardest.puzzle);
    let note = "These results are of another board";
    assert!(
        harness.query_by_label_contains(note).is_none(),
        "the position is on the analysed board"
    );

    // On another board the results stay but say whose they are; a position opened from them
    // brings the analysed board back, and they are its own again.
    crate::common::import(&mut harness, "3650+42+1CF10F0C+C9");
    harness.get_by_label_contains(note);
    harness.get_by_label(&format!("Puzzles solved: {solved}"));
    harness
        .get_by_label(&format!("{moves} moves: {id}"))
        .click();
    harness.run();
    assert_eq!(harness.state().draft().to_puzzle().unwrap(), hardest.puzzle);
    assert!(harness.query_by_label_contains(note).is_none());

    // The heat map goes with the window, in play mode too.
    let with_window = harness.state_mut().shown_overlay().texts.len();
    assert!(with_window > 0, "the heat map writes each target's mean");
    harness.key_press(egui::Key::P);
    harness.run_ok();
    harness.key_press(egui::Key::Escape);
    harness.run_ok();
    assert!(!harness.state().analyzer().open);
    assert!(
        harness.state_mut().shown_overlay().texts.len() < with_window,
        "no heat map once the window is closed"
    );
}

#[test]
fn the_window_makes_positions_of_a_chosen_length_and_opens_one() {
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 1000.0], |_| {});
    harness.get_by_label("View").click();
    harness.run();
    harness.get_by_label("Analyse board...").click();
    harness.run();
    harness.get_by_label_contains("Nothing made yet");

    harness.get_by_label("Moves").click();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.get_by_label("Moves").type_text("7");
    harness.key_press(egui::Key::Enter);
    harness.run();
    assert_eq!(harness.state().analyzer().maker.moves, 7);

    harness.get_by_label("Make a position of 7 moves").click();
    step_until(&mut harness, Duration::from_secs(300), |app| {
        !app.analyzer().maker.is_running() && !app.analyzer().maker.made().is_empty()
    });
    let made = harness.state().analyzer().maker.made().to_vec();
    assert_eq!(made.len(), 3);
    assert!(made.iter().all(|(_, moves)| *moves == 7));
    harness.get_by_label_contains("3 of 3 positions of 7 moves");

    let (position, _) = &made[1];
    let id = game_id::write(position).unwrap();
    harness.get_by_label(&format!("7 moves: {id}")).click();
    harness.run();
    assert_eq!(&harness.state().draft().to_puzzle().unwrap(), position);

    // Find harder starts from the open position and never makes it easier; a cancel keeps
    // what it reached.
    harness.get_by_label("Find harder").click();
    harness.run();
    assert!(harness.state().analyzer().maker.is_running());
    std::thread::sleep(Duration::from_millis(500));
    harness.get_by_label("Cancel search").click();
    step_until(&mut harness, Duration::from_secs(60), |app| {
        !app.analyzer().maker.is_running()
    });
    let harder = harness.state().analyzer().maker.made().to_vec();
    assert_eq!(harder.len(), 1);
    assert!(harder[0].1 >= 7);
    harness.get_by_label_contains("7 -> ");
}
