//! Engines that break the protocol, each in one way (`fault_engine.py`): every fault gives a
//! clear error naming the engine within a bound, and no process is left behind.

use ricochet_lab::solver::engine::{
    Engine, EngineError, EngineProblem, EngineSpec, HANDSHAKE_TIME, test_puzzle,
};
use ricochet_lab::solver::{
    self, Limits, NoProbe, Outcome, Report, SolveError, SolverChoice, SolverOptions,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The fault engine in `mode`, writing its process ids to a file in `folder`.
fn fault_engine(mode: &str, folder: &Path) -> (EngineSpec, PathBuf) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fault_engine.py");
    let pids = folder.join("pids");
    let spec = EngineSpec {
        name: format!("fault-{mode}"),
        command: vec![
            "python3".into(),
            script.display().to_string(),
            mode.into(),
            pids.display().to_string(),
        ],
        dir: None,
    };
    (spec, pids)
}

/// Whether a process still runs (a zombie waiting for its parent counts as gone), from
/// `/proc` on Linux.
#[cfg(target_os = "linux")]
fn is_running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            // The state follows the command name in parentheses.
            let state = stat.rsplit(')').next().unwrap_or("").trim_start();
            !state.starts_with('Z') && !state.starts_with('X')
        }
        Err(_) => false,
    }
}

/// Whether a process still runs (a zombie waiting for its parent counts as gone), from `ps`
/// where there is no `/proc`. A system without `ps` fails the test rather than passing it
/// unchecked.
#[cfg(not(target_os = "linux"))]
fn is_running(pid: u32) -> bool {
    let out = std::process::Command::new("ps")
        .args(["-o", "stat=", "-p", &pid.to_string()])
        .output()
        .expect("ps lists processes");
    let state = String::from_utf8_lossy(&out.stdout);
    let state = state.trim();
    !state.is_empty() && !state.starts_with('Z')
}

/// Waits up to two seconds for every process the engine wrote down to be gone, and fails
/// naming any that is not.
fn assert_no_process_left(pids: &Path) {
    let text = std::fs::read_to_string(pids).unwrap_or_default();
    let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
    assert!(!pids.is_empty(), "the engine never started");
    let until = Instant::now() + Duration::from_secs(2);
    while pids.iter().any(|&pid| is_running(pid)) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<u32> = pids.into_iter().filter(|&pid| is_running(pid)).collect();
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

/// Runs the fault engine on the page's puzzle within `limits`; returns the result and how
/// long it took, after checking no process is left.
fn run_fault(mode: &str, limits: Limits) -> (Result<Report, SolveError>, Duration) {
    let folder = tempfile::tempdir().unwrap();
    let (spec, pids) = fault_engine(mode, folder.path());
    let started = Instant::now();
    let result = solver::run(
        SolverChoice::engine(spec),
        &test_puzzle(),
        &SolverOptions::default(),
        &limits,
        &mut NoProbe,
    );
    let took = started.elapsed();
    assert_no_process_left(&pids);
    (result, took)
}

fn engine_error(result: Result<Report, SolveError>) -> EngineError {
    match result {
        Err(SolveError::Engine(error)) => error,
        other => panic!("expected an engine error, got {other:?}"),
    }
}

#[test]
fn an_engine_that_does_not_start_is_named_with_the_reason() {
    let spec = EngineSpec::ad_hoc("/nonexistent/engine --fast").unwrap();
    let result = solver::run(
        SolverChoice::engine(spec),
        &test_puzzle(),
        &SolverOptions::default(),
        &Limits::default(),
        &mut NoProbe,
    );
    let error = engine_error(result);
    assert!(matches!(error.problem, EngineProblem::DidNotStart(_)));
    let text = error.to_string();
    assert!(text.contains("/nonexistent/engine"), "{text}");
}

#[test]
fn an_engine_that_never_handshakes_is_given_up_after_its_handshake_time() {
    // The product's handshake time is ten seconds; the same driver is given one second here,
    // so the bound is checked without the wait.
    assert_eq!(HANDSHAKE_TIME, Duration::from_secs(10));
    let folder = tempfile::tempdir().unwrap();
    let (spec, pids) = fault_engine("never-handshakes", folder.path());
    let started = Instant::now();
    let result = Engine::start_within(&spec, Duration::from_secs(1));
    let took = started.elapsed();
    assert_no_process_left(&pids);
    let Err(error) = result else {
        panic!("an engine that never handshakes was started");
    };
    assert_eq!(error.problem, EngineProblem::NoHandshake(1));
    assert!(
        error.to_string().contains("fault-never-handshakes"),
        "{error}"
    );
    assert!(
        (Duration::from_secs(1)..Duration::from_secs(4)).contains(&took),
        "{took:?}"
    );
}

#[test]
fn a_crash_mid_run_names_the_exit_code_and_keeps_the_standard_error() {
    let (result, took) = run_fault("crash", Limits::default());
    let error = engine_error(result);
    assert!(
        matches!(&error.problem, EngineProblem::Exited { status, .. } if status.contains("code 3")),
        "{error}"
    );
    assert!(
        error
            .stderr
            .iter()
            .any(|l| l.contains("boom in the search")),
        "{error:?}"
    );
    assert!(error.to_string().contains("fault-crash"), "{error}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn a_hang_past_the_time_limit_is_ended_one_second_later() {
    let limits = Limits {
        time: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    let (result, took) = run_fault("hang", limits);
    let error = engine_error(result);
    assert_eq!(error.problem, EngineProblem::Hung(300));
    assert!(took < Duration::from_secs(4), "{took:?}");
}

#[test]
fn a_cancel_returns_at_once_and_an_engine_ignoring_stop_is_killed_after_the_grace() {
    let folder = tempfile::tempdir().unwrap();
    let (spec, pids) = fault_engine("ignore-stop", folder.path());
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(Arc::clone(&cancel)),
        ..Limits::default()
    };
    let setter = {
        let cancel = Arc::clone(&cancel);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(1500));
            cancel.store(true, Ordering::Relaxed);
            Instant::now()
        })
    };
    let (report, retired) = solver::run_keeping_memory(
        SolverChoice::engine(spec),
        &test_puzzle(),
        &SolverOptions::default(),
        &limits,
        &mut NoProbe,
    )
    .unwrap();
    let returned = Instant::now();
    let cancelled_at = setter.join().unwrap();
    assert_eq!(report.outcome, Outcome::Cancelled);
    assert!(
        returned.duration_since(cancelled_at) < Duration::from_millis(100),
        "the cancel took {:?}",
        returned.duration_since(cancelled_at)
    );
    // The engine gets its grace when the caller lets go of it, then is killed.
    let dropped = Instant::now();
    drop(retired);
    assert!(
        dropped.elapsed() < Duration::from_millis(1500),
        "{:?}",
        dropped.elapsed()
    );
    assert_no_process_left(&pids);
}

