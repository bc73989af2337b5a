use super::*;
use crate::model::{Board, Goal, Robot, Rules, Shape, Target, TargetColor, samples};
use proptest::prelude::*;

/// The page's example puzzle, as its line reads.
const PAGE_PUZZLE: &str = "puzzle id=p1 size=4x3 walls=d1139002c446 closed=- robots=R@0,0;B@3,2 goal=R@3,0 targets=R:circle@3,0 rules=-";

#[test]
fn the_pages_example_puzzle_reads_and_is_solved_by_one_move_east() {
    let Some(Request::Puzzle(request)) = parse_request(PAGE_PUZZLE).unwrap() else {
        panic!("not a puzzle");
    };
    assert_eq!(request.id, "p1");
    let puzzle = &request.puzzle;
    assert_eq!((puzzle.board().width(), puzzle.board().height()), (4, 3));
    assert_eq!(puzzle.robots().len(), 2);
    let east = Move::new(RobotColor::Red, Direction::East);
    assert!(puzzle.replay(&[east]).is_ok());
    // The wall under the red robot: south of 0,0.
    assert!(puzzle.board().has_wall(0, Direction::South));
    assert_eq!(format_puzzle("p1", puzzle), PAGE_PUZZLE);
}

#[test]
fn the_pages_answers_read_as_the_page_says() {
    let lines = [
        "id name=bfs-python",
        "repok 1",
        "readyok",
        "node path=- robots=R@0,0;B@3,2",
        "row depth=1 nodes=4 time=0",
        "info string found at depth 1",
        "result id=p1 solved RE",
    ];
    for line in lines {
        let answer = parse_answer(line).unwrap().unwrap();
        assert_eq!(answer.to_string(), line);
    }
    let row = parse_answer("row bound=7 nodes=10 pruned=120 table=5512 note=x\r\n")
        .unwrap()
        .unwrap();
    assert_eq!(
        row,
        Answer::Row(Row {
            depth: 7,
            nodes: 10,
            time_millis: None,
            counters: vec![("pruned".into(), 120), ("table".into(), 5512)],
        })
    );
    assert_eq!(
        parse_answer("result id=x none 12").unwrap(),
        Some(Answer::Result(ResultLine {
            id: "x".into(),
            verdict: Verdict::NoneWithin(12)
        }))
    );
    assert_eq!(
        parse_answer("result   id=x\tgaveup out of  time").unwrap(),
        Some(Answer::Result(ResultLine {
            id: "x".into(),
            verdict: Verdict::GaveUp("out of time".into())
        }))
    );
    assert_eq!(
        parse_answer("info   string  two  spaces").unwrap(),
        Some(Answer::Info("two  spaces".into()))
    );
}

#[test]
fn unknown_words_and_empty_lines_are_skipped_and_bad_lines_name_the_problem() {
    assert_eq!(parse_answer("").unwrap(), None);
    assert_eq!(parse_answer("  \r\n").unwrap(), None);
    assert_eq!(parse_answer("bestmove e2e4").unwrap(), None);
    assert_eq!(parse_request("ucinewgame").unwrap(), None);
    let error = parse_answer("result id=p1 solved RE XQ").unwrap_err();
    assert!(error.to_string().contains("'XQ' is not a move"), "{error}");
    let error = parse_answer("row depth=x nodes=1").unwrap_err();
    assert!(error.to_string().contains("depth=x"), "{error}");
    let error = parse_request(&PAGE_PUZZLE.replace("R@0,0", "R@9,0")).unwrap_err();
    assert!(error.to_string().contains("off the 4x3 board"), "{error}");
    let error = parse_request(&PAGE_PUZZLE.replace("rules=-", "rules=diagonal")).unwrap_err();
    assert!(error.to_string().contains("diagonal"), "{error}");
}

#[test]
fn go_and_requests_round_trip() {
    for line in [
        "rep 1",
        "isready",
        "go",
        "go depth=3 time=10 events=1",
        "stop",
        "quit",
    ] {
        assert_eq!(parse_request(line).unwrap().unwrap().to_string(), line);
    }
}

#[test]
fn the_reference_puzzles_round_trip_with_their_targets_and_closed_cells() {
    for puzzle in [
        samples::fogleman_22(),
        crate::testing::board("hardest-25.ron"),
    ] {
        let line = format_puzzle("x", &puzzle);
        let Some(Request::Puzzle(back)) = parse_request(&line).unwrap() else {
            panic!("not a puzzle");
        };
        assert_eq!(back.puzzle, puzzle);
    }
}

#[test]
fn an_identity_reads_back_from_its_lines() {
    let identity = Identity {
        name: Some("my engine".into()),
        author: Some("Jane Doe".into()),
        version: Some("0.3".into()),
        rows: RowKind::Bound,
        optimal: true,
        events: true,
        ricochet: true,
        no_rebound: true,
    };
    let mut back = Identity::default();
    for line in identity.lines() {
        let Some(Answer::Id(pairs)) = parse_answer(&line).unwrap() else {
            panic!("not an id line");
        };
        back.add(&pairs);
    }
    assert_eq!(back, identity);
}

