//! Hints against the full listing: the search aimed at the first solution gives exactly the
//! first of every optimal solution in the listing's order, from any optimal solver's answer and
//! on any number of threads; a finished solve is reused; a cancel at any moment gives a
//! stopped hint, never a part of an answer.

use ricochet_lab::model::formats::load_source;
use ricochet_lab::model::random::random_puzzle;
use ricochet_lab::model::{Move, Pos, Puzzle, RobotColor, Rules, format_moves, parse_moves};
use ricochet_lab::solver::analysis::all_solutions;
use ricochet_lab::solver::analysis::first_solution::{first_optimal, first_optimal_from_graph};
use ricochet_lab::solver::analysis::hints::{self, Hint, HintLevel};
use ricochet_lab::solver::{self, Limits, NoProbe, Outcome, Report, SolverOptions, Stop};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn limits() -> Limits {
    Limits {
        time: Some(Duration::from_secs(60)),
        ..Limits::default()
    }
}

/// Limits whose cancel flag is already set: any search stops at its first poll.
fn cancelled() -> Limits {
    Limits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Limits::default()
    }
}

/// The first solution of the whole sorted listing (`None`: the puzzle has none).
fn listing_first(puzzle: &Puzzle) -> Option<Vec<Move>> {
    listing_first_within(puzzle, &limits()).expect("the listing stopped on its limits")
}

/// [`listing_first`] within `limits`; `None` when the listing stopped on them.
fn listing_first_within(puzzle: &Puzzle, limits: &Limits) -> Option<Option<Vec<Move>>> {
    let enumeration = all_solutions::enumerate(
        "bfs",
        puzzle,
        &SolverOptions::default(),
        // The listing keeps the best of all the solutions, whatever the cap.
        1,
        limits,
        &mut NoProbe,
    )
    .unwrap();
    assert!(enumeration.listing.rejected.is_empty());
    if enumeration.listing.stopped.is_some() {
        return None;
    }
    Some(enumeration.listing.solutions.first().cloned())
}

fn run(solver: &str, puzzle: &Puzzle) -> Report {
    solver::run(
        solver,
        puzzle,
        &SolverOptions::default(),
        &limits(),
        &mut NoProbe,
    )
    .unwrap()
}

mod property {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// On any small board with one to five robots and under every rule, the hint is the
        /// first solution of the full listing, and the search for it gives the same answer
        /// from another optimal solver's solution and on any number of threads.
        #[test]
        fn the_hint_is_the_first_solution_of_the_full_listing(
            width in 1u16..=7,
            height in 1u16..=7,
            robots in 1usize..=5,
            wall_every in 2usize..=6,
            seed in any::<u64>(),
            ricochet in any::<bool>(),
            no_rebound in any::<bool>(),
            threads in 1usize..=3,
        ) {
            let Ok(puzzle) = random_puzzle(width, height, robots, wall_every, seed) else {
                return Ok(());
            };
            let puzzle = puzzle.with_rules(Rules { ricochet, no_rebound });
            // Almost every case takes milliseconds; a rare one (five robots, no solution) has
            // the listing walk millions of states, and is left out after 2 s rather than
            // costing the suite half a minute.
            let quick = Limits { time: Some(Duration::from_secs(2)), ..Limits::default() };
            let Some(expected) = listing_first_within(&puzzle, &quick) else {
                return Ok(());
            };
            let hint = hints::hint(&puzzle, &limits(), &mut NoProbe).unwrap();
            match &expected {
                Some(first) => prop_assert_eq!(
                    &hint,
                    &Hint::Solved { solution: first.clone() },
                    "listing {}", format_moves(first)
                ),
                // `fast` may prove it only up to the bound its tables record.
                None => prop_assert!(
                    matches!(hint, Hint::Unsolvable { .. }),
                    "{:?}", hint
                ),
            }
            // With no solution there is no other answer to start from, and breadth-first
            // search would only walk the states the listing walked.
            if expected.is_none() {
                return Ok(());
            }
            let bfs = solver::run("bfs", &puzzle, &SolverOptions::default(), &quick, &mut NoProbe);
            let Ok(report) = bfs else {
                return Ok(());
            };
            let Outcome::Solved { moves } = &report.outcome else {
                return Ok(());
            };
            // Starting from that solve, which leaves no table, the questions race the graph
            // gathered from nothing beside them (on two cores or more).
            let from_solve = hints::hint_at(
                &puzzle, HintLevel::Solution, Some(&report), &limits(), &mut NoProbe,
            ).unwrap();
            prop_assert_eq!(
                from_solve,
                Hint::Solved { solution: expected.clone().expect("a solution was listed") }
            );
            // Under the ricochet rule the hint reads the listing: the aimed search and the
            // graph do not hold there (their cuts take a state met again as one met before
            // with more moves left, but a path back to the start can be what makes a solution
            // long enough to count: on a 1x2 board with one robot, RN, RS, RN), so they are
            // not asked.
            if ricochet {
                return Ok(());
            }
            let first = first_optimal(&puzzle, moves, Some(threads), &limits(), &mut NoProbe);
            prop_assert_eq!(first.solution.ok(), expected.clone());
            // The graph of every optimal solution gives the same answer.
            let graph = first_optimal_from_graph(&puzzle, moves, Some(threads), &limits(), &mut NoProbe);
            prop_assert_eq!(graph.solution.ok(), expected);
        }
    }
}

