//! What a new user met in a real window, each driven as they drove it: an empty design after
//! *Clear targets*, a Cox import's note, the status line after an edit cancels a solve, Escape
//! on every window, and the solver's path in play mode.

use crate::common::{app_harness, click_menu_item, harness_on, start_long_solve, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::app::command::Command;
use ricochet_lab::app::document::draft::Edit;
use ricochet_lab::model::formats::cox;
use ricochet_lab::model::samples;
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::solver::SolverId;
use std::time::Duration;

#[test]
fn clearing_the_targets_leaves_no_target_drawn_or_named() {
    let mut harness = app_harness();
    assert!(harness.state().shown_goal().is_some());
    harness.get_by_label("Clear targets").click();
    harness.run_ok();
    assert!(harness.state().draft().board.targets().is_empty());
    assert_eq!(
        harness.state().shown_goal(),
        None,
        "no target is drawn on a board without targets"
    );
    assert!(
        harness.query_by_label_contains("any at").is_none(),
        "the active target is not named as a target that is not there"
    );
}

/// The goal follows the targets: once its target is cleared, nothing is solved, and the panel
/// says why in the editor's words.
#[test]
fn a_cleared_target_is_not_solved_as_the_goal() {
    let mut harness = app_harness();
    harness.get_by_label("Clear targets").click();
    harness.run_ok();
    harness.get_by_label("Solve").click();
    harness.run_ok();
    assert!(
        harness.state().run_summary().is_none(),
        "a board whose goal has no target is not solved"
    );
    assert!(harness.state().draft().to_puzzle().is_err());
    assert!(
        harness
            .query_all_by_label_contains("No active target")
            .next()
            .is_some(),
        "the panel says there is no active target"
    );
}

#[test]
fn a_cox_import_says_imported_once() {
    let mut harness = app_harness();
    let text = cox::write(&samples::fogleman_22()).unwrap();
    harness.get_by_label("File").click();
    harness.run();
    harness
        .get_by_label("Import game id or Cox text...")
        .click();
    harness.run();
    let field = egui::accesskit::Role::MultilineTextInput;
    harness.get_by_role(field).click();
    harness.run();
    harness.get_by_role(field).type_text(&text);
    harness.run();
    harness.get_by_label("Import").click();
    harness.run_ok();
    let status = harness.state().status_message().unwrap_or_default();
    assert!(status.starts_with("Imported"), "{status}");
    assert!(!status.contains("Imported Imported"), "{status}");
    assert!(
        harness
            .query_by_label_contains("Imported Imported")
            .is_none()
    );
}

#[test]
fn an_edit_that_cancels_a_solve_takes_its_solving_note_away() {
    let mut harness = app_harness();
    start_long_solve(&mut harness, 1);
    assert!(
        harness
            .state()
            .status_message()
            .is_some_and(|m| m.starts_with("Solving with")),
        "{:?}",
        harness.state().status_message()
    );
    harness
        .state_mut()
        .apply_command(Command::edit(Edit::ClearWalls));
    harness.run_ok();
    assert!(!harness.state().run_summary().is_some_and(|r| r.running));
    let status = harness.state().status_message().unwrap_or_default();
    assert!(!status.contains("Solving with"), "{status}");
    assert!(harness.query_by_label_contains("Solving with").is_none());
}

fn escape_closes(harness: &mut Harness<'_, RicochetApp>, window: &str) {
    assert!(harness.state().any_window_open(), "{window} is open");
    harness.key_press(egui::Key::Escape);
    harness.run_ok();
    assert!(!harness.state().any_window_open(), "Escape closes {window}");
}

#[test]
fn escape_closes_every_window() {
    let mut harness = app_harness();
    for (menu, item, window) in [
        ("File", "New...", "New board"),
        ("File", "Open from boards/...", "Open a board"),
        ("File", "Import game id or Cox text...", "Import"),
        ("Help", "Keys and help", "Help"),
        ("View", "Experiments...", "Experiments"),
        ("View", "Analyse board...", "Analyse board"),
        ("View", "Add engine...", "Add engine"),
    ] {
        click_menu_item(&mut harness, menu, item);
        harness.run_ok();
        escape_closes(&mut harness, window);
    }
    // The unsaved-changes question: Escape answers Cancel and keeps the edit.
    harness
        .state_mut()
        .apply_command(Command::edit(Edit::ClearRobots));
    harness.run_ok();
    assert!(harness.state().is_dirty());
    click_menu_item(&mut harness, "File", "Quit");
    harness.run_ok();
    escape_closes(&mut harness, "the unsaved-changes question");
    assert!(harness.state().is_dirty(), "the edit is kept");
}

#[test]
fn play_mode_does_not_draw_the_solvers_path() {
    let (puzzle, _) = random_game(2, 4).unwrap();
    let mut harness = harness_on(&puzzle, [1360.0, 900.0], |state| {
        state.solver.solver = SolverId::Bfs.into();
    });
    harness.get_by_label("Solve").click();
    step_until(
        &mut harness,
        Duration::from_secs(60),
        crate::common::finished,
    );
    harness.run_ok();
    let drawn = |h: &mut Harness<'_, RicochetApp>| {
        h.state().shown_path_slides() + h.state_mut().shown_overlay().trails.len()
    };
    // The whole solution, as End shows it.
    harness.key_press(egui::Key::End);
    harness.run_ok();
    assert!(
        drawn(&mut harness) > 0,
        "the solution's path is drawn while designing"
    );
    harness.get_by_label("Play mode").click();
    harness.run_ok();
    assert_eq!(drawn(&mut harness), 0, "a game does not show the answer");
}

