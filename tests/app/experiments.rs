//! The Experiments window driven by its labels: a tiny real run (six standard configurations,
//! BFS and IDDFS) fills the tables and opens a configuration on the board; Pause and Resume
//! finish the experiment without losing or duplicating a row; an existing output file is not
//! overwritten; a finished file opens without running anything; Ctrl+E opens the window.

use crate::common::{harness_from, replace_text, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::experiments::ExperimentSettings;
use ricochet_lab::app::experiments::series::Selection;
use ricochet_lab::app::{RicochetApp, settings::AppState};
use ricochet_lab::model::formats::game_id;
use ricochet_lab::solver::SolverId;
use ricochet_lab::study::experiment::record::read_records;
use ricochet_lab::study::experiment::{Record, Status};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A fresh output path in a temporary directory of its own, removed when the returned
/// directory is dropped.
fn temp_csv(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("{name}.csv"));
    (dir, path)
}

fn settings(configs: u64, out: &Path) -> ExperimentSettings {
    ExperimentSettings {
        configs,
        seed: 7,
        solvers: vec![SolverId::Bfs.into(), SolverId::Iddfs.into()],
        baseline: SolverId::Iddfs.into(),
        time_limit_secs: 30.0,
        out_path: out.display().to_string(),
        ..ExperimentSettings::default()
    }
}

fn harness_with(settings: ExperimentSettings) -> Harness<'static, RicochetApp> {
    let state = AppState {
        experiments: settings,
        native_dialogs: false,
        ..AppState::default()
    };
    harness_from(state, [1360.0, 900.0])
}

/// Opens the window through the View menu.
fn open_window(harness: &mut Harness<'_, RicochetApp>) {
    harness.get_by_label("View").click();
    harness.run();
    harness.get_by_label_contains("Experiments...").click();
    harness.run();
    assert!(harness.state().experiments().open, "the window is open");
}

/// The app with the README's 2,000-configuration study opened in the experiments window,
/// and the temporary directory that holds the study's copy.
fn harness_with_the_study() -> (tempfile::TempDir, Harness<'static, RicochetApp>) {
    let (dir, out) = temp_csv("study");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots/study-2000.csv"),
        &out,
    )
    .unwrap();
    let mut harness = harness_with(settings(3, &out));
    open_window(&mut harness);
    harness.get_by_label("Open results").click();
    harness.run();
    (dir, harness)
}

/// Where the list of configurations stands beside the plots and tables (the rightmost node
/// of that name).
fn configurations_panel(harness: &Harness<'_, RicochetApp>) -> egui::Rect {
    harness
        .query_all_by_label("Configurations")
        .map(|node| node.rect())
        .max_by(|a, b| a.left().total_cmp(&b.left()))
        .unwrap()
}

fn keys(records: &[Record]) -> BTreeSet<(u64, String)> {
    records
        .iter()
        .map(|r| (r.config, r.solver.clone()))
        .collect()
}

#[test]
fn a_tiny_run_fills_the_tables_and_opens_a_listed_configuration_on_the_board() {
    let (_out_dir, out) = temp_csv("tiny");
    let mut harness = harness_with(settings(6, &out));
    open_window(&mut harness);
    harness.get_by_label("Start").click();
    harness.step();
    step_until(&mut harness, Duration::from_secs(120), |app| {
        !app.experiments().is_running()
    });
    let view = harness.state().experiments();
    assert_eq!(view.records().len(), 12, "{:?}", view.message());
    assert!(view.message().unwrap().starts_with("Finished"));
    // Both solvers are optimal, so each agrees with the baseline on every configuration.
    assert!(
        view.records().iter().all(|r| r.status == Status::Optimal),
        "{:?}",
        view.records()
    );
    let summary = view.summary();
    assert_eq!(summary.distribution.values().sum::<u64>(), 6);
    assert_eq!(summary.solvers.len(), 2);
    assert!(summary.solvers.iter().all(|s| s.hit_rate() == 1.0));
    // Every row is in the output file, once.
    let written = read_records(&out).unwrap();
    assert_eq!(keys(&written), keys(view.records()));
    assert_eq!(written.len(), 12);

    // The tables: a click on a move count (the last table's row) lists its configurations.
    let moves = *summary.distribution.keys().next().unwrap();
    harness.get_by_label("Tables").click();
    harness.run();
    harness
        .get_all_by_label(&moves.to_string())
        .last()
        .unwrap()
        .click();
    harness.run();
    assert_eq!(
        harness.state().experiments().selection(),
        Some(&Selection {
            solver: None,
            moves: Some(moves),
        })
    );
    let listed: Vec<Record> = harness
        .state()
        .experiments()
        .records()
        .iter()
        .filter(|r| r.required_moves == Some(moves))
        .cloned()
        .collect();
    let mut first = listed.clone();
    first.sort_by_key(|r| r.config);
    let first = &first[0];
    // Clicking the first listed run opens its configuration on the board.
    harness
        .get_all_by_label_contains(" required), ")
        .next()
        .unwrap()
        .click();
    harness.run();
    harness.run();
    let board = harness.state().draft().to_puzzle().unwrap();
    assert_eq!(game_id::write(&board).unwrap(), first.puzzle);
    let _ = std::fs::remove_file(&out);
}

