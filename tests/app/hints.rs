//! Play mode's hints in the real app: `H` shows the move count, then the robots, the first move
//! and the whole solution of the position in play, computed on a worker thread; a move makes
//! the hint start again from the new position.

use crate::common::step_until;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::document::state::Mode;
use ricochet_lab::model::formats::game_id;
use ricochet_lab::model::parse_moves;
use std::time::Duration;

/// A standard game whose optimum is three moves.
const GAME: &str = "EF81+40+09AF0E2D+1A";

#[test]
fn h_shows_the_next_hint_level_and_a_move_starts_over() {
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |_| {});
    harness.key_press(egui::Key::P);
    harness.run();
    assert_eq!(harness.state().mode(), Mode::Play);

    harness.key_press(egui::Key::H);
    step_until(&mut harness, Duration::from_secs(60), |app| {
        !app.hint_computing() && !app.hint_lines().is_empty()
    });
    assert_eq!(harness.state().hint_lines(), ["Moves: 3"]);

    harness.key_press(egui::Key::H);
    harness.run();
    let lines = harness.state().hint_lines();
    assert!(lines[1].starts_with("Robots: "), "{lines:?}");

    // The button asks for the next level as the key does.
    harness.get_by_label("More hint").click();
    harness.run();
    let lines = harness.state().hint_lines();
    assert!(lines[2].starts_with("First move: "), "{lines:?}");
    let first = lines[2].trim_start_matches("First move: ").to_string();

    harness.key_press(egui::Key::H);
    harness.run();
    let lines = harness.state().hint_lines();
    let solution = parse_moves(lines[3].trim_start_matches("Solution: ")).unwrap();
    assert_eq!(solution.len(), 3);
    assert_eq!(solution[0].to_string(), first);
    puzzle.replay(&solution).unwrap();
    // The panel shows it.
    harness.get_by_label(&lines[3]);

    // Play the first move: the hint was for the old position and goes.
    let key = |letter: char| match letter {
        'R' => egui::Key::R,
        'G' => egui::Key::G,
        'B' => egui::Key::B,
        'Y' => egui::Key::Y,
        _ => egui::Key::K,
    };
    let arrow = |letter: char| match letter {
        'N' => egui::Key::ArrowUp,
        'E' => egui::Key::ArrowRight,
        'S' => egui::Key::ArrowDown,
        _ => egui::Key::ArrowLeft,
    };
    let mut letters = first.chars();
    harness.key_press(key(letters.next().unwrap()));
    harness.key_press(arrow(letters.next().unwrap()));
    harness.run();
    assert!(harness.state().hint_lines().is_empty());
    harness.key_press(egui::Key::H);
    step_until(&mut harness, Duration::from_secs(60), |app| {
        !app.hint_computing() && !app.hint_lines().is_empty()
    });
    assert_eq!(harness.state().hint_lines(), ["Moves: 2"]);
}
