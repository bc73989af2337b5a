//! The exact distance map agrees with breadth-first solves: for every robot that has a target
//! colour and every cell, `bfs` with that cell as the robot's target needs exactly the map's
//! number of moves (and finds no solution where the map has none).

use ricochet_lab::model::random::random_puzzle;
use ricochet_lab::model::{Goal, Puzzle, Rules, TargetColor};
use ricochet_lab::solver::analysis::distances::distance_map;
use ricochet_lab::solver::{self, Limits, NoProbe, Outcome, SolverOptions};

/// The fewest moves `bfs` needs to bring robot `robot` onto `cell`, or `None`.
fn bfs_moves(puzzle: &Puzzle, robot: usize, cell: u16) -> Option<u32> {
    let color = puzzle.robots()[robot].color;
    let goal = Goal {
        pos: puzzle.board().pos(cell),
        color: TargetColor::for_robot(color).expect("robots with a target colour"),
    };
    let target = Puzzle::new(
        puzzle.board().clone(),
        puzzle.robots().to_vec(),
        goal,
        puzzle.rules(),
    )
    .unwrap();
    let report = solver::run(
        "bfs",
        &target,
        &SolverOptions::default(),
        &Limits::default(),
        &mut NoProbe,
    )
    .unwrap();
    match report.outcome {
        Outcome::Solved { moves } => Some(moves.len() as u32),
        Outcome::Unsolvable { .. } => None,
        other => panic!("bfs ended with {other:?}"),
    }
}

fn check(puzzle: &Puzzle, max_depth: u32, what: &str) -> usize {
    let map = distance_map(puzzle, max_depth, &Limits::default(), &mut NoProbe);
    assert!(map.stopped.is_none());
    let board = puzzle.board();
    let mut differ = 0;
    for (robot, distances) in map.robots.iter().enumerate() {
        for cell in 0..board.cell_count() as u16 {
            if board.is_closed(cell) {
                assert_eq!(distances.exact[usize::from(cell)], None);
                continue;
            }
            let expected = bfs_moves(puzzle, robot, cell).filter(|&m| m <= max_depth);
            // Beyond the depth searched the map knows nothing, unless the search ran out of
            // states first.
            if expected.is_none() && !map.exhausted {
                assert_eq!(distances.exact[usize::from(cell)], None, "{what}");
                continue;
            }
            assert_eq!(
                distances.exact[usize::from(cell)],
                expected,
                "{what}: robot {robot}, cell {:?}",
                board.pos(cell)
            );
            let bound = distances.lower_bound[usize::from(cell)];
            if let (Some(exact), Some(bound)) = (expected, bound) {
                assert!(bound <= exact, "{what}: the rook bound overestimates");
                if exact > bound {
                    differ += 1;
                    assert!(distances.needs_helpers(cell, map.depth));
                }
            }
        }
    }
    differ
}

#[test]
fn distance_map_matches_bfs_with_every_cell_as_the_target() {
    let mut differ = 0;
    for seed in 0..16 {
        // Cells no robot can reach make bfs search every state, so boards stay small.
        let size = 4 + (seed % 3) as u16;
        let robots = 2 + (seed % 2) as usize;
        let Ok(puzzle) = random_puzzle(size, size, robots, 4, seed) else {
            continue;
        };
        differ += check(&puzzle, 30, &format!("seed {seed}"));
        let no_rebound = puzzle.with_rules(Rules {
            ricochet: false,
            no_rebound: true,
        });
        differ += check(&no_rebound, 30, &format!("seed {seed}, no rebound"));
    }
    // Some cells must need helpers, or the comparison with the bound tests nothing.
    assert!(
        differ > 20,
        "only {differ} cells differ from the rook bound"
    );
}

#[test]
fn a_shallow_map_is_exact_up_to_its_depth() {
    for seed in 0..6 {
        let puzzle = random_puzzle(7, 7, 3, 4, 100 + seed).unwrap();
        let map = distance_map(&puzzle, 2, &Limits::default(), &mut NoProbe);
        assert_eq!(map.depth, 2);
        assert_eq!(map.levels.len(), 2);
        check(&puzzle, 2, &format!("seed {seed}, depth 2"));
    }
}

#[test]
fn a_cancelled_map_keeps_no_unfinished_level() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let puzzle = random_puzzle(16, 16, 4, 6, 3).unwrap();
    let limits = Limits {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Limits::default()
    };
    let map = distance_map(&puzzle, 8, &limits, &mut NoProbe);
    assert_eq!(map.stopped, Some(solver::Stop::Cancelled));
    assert!(map.depth < 8);
}
