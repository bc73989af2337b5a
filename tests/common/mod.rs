//! Helpers the test files share: the app in a harness, importing a game by the Import window,
//! choosing a solver and stepping frames until a condition holds (here), and puzzles and
//! solver runs ([`puzzles`]).

// Each test file compiles this module on its own and uses only some of it.
#![allow(dead_code)]

pub mod puzzles;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::draft::{Draft, write_draft};
use ricochet_lab::app::{AppState, RicochetApp};
use ricochet_lab::model::formats::game_id;
use ricochet_lab::solver;
use std::time::{Duration, Instant};

/// The app with its default state, in a window large enough for every panel.
pub fn app_harness() -> Harness<'static, RicochetApp> {
    let mut harness = Harness::builder()
        .with_size([1360.0, 900.0])
        .build_eframe(|cc| RicochetApp::new(cc));
    harness.run();
    harness
}

/// The app opened on a puzzle (with no system file dialogs), its state adjusted by `adjust`
/// before the app starts, in a window of the given size.
pub fn harness_on(
    puzzle: &ricochet_lab::model::Puzzle,
    size: [f32; 2],
    adjust: impl FnOnce(&mut AppState),
) -> Harness<'static, RicochetApp> {
    let mut state = AppState {
        board: Some(write_draft(&Draft::from_puzzle(puzzle))),
        native_dialogs: false,
        ..AppState::default()
    };
    adjust(&mut state);
    let mut harness = Harness::builder()
        .with_size(size)
        .build_eframe(move |cc| RicochetApp::with_state(cc.egui_ctx.clone(), state));
    harness.run();
    harness
}

/// Imports a game id through the Import window and checks the board is that game.
pub fn import(harness: &mut Harness<'_, RicochetApp>, id: &str) {
    harness.get_by_label("File").click();
    harness.run();
    harness
        .get_by_label("Import game id or Cox text...")
        .click();
    harness.run();
    harness
        .get_by_role(egui::accesskit::Role::MultilineTextInput)
        .click();
    harness.run();
    harness
        .get_by_role(egui::accesskit::Role::MultilineTextInput)
        .type_text(id);
    harness.run();
    harness.get_by_label("Import").click();
    harness.run();
    assert_eq!(
        game_id::write(&harness.state().draft().to_puzzle().unwrap()).unwrap(),
        id,
        "the imported board is the game"
    );
}

/// Chooses a solver in the solver panel's list by its title.
pub fn choose_solver(harness: &mut Harness<'_, RicochetApp>, name: &str) {
    let kind = solver::kind(name).expect("registered");
    harness.get_by_label("Solver").click();
    harness.run();
    // The list may be taller than its popup: bring the entry into view first.
    harness.get_by_label(kind.title).scroll_to_me();
    harness.run();
    harness.get_by_label(kind.title).click();
    harness.run();
}

/// Steps frames until `done` (the worker threads run on their own and wake the UI).
pub fn step_until(
    harness: &mut Harness<'_, RicochetApp>,
    timeout: Duration,
    done: impl Fn(&RicochetApp) -> bool,
) {
    let start = Instant::now();
    loop {
        harness.step();
        if done(harness.state()) {
            break;
        }
        assert!(start.elapsed() < timeout, "gave up after {timeout:?}");
        std::thread::sleep(Duration::from_millis(10));
    }
    harness.step();
}
