//! Views that never go stale and a layout that holds still, checked through the UI as a user
//! sees them: size fields and results follow the board that is open, a paused debugger does
//! not use up its time limit, tables fit their panel, panels do not move under the pointer,
//! empty plots say so, and the small things (Enter in a path field, the Open list, tooltips,
//! the New window's robot count, the status line's name), rows that wrap inside their panel.

use crate::common::{
    app_harness, choose_solver, click_at, click_menu_item, finished, harness_from, import,
    paused_at, replace_text, start_debugging, start_long_solve, step_to_event, step_until,
};
use egui::{Modifiers, Pos2, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::app::document::mode::Mode;
use ricochet_lab::app::settings::AppState;
use ricochet_lab::model::formats::game_id;
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::solver::stateless::StatelessPicture;
use ricochet_lab::solver::{Outcome, SolverId};
use std::time::Duration;

fn open_shipped(harness: &mut Harness<'_, RicochetApp>, name: &str) {
    click_menu_item(harness, "File", "Open from boards/...");
    harness.get_by_label(name).click();
    harness.run();
    if harness.query_by_label("Discard changes").is_some() {
        harness.get_by_label("Discard changes").click();
        harness.run();
    }
    assert!(
        harness.state().file().is_some_and(|f| f.ends_with(name)),
        "{name} is open"
    );
}

fn eight_move_game() -> String {
    let (puzzle, _) = random_game(2, 4).unwrap();
    game_id::write(&puzzle).unwrap()
}

// 1. Board-size fields go stale.
#[test]
fn resize_keeps_the_size_of_the_board_that_was_opened() {
    let mut harness = app_harness();
    open_shipped(&mut harness, "small-6x6.ron");
    let board = &harness.state().draft().board;
    assert_eq!((board.width(), board.height()), (6, 6));
    // The size fields show the open board's size, so Resize without a change keeps it.
    harness.get_by_label("Resize board").click();
    harness.run();
    let board = &harness.state().draft().board;
    assert_eq!((board.width(), board.height()), (6, 6));
}

// 2. Results outlive their board.
#[test]
fn opening_another_board_drops_the_last_result() {
    let mut harness = app_harness();
    import(&mut harness, &eight_move_game());
    crate::common::solve_with(&mut harness, "bfs");
    assert!(harness.query_by_label_contains("Solved in 8").is_some());
    open_shipped(&mut harness, "small-6x6.ron");
    harness.run();
    assert!(
        harness.query_by_label_contains("Solved in").is_none(),
        "a result of another board is not shown"
    );
    assert!(harness.state().run_summary().is_none());
    assert!(harness.state().playback().is_none());
}

#[test]
fn a_cancelled_result_is_dropped_with_its_board() {
    let mut harness = app_harness();
    start_long_solve(&mut harness, 3);
    harness.get_by_label("Cancel").click();
    step_until(&mut harness, Duration::from_secs(30), finished);
    assert!(harness.query_by_label_contains("Cancelled").is_some());
    open_shipped(&mut harness, "small-6x6.ron");
    harness.run();
    assert!(harness.query_by_label_contains("Cancelled").is_none());
    assert!(harness.state().run_summary().is_none());
}

#[test]
fn cancelling_a_debugged_run_puts_the_boards_robots_back() {
    let mut harness = app_harness();
    start_debugging(&mut harness, &eight_move_game());
    step_to_event(&mut harness, 30);
    // Looking back along the timeline, then cancelling.
    for _ in 0..3 {
        harness.get_by_label("Step back").click();
        harness.run_steps(2);
    }
    harness.get_by_label("Cancel").click();
    step_until(&mut harness, Duration::from_secs(20), finished);
    harness.run_steps(3);
    let draft: Vec<_> = harness
        .state()
        .draft()
        .robots
        .iter()
        .map(|r| (r.color, r.pos))
        .collect();
    assert_eq!(harness.state().shown_robots(), draft);
}

// 3. The time limit ends a paused debug session.
#[test]
fn a_paused_debugged_run_does_not_use_up_its_time_limit() {
    let mut state = AppState::default();
    state.debug.enabled = true;
    state.debug.start_paused = true;
    state.solver.use_time_limit = true;
    state.solver.time_limit_secs = 1.0;
    let mut harness = harness_from(state, [1360.0, 900.0]);
    import(&mut harness, &eight_move_game());
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        paused_at(app, 1)
    });
    // Longer than the limit, all of it paused.
    std::thread::sleep(Duration::from_millis(1500));
    for events in 2..=4 {
        harness.get_by_label("Step").click();
        step_until(&mut harness, Duration::from_secs(20), |app| {
            paused_at(app, events) || finished(app)
        });
    }
    let summary = harness.state().run_summary().unwrap();
    assert!(summary.running, "stopped: {:?}", summary.outcome);
    assert!(harness.query_by_label_contains("time limit").is_none());
}

