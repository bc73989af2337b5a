//! File formats: round trips of all three formats, and loaders that never panic on any input.

use proptest::prelude::*;
use ricochet_lab::model::Rules;
use ricochet_lab::model::formats::{cox, game_id, native};
use ricochet_lab::model::random::random_puzzle;
use ricochet_lab::model::tiles::random_game;

fn shipped(name: &str) -> String {
    std::fs::read_to_string(format!("{}/boards/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn every_shipped_board_loads_and_round_trips() {
    let names: Vec<_> = ricochet_lab::testing::shipped_board_paths()
        .iter()
        .map(|path| path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(names.len() >= 8, "{names:?}");
    for name in names {
        let text = shipped(&name);
        let puzzle = native::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            native::write(&puzzle),
            text,
            "{name} is not in canonical form"
        );
    }
}

#[test]
fn reference_boards_match_their_game_ids() {
    for (name, id) in [
        ("hardest-25.ron", "7650+42+E2302B12+C9"),
        ("hansel-24.ron", "0765+42+2E21BD0F+93"),
        ("real-21.ron", "3650+42+1CF10F0C+C9"),
    ] {
        let puzzle = native::parse(&shipped(name)).unwrap();
        assert_eq!(game_id::write(&puzzle).unwrap(), id);
        assert_eq!(game_id::parse(id).unwrap(), puzzle);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn native_round_trip(w in 1u16..=20, h in 2u16..=20, robots in 1usize..=5, seed: u64,
                         ricochet: bool, no_rebound: bool) {
        if let Ok(puzzle) = random_puzzle(w, h, robots, 3, seed) {
            let puzzle = puzzle.with_rules(Rules { ricochet, no_rebound });
            prop_assert_eq!(native::parse(&native::write(&puzzle)).unwrap(), puzzle);
        }
    }

    #[test]
    fn cox_round_trip(w in 1u16..=20, h in 2u16..=20, robots in 1usize..=4, seed: u64) {
        if let Ok(puzzle) = random_puzzle(w, h, robots, 3, seed) {
            // Cox's format keeps walls, robots and the active target; its text is stable
            // under a second round trip, and so is the game.
            if let Ok(text) = cox::write(&puzzle) {
                let back = cox::parse(&text).unwrap();
                prop_assert_eq!(back.robots(), puzzle.robots());
                prop_assert_eq!(back.goal(), puzzle.goal());
                prop_assert_eq!(cox::write(&back).unwrap(), text);
            }
        }
    }

    #[test]
    fn game_id_round_trip(seed: u64) {
        let (puzzle, _) = random_game(seed, 4).unwrap();
        let id = game_id::write(&puzzle).unwrap();
        prop_assert_eq!(game_id::parse(&id).unwrap(), puzzle);
    }

    #[test]
    fn loaders_never_panic_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = native::parse(&text);
        let _ = cox::parse(&text);
        let _ = game_id::parse(&text);
    }

    #[test]
    fn loaders_never_panic_on_mutated_files(
        file in 0usize..3,
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..4, any::<char>()), 1..6),
    ) {
        let valid = match file {
            0 => shipped("small-6x6.ron"),
            1 => cox::write(&native::parse(&shipped("hardest-25.ron")).unwrap()).unwrap(),
            _ => "7650+42+E2302B12+C9".to_string(),
        };
        let mut chars: Vec<char> = valid.chars().collect();
        for (index, kind, c) in edits {
            let at = index.index(chars.len().max(1)).min(chars.len());
            match kind {
                0 if at < chars.len() => { chars.remove(at); }
                1 => chars.insert(at, c),
                2 if at < chars.len() => chars[at] = c,
                // Digits are where the meaning is: change one to another digit.
                _ if at < chars.len() && chars[at].is_ascii_digit() => {
                    chars[at] = char::from(b'0' + (c as u32 % 10) as u8);
                }
                _ => {}
            }
        }
        let text: String = chars.into_iter().collect();
        match file {
            0 => { let _ = native::parse(&text); }
            1 => { let _ = cox::parse(&text); }
            _ => { let _ = game_id::parse(&text); }
        }
    }
}

