//! External engines in the app: added through the Add engine window (with its Test), edited
//! in it with their options, listed with the external mark, solving a board with their rows in the per-depth table, a failing
//! engine's log, and the debugger stepping an engine's node events. The engines file is a
//! temporary one, so a user's own list is never read or changed. An experiment in the
//! Experiments window compares a registered engine with the built-in solvers.

use crate::common::{
    app_on_small_board, finished, harness_from, harness_on, manifest, paused_at, replace_text,
    step_until,
};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use ricochet_lab::app::RicochetApp;
use ricochet_lab::app::widgets::format_count;
use ricochet_lab::app::{experiments::ExperimentSettings, settings::AppState};
use ricochet_lab::model::formats;
use ricochet_lab::solver::engine::EngineSpec;
use ricochet_lab::solver::engine::store::EngineStore;
use ricochet_lab::solver::{Outcome, SolverPick};
use ricochet_lab::study::experiment::Status;
use std::path::Path;
use std::time::Duration;

/// Registers an engine in the store the app reads, as `ricochet-lab engine add` does.
/// A solver chosen by its name, as a settings file keeps it.
fn pick(name: &str) -> SolverPick {
    name.parse().unwrap()
}

fn register(folder: &Path, spec: EngineSpec) {
    let file = folder.join("engines.ron");
    let mut store = EngineStore::load(&file).unwrap();
    store.add(spec, true).unwrap();
    store.save().unwrap();
}

fn python_example() -> EngineSpec {
    EngineSpec {
        name: "bfs-py".into(),
        command: vec![
            "python3".into(),
            manifest("examples/engines/bfs.py").display().to_string(),
        ],
        dir: None,
        options: Vec::new(),
    }
}

/// Picks a solver in the list by its title, and waits for the change to be drawn.
fn choose(harness: &mut Harness<'_, RicochetApp>, title: &str) {
    harness.get_by_label("Solver").click();
    harness.run();
    harness.get_by_label(title).scroll_to_me();
    harness.run();
    harness.get_by_label(title).click();
    harness.run();
}

#[test]
fn the_python_example_added_through_the_window_solves_the_small_board_with_its_rows_shown() {
    let folder = tempfile::tempdir().unwrap();
    let mut harness = app_on_small_board(folder.path());
    harness.get_by_label("Add engine…").click();
    harness.run();
    replace_text(&mut harness, Some("Name"), "bfs-py");
    replace_text(&mut harness, Some("Command"), "python3");
    let script = manifest("examples/engines/bfs.py").display().to_string();
    replace_text(&mut harness, Some("Arguments"), &script);
    harness.get_by_label("Test").click();
    step_until(&mut harness, Duration::from_secs(30), |app| {
        app.add_engine_window().verdict().is_some()
    });
    harness.run();
    let verdict = harness
        .state()
        .add_engine_window()
        .verdict()
        .unwrap()
        .clone();
    assert!(verdict.works, "{:?}", verdict.steps);
    harness.get_by_label("The engine works.");
    harness.get_by_label("bfs-python");
    harness.get_by_label("Add").click();
    harness.run();
    assert!(!harness.state().add_engine_window().open);
    assert_eq!(
        EngineStore::load(&folder.path().join("engines.ron"))
            .unwrap()
            .names(),
        vec!["bfs-py"]
    );
    // The new engine is the chosen solver, with the external mark.
    assert_eq!(harness.state().app_state().solver.solver, pick("bfs-py"));
    harness.get_by_label("Solver").click();
    harness.run();
    harness.get_by_label("bfs-py (external)");
    harness.get_by_label("Solver").click();
    harness.run();

    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(60), finished);
    harness.run();
    let summary = harness.state().run_summary().unwrap();
    assert_eq!(summary.solver.name(), "bfs-py");
    let Some(Outcome::Solved { moves }) = &summary.outcome else {
        panic!("unexpected outcome {:?}", summary.outcome);
    };
    assert!(!summary.rows.is_empty());
    // One row per finished depth, each found in the table by its node count. The example
    // tests the goal as it makes a child, so its rows end at the depth before the solution's.
    assert!(summary.rows.last().unwrap().depth as usize + 1 >= moves.len());
    harness.get_by_label("Depth rows");
    for row in &summary.rows {
        assert!(
            harness
                .query_all_by_label(&format_count(row.nodes))
                .next()
                .is_some(),
            "no cell shows {} nodes",
            row.nodes
        );
    }
    // The built-in BFS agrees on the length.
    let text = std::fs::read_to_string(manifest("boards/small-6x6.ron")).unwrap();
    let puzzle = formats::native::parse(&text).unwrap();
    let plain = ricochet_lab::solver::run(
        "bfs",
        &puzzle,
        &Default::default(),
        &Default::default(),
        &mut ricochet_lab::solver::NoProbe,
    )
    .unwrap();
    let Outcome::Solved { moves: shortest } = plain.outcome else {
        panic!("BFS did not solve the small board");
    };
    assert_eq!(moves.len(), shortest.len());
}

