//! Fuzzing of every loader: the bytes of the files in `boards/` (as native files, as Cox text,
//! as game ids, as DriftingDroids dumps and as one-line board texts) are mutated (bytes replaced, inserted, removed, copied from elsewhere,
//! digits changed, characters of one to four bytes inserted or put in place of others, also
//! at the end of a field's name) and read the way a file is read. No input may panic; every accepted puzzle
//! must pass the checks every format shares and come back the same from its own format.
//!
//! The long runs are ignored by default; run them with
//! `cargo nextest run --release --test model --run-ignored only -E 'test(/loader_fuzz/)'`
//! (1,000,000 cases per loader: about one minute for Cox text and game ids and three for native
//! files on a 2-core machine). `FUZZ_CASES=N` sets another number of cases. A short run of each
//! is part of the normal tests.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use ricochet_lab::model::Puzzle;
use ricochet_lab::model::formats::{board_line, cox, dd_dump, decode, game_id, native};
use std::cell::Cell;

/// The seed corpus: every shipped board in one format.
fn corpus(format: Loader) -> Vec<Vec<u8>> {
    let paths = ricochet_lab::testing::shipped_board_paths();
    let puzzles: Vec<Puzzle> = paths
        .iter()
        .map(|p| native::parse(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect();
    let texts: Vec<String> = match format {
        Loader::Native => puzzles.iter().map(native::write).collect(),
        Loader::Cox => puzzles.iter().filter_map(|p| cox::write(p).ok()).collect(),
        Loader::GameId => puzzles
            .iter()
            .filter_map(|p| game_id::write(p).ok())
            .collect(),
        Loader::DdDump => puzzles
            .iter()
            .filter_map(|p| dd_dump::write(p).ok())
            .collect(),
        Loader::BoardLine => puzzles
            .iter()
            .filter_map(|p| board_line::write(p).ok())
            .collect(),
    };
    assert!(!texts.is_empty());
    texts.into_iter().map(String::into_bytes).collect()
}

#[derive(Clone, Copy, Debug)]
enum Loader {
    Native,
    Cox,
    GameId,
    DdDump,
    BoardLine,
}

/// One change to a file's bytes.
#[derive(Clone, Debug)]
enum Mutation {
    Replace(prop::sample::Index, u8),
    Insert(prop::sample::Index, u8),
    Remove(prop::sample::Index),
    /// Copies a run of bytes from one place to another (keeps the file's own vocabulary).
    Splice(prop::sample::Index, prop::sample::Index, usize),
    /// Changes a digit to another digit, where most of the meaning is.
    Digit(prop::sample::Index, u8),
    /// Inserts a character, often one of several bytes, between two characters of the text.
    Char(prop::sample::Index, char),
    /// Puts a character right before a colon, at the end of a field's name (`é:`), where
    /// the loaders look back for the name to report.
    CharBeforeColon(prop::sample::Index, char),
    /// Replaces a character with another, often of another byte length.
    ReplaceChar(prop::sample::Index, char),
}

/// Characters of one to four bytes, and the invisible ones copies bring along (a byte-order
/// mark, a no-break space), beside any character at all.
fn non_ascii() -> impl Strategy<Value = char> {
    prop_oneof![
        Just('\u{e9}'),
        Just('\u{3a9}'),
        Just('\u{5b57}'),
        Just('\u{1f600}'),
        Just('\u{feff}'),
        Just('\u{a0}'),
        Just('\u{301}'),
        any::<char>(),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Replace(i, b)),
        (any::<prop::sample::Index>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<prop::sample::Index>().prop_map(Mutation::Remove),
        (
            any::<prop::sample::Index>(),
            any::<prop::sample::Index>(),
            1usize..40
        )
            .prop_map(|(a, b, n)| Mutation::Splice(a, b, n)),
        (any::<prop::sample::Index>(), 0u8..10).prop_map(|(i, d)| Mutation::Digit(i, d)),
        (any::<prop::sample::Index>(), non_ascii()).prop_map(|(i, c)| Mutation::Char(i, c)),
        (any::<prop::sample::Index>(), non_ascii())
            .prop_map(|(i, c)| Mutation::CharBeforeColon(i, c)),
        (any::<prop::sample::Index>(), non_ascii()).prop_map(|(i, c)| Mutation::ReplaceChar(i, c)),
    ]
}

/// The byte offsets where a character starts in `bytes` (every offset when they are not
/// UTF-8 text), and the end.
fn char_starts(bytes: &[u8]) -> Vec<usize> {
    match std::str::from_utf8(bytes) {
        Ok(text) => text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect(),
        Err(_) => (0..=bytes.len()).collect(),
    }
}

fn insert_char(bytes: &mut Vec<u8>, at: usize, c: char) {
    let mut buffer = [0; 4];
    let encoded = c.encode_utf8(&mut buffer).as_bytes();
    bytes.splice(at..at, encoded.iter().copied());
}

fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for m in mutations {
        let len = bytes.len();
        match *m {
            Mutation::Replace(i, b) if len > 0 => bytes[i.index(len)] = b,
            Mutation::Insert(i, b) => bytes.insert(i.index(len + 1), b),
            Mutation::Remove(i) if len > 0 => {
                bytes.remove(i.index(len));
            }
            Mutation::Splice(from, to, n) if len > 0 => {
                let from = from.index(len);
                let run: Vec<u8> = bytes[from..(from + n).min(len)].to_vec();
                let to = to.index(len + 1);
                bytes.splice(to..to, run);
            }
            Mutation::Digit(i, d) if len > 0 => {
                let digits: Vec<usize> = (0..len).filter(|&j| bytes[j].is_ascii_digit()).collect();
                if !digits.is_empty() {
                    bytes[digits[i.index(digits.len())]] = b'0' + d;
                }
            }
            Mutation::Char(i, c) => {
                let starts = char_starts(&bytes);
                insert_char(&mut bytes, starts[i.index(starts.len())], c);
            }
            Mutation::CharBeforeColon(i, c) => {
                let colons: Vec<usize> = (0..len).filter(|&j| bytes[j] == b':').collect();
                if !colons.is_empty() {
                    insert_char(&mut bytes, colons[i.index(colons.len())], c);
                }
            }
            Mutation::ReplaceChar(i, c) if len > 0 => {
                let starts = char_starts(&bytes);
                let which = i.index(starts.len() - 1);
                let (start, end) = (starts[which], starts[which + 1]);
                bytes.drain(start..end);
                insert_char(&mut bytes, start, c);
            }
            _ => {}
        }
    }
    bytes
}

/// Reads mutated bytes as the loader would and checks what it accepts; says whether the loader
/// accepted them.
fn check(loader: Loader, bytes: Vec<u8>) -> Result<bool, TestCaseError> {
    // Bytes go through the same decoding as a file (UTF-8 check, byte-order mark).
    let Ok(text) = decode(bytes) else {
        return Ok(false);
    };
    let parsed = match loader {
        Loader::Native => native::parse(&text),
        Loader::Cox => cox::parse(&text),
        Loader::GameId => game_id::parse(&text),
        Loader::DdDump => dd_dump::parse(&text),
        Loader::BoardLine => board_line::parse(&text),
    };
    let Ok(puzzle) = parsed else {
        return Ok(false);
    };
    // What was accepted passes every check again, as a fresh puzzle.
    let rebuilt = Puzzle::new(
        puzzle.board().clone(),
        puzzle.robots().to_vec(),
        puzzle.goal(),
        puzzle.rules(),
    );
    prop_assert_eq!(rebuilt.as_ref(), Ok(&puzzle));
    prop_assert!(puzzle.check_targets().is_ok());
    // And round-trips through its own format (and the native one).
    let native_back = native::parse(&native::write(&puzzle)).ok();
    prop_assert_eq!(native_back.as_ref(), Some(&puzzle));
    match loader {
        Loader::Native => {}
        Loader::Cox => {
            let written = cox::write(&puzzle).unwrap();
            let back = cox::parse(&written).unwrap();
            prop_assert_eq!(back.robots(), puzzle.robots());
            prop_assert_eq!(back.goal(), puzzle.goal());
            prop_assert_eq!(cox::write(&back).unwrap(), written);
        }
        Loader::GameId => {
            let id = game_id::write(&puzzle).unwrap();
            prop_assert_eq!(game_id::parse(&id).unwrap(), puzzle);
        }
        Loader::DdDump => {
            // A dump holds what its game can: written again, the same dump.
            let written = dd_dump::write(&puzzle).unwrap();
            let back = dd_dump::parse(&written).unwrap();
            prop_assert_eq!(dd_dump::write(&back).unwrap(), written);
        }
        Loader::BoardLine => {
            let line = board_line::write(&puzzle).unwrap();
            prop_assert_eq!(board_line::parse(&line).unwrap(), puzzle);
        }
    }
    Ok(true)
}

fn fuzz(loader: Loader, cases: u32) {
    let corpus = corpus(loader);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (0..corpus.len(), proptest::collection::vec(mutation(), 1..8));
    let (runs, accepted) = (Cell::new(0u32), Cell::new(0u32));
    runner
        .run(&strategy, |(file, mutations)| {
            runs.set(runs.get() + 1);
            let ok = check(loader, mutate(corpus[file].clone(), &mutations))?;
            accepted.set(accepted.get() + u32::from(ok));
            Ok(())
        })
        .unwrap();
    // Shown with --nocapture: how many mutated inputs were tried and how many were puzzles.
    eprintln!(
        "{loader:?}: {} inputs, {} accepted and checked",
        runs.get(),
        accepted.get()
    );
    assert!(runs.get() >= cases);
}

fn long_run_cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000)
}

