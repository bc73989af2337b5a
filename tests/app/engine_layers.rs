//! An engine's own layer and figures in the app: a served built-in solver's lower bound
//! painted on the board and named in the Overlays tab, an engine's `info` figures in the Run
//! tab (of a debugged run too), and a drawing engine's layer stepped forward and back with
//! the debugger, as it was at each event. The engines file is a temporary one, so a user's own list is never read.

use crate::common::{finished, harness_on, manifest, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::model::formats;
use ricochet_lab::solver::engine::store::EngineStore;
use ricochet_lab::solver::engine::{DrawLayer, EngineSpec};
use std::path::Path;
use std::time::Duration;

/// The app on boards/small-6x6.ron with `spec` registered and chosen.
fn app_with_engine(folder: &Path, spec: EngineSpec) -> Harness<'static, RicochetApp> {
    let file = folder.join("engines.ron");
    let mut store = EngineStore::load(&file).unwrap();
    let title = format!("{} (external)", spec.name);
    store.add(spec, true).unwrap();
    store.save().unwrap();
    let text = std::fs::read_to_string(manifest("boards/small-6x6.ron")).unwrap();
    let puzzle = formats::native::parse(&text).unwrap();
    let mut harness = harness_on(&puzzle, [1360.0, 900.0], |_| {});
    harness.state_mut().use_engines_file(file);
    harness.run();
    harness.get_by_label("Solver").click();
    harness.run();
    harness.get_by_label(&title).scroll_to_me();
    harness.run();
    harness.get_by_label(&title).click();
    harness.run();
    harness
}

/// An engine that, asked with events, draws one numbered cell after each of its five nodes,
/// sends its figures, one malformed draw line, and gives up.
const PAINTER: &str = r#"import sys
def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
nodes = int(sys.argv[1]) if len(sys.argv) > 1 else 5
draws = len(sys.argv) < 3 or sys.argv[2] == "draw"
p = None
for raw in sys.stdin:
    w = raw.split()
    if not w:
        continue
    kv = dict(x.split("=", 1) for x in w[1:] if "=" in x)
    if w[0] == "rep":
        send("id name=painter\nid events=yes\nrepok 2")
    elif w[0] == "isready":
        send("readyok")
    elif w[0] == "puzzle":
        p = kv
    elif w[0] == "go":
        send("draw legend=step_numbers")
        send("info depth=3 nodes=5 nps=25000 table=120")
        for i in range(nodes):
            send("node path=- robots=" + p["robots"])
            if draws:
                send("draw cell=%d,%d value=%d" % (i % 6, i // 6 % 6, i))
        send("draw cell=banana")
        send("result id=" + p["id"] + " gaveup done painting")
    elif w[0] == "quit":
        break
"#;

fn painter(folder: &Path) -> EngineSpec {
    painter_of(folder, &[])
}

/// The painter with its arguments: how many nodes, and `draw` or `plain`.
fn painter_of(folder: &Path, args: &[&str]) -> EngineSpec {
    let script = folder.join("painter.py");
    std::fs::write(&script, PAINTER).unwrap();
    let mut command = vec!["python3".to_string(), script.display().to_string()];
    command.extend(args.iter().map(|a| a.to_string()));
    EngineSpec {
        name: "painter".into(),
        command,
        dir: None,
        options: Vec::new(),
    }
}

#[test]
fn a_served_solver_paints_its_lower_bound_named_after_the_engine() {
    let folder = tempfile::tempdir().unwrap();
    let spec = EngineSpec {
        name: "served-iddfs".into(),
        command: [
            env!("CARGO_BIN_EXE_ricochet-lab"),
            "engine",
            "serve",
            "--solver",
            "iddfs",
        ]
        .map(String::from)
        .to_vec(),
        dir: None,
        options: Vec::new(),
    };
    let mut harness = app_with_engine(folder.path(), spec);
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(60), finished);
    let (name, cells) = harness.state().engine_drawing_shown().expect("a layer");
    assert_eq!(name, "served-iddfs");
    // Every cell of the small board reaches the target in the minimum-move table.
    assert!(cells >= 30, "{cells} cells drawn");
    harness.get_by_label("Overlays").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("served-iddfs's drawing: iddfs: fewest moves")
            .is_some(),
        "the Overlays tab names the engine and its legend"
    );
    // Switched off, it draws nothing and its line goes.
    harness.get_by_label("Engine's drawing").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("served-iddfs's drawing")
            .is_none()
    );
}

