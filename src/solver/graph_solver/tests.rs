use super::*;
use crate::model::random::random_puzzle;
use crate::model::{Board, Goal, Pos, Robot, Rules, TargetColor, format_moves};
use crate::solver::{Limits, Outcome, RecordingProbe, SolverOptions, run};
use crate::testing;

fn solve_with(name: &str, puzzle: &Puzzle) -> Outcome {
    testing::run(name, puzzle, None).outcome
}

/// A 5x3 board: red at (0,0) must stop on (2,0), which takes green moving north to (3,0)
/// first.
fn blocker_puzzle(goal_color: TargetColor) -> Puzzle {
    let board = Board::new(5, 3).unwrap();
    let robots = vec![
        Robot {
            color: RobotColor::Red,
            pos: Pos::new(0, 0),
        },
        Robot {
            color: RobotColor::Green,
            pos: Pos::new(3, 2),
        },
    ];
    let goal = Goal {
        pos: Pos::new(2, 0),
        color: goal_color,
    };
    Puzzle::new(board, robots, goal, Rules::default()).unwrap()
}

#[test]
fn obstacle_moves_come_before_the_goal_robots_moves() {
    let puzzle = blocker_puzzle(TargetColor::Red);
    for name in [V1_NAME, V2_NAME] {
        match solve_with(name, &puzzle) {
            Outcome::Solved { moves } => assert_eq!(format_moves(&moves), "GN, RE"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn vortex_tries_every_robot_as_the_goal_robot() {
    // Any robot counts; on this small board the shortest answer under the assumption is
    // the optimum.
    let puzzle = blocker_puzzle(TargetColor::Any);
    let optimum = match solve_with("bfs", &puzzle) {
        Outcome::Solved { moves } => moves.len(),
        other => panic!("bfs: {other:?}"),
    };
    for name in [V1_NAME, V2_NAME] {
        match solve_with(name, &puzzle) {
            Outcome::Solved { moves } => assert_eq!(moves.len(), optimum, "{name}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn the_assumption_misses_solutions_where_the_goal_robot_must_move_first() {
    // bfs: GE, RS, GN, GW, RN. Green needs red out of its start before it can block red,
    // which the assumption rules out: no answer, though one exists.
    let puzzle = random_puzzle(4, 4, 2, 4, 40).unwrap();
    assert!(matches!(solve_with("bfs", &puzzle), Outcome::Solved { moves } if moves.len() == 5));
    for name in [V1_NAME, V2_NAME] {
        assert_eq!(solve_with(name, &puzzle), Outcome::NotFound, "{name}");
    }
}

#[test]
fn edge_events_keep_the_built_graph_equal_to_a_fresh_build_at_every_state() {
    let puzzle = random_puzzle(6, 6, 3, 4, 7).unwrap();
    let active = puzzle
        .active_robot()
        .expect("this puzzle's target is for one robot");
    let mut probe = RecordingProbe::default();
    let report = run(
        V1_NAME,
        &puzzle,
        &SolverOptions::default(),
        &Limits::default(),
        &mut probe,
    )
    .unwrap();
    assert!(matches!(report.outcome, Outcome::Solved { .. }));
    assert!(!probe.depths.is_empty());
    let graph_event = |event: &Event| match event {
        Event::Solver(payload) => payload.downcast_ref::<GraphEvent>().cloned(),
        _ => None,
    };
    let Some(GraphEvent::Built(built)) = probe.events.first().and_then(graph_event) else {
        panic!("the first event is the built graph");
    };
    let cells = built.cell_count() as Cell;
    let mut edges: Vec<[Option<Cell>; 4]> = (0..cells).map(|c| built.edges(c)).collect();
    let mut obstacles = Vec::new();
    let (mut changes, mut searches) = (0, 0);
    for event in &probe.events {
        match event {
            Event::Solver(_) if let Some(GraphEvent::EdgeChanged(change)) = graph_event(event) => {
                changes += 1;
                let slot = &mut edges[usize::from(change.vertex)][change.dir.index()];
                assert_eq!(*slot, change.old);
                *slot = change.new;
            }
            Event::Node { cells, .. } => {
                obstacles = cells.as_slice().to_vec();
                obstacles.remove(active);
            }
            Event::Solver(_)
                if matches!(
                    graph_event(event),
                    Some(GraphEvent::GoalRobotSearched { .. })
                ) =>
            {
                // The goal robot searched the graph with exactly the obstacles placed.
                searches += 1;
                let fresh = SlideGraph::with_robots(puzzle.board(), &obstacles).unwrap();
                let expected: Vec<_> = (0..cells).map(|c| fresh.edges(c)).collect();
                assert_eq!(edges, expected);
            }
            _ => {}
        }
    }
    assert!(changes > 0 && searches > 0);
    // Every robot is removed after each state: the graph ends as built.
    let empty: Vec<_> = (0..cells).map(|c| built.edges(c)).collect();
    assert_eq!(edges, empty);
}

#[test]
fn a_run_of_edge_changes_in_consecutive_events_is_one_update_of_the_picture() {
    let puzzle = random_puzzle(6, 6, 3, 4, 7).unwrap();
    let mut probe = RecordingProbe::default();
    let options = (SolverOptions::default(), Limits::default());
    run(V2_NAME, &puzzle, &options.0, &options.1, &mut probe).unwrap();
    let mut picture = SearchPicture::new(puzzle.board().cell_count(), puzzle.active_robot());
    // The changes of the latest update as the events say, and whether the event before
    // changed an edge.
    let (mut latest, mut in_update) = (Vec::new(), false);
    let (mut updates, mut longest) = (0, 0);
    for event in &probe.events {
        let graph_event = match event {
            Event::Solver(payload) => payload.downcast_ref::<GraphEvent>(),
            _ => None,
        };
        match graph_event {
            Some(GraphEvent::EdgeChanged(change)) => {
                if !in_update {
                    latest.clear();
                    updates += 1;
                }
                latest.push(*change);
                longest = longest.max(latest.len());
                in_update = true;
            }
            Some(GraphEvent::Built(_)) => {
                latest.clear();
                in_update = false;
            }
            _ => in_update = false,
        }
        event.draw(&mut picture);
        let graph = picture
            .part::<GraphPicture>()
            .expect("the graph is built first");
        let kept = latest.len().min(MAX_RECENT_CHANGES);
        assert_eq!(graph.recent_changes, latest[..kept]);
    }
    assert!(
        updates > 1 && longest > 1,
        "{updates} updates, {longest} at most"
    );
}