#[test]
fn large_numbers_and_sizes_are_errors_not_panics() {
    let cases = [
        "(format: 1, width: 65535, height: 65535, robots: [], goal: (x: 0, y: 0, color: Red))",
        "(format: 1, width: 64, height: 64, walls: [(65535, 3, East)], robots: [], goal: (x: 0, y: 0, color: Red))",
        "(format: 1, width: 4, height: 4, closed: [(1, 1)], robots: [(color: Red, x: 1, y: 1)], goal: (x: 0, y: 0, color: Red))",
        "(format: 1, width: 4, height: 4, robots: [(color: Red, x: 1, y: 1)], goal: (x: 0, y: 0, color: Blue))",
        "(format: 1, width: 4, height: 4, robots: [(color: Red, x: 1, y: 1), (color: Red, x: 2, y: 1)], goal: (x: 0, y: 0, color: Red))",
    ];
    let expected = [
        "out of range",
        "off the 64x64",
        "closed cell",
        "not on the board",
        "two red",
    ];
    for (text, needle) in cases.iter().zip(expected) {
        let message = native::parse(text).unwrap_err().to_string();
        assert!(message.contains(needle), "{text}: {message}");
    }
    let message = cox::parse("board 99 99\n").unwrap_err().to_string();
    assert!(message.contains("out of range"), "{message}");
}

/// A puzzle file whose goal and targets are as given, on an open 6x6 board with a red and a
/// blue robot.
fn six_by_six(targets: &str, closed: &str, goal: &str) -> String {
    format!(
        "(format: 1, width: 6, height: 6, closed: [{closed}], targets: [{targets}], \
         robots: [(color: Red, x: 0, y: 0), (color: Blue, x: 5, y: 5)], goal: {goal})"
    )
}

#[test]
fn native_files_follow_the_rules_game_ids_follow() {
    let red_circle = "(x: 2, y: 2, color: Red, shape: Circle)";
    let cases = [
        // A goal with no target listed on its cell.
        (
            six_by_six("", "", "(x: 2, y: 2, color: Red)"),
            "has no target",
        ),
        // A goal for another robot than the target on its cell.
        (
            six_by_six(red_circle, "", "(x: 2, y: 2, color: Blue)"),
            "the target on that cell is red",
        ),
        // A target that is not the goal, on a closed cell.
        (
            six_by_six(
                &format!("{red_circle}, (x: 3, y: 3, color: Blue, shape: Square)"),
                "(3, 3)",
                "(x: 2, y: 2, color: Red)",
            ),
            "blue target at (3, 3) is on a closed cell",
        ),
        // A red target of the vortex's shape, and a vortex of another shape.
        (
            six_by_six(
                "(x: 2, y: 2, color: Red, shape: Vortex)",
                "",
                "(x: 2, y: 2, color: Red)",
            ),
            "color Red and shape Vortex",
        ),
        (
            six_by_six(
                "(x: 2, y: 2, color: Any, shape: Circle)",
                "",
                "(x: 2, y: 2, color: Any)",
            ),
            "color Any and shape Circle",
        ),
    ];
    for (text, needle) in cases {
        let message = native::parse(&text).unwrap_err().to_string();
        assert!(message.contains(needle), "{text}\n{message}");
    }
    // The same puzzle with the goal on its own target is fine, and so is any robot's goal
    // on the vortex.
    native::parse(&six_by_six(red_circle, "", "(x: 2, y: 2, color: Red)")).unwrap();
    native::parse(&six_by_six(
        "(x: 2, y: 2, color: Any, shape: Vortex)",
        "",
        "(x: 2, y: 2, color: Blue)",
    ))
    .unwrap();
}

