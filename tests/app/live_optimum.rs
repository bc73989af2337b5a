//! The editor's live optimum in the real app: a valid board is solved in the background and
//! the editor shows its optimum, its optimal solutions and a difficulty band; an edit starts a
//! new solve and the old result is never shown for the new board; an invalid board shows why
//! instead; the View menu's setting turns it off.

use crate::common::{click_menu_item, step_until};
use egui_kittest::kittest::Queryable;
use ricochet_lab::model::Puzzle;
use ricochet_lab::model::formats::game_id;
use ricochet_lab::solver::{self, Limits, NoProbe, Outcome, SolverOptions};
use std::time::Duration;

/// A standard game whose optimum is three moves.
const GAME: &str = "EF81+40+09AF0E2D+1A";

/// The optimum of a puzzle as the CLI's `solve --solver fast` finds it.
fn fast_optimum(puzzle: &Puzzle) -> Option<usize> {
    let options = SolverOptions::default();
    let report = solver::run("fast", puzzle, &options, &Limits::default(), &mut NoProbe).unwrap();
    match report.outcome {
        Outcome::Solved { moves } => Some(moves.len()),
        _ => None,
    }
}

fn settled(app: &ricochet_lab::app::RicochetApp) -> bool {
    let lines = app.live_optimum_lines();
    !app.live_optimum_solving() && !lines.iter().any(|line| line.contains('…'))
}

#[test]
fn the_editor_shows_the_optimum_of_the_board_as_it_is() {
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |_| {});
    step_until(&mut harness, Duration::from_secs(60), settled);
    let lines = harness.state().live_optimum_lines();
    assert_eq!(lines[0], "Optimum: 3 moves (easy)");
    assert!(
        lines[1].contains(" optimal solution") && lines[1].contains(", solved in "),
        "{lines:?}"
    );
    // The editor shows both lines.
    harness.get_by_label(&lines[0]);
    harness.get_by_label(&lines[1]);

    // An edit: the old board's result is never shown for the new one, at any frame.
    harness.get_by_label("Clear walls").click();
    let mut cleared = puzzle.clone();
    let mut frames = 0;
    loop {
        harness.step();
        frames += 1;
        let app = harness.state();
        let now = app.live_optimum_lines();
        if let Ok(board) = app.draft().to_puzzle() {
            cleared = board;
        }
        assert!(
            now[0] != lines[0] || fast_optimum(&cleared) == Some(3),
            "frame {frames}: {now:?}"
        );
        if frames > 2 && settled(app) {
            break;
        }
        assert!(frames < 6_000, "the live solve did not end");
        std::thread::sleep(Duration::from_millis(10));
    }
    let expected = fast_optimum(&cleared).expect("the cleared board is solvable");
    let now = harness.state().live_optimum_lines();
    let moves = if expected == 1 { "move" } else { "moves" };
    assert!(
        now[0].starts_with(&format!("Optimum: {expected} {moves}")),
        "{now:?} vs {expected}"
    );

    // An invalid board shows why, not an optimum.
    harness.get_by_label("Clear robots").click();
    harness.run();
    assert_eq!(
        harness.state().live_optimum_lines(),
        [String::new(), String::new()]
    );
    assert!(!harness.state().live_optimum_solving());
}

#[test]
fn the_view_menu_turns_the_live_optimum_off_and_on() {
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |_| {});
    step_until(&mut harness, Duration::from_secs(60), settled);
    assert!(!harness.state().live_optimum_lines()[0].is_empty());
    click_menu_item(&mut harness, "View", "Live optimum in the editor");
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert_eq!(
        harness.state().live_optimum_lines(),
        [String::new(), String::new()]
    );
    assert!(!harness.state().live_optimum_solving());
    click_menu_item(&mut harness, "View", "Live optimum in the editor");
    harness.key_press(egui::Key::Escape);
    step_until(&mut harness, Duration::from_secs(60), settled);
    assert!(harness.state().live_optimum_lines()[0].starts_with("Optimum: 3 moves"));
}
