//! BFS and Fogleman's IDDFS agree on the optimal move count for hundreds of random seeded
//! puzzles of several sizes and robot counts, with and without the rule options.

use ricochet_lab::testing::solve;

use ricochet_lab::model::random::random_puzzle;
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::model::{Puzzle, Rules};
use ricochet_lab::solver::Outcome;

/// Compares the two solvers; returns whether both finished.
fn agree(puzzle: &Puzzle, what: &str) -> bool {
    let bfs = solve("bfs", puzzle);
    let iddfs = solve("iddfs", puzzle);
    match (&bfs, &iddfs) {
        (Outcome::Solved { moves: a }, Outcome::Solved { moves: b }) => {
            assert_eq!(a.len(), b.len(), "{what}: bfs {a:?} iddfs {b:?}");
            true
        }
        (Outcome::Unsolvable { .. }, Outcome::Unsolvable { .. }) => true,
        (Outcome::Solved { .. }, Outcome::Unsolvable { .. })
        | (Outcome::Unsolvable { .. }, Outcome::Solved { .. }) => {
            panic!("{what}: bfs {bfs:?} but iddfs {iddfs:?}")
        }
        (Outcome::Invalid { .. }, _) | (_, Outcome::Invalid { .. }) => {
            panic!("{what}: bfs {bfs:?} iddfs {iddfs:?}")
        }
        _ => false,
    }
}

#[test]
fn bfs_and_iddfs_agree_on_random_standard_games() {
    let mut finished = 0;
    for seed in 0..150 {
        let (puzzle, _) = random_game(seed, 4).unwrap();
        finished += usize::from(agree(&puzzle, &format!("standard seed {seed}")));
    }
    assert!(finished >= 140, "only {finished} of 150 finished");
}

#[test]
fn bfs_and_iddfs_agree_on_random_small_boards() {
    let shapes: [(u16, u16, usize); 8] = [
        (6, 6, 3),
        (6, 6, 1),
        (8, 8, 4),
        (5, 7, 5),
        (1, 9, 2),
        (10, 3, 3),
        (7, 7, 2),
        (4, 4, 5),
    ];
    let mut finished = 0;
    let mut total = 0;
    for (i, &(w, h, robots)) in shapes.iter().enumerate() {
        for seed in 0..40 {
            let seed = seed + 1000 * i as u64;
            let Ok(puzzle) = random_puzzle(w, h, robots, 4, seed) else {
                continue;
            };
            total += 1;
            finished += usize::from(agree(
                &puzzle,
                &format!("{w}x{h} {robots} robots seed {seed}"),
            ));
        }
    }
    assert!(total >= 300);
    assert_eq!(finished, total);
}

#[test]
fn rule_options_are_honoured_by_both_solvers() {
    let mut checked = 0;
    for seed in 0..120u64 {
        let Ok(puzzle) = random_puzzle(6, 6, 3, 3, seed) else {
            continue;
        };
        let rules = Rules {
            ricochet: seed % 2 == 0,
            no_rebound: seed % 3 != 0,
        };
        let puzzle = puzzle.with_rules(rules);
        if agree(&puzzle, &format!("6x6 seed {seed} {rules:?}")) {
            checked += 1;
        }
        if let Outcome::Solved { moves } = solve("bfs", &puzzle)
            && rules.ricochet
        {
            assert!(moves.len() >= 2);
        }
    }
    assert!(checked >= 100);
}

#[test]
fn ricochet_rule_keeps_early_states_apart_from_later_ones() {
    // The goal robot passes its own start position: a state first seen after fewer than two
    // moves must be searched again when reached later, or the solution is lost.
    let puzzle = random_puzzle(2, 2, 2, 3, 2124).unwrap().with_rules(Rules {
        ricochet: true,
        no_rebound: false,
    });
    for name in ["bfs", "iddfs", "fast", "astar", "idastar"] {
        match solve(name, &puzzle) {
            Outcome::Solved { moves } => assert_eq!(moves.len(), 3, "{name}: {moves:?}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn ricochet_rule_finds_a_solution_that_goes_out_back_and_out_again() {
    // On a 3x1 board the red robot reaches its target in one move, too few under the ricochet
    // rule; every shortest solution is out, back and out again, so the third move is the
    // straight reversal of the second, which the opposite-move rule must not cut.
    use ricochet_lab::model::{Board, Goal, Pos, Robot, RobotColor, TargetColor};
    let robots = vec![Robot {
        color: RobotColor::Red,
        pos: Pos::new(0, 0),
    }];
    let goal = Goal {
        pos: Pos::new(2, 0),
        color: TargetColor::Red,
    };
    let rules = Rules {
        ricochet: true,
        no_rebound: false,
    };
    let puzzle = Puzzle::new(Board::new(3, 1).unwrap(), robots, goal, rules).unwrap();
    for name in ["bfs", "iddfs", "fast", "astar", "idastar"] {
        match solve(name, &puzzle) {
            Outcome::Solved { moves } => assert_eq!(
                ricochet_lab::model::format_moves(&moves),
                "RE, RW, RE",
                "{name}"
            ),
            other => panic!("{name}: {other:?}"),
        }
    }
}
