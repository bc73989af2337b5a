//! The fast solver against the reference optimal solvers: the same move counts on thousands
//! of random puzzles (standard games, and small boards of many sizes and robot counts, with
//! and without the ricochet rule), the known optimal lengths of the reference puzzles, and the
//! limits, cancel, events and edge cases every solver must honour.

use ricochet_lab::testing::{board, recorded, report_cancelled_after, solve, solve_within};

use ricochet_lab::model::random::random_puzzle;
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::model::{Board, Goal, Pos, Puzzle, Robot, RobotColor, Rules, TargetColor};
use ricochet_lab::solver::{self, Event, Limits, NoProbe, Outcome, SolverOptions};
use std::time::Duration;

/// Compares `fast` with a reference solver; returns whether the reference finished. A fast
/// answer is always replay-checked by `solver::run`, so `Solved` means a valid solution.
fn agrees_with(reference: &str, puzzle: &Puzzle, what: &str) -> bool {
    let expected = solve(reference, puzzle);
    let fast = solve("fast", puzzle);
    match (&expected, &fast) {
        (Outcome::Solved { moves: a }, Outcome::Solved { moves: b }) => {
            assert_eq!(a.len(), b.len(), "{what}: {reference} {a:?} but fast {b:?}");
            true
        }
        (Outcome::Unsolvable { .. }, Outcome::Unsolvable { .. }) => true,
        (_, Outcome::TimeLimit) => panic!("{what}: fast ran out of time, {reference} {expected:?}"),
        (Outcome::TimeLimit | Outcome::MemoryLimit, _) => false,
        _ => panic!("{what}: {reference} {expected:?} but fast {fast:?}"),
    }
}

/// Compares `fast` with a reference solver on the random standard game of each (seed, robot
/// count); returns how many games the reference finished.
fn agreeing_standard_games(reference: &str, games: impl Iterator<Item = (u64, usize)>) -> usize {
    games
        .map(|(seed, robots)| {
            let (puzzle, _) = random_game(seed, robots).unwrap();
            let what = format!("standard seed {seed}, {robots} robots");
            usize::from(agrees_with(reference, &puzzle, &what))
        })
        .sum()
}

#[test]
fn fast_agrees_with_iddfs_on_a_thousand_random_standard_games() {
    let finished = agreeing_standard_games("iddfs", (1..=1000).map(|seed| (seed, 4)));
    assert!(finished >= 990, "only {finished} of 1000 finished");
}

#[test]
fn fast_agrees_with_bfs_on_random_standard_games_with_fewer_or_more_robots() {
    let games = (0..200u64).map(|seed| (10_000 + seed, [1, 2, 3, 5][(seed % 4) as usize]));
    let finished = agreeing_standard_games("bfs", games);
    assert!(finished >= 190, "only {finished} of 200 finished");
}

#[test]
fn fast_agrees_with_bfs_on_thousands_of_small_boards() {
    // (width, height, robots, puzzles): the two largest shapes hold most of the time, as
    // breadth-first search walks millions of four-robot states on some of them.
    let shapes: [(u16, u16, usize, u64); 12] = [
        (1, 1, 1, 200),
        (1, 9, 2, 200),
        (2, 2, 2, 200),
        (3, 3, 3, 200),
        (4, 4, 5, 200),
        (5, 7, 5, 200),
        (6, 6, 1, 200),
        (6, 6, 3, 200),
        (7, 7, 2, 200),
        (8, 8, 4, 100),
        (10, 3, 3, 200),
        (9, 9, 4, 100),
    ];
    let mut total = 0;
    let mut finished = 0;
    for (i, &(w, h, robots, count)) in shapes.iter().enumerate() {
        for seed in 0..count {
            let seed = seed + 1000 * i as u64;
            let Ok(puzzle) = random_puzzle(w, h, robots, 3 + (seed % 4) as usize, seed) else {
                continue;
            };
            total += 1;
            let what = format!("{w}x{h}, {robots} robots, seed {seed}");
            finished += usize::from(agrees_with("bfs", &puzzle, &what));
            if seed.is_multiple_of(3) {
                let ricochet = puzzle.with_rules(Rules {
                    ricochet: true,
                    no_rebound: false,
                });
                let expected = ricochet_optimum(&ricochet);
                let fast = solve("fast", &ricochet);
                assert_eq!(
                    fast.move_count(),
                    expected,
                    "{what}, ricochet: fast {fast:?}"
                );
            }
        }
    }
    assert!(total >= 2000, "only {total} puzzles could be made");
    assert!(
        finished * 100 >= total * 99,
        "only {finished} of {total} finished"
    );
}

