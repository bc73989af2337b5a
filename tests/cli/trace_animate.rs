//! `ricochet-lab trace animate` as a user runs it: a recorded search's nodes between two events
//! as a GIF of one frame per node or as numbered frames, and the ranges, formats and outputs it
//! refuses, each with the file named and nothing written.

use crate::common::run;
use std::path::Path;

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// Records IDDFS's search of the small shipped board to `path`.
fn record(path: &Path) {
    let (code, out, err) = run(&[
        "trace",
        "record",
        "boards/small-6x6.ron",
        "--solver",
        "iddfs",
        "-o",
        &shown(path),
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

/// The number of node events from `from` to `to`, as `trace events` prints them.
fn nodes_between(trace: &Path, from: u64, to: u64) -> usize {
    let count = (to - from + 1).to_string();
    let (code, out, err) = run(&[
        "trace",
        "events",
        &shown(trace),
        "--from",
        &from.to_string(),
        "--count",
        &count,
    ]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .filter(|line| line.contains("\"kind\":\"node\""))
        .count()
}

#[test]
fn trace_animate_writes_one_frame_per_node_between_the_two_events() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("small.rltrace");
    record(&trace);
    let nodes = nodes_between(&trace, 0, 30);
    assert!(nodes > 1, "{nodes} nodes");
    let gif = dir.path().join("steps.gif");
    let (code, out, err) = run(&[
        "trace",
        "animate",
        &shown(&trace),
        "--from",
        "0",
        "--to",
        "30",
        "-o",
        &shown(&gif),
        "--size",
        "200",
        "--delay",
        "100",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("{nodes} nodes of events 0 to 30")),
        "{out}"
    );
    let bytes = std::fs::read(&gif).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
    // The longer side is the one asked for: the height, with the caption under the board.
    let (width, height) = (
        u16::from_le_bytes([bytes[6], bytes[7]]),
        u16::from_le_bytes([bytes[8], bytes[9]]),
    );
    assert_eq!(height, 200);
    assert!(width < height, "{width}x{height}");
    let frames = dir.path().join("frames");
    let (code, out, err) = run(&[
        "trace",
        "animate",
        &shown(&trace),
        "--from",
        "0",
        "--to",
        "30",
        "-o",
        &shown(&frames),
        "--frames",
        "--side-px",
        "64",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("{nodes} PNG frames")), "{out}");
    assert_eq!(std::fs::read_dir(&frames).unwrap().count(), nodes);
}

#[test]
fn trace_animate_refuses_bad_ranges_and_outputs_with_the_file_named() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("small.rltrace");
    record(&trace);
    let gif = dir.path().join("steps.gif");
    let animate = |from: &str, to: &str, out: &Path, extra: &[&str]| {
        let mut args = vec![
            "trace".to_string(),
            "animate".to_string(),
            shown(&trace),
            "--from".into(),
            from.into(),
            "--to".into(),
            to.into(),
            "-o".into(),
            shown(out),
        ];
        args.extend(extra.iter().map(|a| a.to_string()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&args)
    };
    let (code, _, err) = animate("9", "3", &gif, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("runs backwards"), "{err}");
    let (code, _, err) = animate("0", "99999999", &gif, &[]);
    assert_eq!(code, 1);
    assert!(
        err.contains(&shown(&trace)) && err.contains("no event 99999999"),
        "{err}"
    );
    let (code, _, err) = animate("0", "5", &dir.path().join("steps.bmp"), &[]);
    assert_eq!(code, 1);
    assert!(err.contains("steps.bmp must end in .gif or .png"), "{err}");
    let (code, _, err) = animate("0", "5", &gif, &["--delay-ms", "5"]);
    assert_eq!(code, 2, "{err}");
    let missing = dir.path().join("no-such-folder").join("steps.gif");
    let (code, _, err) = animate("0", "5", &missing, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("no-such-folder"), "{err}");
    assert!(!gif.exists() && !missing.exists());
    // An existing file is kept unless --force is given.
    std::fs::write(&gif, b"mine").unwrap();
    let (code, _, err) = animate("0", "5", &gif, &[]);
    assert_eq!(code, 1);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read(&gif).unwrap(), b"mine");
    let (code, _, err) = animate("0", "5", &gif, &["--force"]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(&gif).unwrap().starts_with(b"GIF89a"));
}

/// Runs `trace animate` in `dir` under a file-size limit of zero, with the file-size signal at
/// the system's default, so a write fails as on a full disk.
#[cfg(target_os = "linux")]
fn animate_with_no_room(dir: &Path, args: &[&str]) -> (i32, String, String) {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new("sh");
    command
        .current_dir(dir)
        .arg("-c")
        .arg("ulimit -f 0; exec \"$0\" \"$@\"")
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
    crate::common::text(command.output().unwrap())
}

#[cfg(target_os = "linux")]
#[test]
fn trace_animate_with_no_room_names_the_output_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("small.rltrace");
    record(&trace);
    for (out, frames) in [("steps.gif", false), ("frames", true)] {
        let mut args = vec![
            "trace",
            "animate",
            "small.rltrace",
            "--from",
            "0",
            "--to",
            "20",
            "--side-px",
            "64",
            "-o",
            out,
        ];
        if frames {
            args.push("--frames");
        }
        let (code, _, err) = animate_with_no_room(dir.path(), &args);
        assert_eq!(code, 1, "{out}: {err}");
        assert!(err.contains(out) && err.contains("File too large"), "{err}");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, ["small.rltrace"], "{out}");
    }
}
