//! The solver panel lists every optimal solution once an optimal solver has solved the board,
//! and clicking one plays it back.

use crate::common::{finished, step_until};
use egui_kittest::kittest::{NodeT, Queryable};
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::model::{format_moves, formats::game_id};
use ricochet_lab::solver::analysis::all_solutions::{robot_changes, robots_moved};
use ricochet_lab::solver::{Outcome, SolverId};
use std::time::Duration;

/// A standard game with three optimal solutions of four moves.
const GAME: &str = "EF81+40+39AB8BD4+1A";

#[test]
fn the_panel_lists_every_optimal_solution_and_a_click_plays_one() {
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |state| {
        state.solver.solver = SolverId::Fast.into();
    });
    harness.key_press(egui::Key::S);
    step_until(&mut harness, Duration::from_secs(60), finished);

    harness.get_by_label("List all optimal solutions").click();
    step_until(&mut harness, Duration::from_secs(60), |app| {
        !app.listing_solutions() && !app.listed_solutions().is_empty()
    });
    let listed = harness.state().listed_solutions().to_vec();
    assert!(listed.len() > 1, "this game has several optimal solutions");
    for moves in &listed {
        assert_eq!(moves.len(), 4);
        puzzle.replay(moves).unwrap();
    }
    let keys: Vec<_> = listed
        .iter()
        .map(|m| (robots_moved(m), robot_changes(m), m.clone()))
        .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "sorted and distinct");
    harness.get_by_label(&format!("{} optimal solutions", listed.len()));

    let last = listed.last().unwrap();
    harness
        .get_by_label(&format!("{}. {}", listed.len(), format_moves(last)))
        .click();
    harness.run();
    assert_eq!(harness.state().playback().unwrap().moves(), last.as_slice());
}

#[test]
fn a_solution_list_goes_with_its_board_and_never_plays_on_another() {
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |state| {
        state.solver.solver = SolverId::Fast.into();
    });
    harness.key_press(egui::Key::S);
    step_until(&mut harness, Duration::from_secs(60), finished);
    harness.get_by_label("List all optimal solutions").click();
    step_until(&mut harness, Duration::from_secs(60), |app| {
        !app.listing_solutions() && !app.listed_solutions().is_empty()
    });
    let listed = harness.state().listed_solutions().to_vec();
    harness
        .get_by_label(&format!("2. {}", format_moves(&listed[1])))
        .click();
    harness.run();

    // Another board, solved: its run shows, and nothing of the first board's list.
    let (other, _) = random_game(2, 4).unwrap();
    let other_id = game_id::write(&other).unwrap();
    crate::common::import(&mut harness, &other_id);
    assert!(harness.state().listed_solutions().is_empty());
    assert!(harness.state().playback().is_none());
    harness.key_press(egui::Key::S);
    step_until(&mut harness, Duration::from_secs(60), finished);
    assert!(harness.state().listed_solutions().is_empty());
    // The editor's live optimum counts this board's solutions too: only the solver panel's
    // labels count here.
    let labels: Vec<String> = harness
        .query_all_by_label_contains("optimal solution")
        .filter_map(|node| node.accesskit_node().label())
        .filter(|label| !label.contains(" solved in ") && !label.contains("counting"))
        .collect();
    assert!(
        labels.len() == 1,
        "only the button to list this board's: no list of the first board is shown: {labels:?}"
    );
    assert!(
        harness
            .query_by_label(&format!("2. {}", format_moves(&listed[1])))
            .is_none()
    );
    // The new board's own list can be asked for, and the solution played is its own.
    harness.get_by_label("List all optimal solutions");
    let playback = harness
        .state()
        .playback()
        .expect("the new solve plays back");
    assert_eq!(playback.puzzle(), &other);
    other.replay(playback.moves()).unwrap();
}

#[test]
fn stopping_a_listing_keeps_and_counts_what_it_found() {
    // The deck's 22-move puzzle: Fast IDA* solves it in seconds, while listing every one of
    // its optimal solutions takes far longer, so the stop comes first.
    let mut harness = crate::common::app_harness();
    crate::common::solve_with(&mut harness, "fast");
    let Some(Outcome::Solved { moves: optimum }) = harness.state().run_summary().unwrap().outcome
    else {
        panic!("the deck's puzzle is solved");
    };
    // The deck's solution of 22 moves and its table fill the dock, so the list's buttons are
    // below its bottom edge: their commands are given as their clicks would.
    harness.get_by_label("List all optimal solutions");
    harness
        .state_mut()
        .apply_command(ricochet_lab::app::command::Command::ListSolutions);
    step_until(&mut harness, Duration::from_secs(10), |app| {
        app.listing_solutions() || !app.listed_solutions().is_empty()
    });
    assert!(
        harness.state().listing_solutions(),
        "still listing: {} listed",
        harness.state().listed_solutions().len()
    );
    harness.run_steps(2);
    // The listing starts from the run's length (no second solve) and shows its progress.
    assert!(
        harness
            .query_all_by_label_contains(&format!("Listing the {}-move solutions", optimum.len()))
            .next()
            .is_some()
    );
    harness.get_by_label("Stop listing");
    harness
        .state_mut()
        .apply_command(ricochet_lab::app::command::Command::StopListing);
    step_until(&mut harness, Duration::from_secs(30), |app| {
        !app.listing_solutions()
    });
    let listed = harness.state().listed_solutions().to_vec();
    assert!(
        listed.contains(&optimum),
        "the run's own solution is among the listed: {listed:?}"
    );
    let count = listed.len();
    let plural = if count == 1 { "" } else { "s" };
    assert!(
        harness
            .query_all_by_label_contains(&format!(
                "{count} optimal solution{plural} found before the stop"
            ))
            .next()
            .is_some(),
        "the stop keeps and counts {count}"
    );
    harness.get_by_label(&format!("1. {}", format_moves(&listed[0])));
}

// After a long solve the depth rows and the node profile fill the Run tab: the list button
// must still be in reach, by scrolling the tab, while Solve stays where it was.
#[test]
fn the_run_tab_scrolls_to_the_list_button_after_a_long_solve_and_solve_stays_put() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/real-21.ron"),
    )
    .unwrap();
    let puzzle = ricochet_lab::model::formats::native::parse(&text).unwrap();
    let height = 800.0;
    let mut harness = crate::common::harness_on(&puzzle, [1200.0, height], |state| {
        state.solver.solver = SolverId::Fast.into();
    });
    let solve = harness.get_by_label("Solve").rect();
    harness.key_press(egui::Key::S);
    step_until(&mut harness, Duration::from_secs(120), finished);
    harness.run();
    harness
        .get_by_label("List all optimal solutions")
        .scroll_to_me();
    harness.run();
    let button = harness.get_by_label("List all optimal solutions").rect();
    assert!(
        button.bottom() <= height,
        "the list button is in view at {button:?}"
    );
    assert_eq!(
        harness.get_by_label("Solve").rect(),
        solve,
        "Solve stays put"
    );
    // The listing starts below the button: its Stop is brought into view with it.
    harness.get_by_label("List all optimal solutions").click();
    harness.run_steps(4);
    let stop = harness.get_by_label("Stop listing").rect();
    assert!(stop.bottom() <= height, "Stop is in view at {stop:?}");
    harness.get_by_label("Stop listing").click();
    step_until(&mut harness, Duration::from_secs(60), |app| {
        !app.listing_solutions()
    });
}
