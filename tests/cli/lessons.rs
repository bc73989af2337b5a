//! `lesson check`: valid lessons pass with exit 0, every kind of problem is named with its
//! file and field with exit 1, a usage error is exit 2; every shipped lesson is valid.

use super::common::run;
use std::path::{Path, PathBuf};

/// The shipped lessons, by file name.
fn shipped_lessons() -> Vec<PathBuf> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/lessons");
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "ron"))
        .collect();
    files.sort();
    files
}

/// A lesson's text with the given fields after the title, its puzzle the 6x6 board.
fn lesson(fields: &str) -> String {
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/small-6x6.ron");
    format!(
        "// A lesson written for a test.\n(\n    lesson: 1,\n    title: \"A test\",\n    \
         puzzle: File({:?}),\n{fields}\n)\n",
        board.display().to_string()
    )
}

#[test]
fn every_shipped_lesson_is_valid() {
    let files = shipped_lessons();
    assert!(files.len() >= 8, "only {} lessons are shipped", files.len());
    let mut args = vec!["lesson", "check"];
    args.extend(files.iter().map(|path| path.to_str().unwrap()));
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.ends_with(&format!("{0} of {0} lessons valid\n", files.len())),
        "{out}"
    );
    assert_eq!(out.matches(": valid: ").count(), files.len(), "{out}");
}

#[test]
fn a_valid_lesson_of_ones_own_passes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.ron");
    std::fs::write(
        &path,
        lesson(
            "    solvers: [\"bfs\"],\n    debug: true,\n    breakpoints: [Cell(5, 5), \
             Prune(Visited)],\n    overlays: [\"search-heat\"],\n    predict: true,\n    \
             text: \"# Questions\\n1. How many levels?\",",
        ),
    )
    .unwrap();
    let (code, out, err) = run(&["lesson", "check", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("mine.ron: valid: A test"), "{out}");
}

#[test]
fn every_problem_is_named_with_its_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let names = write(
        "names.ron",
        lesson(
            "    solvers: [\"bfs\", \"quick\"],\n    debug: true,\n    breakpoints: \
             [Cell(7, 2)],\n    overlays: [\"heat-map\"],\n    text: \"  \",",
        ),
    );
    let missing_puzzle = write(
        "missing-puzzle.ron",
        "(lesson: 1, title: \"T\", puzzle: File(\"nowhere.ron\"), text: \"Read.\")".into(),
    );
    // Red stands in a corner closed by walls on both open sides: no move reaches the target.
    let impossible = write(
        "impossible.ron",
        "(lesson: 1, title: \"T\", text: \"Read.\", puzzle: Text(\"(format: 1, width: 4, \
         height: 4, walls: [(0, 0, East), (0, 0, South)], targets: [(x: 3, y: 3, color: Red, \
         shape: Circle)], robots: [(color: Red, x: 0, y: 0)], goal: (x: 3, y: 3, color: \
         Red))\"))"
            .into(),
    );
    let no_debug = write(
        "no-debug.ron",
        lesson("    breakpoints: [Solution],\n    predict: true,\n    text: \"Read.\","),
    );
    let syntax = write("syntax.ron", "(\n    lesson: 1,\n    title: [],\n)".into());
    let rules = write(
        "rules.ron",
        "(lesson: 1, title: \"T\", text: \"Read.\", solvers: [\"graph-v1\"], puzzle: Text(\"(format: \
         1, width: 4, height: 4, targets: [(x: 3, y: 3, color: Red, shape: Circle)], robots: \
         [(color: Red, x: 0, y: 0)], goal: (x: 3, y: 3, color: Red), rules: (ricochet: true, \
         no_rebound: false))\"))"
            .into(),
    );
    let absent = dir.path().join("absent.ron");
    let files = [
        &names,
        &missing_puzzle,
        &impossible,
        &no_debug,
        &syntax,
        &rules,
        &absent,
    ];
    let mut args = vec!["lesson", "check"];
    args.extend(files.iter().map(|path| path.to_str().unwrap()));
    let (code, out, err) = run(&args);
    assert_eq!(code, 1, "{out}{err}");
    let shown = |path: &PathBuf| path.display().to_string();
    let expected = [
        format!("{}: text: the text is empty", shown(&names)),
        format!("{}: solvers: unknown solver quick", shown(&names)),
        format!("{}: overlays: unknown overlay heat-map", shown(&names)),
        format!(
            "{}: breakpoints: Cell(7, 2) is off the 6x6 board",
            shown(&names)
        ),
        format!("{}: puzzle: the puzzle file", shown(&missing_puzzle)),
        format!("{}: puzzle: the puzzle has no solution", shown(&impossible)),
        format!(
            "{}: breakpoints: breakpoints are set but debug is false",
            shown(&no_debug)
        ),
        format!(
            "{}: predict: predict is true but debug is false",
            shown(&no_debug)
        ),
        format!("{}: line 3, column", shown(&syntax)),
        format!(
            "{}: solvers: graph-v1 does not take the puzzle's ricochet rule",
            shown(&rules)
        ),
        format!("{}: file: cannot be read", shown(&absent)),
    ];
    for line in &expected {
        assert!(out.contains(line.as_str()), "{line} is not in:\n{out}");
    }
    assert!(out.contains("nowhere.ron"), "{out}");
    assert!(
        out.ends_with("0 of 7 lessons valid; 11 problems\n"),
        "{out}"
    );
}

#[test]
fn a_check_without_files_is_a_usage_error() {
    let (code, _, err) = run(&["lesson", "check"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("FILE"), "{err}");
    let (code, _, err) = run(&["lesson", "grade", "x.ron"]);
    assert_eq!(code, 2, "{err}");
}
