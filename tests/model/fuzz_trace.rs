//! Fuzzing of the trace reader: the bytes of a small recorded trace are mutated (bits
//! flipped, the file cut short, bytes and multi-byte UTF-8 characters inserted, bytes removed)
//! and the result opened, summed up and replayed event by event, with its search tree's roots.
//! No input may panic or hang, and a trace that opens must replay no more events than it says
//! it holds.
//!
//! Most mutations of a block's bytes fail its checksum, which the reader checks first; so
//! half the inputs mutate the header's JSON or a block's event bytes and then seal them again
//! (the lengths, checksums and the footer's place made right), to reach the event decoder and
//! the header's parser with bytes that pass every check before them.
//!
//! The long run is ignored by default; it runs with the loaders' long fuzz,
//! `cargo nextest run --release --test model --run-ignored only -E 'test(/loader_fuzz/)'`
//! (`FUZZ_CASES=N` sets its number of cases, 200,000 by default: about ten minutes on a 2-core
//! machine, where 100,000 took 299 s). A short run is part of the normal tests.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use ricochet_lab::solver::trace::{TraceHeader, TraceReader, TraceRecorder};
use ricochet_lab::solver::{self, Limits, NoProbe, SolverId, SolverOptions};
use std::cell::Cell;
use std::path::Path;
use std::time::{Duration, Instant};

/// A small trace (IDDFS on the 6x6 board to depth 3: one block of a few thousand bytes),
/// split into its parts.
struct Parts {
    header_json: Vec<u8>,
    /// The block's fixed header and checkpoint path.
    block_head: Vec<u8>,
    payload: Vec<u8>,
    /// The footer from its mark to its CRC, inclusive.
    footer: Vec<u8>,
}

fn recorded_trace(dir: &Path) -> Vec<u8> {
    let puzzle = ricochet_lab::testing::small();
    let path = dir.join("seed.trace");
    let header = TraceHeader {
        program: "ricochet-lab fuzz".into(),
        puzzle: ricochet_lab::model::formats::native::write(&puzzle),
        solver: "iddfs".into(),
        solver_title: SolverId::Iddfs.kind().title.into(),
        external: false,
    };
    let mut recorder =
        TraceRecorder::create(&path, &header, puzzle.board().clone(), NoProbe).unwrap();
    let options = SolverOptions {
        depth_limit: Some(3),
        ..SolverOptions::default()
    };
    let report = solver::run(
        SolverId::Iddfs,
        &puzzle,
        &options,
        &Limits::default(),
        &mut recorder,
    )
    .unwrap();
    let (end, complete) = solver::trace::outcome_words(&report.outcome);
    recorder.finish(&end, complete).unwrap();
    std::fs::read(&path).unwrap()
}

fn u32_at(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

fn split(bytes: &[u8]) -> Parts {
    let header_len = u32_at(bytes, 10);
    // The header's JSON is followed by its CRC (format version 4 on).
    let block_at = 14 + header_len + 4;
    let payload_len = u32_at(bytes, block_at + 4);
    let path_len = u16::from_le_bytes([bytes[block_at + 46], bytes[block_at + 47]]) as usize;
    let payload_at = block_at + 48 + path_len;
    let footer_at = payload_at + payload_len + 4;
    assert_eq!(&bytes[footer_at..footer_at + 4], b"RLF1", "one block only");
    Parts {
        header_json: bytes[14..block_at - 4].to_vec(),
        block_head: bytes[block_at..payload_at].to_vec(),
        payload: bytes[payload_at..payload_at + payload_len].to_vec(),
        footer: bytes[footer_at..bytes.len() - 16].to_vec(),
    }
}

/// The file of `parts`, each length, checksum and offset made right.
fn seal(parts: &Parts) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"RLTRACE\0");
    out.extend_from_slice(&ricochet_lab::solver::trace::VERSION.to_le_bytes());
    out.extend_from_slice(&(parts.header_json.len() as u32).to_le_bytes());
    out.extend_from_slice(&parts.header_json);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    let block_at = out.len();
    out.extend_from_slice(&parts.block_head);
    out[block_at + 4..block_at + 8].copy_from_slice(&(parts.payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&parts.payload);
    let crc = crc32fast::hash(&out[block_at..]);
    out.extend_from_slice(&crc.to_le_bytes());
    let footer_at = out.len() as u64;
    // The footer's index names the block where it was; a header of another length moves
    // it, which the reader must find out for itself.
    out.extend_from_slice(&parts.footer);
    out.extend_from_slice(&footer_at.to_le_bytes());
    out.extend_from_slice(b"RLTREND!");
    out
}

