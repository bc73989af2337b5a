use super::*;
use crate::model::random::random_puzzle;
use crate::model::{Puzzle, Rules};
use crate::solver::trace::{TraceReader, record};
use crate::solver::{Limits, NoProbe, SolverChoice, SolverId, SolverOptions};

/// Records `solver` on `puzzle` to a temporary trace and opens it.
fn traced(solver: &str, puzzle: &Puzzle) -> (tempfile::TempPath, TraceReader) {
    let path = tempfile::NamedTempFile::new().unwrap().into_temp_path();
    let choice = SolverChoice::BuiltIn(SolverId::from_name(solver).unwrap());
    record(
        &choice,
        puzzle,
        &SolverOptions::default(),
        &Limits::default(),
        &path,
        NoProbe,
    )
    .unwrap();
    let reader = TraceReader::open(&path).unwrap();
    (path, reader)
}

/// Checks at every node after the first that the frontier rebuilt from the events before it
/// names that node as the next, and that it holds as many entries as generated less taken.
fn every_node_is_the_frontiers_next(solver: &str, puzzle: &Puzzle) -> u64 {
    let (_path, reader) = traced(solver, puzzle);
    let shape = SolverId::from_name(solver).unwrap().kind().shape;
    let mut builder = FrontierBuilder::new(shape, puzzle).unwrap();
    let mut replay = reader.replay(0).unwrap();
    let (mut nodes, mut generated, mut checked) = (0u64, 0u64, 0u64);
    while let Some(event) = replay.next_event().unwrap() {
        match &event.event {
            // Each check reads an entry back from its block: a few hundred nodes suffice.
            Event::Node { .. } if checked >= 400 => break,
            Event::Node { cells, .. } if nodes > 0 => {
                let frontier = builder.build(&reader, event.index - 1, 3).unwrap();
                let next = &frontier.next[0];
                assert_eq!(
                    next.cells,
                    cells.as_slice(),
                    "{solver}: event {} is not the frontier's next: {:?}\n{}",
                    event.index,
                    frontier.next,
                    crate::model::formats::native::write(puzzle)
                );
                assert_eq!(frontier.closed, nodes, "{solver}");
                assert!(frontier.size <= generated, "{solver}");
                checked += 1;
                nodes += 1;
            }
            Event::Node { .. } => nodes += 1,
            Event::Generated { .. } => generated += 1,
            _ => {}
        }
    }
    checked
}

#[test]
fn the_rebuilt_frontier_names_every_node_the_search_examines_next() {
    let mut checked = 0;
    for seed in 0..8 {
        let puzzle = random_puzzle(7, 7, 3, 5, seed).unwrap();
        for solver in ["bfs", "astar", "astar-manhattan", "astar-rowcol"] {
            checked += every_node_is_the_frontiers_next(solver, &puzzle);
        }
    }
    assert!(checked > 1000, "{checked} nodes checked");
}

#[test]
fn the_frontier_follows_the_rules_that_make_states() {
    for rules in [
        Rules {
            ricochet: true,
            no_rebound: false,
        },
        Rules {
            ricochet: false,
            no_rebound: true,
        },
    ] {
        let puzzle = random_puzzle(6, 6, 2, 4, 3).unwrap().with_rules(rules);
        for solver in ["bfs", "astar"] {
            every_node_is_the_frontiers_next(solver, &puzzle);
        }
    }
}

#[test]
fn a_queue_shows_its_entries_in_order_with_their_numbers() {
    let puzzle = crate::testing::small();
    let (_path, reader) = traced("astar", &puzzle);
    let shape = SolverId::from_name("astar").unwrap().kind().shape;
    let mut builder = FrontierBuilder::new(shape, &puzzle).unwrap();
    // After the root's successors are generated, each has g 1 and an estimate, in f order.
    let first_node_after_root = (0..reader.events())
        .filter(|&i| matches!(reader.event(i).unwrap().event, Event::Node { .. }))
        .nth(1)
        .unwrap();
    let frontier = builder
        .build(&reader, first_node_after_root - 1, 100)
        .unwrap();
    assert!(frontier.size > 0);
    assert_eq!(frontier.closed, 1);
    assert!(frontier.next.iter().all(|e| e.g == 1 && e.h.is_some()));
    let fs: Vec<u32> = frontier.next.iter().map(FrontierEntry::f).collect();
    assert!(fs.windows(2).all(|w| w[0] <= w[1]), "{fs:?}");
    // Going back starts again and gives the same answer.
    let again = builder
        .build(&reader, first_node_after_root - 1, 100)
        .unwrap();
    assert_eq!(again, frontier);
}

#[test]
fn a_depth_first_stack_names_each_levels_move_and_the_moves_left() {
    let puzzle = crate::testing::small();
    let (_path, reader) = traced("iddfs", &puzzle);
    // The first node at depth 2 of the last iteration.
    let mut at = None;
    let mut replay = reader.replay(0).unwrap();
    while let Some(event) = replay.next_event().unwrap() {
        if let Event::Node { depth: 2, .. } = event.event {
            at = Some(event.index);
        }
        if let Event::IterationStarted { .. } = event.event {
            at = None;
        }
        if at.is_some() {
            break;
        }
    }
    let at = at.unwrap();
    let stack = stack_at(&reader, at, Some(Heuristic::MinMoves), 1_000_000).unwrap();
    assert_eq!(stack.levels.len(), 3);
    assert!(stack.levels[0].taken.is_some() && stack.levels[2].taken.is_none());
    for level in &stack.levels {
        assert!(level.h.is_some());
        assert!(level.left.iter().all(|mv| level.legal.contains(mv)));
        if let Some(taken) = level.taken {
            assert!(level.legal.contains(&taken));
            assert!(!level.left.contains(&taken), "a move is tried once");
        }
    }
    assert!(stack.levels[0].left_complete, "the trace runs to its end");
    assert!(!stack.levels[0].left.is_empty());
}