#[test]
fn game_ids_use_each_physical_tile_once() {
    // Tile 7 (4B) four times, twice, and with 3 (4A), the other face of the same tile; each
    // of these ids has a printed target of its own and was accepted before.
    for (id, needle) in [
        ("7777+42+E2302B12+38", "tiles 4B and 4B"),
        ("7657+42+E2302B12+2B", "tiles 4B and 4B"),
        ("3657+42+E2302B12+16", "tiles 4A and 4B"),
    ] {
        let message = game_id::parse(id).unwrap_err().to_string();
        assert!(message.contains(needle), "{id}: {message}");
        assert!(message.contains("physical tile"), "{id}: {message}");
    }
    // One face of each of the four tiles is a real board.
    game_id::parse("7650+42+E2302B12+C9").unwrap();
}

#[test]
fn errors_say_where_and_what() {
    use ricochet_lab::model::formats::decode;
    // Not UTF-8: the line, column and byte offset of the first bad byte.
    let mut bytes = shipped("small-6x6.ron").into_bytes();
    let at = bytes.iter().position(|&b| b == b'w').unwrap();
    bytes[at] = 0xFF;
    let message = decode(bytes).unwrap_err().to_string();
    assert!(message.starts_with("line 3, column 5 (byte "), "{message}");
    assert!(message.contains("0xFF"), "{message}");
    // A byte-order mark is accepted, in every format.
    let with_bom = format!("\u{feff}{}", shipped("small-6x6.ron"));
    assert_eq!(
        native::parse(&with_bom).unwrap(),
        native::parse(&shipped("small-6x6.ron")).unwrap()
    );
    let bytes = with_bom.clone().into_bytes();
    assert_eq!(
        native::parse(&decode(bytes).unwrap()).unwrap(),
        native::parse(&shipped("small-6x6.ron")).unwrap()
    );
    let cox_text = cox::write(&native::parse(&shipped("hardest-25.ron")).unwrap()).unwrap();
    cox::parse(&format!("\u{feff}{cox_text}")).unwrap();
    // A size far out of range names the field and the range.
    let text = shipped("small-6x6.ron").replace("width: 6", "width: 1000000");
    let message = native::parse(&text).unwrap_err().to_string();
    assert!(message.contains("width"), "{message}");
    assert!(message.contains("1 to 64"), "{message}");
    assert!(message.starts_with("line 3,"), "{message}");
    let text = shipped("small-6x6.ron").replace("height: 6", "height: 99999999999999999999999");
    let message = native::parse(&text).unwrap_err().to_string();
    assert!(
        message.contains("height") && message.contains("1 to 64"),
        "{message}"
    );
    // A game id names its bad character and where it is.
    let message = game_id::parse("7650+42+E2302B1G+C9")
        .unwrap_err()
        .to_string();
    assert!(message.contains("'G' at position 16"), "{message}");
    assert!(
        ricochet_lab::model::formats::load_source("7650+42+E2302B1G+C9")
            .unwrap_err()
            .to_string()
            .contains("'G' at position 16")
    );
    // Control characters are escaped and long tokens cut.
    let text = cox_text.replacen('B', "\u{1b}[2J", 1);
    let message = cox::parse(&text).unwrap_err().to_string();
    assert!(!message.contains('\u{1b}'), "{message:?}");
    assert!(message.contains("\\u{1b}[2J"), "{message}");
    let long = "X".repeat(5 << 20);
    let text = cox_text.replacen('B', &long, 1);
    let message = cox::parse(&text).unwrap_err().to_string();
    assert!(message.len() < 300, "{} bytes", message.len());
    assert!(
        message.contains(&format!("({} bytes in all)", long.len())),
        "{message}"
    );
    let text = format!("(format: 1, {long}: 3)");
    assert!(native::parse(&text).unwrap_err().to_string().len() < 400);
    let message = native::parse("(format: 1, \u{7}bell: 3)")
        .unwrap_err()
        .to_string();
    assert!(!message.contains('\u{7}'), "{message:?}");
}