// 4. Row tables are wider than the panel.
#[test]
fn the_row_table_fits_its_panel_for_every_run() {
    let mut harness = app_harness();
    import(&mut harness, &eight_move_game());
    choose_solver(&mut harness, "fast");
    let panel = harness.get_by_label("Solvers").rect();
    let screen_right = 1360.0;
    for _ in 0..2 {
        harness.get_by_label("Solve").click();
        step_until(&mut harness, Duration::from_secs(60), finished);
        harness.run();
        // The first and the last column are both on screen, inside the panel.
        let first = harness.get_by_label("Depth").rect();
        let last = harness.get_by_label("Time").rect();
        assert!(
            first.left() >= panel.left() - 1.0,
            "the first column starts at {} left of the panel at {}",
            first.left(),
            panel.left()
        );
        assert!(
            last.right() <= screen_right,
            "the last column ends at {} past the window",
            last.right()
        );
    }
}

// 5. The layout jumps.
#[test]
fn choosing_the_robots_tool_does_not_move_the_board() {
    let mut harness = app_harness();
    let before = harness.get_by_label("Board").rect();
    harness.get_by_label("Robots").click();
    harness.run_steps(3);
    let after = harness.get_by_label("Board").rect();
    assert_eq!(before, after);
    harness.get_by_label("Targets").click();
    harness.run_steps(3);
    assert_eq!(before, harness.get_by_label("Board").rect());
}

#[test]
fn a_debugged_run_does_not_move_the_solver_panels_controls() {
    let mut harness = app_harness();
    import(&mut harness, &eight_move_game());
    let rect_of =
        |h: &Harness<'_, RicochetApp>, label: &str| -> Rect { h.get_by_label(label).rect() };
    harness.get_by_label("Debug mode").click();
    harness.run();
    let checkbox = rect_of(&harness, "Debug mode");
    let solve = rect_of(&harness, "Solve");
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        paused_at(app, 1)
    });
    harness.get_by_label("Run to solution").click();
    step_until(&mut harness, Duration::from_secs(60), |app| {
        app.debugger()
            .is_some_and(|d| d.is_paused() && d.frame().view.solution.is_some())
    });
    harness.get_by_label("Continue").click();
    step_until(&mut harness, Duration::from_secs(60), finished);
    harness.run_steps(3);
    assert_eq!(rect_of(&harness, "Solve"), solve);
    assert_eq!(rect_of(&harness, "Debug mode"), checkbox);
}

#[test]
fn the_event_log_shows_fifteen_readable_lines() {
    let mut harness = app_harness();
    start_debugging(&mut harness, &eight_move_game());
    step_to_event(&mut harness, 25);
    harness.run_steps(2);
    let body = harness
        .ctx
        .global_style()
        .text_styles
        .get(&egui::TextStyle::Body)
        .map_or(14.0, |f| f.size);
    let screen = Rect::from_min_size(Pos2::ZERO, egui::vec2(1360.0, 900.0));
    // Log lines start with the event's index.
    let readable = harness
        .query_all_by_label_contains("node d")
        .chain(harness.query_all_by_label_contains("pruned d"))
        .map(|node| node.rect())
        .filter(|rect| screen.contains_rect(*rect) && rect.height() >= body)
        .count();
    assert!(readable >= 15, "{readable} readable log lines");
}

// 6. Empty plots look broken.
#[test]
fn empty_plots_say_there_is_no_data_yet() {
    let mut harness = app_harness();
    assert!(
        harness.query_all_by_label_contains("no data yet").count() >= 2,
        "both plots of the plots panel say they are empty"
    );
    harness.key_press_modifiers(Modifiers::COMMAND, egui::Key::E);
    harness.run_steps(2);
    assert!(harness.query_by_label("Experiments").is_some());
    assert!(harness.query_all_by_label_contains("no data yet").count() >= 3);
}

