//! The node profile per move prefix: for every registered solver its counts add up to the
//! run's nodes and agree with the nodes the solver reports one by one, profiling changes
//! nothing the search does, and the parallel `fast` adds up its threads' counts.

use ricochet_lab::model::Puzzle;
use ricochet_lab::solver::probe::Profiling;
use ricochet_lab::solver::profile::NodeProfile;
use ricochet_lab::solver::{
    self, Event, Limits, NoProbe, Outcome, RecordingProbe, Report, SolverId, SolverOptions,
};
use ricochet_lab::testing::board as load;
use std::time::Duration;

use crate::common::run as lab;

fn limits() -> Limits {
    Limits {
        time: Some(Duration::from_secs(60)),
        ..Limits::default()
    }
}

fn profiled<P: solver::Probe>(
    id: SolverId,
    puzzle: &Puzzle,
    options: &SolverOptions,
    inner: P,
    depth: usize,
) -> (Report, Profiling<P>) {
    let mut probe = Profiling::new(inner, depth).unwrap();
    let report = solver::run(id, puzzle, options, &limits(), &mut probe).unwrap();
    (report, probe)
}

/// The nodes of every prefix of `length` moves, added up.
fn nodes_at_length(profile: &NodeProfile, length: usize) -> u64 {
    profile
        .entries()
        .iter()
        .filter(|e| e.prefix.len() == length)
        .map(|e| e.nodes)
        .sum()
}

/// Checks what holds of any profile: the first moves' subtrees and the roots make the run's
/// nodes, and each prefix holds at least the nodes of its longer prefixes.
fn assert_adds_up(what: &str, report: &Report, profile: &NodeProfile) {
    assert_eq!(
        nodes_at_length(profile, 1) + profile.roots(),
        report.nodes,
        "{what}: first moves plus roots against the run's nodes"
    );
    assert!(profile.roots() >= 1, "{what}: no root counted");
    let entries = profile.entries();
    for entry in &entries {
        let below: u64 = entries
            .iter()
            .filter(|e| {
                e.prefix.len() == entry.prefix.len() + 1 && e.prefix.starts_with(&entry.prefix)
            })
            .map(|e| e.nodes)
            .sum();
        assert!(
            below <= entry.nodes,
            "{what}: {:?} holds less than below it",
            entry.prefix
        );
    }
}

#[test]
fn every_solver_profile_adds_up_against_its_nodes_and_rows() {
    // Recording every event slows the slower solvers down a lot: the five-robot board is
    // checked without the record, in the next test.
    for name in ["small-6x6.ron", "standard-random.ron"] {
        let puzzle = load(name);
        for id in SolverId::ALL {
            let what = format!("{name}, {id}");
            let options = SolverOptions {
                threads: Some(1),
                ..SolverOptions::default()
            };
            let plain = solver::run(id, &puzzle, &options, &limits(), &mut NoProbe).unwrap();
            let (report, probe) = profiled(id, &puzzle, &options, RecordingProbe::default(), 3);
            assert!(
                !matches!(report.outcome, Outcome::TimeLimit),
                "{what}: ran out of time"
            );
            // Profiling changes nothing the search does.
            assert_eq!(report.outcome, plain.outcome, "{what}");
            assert_eq!(report.nodes, plain.nodes, "{what}");
            assert_eq!(report.depths, plain.depths, "{what}");
            assert_eq!(probe.inner.depths, report.depths, "{what}");
            let profile = &probe.profile;
            assert_adds_up(&what, &report, profile);
            // Where the solver reports its nodes one by one, each prefix length holds exactly
            // the nodes at least that deep.
            let reported = probe.inner.count(|e| matches!(e, Event::Node { .. }));
            if reported > 0 {
                assert_eq!(reported, report.nodes, "{what}");
                for length in 1..=3 {
                    let deep = probe.inner.count(
                        |e| matches!(e, Event::Node { depth, .. } if *depth as usize >= length),
                    );
                    assert_eq!(nodes_at_length(profile, length), deep, "{what}, {length}");
                }
                // And each node is counted under its own first moves.
                let mut from_events = profile.emptied();
                for event in &probe.inner.events {
                    if let Event::Node { path, .. } = event {
                        from_events.count(path.iter().copied());
                    }
                }
                assert_eq!(&from_events, profile, "{what}");
            }
        }
    }
}

