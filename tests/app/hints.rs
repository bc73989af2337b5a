//! Play mode's hints in the real app: `H` shows the move count, then the robots, the first move
//! and the whole solution of the position in play, computed on a worker thread (the move count
//! read at once from the board's finished optimal solve of the position); a move makes the
//! hint start again from the new position; Cancel hint and Escape stop a hint being computed.

use crate::common::step_until;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::document::mode::Mode;
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

    // The robots need the first solution, searched for on the worker; it answers the
    // levels after too.
    harness.key_press(egui::Key::H);
    step_until(&mut harness, Duration::from_secs(60), |app| {
        !app.hint_computing() && app.hint_lines().len() == 2
    });
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

/// The shipped 25-move puzzle: its solve alone takes seconds, so a hint of it is still being
/// computed many frames after it was asked for.
fn long_hint_puzzle() -> ricochet_lab::model::Puzzle {
    let path = format!("{}/boards/hardest-25.ron", env!("CARGO_MANIFEST_DIR"));
    ricochet_lab::model::formats::load_source(&path).unwrap()
}

/// The app in play mode on the long hint's puzzle, a hint asked for and being computed.
fn computing_a_long_hint() -> egui_kittest::Harness<'static, ricochet_lab::app::RicochetApp> {
    let mut harness = crate::common::harness_on(&long_hint_puzzle(), [1360.0, 900.0], |_| {});
    harness.key_press(egui::Key::P);
    harness.run();
    harness.key_press(egui::Key::H);
    // The spinner keeps asking for frames: step them rather than wait for quiet.
    harness.step();
    harness.step();
    assert!(harness.state().hint_computing());
    assert!(harness.state().hint_lines().is_empty());
    harness
}

/// After a cancel: the panel and the status line say so, no hint is shown nor computed, and
/// a solve starts (and stops) as before.
fn assert_cancelled_and_usable(
    harness: &mut egui_kittest::Harness<'static, ricochet_lab::app::RicochetApp>,
) {
    let app = harness.state();
    assert!(!app.hint_computing());
    assert!(app.hint_cancelled());
    assert!(app.hint_lines().is_empty(), "{:?}", app.hint_lines());
    assert_eq!(
        app.status_message(),
        Some("Hint cancelled. Press H to ask again.")
    );
    harness.get_by_label("Hint cancelled.");
    assert!(harness.query_by_label("Cancel hint").is_none());

    harness.get_by_label("Solve").click();
    harness.step();
    harness.step();
    assert!(harness.state().run_summary().is_some_and(|r| r.running));
    harness.get_by_label("Cancel").click();
    step_until(harness, Duration::from_secs(20), crate::common::finished);
    assert_eq!(
        harness.state().run_summary().unwrap().outcome,
        Some(ricochet_lab::solver::Outcome::Cancelled)
    );
}

#[test]
fn cancel_hint_stops_a_long_hint_and_the_app_goes_on() {
    let mut harness = computing_a_long_hint();
    harness.get_by_label("Cancel hint").click();
    harness.step();
    harness.step();
    assert_cancelled_and_usable(&mut harness);

    // H asks again, from the first level: the cancelled search is not counted as an answer.
    harness.key_press(egui::Key::H);
    harness.step();
    harness.step();
    assert!(harness.state().hint_computing());
    assert!(!harness.state().hint_cancelled());
    assert_eq!(harness.state().hint_searches(), 2);
}

#[test]
fn escape_cancels_a_hint_after_closing_the_window_on_top() {
    let mut harness = computing_a_long_hint();
    // Escape closes a window first and leaves the hint alone.
    harness.key_press(egui::Key::F1);
    harness.step();
    assert!(harness.state().any_window_open());
    harness.key_press(egui::Key::Escape);
    harness.step();
    assert!(!harness.state().any_window_open());
    assert!(harness.state().hint_computing());

    harness.key_press(egui::Key::Escape);
    harness.step();
    harness.step();
    assert_cancelled_and_usable(&mut harness);
}

#[test]
fn level_one_reads_the_boards_finished_optimal_solve_without_a_search() {
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |_| {});
    crate::common::solve_with(&mut harness, "fast");
    let solved = match harness.state().run_summary().unwrap().outcome {
        Some(ricochet_lab::solver::Outcome::Solved { moves }) => moves.len(),
        other => panic!("{other:?}"),
    };
    harness.key_press(egui::Key::P);
    harness.run();

    // One frame for the key: the answer is there, not waited for. The search for the next
    // levels started with it.
    harness.key_press(egui::Key::H);
    harness.step();
    let app = harness.state();
    assert_eq!(app.hint_lines(), [format!("Moves: {solved}")]);
    assert!(!app.hint_computing());
    assert_eq!(app.hint_searches(), 1);

    // The next level reads that search's answer; no other search starts.
    harness.key_press(egui::Key::H);
    step_until(&mut harness, Duration::from_secs(60), |app| {
        !app.hint_computing() && app.hint_lines().len() == 2
    });
    assert_eq!(harness.state().hint_searches(), 1);
    assert!(harness.state().hint_lines()[1].starts_with("Robots: "));
}