/// Any puzzle the model allows: sizes 1 to 64, walls, closed cells, targets, 1 to 5
/// robots, a robot's goal or the vortex, and either rule.
fn any_puzzle() -> impl Strategy<Value = Puzzle> {
    (
        1u16..=64,
        1u16..=64,
        any::<u64>(),
        1usize..=5,
        any::<(bool, bool, bool)>(),
    )
        .prop_map(
            |(width, height, seed, robot_count, (vortex, ricochet, no_rebound))| {
                use rand::{Rng, SeedableRng};
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                let mut board = Board::new(width, height).unwrap();
                let cells = usize::from(width) * usize::from(height);
                for _ in 0..cells / 3 {
                    let pos = Pos::new(rng.random_range(0..width), rng.random_range(0..height));
                    let dir = Direction::ALL[rng.random_range(0..4)];
                    board.set_wall(pos, dir, true).unwrap();
                }
                let mut free: Vec<Pos> = (0..height)
                    .flat_map(|y| (0..width).map(move |x| Pos::new(x, y)))
                    .collect();
                // Shuffled by swaps from the seeded generator.
                for i in (1..free.len()).rev() {
                    free.swap(i, rng.random_range(0..=i));
                }
                let robot_count = robot_count.min(free.len());
                let robots: Vec<Robot> = RobotColor::ALL[..robot_count]
                    .iter()
                    .zip(free.drain(..robot_count))
                    .map(|(&color, pos)| Robot { color, pos })
                    .collect();
                let goal_pos = robots[0].pos;
                let goal = Goal {
                    pos: goal_pos,
                    color: if vortex {
                        TargetColor::Any
                    } else {
                        TargetColor::Red
                    },
                };
                for (i, pos) in free.iter().enumerate().take(cells / 5) {
                    if i % 2 == 0 {
                        board.set_closed(*pos, true).unwrap();
                    } else {
                        let color = TargetColor::ALL[i % 4];
                        let shape = Shape::ALL[i % 4];
                        board
                            .set_target(Target {
                                pos: *pos,
                                color,
                                shape,
                            })
                            .unwrap();
                    }
                }
                board
                    .set_target(Target {
                        pos: goal_pos,
                        color: goal.color,
                        shape: if vortex { Shape::Vortex } else { Shape::Circle },
                    })
                    .unwrap();
                Puzzle::new(
                    board,
                    robots,
                    goal,
                    Rules {
                        ricochet,
                        no_rebound,
                    },
                )
                .unwrap()
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_puzzle_the_model_allows_round_trips_through_its_line(puzzle in any_puzzle()) {
        let line = format_puzzle("t-1", &puzzle);
        prop_assert!(!line.contains('\n'));
        let Some(Request::Puzzle(back)) = parse_request(&line).unwrap() else {
            panic!("not a puzzle");
        };
        prop_assert_eq!(back.id, "t-1");
        prop_assert_eq!(back.puzzle, puzzle);
    }

    #[test]
    fn no_line_makes_the_parsers_panic(line in "\\PC{0,200}") {
        let _ = parse_answer(&line);
        let _ = parse_request(&line);
    }

    #[test]
    fn no_line_of_protocol_words_makes_the_parsers_panic(
        words in proptest::collection::vec(
            prop_oneof![
                Just("rep".to_string()), Just("puzzle".to_string()), Just("go".to_string()),
                Just("row".to_string()), Just("node".to_string()), Just("prune".to_string()),
                Just("result".to_string()), Just("solved".to_string()), Just("none".to_string()),
                Just("id=".to_string()), Just("info".to_string()), Just("string".to_string()),
                "[a-z]{1,6}=[-0-9a-zA-Z,;@:*x]{0,12}",
                "[RGBYKNESW*@,;:x0-9-]{0,8}",
            ],
            0..12,
        )
    ) {
        let line = words.join(" ");
        let _ = parse_answer(&line);
        let _ = parse_request(&line);
    }

    #[test]
    fn every_answer_reads_back_as_it_was_written(
        depth in any::<u32>(), nodes in any::<u64>(), time in proptest::option::of(any::<u64>()),
        counters in proptest::collection::vec(("[a-z][a-z0-9_]{0,8}", any::<u64>()), 0..4),
    ) {
        let mut counters: Vec<(String, u64)> = counters;
        counters.retain(|(name, _)| !["depth", "bound", "level", "nodes", "time"].contains(&name.as_str()));
        counters.sort();
        counters.dedup_by(|a, b| a.0 == b.0);
        let row = Answer::Row(Row { depth, nodes, time_millis: time, counters });
        prop_assert_eq!(parse_answer(&row.to_string()).unwrap(), Some(row));
    }
}
