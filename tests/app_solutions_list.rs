//! The solver panel lists every optimal solution once an optimal solver has solved the board,
//! and clicking one plays it back.

mod common;

use common::{finished, step_until};
use egui_kittest::kittest::Queryable;
use ricochet_lab::model::{format_moves, formats::game_id};
use ricochet_lab::solver::all_solutions::{robot_changes, robots_moved};
use std::time::Duration;

/// A standard game with three optimal solutions of four moves.
const GAME: &str = "EF81+40+39AB8BD4+1A";

#[test]
fn the_panel_lists_every_optimal_solution_and_a_click_plays_one() {
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = common::harness_on(&puzzle, [1360.0, 900.0], |state| {
        state.solver.solver = "fast".to_string();
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