#[test]
fn tab_from_the_new_board_window_stays_in_the_window() {
    let mut harness = app_harness();
    click_menu_item(&mut harness, "File", "New...");
    harness.run_ok();
    let window = harness
        .get_by_label("Empty board")
        .rect()
        .union(harness.get_by_label("Random custom board").rect());
    harness.key_press(egui::Key::Tab);
    harness.run_ok();
    let focused = harness.query_by(|node| node.is_focused());
    let rect = focused.map(|node| node.rect());
    // The window's fields sit above its buttons, within the buttons' width.
    assert!(
        rect.is_some_and(|r| r.left() >= window.left() - 5.0
            && r.right() <= window.left() + 400.0
            && r.bottom() <= window.bottom()
            && r.top() >= window.top() - 120.0),
        "Tab goes on inside the New board window, not to {rect:?}"
    );
}

#[test]
fn every_f11_press_is_a_step_even_two_in_one_frame() {
    let (puzzle, _) = random_game(2, 4).unwrap();
    let mut harness = harness_on(&puzzle, [1360.0, 900.0], |state| {
        state.debug.enabled = true;
        state.debug.start_paused = true;
    });
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        crate::common::paused_at(app, 1)
    });
    // Thirty presses, two in each frame, as a slow renderer delivers them.
    for _ in 0..15 {
        harness.key_press(egui::Key::F11);
        harness.key_press(egui::Key::F11);
        harness.step();
    }
    step_until(&mut harness, Duration::from_secs(20), |app| {
        crate::common::paused_at(app, 31)
    });
    std::thread::sleep(Duration::from_millis(200));
    harness.step();
    assert_eq!(
        harness.state().debugger().unwrap().frame().view.events,
        31,
        "thirty presses, thirty steps"
    );
}

#[test]
fn the_newest_log_line_is_the_event_shown_while_running() {
    let mut harness = app_harness();
    crate::common::start_debugging(&mut harness, crate::common::HARD_GAME);
    harness.get_by_label("Continue").click();
    harness.run_steps(2);
    let mut checked = 0;
    for _ in 0..40 {
        harness.step();
        std::thread::sleep(Duration::from_millis(5));
        let debugger = harness.state().debugger().unwrap();
        if debugger.is_paused() || debugger.is_scrubbed_back() {
            continue;
        }
        let shown = debugger.frame().view.events;
        let newest = debugger.log().first().map(|r| r.index + 1);
        assert_eq!(
            newest,
            Some(shown),
            "the log's newest event is the one shown"
        );
        checked += 1;
    }
    assert!(checked > 0);
}