// 7. Small board text: the stateless overlay is filtered by robot and kind.
#[test]
fn the_stateless_overlay_can_be_filtered_by_robot_and_kind() {
    let mut harness = app_harness();
    click_menu_item(&mut harness, "View", "Stateless states");
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    harness.get_by_label("Overlays").click();
    harness.run_steps(2);
    for label in ["Final states", "Intermediate states", "States of robot"] {
        assert!(
            harness.query_by_label(label).is_some(),
            "{label} is offered"
        );
    }
}

// 8. Plots: a point says which puzzle it came from.
#[test]
fn a_plotted_solve_names_its_puzzle() {
    let mut harness = app_harness();
    let id = eight_move_game();
    import(&mut harness, &id);
    crate::common::solve_with(&mut harness, "bfs");
    let labels = harness.state().plotted_puzzles();
    assert_eq!(labels, vec![id]);
}

// 9. Small things.
#[test]
fn enter_in_the_save_path_field_saves() {
    let state = AppState {
        native_dialogs: false,
        ..AppState::default()
    };
    let mut harness = harness_from(state, [1360.0, 900.0]);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("entered.ron");
    click_menu_item(&mut harness, "File", "Save as...");
    replace_text(&mut harness, None, path.to_str().unwrap());
    harness.key_press(egui::Key::Enter);
    harness.run_steps(2);
    assert!(path.exists(), "Enter saved the board");
    assert_eq!(harness.state().file(), Some(path.as_path()));
}

#[test]
fn the_last_board_of_the_open_list_answers_near_its_bottom_edge() {
    let mut harness = app_harness();
    click_menu_item(&mut harness, "File", "Open from boards/...");
    let last = harness.get_by_label("standard-random.ron").rect();
    // The whole button answers, its last pixel rows included.
    click_at(
        &mut harness,
        egui::pos2(last.center().x, last.bottom() - 0.5),
    );
    assert!(
        harness
            .state()
            .file()
            .is_some_and(|f| f.ends_with("standard-random.ron")),
        "a click 0.5 px above the bottom of {last:?} opened nothing"
    );
}

#[test]
fn the_solve_button_names_its_key_for_every_mode() {
    use egui_kittest::kittest::NodeT;
    let mut harness = app_harness();
    let hover_text_of_solve = |harness: &mut Harness<'_, RicochetApp>| {
        harness.get_by_label("Solve").hover();
        harness.run_steps(2);
        std::thread::sleep(Duration::from_millis(700));
        harness.run_steps(3);
        harness.query_by_label_contains("Solve (").and_then(|node| {
            // A text is a label node, whose words AccessKit keeps as its value.
            let node = node.accesskit_node();
            node.label().or_else(|| node.value())
        })
    };
    // S solves in both modes, so the hover text names it, and says the same, in both.
    let editing = hover_text_of_solve(&mut harness).expect("a hover text in edit mode");
    assert!(editing.starts_with("Solve (S)"), "{editing}");
    harness.key_press(egui::Key::P);
    harness.run();
    assert_eq!(harness.state().mode(), Mode::Play);
    let playing = hover_text_of_solve(&mut harness).expect("a hover text in play mode");
    assert_eq!(playing, editing);
}

#[test]
fn an_empty_new_board_gets_the_chosen_robot_count() {
    let mut harness = app_harness();
    click_menu_item(&mut harness, "File", "New...");
    harness.get_by_label("Empty board").click();
    harness.run();
    assert_eq!(harness.state().draft().robots.len(), 4);
}

#[test]
fn the_status_line_names_imported_and_built_in_puzzles() {
    let mut harness = app_harness();
    let id = eight_move_game();
    import(&mut harness, &id);
    harness.run();
    assert!(harness.query_by_label("untitled").is_none());
    assert!(harness.query_by_label(&id).is_some());
    click_menu_item(&mut harness, "File", "New...");
    harness.get_by_label("The deck's 22-move puzzle").click();
    harness.run();
    assert!(harness.query_by_label("untitled").is_none());
    assert!(
        harness
            .query_by_label("The deck's 22-move puzzle")
            .is_some()
    );
}

// The last result is shown only for its board; a fast solve and a solve of the next board
// each show their own.
#[test]
fn each_board_shows_only_its_own_solution() {
    let mut harness = app_harness();
    import(&mut harness, &eight_move_game());
    crate::common::solve_with(&mut harness, "bfs");
    let first = harness.state().run_summary().unwrap();
    assert!(matches!(first.outcome, Some(Outcome::Solved { .. })));
    // The editor's last rows may lie below the panel's fold: bring the button into view.
    harness.get_by_label("Random robots").scroll_to_me();
    harness.run();
    harness.get_by_label("Random robots").click();
    harness.run();
    assert!(harness.query_by_label_contains("Solved in 8").is_none());
}

