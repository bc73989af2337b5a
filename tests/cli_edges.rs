//! The command line at its edges: limits that are honoured or refused, signals that cancel
//! cleanly, files that are not overwritten unasked, inputs that are not files, and errors that
//! say where.

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn lab() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ricochet-lab"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = lab().args(args).output().unwrap();
    text(out)
}

fn text(out: Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("1 to 1000"), "{err}");
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
    assert_eq!(code, 1);
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
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("1 to 255"), "{err}");
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

#[cfg(unix)]
fn interrupted(signal: i32, json: bool) -> (i32, String, String) {
    let mut args = vec!["solve", "boards/hardest-25.ron", "--solver", "iddfs"];
    if json {
        args.push("--json");
    }
    let child = lab()
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Long enough for the handler to be in place and the search to be under way.
    std::thread::sleep(Duration::from_millis(700));
    // SAFETY: kill only sends a signal to the child this test started.
    let sent = unsafe { libc::kill(child.id() as i32, signal) };
    assert_eq!(sent, 0);
    let started = Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    text(out)
}

#[cfg(unix)]
#[test]
fn ctrl_c_and_sigterm_cancel_a_solve_and_report_it() {
    for signal in [libc::SIGINT, libc::SIGTERM] {
        let (code, out, err) = interrupted(signal, true);
        assert_eq!(code, 3, "signal {signal}: {out}{err}");
        let value: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(value["outcome"], "cancelled", "{value}");
        assert!(value["nodes"].as_u64().unwrap() > 0);
    }
    let (code, out, _) = interrupted(libc::SIGINT, false);
    assert_eq!(code, 3);
    assert!(out.starts_with("Depth: 1, Nodes: "), "{out}");
    let last = out.lines().last().unwrap();
    assert!(last.starts_with("cancelled after "), "{out}");
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
        last.starts_with("claimed 23 moves, replay failed at move 8"),
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
