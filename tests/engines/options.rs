//! Protocol version 2 through the command line: options declared, stored, set and refused;
//! `info` lines printed as the engine's words; malformed `info` and `draw` lines shrugged off.

use crate::common::lab_in as lab;
use std::path::Path;

fn example(name: &str) -> String {
    format!(
        "python3 {}",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/engines")
            .join(name)
            .display()
    )
}

#[test]
fn an_engine_lists_its_options_and_honours_one_set_on_the_command_line() {
    let config = tempfile::tempdir().unwrap();
    let iddfs = example("iddfs.py");
    let (code, out, err) = lab(config.path(), &["engine", "test", "--engine", &iddfs]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("it has the option table (check, default true, true or false)"),
        "{out}"
    );
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", "boards/small-6x6.ron", "--engine", iddfs.as_str()];
        args.extend_from_slice(extra);
        lab(config.path(), &args)
    };
    let nodes = |out: &str| -> u64 {
        out.lines()
            .filter_map(|line| line.split("Nodes: ").nth(1))
            .filter_map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .filter_map(|n| n.parse::<u64>().ok())
            .sum()
    };
    let (code, with_table, err) = solve(&[]);
    assert_eq!(code, 0, "{with_table}{err}");
    let (code, without, err) = solve(&["--option", "table=false"]);
    assert_eq!(code, 0, "{without}{err}");
    // The same shortest answer; without its table the search expands more positions.
    assert!(with_table.contains("5 moves in") && without.contains("5 moves in"));
    assert!(
        nodes(&without) > nodes(&with_table),
        "{with_table}\n{without}"
    );

    let (code, out, err) = solve(&["--option", "nope=1"]);
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains("it has no option 'nope'; its options are table"),
        "{err}"
    );
    let (code, _, err) = solve(&["--option", "table=maybe"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("maybe is no value of the option table (check, true or false)"),
        "{err}"
    );
    let (code, _, err) = lab(
        config.path(),
        &[
            "solve",
            "boards/small-6x6.ron",
            "--solver",
            "bfs",
            "--option",
            "table=false",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("'bfs' is a built-in solver"), "{err}");
}

#[test]
fn options_stored_with_an_engine_are_listed_and_range_checked() {
    let config = tempfile::tempdir().unwrap();
    let bfs = example("bfs.py");
    let mut add = vec![
        "engine",
        "add",
        "bfs-py",
        "--option",
        "info-interval=20000",
        "--",
    ];
    add.extend(bfs.split(' '));
    // The value is checked against the engine's declaration when the engine is added.
    let (code, out, err) = lab(config.path(), &add);
    assert_ne!(code, 0, "{out}");
    assert!(
        err.contains("20000 is no value of the option info-interval (spin, 0 to 10000)"),
        "{err}"
    );
    let (_, out, _) = lab(config.path(), &["engine", "list"]);
    assert!(
        !out.contains("bfs-py"),
        "a refused engine is not registered: {out}"
    );
    let within = add
        .iter()
        .map(|word| {
            if *word == "info-interval=20000" {
                "info-interval=5000"
            } else {
                word
            }
        })
        .collect::<Vec<_>>();
    let (code, out, err) = lab(config.path(), &within);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("its options: info-interval=5000"), "{out}");
    let (_, out, _) = lab(config.path(), &["engine", "list"]);
    assert!(out.contains("[options: info-interval=5000]"), "{out}");
    // Given again on the command line, the option takes the new value.
    let (code, out, err) = lab(
        config.path(),
        &[
            "solve",
            "boards/small-6x6.ron",
            "--solver",
            "bfs-py",
            "--option",
            "info-interval=0",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("5 moves in"), "{out}");
}

#[test]
fn a_version_1_engine_is_refused_options_and_info_lines_are_the_engines_words() {
    let config = tempfile::tempdir().unwrap();
    let folder = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fault_engine.py");
    let puzzle = folder.path().join("page.ron");
    std::fs::write(
        &puzzle,
        ricochet_lab::model::formats::write(
            &ricochet_lab::solver::engine::test_puzzle(),
            ricochet_lab::model::formats::Format::Native,
        )
        .unwrap(),
    )
    .unwrap();
    let puzzle = puzzle.display().to_string();
    let engine = |mode: &str| {
        format!(
            "python3 {} {mode} {}",
            script.display(),
            folder.path().join("pids").display()
        )
    };
    let (code, _, err) = lab(
        config.path(),
        &[
            "solve",
            &puzzle,
            "--engine",
            &engine("long-optimal"),
            "--option",
            "x=1",
        ],
    );
    assert_ne!(code, 0);
    assert!(
        err.contains("it speaks protocol version 1, which has no options, but was given x=1"),
        "{err}"
    );
    let (code, out, err) = lab(
        config.path(),
        &["solve", &puzzle, "--engine", &engine("chatty")],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("engine says: hello from the engine"), "{out}");
    // Malformed info and draw lines are named once each, and the run goes on to its answer.
    assert_eq!(
        out.matches("engine says: ignored a malformed line").count(),
        2,
        "{out}"
    );
    assert!(out.contains("depth=x is not a whole number"), "{out}");
    assert!(
        out.contains("color=zz is not six hexadecimal digits"),
        "{out}"
    );
    assert!(out.contains("1 move in"), "{out}");
    // Its broken declaration (a default above its max) was ignored, the good one kept.
    let (code, out, err) = lab(
        config.path(),
        &["engine", "test", "--engine", &engine("chatty")],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("it has the option depth-hint (spin, default 3, 0 to 9)"),
        "{out}"
    );
    assert!(!out.contains("option broken"), "{out}");
}
