//! Trace files the app is handed that are not whole: a byte flipped in a block, a recording
//! cut off, a `.rltrace` that is no trace at all. The debugger says "Damaged" or "Incomplete"
//! where a run would say how it ended, and never shows such a file as a finished run.

use crate::common::app_harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::command::{Command, Pending};
use ricochet_lab::model::formats;
use ricochet_lab::solver::trace;
use ricochet_lab::solver::{Limits, NoProbe, SolverChoice, SolverId, SolverOptions};
use std::path::{Path, PathBuf};

/// IDDFS on the standard random board recorded to `dir`: two blocks or more.
fn recorded(dir: &Path) -> (PathBuf, Vec<u8>) {
    let puzzle = formats::load(&format!(
        "{}/boards/standard-random.ron",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let path = dir.join("iddfs.rltrace");
    trace::record(
        &SolverChoice::BuiltIn(SolverId::Iddfs),
        &puzzle,
        &SolverOptions::default(),
        &Limits::default(),
        &path,
        NoProbe,
    )
    .unwrap();
    let reader = trace::TraceReader::open(&path).unwrap();
    assert!(reader.blocks().len() >= 2);
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

/// The state the debugger gives a trace opened from `path`, and the status line's message.
fn opened(path: &Path) -> (Option<String>, String) {
    let mut harness = app_harness();
    harness
        .state_mut()
        .apply_command(Command::Guarded(Pending::Open(path.to_path_buf())));
    harness.run_steps(3);
    assert!(
        harness.query_by_label("Finished").is_none(),
        "a trace file is never shown as a finished run"
    );
    let state = harness
        .state()
        .debugger()
        .and_then(|d| d.file_state().map(str::to_string));
    let message = harness
        .state()
        .status_message()
        .unwrap_or_default()
        .to_string();
    if let Some(state) = &state {
        assert!(
            harness.query_by_label_contains(state).is_some(),
            "the panel says {state}"
        );
    }
    (state, message)
}

#[test]
fn a_damaged_or_cut_trace_opens_saying_so_and_a_whole_one_says_how_it_ended() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = recorded(dir.path());
    let (state, _) = opened(&path);
    assert_eq!(state.as_deref(), Some("Trace: solved in 9 moves"));

    let second = trace::TraceReader::open(&path).unwrap().blocks()[1].offset as usize;
    let first = trace::TraceReader::open(&path).unwrap().blocks()[0].offset;
    let mut flipped = bytes.clone();
    flipped[second - 1000] ^= 0x40;
    let damaged = dir.path().join("damaged.rltrace");
    std::fs::write(&damaged, &flipped).unwrap();
    let (state, _) = opened(&damaged);
    let state = state.expect("the damaged trace opens in the debugger");
    assert!(
        state.starts_with(&format!(
            "Damaged trace: the block at byte {first} is damaged (its checksum does not match)"
        )),
        "{state}"
    );

    let cut = dir.path().join("cut.rltrace");
    std::fs::write(&cut, &bytes[..second + 100]).unwrap();
    let (state, _) = opened(&cut);
    assert_eq!(
        state.as_deref(),
        Some(
            format!(
                "Incomplete trace: the recording was cut off (the file ends inside the block \
                 at byte {second})"
            )
            .as_str()
        )
    );
}

#[test]
fn an_rltrace_that_is_empty_or_zeros_is_refused_as_no_trace_not_read_as_a_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in [
        ("empty.rltrace", vec![]),
        ("zeros.rltrace", vec![0u8; 4096]),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let (state, message) = opened(&path);
        assert_eq!(state, None, "{name}");
        assert!(
            message.contains(&format!("{} is not a Ricochet Lab trace", path.display())),
            "{name}: {message}"
        );
        assert!(!message.contains("board WIDTH HEIGHT"), "{message}");
    }
}
