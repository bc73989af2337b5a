//! How the app looks and holds still, checked through the UI as a user sees it: a settings
//! file that cannot stop the app, default paths in the user's folder, shortcuts whatever has
//! the focus, controls that stay in place for every solver, tool and message, and a board that
//! keeps the room in small windows.

use crate::common::{choose_solver, harness_from, harness_on, import};
use egui::Modifiers;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::document::draft::{Draft, write_draft};
use ricochet_lab::app::settings::file::repair_settings_file;
use ricochet_lab::app::{RicochetApp, files, settings::AppState};
use ricochet_lab::model::formats::game_id;
use ricochet_lab::model::samples;
use ricochet_lab::model::tiles::random_game;
use std::collections::HashMap;

fn eight_move_game() -> String {
    let (puzzle, _) = random_game(2, 4).unwrap();
    game_id::write(&puzzle).unwrap()
}

fn no_dialogs() -> AppState {
    AppState {
        native_dialogs: false,
        ..AppState::default()
    }
}

// 27. The settings file can stop the app for good.
#[test]
fn a_settings_file_that_stopped_the_app_is_put_right_and_the_app_starts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app.ron");
    // A zoom factor of NaN and a window far off any screen, as a hand-edited file had them.
    let memory = ron::to_string(&egui::Memory::default()).unwrap();
    let at = memory.find("zoom_factor:").unwrap() + "zoom_factor:".len();
    let end = at + memory[at..].find([',', ')']).unwrap();
    let memory = format!("{}NaN{}", &memory[..at], &memory[end..]);
    let window = "(normal_geometry: (outer_position_pixels: Some((x: 1e30, y: 1e30)), \
                  scale_factor: 1.0, inner_size_points: (x: 1360.0, y: 900.0)), \
                  fullscreen: false, maximized: false)";
    let entries: HashMap<&str, String> = [("egui", memory), ("window", window.to_string())]
        .into_iter()
        .collect();
    std::fs::write(&path, ron::to_string(&entries).unwrap()).unwrap();

    let report = repair_settings_file(&path);
    let text = std::fs::read_to_string(&path).unwrap();
    let entries: HashMap<String, String> = ron::from_str(&text).unwrap();
    assert!(
        !entries.contains_key("window"),
        "the window's place is forgotten"
    );
    let memory: egui::Memory = ron::from_str(&entries["egui"]).unwrap();
    assert_eq!(memory.options.zoom_factor, 1.0);

    // The app starts on what eframe would read now, and says what was put right.
    let narrow_report = report.clone();
    let narrow_memory = memory.clone();
    let mut harness = Harness::builder()
        .with_size([1360.0, 900.0])
        .build_eframe(move |cc| {
            cc.egui_ctx.memory_mut(|m| *m = memory);
            let mut app = RicochetApp::with_state(cc.egui_ctx.clone(), AppState::default());
            app.report_settings(&report);
            app
        });
    harness.run();
    assert!(harness.query_by_label("Solve").is_some(), "the app is up");
    let status = harness
        .state()
        .status_message()
        .unwrap_or_default()
        .to_string();
    assert!(status.contains("zoom factor"), "{status}");
    assert!(status.contains("window"), "{status}");

    // In a narrow window the message ends in "…" at the window's edge, rather than running
    // off it.
    let width = 640.0;
    let mut harness = Harness::builder()
        .with_size([width, 700.0])
        .build_eframe(move |cc| {
            cc.egui_ctx.memory_mut(|m| *m = narrow_memory);
            let mut app = RicochetApp::with_state(cc.egui_ctx.clone(), AppState::default());
            app.report_settings(&narrow_report);
            app
        });
    harness.run();
    let shown = harness.get_by_label_contains("zoom factor").rect();
    assert!(shown.max.x <= width, "the message runs to {}", shown.max.x);
}

#[test]
fn a_stored_board_with_robots_on_one_cell_is_reported() {
    let mut draft = Draft::from_puzzle(&samples::fogleman_22());
    let first = draft.robots[0].pos;
    draft.robots[1].pos = first;
    let state = AppState {
        board: Some(write_draft(&draft)),
        ..no_dialogs()
    };
    let harness = harness_from(state, [1360.0, 900.0]);
    let status = harness.state().status_message().unwrap_or_default();
    assert!(status.contains("left out"), "{status}");
    assert!(status.contains(&first.to_string()), "{status}");
}

