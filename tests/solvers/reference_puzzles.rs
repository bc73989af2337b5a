//! The reference puzzles with known answers, solved by the core engine's optimal solvers.
//! These run in release (the README's test command); each puzzle is a test of its own, so
//! the searches of a few seconds each run side by side.

use ricochet_lab::testing::{
    board, board_path, optimum, recorded, report_cancelled_after, report_within,
};

use ricochet_lab::model::format_moves;
use ricochet_lab::model::formats::load_source;
use ricochet_lab::solver::{self, Event, Limits, Outcome};
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
    // The report keeps the rows the probe is handed as each depth finishes.
    let report = report_within("iddfs", &board("fogleman-22.ron"), &Limits::default());
    let Outcome::Solved { moves } = &report.outcome else {
        panic!("unexpected outcome {:?}", report.outcome);
    };
    let mut lines: Vec<String> = report.depths.iter().map(solver::deck_line).collect();
    lines.push(format_moves(moves));
    assert_eq!(lines.join("\n"), DECK_OUTPUT);
}

/// Each of `solvers` finds the optimum `expected` of the shipped board `name`. One test per
/// puzzle, so the searches run side by side.
fn assert_reference_optimum(name: &str, expected: usize, solvers: &[&str]) {
    for solver in solvers {
        assert_eq!(
            optimum(*solver, &board_path(name)),
            expected,
            "{solver} on {name}"
        );
    }
}

// `fast` takes every reference puzzle. `iddfs`, ten times slower, takes one:
// `iddfs_matches_deck_node_counts_on_fogleman_22` checks its 22-move answer and every depth's
// counts against the deck, and the cross-checks hold it to breadth-first search on thousands
// of puzzles. Ten more seconds per puzzle for the same answers would cost the suite a third
// of its time.

#[test]
fn reference_optimum_of_real_21() {
    assert_reference_optimum("real-21.ron", 21, &["fast"]);
}

#[test]
fn reference_optimum_of_fogleman_22() {
    assert_reference_optimum("fogleman-22.ron", 22, &["fast"]);
}

#[test]
fn reference_optimum_of_hansel_24() {
    assert_reference_optimum("hansel-24.ron", 24, &["fast"]);
}

#[test]
fn reference_optimum_of_hardest_25() {
    assert_reference_optimum("hardest-25.ron", 25, &["fast"]);
}

/// The reference puzzles that are games of the real tiles, in game-id form.
const REFERENCE_GAME_IDS: [(&str, &str); 3] = [
    ("3650+42+1CF10F0C+C9", "real-21.ron"),
    ("0765+42+2E21BD0F+93", "hansel-24.ron"),
    ("7650+42+E2302B12+C9", "hardest-25.ron"),
];

#[test]
fn the_reference_game_ids_are_the_shipped_reference_boards() {
    // A game id loads to exactly the shipped board, so the optima found above hold of it.
    for (id, name) in REFERENCE_GAME_IDS {
        assert_eq!(load_source(id).unwrap(), board(name), "{id} against {name}");
    }
}

#[test]
fn bfs_and_iddfs_agree_on_the_shipped_small_boards() {
    for name in ["small-6x6.ron", "standard-random.ron", "five-robots.ron"] {
        let source = board_path(name);
        assert_eq!(optimum("bfs", &source), optimum("iddfs", &source), "{name}");
    }
}

#[test]
fn bfs_stops_cleanly_at_its_memory_limit() {
    let limits = Limits {
        memory_bytes: Some(32 << 20),
        ..Limits::default()
    };
    let report = report_within("bfs", &board("hardest-25.ron"), &limits);
    assert_eq!(report.outcome, Outcome::MemoryLimit);
    // The doubling that would pass the limit is refused before it is made.
    assert!(report.peak_memory <= 32 << 20, "{}", report.peak_memory);
    assert!(report.peak_memory > 8 << 20, "{}", report.peak_memory);
    assert!(!report.depths.is_empty());
}

#[test]
fn time_limit_and_cancel_stop_a_long_search() {
    let puzzle = board("hardest-25.ron");
    let limits = Limits {
        time: Some(Duration::from_millis(50)),
        ..Limits::default()
    };
    let report = report_within("iddfs", &puzzle, &limits);
    assert_eq!(report.outcome, Outcome::TimeLimit);

    let report = report_cancelled_after("iddfs", &puzzle, Duration::from_millis(100));
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
    let (report, probe) = recorded("iddfs", &board("small-6x6.ron"), None);
    assert_eq!(
        probe.count(|e| matches!(e, Event::Node { .. })),
        report.nodes
    );
    assert_eq!(probe.depths, report.depths);
    assert!(matches!(probe.events.last(), Some(Event::Solution { .. })));
}
