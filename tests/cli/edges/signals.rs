//! Signals at the command line's edge: Ctrl-C and SIGTERM cancel a solve and the long
//! commands cleanly, with what finished.

use crate::common::{lab, text};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn interrupted(signal: i32, json: bool) -> (i32, String, String) {
    let mut args = vec!["solve", "boards/hardest-25.ron", "--solver", "iddfs"];
    if json {
        args.push("--json");
    }
    let child = lab()
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Long enough for the handler to be in place and the search to be under way.
    std::thread::sleep(Duration::from_millis(700));
    // SAFETY: kill only sends a signal to the child this test started.
    let sent = unsafe { libc::kill(child.id() as i32, signal) };
    assert_eq!(sent, 0);
    let started = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    text(out)
}

#[test]
fn ctrl_c_and_sigterm_cancel_a_solve_and_report_it() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let (code, out, err) = interrupted(signal, true);
        assert_eq!(code, 3, "signal {signal}: {out}{err}");
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value["outcome"], "cancelled", "{value}");
        assert!(value["nodes"].as_u64().unwrap() > 0);
    }
    let (code, out, _) = interrupted(libc::SIGINT, false);
    assert_eq!(code, 3);
    assert!(out.starts_with("Depth: 1, Nodes: "), "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("cancelled after "), "{out}");
}

/// Runs a long command, sends it SIGINT once it is under way, and returns its exit code,
/// output and errors. Under way means: once a line of its standard error contains `ready`,
/// or, for a command that reports no progress, a moment after it started (long enough for the
/// handler to be in place; the commands chosen run for many seconds).
fn interrupted_command(args: &[&str], ready: Option<&str>) -> (i32, String, String) {
    use std::io::{BufRead, BufReader, Read};
    let mut child = lab()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).unwrap();
        text
    });
    let mut errors = BufReader::new(child.stderr.take().unwrap());
    let mut err = String::new();
    match ready {
        Some(marker) => {
            while !err.contains(marker) {
                let read = errors.read_line(&mut err).unwrap();
                assert!(read > 0, "{args:?} ended before {marker:?}: {err}");
            }
        }
        None => std::thread::sleep(Duration::from_millis(1500)),
    }
    // SAFETY: kill only sends a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    errors.read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    (status.code().unwrap_or(-1), reader.join().unwrap(), err)
}

#[test]
fn ctrl_c_stops_hint_distances_accuracy_and_bench_with_what_finished() {
    let (code, out, err) = interrupted_command(&["hint", "boards/hardest-25.ron"], None);
    assert_eq!(code, 3, "{out}{err}");
    // A hint is printed whole or not at all.
    assert_eq!((out.as_str(), err.as_str()), ("", "cancelled\n"));

    let (code, out, err) = interrupted_command(
        &["distances", "boards/real-21.ron", "--max-depth", "30"],
        None,
    );
    assert_eq!(code, 3, "{out}{err}");
    // The finished levels are printed, and why no more.
    assert!(out.starts_with("every position within "), "{out}");
    assert!(out.contains("stopped early: cancelled"), "{out}{err}");
    assert!(out.contains("red robot (R): fewest moves"), "{out}");

    let (code, out, err) = interrupted_command(
        &["accuracy", "--solver", "stateless", "--puzzles", "100000"],
        Some("100/100000 puzzles"),
    );
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("interrupted: the figures cover the "), "{err}");
    assert!(!out.is_empty(), "{err}");

    let (code, out, err) = interrupted_command(
        &["bench", "--suite", "random", "--solvers", "bfs"],
        Some("[random 100/1000]"),
    );
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("interrupted: the tables cover the "), "{err}");
    assert!(out.contains("bfs"), "{out}");
    assert!(!out.contains("All optimal solvers agree"), "{out}");
}
