//! Helpers the test files share: the app in a harness, clicks, importing a game by the Import
//! window, choosing a solver, starting a long or a debugged solve and stepping frames until a
//! condition holds (here), and puzzles and solver runs ([`puzzles`]).

// Each test file compiles this module on its own and uses only some of it.
#![allow(dead_code)]

use egui::{Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::document::draft::{Draft, write_draft};
use ricochet_lab::app::{RicochetApp, settings::AppState};
use ricochet_lab::model::formats::game_id;
use ricochet_lab::solver;
use std::time::{Duration, Instant};

/// How many frames `Harness::run` may take to settle. A worker's answer that lands during a
/// run brings new widgets, and egui asks one more frame for each widget it has not yet seen,
/// so a run that meets a busy machine can need a few more than egui_kittest's default of 4.
const SETTLE_STEPS: u64 = 16;

/// The app with its default state, in a window large enough for every panel.
pub fn app_harness() -> Harness<'static, RicochetApp> {
    let mut harness = Harness::builder()
        .with_size([1360.0, 900.0])
        .with_max_steps(SETTLE_STEPS)
        .build_eframe(|cc| RicochetApp::new(cc));
    harness.run();
    harness
}

/// The app started with `state`, in a window of the given size.
pub fn harness_from(state: AppState, size: [f32; 2]) -> Harness<'static, RicochetApp> {
    let mut harness = Harness::builder()
        .with_size(size)
        .with_max_steps(SETTLE_STEPS)
        .build_eframe(move |cc| RicochetApp::with_state(cc.egui_ctx.clone(), state));
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
    harness_from(state, size)
}

/// Moves the pointer to a point and presses the primary button there; no frame runs.
pub fn press_at(harness: &mut Harness<'_, RicochetApp>, pos: Pos2) {
    harness.event(egui::Event::PointerMoved(pos));
    button_at(harness, pos, true);
}

/// Releases the primary button at a point; no frame runs.
pub fn release_at(harness: &mut Harness<'_, RicochetApp>, pos: Pos2) {
    button_at(harness, pos, false);
}

fn button_at(harness: &mut Harness<'_, RicochetApp>, pos: Pos2, pressed: bool) {
    harness.event(egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Modifiers::NONE,
    });
}

/// Presses and releases the primary button at a point, one frame per event.
pub fn click_at(harness: &mut Harness<'_, RicochetApp>, pos: Pos2) {
    press_at(harness, pos);
    release_at(harness, pos);
    harness.run();
}

/// Replaces the text of a text field, the one labelled `label` or (with `None`) the only one
/// shown, with `text`.
pub fn replace_text(harness: &mut Harness<'_, RicochetApp>, label: Option<&str>, text: &str) {
    fn field<'h>(
        harness: &'h Harness<'_, RicochetApp>,
        label: Option<&'h str>,
    ) -> egui_kittest::Node<'h> {
        let role = egui::accesskit::Role::TextInput;
        match label {
            Some(label) => harness.get_by_role_and_label(role, label),
            None => harness.get_by_role(role),
        }
    }
    field(harness, label).click();
    harness.run();
    harness.key_press_modifiers(Modifiers::COMMAND, egui::Key::A);
    harness.run();
    field(harness, label).type_text(text);
    harness.run();
}

/// Opens a menu of the menu bar and clicks one of its items.
pub fn click_menu_item(harness: &mut Harness<'_, RicochetApp>, menu: &str, item: &str) {
    harness.get_by_label(menu).click();
    harness.run();
    harness.get_by_label(item).click();
    harness.run();
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
    // A new board may start background work at once (an overlay's distance map), whose
    // progress keeps asking for frames: run the frames without waiting for them to settle.
    harness.run_ok();
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

/// A standard game that takes a few seconds or more for the deck's IDDFS (21 moves deep
/// after five seconds on one core).
pub const HARD_GAME: &str = "7650+42+E2302B12+C9";

/// Imports [`HARD_GAME`], starts IDDFS on it and steps until the running solve has sent at
/// least `rows` depth rows.
pub fn start_long_solve(harness: &mut Harness<'_, RicochetApp>, rows: usize) {
    import(harness, HARD_GAME);
    choose_solver(harness, "iddfs");
    harness.get_by_label("Solve").click();
    harness.step();
    step_until(harness, Duration::from_secs(60), |app| {
        app.run_summary()
            .is_some_and(|r| r.running && r.rows.len() >= rows)
    });
}

/// Imports a game id and starts a debugged solve of it, stepping until the debugger has
/// paused on the run's first event.
pub fn start_debugging(harness: &mut Harness<'_, RicochetApp>, id: &str) {
    import(harness, id);
    harness.get_by_label("Debug mode").click();
    harness.run();
    harness.get_by_label("Solve").click();
    step_until(harness, Duration::from_secs(20), |app| paused_at(app, 1));
}

/// Steps a paused debugged run forward with F11, one event at a time, until it is paused after
/// event `last`.
pub fn step_to_event(harness: &mut Harness<'_, RicochetApp>, last: u64) {
    let now = harness
        .state()
        .debugger()
        .map_or(0, |d| d.frame().view.events);
    for events in now + 1..=last {
        harness.key_press(egui::Key::F11);
        step_until(harness, Duration::from_secs(20), |app| {
            paused_at(app, events)
        });
    }
}

/// Whether the last run has ended.
pub fn finished(app: &RicochetApp) -> bool {
    app.run_summary().is_some_and(|r| !r.running)
}

/// Chooses a solver by name, presses Solve and steps until the run has ended (a minute at
/// most).
pub fn solve_with(harness: &mut Harness<'_, RicochetApp>, name: &str) {
    choose_solver(harness, name);
    harness.get_by_label("Solve").click();
    harness.step();
    step_until(harness, Duration::from_secs(60), finished);
}

/// Whether the debugger is paused after exactly `events` events.
pub fn paused_at(app: &RicochetApp, events: u64) -> bool {
    app.debugger()
        .is_some_and(|d| d.is_paused() && d.frame().view.events == events)
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

/// A path inside the crate's folder.
pub fn manifest(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The app on boards/small-6x6.ron, its engines kept in `folder`.
pub fn app_on_small_board(folder: &std::path::Path) -> Harness<'static, RicochetApp> {
    let text = std::fs::read_to_string(manifest("boards/small-6x6.ron")).unwrap();
    let puzzle = ricochet_lab::model::formats::native::parse(&text).unwrap();
    let mut harness = harness_on(&puzzle, [1360.0, 900.0], |_| {});
    harness
        .state_mut()
        .use_engines_file(folder.join("engines.ron"));
    harness.run();
    harness
}

/// In play mode, slides the selected robot the first way it can go (north, east, south, west),
/// so that the game has one move.
pub fn first_move(harness: &mut Harness<'_, RicochetApp>) {
    for arrow in [
        egui::Key::ArrowUp,
        egui::Key::ArrowRight,
        egui::Key::ArrowDown,
        egui::Key::ArrowLeft,
    ] {
        harness.key_press(arrow);
        harness.run_ok();
        if harness
            .state()
            .play()
            .is_some_and(|p| !p.moves().is_empty())
        {
            return;
        }
    }
    panic!("the selected robot cannot move at all");
}
