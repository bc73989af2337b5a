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
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/boards");
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
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
