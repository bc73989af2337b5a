//! Boards that travel: every shipped board through DriftingDroids' dump and the board line,
//! the reasons a dump refuses what it cannot hold, and paste telling every format apart.

use proptest::prelude::*;
use ricochet_lab::model::board::{Board, RobotColor, Shape, Target, TargetColor};
use ricochet_lab::model::formats::{
    self, Format, FormatError, board_line, cox, dd_dump, game_id, native,
};
use ricochet_lab::model::geometry::Pos;
use ricochet_lab::model::puzzle::{Goal, Robot};
use ricochet_lab::model::random::random_puzzle;
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::model::{Puzzle, Rules};

fn shipped() -> Vec<(String, Puzzle)> {
    ricochet_lab::testing::shipped_board_paths()
        .iter()
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let puzzle = native::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
            (name, puzzle)
        })
        .collect()
}

#[test]
fn every_shipped_board_round_trips_through_a_dump_or_is_refused_with_a_reason() {
    let mut written = 0;
    for (name, puzzle) in shipped() {
        match dd_dump::write(&puzzle) {
            Ok(dump) => {
                let back = dd_dump::parse(&dump).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(back, puzzle, "{name}");
                written += 1;
            }
            Err(error) => {
                let message = error.to_string();
                assert!(
                    matches!(error, FormatError::Unrepresentable(_)),
                    "{name}: {message}"
                );
                assert!(message.starts_with("a DriftingDroids dump "), "{message}");
            }
        }
    }
    // The standard boards of real tiles and the small ones all fit a dump.
    assert!(written >= 6, "only {written} boards fit a dump");
}

#[test]
fn every_shipped_board_round_trips_on_one_line() {
    for (name, puzzle) in shipped() {
        let line = board_line::write(&puzzle).unwrap();
        assert!(!line.contains(char::is_whitespace), "{name}: {line}");
        assert_eq!(board_line::parse(&line).unwrap(), puzzle, "{name}");
        assert_eq!(formats::parse_any(&line).unwrap(), puzzle, "{name}");
    }
}

#[test]
fn what_a_dump_cannot_hold_is_refused_with_the_reason() {
    let standard = game_id::parse("7650+42+E2302B12+C9").unwrap();
    let ruled = standard.with_rules(Rules {
        ricochet: true,
        no_rebound: false,
    });
    let message = dd_dump::write(&ruled).unwrap_err().to_string();
    assert!(message.contains("the ricochet rule"), "{message}");
    // A 2x2 board is below DriftingDroids' smallest.
    let mut board = Board::new(2, 2).unwrap();
    let target = Target {
        pos: Pos::new(1, 1),
        color: TargetColor::Red,
        shape: Shape::Circle,
    };
    board.set_target(target).unwrap();
    let robots = vec![Robot {
        color: RobotColor::Red,
        pos: Pos::new(0, 0),
    }];
    let goal = Goal {
        pos: target.pos,
        color: TargetColor::Red,
    };
    let tiny = Puzzle::new(board, robots, goal, Rules::default()).unwrap();
    let message = dd_dump::write(&tiny).unwrap_err().to_string();
    assert!(message.contains("3x3 cells or more"), "{message}");
}

#[test]
fn paste_tells_every_format_apart() {
    let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
    let texts = [
        (Format::GameId, "  7650+42+E2302B12+C9\n".to_string()),
        (Format::DdDump, dd_dump::write(&puzzle).unwrap()),
        (Format::BoardLine, board_line::write(&puzzle).unwrap()),
        (Format::Native, native::write(&puzzle)),
        (Format::Cox, cox::write(&puzzle).unwrap()),
    ];
    for (format, text) in texts {
        assert_eq!(formats::sniff(&text), Some(format), "{text}");
        let back = formats::parse_any(&text).unwrap_or_else(|e| panic!("{format:?}: {e}"));
        // Cox's format keeps only the active target, so it is compared by what it keeps.
        assert_eq!(back.robots(), puzzle.robots(), "{format:?}");
        assert_eq!(back.goal(), puzzle.goal(), "{format:?}");
    }
    let message = formats::parse_any("hello, world").unwrap_err().to_string();
    assert!(message.contains("is no board"), "{message}");
    assert!(message.contains("DriftingDroids"), "{message}");
}

#[test]
fn a_dump_and_a_line_are_taken_wherever_a_game_id_is() {
    let puzzle = game_id::parse("0765+42+2E21BD0F+93").unwrap();
    let dump = dd_dump::write(&puzzle).unwrap();
    assert_eq!(formats::load(&dump).unwrap(), puzzle);
    let line = board_line::write(&puzzle).unwrap();
    assert_eq!(formats::load(&line).unwrap(), puzzle);
    // A .txt file holding a dump is read as one.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("from-a-mail.txt");
    std::fs::write(&path, format!("{dump}\n")).unwrap();
    assert_eq!(formats::load(path.to_str().unwrap()).unwrap(), puzzle);
    // A bad dump's error is short: the dump is not repeated whole.
    let broken = dump.replace('!', "?");
    let message = formats::load(&broken).unwrap_err().to_string();
    assert!(message.len() < 400, "{message}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_round_trip_through_dump_and_line(seed in any::<u64>(), robots in 1usize..=5) {
        let (puzzle, _) = random_game(seed, robots).unwrap();
        let dump = dd_dump::write(&puzzle).unwrap();
        prop_assert_eq!(&dd_dump::parse(&dump).unwrap(), &puzzle);
        let line = board_line::write(&puzzle).unwrap();
        prop_assert_eq!(&board_line::parse(&line).unwrap(), &puzzle);
    }

    #[test]
    fn random_boards_round_trip_on_one_line(
        w in 1u16..=20, h in 1u16..=20, robots in 1usize..=5, seed in any::<u64>()
    ) {
        if let Ok(puzzle) = random_puzzle(w, h, robots, 3, seed) {
            let line = board_line::write(&puzzle).unwrap();
            prop_assert_eq!(&board_line::parse(&line).unwrap(), &puzzle);
            match dd_dump::write(&puzzle) {
                Ok(dump) => prop_assert_eq!(&dd_dump::parse(&dump).unwrap(), &puzzle),
                Err(error) => prop_assert!(matches!(error, FormatError::Unrepresentable(_))),
            }
        }
    }

    #[test]
    fn the_dump_reader_never_panics(text in "!DriftingDroids_game![0-9A-F]{8}![A-Za-z0-9+/=]{0,200}!") {
        let _ = dd_dump::parse(&text);
    }
}