#[test]
fn the_hint_matches_the_listing_on_the_small_reference_puzzles() {
    for name in ["small-6x6", "five-robots", "standard-random"] {
        let path = format!("{}/boards/{name}.ron", env!("CARGO_MANIFEST_DIR"));
        let puzzle = load_source(&path).unwrap();
        let expected = listing_first(&puzzle).unwrap();
        let hint = hints::hint(&puzzle, &limits(), &mut NoProbe).unwrap();
        assert_eq!(
            hint,
            Hint::Solved { solution: expected },
            "{name}: {:?}",
            hint.lines(HintLevel::Solution)
        );
    }
}

#[test]
fn level_one_is_the_optimum_of_a_solve_and_reuses_a_finished_one() {
    let puzzle = load_source("F142+42+EEE17E96+29").unwrap();
    let report = run("fast", &puzzle);
    let Outcome::Solved { moves } = &report.outcome else {
        panic!("{:?}", report.outcome);
    };
    assert_eq!(moves.len(), 11);
    let level_one = hints::hint_at(&puzzle, HintLevel::MoveCount, None, &limits(), &mut NoProbe);
    assert_eq!(level_one.unwrap(), Hint::MoveCount { moves: 11 });
    let hint = Hint::MoveCount { moves: 11 };
    assert_eq!(hint.lines(HintLevel::Robots), ["Moves: 11"]);
    assert!(hint.covers(HintLevel::MoveCount) && !hint.covers(HintLevel::Robots));

    // With the run given, no search starts: the limits are already cancelled.
    let reused = hints::hint_at(
        &puzzle,
        HintLevel::MoveCount,
        Some(&report),
        &cancelled(),
        &mut NoProbe,
    );
    assert_eq!(reused.unwrap(), Hint::MoveCount { moves: 11 });
    // Without it, the same limits stop the solve.
    let stopped = hints::hint_at(
        &puzzle,
        HintLevel::MoveCount,
        None,
        &cancelled(),
        &mut NoProbe,
    );
    assert_eq!(
        stopped.unwrap(),
        Hint::Stopped {
            stop: Stop::Cancelled
        }
    );
    // A run of another position, or of a solver that does not guarantee optimal answers, is
    // not reused: the hint solves again (and the cancelled limits stop it).
    let first = moves[0];
    let index = puzzle.robot_index(first.robot).unwrap();
    let mut cells = puzzle.robot_cells();
    cells[index] =
        ricochet_lab::model::MoveTables::new(puzzle.board()).slide(&cells, index, first.dir);
    let other = puzzle.with_robot_cells(&cells);
    let other_report = run("fast", &other);
    let not_optimal = Report {
        solver: "dls",
        ..report.clone()
    };
    for wrong in [&other_report, &not_optimal] {
        let hint = hints::hint_at(
            &puzzle,
            HintLevel::MoveCount,
            Some(wrong),
            &cancelled(),
            &mut NoProbe,
        );
        assert_eq!(
            hint.unwrap(),
            Hint::Stopped {
                stop: Stop::Cancelled
            },
            "{}",
            wrong.solver
        );
    }

    // The other levels start from the given run and give the listing's first solution.
    let whole = hints::hint_at(
        &puzzle,
        HintLevel::Solution,
        Some(&report),
        &limits(),
        &mut NoProbe,
    )
    .unwrap();
    let expected = parse_moves("YS, YE, YS, YW, YN, GE, YS, BS, BW, BN, BE").unwrap();
    assert_eq!(
        whole,
        Hint::Solved {
            solution: expected.clone()
        }
    );
    assert!(whole.covers(HintLevel::Solution));
    // A cancel during the search after the solve says so, and nothing else.
    let stopped = hints::hint_at(
        &puzzle,
        HintLevel::Solution,
        Some(&report),
        &cancelled(),
        &mut NoProbe,
    );
    assert_eq!(
        stopped.unwrap(),
        Hint::Stopped {
            stop: Stop::Cancelled
        }
    );
}

