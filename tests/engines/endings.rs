//! An engine and everything it started ended on every path out, a daemon that left its
//! group and session included; a result for an earlier puzzle set aside as stale.

use crate::common::LAB;
use ricochet_lab::solver::engine::{Engine, EngineSpec, test_puzzle};
use ricochet_lab::solver::{Limits, NoProbe, Outcome, SolverOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The fault engine (`fault_engine.py`) in `mode`, writing its process ids to `pids`.
fn fault_command(mode: &str, pids: &Path) -> Vec<String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fault_engine.py");
    vec![
        "python3".into(),
        script.display().to_string(),
        mode.into(),
        pids.display().to_string(),
    ]
}

/// Whether a process still runs (a zombie counts as gone).
fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

/// The process ids an engine wrote down.
fn written_pids(pids: &Path) -> Vec<u32> {
    std::fs::read_to_string(pids)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Runs `solve` on an engine in `mode` that starts a daemon before its handshake, waits for
/// the daemon, sends SIGINT, and returns the processes still running 2 s after the program
/// ended.
fn left_after_ctrl_c(mode: &str, folder: &Path, attempt: usize) -> Vec<u32> {
    let pids: PathBuf = folder.join(format!("pids-{attempt}"));
    let command = fault_command(mode, &pids).join(" ");
    let mut child = std::process::Command::new(LAB)
        .args(["solve", "boards/small-6x6.ron", "--engine", &command])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The engine and its daemon have written their ids (the engine first, the daemon once
    // it has left the session).
    let until = Instant::now() + Duration::from_secs(10);
    while written_pids(&pids).len() < 2 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        written_pids(&pids).len(),
        2,
        "the engine started its daemon"
    );
    std::thread::sleep(Duration::from_millis(100));
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    assert!(
        !status.success(),
        "a Ctrl-C ends the run with its stop code"
    );
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        let left: Vec<u32> = written_pids(&pids)
            .into_iter()
            .filter(|&pid| is_running(pid))
            .collect();
        if left.is_empty() || Instant::now() >= until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_leaves_no_daemon_of_an_engine_in_twenty_tries() {
    let folder = tempfile::tempdir().unwrap();
    for attempt in 0..20 {
        // Half keep the engine's pipes, half close them as a daemon proper does.
        let mode = if attempt % 2 == 0 {
            "daemon-at-start"
        } else {
            "daemon-detached"
        };
        let left = left_after_ctrl_c(mode, folder.path(), attempt);
        assert!(
            left.is_empty(),
            "try {attempt} ({mode}): processes left: {left:?}"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn ending_an_engine_ends_a_daemon_that_closed_its_pipes() {
    let folder = tempfile::tempdir().unwrap();
    let pids = folder.path().join("pids");
    let spec = EngineSpec {
        name: "fault-daemon-detached".into(),
        command: fault_command("daemon-detached", &pids),
        dir: None,
        options: Vec::new(),
    };
    let engine = Engine::start(&spec).unwrap();
    engine.kill();
    let until = Instant::now() + Duration::from_secs(2);
    while written_pids(&pids).iter().any(|&p| is_running(p)) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<u32> = written_pids(&pids)
        .into_iter()
        .filter(|&p| is_running(p))
        .collect();
    assert!(left.is_empty(), "processes left: {left:?}");
}

#[test]
fn a_second_result_is_set_aside_as_stale_not_blamed_on_the_next_puzzle() {
    let folder = tempfile::tempdir().unwrap();
    let spec = EngineSpec {
        name: "fault-second-result".into(),
        command: fault_command("second-result", &folder.path().join("pids")),
        dir: None,
        options: Vec::new(),
    };
    let mut engine = Engine::start(&spec).unwrap();
    let puzzle = test_puzzle();
    let limits = Limits {
        time: Some(Duration::from_secs(10)),
        ..Limits::default()
    };
    let first = engine
        .solve(&puzzle, &SolverOptions::default(), &limits, &mut NoProbe)
        .unwrap();
    let first_id = engine.last_id().unwrap().to_string();
    assert!(matches!(first.outcome, Outcome::Solved { .. }));
    // The second result of the first puzzle arrives while the second is solved: the second
    // puzzle gets its own answer, and the stale one is named with the puzzle it answered.
    let second = engine
        .solve(&puzzle, &SolverOptions::default(), &limits, &mut NoProbe)
        .unwrap();
    assert!(matches!(second.outcome, Outcome::Solved { .. }));
    assert_ne!(
        engine.last_id().unwrap(),
        first_id,
        "each puzzle has a fresh id"
    );
    let stale = engine.take_stale();
    assert_eq!(stale.len(), 1, "{stale:?}");
    assert_eq!(stale[0].0, first_id);
    engine.quit();
}

#[test]
fn engine_check_blames_a_second_result_on_the_check_it_answered() {
    let folder = tempfile::tempdir().unwrap();
    let command = fault_command("second-result", &folder.path().join("pids")).join(" ");
    let out = std::process::Command::new(LAB)
        .args(["engine", "check", "--time-limit", "5", "--engine", &command])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("RICOCHET_LAB_CONFIG_DIR", folder.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.contains("second result"),
        "the second result is reported: {text}"
    );
}

// Every wait of `engine check` is bounded by its --time-limit: against an engine that
// handshakes and then never answers a search, not even `stop`, each check gives up after the
// limit (and its second of grace), the probes too, which once waited 10 s each whatever the
// limit (63 s in all with a limit of 3 s; 26.5 s with a limit of 1 s now).
#[test]
fn engine_check_against_a_hung_engine_is_bounded_by_its_time_limit() {
    let folder = tempfile::tempdir().unwrap();
    let command = fault_command("hang", &folder.path().join("pids")).join(" ");
    let started = Instant::now();
    let out = std::process::Command::new(LAB)
        .args(["engine", "check", "--time-limit", "1", "--engine", &command])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("RICOCHET_LAB_CONFIG_DIR", folder.path())
        .output()
        .unwrap();
    let took = started.elapsed();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "a hung engine fails: {text}");
    let waits: Vec<u64> = text
        .split("within ")
        .skip(1)
        .filter_map(|rest| rest.split(" ms").next()?.parse().ok())
        .collect();
    assert!(
        waits.len() >= 2,
        "the probes say how long they waited: {text}"
    );
    assert!(
        waits.iter().all(|&ms| ms <= 1000),
        "every wait within the 1 s limit: {waits:?}\n{text}"
    );
    assert!(
        text.contains("id-echoed") && text.contains("no answer within 1000 ms"),
        "{text}"
    );
    // 15 checks of at most the limit, its grace and a restart each.
    assert!(
        took < Duration::from_secs(45),
        "engine check took {took:?} with a 1 s limit: {text}"
    );
}

// A claim that fails its replay is blamed on the engine by name, and a one-move claim is
// "1 move", not "1 moves".
#[test]
fn a_replay_error_names_the_engine_and_counts_one_move_as_one() {
    let folder = tempfile::tempdir().unwrap();
    for (mode, claim) in [
        (
            "illegal-one",
            "claimed a solution of 1 move, but its replay failed at move 1",
        ),
        (
            "illegal",
            "claimed a solution of 2 moves, but its replay failed at move 2",
        ),
    ] {
        let command = fault_command(mode, &folder.path().join("pids")).join(" ");
        let out = std::process::Command::new(LAB)
            .args(["solve", "boards/small-6x6.ron", "--engine", &command])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("RICOCHET_LAB_CONFIG_DIR", folder.path())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_ne!(out.status.code(), Some(0), "{mode}: {text}");
        assert!(text.contains(claim), "{mode}: {text}");
        assert!(
            text.contains("fault_engine.py"),
            "{mode}: the engine is named: {text}"
        );
    }
}
