//! `ricochet-lab trace` as a user runs it: recording, telling what a trace holds, exporting,
//! stepping through events and the tree, comparing two (exit 0 same, 1 different, 2 not
//! comparable), and what Ctrl-C or a file-size limit during a recording leaves behind.

use crate::common::{lab, run, text};
use std::path::Path;

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// Records `solver`'s search of a shipped board to `path`, which must succeed.
fn record(board: &str, solver: &str, path: &Path) -> String {
    let (code, out, err) = run(&[
        "trace",
        "record",
        &format!("boards/{board}"),
        "--solver",
        solver,
        "-o",
        &shown(path),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    out
}

/// The number after `events:` in `trace info`'s output.
fn events_in(info: &str) -> u64 {
    let line = info.lines().find(|l| l.starts_with("events:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn record_then_info_tells_the_puzzle_solver_events_and_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("iddfs.trace");
    let out = record("small-6x6.ron", "iddfs", &path);
    assert!(out.contains(&format!("trace {}:", shown(&path))), "{out}");
    assert!(out.contains("bytes an event"), "{out}");
    let (code, info, err) = run(&["trace", "info", &shown(&path)]);
    assert_eq!(code, 0, "{err}");
    assert!(info.contains("solver:   iddfs"), "{info}");
    assert!(info.contains("puzzle:   6x6 board, 3 robots"), "{info}");
    assert!(info.contains("ended:    solved in 5 moves\n"), "{info}");
    assert!(info.contains("solution: "), "{info}");
    let events = events_in(&info);
    // The events by kind add up to the whole, and a row for each bound 1 to 5.
    let by_kind: u64 = info
        .lines()
        .filter(|l| l.starts_with("  ") && l.trim_start().starts_with(char::is_lowercase))
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(by_kind, events, "{info}");
    assert!(info.contains("  node "), "{info}");
    let rows: Vec<&str> = info
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("depth"))
        .skip(1)
        .collect();
    assert_eq!(rows.len(), 5, "{info}");
}

#[test]
fn export_writes_every_event_as_json_lines_and_posthoc_within_its_limit() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bfs.trace");
    record("small-6x6.ron", "bfs", &path);
    let (_, info, _) = run(&["trace", "info", &shown(&path)]);
    let events = events_in(&info);
    let (code, out, err) = run(&["trace", "export", &shown(&path), "--format", "jsonl"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, events);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["index"], i as u64);
    }
    assert_eq!(lines[0]["kind"], "iteration-start");
    assert!(lines.iter().any(|l| l["kind"] == "solution"));
    let root = lines.iter().find(|l| l["kind"] == "node").unwrap();
    assert_eq!(root["depth"], 0);
    assert_eq!(root["cells"].as_array().unwrap().len(), 3);

    let yaml = dir.path().join("bfs.yaml");
    let (code, _, err) = run(&[
        "trace",
        "export",
        &shown(&path),
        "--format",
        "posthoc",
        "-o",
        &shown(&yaml),
    ]);
    assert_eq!(code, 0, "{err}");
    let posthoc = std::fs::read_to_string(&yaml).unwrap();
    assert!(posthoc.starts_with("version: 1.4.0\n"), "{posthoc}");
    assert!(posthoc.contains("\nevents:\n"));
    assert!(posthoc.contains("pId: null"), "the root has no parent");
    assert!(posthoc.contains("type: end"));
    let expanding = posthoc.matches("type: expanding").count();
    let nodes = lines.iter().filter(|l| l["kind"] == "node").count();
    assert_eq!(expanding, nodes);

    let (code, out, _) = run(&[
        "trace",
        "export",
        &shown(&path),
        "--format",
        "jsonl",
        "--limit",
        "7",
    ]);
    assert_eq!((code, out.lines().count()), (0, 7));
    let (code, _, err) = run(&["trace", "export", &shown(&path), "--format", "xml"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn posthoc_export_refuses_past_a_million_events_and_says_how_to_export_fewer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.trace");
    // Depth-limited search of the standard board to 6 moves examines millions of nodes.
    let (code, out, err) = run(&[
        "trace",
        "record",
        "boards/standard-random.ron",
        "--solver",
        "dls",
        "--depth-limit",
        "6",
        "-o",
        &shown(&path),
    ]);
    assert!(code == 0, "{out}{err}");
    let (_, info, _) = run(&["trace", "info", &shown(&path)]);
    assert!(events_in(&info) > 1_000_000, "{info}");
    let (code, out, err) = run(&["trace", "export", &shown(&path), "--format", "posthoc"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains(&shown(&path)), "{err}");
    assert!(err.contains("at most 1000000"), "{err}");
    assert!(err.contains("--limit"), "{err}");
    let (code, out, err) = run(&[
        "trace",
        "export",
        &shown(&path),
        "--format",
        "posthoc",
        "--limit",
        "1000",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.matches("type: expanding").count() <= 1000);
}

#[test]
fn diff_exits_0_for_the_same_search_1_for_another_and_2_when_it_cannot_compare() {
    let dir = tempfile::tempdir().unwrap();
    let (iddfs, again, bfs) = (
        dir.path().join("iddfs.trace"),
        dir.path().join("again.trace"),
        dir.path().join("bfs.trace"),
    );
    record("small-6x6.ron", "iddfs", &iddfs);
    record("small-6x6.ron", "iddfs", &again);
    record("small-6x6.ron", "bfs", &bfs);
    for rule in ["order", "sets"] {
        let (code, out, err) = run(&[
            "trace",
            "diff",
            &shown(&iddfs),
            &shown(&again),
            "--rule",
            rule,
        ]);
        assert_eq!(code, 0, "{rule}: {out}{err}");
        assert!(out.contains("same search: "), "{out}");
        assert!(out.contains("no difference"), "{out}");
        let (code, out, err) = run(&[
            "trace",
            "diff",
            &shown(&iddfs),
            &shown(&bfs),
            "--rule",
            rule,
        ]);
        assert_eq!(code, 1, "{rule}: {out}{err}");
        assert!(out.contains("first difference after "), "{out}");
        assert!(out.contains("  first: event "), "{out}");
        assert!(
            out.contains(&format!("first:  {} (iddfs)", shown(&iddfs))),
            "{out}"
        );
        assert!(
            out.contains(&format!("second: {} (bfs)", shown(&bfs))),
            "{out}"
        );
    }

    // Traces of two puzzles, a file that is no trace and one that is missing.
    let other = dir.path().join("other.trace");
    record("standard-random.ron", "bfs", &other);
    let (code, out, err) = run(&["trace", "diff", &shown(&iddfs), &shown(&other)]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(
        err.contains(&shown(&iddfs)) && err.contains(&shown(&other)),
        "{err}"
    );
    assert!(err.contains("another puzzle"), "{err}");
    let board = format!("{}/boards/small-6x6.ron", env!("CARGO_MANIFEST_DIR"));
    let (code, _, err) = run(&["trace", "diff", &shown(&iddfs), &board]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{board} is not a Ricochet Lab trace")),
        "{err}"
    );
    let missing = dir.path().join("missing.trace");
    let (code, _, err) = run(&["trace", "diff", &shown(&missing), &shown(&iddfs)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&shown(&missing)), "{err}");
    let (code, _, err) = run(&["trace", "diff", &shown(&iddfs)]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn events_and_tree_step_through_a_trace() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("iddfs.trace");
    record("small-6x6.ron", "iddfs", &path);
    let (code, out, err) = run(&[
        "trace",
        "events",
        &shown(&path),
        "--from",
        "5",
        "--count",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("(event 5 reached in "), "{out}");
    for (i, line) in lines[1..].iter().enumerate() {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(event["index"], 5 + i as u64);
    }
    let (code, _, err) = run(&["trace", "events", &shown(&path), "--from", "99999999"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&shown(&path)) && err.contains("no event 99999999"),
        "{err}"
    );

    // The roots, one per bound 1 to 5, then the children of the last.
    let (code, out, err) = run(&["trace", "tree", &shown(&path)]);
    assert_eq!(code, 0, "{err}");
    let roots: Vec<&str> = out.lines().filter(|l| l.starts_with("event")).collect();
    assert_eq!(roots.len(), 5, "{out}");
    assert!(out.contains("5 nodes read in "), "{out}");
    assert!(roots[4].contains("Solution"), "{out}");
    let last_root: u64 = roots[4].split_whitespace().nth(1).unwrap().parse().unwrap();
    let (code, out, err) = run(&[
        "trace",
        "tree",
        &shown(&path),
        "--node",
        &last_root.to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    let children: Vec<&str> = out.lines().filter(|l| l.starts_with("event")).collect();
    assert!(!children.is_empty(), "{out}");
    assert!(children.iter().all(|l| l.contains("depth   1")), "{out}");
    assert_eq!(
        children.iter().filter(|l| l.contains("Solution")).count(),
        1,
        "{out}"
    );
    // An event that is no node.
    let (code, _, err) = run(&["trace", "tree", &shown(&path), "--node", "0"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("event 0 of") && err.contains("is not a node"),
        "{err}"
    );
}

#[test]
fn info_on_a_file_that_is_no_trace_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let board = format!("{}/boards/small-6x6.ron", env!("CARGO_MANIFEST_DIR"));
    let (code, out, err) = run(&["trace", "info", &board]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains(&format!("{board} is not a Ricochet Lab trace")),
        "{err}"
    );
    let empty = dir.path().join("empty.trace");
    std::fs::write(&empty, b"").unwrap();
    let (code, _, err) = run(&["trace", "info", &shown(&empty)]);
    assert_eq!(code, 1);
    assert!(err.contains(&shown(&empty)), "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_during_a_recording_leaves_a_readable_trace_marked_incomplete() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cancelled.trace");
    let child = lab()
        .args([
            "trace",
            "record",
            "boards/hardest-25.ron",
            "-o",
            &shown(&path),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(800));
    // SAFETY: kill only sends a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let (code, out, err) = text(child.wait_with_output().unwrap());
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("incomplete: cancelled"), "{out}");
    let (code, info, err) = run(&["trace", "info", &shown(&path)]);
    assert_eq!(code, 0, "{err}");
    assert!(info.contains("ended:    cancelled (incomplete)"), "{info}");
    assert!(events_in(&info) > 1000, "{info}");
    let (code, _, err) = run(&["trace", "tree", &shown(&path)]);
    assert_eq!(code, 0, "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_size_limit_during_a_recording_is_a_clear_error_and_leaves_a_readable_prefix() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("limited.trace");
    let mut command = lab();
    command.args([
        "trace",
        "record",
        "boards/hardest-25.ron",
        "-o",
        &shown(&path),
    ]);
    // SAFETY: between fork and exec the closure calls only signal and setrlimit, which are
    // async-signal-safe, and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            // Ignored, the signal a write past the limit raises lets the write fail with an
            // error instead of ending the process.
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: 300_000,
                rlim_max: 300_000,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let (code, _, err) = text(command.output().unwrap());
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&shown(&path)), "{err}");
    assert!(err.contains("File too large"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let len = std::fs::metadata(&path).unwrap().len();
    assert!(len <= 300_000, "{len} bytes");
    let (code, info, err) = run(&["trace", "info", &shown(&path)]);
    assert_eq!(code, 0, "{err}");
    assert!(info.contains("the recording was cut off"), "{info}");
    assert!(info.contains("(incomplete)"), "{info}");
    assert!(events_in(&info) > 100_000, "{info}");
    let (code, out, err) = run(&["trace", "export", &shown(&path), "--format", "jsonl"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count() as u64, events_in(&info));
}
