//! Writes that cannot finish and memory that runs out: a closed pipe is a quiet exit, a full
//! disk a message naming the file with nothing half written left behind, and a memory limit
//! bounds what the process holds.

use crate::common::{lab, run, text};
use std::process::Stdio;

#[test]
fn a_closed_pipe_is_a_quiet_exit_and_a_full_disk_a_message_in_every_command() {
    use std::io::{BufRead, BufReader};
    // The reader takes the first line and goes, as `| head -1` does, while the search still
    // prints a row per depth.
    let mut child = lab()
        .args(["solve", "boards/real-21.ron", "--solver", "iddfs"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("Depth: 1, "), "{first}");
    let (code, _, err) = text(child.wait_with_output().unwrap());
    assert_eq!((code, err.as_str()), (0, ""));
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(_) = full() else {
        return;
    };
    for args in [
        &["show", "boards/small-6x6.ron"][..],
        &["solve", "boards/small-6x6.ron"],
        &["solve", "boards/small-6x6.ron", "--json", "--solver", "bfs"],
        &["solve", "boards/small-6x6.ron", "--all-solutions"],
        &["hint", "boards/small-6x6.ron"],
        &["convert", "7650+42+E2302B12+C9", "-"],
        &["random", "--seed", "3"],
        &["solvers"],
        &["distances", "boards/small-6x6.ron", "--robot", "R"],
    ] {
        let out = lab()
            .args(args)
            .stdout(full().unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let (code, _, err) = text(out);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.contains("cannot write the output"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Runs a command in `dir` as on a disk with only `bytes` free: the system lets no file the
/// command writes grow past that size (`RLIMIT_FSIZE`), and the write that would fails as a
/// write to a full disk does.
fn on_a_full_disk(dir: &std::path::Path, bytes: u64, args: &[&str]) -> (i32, String, String) {
    use std::os::unix::process::CommandExt;
    let mut command = lab();
    command.current_dir(dir).args(args);
    // SAFETY: between fork and exec the closure calls only signal and setrlimit, which are
    // async-signal-safe, and touches no memory of the parent.
    unsafe {
        command.pre_exec(move || {
            // Ignored, the signal a write past the limit raises lets the write fail with an
            // error instead of ending the process.
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    text(command.output().unwrap())
}

/// The names in a folder, sorted.
fn names_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_full_disk_leaves_no_half_written_file_and_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let board = |name: &str| format!("{}/boards/{name}", env!("CARGO_MANIFEST_DIR"));
    let (code, _, err) = text(
        lab()
            .current_dir(dir)
            .args(["experiment", "--configs", "6", "--robots", "2"])
            .args(["--solvers", "bfs", "--out", "whole.csv"])
            .output()
            .unwrap(),
    );
    assert_eq!(code, 0, "{err}");
    let before = names_in(dir);
    let real = board("real-21.ron");
    let small = board("small-6x6.ron");
    for (args, file) in [
        (
            &["experiment", "--merge", "merged.csv", "whole.csv"][..],
            "merged.csv",
        ),
        (
            &["experiment", "--configs", "2", "--out", "fresh.csv"],
            "fresh.csv",
        ),
        (&["export", &real, "board.png"], "board.png"),
        (&["export", &real, "board.svg"], "board.svg"),
        (&["convert", &real, "board.ron"], "board.ron"),
        (
            &["random", "--seed", "3", "--out", "dealt.ron"],
            "dealt.ron",
        ),
        (
            &[
                "analyze",
                &small,
                "--deals",
                "2",
                "--top",
                "2",
                "--threads",
                "1",
                "--out",
                "rows.csv",
            ],
            "rows.csv",
        ),
        (
            &["generate", &small, "--moves", "3", "--out-dir", "."],
            ".ron",
        ),
    ] {
        let (code, _, err) = on_a_full_disk(dir, 100, args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains(file) && err.contains("File too large"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        // Nothing half-written under the name asked for, and no temporary file left over.
        assert_eq!(names_in(dir), before, "{args:?}");
    }
}

/// The largest resident memory of any child this test process has waited for, in bytes.
fn children_peak_bytes() -> u64 {
    // SAFETY: getrusage only fills the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) },
        0
    );
    // Linux reports the peak in KiB.
    u64::try_from(usage.ru_maxrss).unwrap() * 1024
}

#[test]
fn a_memory_limit_bounds_what_the_process_holds() {
    // The smaller limit first: the peak is the largest over every child waited for.
    let (code, _, err) = run(&[
        "distances",
        "boards/real-21.ron",
        "--max-depth",
        "30",
        "--memory-limit",
        "16",
    ]);
    assert_eq!(code, 3, "{err}");
    let peak = children_peak_bytes();
    assert!(peak <= 16 << 20, "distances held {} KiB", peak >> 10);
    let (code, out, err) = run(&[
        "solve",
        "boards/hardest-25.ron",
        "--solver",
        "astar",
        "--memory-limit",
        "128",
        "--json",
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(out.contains(r#""outcome":"memory-limit""#), "{out}");
    let peak = children_peak_bytes();
    assert!(peak <= 128 << 20, "astar held {} KiB", peak >> 10);
    // A limit below what the program holds before searching is refused by name.
    let (code, _, err) = run(&["solve", "boards/real-21.ron", "--memory-limit", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--memory-limit 1 MiB is less than"), "{err}");
}