/// The ricochet rule's optimum by plain breadth-first search over states that also remember
/// whether two moves have been made yet: a state first reached after one move may still lead
/// to an accepted solution when reached again later (the robot may leave the target and come
/// back), so "visited" must not merge the two.
fn ricochet_optimum(puzzle: &Puzzle) -> Option<usize> {
    use std::collections::{HashSet, VecDeque};
    let tables = ricochet_lab::model::MoveTables::new(puzzle.board());
    let start = puzzle.robot_cells();
    let mut seen = HashSet::from([(start.clone(), 0usize)]);
    let mut queue = VecDeque::from([(start, 0usize)]);
    while let Some((cells, depth)) = queue.pop_front() {
        for robot in 0..cells.len() {
            for dir in ricochet_lab::model::Direction::ALL {
                let to = tables.slide(&cells, robot, dir);
                if to == cells[robot] {
                    continue;
                }
                let mut next = cells.clone();
                next[robot] = to;
                if depth + 1 >= 2 && puzzle.is_goal(&next) {
                    return Some(depth + 1);
                }
                if seen.insert((next.clone(), (depth + 1).min(2))) {
                    queue.push_back((next, depth + 1));
                }
            }
        }
    }
    None
}

#[test]
fn fast_agrees_with_bfs_on_large_and_odd_boards() {
    // 64x64 boards with one to three robots are
    // `every_solver_agrees_with_bfs_on_the_largest_and_narrowest_boards`, which checks `fast`
    // there too; breadth-first search over two robots' 16 million states took most of this
    // test's time. Here: the longest lines and boards of odd sizes.
    let shapes: [(u16, u16, usize); 4] = [(64, 1, 2), (1, 64, 3), (40, 17, 2), (33, 64, 1)];
    let mut made = 0;
    let mut finished = 0;
    for (i, &(w, h, robots)) in shapes.iter().enumerate() {
        for seed in 0..6u64 {
            // The seeds these shapes had beside the 64x64 one.
            let seed = seed + 100 * (i + 1) as u64;
            let Ok(puzzle) = random_puzzle(w, h, robots, 3, seed) else {
                continue;
            };
            made += 1;
            finished += usize::from(agrees_with(
                "bfs",
                &puzzle,
                &format!("{w}x{h}, {robots} robots, seed {seed}"),
            ));
        }
    }
    assert!(made >= 18, "only {made} puzzles could be made");
    assert_eq!(finished, made, "bfs finished only {finished} of {made}");
}

#[test]
fn five_robots_on_the_largest_board_fit_the_table() {
    // Five 12-bit cells make 60-bit keys: the widest the table takes.
    for seed in 0..3u64 {
        let puzzle = random_puzzle(64, 64, 5, 3, seed).unwrap();
        let report = solver::run(
            "fast",
            &puzzle,
            &SolverOptions::default(),
            &Limits {
                time: Some(Duration::from_secs(2)),
                ..Limits::default()
            },
            &mut NoProbe,
        )
        .unwrap();
        assert!(
            matches!(
                report.outcome,
                Outcome::Solved { .. } | Outcome::Unsolvable { .. } | Outcome::TimeLimit
            ),
            "seed {seed}: {:?}",
            report.outcome
        );
    }
}

#[test]
fn fast_agrees_with_bfs_on_the_vortex_with_any_robot() {
    let mut seen = 0;
    for seed in 0..3000u64 {
        let Ok(puzzle) = random_puzzle(7, 7, 3, 4, seed) else {
            continue;
        };
        if puzzle.goal().color != TargetColor::Any {
            continue;
        }
        seen += 1;
        agrees_with("bfs", &puzzle, &format!("vortex seed {seed}"));
    }
    assert!(seen >= 100, "only {seen} vortex puzzles");
}

#[test]
fn fast_solves_the_shipped_boards_as_the_reference_solvers_do() {
    for name in ["small-6x6.ron", "standard-random.ron", "five-robots.ron"] {
        let puzzle = board(name);
        agrees_with("iddfs", &puzzle, name);
    }
}

