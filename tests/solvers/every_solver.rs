//! Every registered solver runs through the one API on the shipped small boards: optimal ones
//! agree with BFS, the others never return an answer that fails its replay unflagged, and each
//! honours a cancel flag that is already set.

use ricochet_lab::testing::{board, report_with, report_within};

use ricochet_lab::solver::{self, Limits, NoProbe, Optimality, Outcome, SolverOptions};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[test]
fn every_solver_answers_the_small_boards() {
    for name in ["small-6x6.ron", "standard-random.ron", "five-robots.ron"] {
        let puzzle = board(name);
        let limits = Limits {
            time: Some(Duration::from_secs(30)),
            ..Limits::default()
        };
        let optimum = match report_within("bfs", &puzzle, &limits).outcome {
            Outcome::Solved { moves } => moves.len(),
            other => panic!("{name}: bfs {other:?}"),
        };
        for kind in solver::SOLVERS {
            // Depth-limited search gets the optimum as its limit: with its default of 10 it
            // walks 152 million nodes on the five-robot board (7 s), where 9 is the answer.
            // Its default limit is held to BFS on random puzzles in the cross-checks.
            let options = SolverOptions {
                depth_limit: (kind.name == "dls").then_some(optimum as u32),
                ..SolverOptions::default()
            };
            let report = report_with(kind.name, &puzzle, &options, &limits, &mut NoProbe);
            assert_eq!(report.solver, kind.name);
            match &report.outcome {
                Outcome::Solved { moves } => {
                    puzzle.replay(moves).unwrap();
                    assert!(
                        moves.len() >= optimum,
                        "{name}: {} beat the optimum",
                        kind.name
                    );
                    if kind.optimality == Optimality::Guaranteed {
                        assert_eq!(moves.len(), optimum, "{name}: {}", kind.name);
                    }
                }
                Outcome::Invalid { .. } | Outcome::Unsolvable { .. } | Outcome::NotFound => {
                    assert_eq!(
                        kind.optimality,
                        Optimality::NotGuaranteed,
                        "{name}: optimal {} gave {:?}",
                        kind.name,
                        report.outcome
                    );
                }
                other => panic!("{name}: {} stopped: {other:?}", kind.name),
            }
        }
    }
}

#[test]
fn every_solver_stops_when_cancelled() {
    let puzzle = board("hardest-25.ron");
    for kind in solver::SOLVERS {
        // A solver that ends this puzzle within a fifth of a second needs no cancel; one that
        // ignored its limits altogether would run far longer and fail here.
        let quick = Limits {
            time: Some(Duration::from_millis(200)),
            ..Limits::default()
        };
        let report = report_within(kind.name, &puzzle, &quick);
        if report.outcome != Outcome::TimeLimit {
            assert!(
                report.elapsed < Duration::from_secs(2),
                "{} ran {:?} past a limit of 0.2 s",
                kind.name,
                report.elapsed
            );
            continue;
        }
        // The others must end "cancelled" with the flag up: a solver that ignored the flag
        // would run into the time limit instead.
        let cancelled = Limits {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            time: Some(Duration::from_secs(60)),
            ..Limits::default()
        };
        let report = report_within(kind.name, &puzzle, &cancelled);
        assert_eq!(report.outcome, Outcome::Cancelled, "{}", kind.name);
        assert!(
            report.elapsed < Duration::from_secs(10),
            "{}: {:?}",
            kind.name,
            report.elapsed
        );
    }
}

#[test]
fn solver_names_are_unique_and_described() {
    let mut names: Vec<&str> = solver::SOLVERS.iter().map(|k| k.name).collect();
    names.sort();
    let count = names.len();
    names.dedup();
    assert_eq!(names.len(), count);
    for kind in solver::SOLVERS {
        assert!(
            !kind.description.is_empty() && !kind.source.is_empty(),
            "{}",
            kind.name
        );
        assert!(solver::kind(kind.name).is_some());
    }
}

#[test]
fn every_node_event_carries_the_moves_that_reach_it() {
    use ricochet_lab::model::MoveTables;
    use ricochet_lab::solver::{Event, RecordingProbe};
    for name in ["small-6x6.ron", "five-robots.ron"] {
        let puzzle = board(name);
        let tables = MoveTables::new(puzzle.board());
        let limits = Limits {
            time: Some(Duration::from_secs(30)),
            ..Limits::default()
        };
        for kind in solver::SOLVERS {
            if name == "five-robots.ron" && kind.name == "dls" {
                // DLS's exhaustive search of five robots takes seconds even unobserved; the
                // small board covers it.
                continue;
            }
            let mut probe = RecordingProbe::default();
            report_with(
                kind.name,
                &puzzle,
                &SolverOptions::default(),
                &limits,
                &mut probe,
            );
            let mut nodes = 0;
            for event in &probe.events {
                let Event::Node { depth, cells, path } = event else {
                    continue;
                };
                nodes += 1;
                assert_eq!(path.len(), *depth as usize, "{name}: {}", kind.name);
                let mut at = puzzle.robot_cells();
                for mv in path {
                    let robot = puzzle.robot_index(mv.robot).unwrap();
                    at[robot] = tables.slide(&at, robot, mv.dir);
                }
                assert_eq!(
                    at,
                    cells.as_slice(),
                    "{name}: {} reported a node its path does not reach: {}",
                    kind.name,
                    ricochet_lab::model::format_moves(path)
                );
            }
            if kind.name != "stateless" {
                assert!(nodes > 0, "{name}: {} reported no nodes", kind.name);
            }
        }
    }
}
