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
        options: Vec::new(),
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
    assert_no_process_left_within(pids, Duration::from_secs(2));
}

/// Waits up to `within` for every process the engine wrote down to be gone, and fails naming
/// any that is not.
fn assert_no_process_left_within(pids: &Path, within: Duration) {
    let text = std::fs::read_to_string(pids).unwrap_or_default();
    let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
    assert!(!pids.is_empty(), "the engine never started");
    let until = Instant::now() + within;
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
    assert_eq!(error.problem, EngineProblem::NoHandshake(1000));
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
    // The engine is given what is left of the limit after its start.
    assert!(
        matches!(error.problem, EngineProblem::Hung(ms) if ms <= 300),
        "{error}"
    );
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
    // The engine is given what is left of the limit after its start.
    assert!(
        matches!(error.problem, EngineProblem::Hung(ms) if ms <= 300),
        "{error}"
    );
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

#[test]
fn an_engine_that_exits_leaving_a_helper_on_its_pipes_is_reported_at_once() {
    // The helper keeps the engine's output open for 40 s: the run must end when the engine
    // does, not when its pipes close.
    let (result, took) = run_fault("daemon-exits", Limits::default());
    let error = engine_error(result);
    assert!(
        matches!(&error.problem, EngineProblem::Exited { status, .. } if status.contains("code 0")),
        "{error}"
    );
    assert!(took < Duration::from_secs(3), "{took:?}");
}

#[test]
fn an_engine_that_solves_and_quits_leaving_a_helper_ends_at_once() {
    let (result, took) = run_fault("daemon-solves", Limits::default());
    assert!(
        matches!(result.unwrap().outcome, Outcome::Solved { .. }),
        "the answer is read"
    );
    assert!(took < Duration::from_secs(3), "{took:?}");
}

#[test]
fn a_cancel_of_an_engine_with_a_helper_returns_at_once_and_ends_both() {
    let folder = tempfile::tempdir().unwrap();
    let (spec, pids) = fault_engine("daemon-hangs", folder.path());
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
    let result = solver::run(
        SolverChoice::engine(spec),
        &test_puzzle(),
        &SolverOptions::default(),
        &limits,
        &mut NoProbe,
    );
    let returned = Instant::now();
    let cancelled_at = setter.join().unwrap();
    assert_eq!(result.unwrap().outcome, Outcome::Cancelled);
    // Letting go of the engine (here, inside the run) ends it in the background: the caller
    // never waits for its grace, let alone for its helper.
    assert!(
        returned.duration_since(cancelled_at) < Duration::from_millis(100),
        "the cancel took {:?}",
        returned.duration_since(cancelled_at)
    );
    assert_no_process_left_within(&pids, Duration::from_secs(3));
}

#[test]
fn a_cancel_during_the_handshake_returns_at_once() {
    let folder = tempfile::tempdir().unwrap();
    let (spec, pids) = fault_engine("never-handshakes", folder.path());
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(Arc::clone(&cancel)),
        ..Limits::default()
    };
    let setter = {
        let cancel = Arc::clone(&cancel);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(500));
            cancel.store(true, Ordering::Relaxed);
            Instant::now()
        })
    };
    let result = solver::run(
        SolverChoice::engine(spec),
        &test_puzzle(),
        &SolverOptions::default(),
        &limits,
        &mut NoProbe,
    );
    let returned = Instant::now();
    let cancelled_at = setter.join().unwrap();
    assert_eq!(result.unwrap().outcome, Outcome::Cancelled);
    assert!(
        returned.duration_since(cancelled_at) < Duration::from_millis(100),
        "the cancel took {:?}",
        returned.duration_since(cancelled_at)
    );
    assert_no_process_left(&pids);
}

#[test]
fn the_time_limit_bounds_the_handshake_too() {
    let limits = Limits {
        time: Some(Duration::from_millis(500)),
        ..Limits::default()
    };
    let (result, took) = run_fault("never-handshakes", limits);
    let error = engine_error(result);
    assert!(
        matches!(error.problem, EngineProblem::NoHandshake(_)),
        "{error}"
    );
    assert!(took < Duration::from_millis(1500), "{took:?}");
}

#[test]
fn none_within_a_count_no_depth_limit_allows_is_refused() {
    let run = |depth_limit: Option<u32>| {
        let folder = tempfile::tempdir().unwrap();
        let (spec, _) = fault_engine("none-unasked", folder.path());
        solver::run(
            SolverChoice::engine(spec),
            &test_puzzle(),
            &SolverOptions {
                depth_limit,
                ..SolverOptions::default()
            },
            &Limits::default(),
            &mut NoProbe,
        )
    };
    for limit in [None, Some(2)] {
        let error = engine_error(run(limit));
        assert!(
            matches!(
                error.problem,
                EngineProblem::NoneWithoutLimit { within: 3, .. }
            ),
            "{error}"
        );
        assert!(error.to_string().contains("none 3"), "{error}");
    }
    assert_eq!(
        run(Some(3)).unwrap().outcome,
        Outcome::Unsolvable { within: Some(3) }
    );
}

#[test]
fn verify_reports_a_false_claim_of_no_solution_as_the_engines_error() {
    use crate::common::lab_in;
    let folder = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fault_engine.py");
    let pids = folder.path().join("pids");
    let engine = format!(
        "python3 {} none-unasked {}",
        script.display(),
        pids.display()
    );
    let puzzle = folder.path().join("page.ron");
    std::fs::write(
        &puzzle,
        ricochet_lab::model::formats::write(
            &test_puzzle(),
            ricochet_lab::model::formats::Format::Native,
        )
        .unwrap(),
    )
    .unwrap();
    let puzzle = puzzle.display().to_string();
    let args = |extra: &[&'static str]| {
        let mut args = vec!["solve", &puzzle, "--engine", &engine, "--depth-limit", "3"];
        args.extend_from_slice(extra);
        args.iter().map(|a| a.to_string()).collect::<Vec<String>>()
    };
    let run = |extra: &[&'static str]| {
        let args = args(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        lab_in(folder.path(), &args)
    };
    let (code, out, err) = run(&[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("the engine says so; not verified"), "{out}");
    let (code, out, err) = run(&["--verify"]);
    assert_eq!(code, 4, "{out}{err}");
    assert!(
        err.contains("made a false claim: it said no solution within 3 moves exists, but fast solves it in 1 move: RE"),
        "{err}"
    );
}

#[test]
fn verify_reports_a_longer_answer_claimed_shortest_as_the_engines_error() {
    use crate::common::lab_in;
    let folder = tempfile::tempdir().unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fault_engine.py");
    let pids = folder.path().join("pids");
    let engine = format!(
        "python3 {} long-optimal {}",
        script.display(),
        pids.display()
    );
    let puzzle = folder.path().join("page.ron");
    std::fs::write(
        &puzzle,
        ricochet_lab::model::formats::write(
            &test_puzzle(),
            ricochet_lab::model::formats::Format::Native,
        )
        .unwrap(),
    )
    .unwrap();
    let puzzle = puzzle.display().to_string();
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", puzzle.as_str(), "--engine", engine.as_str()];
        args.extend_from_slice(extra);
        lab_in(folder.path(), &args)
    };
    // Unverified, the answer is replayed and its length labelled as the engine's word.
    let (code, out, err) = solve(&[]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("their number is the engine's"), "{out}");
    let (code, out, err) = solve(&["--verify"]);
    assert_eq!(code, 4, "{out}{err}");
    assert!(
        err.contains("it says its solutions are shortest (id optimal=yes), but its 3 moves are beaten by fast's 1 move: RE"),
        "{err}"
    );
}