#[test]
fn an_engines_figures_show_in_the_run_tab() {
    let folder = tempfile::tempdir().unwrap();
    let spec = painter(folder.path());
    let mut harness = app_with_engine(folder.path(), spec);
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(30), finished);
    harness.run();
    assert!(
        harness
            .query_by_label_contains(
                "Engine's last figures: depth 3 · 5 nodes · 25k nodes/s · table 12.0%"
            )
            .is_some(),
        "the Run tab shows the engine's last info line"
    );
    // The per-search drawing arrived without the debugger: five numbered cells, one of them
    // drawn again by nothing (the malformed line is ignored).
    let (_, cells) = harness.state().engine_drawing_shown().expect("a layer");
    assert_eq!(cells, 5);
}

/// The number of cells the debugger's shown picture has in the engine's layer.
fn drawn_cells(app: &RicochetApp) -> usize {
    app.debugger()
        .and_then(|d| d.shown_picture().part::<DrawLayer>())
        .map_or(0, |layer| layer.cells.len())
}

fn shown_events(app: &RicochetApp) -> u64 {
    app.debugger().map_or(0, |d| d.shown_view().events)
}

#[test]
fn the_debugger_steps_the_engines_layer_forward_and_back() {
    let folder = tempfile::tempdir().unwrap();
    let spec = painter(folder.path());
    let mut harness = app_with_engine(folder.path(), spec);
    harness.get_by_label("Debug mode").click();
    harness.run();
    harness.get_by_label("Solve").click();
    // Events: the legend, the figures, then a node and its cell five times.
    step_until(&mut harness, Duration::from_secs(30), |app| {
        shown_events(app) == 1
    });
    assert_eq!(drawn_cells(harness.state()), 0);
    for events in 2..=8 {
        harness.key_press(egui::Key::F11);
        step_until(&mut harness, Duration::from_secs(20), |app| {
            shown_events(app) == events && app.debugger().is_some_and(|d| d.is_paused())
        });
    }
    // After node, cell, node, cell, node, cell: three cells.
    assert_eq!(drawn_cells(harness.state()), 3);
    // The figures the engine sent show in the Run tab as in a plain run.
    harness.get_by_label("Run").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("Engine: depth 3 · 5 nodes · 25k nodes/s · table 12.0%")
            .is_some(),
        "the Run tab shows the debugged engine's figures"
    );
    harness.get_by_label("Debugger").click();
    harness.run();
    for _ in 0..3 {
        harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F11);
        harness.run_steps(4);
    }
    step_until(&mut harness, Duration::from_secs(20), |app| {
        shown_events(app) == 5 && drawn_cells(app) == 1
    });
    let debugger = harness.state().debugger().unwrap();
    let layer = debugger.shown_picture().part::<DrawLayer>().unwrap();
    let legend = layer.legend.clone();
    assert_eq!(legend.as_deref(), Some("step numbers"));
    // The malformed line is one line in the engine's log, not a failed run: let it finish.
    harness.get_by_label("Continue").click();
    step_until(&mut harness, Duration::from_secs(20), finished);
    let log: Vec<String> = harness
        .state()
        .debugger()
        .unwrap()
        .log()
        .iter()
        .map(|r| format!("{:?}", r.event))
        .collect();
    let ignored = log
        .iter()
        .filter(|l| l.contains("ignored a malformed line"))
        .count();
    assert_eq!(ignored, 1, "{log:#?}");
}

/// The debugger's speed running through a recorded engine run to its end, with a drawing line
/// after every node and without: events per second of each, printed. A measurement, not a
/// check (machines differ): run it with `--run-ignored only`.
#[test]
#[ignore = "a measurement"]
fn debugger_speed_with_and_without_the_engines_layer() {
    let nodes = "20000";
    for mode in ["plain", "draw"] {
        let folder = tempfile::tempdir().unwrap();
        let spec = painter_of(folder.path(), &[nodes, mode]);
        let mut harness = app_with_engine(folder.path(), spec);
        harness.get_by_label("Debug mode").click();
        harness.run();
        harness.get_by_label("Solve").click();
        step_until(&mut harness, Duration::from_secs(30), |app| {
            shown_events(app) >= 1
        });
        let start = std::time::Instant::now();
        harness.get_by_label("Continue").click();
        step_until(&mut harness, Duration::from_secs(300), finished);
        let forward = start.elapsed();
        let events = harness
            .state()
            .debugger()
            .map_or(0, |d| d.frame().view.events);
        // Back through the recording: every step rebuilds the picture at its event.
        let back = std::time::Instant::now();
        let steps = 200;
        for _ in 0..steps {
            harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F11);
            harness.run();
        }
        let backward = back.elapsed();
        println!(
            "{mode}: {events} events to the end in {:.2} s ({:.0} events/s); {steps} steps back in {:.2} s ({:.1} ms a step, {} cells drawn there)",
            forward.as_secs_f64(),
            events as f64 / forward.as_secs_f64(),
            backward.as_secs_f64(),
            backward.as_secs_f64() * 1000.0 / f64::from(steps),
            drawn_cells(harness.state()),
        );
    }
}