#[test]
fn a_malformed_line_is_quoted_in_the_error() {
    let (result, _) = run_fault("garbage", Limits::default());
    let error = engine_error(result);
    let text = error.to_string();
    assert!(text.contains("row depth=banana nodes=1"), "{text}");
    assert!(text.contains("fault-garbage"), "{text}");
}

#[test]
fn a_flood_of_output_is_stopped() {
    let (result, took) = run_fault("flood", Limits::default());
    let error = engine_error(result);
    assert!(matches!(error.problem, EngineProblem::Flood(_)), "{error}");
    assert!(took < Duration::from_secs(30), "{took:?}");
}

#[test]
fn an_answer_for_another_puzzle_is_refused() {
    let (result, _) = run_fault("wrong-id", Limits::default());
    let error = engine_error(result);
    assert!(
        matches!(error.problem, EngineProblem::WrongPuzzle { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("result id=not-"), "{error}");
}

#[test]
fn an_illegal_move_is_named_by_the_replay() {
    let (result, _) = run_fault("illegal", Limits::default());
    let report = result.unwrap();
    match report.outcome {
        Outcome::Invalid { error, .. } => {
            assert_eq!(error.step, 0);
            assert!(error.to_string().contains("at move 1"), "{error}");
            assert!(error.to_string().contains("RN"), "{error}");
        }
        other => panic!("expected an invalid answer, got {other:?}"),
    }
}

#[test]
fn a_line_past_one_mebibyte_is_refused() {
    let (result, _) = run_fault("long-line", Limits::default());
    let error = engine_error(result);
    assert!(
        matches!(error.problem, EngineProblem::LineTooLong(_)),
        "{error}"
    );
}

#[test]
fn the_processes_an_engine_starts_are_ended_with_it() {
    let limits = Limits {
        time: Some(Duration::from_millis(300)),
        ..Limits::default()
    };
    let (result, took) = run_fault("grandchild", limits);
    let error = engine_error(result);
    assert_eq!(error.problem, EngineProblem::Hung(300));
    assert!(took < Duration::from_secs(4), "{took:?}");
}

#[test]
fn the_check_skips_a_puzzle_the_engine_refuses_and_fails_one_it_gives_up_on() {
    use ricochet_lab::study::engine_check::{Status, check};
    let folder = tempfile::tempdir().unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    // The puzzles of the check are the items between the handshake and the fault probes:
    // those whose detail tells what the engine answered.
    let answered = |items: &[ricochet_lab::study::engine_check::CheckItem]| {
        items
            .iter()
            .filter(|item| item.name == "zero-moves" || item.name == "board-1x1")
            .map(|item| (item.status, item.detail.clone()))
            .collect::<Vec<_>>()
    };

    let (spec, _) = fault_engine("refuses", folder.path());
    let items = check(&spec, &cancel);
    let refused = answered(&items);
    assert_eq!(refused.len(), 2, "{items:?}");
    for (status, detail) in &refused {
        assert_eq!(*status, Status::Skip, "{detail}");
        assert!(
            detail.contains("does not take it: unsupported: this engine takes no puzzle"),
            "{detail}"
        );
    }

    let (spec, _) = fault_engine("gives-up", folder.path());
    let items = check(&spec, &cancel);
    let given_up = answered(&items);
    assert_eq!(given_up.len(), 2, "{items:?}");
    for (status, detail) in &given_up {
        assert_eq!(*status, Status::Fail, "{detail}");
    }
}