#[test]
fn the_play_panels_rows_wrap_inside_the_panel() {
    let mut harness = app_harness();
    harness.key_press(egui::Key::P);
    harness.run();
    // The panel ends where the board's area begins.
    let panel_right = harness.get_by_label("Board").rect().left();
    for label in [
        "Red (R)",
        "Green (G)",
        "Blue (B)",
        "Yellow (Y)",
        "Move west",
        "Move north",
        "Move south",
        "Move east",
    ] {
        let right = harness.get_by_label(label).rect().right();
        assert!(
            right <= panel_right,
            "{label} ends at {right}, past the panel's edge at {panel_right}"
        );
    }
}

// 4. A debugged stateless run on a 16x16 board with four robots, paused after its first final
// and intermediate states: the layer shows them, legibly (no two texts of a cell overlap).
#[test]
fn a_paused_stateless_run_on_a_full_board_draws_its_states_apart() {
    let (puzzle, _) = random_game(2, 4).unwrap();
    assert_eq!((puzzle.board().width(), puzzle.robots().len()), (16, 4));
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |state| {
        state.solver.solver = SolverId::Stateless.into();
        state.debug.enabled = true;
        state.debug.start_paused = true;
        state.overlays.stateless = true;
    });
    harness.key_press(egui::Key::S);
    step_until(&mut harness, Duration::from_secs(20), |app| {
        crate::common::paused_at(app, 1)
    });
    crate::common::step_to_event(&mut harness, 160);
    let picture = harness.state().debugger().unwrap().shown_picture().clone();
    let finals = &picture.part::<StatelessPicture>().unwrap().finals;
    assert!(!finals.is_empty(), "the run has final states by now");
    let drawing = harness.state_mut().shown_overlay();
    assert!(
        !drawing.texts.is_empty(),
        "the stateless layer draws the {} final states",
        finals.len()
    );
    // Every state shows, as its number where it fits, else as a dot in its place (numbers on
    // hover), a crowded cell counting the states it has no place for, and no two marks meet.
    let rect = harness.get_by_label("Board").rect();
    let geometry = ricochet_lab::app::board_paint::BoardGeometry::fit(rect, 16, 16);
    let marks: Vec<(Option<usize>, egui::Rect)> = harness.ctx.fonts_mut(|fonts| {
        ricochet_lab::app::overlays::cell_texts::place_texts(
            fonts,
            &geometry,
            puzzle.board(),
            &drawing.texts,
            &|_| egui::Color32::WHITE,
        )
        .into_iter()
        .map(|(index, mark)| (index, mark.rect()))
        .collect()
    });
    for (index, text) in drawing.texts.iter().enumerate() {
        let in_cell = drawing.texts.iter().filter(|t| t.pos == text.pos).count();
        assert!(
            in_cell > 4 || marks.iter().any(|(i, _)| *i == Some(index)),
            "{} at {} has no mark",
            text.text,
            text.pos
        );
    }
    for (i, (_, a)) in marks.iter().enumerate() {
        for (_, b) in &marks[i + 1..] {
            assert!(
                a.intersect(*b).area() <= 0.0 || a.intersect(*b).width() <= 0.0,
                "marks overlap: {a:?} and {b:?}"
            );
        }
    }
}

// 6. Controls move: the play panel's buttons stay where they are on boards with three, four
// and five robots (the robots' rows keep the room of five).
#[test]
fn the_play_panels_buttons_stay_put_whatever_the_robot_count() {
    let mut harness = app_harness();
    let mut places = Vec::new();
    for board in ["small-6x6.ron", "five-robots.ron", "real-21.ron"] {
        open_shipped(&mut harness, board);
        harness.key_press(egui::Key::P);
        harness.run();
        let robots = harness.state().draft().to_puzzle().unwrap().robots().len();
        places.push((
            board,
            robots,
            harness.get_by_label("Move west").rect().top(),
            harness.get_by_label("Hint").rect().top(),
        ));
        harness.key_press(egui::Key::E);
        harness.run();
    }
    let counts: Vec<usize> = places.iter().map(|p| p.1).collect();
    assert_eq!(counts, vec![3, 5, 4], "the boards have 3, 5 and 4 robots");
    for place in &places[1..] {
        assert_eq!(
            (place.2, place.3),
            (places[0].2, places[0].3),
            "{} moves the buttons: {places:?}",
            place.0
        );
    }
}