// 11. Default paths inside the program's folder.
#[test]
fn save_as_proposes_the_users_folder_never_the_shipped_boards() {
    let user = files::user_folder().expect("a home folder");
    let shipped = files::boards_dir().expect("the source tree has boards/");
    let mut harness = harness_from(no_dialogs(), [1360.0, 900.0]);
    // A new board has no file: the proposal is in the user's folder.
    harness.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, egui::Key::S);
    harness.run();
    let field = harness.get_by_role_and_label(egui::accesskit::Role::TextInput, "Path");
    let proposed = std::path::PathBuf::from(field.value().unwrap_or_default());
    assert!(proposed.starts_with(&user), "{proposed:?}");
    assert!(!proposed.starts_with(&shipped), "{proposed:?}");
}

// 20. Global shortcuts stop working while a button has keyboard focus.
#[test]
fn shortcuts_work_while_a_button_has_the_focus() {
    let mut harness = harness_from(no_dialogs(), [1360.0, 900.0]);
    harness.get_by_label("Solve").focus();
    harness.run();
    assert!(
        harness.ctx.memory(|m| m.focused().is_some()),
        "a button has the focus"
    );
    assert!(harness.query_by_label("Keys").is_none());
    harness.key_press(egui::Key::F1);
    harness.run();
    assert!(harness.query_by_label("Keys").is_some(), "F1 opened Help");
}

// 19. F1 does not close Help.
#[test]
fn f1_shows_and_hides_help() {
    let mut harness = harness_from(no_dialogs(), [1360.0, 900.0]);
    harness.key_press(egui::Key::F1);
    harness.run();
    assert!(harness.query_by_label("Keys").is_some());
    harness.key_press(egui::Key::F1);
    harness.run();
    assert!(harness.query_by_label("Keys").is_none());
}

// 6. Controls move.
#[test]
fn solve_and_cancel_stay_in_place_for_every_solver() {
    // The narrow window gives the dock its least width, where a long source line (Fast
    // IDA*'s) once pushed the whole dock out of its left edge.
    for size in [[1360.0, 900.0], [960.0, 700.0]] {
        let mut harness = harness_from(no_dialogs(), size);
        let mut places = Vec::new();
        for kind in ricochet_lab::solver::SOLVERS {
            choose_solver(&mut harness, kind.name);
            harness.run();
            let heading = harness.get_by_label("Solvers").rect();
            let solve = harness.get_by_label("Solve").rect();
            let cancel = harness.get_by_label("Cancel").rect();
            let tab = harness.get_by_label("Run").rect();
            places.push((kind.name, heading.min, solve.min, cancel.min, tab.min));
        }
        let (_, heading, solve, cancel, tab) = places[0];
        for (name, h, s, c, t) in &places {
            assert_eq!(
                (*h, *s, *c, *t),
                (heading, solve, cancel, tab),
                "{name} moves them in a {size:?} window: {places:?}"
            );
        }
    }
}

#[test]
fn the_editor_holds_still_across_tools_and_board_problems() {
    let mut harness = harness_from(no_dialogs(), [1360.0, 900.0]);
    let resize = |h: &Harness<'_, RicochetApp>| h.get_by_label("Resize board").rect().min;
    let walls = resize(&harness);
    for tool in ["Robots", "Targets", "Move", "Walls"] {
        harness.get_by_label(tool).click();
        harness.run();
        assert_eq!(resize(&harness), walls, "the {tool} tool moves the editor");
    }
    // A board with no robots is not solvable; the line saying so takes reserved room.
    harness.get_by_label("Clear robots").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("Not solvable yet")
            .is_some()
    );
    assert_eq!(resize(&harness), walls, "the problem line moves the editor");
}

// 28. The board is tiny in small windows.
#[test]
fn the_board_keeps_the_room_in_small_windows() {
    for (size, least) in [([1200.0, 800.0], 450.0), ([900.0, 600.0], 280.0)] {
        let harness = harness_from(no_dialogs(), size);
        let board = harness.get_by_label("Board").rect();
        assert!(
            board.width().min(board.height()) >= least,
            "{size:?}: the board is {:?}",
            board.size()
        );
    }
}

// 23. Unticking Solution path does not hide the playback path.
#[test]
fn unticking_solution_path_hides_the_played_back_path() {
    let mut harness = harness_on(&samples::fogleman_22(), [1360.0, 900.0], |s| {
        s.native_dialogs = false;
    });
    import(&mut harness, &eight_move_game());
    crate::common::solve_with(&mut harness, "bfs");
    harness.run();
    harness.key_press(egui::Key::End);
    harness.run();
    assert!(harness.state().playback().is_some());
    assert!(harness.state().shown_path_slides() > 0, "the path shows");
    harness.get_by_label("Overlays").click();
    harness.run();
    harness.get_by_label("Solution path").click();
    harness.run();
    assert_eq!(harness.state().shown_path_slides(), 0, "the path is hidden");
}

