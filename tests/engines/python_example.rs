//! The Python example engine (`examples/engines/bfs.py`, standard library only): its answers
//! equal `fast`'s on the reference puzzles it can reach, its rows reach `solve --json`,
//! `engine check` passes for it, and its recorded trace replays to the events of a live run.

use crate::common::LAB;
use ricochet_lab::model::formats::load_source;
use ricochet_lab::solver::engine::EngineSpec;
use ricochet_lab::solver::trace::TraceReader;
use ricochet_lab::solver::{
    self, Limits, NoProbe, RecordingProbe, SolverChoice, SolverId, SolverOptions,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/engines/bfs.py")
}

fn python_engine() -> SolverChoice {
    SolverChoice::engine(EngineSpec {
        name: "bfs-python".into(),
        command: vec!["python3".into(), example().display().to_string()],
        dir: None,
        options: Vec::new(),
    })
}

/// The reference puzzles a breadth-first search in Python finishes within a minute.
const REACHABLE: [&str; 1] = ["small-6x6.ron"];

#[test]
fn the_python_example_answers_as_fast_on_the_reference_puzzles_it_reaches() {
    for name in REACHABLE {
        let path = format!("{}/boards/{name}", env!("CARGO_MANIFEST_DIR"));
        let puzzle = load_source(&path).unwrap();
        let options = SolverOptions::default();
        let fast = solver::run(
            SolverId::Fast,
            &puzzle,
            &options,
            &Limits::default(),
            &mut NoProbe,
        )
        .unwrap();
        let limits = Limits {
            time: Some(Duration::from_secs(60)),
            ..Limits::default()
        };
        let mut probe = RecordingProbe::default();
        let report = solver::run(python_engine(), &puzzle, &options, &limits, &mut probe).unwrap();
        assert_eq!(
            report.outcome.move_count(),
            fast.outcome.move_count(),
            "{name}: {:?}",
            report.outcome
        );
        assert_eq!(report.solver, "bfs-python");
        assert_eq!(probe.depths, report.depths, "{name}");
        assert!(!report.depths.is_empty(), "{name}");
        // Node events reach the probe when it asks for them.
        assert!(
            probe.count(|e| matches!(e, solver::Event::Node { .. })) > 0,
            "{name}"
        );
    }
}

#[test]
fn engine_check_passes_for_the_python_example() {
    let out = Command::new(LAB)
        .args(["engine", "check", "--engine"])
        .arg(format!("python3 {}", example().display()))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn solve_json_shows_the_python_examples_rows() {
    let out = Command::new(LAB)
        .args(["solve", "boards/small-6x6.ron", "--json", "--engine"])
        .arg(format!("python3 {}", example().display()))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        value["solver"],
        "python3 ".to_string() + &example().display().to_string()
    );
    assert_eq!(value["moves"], 5);
    assert!(value["depths"].as_array().unwrap().len() >= 5, "{value}");
}

#[test]
fn the_python_examples_trace_replays_to_the_events_of_a_live_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("python.trace");
    let out = Command::new(LAB)
        .args(["trace", "record", "boards/small-6x6.ron", "-o"])
        .arg(&path)
        .arg("--engine")
        .arg(format!("python3 {}", example().display()))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reader = TraceReader::open(&path).unwrap();
    assert!(reader.header().external);
    assert!(reader.is_finished());

    let puzzle = load_source(&format!(
        "{}/boards/small-6x6.ron",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    assert_eq!(reader.puzzle(), &puzzle);
    let mut live = RecordingProbe::default();
    let limits = Limits {
        time: Some(Duration::from_secs(60)),
        ..Limits::default()
    };
    let report = solver::run(
        python_engine(),
        &puzzle,
        &SolverOptions::default(),
        &limits,
        &mut live,
    )
    .unwrap();
    assert_eq!(report.outcome.move_count(), Some(5));
    let mut replay = reader.replay(0).unwrap();
    let mut traced = Vec::new();
    while let Some(event) = replay.next_event().unwrap() {
        traced.push(event.event);
    }
    assert_eq!(traced.len(), live.events.len());
    // The two runs are equal but for the milliseconds each row took.
    let untimed = |event: &solver::Event| match event {
        solver::Event::IterationFinished(row) => {
            let mut row = row.clone();
            row.extra.retain(|(name, _)| *name != "time");
            solver::Event::IterationFinished(row)
        }
        other => other.clone(),
    };
    for (i, (a, b)) in live.events.iter().zip(&traced).enumerate() {
        assert_eq!(untimed(a), untimed(b), "event {i}");
    }
    assert!(
        traced
            .iter()
            .any(|e| matches!(e, solver::Event::IterationFinished(row) if !row.extra.is_empty()))
    );
    assert!(live.count(|e| matches!(e, solver::Event::Node { .. })) > 0);
    assert!(live.count(|e| matches!(e, solver::Event::Pruned { .. })) > 0);
}

/// `engine check` on an example engine in `examples/engines/`: exit code and output.
fn check_example(file: &str) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/engines")
        .join(file);
    let out = Command::new(LAB)
        .args(["engine", "check", "--engine"])
        .arg(format!("python3 {}", script.display()))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("RICOCHET_LAB_CONFIG_DIR", env!("CARGO_TARGET_TMPDIR"))
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn engine_check_passes_for_the_iterative_deepening_example() {
    let (passed, out) = check_example("iddfs.py");
    assert!(passed, "{out}");
    assert!(!out.contains("skip"), "it takes every puzzle:\n{out}");
}

#[test]
fn the_skeleton_is_short_and_keeps_the_protocol_while_taking_no_puzzle() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/engines/skeleton.py");
    let text = std::fs::read_to_string(&script).unwrap();
    assert!(text.lines().count() < 60, "{} lines", text.lines().count());
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/engine-protocol.md"),
    )
    .unwrap();
    assert!(
        page.contains(text.trim_end()),
        "the page shows the skeleton as it is"
    );
    let (passed, out) = check_example("skeleton.py");
    assert!(passed, "{out}");
    assert!(out.contains("skip  page-example-4x3"), "{out}");
}