/// One change to some bytes.
#[derive(Clone, Debug)]
enum Mutation {
    FlipBit(prop::sample::Index, u8),
    Replace(prop::sample::Index, u8),
    Insert(prop::sample::Index, u8),
    /// Inserts a character of two to four bytes in UTF-8, or a part of one.
    InsertText(prop::sample::Index, char, bool),
    Remove(prop::sample::Index, usize),
    Truncate(prop::sample::Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let index = any::<prop::sample::Index>;
    prop_oneof![
        (index(), 0u8..8).prop_map(|(i, b)| Mutation::FlipBit(i, b)),
        (index(), any::<u8>()).prop_map(|(i, b)| Mutation::Replace(i, b)),
        (index(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
        (
            index(),
            prop::sample::select(vec!['é', '→', '✓', '🤖', '\u{FEFF}', '\0', '"', '\\']),
            any::<bool>()
        )
            .prop_map(|(i, c, whole)| Mutation::InsertText(i, c, whole)),
        (index(), 1usize..16).prop_map(|(i, n)| Mutation::Remove(i, n)),
        index().prop_map(Mutation::Truncate),
    ]
}

fn mutate(bytes: &mut Vec<u8>, mutations: &[Mutation]) {
    for m in mutations {
        let len = bytes.len();
        match m {
            Mutation::FlipBit(i, bit) if len > 0 => bytes[i.index(len)] ^= 1 << bit,
            Mutation::Replace(i, b) if len > 0 => bytes[i.index(len)] = *b,
            Mutation::Insert(i, b) => bytes.insert(i.index(len + 1), *b),
            Mutation::InsertText(i, c, whole) => {
                let mut buffer = [0u8; 4];
                let encoded = c.encode_utf8(&mut buffer).as_bytes();
                let taken = if *whole {
                    encoded
                } else {
                    &encoded[..encoded.len().div_ceil(2)]
                };
                let at = i.index(len + 1);
                bytes.splice(at..at, taken.iter().copied());
            }
            Mutation::Remove(i, n) if len > 0 => {
                let at = i.index(len);
                bytes.drain(at..(at + n).min(len));
            }
            Mutation::Truncate(i) => bytes.truncate(i.index(len + 1)),
            _ => {}
        }
    }
}

/// Where the mutations go.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// Anywhere in the file, nothing sealed again.
    File,
    /// The header's JSON, sealed again.
    HeaderJson,
    /// The block's event bytes, sealed again.
    Events,
    /// The block's header and checkpoint, sealed again.
    BlockHead,
}

/// Opens `path` as a trace and reads all of it the ways the commands do; says whether it
/// opened. Never panics on a well-behaved reader.
fn read_all(path: &Path) -> bool {
    let Ok(mut reader) = TraceReader::open(path) else {
        return false;
    };
    let events = reader.events();
    let _ = reader.summary();
    if let Ok(mut replay) = reader.replay(0) {
        let mut read = 0u64;
        while let Ok(Some(_)) = replay.next_event() {
            read += 1;
            assert!(read <= events, "replayed past the {events} events it holds");
        }
    }
    for index in [events / 2, events.saturating_sub(1), events, events + 1] {
        let _ = reader.event(index);
    }
    if let Ok(roots) = reader.tree_roots()
        && let Some(last) = roots.last()
    {
        let _ = reader.tree_children(last);
    }
    true
}

fn fuzz(cases: u32) {
    let dir = tempfile::tempdir().unwrap();
    let seed = recorded_trace(dir.path());
    let parts = split(&seed);
    assert_eq!(seal(&parts), seed, "sealing the parts gives back the file");
    let path = dir.path().join("mutated.trace");
    assert!(read_all(&dir.path().join("seed.trace")));
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let target = prop::sample::select(vec![
        Target::File,
        Target::File,
        Target::HeaderJson,
        Target::Events,
        Target::Events,
        Target::BlockHead,
    ]);
    let strategy = (target, proptest::collection::vec(mutation(), 1..6));
    let (runs, opened) = (Cell::new(0u32), Cell::new(0u32));
    runner
        .run(&strategy, |(target, mutations)| {
            runs.set(runs.get() + 1);
            let bytes = match target {
                Target::File => {
                    let mut bytes = seed.clone();
                    mutate(&mut bytes, &mutations);
                    bytes
                }
                Target::HeaderJson | Target::Events | Target::BlockHead => {
                    let mut parts = split(&seed);
                    let part = match target {
                        Target::HeaderJson => &mut parts.header_json,
                        Target::Events => &mut parts.payload,
                        _ => &mut parts.block_head,
                    };
                    mutate(part, &mutations);
                    if parts.block_head.len() < 8 {
                        parts.block_head.resize(8, 0);
                    }
                    seal(&parts)
                }
            };
            std::fs::write(&path, &bytes).unwrap();
            let started = Instant::now();
            opened.set(opened.get() + u32::from(read_all(&path)));
            prop_assert!(
                started.elapsed() < Duration::from_secs(10),
                "{target:?} {mutations:?}: {:?} to read",
                started.elapsed()
            );
            Ok(())
        })
        .unwrap();
    // Shown with --nocapture: how many mutated traces were tried and how many opened.
    eprintln!(
        "trace reader: {} inputs, {} opened and read",
        runs.get(),
        opened.get()
    );
    assert!(runs.get() >= cases);
    assert!(
        opened.get() > 0,
        "no mutated trace opened: the fuzz reaches no decoder"
    );
}

#[test]
fn trace_reader_survives_a_short_fuzz() {
    fuzz(400);
}

#[test]
#[ignore = "long: 200,000 cases (FUZZ_CASES to change); run on demand"]
fn trace_loader_fuzz() {
    let cases = std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200_000);
    fuzz(cases);
}
