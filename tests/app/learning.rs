//! The debugger as a place to learn search: the frontier at the event shown (an open list with
//! g, h and f and its next entry marked, or a depth-first stack), and the Predict mode's
//! guesses, verdicts and score.

use crate::common::{app_harness, choose_solver, import, paused_at, step_to_event, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::app::debugger::frontier::FrontierShown;
use ricochet_lab::model::formats::game_id;
use ricochet_lab::model::tiles::random_game;
use std::time::Duration;

/// Imports a random game and starts a debugged run of `solver` on it, paused at its start,
/// with the Debugger tab shown.
fn debug_with(harness: &mut Harness<'_, RicochetApp>, solver: &str) {
    let (puzzle, _) = random_game(2, 4).unwrap();
    import(harness, &game_id::write(&puzzle).unwrap());
    choose_solver(harness, solver);
    harness.get_by_label("Debug mode").click();
    harness.run();
    harness.get_by_label("Solve").click();
    step_until(harness, Duration::from_secs(20), |app| paused_at(app, 1));
    harness.get_by_label("Debugger").click();
    harness.run();
    harness.get_by_label("Frontier").click();
    harness.run();
}

/// The frontier shown, once worked out.
fn frontier(harness: &mut Harness<'_, RicochetApp>) -> FrontierShown {
    step_until(harness, Duration::from_secs(20), |app| {
        app.debugger().is_some_and(|d| d.frontier_shown().is_some())
    });
    harness
        .state()
        .debugger()
        .and_then(|d| d.frontier_shown().cloned())
        .unwrap()
}

#[test]
fn the_frontier_lists_the_open_list_and_marks_the_entry_examined_next() {
    let mut harness = app_harness();
    debug_with(&mut harness, "astar");
    step_to_event(&mut harness, 40);
    let FrontierShown::Open(open, _) = frontier(&mut harness) else {
        panic!("A* keeps an open list");
    };
    assert!(open.size > 0 && open.closed > 0);
    assert!(!open.next.is_empty());
    assert!(open.next.iter().all(|e| e.h.is_some()));
    assert!(harness.query_by_label_contains("Open list").is_some());
    assert!(harness.query_by_label("next").is_some());
    // Stepping on to the next node shows the entry that was marked.
    let next = open.next[0].cells.clone();
    harness.get_by_label("Step over").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        app.debugger().is_some_and(|d| {
            d.is_paused() && d.frame().view.events > 40 && d.shown_view().cells.is_some()
        })
    });
    let shown = harness.state().debugger().unwrap().shown_view().clone();
    assert_eq!(shown.cells.unwrap().as_slice(), &next[..]);
}

#[test]
fn a_depth_first_search_shows_its_stack_with_the_bound() {
    let mut harness = app_harness();
    debug_with(&mut harness, "iddfs");
    step_to_event(&mut harness, 30);
    let FrontierShown::Stack(stack) = frontier(&mut harness) else {
        panic!("IDDFS shows its stack");
    };
    let depth = harness.state().debugger().unwrap().shown_view().depth;
    assert_eq!(stack.levels.len() as u32, depth + 1);
    assert!(stack.bound.is_some());
    assert!(harness.query_by_label_contains("Stack of").is_some());
}

#[test]
fn predict_mode_scores_each_guess_and_says_why() {
    let mut harness = app_harness();
    debug_with(&mut harness, "bfs");
    step_to_event(&mut harness, 12);
    harness.get_by_label("Predict the next step").click();
    harness.run();
    frontier(&mut harness);
    assert!(harness.query_by_label("Score 0 of 0").is_some());
    // The entry the frontier marks as next is right for a queue.
    harness.get_by_label_contains("#1 ").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        app.debugger().is_some_and(|d| d.predict_score().1 == 1)
    });
    let debugger = harness.state().debugger().unwrap();
    assert_eq!(debugger.predict_score(), (1, 1));
    let verdict = debugger.predict_verdict().unwrap();
    assert!(verdict.right, "{verdict:?}");
    assert!(verdict.why.contains("oldest entry"), "{verdict:?}");
    harness.run();
    assert!(harness.query_by_label("Score 1 of 1").is_some());
    assert!(harness.query_by_label_contains("Right.").is_some());
}

#[test]
fn predict_mode_takes_moves_and_backing_up_in_a_depth_first_search() {
    let mut harness = app_harness();
    debug_with(&mut harness, "iddfs");
    step_to_event(&mut harness, 6);
    harness.get_by_label("Predict the next step").click();
    harness.run();
    frontier(&mut harness);
    harness.get_by_label("Back up").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        app.debugger().is_some_and(|d| d.predict_score().1 == 1)
    });
    let debugger = harness.state().debugger().unwrap();
    let verdict = debugger.predict_verdict().unwrap().clone();
    let (right, asked) = debugger.predict_score();
    assert_eq!(asked, 1);
    assert_eq!(right == 1, verdict.right);
    assert!(!verdict.why.is_empty());
}
