//! `match` beyond one run: its results file held by one writer at a time, its suite split
//! into shards merged into the file of one run, and a named pipe where a file is read at
//! start refused at once.

use crate::common::{lab, run as lab_run, text};
use std::path::Path;
use std::time::{Duration, Instant};

/// The first `n` puzzles of each of the given shipped suites, in a file of their own.
fn mixed_suite(folder: &Path, from: &[&str], n: usize) -> String {
    let mut lines = Vec::new();
    for suite in from {
        let text = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("boards/suites/{suite}")),
        )
        .unwrap();
        lines.extend(
            text.lines()
                .filter(|l| !l.starts_with('#'))
                .take(n)
                .map(String::from),
        );
    }
    let path = folder.join("mixed.suite");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.display().to_string()
}

/// A results file's records without their times, sorted.
fn rows_without_times(path: &Path) -> Vec<String> {
    let mut rows: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| {
            let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
            value.as_object_mut().unwrap().remove("millis");
            value.to_string()
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn a_second_match_on_a_held_results_file_is_refused_at_once_naming_the_holder() {
    let folder = tempfile::tempdir().unwrap();
    let suite = mixed_suite(folder.path(), &["length-02.suite"], 3);
    let out = folder.path().join("out.jsonl");
    let args = [
        "match",
        "--solvers",
        "bfs,fast",
        "--suite",
        suite.as_str(),
        "--out",
        out.to_str().unwrap(),
    ];
    let (code, stdout, stderr) = lab_run(&args);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let before = std::fs::read(&out).unwrap();
    // This test holds the file as a running match does.
    let held = std::fs::OpenOptions::new().read(true).open(&out).unwrap();
    held.try_lock().unwrap();
    let started = Instant::now();
    let mut resume = args.to_vec();
    resume.push("--resume");
    let (code, stdout, stderr) = lab_run(&resume);
    assert_ne!(code, 0, "{stdout}{stderr}");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(stderr.contains("is writing this file"), "{stderr}");
    if cfg!(target_os = "linux") {
        assert!(
            stderr.contains(&format!("process {}", std::process::id())),
            "the holder is named: {stderr}"
        );
    }
    assert_eq!(
        std::fs::read(&out).unwrap(),
        before,
        "the file is left as it was"
    );
    drop(held);
    let (code, stdout, stderr) = lab_run(&resume);
    assert_eq!(code, 0, "once let go, the file resumes: {stdout}{stderr}");
}

#[test]
fn a_match_in_four_shards_merges_into_the_rows_and_report_of_one_run() {
    let folder = tempfile::tempdir().unwrap();
    let suite = mixed_suite(
        folder.path(),
        &["length-01.suite", "length-03.suite", "length-05.suite"],
        5,
    );
    let base = |out: &Path| {
        vec![
            "match".to_string(),
            "--solvers".into(),
            "bfs,iddfs".into(),
            "--suite".into(),
            suite.clone(),
            "--out".into(),
            out.display().to_string(),
        ]
    };
    let whole = folder.path().join("whole.jsonl");
    let args = base(&whole);
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, one_run, stderr) = lab_run(&refs);
    assert_eq!(code, 0, "{one_run}{stderr}");
    let mut shards = Vec::new();
    for i in 1..=4 {
        let out = folder.path().join(format!("shard-{i}.jsonl"));
        let mut args = base(&out);
        args.extend(["--shard".to_string(), format!("{i}/4")]);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, stdout, stderr) = lab_run(&refs);
        assert_eq!(code, 0, "{stdout}{stderr}");
        shards.push(out);
    }
    // A merge that lacks a shard is refused.
    let merged = folder.path().join("merged.jsonl");
    let mut args = vec![
        "match".to_string(),
        "--suite".into(),
        suite.clone(),
        "-o".into(),
        merged.display().to_string(),
        "--merge".into(),
    ];
    let partial: Vec<String> = shards[..3]
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let refs: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .chain(partial.iter().map(String::as_str))
        .collect();
    let (code, _, stderr) = lab_run(&refs);
    assert_ne!(code, 0);
    assert!(stderr.contains("4/4"), "{stderr}");
    args.extend(shards.iter().map(|p| p.display().to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, merged_report, stderr) = lab_run(&refs);
    assert_eq!(code, 0, "{merged_report}{stderr}");
    assert_eq!(rows_without_times(&merged), rows_without_times(&whole));
    assert!(
        merged_report.contains("15 of 15 puzzles run by every solver"),
        "{merged_report}"
    );
    // The merged file reads as one run: its report is the one a resume of it prints.
    let mut again = base(&merged);
    again.push("--resume".into());
    let refs: Vec<&str> = again.iter().map(String::as_str).collect();
    let (code, resumed, stderr) = lab_run(&refs);
    assert_eq!(code, 0, "{resumed}{stderr}");
    let ratio = |report: &str| {
        report
            .lines()
            .find(|l| l.contains("time ratio"))
            .map(String::from)
            .unwrap()
    };
    assert_eq!(ratio(&resumed), ratio(&merged_report));
    assert!(one_run.contains("iddfs / bfs: time ratio"), "{one_run}");
}

#[cfg(unix)]
#[test]
fn a_named_pipe_where_the_engines_list_is_read_is_refused_at_once() {
    let folder = tempfile::tempdir().unwrap();
    let fifo = folder.path().join("engines.ron");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for args in [
        &["engine", "list"][..],
        &["engine", "add", "x", "--", "true"][..],
    ] {
        let started = Instant::now();
        let mut child = lab()
            .args(args)
            .env("RICOCHET_LAB_CONFIG_DIR", folder.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        while child.try_wait().unwrap().is_none() && started.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        if child.try_wait().unwrap().is_none() {
            child.kill().unwrap();
            panic!("{args:?} hung on a named pipe");
        }
        let (code, _, stderr) = text(child.wait_with_output().unwrap());
        assert_ne!(code, 0, "{args:?}");
        assert!(stderr.contains("named pipe"), "{args:?}: {stderr}");
    }
}
