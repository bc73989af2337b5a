//! The built-in solvers served as engines (`engine serve`), driven by this program's own
//! driver: `engine check` passes for each, and `solve --engine` shows an engine's rows.

use crate::common::{LAB, lab_in};
use ricochet_lab::solver::SolverId;
use std::path::Path;

fn lab(args: &[&str]) -> (i32, String, String) {
    lab_in(Path::new(env!("CARGO_TARGET_TMPDIR")), args)
}

fn served(solver: SolverId) -> String {
    format!("{LAB} engine serve --solver {solver}")
}

#[test]
fn engine_check_passes_for_every_built_in_solver_served_as_an_engine() {
    let mut failures = Vec::new();
    for solver in SolverId::ALL {
        let (code, out, err) = lab(&["engine", "check", "--engine", &served(solver)]);
        if code != 0 {
            failures.push(format!("{solver}:\n{out}{err}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn solve_json_with_an_engine_shows_its_rows_and_its_answer() {
    let (code, out, err) = lab(&[
        "solve",
        "boards/small-6x6.ron",
        "--engine",
        &served(SolverId::Bfs),
        "--json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["outcome"], "solved");
    assert_eq!(value["moves"], 5);
    let rows = value["depths"].as_array().unwrap();
    assert!(rows.len() >= 5, "{value}");
    assert!(
        rows.iter()
            .all(|row| row["nodes"].is_u64() && row["millis"].is_f64()),
        "{value}"
    );
    // The served solver's own time for each row comes as the engine's `time` counter.
    assert!(rows.iter().all(|row| row["time"].is_u64()), "{value}");
}

#[test]
fn engines_are_registered_listed_used_by_name_and_removed() {
    let folder = tempfile::tempdir().unwrap();
    let lab_in = |args: &[&str]| lab_in(folder.path(), args);
    let (code, out, err) = lab_in(&[
        "engine",
        "add",
        "served-bfs",
        "--",
        LAB,
        "engine",
        "serve",
        "--solver",
        "bfs",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(folder.path().join("engines.ron").is_file());
    let (code, out, _) = lab_in(&["engine", "list"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("served-bfs") && out.contains("engine serve --solver bfs"),
        "{out}"
    );
    let (code, out, err) = lab_in(&["solve", "boards/small-6x6.ron", "--solver", "served-bfs"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("5 moves in"), "{out}");
    let (code, out, err) = lab_in(&["engine", "test", "served-bfs"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("works"), "{out}");
    let (code, _, err) = lab_in(&["solve", "boards/small-6x6.ron", "--solver", "nosuch"]);
    assert_ne!(code, 0);
    assert!(err.contains("served-bfs") && err.contains("fast"), "{err}");
    let (code, _, _) = lab_in(&["engine", "remove", "served-bfs"]);
    assert_eq!(code, 0);
    let (_, out, _) = lab_in(&["engine", "list"]);
    assert!(!out.contains("served-bfs"), "{out}");
    let (code, _, err) = lab_in(&["engine", "add", "fast", "--", "python3", "x.py"]);
    assert_ne!(code, 0);
    assert!(err.contains("built-in"), "{err}");
}

#[test]
fn a_live_run_of_an_engine_publishes_its_rows_as_a_built_in_solver_does() {
    use ricochet_lab::solver::SolverChoice;
    use ricochet_lab::solver::engine::EngineSpec;
    use ricochet_lab::worker::{RunEnd, SolveJob};
    use std::sync::Arc;
    use std::time::Duration;

    let puzzle = ricochet_lab::testing::small();
    let engine = SolverChoice::engine(EngineSpec::ad_hoc(&served(SolverId::Bfs)).unwrap());
    let mut run = SolveJob::new(engine, puzzle)
        .spawn(Arc::new(|_| {}))
        .unwrap();
    assert!(run.solver().name().contains("engine serve --solver bfs"));
    while !run.is_finished() {
        run.drain();
        std::thread::sleep(Duration::from_millis(2));
    }
    run.drain();
    match run.end() {
        Some(RunEnd::Finished(report)) => {
            assert_eq!(report.outcome.move_count(), Some(5));
            assert_eq!(run.rows().len(), report.depths.len());
            assert!(!report.depths.is_empty());
        }
        other => panic!("the live run ended as {other:?}"),
    }
}

#[test]
fn served_fast_speaks_version_2_with_its_threads_option_and_version_1_without() {
    use ricochet_lab::solver::engine::serve::serve_text;
    let puzzle = "puzzle id=p1 size=4x3 walls=d1139002c446 closed=- robots=R@0,0;B@3,2 goal=R@3,0 targets=- rules=-";
    let out = serve_text(
        SolverId::Fast,
        &format!(
            "rep 2\nsetoption name=threads value=2\nsetoption name=threads value=999\nsetoption name=colour value=red\n{puzzle}\ngo\nquit\n"
        ),
    );
    assert!(
        out.contains("option name=threads type=spin default=0 min=0 max=256\n"),
        "{out}"
    );
    assert!(out.contains("repok 2\n"), "{out}");
    assert!(
        out.contains("info string ignored: 999 is no value of the option threads (spin, 0 to 256)"),
        "{out}"
    );
    assert!(
        out.contains("info string ignored: there is no option colour"),
        "{out}"
    );
    assert!(out.contains("result id=p1 solved RE"), "{out}");
    let old = serve_text(SolverId::Fast, "rep 1\nquit\n");
    assert!(
        old.contains("repok 1\n") && !old.contains("option "),
        "{old}"
    );
    // The driver sets the option through --option, checked against the declaration.
    let (code, out, err) = lab(&[
        "solve",
        "boards/small-6x6.ron",
        "--engine",
        &served(SolverId::Fast),
        "--option",
        "threads=2",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("5 moves in"), "{out}");
}