#[test]
fn native_loader_survives_a_short_fuzz() {
    fuzz(Loader::Native, 300);
}

#[test]
fn cox_loader_survives_a_short_fuzz() {
    fuzz(Loader::Cox, 300);
}

#[test]
fn game_id_loader_survives_a_short_fuzz() {
    fuzz(Loader::GameId, 2000);
}

#[test]
fn dd_dump_loader_survives_a_short_fuzz() {
    fuzz(Loader::DdDump, 1000);
}

#[test]
fn board_line_loader_survives_a_short_fuzz() {
    fuzz(Loader::BoardLine, 1000);
}

#[test]
#[ignore = "long: 1,000,000 cases (FUZZ_CASES to change); run on demand"]
fn dd_dump_loader_fuzz() {
    fuzz(Loader::DdDump, long_run_cases());
}

#[test]
#[ignore = "long: 1,000,000 cases (FUZZ_CASES to change); run on demand"]
fn board_line_loader_fuzz() {
    fuzz(Loader::BoardLine, long_run_cases());
}

#[test]
#[ignore = "long: 1,000,000 cases (FUZZ_CASES to change); run on demand"]
fn native_loader_fuzz() {
    fuzz(Loader::Native, long_run_cases());
}

#[test]
#[ignore = "long: 1,000,000 cases (FUZZ_CASES to change); run on demand"]
fn cox_loader_fuzz() {
    fuzz(Loader::Cox, long_run_cases());
}

#[test]
#[ignore = "long: 1,000,000 cases (FUZZ_CASES to change); run on demand"]
fn game_id_loader_fuzz() {
    fuzz(Loader::GameId, long_run_cases());
}