/// The deck puzzle with blue moved west once, from (15, 0) to yellow's side at (13, 0): 20
/// moves and a great many optimal solutions.
fn deck_after_blue_west() -> Puzzle {
    let path = format!("{}/boards/real-21.ron", env!("CARGO_MANIFEST_DIR"));
    let deck = load_source(&path).unwrap();
    let blue = deck.robot_index(RobotColor::Blue).unwrap();
    let mut cells = deck.robot_cells();
    assert_eq!(cells[blue], deck.board().cell(Pos { x: 15, y: 0 }));
    cells[blue] = deck.board().cell(Pos { x: 13, y: 0 });
    deck.with_robot_cells(&cells)
}

/// hansel-24's questions pass their budget (proving that no three robots suffice takes over
/// 15 million nodes), so from a finished solve, which leaves no table, the graph gathered from
/// nothing beside them answers: the same first solution as the hint that made its own solve
/// (whose graph starts from that solve's table).
#[test]
fn from_a_finished_solve_the_graph_beside_the_questions_gives_the_same_first_solution() {
    let path = format!("{}/boards/hansel-24.ron", env!("CARGO_MANIFEST_DIR"));
    let puzzle = load_source(&path).unwrap();
    let report = run("fast", &puzzle);
    let own = hints::hint_at(&puzzle, HintLevel::Solution, None, &limits(), &mut NoProbe).unwrap();
    let Hint::Solved { solution } = &own else {
        panic!("{own:?}");
    };
    assert_eq!(solution.len(), 24);
    let from_solve = hints::hint_at(
        &puzzle,
        HintLevel::Solution,
        Some(&report),
        &limits(),
        &mut NoProbe,
    )
    .unwrap();
    assert_eq!(from_solve, own);
}

#[test]
fn a_cancel_stops_a_hint_in_every_phase_within_a_poll() {
    use ricochet_lab::worker::hint::spawn_hint_at;
    let puzzle = deck_after_blue_west();
    let report = run("fast", &puzzle);
    let waker: ricochet_lab::worker::Waker = Arc::new(|_| {});
    // From the start (a solve, then the search) and from a finished solve (the search alone),
    // cancelled at several moments of each.
    for known in [None, Some(report)] {
        for delay in [0, 20, 150, 400, 900] {
            let task = spawn_hint_at(
                puzzle.clone(),
                HintLevel::Solution,
                known.clone(),
                None,
                waker.clone(),
            )
            .unwrap();
            std::thread::sleep(Duration::from_millis(delay));
            task.cancel();
            let cancelled_at = Instant::now();
            // The move count a finished solve sent ahead is not the answer.
            let answer = loop {
                let answer = task.recv_timeout(Duration::from_secs(20)).unwrap();
                if !answer.as_ref().is_ok_and(|answer| answer.partial) {
                    break answer;
                }
            };
            let latency = cancelled_at.elapsed();
            let what = format!("known {}, after {delay} ms", known.is_some());
            match answer.unwrap().hint {
                Hint::Stopped {
                    stop: Stop::Cancelled,
                } => {}
                other => panic!("{what}: {other:?}"),
            }
            // The searches look at the flag every few thousand nodes and the hint's thread
            // every millisecond; a loaded machine may add its own delay, never seconds.
            assert!(latency < Duration::from_secs(1), "{what}: {latency:?}");
        }
    }
}