fn single_robot(width: u16, height: u16, robot: Pos, goal: Pos, rules: Rules) -> Puzzle {
    let board = Board::new(width, height).unwrap();
    let robots = vec![Robot {
        color: RobotColor::Blue,
        pos: robot,
    }];
    let goal = Goal {
        pos: goal,
        color: TargetColor::Blue,
    };
    Puzzle::new(board, robots, goal, rules).unwrap()
}

#[test]
fn the_smallest_boards_and_the_ricochet_rule_are_handled() {
    // On a 1x1 board the robot already stands on the target and can never move.
    let at_goal = single_robot(1, 1, Pos::new(0, 0), Pos::new(0, 0), Rules::default());
    assert_eq!(solve("fast", &at_goal), Outcome::Solved { moves: vec![] });
    let ricochet = at_goal.with_rules(Rules {
        ricochet: true,
        no_rebound: false,
    });
    assert!(matches!(
        solve("fast", &ricochet),
        Outcome::Unsolvable { within: None }
    ));
    // A target in the middle of an empty row: a lone robot stops only at the ends.
    let middle = single_robot(5, 1, Pos::new(0, 0), Pos::new(2, 0), Rules::default());
    assert!(matches!(
        solve("fast", &middle),
        Outcome::Unsolvable { within: None }
    ));
    assert_eq!(solve("bfs", &middle), solve("fast", &middle));
}

#[test]
fn a_depth_limit_bounds_the_search() {
    let puzzle = board("fogleman-22.ron");
    let report = solver::run(
        "fast",
        &puzzle,
        &SolverOptions {
            depth_limit: Some(8),
            ..SolverOptions::default()
        },
        &Limits::default(),
        &mut NoProbe,
    )
    .unwrap();
    assert_eq!(report.outcome, Outcome::Unsolvable { within: Some(8) });
}

#[test]
fn fast_honours_the_no_rebound_rule_as_bfs_does() {
    let mut compared = 0;
    for name in ["small-6x6.ron", "standard-random.ron", "five-robots.ron"] {
        let puzzle = board(name).with_rules(Rules {
            ricochet: false,
            no_rebound: true,
        });
        compared += usize::from(agrees_with("bfs", &puzzle, name));
    }
    for seed in 1..=40 {
        let (puzzle, _) = random_game(seed, 4).unwrap();
        let puzzle = puzzle.with_rules(Rules {
            ricochet: seed % 2 == 0,
            no_rebound: true,
        });
        compared += usize::from(agrees_with("bfs", &puzzle, &format!("seed {seed}")));
    }
    assert!(compared >= 40, "only {compared} compared");
}

#[test]
fn any_thread_count_gives_the_same_move_counts() {
    for seed in 1..=30 {
        let (puzzle, _) = random_game(500 + seed, 4).unwrap();
        let counts: Vec<Option<usize>> = [1, 2, 5]
            .iter()
            .map(|&threads| {
                let report = solver::run(
                    "fast",
                    &puzzle,
                    &SolverOptions {
                        threads: Some(threads),
                        ..SolverOptions::default()
                    },
                    &Limits::default(),
                    &mut NoProbe,
                )
                .unwrap();
                assert!(report.threads <= threads, "seed {seed}: {}", report.threads);
                report.outcome.move_count()
            })
            .collect();
        assert!(
            counts.iter().all(|c| *c == counts[0]),
            "seed {seed}: {counts:?}"
        );
    }
}

#[test]
fn time_limit_cancel_and_memory_limit_stop_a_long_search() {
    let puzzle = board("hardest-25.ron");
    let run = |limits: &Limits| {
        solver::run(
            "fast",
            &puzzle,
            &SolverOptions::default(),
            limits,
            &mut NoProbe,
        )
        .unwrap()
    };
    let report = run(&Limits {
        time: Some(Duration::from_millis(30)),
        ..Limits::default()
    });
    assert_eq!(report.outcome, Outcome::TimeLimit);
    assert!(
        report.elapsed < Duration::from_secs(5),
        "{:?}",
        report.elapsed
    );

    let report = report_cancelled_after("fast", &puzzle, Duration::from_millis(60));
    assert_eq!(report.outcome, Outcome::Cancelled);
    assert!(
        report.elapsed < Duration::from_secs(5),
        "{:?}",
        report.elapsed
    );

    let report = run(&Limits {
        memory_bytes: Some(4 << 20),
        ..Limits::default()
    });
    assert_eq!(report.outcome, Outcome::MemoryLimit);
    // The table is not grown past the limit, so the peak is what was held: a table grown at
    // least once (it starts at 16 KiB and grows at least fourfold).
    assert!(report.peak_memory <= 4 << 20, "{}", report.peak_memory);
    assert!(report.peak_memory >= 64 << 10, "{}", report.peak_memory);
}

