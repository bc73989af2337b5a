//! A trace that is not what was written, or not all of it, as every `trace` command tells it:
//! a header changed after it was written, a flipped byte in a block, a file cut off, a write
//! refused by a file-size limit before any event was whole. Each reader says "damaged" (with
//! the block and its byte) or "incomplete", and none reads a damaged trace as a healthy run.

use crate::common::{lab, run, text};
use std::path::{Path, PathBuf};

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// Records `solver`'s search of `board` (a path from the crate's folder) to `path`.
fn record(board: &str, solver: &str, path: &Path) {
    let (code, out, err) = run(&[
        "trace",
        "record",
        board,
        "--solver",
        solver,
        "-o",
        &shown(path),
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

/// A trace of IDDFS on the standard random board: two blocks or more, so that one can be
/// damaged in the middle of the file.
fn two_block_trace(dir: &Path) -> PathBuf {
    let path = dir.join("iddfs.rltrace");
    record("boards/standard-random.ron", "iddfs", &path);
    let (code, info, err) = run(&["trace", "info", &shown(&path)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        info.contains(" in 2 blocks") || info.contains(" in 3 blocks"),
        "{info}"
    );
    path
}

/// The offset of the second block: where the first one ends.
fn second_block_at(bytes: &[u8]) -> usize {
    let header = 14 + u32::from_le_bytes(bytes[10..14].try_into().unwrap()) as usize + 4;
    let payload = u32::from_le_bytes(bytes[header + 4..header + 8].try_into().unwrap()) as usize;
    let path_len = u16::from_le_bytes([bytes[header + 46], bytes[header + 47]]) as usize;
    header + 48 + path_len + payload + 4
}

/// Every reading command on `path`, each with its arguments.
fn readers(path: &Path) -> Vec<Vec<String>> {
    let path = shown(path);
    [
        vec!["trace", "info", &path],
        vec!["trace", "events", &path],
        vec!["trace", "tree", &path],
        vec!["trace", "export", &path, "--format", "jsonl"],
        vec!["trace", "export", &path, "--format", "posthoc"],
        vec!["trace", "frontier", &path, "--at", "5"],
    ]
    .into_iter()
    .map(|args| args.into_iter().map(String::from).collect())
    .collect()
}

fn run_owned(args: &[String]) -> (i32, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args)
}

#[test]
fn info_prints_the_rules_and_the_format_version() {
    let dir = tempfile::tempdir().unwrap();
    let board = std::fs::read_to_string(format!(
        "{}/boards/small-6x6.ron",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .replace("ricochet: false", "ricochet: true");
    let board_path = dir.path().join("ricochet.ron");
    std::fs::write(&board_path, board).unwrap();
    let path = dir.path().join("ricochet.rltrace");
    record(&shown(&board_path), "iddfs", &path);
    let (code, info, err) = run(&["trace", "info", &shown(&path)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        info.contains("rules:    ricochet on, no rebound off"),
        "{info}"
    );
    assert!(info.contains("(trace format version 4)"), "{info}");
    assert!(info.contains("state:    whole"), "{info}");
}

#[test]
fn a_header_changed_after_it_was_written_is_refused_as_damaged_by_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.rltrace");
    record("boards/small-6x6.ron", "iddfs", &path);
    let other = dir.path().join("other.rltrace");
    record("boards/small-6x6.ron", "iddfs", &other);
    // The green robot moved from (0, 0) to (1, 0): the JSON as long and as valid as before,
    // another puzzle that loads, which no reader may take for the one searched.
    let mut bytes = std::fs::read(&path).unwrap();
    let json_end = 14 + u32::from_le_bytes(bytes[10..14].try_into().unwrap()) as usize;
    let json = String::from_utf8(bytes[14..json_end].to_vec()).unwrap();
    let green =
        json.find("color: Green, x: 0,").expect("the green robot") + "color: Green, x: ".len();
    bytes[14 + green] = b'1';
    std::fs::write(&path, &bytes).unwrap();
    for args in readers(&path) {
        let (code, out, err) = run_owned(&args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(
            err.contains(&format!(
                "{} is damaged: its header is damaged (its checksum does not match)",
                shown(&path)
            )),
            "{args:?}: {err}"
        );
        assert!(!out.contains("ended:"), "{args:?}: {out}");
    }
    let (code, _, err) = run(&["trace", "diff", &shown(&path), &shown(&other)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("its header is damaged"), "{err}");
}

#[test]
fn a_flipped_byte_in_the_middle_is_damage_that_every_reader_places() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_block_trace(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    let second = second_block_at(&bytes);
    // A byte in the middle of the first block's events: its footer still says how the search
    // ended, which no reader may repeat as if the trace were whole.
    let first = second_block_at(&bytes) - 1000;
    bytes[first] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let header_end = 14 + u32::from_le_bytes(bytes[10..14].try_into().unwrap()) as usize + 4;
    let place = format!("the block at byte {header_end} is damaged (its checksum does not match)");
    for args in readers(&path) {
        let (code, out, err) = run_owned(&args);
        assert_eq!(code, 1, "{args:?}: {out}{err}");
        assert!(err.contains(" is damaged: "), "{args:?}: {err}");
        assert!(err.contains(&place), "{args:?}: {err}");
        assert!(!out.contains("solved in"), "{args:?}: {out}");
    }
    let (_, info, _) = run(&["trace", "info", &shown(&path)]);
    assert!(
        info.contains(&format!("state:    damaged: {place}")),
        "{info}"
    );
    assert!(second > header_end);
}

#[test]
fn a_trace_cut_off_reads_as_incomplete_never_as_finished() {
    let dir = tempfile::tempdir().unwrap();
    let path = two_block_trace(dir.path());
    let bytes = std::fs::read(&path).unwrap();
    let second = second_block_at(&bytes);
    std::fs::write(&path, &bytes[..second + 100]).unwrap();
    let (code, info, err) = run(&["trace", "info", &shown(&path)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        info.contains(&format!(
            "state:    incomplete: the recording was cut off (the file ends inside the block \
             at byte {second})"
        )),
        "{info}"
    );
    assert!(info.contains("(incomplete)"), "{info}");
    for args in &readers(&path)[1..4] {
        let (code, out, err) = run_owned(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!out.is_empty(), "{args:?}");
        assert!(
            err.contains(&format!("note: {} is incomplete (", shown(&path))),
            "{args:?}: {err}"
        );
    }

    // Cut inside its first block, it holds no event: exporting it is an error, not an empty
    // export that passes for a search with nothing in it.
    let header_end = 14 + u32::from_le_bytes(bytes[10..14].try_into().unwrap()) as usize + 4;
    std::fs::write(&path, &bytes[..header_end + 100]).unwrap();
    for format in ["jsonl", "posthoc"] {
        let (code, out, err) = run(&["trace", "export", &shown(&path), "--format", format]);
        assert_eq!((code, out.as_str()), (1, ""), "{format}: {err}");
        assert!(
            err.contains("holds no event to export (incomplete: "),
            "{err}"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_size_limit_below_the_first_whole_block_leaves_no_file_and_says_so() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    // Below the header (about 1.5 KB on this 16x16 board), then between the header and the
    // end of the first block (64 KiB).
    for limit in [1024u64, 8192] {
        let path = dir.path().join(format!("limited-{limit}.rltrace"));
        let mut command = lab();
        command.args([
            "trace",
            "record",
            "boards/standard-random.ron",
            "-o",
            &shown(&path),
        ]);
        // SAFETY: between fork and exec the closure calls only setrlimit, which is
        // async-signal-safe, and touches no memory of the parent.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let (code, _, err) = text(command.output().unwrap());
        assert_eq!(code, 1, "{limit}: {err}");
        assert!(err.contains("File too large"), "{limit}: {err}");
        assert!(
            err.contains("the file was removed, as no event of the trace had been written whole"),
            "{limit}: {err}"
        );
        assert!(
            !path.exists(),
            "{limit}: a file no command can read is left"
        );
    }
}
