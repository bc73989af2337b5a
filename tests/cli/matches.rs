//! `match`: solvers over a suite, checked against its optima, with a results file that resumes
//! without running anything twice, the report's ratio, bad suites and the signature.

use crate::common::run as lab;
use std::path::Path;

/// The first `n` puzzles of a shipped suite, in a file of their own.
fn small_suite(folder: &Path, from: &str, n: usize) -> String {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(from)).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(n)
        .collect();
    let path = folder.join("small.suite");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.display().to_string()
}

fn record_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(String::from)
        .collect()
}

#[test]
fn a_match_killed_half_way_resumes_to_the_same_counts_without_running_anything_twice() {
    let folder = tempfile::tempdir().unwrap();
    let suite = small_suite(folder.path(), "boards/suites/length-05.suite", 12);
    let whole = folder.path().join("whole.jsonl");
    let args = |out: &Path, extra: &[&str]| -> (i32, String, String) {
        let out = out.display().to_string();
        let mut args = vec![
            "match",
            "--solvers",
            "bfs,iddfs",
            "--suite",
            suite.as_str(),
            "--concurrency",
            "2",
            "--out",
            out.as_str(),
        ];
        args.extend_from_slice(extra);
        lab(&args)
    };
    let (code, out, err) = args(&whole, &[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("12 of 12 puzzles run by every solver"),
        "{out}"
    );
    assert!(
        out.contains("| bfs | 12 | 12 | 0 | 0 | 0 | 0 | 0 |"),
        "{out}"
    );
    assert!(
        out.contains("| iddfs | 12 | 12 | 0 | 0 | 0 | 0 | 0 |"),
        "{out}"
    );
    assert!(out.contains("iddfs / bfs: time ratio"), "{out}");
    assert!(out.contains("95% interval"), "{out}");
    let all = record_lines(&whole);
    assert_eq!(all.len(), 24);

    // A run killed half way: its header, the first 11 records, and a line cut short.
    let cut = folder.path().join("cut.jsonl");
    let header = std::fs::read_to_string(&whole)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let mut text = format!("{header}\n{}\n", all[..11].join("\n"));
    text.push_str(&all[11][..all[11].len() / 2]);
    std::fs::write(&cut, text).unwrap();
    // Without --resume an existing file is refused, and left as it was.
    let (code, _, err) = args(&cut, &[]);
    assert_ne!(code, 0);
    assert!(err.contains("add --resume"), "{err}");
    let (code, out, err) = args(&cut, &["--resume"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("(11 runs read back"), "{out}");
    assert!(out.contains("13 run now)"), "{out}");
    let resumed = record_lines(&cut);
    assert_eq!(resumed.len(), 24, "{resumed:#?}");
    // Each pair of puzzle and solver once, the same pairs as the uninterrupted run.
    let pairs = |lines: &[String]| {
        let mut pairs: Vec<(String, String)> = lines
            .iter()
            .map(|line| {
                let value: serde_json::Value = serde_json::from_str(line).unwrap();
                (
                    value["puzzle"].as_str().unwrap().to_string(),
                    value["solver"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        pairs.sort();
        pairs
    };
    let resumed_pairs = pairs(&resumed);
    let mut unique = resumed_pairs.clone();
    unique.dedup();
    assert_eq!(unique.len(), 24);
    assert_eq!(resumed_pairs, pairs(&all));
    assert!(
        out.contains("| bfs | 12 | 12 | 0 | 0 | 0 | 0 | 0 |"),
        "{out}"
    );

    // Another solver list cannot continue the file.
    let (code, _, err) = lab(&[
        "match",
        "--solvers",
        "bfs,fast",
        "--suite",
        suite.as_str(),
        "--out",
        &cut.display().to_string(),
        "--resume",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("it holds a match of bfs,iddfs"), "{err}");
}

#[test]
fn a_wrong_optimum_is_the_suites_error_and_a_bad_line_is_named() {
    let folder = tempfile::tempdir().unwrap();
    let suite = folder.path().join("wrong.suite");
    std::fs::write(
        &suite,
        "# two lines\nEF81+43+5A18ABFA+C9 ; id right ; optimum 4\nEF81+43+5A18ABFA+C9 ; id claimed ; optimum 5\n",
    )
    .unwrap();
    let suite = suite.display().to_string();
    let (code, out, err) = lab(&["match", "--solvers", "bfs,iddfs", "--suite", &suite]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("- claimed: suite error (bfs): a replayed solution of 4 moves is shorter than the suite's optimum 5"),
        "{out}"
    );
    assert!(out.contains("| bfs | 2 | 1 | 0 | 0 | 0 | 1 | 0 |"), "{out}");

    let bad = folder.path().join("bad.suite");
    std::fs::write(
        &bad,
        "# fine\nEF81+43+5A18ABFA+C9 ; id a\nEF81+43+5A18ABFA+C9 ; optimum lots\n",
    )
    .unwrap();
    let (code, _, err) = lab(&[
        "match",
        "--solvers",
        "bfs,iddfs",
        "--suite",
        &bad.display().to_string(),
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("bad.suite:3: optimum 'lots' is not a move count or 'none'"),
        "{err}"
    );
}

#[test]
fn csv_and_json_reports_carry_every_record() {
    let folder = tempfile::tempdir().unwrap();
    let suite = small_suite(folder.path(), "boards/suites/length-03.suite", 4);
    let (code, out, err) = lab(&[
        "match",
        "--solvers",
        "bfs,iddfs",
        "--suite",
        &suite,
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("puzzle,solver,outcome,moves,millis,nodes,verdict,detail\n"));
    assert_eq!(out.lines().count(), 9, "{out}");
    assert!(out.contains("m03-001,bfs,solved,3,"), "{out}");
    let (code, out, err) = lab(&[
        "match",
        "--solvers",
        "bfs,iddfs",
        "--suite",
        &suite,
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let value: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(value["records"].as_array().unwrap().len(), 8);
    assert_eq!(value["report"]["complete"], 4);
    assert!(value["report"]["pairs"][0]["ratio"].as_f64().unwrap() > 0.0);
}

#[test]
fn the_signature_is_one_number_per_solver_and_the_same_every_run() {
    let first = lab(&["match", "--signature", "--solvers", "bfs"]);
    assert_eq!(first.0, 0, "{}{}", first.1, first.2);
    assert!(first.1.starts_with("signature bfs: "), "{}", first.1);
    assert!(first.1.contains(" nodes over 14 puzzles"), "{}", first.1);
    let second = lab(&[
        "match",
        "--signature",
        "--solvers",
        "bfs",
        "--concurrency",
        "2",
    ]);
    assert_eq!(first.1, second.1);
}