fn shipped(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("boards")
        .join(name)
}

/// A file as the window system hands it over when it is dropped.
#[derive(Debug)]
struct Dropped(std::path::PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn drop_file(harness: &mut Harness<'_, RicochetApp>, path: &std::path::Path) {
    harness
        .input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(path.to_path_buf())));
    harness.run_ok();
}

#[test]
fn a_dropped_puzzle_file_opens_asking_first_when_there_are_unsaved_edits() {
    let mut harness = app_harness();
    drop_file(&mut harness, &shipped("real-21.ron"));
    assert!(
        harness
            .state()
            .file()
            .is_some_and(|f| f.ends_with("real-21.ron")),
        "{:?}",
        harness.state().status_message()
    );
    assert_eq!(harness.state().window_title(), "real-21.ron — Ricochet Lab");

    // An edit: the title marks it, and a dropped file asks before it replaces the board.
    harness
        .state_mut()
        .apply_command(Command::edit(Edit::ClearRobots));
    harness.run_ok();
    assert_eq!(
        harness.state().window_title(),
        "• real-21.ron — Ricochet Lab"
    );
    drop_file(&mut harness, &shipped("small-6x6.ron"));
    assert!(
        harness.state().any_window_open(),
        "the unsaved-changes question"
    );
    assert!(
        harness
            .state()
            .file()
            .is_some_and(|f| f.ends_with("real-21.ron"))
    );
    harness.get_by_label("Discard changes").click();
    harness.run_ok();
    assert!(
        harness
            .state()
            .file()
            .is_some_and(|f| f.ends_with("small-6x6.ron"))
    );

    // Cox text and a text file holding a game id open too, whatever their extension.
    let dir = tempfile::tempdir().unwrap();
    let (puzzle, _) = random_game(2, 4).unwrap();
    let id = ricochet_lab::model::formats::game_id::write(&puzzle).unwrap();
    let id_file = dir.path().join("game.id");
    std::fs::write(&id_file, format!("{id}\n")).unwrap();
    drop_file(&mut harness, &id_file);
    assert_eq!(harness.state().draft().to_puzzle().unwrap(), puzzle);
    let cox_file = dir.path().join("deck.txt");
    let cox_text = cox::write(&samples::fogleman_22()).unwrap();
    std::fs::write(&cox_file, &cox_text).unwrap();
    drop_file(&mut harness, &cox_file);
    let deck = cox::parse(&cox_text).unwrap();
    assert_eq!(harness.state().draft().to_puzzle().unwrap(), deck);
    // A file that is no puzzle is named in the status line; the board stays.
    let junk = dir.path().join("notes.txt");
    std::fs::write(&junk, "not a puzzle").unwrap();
    drop_file(&mut harness, &junk);
    let status = harness.state().status_message().unwrap_or_default();
    assert!(status.contains("notes.txt"), "{status}");
    assert_eq!(harness.state().draft().to_puzzle().unwrap(), deck);
}

#[test]
fn choosing_a_tool_does_not_move_the_panel_below() {
    for size in [[1024.0, 700.0], [1360.0, 900.0]] {
        let mut harness = harness_on(&samples::fogleman_22(), size, |_| {});
        let below = |h: &Harness<'_, RicochetApp>| h.get_by_label("Ricochet rule").rect();
        let first = below(&harness);
        for tool in [
            "Robots",
            "Targets",
            "Active target",
            "Move",
            "Closed cells",
            "Walls",
        ] {
            harness
                .get_by_role_and_label(egui::accesskit::Role::Button, tool)
                .click();
            harness.run_ok();
            assert_eq!(below(&harness), first, "{tool} tool at {size:?}");
        }
    }
}

