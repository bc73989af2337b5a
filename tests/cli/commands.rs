//! The command line, run as a person would.

use crate::common::run;

#[test]
fn solve_prints_deck_lines_then_the_solution() {
    let (code, out, _) = run(&["solve", "boards/small-6x6.ron", "--solver", "iddfs"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("Depth: 1, Nodes: "), "{out}");
    assert!(out.contains("\n5 moves in "), "{out}");
}

#[test]
fn solve_json_has_the_documented_fields() {
    let (code, out, _) = run(&["solve", "boards/small-6x6.ron", "--solver", "bfs", "--json"]);
    assert_eq!(code, 0);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["solver"], "bfs");
    assert_eq!(value["outcome"], "solved");
    assert_eq!(value["moves"], 5);
    assert_eq!(value["solution"].as_array().unwrap().len(), 5);
    let depth = &value["depths"][0];
    for field in ["depth", "nodes", "inner", "hits"] {
        assert!(depth.get(field).is_some(), "{field} missing in {value}");
    }
    assert!(value["millis"].is_number());
}

#[test]
fn solve_json_times_each_depth_row_on_the_clock_of_its_total() {
    for solver in ["iddfs", "bfs", "fast", "astar"] {
        let (code, out, err) = run(&[
            "solve",
            "boards/small-6x6.ron",
            "--solver",
            solver,
            "--json",
        ]);
        assert_eq!(code, 0, "{solver}: {out} {err}");
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        let total = value["millis"].as_f64().unwrap();
        let rows: Vec<f64> = value["depths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row["millis"].as_f64().expect("each row has its time"))
            .collect();
        assert!(!rows.is_empty(), "{solver}: {value}");
        assert!(rows.windows(2).all(|w| w[0] <= w[1]), "{solver}: {rows:?}");
        assert!(
            rows.iter().all(|at| *at <= total),
            "{solver}: {rows:?} past {total}"
        );
    }
}

#[test]
fn fast_runs_on_either_page_size_and_refuses_others() {
    for pages in ["huge", "small"] {
        let (code, out, err) = run(&[
            "solve",
            "boards/small-6x6.ron",
            "--solver",
            "fast",
            "--pages",
            pages,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value["moves"], 5);
    }
    let (code, _, err) = run(&["solve", "boards/small-6x6.ron", "--pages", "giant"]);
    assert_eq!(code, 2);
    assert!(err.contains("huge") && err.contains("small"), "{err}");
}

#[test]
fn a_time_limit_is_reported_with_its_own_exit_code() {
    let (code, out, _) = run(&[
        "solve",
        "7650+42+E2302B12+C9",
        "--time-limit",
        "0.05",
        "--json",
    ]);
    assert_eq!(code, 3);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["outcome"], "time-limit");
}

#[test]
fn bad_input_is_a_clear_error_with_a_non_zero_exit() {
    let cases: [(&[&str], &str); 3] = [
        (&["show", "boards/nothing-here.ron"], "No such file"),
        (&["show", "7650+42+E2302B12+CA"], "no target at (10, 12)"),
        (&["show", "puzzle.xyz"], "neither a .ron puzzle"),
    ];
    for (args, needle) in cases {
        let (code, _, err) = run(args);
        assert_eq!(code, 1, "{args:?}");
        assert!(
            err.starts_with("error: ") && err.contains(needle),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn an_unknown_solver_is_refused_with_the_names_there_are() {
    let (code, _, err) = run(&["solve", "boards/small-6x6.ron", "--solver", "magic"]);
    // Clap's usage errors exit with 2.
    assert_eq!(code, 2);
    assert!(
        err.contains("invalid value 'magic'") && err.contains("astar-manhattan"),
        "{err}"
    );
}

#[test]
fn convert_round_trips_through_cox_text_and_game_ids() {
    let dir = tempfile::tempdir().unwrap();
    let txt = dir.path().join("hardest.txt");
    let ron = dir.path().join("hardest.ron");
    let (code, _, err) = run(&["convert", "boards/hardest-25.ron", txt.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["convert", txt.to_str().unwrap(), ron.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (_, id, _) = run(&["convert", "boards/hardest-25.ron", "-"]);
    assert_eq!(id.trim(), "7650+42+E2302B12+C9");
    let (_, shown, _) = run(&["show", ron.to_str().unwrap()]);
    assert!(shown.contains("robots: R red (2, 14)"), "{shown}");
}

#[test]
fn solvers_lists_names_and_optimality() {
    let (code, out, _) = run(&["solvers"]);
    assert_eq!(code, 0);
    assert!(out.contains("bfs") && out.contains("iddfs") && out.contains("optimal"));
}

#[test]
fn export_writes_a_print_svg_and_png_and_refuses_what_it_cannot_draw() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("board.svg");
    let png = dir.path().join("board.png");
    let svg_path = svg.to_str().unwrap();
    let png_path = png.to_str().unwrap();
    let (code, out, err) = run(&[
        "export",
        "7650+42+E2302B12+C9",
        svg_path,
        "--size-mm",
        "200",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("200 x 200 mm"), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains(r#"width="200mm""#));
    assert!(text.contains(r#"class="wall""#) && text.contains(r#"class="robot""#));
    let (code, _, err) = run(&[
        "export",
        "boards/small-6x6.ron",
        png_path,
        "--size-mm",
        "25.4",
        "--dpi",
        "100",
        "--no-robots",
    ]);
    assert_eq!(code, 0, "{err}");
    let decoded = image::open(&png).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (100, 100));
    // An existing file is kept without --force; unknown formats and sizes are refused by name.
    let (code, _, err) = run(&["export", "boards/small-6x6.ron", png_path]);
    assert_eq!(code, 1);
    assert!(err.contains("--force"), "{err}");
    let jpg = dir.path().join("board.jpg");
    let (code, _, err) = run(&["export", "boards/small-6x6.ron", jpg.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains(".svg or .png"), "{err}");
    assert!(!jpg.exists());
    let (code, _, err) = run(&[
        "export",
        "boards/small-6x6.ron",
        svg_path,
        "--size-mm",
        "5",
        "--force",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not in 20..=2000 millimetres"), "{err}");
}

#[test]
fn generate_prints_positions_of_the_asked_length_that_solve_to_it() {
    let (code, out, err) = run(&[
        "generate",
        "7650+42+E2302B12+C9",
        "--moves",
        "8",
        "--count",
        "2",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    let positions = value["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 2);
    for position in positions {
        assert_eq!(position["moves"], 8);
        let id = position["puzzle"].as_str().unwrap();
        let (code, out, err) = run(&["solve", id, "--solver", "iddfs", "--json"]);
        assert_eq!(code, 0, "{err}");
        let solved: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(solved["moves"], 8, "{id}");
    }
    // The same seed gives the same positions.
    let (_, again, _) = run(&[
        "generate",
        "7650+42+E2302B12+C9",
        "--moves",
        "8",
        "--count",
        "2",
        "--seed",
        "3",
        "--json",
    ]);
    let again: serde_json::Value = serde_json::from_str(&again).unwrap();
    assert_eq!(again["positions"], value["positions"]);
}

#[test]
fn generate_on_a_board_without_game_ids_needs_a_folder_and_writes_ron_files() {
    let (code, _, err) = run(&["generate", "boards/small-6x6.ron", "--moves", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("--out-dir"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(&[
        "generate",
        "boards/small-6x6.ron",
        "--moves",
        "3",
        "--out-dir",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let file = out.split_whitespace().next().unwrap();
    assert!(file.ends_with(".ron"), "{out}");
    let (code, out, err) = run(&["solve", file, "--solver", "bfs", "--json"]);
    assert_eq!(code, 0, "{err}");
    let solved: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(solved["moves"], 3);
}
