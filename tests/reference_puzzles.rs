//! The reference puzzles with known answers, solved by the core engine's optimal solvers.
//! These run in release (the README's test command) and take about a minute in all.

mod common;

use common::puzzles::board;

use ricochet_lab::model::format_moves;
use ricochet_lab::model::formats::load_source;
use ricochet_lab::solver::{self, Limits, Outcome, RecordingProbe, SolverOptions};
use std::time::Duration;

/// The deck's "Solver Output" slide, line for line.
const DECK_OUTPUT: &str = "\
Depth: 1, Nodes: 1 (0 inner, 0 hits)
Depth: 2, Nodes: 1 (0 inner, 0 hits)
Depth: 3, Nodes: 1 (0 inner, 0 hits)
Depth: 4, Nodes: 3 (1 inner, 0 hits)
Depth: 5, Nodes: 28 (11 inner, 0 hits)
Depth: 6, Nodes: 200 (100 inner, 34 hits)
Depth: 7, Nodes: 984 (577 inner, 293 hits)
Depth: 8, Nodes: 3779 (2431 inner, 1455 hits)
Depth: 9, Nodes: 12162 (8295 inner, 5429 hits)
Depth: 10, Nodes: 34269 (24349 inner, 16854 hits)
Depth: 11, Nodes: 87105 (63928 inner, 45994 hits)
Depth: 12, Nodes: 204091 (154241 inner, 114306 hits)
Depth: 13, Nodes: 446518 (346590 inner, 263199 hits)
Depth: 14, Nodes: 919338 (729935 inner, 565531 hits)
Depth: 15, Nodes: 1796912 (1451686 inner, 1142404 hits)
Depth: 16, Nodes: 3367854 (2758316 inner, 2197992 hits)
Depth: 17, Nodes: 6091594 (5050855 inner, 4069434 hits)
Depth: 18, Nodes: 10663998 (8946467 inner, 7281399 hits)
Depth: 19, Nodes: 18096372 (15356593 inner, 12617875 hits)
Depth: 20, Nodes: 29794218 (25564989 inner, 21196014 hits)
Depth: 21, Nodes: 47612050 (41300695 inner, 34539268 hits)
Depth: 22, Nodes: 1124068 (953336 inner, 793116 hits)
BS, BW, BN, BE, BS, BE, GN, GE, BS, RS, RW, RN, BE, BS, BW, YS, YW, YN, YW, YS, BE, BN";

#[test]
fn iddfs_matches_deck_node_counts_on_fogleman_22() {
    let puzzle = load_source(&board("fogleman-22.ron")).unwrap();
    let mut probe = DepthLines::default();
    let report = solver::run(
        "iddfs",
        &puzzle,
        &SolverOptions::default(),
        &Limits::default(),
        &mut probe,
    )
    .unwrap();
    let Outcome::Solved { moves } = &report.outcome else {
        panic!("unexpected outcome {:?}", report.outcome);
    };
    probe.lines.push(format_moves(moves));
    assert_eq!(probe.lines.join("\n"), DECK_OUTPUT);
}

#[derive(Default)]
struct DepthLines {
    lines: Vec<String>,
}

impl solver::Probe for DepthLines {
    fn depth_finished(&mut self, stats: &solver::DepthStats) {
        self.lines.push(solver::deck_line(stats));
    }
}

fn optimum(source: &str, solver_name: &str) -> usize {
    let puzzle = load_source(source).unwrap();
    let report = solver::run(
        solver_name,
        &puzzle,
        &SolverOptions::default(),
        &Limits::default(),
        &mut solver::NoProbe,
    )
    .unwrap();
    match report.outcome {
        Outcome::Solved { moves } => moves.len(),
        other => panic!("{source}: {other:?}"),
    }
}

#[test]
fn iddfs_solves_real_21_in_21_moves() {
    assert_eq!(optimum(&board("real-21.ron"), "iddfs"), 21);
    assert_eq!(optimum("3650+42+1CF10F0C+C9", "iddfs"), 21);
}

#[test]
fn iddfs_solves_hansel_24_in_24_moves() {
    assert_eq!(optimum(&board("hansel-24.ron"), "iddfs"), 24);
}

#[test]
fn iddfs_solves_hardest_25_in_25_moves() {
    assert_eq!(optimum(&board("hardest-25.ron"), "iddfs"), 25);
}

#[test]
fn bfs_and_iddfs_agree_on_the_shipped_small_boards() {
    for name in ["small-6x6.ron", "standard-random.ron", "five-robots.ron"] {
        let source = board(name);
        assert_eq!(optimum(&source, "bfs"), optimum(&source, "iddfs"), "{name}");
    }
}

#[test]
fn bfs_stops_cleanly_at_its_memory_limit() {
    let puzzle = load_source(&board("hardest-25.ron")).unwrap();
    let limits = Limits {
        memory_bytes: Some(32 << 20),
        ..Limits::default()
    };
    let report = solver::run(
        "bfs",
        &puzzle,
        &SolverOptions::default(),
        &limits,
        &mut solver::NoProbe,
    )
    .unwrap();
    assert_eq!(report.outcome, Outcome::MemoryLimit);
    // The doubling that would pass the limit is refused before it is made.
    assert!(report.peak_memory <= 32 << 20, "{}", report.peak_memory);
    assert!(report.peak_memory > 8 << 20, "{}", report.peak_memory);
    assert!(!report.depths.is_empty());
}

#[test]
fn time_limit_and_cancel_stop_a_long_search() {
    let puzzle = load_source(&board("hardest-25.ron")).unwrap();
    let limits = Limits {
        time: Some(Duration::from_millis(50)),
        ..Limits::default()
    };
    let report = solver::run(
        "iddfs",
        &puzzle,
        &SolverOptions::default(),
        &limits,
        &mut solver::NoProbe,
    )
    .unwrap();
    assert_eq!(report.outcome, Outcome::TimeLimit);

    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(cancel.clone()),
        ..Limits::default()
    };
    let flag = cancel.clone();
    let canceller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let report = solver::run(
        "iddfs",
        &puzzle,
        &SolverOptions::default(),
        &limits,
        &mut solver::NoProbe,
    )
    .unwrap();
    canceller.join().unwrap();
    assert_eq!(report.outcome, Outcome::Cancelled);
    // Generous: the search polls its flag every few thousand nodes.
    assert!(
        report.elapsed < Duration::from_secs(5),
        "{:?}",
        report.elapsed
    );
}

#[test]
fn events_follow_the_search() {
    let puzzle = load_source(&board("small-6x6.ron")).unwrap();
    let mut probe = RecordingProbe::default();
    let report = solver::run(
        "iddfs",
        &puzzle,
        &SolverOptions::default(),
        &Limits::default(),
        &mut probe,
    )
    .unwrap();
    let nodes = probe
        .events
        .iter()
        .filter(|e| matches!(e, solver::Event::Node { .. }))
        .count() as u64;
    assert_eq!(nodes, report.nodes);
    assert_eq!(probe.depths, report.depths);
    assert!(matches!(
        probe.events.last(),
        Some(solver::Event::Solution { .. })
    ));
}