// 24. An invalid board is not outlined in red, though the README says it is.
#[test]
fn an_invalid_board_is_outlined_in_red() {
    let mut harness = harness_from(no_dialogs(), [1360.0, 900.0]);
    assert_eq!(harness.state().invalid_outlines(), 0, "a valid board");
    // No robots: a problem no single cell shows, so the board itself is outlined.
    harness.get_by_label("Clear robots").click();
    harness.run();
    assert_eq!(harness.state().invalid_outlines(), 1);
    harness.key_press_modifiers(Modifiers::COMMAND, egui::Key::Z);
    harness.run();
    assert_eq!(harness.state().invalid_outlines(), 0, "undone, valid again");
}

// 26. "Click a cell to print the target".
#[test]
fn the_targets_tool_says_what_a_click_does() {
    let mut harness = harness_from(no_dialogs(), [1360.0, 900.0]);
    harness.get_by_label("Targets").click();
    harness.run();
    assert!(harness.query_by_label_contains("print").is_none());
    assert!(
        harness
            .query_by_label_contains("Click a cell to put the chosen target there")
            .is_some()
    );
}

// 21. The tile dropdowns keep old values on boards not built from tiles.
#[test]
fn the_tile_choices_say_whether_the_open_board_is_built_from_tiles() {
    let mut harness = harness_on(&samples::fogleman_22(), [1360.0, 900.0], |_| {});
    assert!(
        harness
            .query_by_label("The open board is not built from the real tiles.")
            .is_some()
    );
    harness.get_by_label("Random standard board").scroll_to_me();
    harness.run();
    harness.get_by_label("Random standard board").click();
    harness.run();
    assert!(
        harness
            .query_by_label("The open board is built from these tiles.")
            .is_some()
    );
    // A board resized from a standard one is no longer built from the tiles.
    for field in ["Width", "Height"] {
        harness.get_by_label(field).click();
        harness.run();
        harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        harness.get_by_label(field).type_text("20");
        harness.key_press(egui::Key::Enter);
        harness.run();
    }
    harness.get_by_label("Resize board").click();
    harness.run();
    assert_eq!(harness.state().draft().board.width(), 20);
    assert!(
        harness
            .query_by_label("The open board is not built from the real tiles.")
            .is_some()
    );
}

// 18. The solver list shows 8.5 of 11 entries; its hover tooltip covers its neighbours.
#[test]
fn the_solver_list_shows_every_solver_and_describes_one_clear_of_the_others() {
    use ricochet_lab::solver::SOLVERS;
    let mut harness = harness_from(no_dialogs(), [1360.0, 900.0]);
    harness.get_by_label("Solver").click();
    harness.run();
    // The last solver is chosen by a click where it stands, with no scrolling.
    let last = SOLVERS.last().unwrap();
    harness.get_by_label(last.title).click();
    harness.run();
    assert_eq!(
        harness.state().persisted_state().solver.solver.name(),
        last.name
    );

    // Pointing at an entry describes its solver without covering any entry.
    harness.get_by_label("Solver").click();
    harness.run();
    let bfs = ricochet_lab::solver::kind("bfs").unwrap();
    harness.get_by_label(bfs.title).hover();
    harness.run();
    let description = harness.get_by_label(bfs.description).rect();
    for kind in SOLVERS {
        let entry = harness
            .query_all_by_label(kind.title)
            .map(|n| n.rect())
            .max_by(|a, b| a.top().total_cmp(&b.top()))
            .unwrap();
        assert!(
            !description.intersects(entry),
            "the description {description:?} covers {} at {entry:?}",
            kind.title
        );
    }
}

// 12. The empty board's starting vortex target is not in the Active-target list and vanishes;
// a target combobox stays open after Escape.
#[test]
fn the_empty_boards_vortex_is_a_listed_target_and_escape_closes_the_list() {
    let mut harness = harness_from(no_dialogs(), [1360.0, 900.0]);
    harness.key_press_modifiers(Modifiers::COMMAND, egui::Key::N);
    harness.run();
    harness.get_by_label("Empty board").click();
    harness.run();
    let draft = harness.state().draft().clone();
    assert!(draft.robots.len() > 1, "an empty board was opened");
    let vortex = *draft
        .board
        .target_at(draft.goal.pos)
        .expect("the goal is printed");
    assert_eq!(
        harness.state().invalid_outlines(),
        0,
        "the empty board is valid"
    );

    let listed = |h: &Harness<'_, RicochetApp>| {
        h.query_all_by_role(egui::accesskit::Role::ListBox).count() > 0
    };
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "Active target")
        .click();
    harness.run();
    assert!(listed(&harness), "the list opens");
    let entry = ricochet_lab::app::document::draft::describe_target(&vortex);
    assert!(
        harness.query_all_by_label(&entry).count() >= 1,
        "the vortex {entry:?} is listed"
    );
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert!(!listed(&harness), "Escape closes the list");
}