#[cfg(unix)]
#[test]
fn only_regular_files_are_read_and_only_a_few_mib() {
    use ricochet_lab::model::formats::{FormatError, MAX_INPUT_BYTES, read_text};
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let zero = dir.path().join("z.ron");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let started = Instant::now();
    let error = read_text(&zero).unwrap_err();
    assert!(matches!(error, FormatError::NotAFile { .. }), "{error}");
    assert!(error.to_string().contains("a device"), "{error}");
    // A named pipe with no writer would block an open for ever; it is refused first.
    let fifo = dir.path().join("pipe.ron");
    let status = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(status.success());
    let error = read_text(&fifo).unwrap_err().to_string();
    assert!(error.contains("named pipe"), "{error}");
    let error = read_text(dir.path()).unwrap_err().to_string();
    assert!(error.contains("a directory"), "{error}");
    assert!(started.elapsed() < Duration::from_secs(2));
    // A regular file past the cap is refused without reading it all.
    let big = dir.path().join("big.ron");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(MAX_INPUT_BYTES * 100).unwrap();
    let error = read_text(&big).unwrap_err();
    assert!(matches!(error, FormatError::TooLarge { .. }), "{error}");
    assert!(error.to_string().contains("larger than 4 MiB"), "{error}");
    // Through the loader too, with the path named.
    let error = ricochet_lab::model::formats::load_source(zero.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(error.contains("z.ron"), "{error}");
}

/// A native file from raw parts, whatever they say: targets as (x, y, colour, shape) indices,
/// closed cells, robots as (colour index, x, y) and the goal as (x, y, colour index).
fn native_text(
    size: (u16, u16),
    targets: &[(u16, u16, usize, usize)],
    closed: &[(u16, u16)],
    robots: &[(usize, u16, u16)],
    goal: (u16, u16, usize),
) -> String {
    const COLORS: [&str; 5] = ["Red", "Green", "Blue", "Yellow", "Any"];
    const SHAPES: [&str; 5] = ["Circle", "Triangle", "Square", "Hexagon", "Vortex"];
    const ROBOTS: [&str; 5] = ["Red", "Green", "Blue", "Yellow", "Silver"];
    let mut seen = Vec::new();
    let targets: Vec<String> = targets
        .iter()
        .filter(|t| {
            let fresh = !seen.contains(&(t.0, t.1));
            seen.push((t.0, t.1));
            fresh
        })
        .map(|&(x, y, c, s)| {
            format!(
                "(x: {x}, y: {y}, color: {}, shape: {})",
                COLORS[c], SHAPES[s]
            )
        })
        .collect();
    let closed: Vec<String> = closed.iter().map(|(x, y)| format!("({x}, {y})")).collect();
    let robots: Vec<String> = robots
        .iter()
        .map(|&(c, x, y)| format!("(color: {}, x: {x}, y: {y})", ROBOTS[c]))
        .collect();
    format!(
        "(format: 1, width: {}, height: {}, closed: [{}], targets: [{}], robots: [{}], \
         goal: (x: {}, y: {}, color: {}))",
        size.0,
        size.1,
        closed.join(", "),
        targets.join(", "),
        robots.join(", "),
        goal.0,
        goal.1,
        COLORS[goal.2]
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A puzzle one format accepts is accepted by every format that can express it, and
    /// comes back the same.
    #[test]
    fn one_validation_for_every_format(
        size in (2u16..=6, 2u16..=6),
        targets in proptest::collection::vec((0u16..6, 0u16..6, 0usize..5, 0usize..5), 0..5),
        closed in proptest::collection::vec((0u16..6, 0u16..6), 0..3),
        robots in proptest::collection::vec((0usize..5, 0u16..6, 0u16..6), 1..4),
        goal in (0u16..6, 0u16..6, 0usize..5),
    ) {
        let text = native_text(size, &targets, &closed, &robots, goal);
        if let Ok(puzzle) = native::parse(&text) {
            prop_assert!(puzzle.check_targets().is_ok());
            prop_assert_eq!(native::parse(&native::write(&puzzle)).unwrap(), puzzle.clone());
            if let Ok(cox_text) = cox::write(&puzzle) {
                let back = cox::parse(&cox_text);
                prop_assert!(back.is_ok(), "{}\n{}\n{:?}", text, cox_text, back);
                let back = back.unwrap();
                prop_assert_eq!(back.robots(), puzzle.robots());
                prop_assert_eq!(back.goal(), puzzle.goal());
                // And Cox's reading of it is a valid native file.
                prop_assert_eq!(native::parse(&native::write(&back)).unwrap(), back);
            }
            if let Ok(id) = game_id::write(&puzzle) {
                prop_assert_eq!(game_id::parse(&id).unwrap(), puzzle);
            }
        }
    }

    /// Every game id accepted is a valid native and Cox puzzle.
    #[test]
    fn accepted_game_ids_are_valid_in_every_format(
        tiles in proptest::array::uniform4(0u8..16),
        count in 1u8..=5,
        active in prop_oneof![0u8..5, Just(15u8)],
        cells in proptest::collection::vec(0u16..256, 5),
        target in any::<prop::sample::Index>(),
    ) {
        let Ok(board) = ricochet_lab::model::tiles::assemble_ids(
            tiles,
            ricochet_lab::model::tiles::TileVariant::Real,
        ) else {
            return Ok(());
        };
        let printed = board.targets();
        let goal = printed[target.index(printed.len())].pos;
        let positions: String = cells[..usize::from(count)]
            .iter()
            .map(|c| format!("{c:02X}"))
            .collect();
        let tiles: String = tiles.iter().map(|t| format!("{t:X}")).collect();
        let id = format!("{tiles}+{count}{active:X}+{positions}+{:02X}", goal.y * 16 + goal.x);
        if let Ok(puzzle) = game_id::parse(&id) {
            prop_assert!(puzzle.check_targets().is_ok());
            prop_assert_eq!(game_id::write(&puzzle).unwrap(), id.clone());
            prop_assert_eq!(native::parse(&native::write(&puzzle)).unwrap(), puzzle.clone());
            let back = cox::parse(&cox::write(&puzzle).unwrap());
            prop_assert!(back.is_ok(), "{}: {:?}", id, back);
            prop_assert_eq!(back.unwrap().goal(), puzzle.goal());
        }
    }
}

#[test]
fn a_cox_row_of_millions_of_tokens_is_refused_as_a_row_with_its_count() {
    // Nearly the whole input cap in one row: the loader walks the line once, so the error
    // comes as soon as the tokens are counted. Columns are counted in characters.
    let tokens = 1 << 20;
    let mut text = String::from("board 16 16\n");
    text.push_str(&"é ".repeat(tokens));
    text.push('\n');
    let error = cox::parse(&text).unwrap_err().to_string();
    assert!(
        error.contains(&format!("a board row needs 16 tokens, found {tokens}")),
        "{}",
        &error[..error.len().min(200)]
    );
    // A wide space before the bad token: its column is the third character, not byte 5.
    let row = format!("C\u{3000}Q{}\n", " C".repeat(14));
    let error = cox::parse(&format!("board 16 16\n{row}"))
        .unwrap_err()
        .to_string();
    assert!(error.contains("line 2, column 3"), "{error}");
}

#[test]
fn cox_refuses_a_five_robot_puzzle_whose_walled_in_robot_it_would_drop() {
    use ricochet_lab::model::{Direction, Puzzle};
    let base = random_puzzle(6, 6, 5, 4, 7).unwrap();
    let active = base.goal().color.robot();
    let boxed = *base
        .robots()
        .iter()
        .find(|r| Some(r.color) != active)
        .unwrap();
    let mut board = base.board().clone();
    for dir in Direction::ALL {
        board.set_wall(boxed.pos, dir, true).unwrap();
    }
    let puzzle = Puzzle::new(board, base.robots().to_vec(), base.goal(), base.rules()).unwrap();
    let error = cox::write(&puzzle).unwrap_err().to_string();
    assert!(
        error.contains(&format!("the {} robot", boxed.color)),
        "{error}"
    );
    assert!(error.contains("walled in"), "{error}");
    // Without the walls the robot is kept.
    let back = cox::parse(&cox::write(&base).unwrap()).unwrap();
    assert_eq!(back.robots().len(), 5);
}
