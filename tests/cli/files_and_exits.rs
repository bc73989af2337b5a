//! The command line as a well-behaved program: writes under a file-size limit, the modes of
//! the files it makes, help into a full device, one exit-code rule for every command, folders
//! of outputs checked before the work, rules a game id cannot hold, bounded bench repeats,
//! opening a puzzle and installing the desktop entry.

use crate::common::{lab, run, run_in, text};
use std::path::{Path, PathBuf};
use std::process::Command;
// Only the Linux tests (signals, file-size limits, full devices) pipe and time a child.
#[cfg(target_os = "linux")]
use std::process::Stdio;
#[cfg(target_os = "linux")]
use std::time::{Duration, Instant};

#[cfg(target_os = "linux")]
fn board(name: &str) -> String {
    format!("{}/boards/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The names in a folder, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs the program through `sh -c` with `setup` (shell commands such as `ulimit -f 0` or
/// `umask 077`) done first, in `dir`, with the file-size signal at the system's default
/// whatever this test process inherited.
#[cfg(target_os = "linux")]
fn run_after(setup: &str, dir: &Path, args: &[&str]) -> (i32, String, String) {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new("sh");
    command
        .current_dir(dir)
        .arg("-c")
        .arg(format!("{setup}; exec \"$0\" \"$@\""))
        .arg(crate::common::PROGRAM)
        .args(args);
    // SAFETY: between fork and exec the closure calls only signal, which is
    // async-signal-safe, and touches no memory of the parent.
    unsafe {
        command.pre_exec(|| {
            libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
            Ok(())
        });
    }
    text(command.output().unwrap())
}

#[cfg(target_os = "linux")]
#[test]
fn a_file_size_limit_is_a_message_naming_the_file_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let (code, _, err) = run_in(
        dir,
        &[
            "experiment",
            "--configs",
            "4",
            "--robots",
            "2",
            "--solvers",
            "bfs",
            "--out",
            "whole.csv",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let before = names_in(dir);
    let real = board("real-21.ron");
    let small = board("small-6x6.ron");
    let cases: [(&[&str], &str); 10] = [
        (
            &["experiment", "--merge", "merged.csv", "whole.csv"],
            "merged.csv",
        ),
        (
            &["experiment", "--configs", "2", "--out", "fresh.csv"],
            "fresh.csv",
        ),
        (&["export", &real, "board.png"], "board.png"),
        (&["export", &real, "board.svg"], "board.svg"),
        (&["convert", &real, "board.ron"], "board.ron"),
        (&["convert", &real, "board.txt"], "board.txt"),
        (
            &["random", "--seed", "3", "--out", "dealt.ron"],
            "dealt.ron",
        ),
        (
            &[
                "analyze", &small, "--deals", "2", "--top", "2", "--out", "rows.csv",
            ],
            "rows.csv",
        ),
        (
            &[
                "analyze",
                &small,
                "--deals",
                "2",
                "--top",
                "2",
                "--save-dir",
                ".",
            ],
            ".ron",
        ),
        (
            &["generate", &small, "--moves", "3", "--out-dir", "."],
            ".ron",
        ),
    ];
    for (args, file) in cases {
        let (code, _, err) = run_after("ulimit -f 0", dir, args);
        assert_eq!(code, 1, "{args:?} was not refused with 1: {err}");
        assert!(
            err.contains(file) && err.contains("File too large"),
            "{args:?}: {err}"
        );
        // No temporary file, no empty results file a re-run would refuse.
        assert_eq!(names_in(dir), before, "{args:?}");
    }
    // A re-run without the limit finds nothing in its way.
    let (code, _, err) = run_in(dir, &["experiment", "--configs", "2", "--out", "fresh.csv"]);
    assert_eq!(code, 0, "{err}");
}

#[cfg(target_os = "linux")]
#[test]
fn written_files_get_the_mode_the_umask_gives() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let real = board("real-21.ron");
    for (umask, mode) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let made = [
            format!("board-{umask}.ron"),
            format!("board-{umask}.png"),
            format!("rows-{umask}.csv"),
        ];
        for args in [
            vec!["convert", &real, &made[0]],
            vec!["export", &real, &made[1]],
            vec!["experiment", "--configs", "1", "--out", &made[2]],
        ] {
            let (code, _, err) = run_after(&format!("umask {umask}"), dir, &args);
            assert_eq!(code, 0, "{args:?}: {err}");
        }
        for name in &made {
            let found = std::fs::metadata(dir.join(name))
                .unwrap()
                .permissions()
                .mode()
                & 0o777;
            assert_eq!(found, mode, "{name} under umask {umask}: {found:o}");
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn help_and_version_into_a_full_device_are_a_write_error() {
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(_) = full() else {
        return;
    };
    for args in [
        &["--help"][..],
        &["-h"],
        &["--version"],
        &["-V"],
        &["solve", "--help"],
        &["help"],
        &["help", "generate"],
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
    }
    // Into a pipe they still print and succeed.
    let (code, out, _) = run(&["--version"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("ricochet-lab "), "{out}");
}

#[test]
fn every_value_out_of_range_is_a_usage_error_naming_the_range() {
    let small = board("small-6x6.ron");
    let real = board("real-21.ron");
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("board.svg");
    let svg = svg.to_str().unwrap();
    let cases: [(&[&str], &str); 17] = [
        (&["generate", &real, "--moves", "0"], "1..=60"),
        (&["generate", &real, "--moves", "61"], "1..=60"),
        (&["generate", &real, "--moves", "4294967296"], "1..=60"),
        (
            &["generate", &real, "--moves", "3", "--robots", "6"],
            "1..=5",
        ),
        (&["generate", &real, "--moves", "3", "--count", "0"], "1.."),
        (&["generate", &small, "--moves", "3"], "--out-dir"),
        (&["export", &real, svg, "--size-mm", "0"], "20..=2000"),
        (&["export", &real, svg, "--dpi", "49"], "50..=1200"),
        (&["random", "--robots", "6"], "1..=5"),
        (&["accuracy", "--solver", "bfs", "--robots", "0"], "1..=5"),
        (&["analyze", &small, "--deals", "0"], "1.."),
        (&["bench", "--repeat", "0"], "1..=1000"),
        (&["bench", "--repeat", "1000000000"], "1..=1000"),
        (&["solve", &small, "--memory-limit", "0"], "--memory-limit"),
        (
            &["solve", &small, "--solver", "dls", "--depth-limit", "1001"],
            "1..=1000",
        ),
        (&["distances", &small, "--robot", "Q"], "--robot"),
        (&["screenshot", "no-such-view", "x.png"], "no-such-view"),
    ];
    for (args, range) in cases {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(range), "{args:?}: {err}");
        assert!(!dir.path().join("board.svg").exists(), "{args:?}");
    }
    // The rules of the board set the least length: the ricochet rule takes no 1-move answer.
    let ruled = dir.path().join("ruled.ron");
    std::fs::write(&ruled, with_ricochet(&real)).unwrap();
    let (code, _, err) = run(&[
        "generate",
        ruled.to_str().unwrap(),
        "--moves",
        "1",
        "--out-dir",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("between 2 and 60"), "{err}");
    // A failure that is not the arguments' stays 1, a cancelled or stopped run 3.
    let (code, _, _) = run(&["show", "boards/nothing-here.ron"]);
    assert_eq!(code, 1);
    let (code, _, _) = run(&["solve", &board("hardest-25.ron"), "--time-limit", "0.2"]);
    assert_eq!(code, 3);
}

/// The text of a .ron puzzle file with the ricochet rule switched on.
fn with_ricochet(path: &str) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("ricochet: false"), "{path}");
    text.replace("ricochet: false", "ricochet: true")
}

#[test]
fn a_puzzle_with_rules_is_never_printed_as_a_game_id_that_loses_them() {
    let dir = tempfile::tempdir().unwrap();
    let ruled = dir.path().join("ruled.ron");
    std::fs::write(&ruled, with_ricochet(&board("real-21.ron"))).unwrap();
    let ruled = ruled.to_str().unwrap();
    let (code, out, err) = run(&["convert", ruled, "-"]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("a game id carries no rules"), "{err}");
    assert!(err.contains("ricochet rule"), "{err}");
    let (code, out, _) = run(&["show", ruled]);
    assert_eq!(code, 0);
    assert!(
        out.contains("game id: none (a game id carries no rules"),
        "{out}"
    );
    // generate writes .ron files, which keep the rule, and asks for a folder to write them.
    let (code, _, err) = run(&["generate", ruled, "--moves", "2", "--seed", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("a game id carries no rules") && err.contains("--out-dir"),
        "{err}"
    );
    let folder = dir.path().join("positions");
    let (code, out, err) = run(&[
        "generate",
        ruled,
        "--moves",
        "2",
        "--seed",
        "3",
        "--out-dir",
        folder.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let written = out.split_whitespace().next().unwrap();
    assert!(written.ends_with(".ron"), "{out}");
    let (code, out, err) = run(&["solve", written, "--solver", "bfs", "--json"]);
    assert_eq!(code, 0, "{err}");
    let solved: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(solved["moves"], 2, "{out}");
    // The analyser names its hardest positions without a game id, and says why.
    let (code, out, err) = run(&[
        "analyze",
        ruled,
        "--deals",
        "1",
        "--top",
        "1",
        "--threads",
        "1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("a game id carries no rules"), "{out}");
}

#[test]
fn folders_of_an_earlier_run_are_refused_before_the_work_and_replaced_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let small = board("small-6x6.ron");
    let generate = ["generate", &small, "--moves", "3", "--out-dir", folder];
    let (code, out, err) = run(&generate);
    assert_eq!(code, 0, "{err}");
    let first = names_in(dir.path());
    assert_eq!(first.len(), 1, "{out}");
    // A second run is refused before it searches: no walks were made.
    let (code, _, err) = run(&generate);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&first[0]) && err.contains("--force"), "{err}");
    assert!(!err.contains("walks"), "{err}");
    let mut forced = generate.to_vec();
    forced.push("--force");
    let (code, _, err) = run(&forced);
    assert_eq!(code, 0, "{err}");
    assert_eq!(names_in(dir.path()), first);

    let analyze = [
        "analyze",
        &small,
        "--deals",
        "2",
        "--top",
        "2",
        "--threads",
        "1",
        "--save-dir",
        folder,
    ];
    let (code, _, err) = run(&analyze);
    assert_eq!(code, 0, "{err}");
    let saved = names_in(dir.path());
    assert_eq!(saved.len(), 3, "{saved:?}");
    let (code, out, err) = run(&analyze);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("hardest-01-") && err.contains("--force"),
        "{err}"
    );
    assert!(out.is_empty(), "the analysis ran: {out}");
    let mut forced = analyze.to_vec();
    forced.push("--force");
    let (code, _, err) = run(&forced);
    assert_eq!(code, 0, "{err}");
    assert_eq!(names_in(dir.path()), saved);
    // A file where the folder should be is named as such, before the work too.
    let file = dir.path().join(&first[0]);
    let (code, _, err) = run(&[
        "generate",
        &small,
        "--moves",
        "3",
        "--out-dir",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("is not a folder"), "{err}");
}

#[test]
fn bench_repeats_are_bounded_and_a_ctrl_c_ends_a_long_series_at_once() {
    let (code, _, err) = run(&["bench", "--repeat", "1001"]);
    assert_eq!(code, 2);
    assert!(err.contains("1..=1000"), "{err}");
    #[cfg(target_os = "linux")]
    {
        use std::io::{BufRead, BufReader};
        // A folder of one small puzzle, solved a thousand times, then the reference games.
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(board("small-6x6.ron"), dir.path().join("small-6x6.ron")).unwrap();
        let mut child = lab()
            .args(["bench", "--solvers", "bfs", "--repeat", "1000", "--boards"])
            .arg(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut errors = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        errors.read_line(&mut line).unwrap();
        assert!(line.contains("small-6x6"), "{line}");
        std::thread::sleep(Duration::from_millis(200));
        let signalled = Instant::now();
        // SAFETY: kill only sends a signal to the child this test started.
        assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
        let status = child.wait().unwrap();
        let took = signalled.elapsed();
        assert_eq!(status.code(), Some(3));
        // Generous for a loaded machine; the series left would take far longer.
        assert!(took < Duration::from_secs(2), "{took:?}");
    }
}

#[test]
fn a_puzzle_argument_opens_the_app_and_a_word_that_is_none_is_refused() {
    let (code, _, err) = run(&["slove", "boards/small-6x6.ron"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["slove"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("neither a command (solve,"), "{err}");
    let (code, _, err) = run(&["boards/nothing-here.ron"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no such file"), "{err}");
    let (code, _, err) = run(&["7650+42+E2302B12+00"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no target"), "{err}");
    // With no display the window cannot open, which shows the file got past the parser.
    let (code, _, err) = text(
        lab()
            .arg("boards/real-21.ron")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .unwrap(),
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the window could not be opened"), "{err}");
}

/// Runs `install-desktop` with `XDG_DATA_HOME` set to `data`.
fn install(data: &Path, uninstall: bool) -> (i32, String, String) {
    let mut command = lab();
    command.env("XDG_DATA_HOME", data).arg("install-desktop");
    if uninstall {
        command.arg("--uninstall");
    }
    text(command.output().unwrap())
}

/// Every file of ours under a folder (not the desktop's caches), by its path relative to it,
/// with its bytes.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(root: &Path, dir: &Path, into: &mut Vec<(PathBuf, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, into);
            } else if path.to_string_lossy().contains("ricochet-lab") {
                let relative = path.strip_prefix(root).unwrap().to_path_buf();
                into.push((relative, std::fs::read(&path).unwrap()));
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files);
    files.sort();
    files
}

#[test]
fn install_desktop_writes_the_entry_type_and_icons_again_and_again_and_removes_them() {
    let data = tempfile::tempdir().unwrap();
    let data = data.path();
    let (code, out, err) = install(data, false);
    assert_eq!(code, 0, "{err}");
    let entry = std::fs::read_to_string(data.join("applications/ricochet-lab.desktop")).unwrap();
    assert!(entry.starts_with("[Desktop Entry]\n"), "{entry}");
    assert!(
        entry.contains("\nMimeType=application/x-ricochet-lab-puzzle;"),
        "{entry}"
    );
    assert!(entry.contains("\nIcon=ricochet-lab\n"), "{entry}");
    let exec = entry.lines().find_map(|l| l.strip_prefix("Exec=")).unwrap();
    assert!(exec.ends_with(" %f"), "{exec}");
    let program = std::fs::canonicalize(crate::common::PROGRAM).unwrap();
    assert!(exec.contains(program.to_str().unwrap()), "{exec}");
    let mime = std::fs::read_to_string(data.join("mime/packages/ricochet-lab.xml")).unwrap();
    assert!(mime.contains(r#"<glob pattern="*.ron"/>"#), "{mime}");
    for size in [64, 128, 256] {
        let icon = data.join(format!("icons/hicolor/{size}x{size}/apps/ricochet-lab.png"));
        let image = image::open(&icon).unwrap();
        assert_eq!((image.width(), image.height()), (size, size));
        assert!(out.contains(icon.to_str().unwrap()), "{out}");
    }
    // Again: the same files, nothing more.
    let before = tree(data);
    let (code, _, err) = install(data, false);
    assert_eq!(code, 0, "{err}");
    assert_eq!(tree(data), before);
    // Uninstalled: none of them is left, twice over.
    for _ in 0..2 {
        let (code, _, err) = install(data, true);
        assert_eq!(code, 0, "{err}");
        let left: Vec<PathBuf> = tree(data).into_iter().map(|(path, _)| path).collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