#[test]
fn pause_then_resume_finishes_without_losing_or_duplicating_a_row() {
    let (_out_dir, out) = temp_csv("pause");
    let configs = 60;
    let mut harness = harness_with(settings(configs, &out));
    open_window(&mut harness);
    harness.get_by_label("Start").click();
    harness.step();
    step_until(&mut harness, Duration::from_secs(60), |app| {
        app.experiments().records().len() >= 4 || !app.experiments().is_running()
    });
    let paused = harness.state().experiments().is_running();
    if paused {
        harness.get_by_label("Pause").click();
        harness.step();
        step_until(&mut harness, Duration::from_secs(60), |app| {
            !app.experiments().is_running()
        });
        assert!(harness.state().experiments().is_paused());
        // Every finished row is already in the file.
        let written = read_records(&out).unwrap();
        assert_eq!(
            keys(&written),
            keys(harness.state().experiments().records())
        );
    } else {
        eprintln!("note: the run finished before it could be paused; resuming a finished file");
    }
    harness.get_by_label("Resume").click();
    harness.step();
    step_until(&mut harness, Duration::from_secs(300), |app| {
        !app.experiments().is_running()
    });
    let view = harness.state().experiments();
    assert!(!view.is_paused());
    let written = read_records(&out).unwrap();
    assert_eq!(written.len() as u64, configs * 2, "no row lost or repeated");
    assert_eq!(keys(&written).len() as u64, configs * 2);
    assert_eq!(keys(&written), keys(view.records()));
    let _ = std::fs::remove_file(&out);
}

#[test]
fn start_refuses_to_overwrite_an_existing_output_file() {
    let (_out_dir, out) = temp_csv("exists");
    std::fs::write(&out, "precious\n").unwrap();
    let mut harness = harness_with(settings(2, &out));
    // The shortcut opens the window too.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
    harness.run();
    assert!(harness.state().experiments().open);
    harness.get_by_label("Start").click();
    harness.step();
    let view = harness.state().experiments();
    assert!(!view.is_running());
    assert!(
        view.message().unwrap().contains("already exists"),
        "{:?}",
        view.message()
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "precious\n");
    let _ = std::fs::remove_file(&out);
}