#[test]
fn open_offers_the_folder_of_the_last_puzzle_opened_not_of_the_last_export() {
    let mut harness = harness_on(&samples::fogleman_22(), [1360.0, 900.0], |_| {});
    let boards = shipped("");
    click_menu_item(&mut harness, "File", "Open...");
    crate::common::replace_text(
        &mut harness,
        Some("Path"),
        &shipped("small-6x6.ron").display().to_string(),
    );
    harness.get_by_label("Open path").click();
    harness.run_ok();
    assert!(
        harness
            .state()
            .file()
            .is_some_and(|f| f.ends_with("small-6x6.ron"))
    );

    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("exported.png");
    harness.state_mut().apply_command(Command::SaveTo(
        export.clone(),
        ricochet_lab::app::command::SaveKind::Image,
    ));
    harness.run_ok();
    assert!(export.exists());

    click_menu_item(&mut harness, "File", "Open...");
    let offered = harness
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "Path")
        .value()
        .unwrap_or_default();
    assert!(
        std::path::Path::new(&offered) == boards,
        "Open offers {offered}, not the boards folder {}",
        boards.display()
    );
}

#[test]
fn a_wall_stroke_on_a_64x64_board_adds_no_stray_stubs() {
    use ricochet_lab::app::document::draft::{Draft, write_draft};
    use ricochet_lab::model::{Direction, Pos};
    let state = ricochet_lab::app::settings::AppState {
        board: Some(write_draft(&Draft::empty(64, 64).unwrap())),
        native_dialogs: false,
        ..Default::default()
    };
    let mut harness = crate::common::harness_from(state, [1360.0, 900.0]);
    let rect = harness.get_by_label("Board").rect();
    let cell = rect.width() / 64.0;
    // Along the line between rows 30 and 31, from column 20 to column 30, with the small
    // wobble across the line a hand makes: one pointer move a frame.
    let at = |x: f32, wobble: f32| rect.min + egui::vec2(x * cell, (31.0 + wobble) * cell);
    let start = at(20.5, 0.0);
    crate::common::press_at(&mut harness, start);
    harness.step();
    let mut last = start;
    for i in 1..=40 {
        let wobble = [0.0, 0.15, -0.15, 0.1][i % 4];
        last = at(20.5 + i as f32 * 0.25, wobble);
        harness.event(egui::Event::PointerMoved(last));
        harness.step();
    }
    crate::common::release_at(&mut harness, last);
    harness.run_ok();
    let board = &harness.state().draft().board;
    let walls = board.interior_walls();
    let stray: Vec<&(Pos, Direction)> = walls
        .iter()
        .filter(|(pos, side)| {
            let on_line = match side {
                Direction::South => pos.y == 30,
                Direction::North => pos.y == 31,
                _ => false,
            };
            !on_line
        })
        .collect();
    assert!(stray.is_empty(), "stray walls {stray:?}");
    assert!(walls.len() >= 9, "the stroke drew its line: {walls:?}");
}

/// Tab goes through the controls in reading order: the tools on the left come before the
/// dock on the right (the panels were made dock first, so Tab went there first).
#[test]
fn tab_visits_the_left_panel_before_the_dock() {
    let size = [1024.0, 700.0];
    let mut harness = harness_on(&samples::fogleman_22(), size, |_| {});
    let mut centres = Vec::new();
    for _ in 0..40 {
        harness.key_press(egui::Key::Tab);
        harness.run_ok();
        let focused = harness.ctx.memory(|memory| memory.focused());
        if let Some(rect) = focused
            .and_then(|id| harness.ctx.read_response(id))
            .map(|response| response.rect)
        {
            centres.push(rect.center());
        }
    }
    // Below the menu bar: the left panel ends a quarter of the way across, the dock starts
    // two thirds of the way.
    let below_menu = |p: &&egui::Pos2| p.y > 40.0;
    let first_left = centres
        .iter()
        .filter(below_menu)
        .position(|p| p.x < size[0] * 0.25);
    let first_dock = centres
        .iter()
        .filter(below_menu)
        .position(|p| p.x > size[0] * 0.6);
    assert!(
        first_left.is_some() && first_left < first_dock.or(Some(usize::MAX)),
        "Tab order: {centres:?}"
    );
}
