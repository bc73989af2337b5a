use super::*;
use crate::model::random::random_puzzle;
use crate::model::{Board, Goal, Pos, Robot, Rules, TargetColor, format_moves, samples, tiles};
use crate::solver::{Limits, Outcome, RecordingProbe, SolverOptions, run};

fn puzzle(width: u16, height: u16, robots: &[(RobotColor, u16, u16)], goal: (u16, u16)) -> Puzzle {
    let board = Board::new(width, height).unwrap();
    let robots = robots
        .iter()
        .map(|&(color, x, y)| Robot {
            color,
            pos: Pos::new(x, y),
        })
        .collect();
    let goal = Goal {
        pos: Pos::new(goal.0, goal.1),
        color: TargetColor::Red,
    };
    Puzzle::new(board, robots, goal, Rules::default()).unwrap()
}

fn outcome(puzzle: &Puzzle) -> Outcome {
    crate::testing::run(NAME, puzzle, None).outcome
}

#[test]
fn a_wall_stop_on_the_target_is_case_one() {
    let puzzle = puzzle(4, 1, &[(RobotColor::Red, 0, 0)], (3, 0));
    assert_eq!(
        outcome(&puzzle),
        Outcome::Solved {
            moves: vec![Move::new(RobotColor::Red, Direction::East)]
        }
    );
    let stores =
        compute_stores(&puzzle, &crate::solver::Limits::default()).expect("an unlimited run ends");
    let best = stores.final_state(stores.best().unwrap()).unwrap();
    assert_eq!((best.kind, best.moves), (FinalKind::Wall, 1));
    // Red passed (1,0) going east, then again going west from the target.
    let passed = stores.field(1).unwrap();
    let dirs: Vec<_> = passed
        .intermediates
        .iter()
        .map(|i| (i.dir, i.moves))
        .collect();
    assert_eq!(dirs, vec![(Direction::East, 1), (Direction::West, 2)]);
}

#[test]
fn another_robots_final_state_stops_the_robot_case_2b() {
    // Red at (0,0) stops on (2,0) when green, moving north from (3,2), stands on (3,0).
    let puzzle = puzzle(
        5,
        3,
        &[(RobotColor::Red, 0, 0), (RobotColor::Green, 3, 2)],
        (2, 0),
    );
    match outcome(&puzzle) {
        Outcome::Solved { moves } => assert_eq!(format_moves(&moves), "GN, RE"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_starting_robot_in_the_way_costs_one_move_case_2c() {
    // Green starts on (2,1) in red's way to the wall at (4,1): it makes way south.
    let puzzle = puzzle(
        5,
        3,
        &[(RobotColor::Red, 0, 1), (RobotColor::Green, 2, 1)],
        (4, 1),
    );
    match outcome(&puzzle) {
        Outcome::Solved { moves } => assert_eq!(format_moves(&moves), "GS, RE"),
        other => panic!("{other:?}"),
    }
    let stores =
        compute_stores(&puzzle, &crate::solver::Limits::default()).expect("an unlimited run ends");
    let best = stores.final_state(stores.best().unwrap()).unwrap();
    assert_eq!(best.moves, 2);
    assert_eq!(
        best.clears,
        vec![ClearMove {
            color: RobotColor::Green,
            cell: 7,
            dir: Direction::South
        }]
    );
    // The final state beside green's start depends on green's start state.
    let beside = stores.field(6).unwrap();
    let blocked = stores.final_state(beside.finals[0]).unwrap();
    assert_eq!(blocked.kind, FinalKind::BlockedByStart);
    assert_eq!(
        stores.final_state(blocked.blocker.unwrap()).unwrap().kind,
        FinalKind::Start
    );
}

#[test]
fn every_final_states_moves_are_as_many_as_its_count() {
    for seed in 0..40 {
        let puzzle = if seed % 2 == 0 {
            tiles::random_game(seed, 4).unwrap().0
        } else {
            random_puzzle(7, 5, 3, 3, seed).unwrap()
        };
        let stores = compute_stores(&puzzle, &crate::solver::Limits::default())
            .expect("an unlimited run ends");
        for state in stores.finals() {
            assert_eq!(stores.moves_of(state.id).len() as u32, state.moves);
        }
        // Fields are listed in cell order and each holds at most one final per colour.
        for pair in stores.fields().windows(2) {
            assert!(pair[0].cell < pair[1].cell);
        }
        for field in stores.fields() {
            let mut colors: Vec<_> = field
                .finals
                .iter()
                .map(|&id| stores.final_state(id).unwrap().color)
                .collect();
            colors.dedup();
            assert_eq!(colors.len(), field.finals.len());
        }
    }
}

#[test]
fn a_failed_replay_is_reported_with_the_claimed_moves() {
    // On the deck's puzzle the stores claim 23 moves whose dependencies clash.
    let puzzle = samples::fogleman_22();
    let mut probe = RecordingProbe::default();
    let report = run(
        NAME,
        &puzzle,
        &SolverOptions::default(),
        &Limits::default(),
        &mut probe,
    )
    .unwrap();
    let stateless_events: Vec<StatelessEvent> = probe
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Solver(payload) => payload.downcast_ref::<StatelessEvent>().cloned(),
            _ => None,
        })
        .collect();
    let Some(StatelessEvent::Stores(stores)) = stateless_events
        .iter()
        .rev()
        .find(|e| matches!(e, StatelessEvent::Stores(_)))
    else {
        panic!("the stores are sent at the end");
    };
    let best = stores.best().unwrap();
    let claimed = stores.moves_of(best);
    match report.outcome {
        Outcome::Invalid {
            claimed: reported,
            error,
        } => {
            assert_eq!(reported, claimed);
            assert_eq!(reported.len(), 23);
            assert!(error.step < reported.len());
        }
        other => panic!("{other:?}"),
    }
    assert!(
        stateless_events
            .iter()
            .any(|e| matches!(e, StatelessEvent::Final(_)))
    );
    assert!(
        stateless_events
            .iter()
            .any(|e| matches!(e, StatelessEvent::Intermediate(_)))
    );
    assert!(
        stateless_events
            .iter()
            .any(|e| matches!(e, StatelessEvent::Converted { .. }))
    );
}