#[test]
fn a_previous_csv_loads_for_comparison_and_export_writes_every_row() {
    let (_out_dir, out) = temp_csv("compare-out");
    let mut harness = harness_with(settings(3, &out));
    open_window(&mut harness);
    harness.get_by_label("Start").click();
    harness.step();
    step_until(&mut harness, Duration::from_secs(120), |app| {
        !app.experiments().is_running()
    });
    assert_eq!(harness.state().experiments().records().len(), 6);

    // Load the run's own file as the comparison.
    replace_text(
        &mut harness,
        Some("Compare with CSV"),
        &out.display().to_string(),
    );
    harness.get_by_label("Load CSV to compare").click();
    harness.run();
    let message = harness.state().experiments().message().unwrap().to_string();
    assert!(message.starts_with("Comparing with"), "{message}");
    assert!(message.contains("6 rows"), "{message}");

    // A file that is not a results file is refused with its name.
    let (_bad_dir, bad) = temp_csv("compare-bad");
    std::fs::write(&bad, "not,a,results,file\n1,2,3,4\n").unwrap();
    replace_text(
        &mut harness,
        Some("Compare with CSV"),
        &bad.display().to_string(),
    );
    harness.get_by_label("Load CSV to compare").click();
    harness.run();
    let message = harness.state().experiments().message().unwrap().to_string();
    assert!(message.starts_with("Cannot load"), "{message}");
    assert!(message.contains("compare-bad"), "{message}");

    // Export CSV writes the rows sorted, and they read back equal.
    let (_export_dir, export) = temp_csv("export");
    let base = export.with_extension("");
    replace_text(&mut harness, Some("Export to"), &base.display().to_string());
    harness.get_by_label("Export CSV").click();
    harness.run();
    let exported = read_records(&export).unwrap();
    assert_eq!(
        keys(&exported),
        keys(harness.state().experiments().records())
    );
    assert_eq!(exported.len(), 6);
    for path in [out, bad, export] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn open_results_shows_a_finished_file_without_running_anything() {
    // A finished file, written by a first window's run.
    let (_out_dir, out) = temp_csv("open-results");
    let mut first = harness_with(settings(3, &out));
    open_window(&mut first);
    first.get_by_label("Start").click();
    first.step();
    step_until(&mut first, Duration::from_secs(120), |app| {
        !app.experiments().is_running()
    });
    drop(first);
    let written = read_records(&out).unwrap();
    assert_eq!(written.len(), 6);

    // A second window opens it: every row is shown, and nothing runs.
    let mut harness = harness_with(settings(3, &out));
    open_window(&mut harness);
    harness.get_by_label("Open results").click();
    harness.run();
    let view = harness.state().experiments();
    assert!(!view.is_running());
    assert_eq!(keys(view.records()), keys(&written));
    let message = view.message().unwrap().to_string();
    assert!(
        message.contains("6 rows, 3 configurations, 2 solvers"),
        "{message}"
    );
    assert_eq!(
        read_records(&out).unwrap().len(),
        6,
        "the file is untouched"
    );

    // The plots' legend hides a solver in every plot, and shows it again.
    harness.get_by_label("Naive BFS in the plots").click();
    harness.run();
    let hidden: Vec<&String> = harness
        .state()
        .experiments()
        .hidden_solvers()
        .iter()
        .collect();
    assert_eq!(hidden, ["bfs"]);
    harness.get_by_label("Show all").click();
    harness.run();
    assert!(harness.state().experiments().hidden_solvers().is_empty());

    // A file that is not a results file is refused with its name, keeping what is shown.
    let (_bad_dir, bad) = temp_csv("open-bad");
    std::fs::write(&bad, "not,a,results,file\n1,2,3,4\n").unwrap();
    replace_text(&mut harness, Some("Output CSV"), &bad.display().to_string());
    harness.get_by_label("Open results").click();
    harness.run();
    let view = harness.state().experiments();
    let message = view.message().unwrap().to_string();
    assert!(message.starts_with("Cannot open"), "{message}");
    assert!(message.contains("open-bad"), "{message}");
    assert_eq!(view.records().len(), 6);
    for path in [out, bad] {
        let _ = std::fs::remove_file(path);
    }
}

// The spinner of a running experiment stands beside its progress text, never over it.
#[test]
fn the_running_spinner_stays_clear_of_the_progress_text() {
    let (_out_dir, out) = temp_csv("spinner");
    let mut harness = harness_with(settings(200, &out));
    open_window(&mut harness);
    harness.get_by_label("Start").click();
    harness.step();
    harness.step();
    // Two hundred configurations take far longer than two frames.
    assert!(harness.state().experiments().is_running());
    let spinner = harness.get_by_label("Experiment running").rect();
    // The progress bar: the widest progress indicator (the spinner is one too).
    let bar = harness
        .query_all_by_role(egui::accesskit::Role::ProgressIndicator)
        .map(|node| node.rect())
        .max_by(|a, b| a.width().total_cmp(&b.width()))
        .unwrap();
    assert!(bar.width() > spinner.width() * 4.0, "{bar:?}");
    assert!(
        !spinner.intersects(bar),
        "spinner {spinner:?} over the progress bar {bar:?}"
    );
    // The experiment's Cancel is the enabled one: no solve runs, so the Run tab's is not.
    harness
        .query_all_by_label("Cancel")
        .find(|node| !egui_kittest::kittest::NodeT::accesskit_node(node).is_disabled())
        .unwrap()
        .click();
    harness.step();
    step_until(&mut harness, Duration::from_secs(60), |app| {
        !app.experiments().is_running()
    });
}

// Eleven solvers make the tables wider than their panel: the columns that do not fit go to a
// second table with the move counts repeated, never cut at the panel's edge.
#[test]
fn every_table_column_is_shown_whole_beside_the_configurations_panel() {
    let (_dir, mut harness) = harness_with_the_study();
    harness.get_by_label("Tables").click();
    harness.run();
    let side_panel = configurations_panel(&harness);
    let mut headers = 0;
    for kind in ricochet_lab::solver::SOLVERS {
        for node in harness.query_all_by_role_and_label(egui::accesskit::Role::Label, kind.title) {
            headers += 1;
            assert!(
                node.rect().right() <= side_panel.left(),
                "{}'s column at {:?} runs under the configurations at {side_panel:?}",
                kind.title,
                node.rect()
            );
        }
    }
    assert!(
        headers >= 11,
        "every solver heads a column ({headers} headers)"
    );
}

#[test]
fn export_png_writes_the_plots_whole_as_they_stand_on_the_screen() {
    let (dir, mut harness) = harness_with_the_study();
    let base = dir.path().join("plots");
    replace_text(&mut harness, Some("Export to"), &base.display().to_string());
    harness.get_by_label("Export PNG").click();
    step_until(&mut harness, Duration::from_secs(60), |app| {
        app.experiments()
            .message()
            .is_some_and(|m| m.starts_with("Wrote the plots"))
    });
    let picture = image::open(base.with_extension("png")).unwrap().to_rgba8();
    let screen = harness.render().unwrap();

    // The picture is a part of the screen as it stands, found where it starts a little left
    // of the legend's first letter and level with its top.
    let legend = harness.get_by_label_contains("Solvers (click").rect();
    let (width, height) = picture.dimensions();
    let matches = |x: u32, y: u32| {
        x + width <= screen.width()
            && y + height <= screen.height()
            && (0..height)
                .all(|dy| (0..width).all(|dx| picture[(dx, dy)] == screen[(x + dx, y + dy)]))
    };
    let left = legend.left().round() as u32;
    let top = legend.top().round() as u32;
    let origin = (left.saturating_sub(8)..left)
        .flat_map(|x| (top.saturating_sub(4)..=top).map(move |y| (x, y)))
        .find(|&(x, y)| matches(x, y));
    let Some((x, y)) = origin else {
        panic!(
            "the {width}x{height} picture is not the screen's part beside the legend at {legend:?}"
        );
    };
    // Its left edge is the window's own fill: neither the window's border nor what lies
    // behind the window.
    let fill = picture[(0, 0)];
    assert!(
        (0..3.min(x.min(width))).all(|dx| (0..height).all(|dy| picture[(dx, dy)] == fill)),
        "the picture's left edge is not one colour"
    );
    // It holds the lower plots whole (each at least 140 points high) and stops short of the
    // configurations beside them.
    let lower_title = harness
        .get_by_label("Configurations per required move count")
        .rect();
    assert!(
        (y + height) as f32 >= lower_title.bottom() + 140.0,
        "the picture ends at {}, close under the lower plots' title at {lower_title:?}",
        y + height
    );
    let side_panel = configurations_panel(&harness);
    assert!(
        (x + width) as f32 >= lower_title.right() && ((x + width) as f32) < side_panel.left(),
        "the picture ends at {} (title {lower_title:?}, panel {side_panel:?})",
        x + width
    );
}
