//! Plots exported from the app: the Run tab's time plot written as SVG and PNG through the
//! export button's path field (the app's own file window, as without system dialogs), a
//! failed write said with the file's name, and an engine's solves plotted under its name.

use crate::common::{app_on_small_board, finished, manifest, replace_text, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::solver::engine::EngineSpec;
use ricochet_lab::solver::engine::store::EngineStore;
use std::path::Path;
use std::time::Duration;

/// Writes the time plot (the first plot's export button) to `path`.
fn export_time_plot(harness: &mut Harness<'_, RicochetApp>, path: &Path) {
    harness
        .get_all_by_label("Export plot...")
        .next()
        .expect("the time plot's export button")
        .click();
    harness.run();
    replace_text(harness, Some("Plot file"), &path.display().to_string());
    harness.get_by_label("Write plot").click();
    harness.run();
}

fn solve(harness: &mut Harness<'_, RicochetApp>) {
    harness.get_by_label("Solve").click();
    step_until(harness, Duration::from_secs(60), finished);
    harness.run();
}

#[test]
fn the_time_plot_is_exported_as_svg_and_png_and_a_failed_write_names_the_file() {
    let folder = tempfile::tempdir().unwrap();
    let mut harness = app_on_small_board(folder.path());
    solve(&mut harness);
    assert_eq!(harness.state().plotted_solves(), 1);

    let svg = folder.path().join("time.svg");
    export_time_plot(&mut harness, &svg);
    let text = std::fs::read_to_string(&svg).expect("the SVG is written");
    assert!(text.starts_with("<svg"), "{}", &text[..80.min(text.len())]);
    for expected in ["Time against solution length", "moves", "time"] {
        assert!(text.contains(expected), "{expected} in the SVG");
    }
    let message = harness
        .state()
        .status_message()
        .unwrap_or_default()
        .to_string();
    assert!(message.contains("time.svg"), "{message}");

    let png = folder.path().join("time.png");
    export_time_plot(&mut harness, &png);
    let picture = image::open(&png).expect("the PNG decodes");
    assert!(picture.width() > 1000, "{}", picture.width());

    let nowhere = folder.path().join("no-such-folder").join("time.svg");
    export_time_plot(&mut harness, &nowhere);
    let message = harness
        .state()
        .status_message()
        .unwrap_or_default()
        .to_string();
    assert!(
        message.contains("could not be written") && message.contains("no-such-folder"),
        "{message}"
    );
    assert!(!nowhere.exists());
}

#[test]
fn an_engine_solve_is_plotted_as_a_series_named_by_the_engine() {
    let folder = tempfile::tempdir().unwrap();
    let file = folder.path().join("engines.ron");
    let mut store = EngineStore::load(&file).unwrap();
    store
        .add(
            EngineSpec {
                name: "bfs-py".into(),
                command: vec![
                    "python3".into(),
                    manifest("examples/engines/bfs.py").display().to_string(),
                ],
                dir: None,
                options: Vec::new(),
            },
            true,
        )
        .unwrap();
    store.save().unwrap();
    let mut harness = app_on_small_board(folder.path());
    harness.get_by_label("Solver").click();
    harness.run();
    harness.get_by_label("bfs-py (external)").scroll_to_me();
    harness.run();
    harness.get_by_label("bfs-py (external)").click();
    harness.run();
    solve(&mut harness);
    assert_eq!(harness.state().plotted_solves(), 1);
    // Its legend entry and its exported series carry the engine's name.
    assert!(harness.query_by_label("bfs-py").is_some());
    let svg = folder.path().join("engine.svg");
    export_time_plot(&mut harness, &svg);
    let text = std::fs::read_to_string(&svg).expect("the SVG is written");
    // The SVG writer puts a text element's content on a line of its own.
    assert!(
        text.contains("\nbfs-py\n</text>"),
        "the engine in the legend"
    );
}