// Problem: after a move in play, hot/cold showed "22 to go" in 0.9 s, then a level-1 hint
// solved the same position again for 4.4 s. The hint reads what hot/cold knows: in the frame
// of the key, with no solve waited for.
#[test]
fn level_one_reads_the_optimum_hot_cold_showed_without_a_search() {
    use ricochet_lab::app::HotCold;
    // Hot/cold is on by default. A short game, so that hot/cold answers within its live
    // limits on a loaded machine: the hint's own search is started in the frame of the key
    // and is drained in a later one, so an answer in that frame can only be hot/cold's.
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |_| {});
    harness.key_press(egui::Key::P);
    harness.run();
    // The first move that slides the target's robot.
    crate::common::first_move(&mut harness);
    step_until(&mut harness, Duration::from_secs(120), |app| {
        !matches!(app.hot_cold(), Some(HotCold::Working) | None)
    });
    let Some(HotCold::Known { to_go, .. }) = harness.state().hot_cold() else {
        panic!(
            "hot/cold knows the position: {:?}",
            harness.state().hot_cold()
        );
    };
    harness.key_press(egui::Key::H);
    harness.step();
    let app = harness.state();
    assert_eq!(app.hint_lines(), [format!("Moves: {to_go}")]);
    assert!(!app.hint_computing(), "level 1 waits for no search");
    // At most the search for the later levels has started beside it, which a solve of the
    // position in its first frame cannot have answered.
    assert!(app.hint_searches() <= 1);
}

#[test]
fn the_next_levels_are_searched_for_with_the_first_and_give_way_to_a_solve() {
    // A position whose first solution takes about a solve's time after its solve, so that the
    // search for it is still going when the solve starts.
    let path = format!("{}/boards/real-21.ron", env!("CARGO_MANIFEST_DIR"));
    let puzzle = ricochet_lab::model::formats::load_source(&path).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |_| {});
    harness.key_press(egui::Key::P);
    harness.run();
    harness.key_press(egui::Key::H);
    // The move count comes first, sent ahead while the search for the other levels goes on:
    // the panel waits for nothing, and Escape leaves that search alone.
    step_until(&mut harness, Duration::from_secs(120), |app| {
        !app.hint_computing() && !app.hint_lines().is_empty()
    });
    assert_eq!(harness.state().hint_lines(), ["Moves: 21"]);
    assert!(harness.query_by_label("Cancel hint").is_none());
    harness.key_press(egui::Key::Escape);
    harness.step();
    assert!(!harness.state().hint_cancelled());
    assert_eq!(harness.state().hint_searches(), 1);

    // A solve takes its cores; the next level starts the search again, from the solve the
    // first level made.
    harness.get_by_label("Solve").click();
    harness.step();
    harness.get_by_label("Cancel").click();
    step_until(
        &mut harness,
        Duration::from_secs(20),
        crate::common::finished,
    );
    harness.key_press(egui::Key::H);
    harness.step();
    harness.step();
    assert_eq!(harness.state().hint_searches(), 2);
    step_until(&mut harness, Duration::from_secs(120), |app| {
        !app.hint_computing() && app.hint_lines().len() == 2
    });
    let lines = harness.state().hint_lines();
    assert_eq!(lines[0], "Moves: 21");
    assert!(lines[1].starts_with("Robots: "), "{lines:?}");
}

#[test]
fn a_solve_by_a_solver_that_may_miss_the_optimum_is_not_read_as_one() {
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |_| {});
    crate::common::solve_with(&mut harness, "dls");
    assert!(matches!(
        harness.state().run_summary().unwrap().outcome,
        Some(ricochet_lab::solver::Outcome::Solved { .. })
    ));
    harness.key_press(egui::Key::P);
    harness.run();

    harness.key_press(egui::Key::H);
    harness.step();
    assert_eq!(harness.state().hint_searches(), 1);
    step_until(&mut harness, Duration::from_secs(60), |app| {
        !app.hint_computing() && !app.hint_lines().is_empty()
    });
    assert_eq!(harness.state().hint_lines(), ["Moves: 3"]);
}

#[test]
fn escape_stops_a_solve_and_a_hint_running_together() {
    let mut harness = computing_a_long_hint();
    harness.get_by_label("Solve").click();
    harness.step();
    harness.step();
    assert!(harness.state().run_summary().is_some_and(|r| r.running));
    assert!(harness.state().hint_computing());

    harness.key_press(egui::Key::Escape);
    harness.step();
    assert!(!harness.state().hint_computing());
    assert!(harness.state().hint_cancelled());
    harness.get_by_label("Hint cancelled.");
    step_until(
        &mut harness,
        Duration::from_secs(20),
        crate::common::finished,
    );
    assert_eq!(
        harness.state().run_summary().unwrap().outcome,
        Some(ricochet_lab::solver::Outcome::Cancelled)
    );
    // The status line speaks of the solve; the hint panel says its own.
    let status = harness.state().status_message().unwrap_or_default();
    assert!(status.ends_with(" was cancelled."), "{status}");
    harness.get_by_label("Hint cancelled.");
}
