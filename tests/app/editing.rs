//! The app driven by its accessible labels, as a user would: editing the board, undo, opening
//! a shipped board, play mode by keyboard. Assertions are on the app's state.

use crate::common::{app_harness, click_at, click_menu_item, replace_text};
use egui::{Modifiers, Pos2, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::{RicochetApp, document::mode::Mode};
use ricochet_lab::model::{Direction, Pos, RobotColor, samples};

/// Replaces the board with an empty one through the New window.
fn new_empty_board(harness: &mut Harness<'_, RicochetApp>) {
    click_menu_item(harness, "File", "New...");
    harness.get_by_label("Empty board").click();
    harness.run();
}

/// The board widget's rectangle and its cell size.
fn board_rect(harness: &Harness<'_, RicochetApp>) -> (Rect, f32) {
    let rect = harness.get_by_label("Board").rect();
    let width = f32::from(harness.state().draft().board.width());
    (rect, rect.width() / width)
}

fn cell_center(rect: Rect, cell: f32, pos: Pos) -> Pos2 {
    rect.min
        + egui::vec2(
            (f32::from(pos.x) + 0.5) * cell,
            (f32::from(pos.y) + 0.5) * cell,
        )
}

#[test]
fn clicking_a_cell_side_toggles_its_wall_and_undo_takes_it_back() {
    let mut harness = app_harness();
    let board = harness.state().draft().board.clone();
    // The first open east side in row 4, away from any wall.
    let pos = (1..14)
        .map(|x| Pos::new(x, 4))
        .find(|&p| !board.has_wall(board.cell(p), Direction::East))
        .expect("row 4 has an open side");
    let (rect, cell) = board_rect(&harness);
    let on_side = rect.min
        + egui::vec2(
            (f32::from(pos.x) + 1.0) * cell,
            (f32::from(pos.y) + 0.5) * cell,
        );
    click_at(&mut harness, on_side);
    let draft = harness.state().draft();
    let east = draft.board.cell(pos);
    let west = draft.board.cell(Pos::new(pos.x + 1, pos.y));
    assert!(draft.board.has_wall(east, Direction::East));
    assert!(
        draft.board.has_wall(west, Direction::West),
        "walls are set on both sides"
    );
    assert!(harness.state().is_dirty());

    click_menu_item(&mut harness, "Edit", "Undo");
    assert!(
        !harness
            .state()
            .draft()
            .board
            .has_wall(east, Direction::East)
    );
    assert!(!harness.state().is_dirty());

    harness.key_press_modifiers(Modifiers::COMMAND, egui::Key::Y);
    harness.run();
    assert!(
        harness
            .state()
            .draft()
            .board
            .has_wall(east, Direction::East),
        "redo"
    );
    harness.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    assert!(
        !harness
            .state()
            .draft()
            .board
            .has_wall(east, Direction::East),
        "undo by key"
    );
}

#[test]
fn the_robots_tool_places_the_chosen_robot_on_a_clicked_cell() {
    let mut harness = app_harness();
    assert!(
        harness
            .state()
            .draft()
            .robot_pos(RobotColor::Silver)
            .is_none()
    );
    harness.get_by_label("Robots").click();
    harness.run();
    harness.get_by_label("Silver").click();
    harness.run();
    let (rect, cell) = board_rect(&harness);
    let target = Pos::new(4, 9);
    assert!(harness.state().draft().robot_at(target).is_none());
    click_at(&mut harness, cell_center(rect, cell, target));
    assert_eq!(
        harness.state().draft().robot_pos(RobotColor::Silver),
        Some(target),
        "{:?} {rect:?} {:?} {:?}",
        harness.state().status_message(),
        harness.state().persisted_state().editor,
        harness.state().draft().robots
    );
    // Clicking the robot again with the same colour takes it off.
    click_at(&mut harness, cell_center(rect, cell, target));
    assert!(
        harness
            .state()
            .draft()
            .robot_pos(RobotColor::Silver)
            .is_none()
    );
}

#[test]
fn a_robot_on_a_closed_cell_is_shown_as_a_problem_and_blocks_solving() {
    let mut harness = app_harness();
    harness.get_by_label("Robots").click();
    harness.run();
    harness.get_by_label("Red").click();
    harness.run();
    let (rect, cell) = board_rect(&harness);
    // First close a cell, then put the red robot on it.
    harness.get_by_label("Closed cells").click();
    harness.run();
    let spot = Pos::new(2, 10);
    click_at(&mut harness, cell_center(rect, cell, spot));
    harness.get_by_label("Robots").click();
    harness.run();
    click_at(&mut harness, cell_center(rect, cell, spot));
    assert_eq!(
        harness.state().draft().robot_pos(RobotColor::Red),
        Some(spot)
    );
    assert!(harness.state().draft().to_puzzle().is_err());
    // The problem is named in the editor panel and in the solver panel.
    assert!(
        harness
            .query_by_label_contains(
                "Not solvable yet: The red robot at (2, 10) is on a closed cell"
            )
            .is_some()
    );
    assert!(
        harness
            .query_by_label_contains("Cannot solve: The red robot at (2, 10) is on a closed cell")
            .is_some()
    );
    harness.get_by_label("Solve").click();
    harness.run();
    assert!(
        harness.state().run_summary().is_none(),
        "nothing was started"
    );
}

#[test]
fn opening_a_shipped_board_replaces_the_board_and_asks_before_dropping_changes() {
    let mut harness = app_harness();
    // Start from an empty board, then change it so that it has unsaved changes.
    new_empty_board(&mut harness);
    let empty = harness.state().draft().clone();
    assert_eq!(
        empty.board.targets().len(),
        1,
        "only the goal's vortex is printed"
    );
    let (rect, cell) = board_rect(&harness);
    click_at(&mut harness, rect.min + egui::vec2(3.0 * cell, 2.5 * cell));
    assert!(harness.state().is_dirty());

    click_menu_item(&mut harness, "File", "Open from boards/...");
    harness.get_by_label("fogleman-22.ron").click();
    harness.run();
    // The question comes first; keeping the edits leaves everything as it was.
    harness.get_by_label("Keep editing").click();
    harness.run();
    assert!(harness.state().is_dirty());
    assert_eq!(harness.state().draft().robots, empty.robots);

    harness.get_by_label("fogleman-22.ron").click();
    harness.run();
    harness.get_by_label("Discard changes").click();
    harness.run();
    let expected = samples::fogleman_22();
    assert_eq!(harness.state().draft().to_puzzle().unwrap(), expected);
    assert!(
        harness
            .state()
            .file()
            .is_some_and(|f| f.ends_with("fogleman-22.ron"))
    );
    assert!(!harness.state().is_dirty());
    assert!(harness.query_by_label("fogleman-22.ron").is_some());
}

#[test]
fn play_mode_answers_to_the_keys() {
    let mut harness = app_harness();
    harness.key_press(egui::Key::P);
    harness.run();
    assert_eq!(harness.state().mode(), Mode::Play);
    harness.key_press(egui::Key::G);
    harness.run();
    assert_eq!(
        harness.state().play().unwrap().selected(),
        RobotColor::Green
    );
    harness.key_press(egui::Key::ArrowUp);
    harness.run();
    assert_eq!(harness.state().play().unwrap().moves().len(), 1);
    harness.key_press(egui::Key::ArrowRight);
    harness.run();
    assert_eq!(harness.state().play().unwrap().moves().len(), 2);
    harness.key_press(egui::Key::U);
    harness.run();
    assert_eq!(harness.state().play().unwrap().moves().len(), 1);
    // Moving robots does not change the board being designed.
    assert_eq!(
        harness.state().draft().to_puzzle().unwrap(),
        samples::fogleman_22()
    );
    // With a move played, N asks before the game goes.
    harness.key_press(egui::Key::N);
    harness.run();
    assert_eq!(
        harness.state().draft().to_puzzle().unwrap(),
        samples::fogleman_22()
    );
    harness.get_by_label("Deal a new game").click();
    harness.run();
    let dealt = harness.state().draft().to_puzzle().unwrap();
    assert_ne!(dealt, samples::fogleman_22(), "N deals a new game");
    assert_eq!(dealt.board(), samples::fogleman_22().board());
    assert!(harness.state().play().unwrap().moves().is_empty());
}

#[test]
fn the_help_window_lists_the_keys() {
    let mut harness = app_harness();
    harness.key_press(egui::Key::F1);
    harness.run();
    for (keys, _) in ricochet_lab::app::keys::help_rows() {
        assert!(harness.query_by_label(&keys).is_some(), "{keys} is listed");
    }
}

#[test]
fn the_working_board_and_settings_survive_a_restart() {
    let mut harness = app_harness();
    let (rect, cell) = board_rect(&harness);
    click_at(&mut harness, rect.min + egui::vec2(5.0 * cell, 6.5 * cell));
    harness.key_press(egui::Key::P);
    harness.run();
    let state = harness.state().persisted_state();
    let draft = harness.state().draft().clone();
    let restored = RicochetApp::with_state(egui::Context::default(), state);
    assert_eq!(restored.draft(), &draft);
    assert_eq!(restored.mode(), Mode::Play);
    assert!(
        restored.is_dirty(),
        "unsaved changes stay marked as unsaved"
    );
}

/// Presses at one point, moves through others a frame at a time, releases at the last.
fn drag_through(harness: &mut Harness<'_, RicochetApp>, points: &[Pos2]) {
    let (first, last) = (points[0], points[points.len() - 1]);
    crate::common::press_at(harness, first);
    for &point in &points[1..] {
        harness.event(egui::Event::PointerMoved(point));
    }
    crate::common::release_at(harness, last);
    harness.run();
}

#[test]
fn dragging_along_cell_sides_draws_a_wall_line_undone_in_one_step() {
    let mut harness = app_harness();
    new_empty_board(&mut harness);
    let (rect, cell) = board_rect(&harness);
    // Along the line between rows 4 and 5, from column 2 to column 6.
    let points: Vec<Pos2> = (2..=6)
        .flat_map(|x| [0.3, 0.7].map(|f| rect.min + egui::vec2((x as f32 + f) * cell, 5.0 * cell)))
        .collect();
    drag_through(&mut harness, &points);
    let board = &harness.state().draft().board;
    for x in 2..=6 {
        let cell_above = board.cell(Pos::new(x, 4));
        assert!(
            board.has_wall(cell_above, Direction::South),
            "wall under (x, 4) for x = {x}"
        );
    }
    assert_eq!(board.interior_walls().len(), 5);
    harness.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    assert!(
        harness.state().draft().board.interior_walls().is_empty(),
        "one undo step"
    );
}

#[test]
fn a_robot_can_be_dragged_to_another_cell() {
    let mut harness = app_harness();
    harness.get_by_label("Move").click();
    harness.run();
    let (rect, cell) = board_rect(&harness);
    let from = harness
        .state()
        .draft()
        .robot_pos(RobotColor::Green)
        .unwrap();
    let to = Pos::new(6, 10);
    let a = cell_center(rect, cell, from);
    let b = cell_center(rect, cell, to);
    let points: Vec<Pos2> = (0..=8).map(|i| a + (b - a) * (i as f32 / 8.0)).collect();
    drag_through(&mut harness, &points);
    assert_eq!(
        harness.state().draft().robot_pos(RobotColor::Green),
        Some(to)
    );
}

#[test]
fn saving_through_the_path_field_writes_the_board_and_clears_the_mark() {
    let mut harness = app_harness();
    // Without the system's dialogs the in-app window asks for the path.
    click_menu_item(&mut harness, "View", "Use the system's file dialogs");
    harness.key_press(egui::Key::Escape);
    harness.run();
    let (rect, cell) = board_rect(&harness);
    click_at(&mut harness, rect.min + egui::vec2(5.0 * cell, 6.5 * cell));
    assert!(harness.state().is_dirty());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("designed.ron");
    click_menu_item(&mut harness, "File", "Save");
    // Replace the suggested path.
    replace_text(&mut harness, None, path.to_str().unwrap());
    harness.get_by_label("Save to path").click();
    harness.run();
    assert!(!harness.state().is_dirty());
    assert_eq!(harness.state().file(), Some(path.as_path()));
    let saved = ricochet_lab::model::formats::load_source(path.to_str().unwrap()).unwrap();
    assert_eq!(&saved, &harness.state().draft().to_puzzle().unwrap());
}

#[test]
fn quitting_with_unsaved_changes_asks_first() {
    let mut harness = app_harness();
    let (rect, cell) = board_rect(&harness);
    click_at(&mut harness, rect.min + egui::vec2(5.0 * cell, 6.5 * cell));
    click_menu_item(&mut harness, "File", "Quit");
    assert!(harness.query_by_label("Unsaved changes").is_some());
    harness.get_by_label("Keep editing").click();
    harness.run();
    assert!(harness.query_by_label("Unsaved changes").is_none());
    assert!(harness.state().is_dirty());
}

#[test]
fn the_import_field_takes_the_keys_and_a_pending_question_holds_the_shortcuts() {
    let mut harness = app_harness();
    let (rect, cell) = board_rect(&harness);
    click_at(&mut harness, rect.min + egui::vec2(5.0 * cell, 6.5 * cell));
    assert!(harness.state().is_dirty());
    click_menu_item(&mut harness, "File", "Import game id or Cox text...");
    // The field has the focus as the window opens: typing goes there, not to the shortcuts
    // (E would switch to the editor, S would solve).
    let field = harness.get_by_role(egui::accesskit::Role::MultilineTextInput);
    assert!(field.is_focused(), "the import field takes the focus");
    field.type_text("7650+42+E2302B12+C9");
    harness.run();
    assert!(
        harness.state().run_summary().is_none(),
        "typing started no solve"
    );
    harness.get_by_label("Import").click();
    harness.run();
    assert!(harness.query_by_label("Unsaved changes").is_some());
    // While the question waits, S does not start a solve behind it.
    harness.key_press(egui::Key::S);
    harness.run();
    assert!(
        harness.state().run_summary().is_none(),
        "no solve behind the question"
    );
    harness.get_by_label("Discard changes").click();
    harness.run_ok();
    assert!(harness.query_by_label("Unsaved changes").is_none());
    harness.key_press(egui::Key::S);
    harness.run_ok();
    assert!(
        harness.state().run_summary().is_some(),
        "S solves once the question is answered"
    );
}

#[test]
fn the_board_exports_as_an_image_for_print_through_the_file_menu() {
    let mut harness = app_harness();
    // Without the system's dialogs the in-app window asks for the path.
    click_menu_item(&mut harness, "View", "Use the system's file dialogs");
    harness.key_press(egui::Key::Escape);
    harness.run();
    let dir = tempfile::tempdir().unwrap();
    for name in ["board.svg", "board.png"] {
        let path = dir.path().join(name);
        click_menu_item(&mut harness, "File", "Export board image...");
        replace_text(&mut harness, None, path.to_str().unwrap());
        harness.get_by_label("Save to path").click();
        harness.run();
        let bytes = std::fs::read(&path).unwrap();
        if name.ends_with(".svg") {
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.contains(r#"class="wall""#), "{text}");
        } else {
            let image = image::load_from_memory(&bytes).unwrap();
            assert!(image.width() > 1000, "{} px", image.width());
        }
        // Exporting is not saving: the board keeps its own file and state.
        assert_eq!(harness.state().file(), None);
        harness.key_press(egui::Key::Escape);
        harness.run();
    }
}
