//! The command line at its edges: limits that are honoured or refused, signals that cancel
//! cleanly, files that are not overwritten unasked, inputs that are not files, and errors that
//! say where.

use crate::common::{lab, run, text};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

// Signals, file-size limits, /dev/full and the memory a child holds are reached through
// Linux's own calls and files.
#[cfg(target_os = "linux")]
mod failed_writes;
#[cfg(target_os = "linux")]
mod signals;

/// Runs a command that must end by itself within `seconds`, killing it otherwise.
fn run_within(args: &[&str], seconds: u64) -> (i32, String, String) {
    let mut child = lab()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(seconds) {
            child.kill().unwrap();
            panic!("{args:?} still ran after {seconds} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    text(child.wait_with_output().unwrap())
}

#[test]
fn dls_cut_while_trimming_reports_the_time_limit_not_a_solution() {
    let (code, out, _) = run_within(
        &[
            "solve",
            "boards/small-6x6.ron",
            "--solver",
            "dls",
            "--depth-limit",
            "1000",
            "--time-limit",
            "1",
            "--json",
        ],
        20,
    );
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["outcome"], "time-limit", "{value}");
    assert_eq!(value["solution"].as_array().unwrap().len(), 0);
    assert_eq!(code, 3);
}

#[test]
fn depth_limits_a_solver_cannot_use_are_refused() {
    let (code, out, err) = run_within(
        &[
            "solve",
            "boards/small-6x6.ron",
            "--solver",
            "dls",
            "--depth-limit",
            "10000000",
            "--time-limit",
            "3",
        ],
        10,
    );
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("1..=1000"), "{err}");
    let (code, _, err) = run(&["solve", "boards/small-6x6.ron", "--depth-limit", "0"]);
    assert_ne!(code, 0);
    assert!(err.contains("--depth-limit"), "{err}");
    let (code, _, err) = run(&[
        "solve",
        "boards/small-6x6.ron",
        "--solver",
        "bfs",
        "--depth-limit",
        "5",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("takes no depth limit"), "{err}");
    // The iterative-deepening solvers record depths in a byte.
    for solver in ["iddfs", "fast"] {
        let (code, _, err) = run(&[
            "solve",
            "boards/small-6x6.ron",
            "--solver",
            solver,
            "--depth-limit",
            "256",
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("1..=255"), "{err}");
    }
}

#[test]
fn nonsense_limits_are_refused() {
    for arg in [
        "--time-limit=0",
        "--time-limit=-1",
        "--time-limit=NaN",
        "--time-limit=inf",
        "--memory-limit=0",
    ] {
        let (code, out, err) = run(&["solve", "boards/small-6x6.ron", arg]);
        assert_ne!(code, 0, "{arg} was accepted: {out}");
        let name = arg.split('=').next().unwrap();
        assert!(err.contains(name), "{arg}: {err}");
    }
}

#[test]
fn writers_refuse_an_existing_file_unless_forced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    let path_arg = path.to_str().unwrap();
    std::fs::write(&path, "keep me").unwrap();
    let (code, _, err) = run(&["convert", "7650+42+E2302B12+C9", path_arg]);
    assert_eq!(code, 1);
    assert!(
        err.contains("already exists") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep me");
    let (code, _, err) = run(&["random", "--seed", "3", "--out", path_arg]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep me");
    // With --force the file is replaced, and keeps its mode.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let (code, _, err) = run(&["convert", "7650+42+E2302B12+C9", path_arg, "--force"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .starts_with("board 16 16")
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{mode:o}");
    }
    let ron = dir.path().join("dealt.ron");
    let (code, _, err) = run(&["random", "--seed", "3", "--out", ron.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let (code, _, _) = run(&[
        "random",
        "--seed",
        "4",
        "--out",
        ron.to_str().unwrap(),
        "--force",
    ]);
    assert_eq!(code, 0);
}

#[test]
fn convert_names_an_unsupported_output_as_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let (code, _, err) = run(&["convert", "boards/small-6x6.ron", out.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot write"), "{err}");
    assert!(err.contains("output's extension must be .ron"), "{err}");
    assert!(!out.exists());
}

#[cfg(unix)]
#[test]
fn devices_pipes_and_huge_files_fail_fast() {
    let dir = tempfile::tempdir().unwrap();
    for (name, target) in [("z.ron", "/dev/zero"), ("u.txt", "/dev/urandom")] {
        let link = dir.path().join(name);
        std::os::unix::fs::symlink(target, &link).unwrap();
        let (code, _, err) = run_within(&["show", link.to_str().unwrap()], 5);
        assert_eq!(code, 1);
        assert!(err.contains("a device, not a regular file"), "{err}");
    }
    let fifo = dir.path().join("pipe.ron");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let (code, _, err) = run_within(&["show", fifo.to_str().unwrap()], 5);
    assert_eq!(code, 1);
    assert!(err.contains("named pipe"), "{err}");
    let big = dir.path().join("big.ron");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let (code, _, err) = run_within(&["show", big.to_str().unwrap()], 5);
    assert_eq!(code, 1);
    assert!(err.contains("larger than 4 MiB"), "{err}");
    // Standard input is read too, with the same cap.
    let mut child = lab()
        .args(["show", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"7650+42+E2302B12+C9\n")
        .unwrap();
    let (code, out, _) = text(child.wait_with_output().unwrap());
    assert_eq!(code, 0);
    assert!(out.contains("game id: 7650+42+E2302B12+C9"), "{out}");
}

#[test]
fn errors_name_the_place_and_escape_the_input() {
    let (code, _, err) = run(&["show", "7650+42+E2302B1G+C9"]);
    assert_eq!(code, 1);
    assert!(err.contains("'G' at position 16"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.ron");
    let mut bytes =
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/boards/small-6x6.ron")).unwrap();
    bytes.splice(20..20, [0xC3, 0x28]);
    std::fs::write(&path, &bytes).unwrap();
    let (code, _, err) = run(&["show", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("(byte 20)") && err.contains("not UTF-8"),
        "{err}"
    );
    let path = dir.path().join("wide.ron");
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/boards/small-6x6.ron"))
            .unwrap()
            .replace("width: 6", "width: 1000000");
    std::fs::write(&path, text).unwrap();
    let (_, _, err) = run(&["show", path.to_str().unwrap()]);
    assert!(err.contains("width") && err.contains("1 to 64"), "{err}");
    let path = dir.path().join("escape.txt");
    std::fs::write(&path, "board 2 2\n\u{1b}[2J C\nC C\n").unwrap();
    let (_, _, err) = run(&["show", path.to_str().unwrap()]);
    assert!(
        !err.contains('\u{1b}') && err.contains("\\u{1b}"),
        "{err:?}"
    );
}

#[test]
fn stateless_failed_claim_is_not_printed_as_a_move_line() {
    let (code, out, _) = run(&["solve", "boards/fogleman-22.ron", "--solver", "stateless"]);
    assert_eq!(code, 4, "{out}");
    let last = out.lines().last().unwrap();
    assert!(
        last.starts_with(
            "stateless claimed a solution of 23 moves, but its replay failed at move 8"
        ),
        "{out}"
    );
    let is_move_line = |line: &str| {
        line.split(", ").all(|mv| {
            let b = mv.as_bytes();
            b.len() == 2 && b"RGBYK".contains(&b[0]) && b"NESW".contains(&b[1])
        })
    };
    assert!(!out.lines().any(is_move_line), "{out}");
}

#[test]
fn hint_levels_add_to_each_other_and_name_the_fewest_robots() {
    // 1,854 optimal solutions: the hint is the first of all of them, which moves three robots.
    let (code, out, err) = run(&["hint", "F142+42+EEE17E96+29", "--level", "4"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Moves: 11", "{out}");
    assert_eq!(lines[1].matches(',').count(), 2, "three robots: {out}");
    assert!(lines[2].starts_with("First move: "), "{out}");
    assert!(lines[3].starts_with("Solution: "), "{out}");
    let (code, out, _) = run(&["hint", "boards/small-6x6.ron", "--level", "3"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].starts_with("Robots: "), "{out}");
    assert!(lines[2].starts_with("First move: "), "{out}");
}

#[test]
fn time_limits_past_the_clock_are_no_limit_or_a_clear_refusal_in_every_command() {
    // Fits a duration but not the clock: no limit, and the command does its work.
    for args in [
        &["solve", "boards/small-6x6.ron", "--time-limit", "1e19"][..],
        &["hint", "boards/small-6x6.ron", "--time-limit", "1e19"],
        &["distances", "boards/small-6x6.ron", "--time-limit", "1e19"],
    ] {
        let (code, out, err) = run_within(args, 60);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
    }
    // Past what a duration counts: refused by the one parser every command uses, naming the
    // option, before any work.
    for args in [
        &["solve", "boards/small-6x6.ron", "--time-limit", "1e20"][..],
        &["hint", "boards/small-6x6.ron", "--time-limit", "1e20"],
        &["distances", "boards/small-6x6.ron", "--time-limit", "1e20"],
        &["accuracy", "--solver", "fast", "--time-limit", "1e20"],
        &["bench", "--time-limit", "1e20"],
        &["experiment", "--time-limit", "1e20"],
        &["analyze", "boards/small-6x6.ron", "--solve-limit", "1e20"],
        &[
            "analyze",
            "boards/small-6x6.ron",
            "--hardest",
            "--time-limit",
            "1e20",
        ],
    ] {
        let (code, out, err) = run_within(args, 20);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(
            err.contains("longer than a clock counts"),
            "{args:?}: {err}"
        );
        assert!(err.contains(args[args.len() - 2]), "{args:?}: {err}");
    }
    let (code, _, err) = run(&["accuracy", "--solver", "fast", "--time-limit", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a positive number of seconds"), "{err}");
}

#[test]
fn a_depth_limited_search_never_reports_a_proof_it_did_not_make() {
    // The optimum is 5: below it, the search proves only that nothing is that short.
    for solver in ["dls", "iddfs", "fast"] {
        let (code, out, err) = run(&[
            "solve",
            "boards/small-6x6.ron",
            "--solver",
            solver,
            "--depth-limit",
            "3",
            "--json",
        ]);
        assert_eq!(code, 0, "{solver}: {err}");
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value["outcome"], "none-within", "{solver}: {value}");
        assert_eq!(value["within"], 3, "{solver}: {value}");
    }
}

#[test]
fn thread_counts_are_refused_at_zero_and_past_a_few_per_core_in_every_command() {
    let commands: [&[&str]; 4] = [
        &["solve", "boards/small-6x6.ron", "--solver", "fast"],
        &["bench", "--solvers", "fast"],
        &["analyze", "boards/small-6x6.ron", "--deals", "1"],
        &["experiment", "--configs", "1"],
    ];
    for command in commands {
        for threads in ["0", "100000"] {
            let mut args = command.to_vec();
            args.extend(["--threads", threads]);
            let (code, out, err) = run_within(&args, 20);
            assert_eq!(code, 2, "{args:?}: {out}{err}");
            assert!(err.contains("--threads"), "{args:?}: {err}");
        }
    }
    let (_, _, err) = run(&["solve", "boards/small-6x6.ron", "--threads", "100000"]);
    assert!(err.contains("for each of the"), "{err}");
}

#[test]
fn analyze_writes_only_what_it_is_asked_to_and_replaces_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let board = format!("{}/boards/small-6x6.ron", env!("CARGO_MANIFEST_DIR"));
    let analyze = |extra: &[&str]| {
        let out = lab()
            .current_dir(dir.path())
            .args([
                "analyze",
                &board,
                "--deals",
                "2",
                "--top",
                "2",
                "--threads",
                "1",
            ])
            .args(extra)
            .output()
            .unwrap();
        text(out)
    };
    // A 6x6 board has no game id: nothing is saved unasked.
    let (code, out, err) = analyze(&[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("give --save-dir"), "{out}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // An existing --out is refused before the work, and kept.
    let csv = dir.path().join("rows.csv");
    std::fs::write(&csv, "keep me").unwrap();
    let (code, _, err) = analyze(&["--out", "rows.csv"]);
    assert_eq!(code, 1);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "keep me");
    let (code, _, err) = analyze(&["--out", "rows.csv", "--force"]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&csv).unwrap().lines().count() > 2);
    // Saved positions likewise.
    let (code, _, err) = analyze(&["--save-dir", "saved"]);
    assert_eq!(code, 0, "{err}");
    let saved = std::fs::read_dir(dir.path().join("saved")).unwrap().count();
    assert_eq!(saved, 2);
    let (code, _, err) = analyze(&["--save-dir", "saved"]);
    assert_eq!(code, 1);
    assert!(err.contains("already holds hardest-01-"), "{err}");
    let (code, _, err) = analyze(&["--save-dir", "saved", "--force"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn analyze_says_how_many_positions_a_limit_stopped_and_exits_as_stopped() {
    let (code, out, err) = run_within(
        &[
            "analyze",
            "boards/real-21.ron",
            "--deals",
            "3",
            "--threads",
            "1",
            "--solve-limit",
            "0.000001",
        ],
        60,
    );
    assert_eq!(code, 3, "{out}{err}");
    let first = out.lines().next().unwrap();
    assert!(first.contains(" of 51 positions"), "{out}");
    assert!(!first.starts_with("51 of 51"), "{out}");
    assert!(out.contains("stopped by a limit"), "{out}");
    assert!(err.contains("stopped by a limit"), "{err}");
}

#[test]
fn bench_refuses_no_repeats_and_claims_agreement_only_after_comparing() {
    let (code, _, err) = run(&["bench", "--repeat", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--repeat"), "{err}");
    // Every run on a hard puzzle stops at once: nothing was compared, and the bench says so.
    let dir = tempfile::tempdir().unwrap();
    let board = format!("{}/boards/hardest-25.ron", env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(board, dir.path().join("hardest-25.ron")).unwrap();
    let (code, out, err) = run_within(
        &[
            "bench",
            "--solvers",
            "fast,iddfs",
            "--time-limit",
            "0.000001",
            "--boards",
            dir.path().to_str().unwrap(),
        ],
        120,
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("agree on every move count"), "{out}");
    assert!(out.contains("no move counts were compared"), "{out}");
}

#[test]
fn an_experiment_depth_limit_binds_the_compared_solvers_not_the_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.csv");
    let out = out.to_str().unwrap();
    let (code, _, err) = run(&[
        "experiment",
        "--configs",
        "1",
        "--solvers",
        "dls",
        "--depth-limit",
        "0",
        "--out",
        out,
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run_within(
        &[
            "experiment",
            "--configs",
            "4",
            "--solvers",
            "dls",
            "--depth-limit",
            "3",
            "--out",
            out,
        ],
        120,
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(out).unwrap();
    // Every row has the baseline's required move count, found at any depth.
    for row in text.lines().skip(1) {
        let required = row.split(',').nth(4).unwrap();
        assert!(!required.is_empty(), "{text}");
    }
}

#[test]
fn screenshot_refuses_other_formats_and_missing_folders_before_rendering() {
    let dir = tempfile::tempdir().unwrap();
    let jpg = dir.path().join("editor.jpg");
    let (code, _, err) = run(&["screenshot", "editor", jpg.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(".png name"), "{err}");
    let missing = dir.path().join("no/such/folder/editor.png");
    let (code, _, err) = run(&["screenshot", "editor", missing.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("does not exist"), "{err}");
    assert!(!dir.path().join("no").exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn writing_to_a_directory_or_a_device_says_it_cannot_write_there() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("folder.ron");
    std::fs::create_dir(&folder).unwrap();
    let device = dir.path().join("device.ron");
    std::os::unix::fs::symlink("/dev/null", &device).unwrap();
    for target in [folder.to_str().unwrap(), device.to_str().unwrap()] {
        for force in [false, true] {
            let mut args = vec!["convert", "boards/small-6x6.ron", target];
            if force {
                args.push("--force");
            }
            let (code, _, err) = run(&args);
            assert_eq!(code, 1, "{args:?}: {err}");
            assert!(err.contains("not a regular file"), "{args:?}: {err}");
            assert!(err.contains("is written to"), "{args:?}: {err}");
            assert!(!err.contains("puzzles are read"), "{args:?}: {err}");
        }
    }
}

#[test]
fn threads_given_to_a_single_threaded_solver_are_refused_not_ignored() {
    let (code, _, err) = run(&[
        "solve",
        "boards/small-6x6.ron",
        "--solver",
        "iddfs",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("applies to fast and to the listing"), "{err}");
    let (code, _, err) = run(&[
        "solve",
        "boards/small-6x6.ron",
        "--solver",
        "fast",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    // The listing of every optimal solution runs on the threads given, whatever the solver.
    let (code, out, err) = run(&[
        "solve",
        "boards/small-6x6.ron",
        "--solver",
        "iddfs",
        "--all-solutions",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("optimal solution"), "{out}");
}

#[test]
fn a_game_id_with_a_byte_order_mark_or_a_wide_space_is_refused_by_name() {
    for (id, code) in [
        ("\u{feff}7650+42+E2302B12+C9", "U+FEFF"),
        ("7650+42+E2302B12+C9\u{3000}", "U+3000"),
        ("\u{a0}7650+42+E2302B12+C9", "U+00A0"),
    ] {
        for command in ["show", "solve"] {
            let (status, out, err) = run(&[command, id]);
            assert_eq!(status, 1, "{command} {id:?}: {out}{err}");
            assert!(err.contains(code), "{command} {id:?}: {err}");
        }
    }
    let (status, _, err) = run(&["show", "7650+42+E2302B12+C9"]);
    assert_eq!(status, 0, "{err}");
}