// A registered engine is changed in place: Edit engine… opens the window filled in, tests the
// engine so its options show with the values stored, and Save replaces the engine, options
// kept, under its new name, which becomes the chosen solver.
#[test]
fn edit_engine_shows_the_stored_options_and_save_replaces_the_engine() {
    let folder = tempfile::tempdir().unwrap();
    register(
        folder.path(),
        EngineSpec {
            options: vec![("info-interval".into(), "100".into())],
            ..python_example()
        },
    );
    let mut harness = app_on_small_board(folder.path());
    choose(&mut harness, "bfs-py (external)");
    harness.get_by_label("Edit engine…").click();
    step_until(&mut harness, Duration::from_secs(30), |app| {
        app.add_engine_window().verdict().is_some()
    });
    harness.run();
    assert!(
        harness.query_by_label("Edit engine").is_some(),
        "the window's title"
    );
    assert!(harness.query_by_label("Options").is_some());
    assert!(harness.query_by_label("info-interval").is_some());
    let values: Vec<f64> = harness
        .query_all_by_role(egui::accesskit::Role::SpinButton)
        .filter_map(|node| node.accesskit_node().numeric_value())
        .collect();
    assert!(
        values.contains(&100.0),
        "the stored value shows in the form: {values:?}"
    );
    replace_text(&mut harness, Some("Name"), "bfs-py-quiet");
    harness.get_by_label("Save").click();
    harness.run();
    assert!(!harness.state().add_engine_window().open);
    let store = EngineStore::load(&folder.path().join("engines.ron")).unwrap();
    assert_eq!(store.names(), vec!["bfs-py-quiet"]);
    assert_eq!(
        store.engines()[0].options,
        vec![("info-interval".to_string(), "100".to_string())]
    );
    assert_eq!(
        harness.state().app_state().solver.solver,
        pick("bfs-py-quiet")
    );
}

#[test]
fn registered_engines_are_listed_as_external_and_an_unknown_choice_is_said_plainly() {
    let folder = tempfile::tempdir().unwrap();
    let mut harness = app_on_small_board(folder.path());
    register(folder.path(), python_example());
    // The file changed on disk: the list is read again.
    std::thread::sleep(Duration::from_millis(1100));
    harness.run();
    choose(&mut harness, "bfs-py (external)");
    assert_eq!(harness.state().app_state().solver.solver, pick("bfs-py"));
    harness.get_by_label("Remove engine").click();
    harness.run();
    assert!(harness.state().engines().engines().is_empty());
    assert!(harness.query_by_label("bfs-py (external)").is_none());
    // The removed engine stays chosen, said to be gone, and no other solver runs instead.
    assert_eq!(harness.state().app_state().solver.solver, pick("bfs-py"));
    assert!(
        harness
            .query_all_by_label_contains("'bfs-py' is neither built in nor a registered engine")
            .next()
            .is_some()
    );
    harness.get_by_label("Solve").click();
    harness.run();
    assert!(harness.state().run_summary().is_none());
}

#[test]
fn an_experiment_solver_whose_engine_is_gone_can_be_unticked() {
    let folder = tempfile::tempdir().unwrap();
    let state = AppState {
        experiments: ExperimentSettings {
            solvers: vec![pick("bfs"), pick("gone-engine")],
            ..ExperimentSettings::default()
        },
        native_dialogs: false,
        ..AppState::default()
    };
    let mut harness = harness_from(state, [1360.0, 900.0]);
    harness
        .state_mut()
        .use_engines_file(folder.path().join("engines.ron"));
    harness.run();
    harness.get_by_label("View").click();
    harness.run();
    harness.get_by_label_contains("Experiments...").click();
    harness.run();
    harness.get_by_label("gone-engine (not registered)").click();
    harness.run();
    assert_eq!(
        harness.state().app_state().experiments.solvers,
        [pick("bfs")]
    );
    assert!(
        harness
            .query_by_label("gone-engine (not registered)")
            .is_none()
    );
}

#[test]
fn a_chosen_engine_that_is_not_registered_is_said_plainly_and_nothing_runs() {
    let folder = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(manifest("boards/small-6x6.ron")).unwrap();
    let puzzle = formats::native::parse(&text).unwrap();
    let mut harness = harness_on(&puzzle, [1360.0, 900.0], |state| {
        state.solver.solver = pick("gone-engine");
    });
    harness
        .state_mut()
        .use_engines_file(folder.path().join("engines.ron"));
    harness.run();
    assert!(
        harness
            .query_all_by_label_contains("neither built in nor a registered engine")
            .next()
            .is_some()
    );
    harness.get_by_label("Solve").click();
    harness.run();
    assert!(harness.state().run_summary().is_none());
    assert_eq!(
        harness.state().app_state().solver.solver,
        pick("gone-engine")
    );
}