#[test]
fn every_thread_stops_at_the_limits() {
    let puzzle = board("hardest-25.ron");
    for threads in [2, 8] {
        let report = solver::run(
            "fast",
            &puzzle,
            &SolverOptions {
                threads: Some(threads),
                ..SolverOptions::default()
            },
            &Limits {
                time: Some(Duration::from_millis(400)),
                ..Limits::default()
            },
            &mut NoProbe,
        )
        .unwrap();
        assert_eq!(report.outcome, Outcome::TimeLimit);
        assert_eq!(report.threads, threads);
        // Generous: the machine may be busy, and only a thread that ran on would take seconds.
        assert!(
            report.elapsed < Duration::from_secs(3),
            "{:?}",
            report.elapsed
        );
    }
}

#[test]
fn every_node_is_reported_to_a_listening_probe() {
    let (report, probe) = recorded("fast", &board("standard-random.ron"), None);
    assert_eq!(
        probe.count(|e| matches!(e, Event::Node { .. })),
        report.nodes
    );
    assert_eq!(probe.depths, report.depths);
    assert!(matches!(probe.events.last(), Some(Event::Solution { .. })));
    let started = probe
        .events
        .iter()
        .filter(|e| matches!(e, Event::IterationStarted { .. }))
        .count();
    assert_eq!(started, report.depths.len());
}

mod property {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        /// `fast` finds answers exactly as short as breadth-first search's, on any small board
        /// with one to five robots, under every combination of the two rule options.
        #[test]
        fn fast_matches_bfs_on_random_small_boards(
            width in 1u16..=8,
            height in 1u16..=8,
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
            // Most cases take a millisecond; a rare one with five robots and no solution has
            // breadth-first search walk millions of states, and is left out after 2 s rather
            // than costing the suite up to 20 s.
            let expected = solve_within("bfs", &puzzle, 2);
            if matches!(expected, Outcome::TimeLimit | Outcome::MemoryLimit) {
                return Ok(());
            }
            let fast = solver::run(
                "fast",
                &puzzle,
                &SolverOptions { threads: Some(threads), ..SolverOptions::default() },
                &Limits { time: Some(Duration::from_secs(20)), ..Limits::default() },
                &mut NoProbe,
            )
            .unwrap()
            .outcome;
            match (&expected, &fast) {
                (Outcome::Solved { moves: a }, Outcome::Solved { moves: b }) => {
                    prop_assert_eq!(a.len(), b.len(), "bfs {:?} but fast {:?}", a, b);
                }
                (Outcome::Unsolvable { .. }, Outcome::Unsolvable { .. }) => {}
                _ => prop_assert!(false, "bfs {:?} but fast {:?}", expected, fast),
            }
        }
    }
}

#[test]
fn fast_reports_the_memory_its_tables_held() {
    let puzzle = board("five-robots.ron");
    let run = |memory: Option<usize>| {
        solver::run(
            "fast",
            &puzzle,
            &SolverOptions {
                threads: Some(1),
                ..SolverOptions::default()
            },
            &Limits {
                memory_bytes: memory,
                ..Limits::default()
            },
            &mut NoProbe,
        )
        .unwrap()
    };
    let free = run(None);
    assert!(matches!(free.outcome, Outcome::Solved { .. }));
    // Exactly the reported peak is enough for the same run, and one byte less is not.
    let same = run(Some(free.peak_memory));
    assert_eq!(same.outcome, free.outcome);
    assert_eq!(same.peak_memory, free.peak_memory);
    let less = run(Some(free.peak_memory - 1));
    assert_eq!(less.outcome, Outcome::MemoryLimit);
    assert!(less.peak_memory < free.peak_memory);
    // Stopped between two table sizes, the run reports what it held, not the next size.
    let limit = free.peak_memory * 2 / 3;
    let stopped = run(Some(limit));
    assert_eq!(stopped.outcome, Outcome::MemoryLimit);
    assert!(stopped.peak_memory <= limit, "{}", stopped.peak_memory);
}