#[test]
fn every_solver_profile_adds_up_on_five_robots() {
    let puzzle = load("five-robots.ron");
    // DLS's exhaustive search of five robots takes seconds even unprofiled: its profile adds
    // up on the two boards of the test above, and its answer here is checked by
    // `every_solver_answers_the_small_boards`.
    for id in SolverId::ALL.into_iter().filter(|id| *id != SolverId::Dls) {
        let what = format!("five-robots, {id}");
        let options = SolverOptions::default();
        let (report, probe) = profiled(id, &puzzle, &options, NoProbe, 2);
        assert!(
            !matches!(report.outcome, Outcome::TimeLimit),
            "{what}: ran out of time"
        );
        assert_adds_up(&what, &report, &probe.profile);
    }
}

#[test]
fn fast_on_several_threads_adds_up_every_threads_counts() {
    let puzzle = load("real-21.ron");
    let options = SolverOptions {
        threads: Some(3),
        ..SolverOptions::default()
    };
    let (report, probe) = profiled(SolverId::Fast, &puzzle, &options, NoProbe, 2);
    assert!(
        matches!(report.outcome, Outcome::Solved { .. }),
        "{:?}",
        report.outcome
    );
    assert!(report.threads > 1, "the search stayed on one thread");
    assert_adds_up("real-21, fast", &report, &probe.profile);
    let (first, second) = (
        nodes_at_length(&probe.profile, 1),
        nodes_at_length(&probe.profile, 2),
    );
    assert!(0 < second && second < first, "{first} then {second}");
}

#[test]
fn solve_profile_depth_two_json_lists_every_prefix_adding_up_to_the_nodes() {
    for solver in ["iddfs", "bfs", "fast"] {
        let (code, out, err) = lab(&[
            "solve",
            "boards/standard-random.ron",
            "--solver",
            solver,
            "--profile-depth",
            "2",
            "--json",
        ]);
        assert_eq!(code, 0, "{solver}: {err}");
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        let nodes = value["nodes"].as_u64().unwrap();
        let profile = value["profile"].as_array().expect("a profile");
        let prefixes: Vec<Vec<String>> = profile
            .iter()
            .map(|e| {
                e["prefix"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap().to_string())
                    .collect()
            })
            .collect();
        let count = |e: &serde_json::Value| e["nodes"].as_u64().unwrap();
        let first: u64 = profile
            .iter()
            .zip(&prefixes)
            .filter(|(_, p)| p.len() == 1)
            .map(|(e, _)| count(e))
            .sum();
        // The roots are the depth rows' iterations at most: a few nodes, never more.
        let rows = value["depths"].as_array().unwrap().len() as u64;
        assert!(
            first < nodes && nodes - first <= rows.max(1),
            "{solver}: {first} of {nodes}"
        );
        assert!(
            prefixes.iter().all(|p| (1..=2).contains(&p.len())),
            "{solver}"
        );
        assert!(prefixes.iter().any(|p| p.len() == 2), "{solver}");
        // Deterministic order: each first move, then its second moves, each listed once.
        let mut sorted = prefixes.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), prefixes.len(), "{solver}");
        for (i, prefix) in prefixes.iter().enumerate() {
            if prefix.len() == 2 {
                let parent = prefixes[..i].iter().rev().find(|p| p.len() == 1).unwrap();
                assert_eq!(
                    parent[0], prefix[0],
                    "{solver}: {prefix:?} under {parent:?}"
                );
            }
        }
        for m in prefixes.iter().flatten() {
            assert!(m.parse::<ricochet_lab::model::Move>().is_ok(), "{m}");
        }
    }
    // Without --profile-depth there is no profile.
    let (_, out, _) = lab(&["solve", "boards/small-6x6.ron", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(value.get("profile").is_none());
}

#[test]
fn solve_profile_prints_a_table_and_refuses_depths_out_of_range_by_name() {
    let (code, out, err) = lab(&["solve", "boards/small-6x6.ron", "--profile-depth", "1"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Nodes per first moves ("), "{out}");
    for bad in ["0", "5"] {
        let (code, _, err) = lab(&["solve", "boards/small-6x6.ron", "--profile-depth", bad]);
        assert_ne!(code, 0);
        assert!(err.contains("--profile-depth"), "{err}");
    }
}