#[test]
fn a_failing_engine_shows_its_error_and_the_end_of_its_stderr() {
    let folder = tempfile::tempdir().unwrap();
    let pids = folder.path().join("pids");
    register(
        folder.path(),
        EngineSpec {
            name: "crashing".into(),
            command: vec![
                "python3".into(),
                manifest("tests/engines/fault_engine.py")
                    .display()
                    .to_string(),
                "crash".into(),
                pids.display().to_string(),
            ],
            dir: None,
            options: Vec::new(),
        },
    );
    let mut harness = app_on_small_board(folder.path());
    choose(&mut harness, "crashing (external)");
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(30), finished);
    harness.run();
    harness.get_by_label("The engine failed.");
    harness.get_by_label("Engine log");
    assert!(
        harness
            .query_all_by_label_contains("exited with code 3")
            .next()
            .is_some()
    );
    assert!(
        harness
            .query_all_by_label_contains("ValueError: boom in the search")
            .next()
            .is_some()
    );
}

#[test]
fn the_debugger_steps_an_engines_node_events() {
    let folder = tempfile::tempdir().unwrap();
    register(folder.path(), python_example());
    let mut harness = app_on_small_board(folder.path());
    choose(&mut harness, "bfs-py (external)");
    harness.get_by_label("Debug mode").click();
    harness.run();
    harness.get_by_label("Solve").click();
    // The run starts paused on its first event: the engine's first node.
    step_until(&mut harness, Duration::from_secs(30), |app| {
        paused_at(app, 1)
    });
    for events in 2..=4 {
        harness.key_press(egui::Key::F11);
        step_until(&mut harness, Duration::from_secs(20), |app| {
            paused_at(app, events)
        });
    }
    let view = harness.state().debugger().unwrap().frame().view.clone();
    assert!(view.nodes >= 1, "{view:?}");
    assert!(view.cells.is_some());
    // Cancel ends the run; the engine's process is given its grace after the end is sent.
    harness.get_by_label("Cancel").click();
    step_until(&mut harness, Duration::from_secs(5), finished);
    let summary = harness.state().run_summary().unwrap();
    assert_eq!(summary.outcome, Some(Outcome::Cancelled));
    println!(
        "the engine's run stopped {:?} after the cancel",
        summary.cancel_latency.unwrap()
    );
}

#[test]
fn an_experiment_in_the_window_compares_a_registered_engine_with_the_built_in_solvers() {
    let folder = tempfile::tempdir().unwrap();
    register(
        folder.path(),
        EngineSpec {
            name: "served-bfs".into(),
            command: [
                env!("CARGO_BIN_EXE_ricochet-lab"),
                "engine",
                "serve",
                "--solver",
                "bfs",
            ]
            .map(String::from)
            .to_vec(),
            dir: None,
            options: Vec::new(),
        },
    );
    let out = folder.path().join("results.csv");
    let state = AppState {
        experiments: ExperimentSettings {
            configs: 3,
            seed: 7,
            robots: 3,
            solvers: vec![pick("bfs")],
            baseline: pick("iddfs"),
            time_limit_secs: 30.0,
            out_path: out.display().to_string(),
            ..ExperimentSettings::default()
        },
        native_dialogs: false,
        ..AppState::default()
    };
    let mut harness = harness_from(state, [1360.0, 900.0]);
    harness
        .state_mut()
        .use_engines_file(folder.path().join("engines.ron"));
    harness.run();
    harness.get_by_label("View").click();
    harness.run();
    harness.get_by_label_contains("Experiments...").click();
    harness.run();
    // The engine is listed beside the built-in solvers, marked as external.
    harness.get_by_label("served-bfs (external)").click();
    harness.run();
    harness.get_by_label("Start").click();
    harness.step();
    step_until(&mut harness, Duration::from_secs(120), |app| {
        !app.experiments().is_running()
    });
    let view = harness.state().experiments();
    let engine_rows: Vec<_> = view
        .records()
        .iter()
        .filter(|r| r.solver == "served-bfs")
        .collect();
    assert_eq!(engine_rows.len(), 3, "{:?}", view.message());
    // The engine is the same breadth-first search: the baseline agrees with every answer.
    assert!(
        engine_rows.iter().all(|r| r.status == Status::Optimal),
        "{engine_rows:?}"
    );
    assert_eq!(view.records().len(), 9, "{:?}", view.records());
}
