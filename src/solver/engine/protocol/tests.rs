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

// A number past its field's range is said to be too large, not "not a whole number".
#[test]
fn a_go_whose_depth_is_past_its_range_is_too_large() {
    let error = parse_request("go depth=99999999999999999999").unwrap_err();
    assert!(
        error
            .to_string()
            .contains("depth=99999999999999999999 is too large"),
        "{error}"
    );
    let error = parse_request("go depth=3x").unwrap_err();
    assert!(
        error.to_string().contains("is not a whole number"),
        "{error}"
    );
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
        options: vec![
            OptionDecl {
                name: "depth-hint".into(),
                kind: OptionKind::Spin {
                    default: 3,
                    min: 0,
                    max: 9,
                },
            },
            OptionDecl {
                name: "order".into(),
                kind: OptionKind::Combo {
                    default: "nesw".into(),
                    choices: vec!["nesw".into(), "wsen".into()],
                },
            },
        ],
    };
    let mut back = Identity::default();
    for line in identity.lines() {
        match parse_answer(&line).unwrap() {
            Some(Answer::Id(pairs)) => back.add(&pairs),
            Some(Answer::Option(option)) => back.declare(option),
            other => panic!("not an id or option line: {other:?}"),
        }
    }
    assert_eq!(back, identity);
}

#[test]
fn version_2_lines_read_back_and_malformed_ones_are_ignored_not_fatal() {
    let good = [
        "option name=table type=check default=true",
        "option name=name type=string default=x",
        "info depth=7 nodes=1234 nps=50000 table=250 line=RE,BN",
        "draw clear",
        "draw cell=3,4 value=-2 color=ff8800",
        "draw arrow=0,0:3,0",
        "draw label=1,1 text=cut_here",
        "draw legend=h_values",
    ];
    for line in good {
        let answer = parse_answer(line).unwrap().unwrap();
        assert!(!matches!(answer, Answer::Ignored(_)), "{line}: {answer:?}");
        assert_eq!(answer.to_string(), line);
    }
    let bad = [
        (
            "option name=x type=spin default=12 min=0 max=9",
            "min <= default <= max",
        ),
        (
            "option name=x type=combo default=c choices=a,b",
            "not among its choices",
        ),
        ("option name=X type=check default=true", "an option's name"),
        ("option name=x type=colour default=red", "type=colour"),
        ("info depth=x nodes=5", "depth=x is not a whole number"),
        ("info table=1001", "table=1001 is above 1000"),
        ("info line=RX", "'RX' is not a move"),
        ("draw cell=9,99 value=1", "cell=9,99 is not a cell"),
        (
            "draw cell=1,1 color=zz",
            "color=zz is not six hexadecimal digits",
        ),
        ("draw cell=1,1", "value=, color= or both"),
        ("draw arrow=1,1", "is not x,y:x,y"),
        ("draw sparkle=1", "a draw line is clear"),
    ];
    for (line, reason) in bad {
        match parse_answer(line) {
            Ok(Some(Answer::Ignored(error))) => {
                assert!(error.to_string().contains(reason), "{line}: {error}")
            }
            other => panic!("{line}: {other:?}"),
        }
    }
    // `info string` keeps its free text; a bare `info` is empty text, as in version 1.
    assert_eq!(
        parse_answer("info string depth=x").unwrap(),
        Some(Answer::Info("depth=x".into()))
    );
    assert_eq!(
        parse_answer("info").unwrap(),
        Some(Answer::Info(String::new()))
    );
    let set = parse_request("setoption name=table value=false")
        .unwrap()
        .unwrap();
    assert_eq!(
        set,
        Request::SetOption {
            name: "table".into(),
            value: "false".into()
        }
    );
    assert_eq!(set.to_string(), "setoption name=table value=false");
    assert!(parse_request("setoption name=table").is_err());
}

#[test]
fn option_values_are_checked_against_their_declarations() {
    let spin = OptionDecl {
        name: "n".into(),
        kind: OptionKind::Spin {
            default: 1,
            min: 1,
            max: 8,
        },
    };
    assert_eq!(spin.check_value("8").unwrap(), "8");
    let refused = spin.check_value("9").unwrap_err();
    assert_eq!(
        refused.to_string(),
        "9 is no value of the option n (spin, 1 to 8)"
    );
    let check = OptionDecl {
        name: "t".into(),
        kind: OptionKind::Check { default: true },
    };
    assert_eq!(check.check_value("off").unwrap(), "false");
    assert!(check.check_value("maybe").is_err());
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
