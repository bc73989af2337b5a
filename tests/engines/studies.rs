//! The studies mix built-in solvers and engines: `bench`, `experiment` and `accuracy` take a
//! registered engine's name in `--solvers`/`--solver`, or an engine's command line in
//! `--engine`, and treat its runs as a built-in solver's.

use crate::common::{LAB, lab_in as lab};

fn served(solver: &str) -> String {
    format!("{LAB} engine serve --solver {solver}")
}

#[test]
fn bench_times_a_registered_engine_beside_the_built_in_solvers() {
    let config = tempfile::tempdir().unwrap();
    let (code, out, err) = lab(
        config.path(),
        &[
            "engine",
            "add",
            "served-bfs",
            "--",
            LAB,
            "engine",
            "serve",
            "--solver",
            "bfs",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = lab(
        config.path(),
        &[
            "bench",
            "--solvers",
            "bfs,served-bfs",
            "--puzzles",
            "small-6x6,standard-random",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    // Both puzzles, both solvers, the engine marked as external.
    for puzzle in ["small-6x6", "standard-random"] {
        assert!(out.contains(&format!("| {puzzle} | bfs | 1 |")), "{out}");
        assert!(
            out.contains(&format!("| {puzzle} | served-bfs (external) |")),
            "{out}"
        );
    }
    assert!(!out.contains("fogleman-22"), "{out}");
    // The engine table sets the engine's time over the built-in solver's, with both answers.
    assert!(out.contains("External engines"), "{out}");
    assert!(
        out.contains("| small-6x6 | bfs × 1 | served-bfs (external) | 5 | 5 |"),
        "{out}"
    );

    let (code, out, err) = lab(
        config.path(),
        &["bench", "--solvers", "bfs", "--puzzles", "nowhere-99"],
    );
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains("nowhere-99") && err.contains("small-6x6"),
        "{err}"
    );
}

#[test]
fn bench_json_marks_an_engine_given_by_its_command_line() {
    let config = tempfile::tempdir().unwrap();
    let engine = served("iddfs");
    let (code, out, err) = lab(
        config.path(),
        &[
            "bench",
            "--solvers",
            "bfs",
            "--engine",
            &engine,
            "--puzzles",
            "small-6x6",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = value["reference"].as_array().unwrap();
    let engine_row = rows
        .iter()
        .find(|row| row["solver"] == engine.as_str())
        .unwrap_or_else(|| panic!("{value}"));
    assert_eq!(engine_row["external"], true, "{value}");
    assert_eq!(engine_row["moves"], 5, "{value}");
    assert!(engine_row["nodes"].as_u64().unwrap() > 0, "{value}");
}

#[test]
fn an_experiment_compares_an_engine_with_the_built_in_solvers_row_by_row() {
    let config = tempfile::tempdir().unwrap();
    let results = config.path().join("results.csv");
    let engine = served("bfs");
    let (code, out, err) = lab(
        config.path(),
        &[
            "experiment",
            "--configs",
            "4",
            "--robots",
            "3",
            "--solvers",
            "bfs",
            "--engine",
            &engine,
            "--baseline",
            "iddfs",
            "--out",
            results.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let csv = std::fs::read_to_string(&results).unwrap();
    let rows_of = |solver: &str| {
        csv.lines()
            .filter(|line| line.contains(&format!(",{solver},")))
            .count()
    };
    assert_eq!(rows_of("bfs"), 4, "{csv}");
    assert_eq!(rows_of("iddfs"), 4, "{csv}");
    assert_eq!(rows_of(&engine), 4, "{csv}");
    // The engine is the same breadth-first search: every row optimal.
    assert!(
        csv.lines()
            .filter(|line| line.contains(&format!(",{engine},")))
            .all(|line| line.contains(",optimal,")),
        "{csv}"
    );
}

#[test]
fn accuracy_measures_an_engine_against_the_optimal_baseline() {
    let config = tempfile::tempdir().unwrap();
    let engine = served("bfs");
    let (code, out, err) = lab(
        config.path(),
        &[
            "accuracy",
            "--engine",
            &engine,
            "--puzzles",
            "5",
            "--robots",
            "3",
            "--json",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["solver"], engine.as_str(), "{value}");
    assert_eq!(value["baseline"], "iddfs", "{value}");
    let (code, _, err) = lab(config.path(), &["accuracy", "--solver", "no-such-engine"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no-such-engine"), "{err}");
}

#[test]
fn bench_compares_an_engine_that_claims_shortest_answers_and_dashes_what_it_does_not_report() {
    let config = tempfile::tempdir().unwrap();
    // A served optimal solver says `optimal=yes`: its move counts are compared with bfs's.
    let engine = served("iddfs");
    let (code, out, err) = lab(
        config.path(),
        &[
            "bench",
            "--solvers",
            "bfs",
            "--engine",
            &engine,
            "--puzzles",
            "small-6x6",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("All optimal solvers agree on every move count (1 puzzles compared)"),
        "{out}"
    );
    // No engine reports its memory: a dash, not "0 KiB".
    let row = out
        .lines()
        .find(|line| line.contains("(external) | 1 |"))
        .unwrap_or_default();
    assert!(row.contains("| – |"), "{out}");
    assert!(!row.contains("0 KiB"), "{out}");
}
