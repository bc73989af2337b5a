//! Experiments beyond one machine: four shards merged read like one run.

use crate::common::lab;
use std::path::Path;

/// Runs the program with `args` from `dir`, which must succeed; returns its standard output.
fn succeeded(dir: &Path, args: &[&str]) -> String {
    let out = lab().args(args).current_dir(dir).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The tables up to the timing tables, which differ from run to run.
fn counted_tables(report: &str) -> &str {
    &report[..report.find("Table 1").expect("the report has Table 1")]
}

/// The rows without their times, in file order, after the study's description line.
fn rows_without_times(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("# study: "), "{text}");
    lines
        .map(|line| {
            let mut fields: Vec<&str> = line.split(',').collect();
            fields.remove(7);
            fields.join(",")
        })
        .collect()
}

#[test]
fn four_merged_shards_give_the_tables_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/small-6x6.ron");
    let board = board.to_str().unwrap();
    let common = [
        "experiment",
        "--configs",
        "200",
        "--board",
        board,
        "--robots",
        "3",
        "--solvers",
        "bfs,iddfs,astar",
        "--time-limit",
        "10",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        common
            .iter()
            .chain(extra)
            .map(ToString::to_string)
            .collect()
    };
    let run = |extra: &[&str]| {
        let args = with(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        succeeded(dir.path(), &args)
    };
    let single = run(&["--out", "single.csv"]);
    for i in 1..=4 {
        run(&[
            "--shard",
            &format!("{i}/4"),
            "--out",
            &format!("shard-{i}.csv"),
        ]);
    }
    // Out of order on purpose: the merge sorts.
    let merged = succeeded(
        dir.path(),
        &[
            "experiment",
            "--merge",
            "merged.csv",
            "shard-3.csv",
            "shard-1.csv",
            "shard-4.csv",
            "shard-2.csv",
        ],
    );
    assert_eq!(counted_tables(&merged), counted_tables(&single));
    let report = succeeded(dir.path(), &["experiment", "--report", "merged.csv"]);
    assert_eq!(report, merged);
    // Every row but its time is the single run's, in the same order.
    let single_rows = rows_without_times(&dir.path().join("single.csv"));
    let mut sorted = single_rows.clone();
    sorted[1..].sort_by_key(|row| {
        let mut fields = row.split(',');
        let config: u64 = fields.next().unwrap().parse().unwrap();
        (config, row.split(',').nth(3).unwrap().to_string())
    });
    assert_eq!(rows_without_times(&dir.path().join("merged.csv")), sorted);
    assert_eq!(single_rows.len(), 1 + 200 * 3);
    // The merged file describes the study as the single run does.
    let first_line = |name: &str| {
        let text = std::fs::read_to_string(dir.path().join(name)).unwrap();
        text.lines().next().unwrap().to_string()
    };
    assert_eq!(first_line("merged.csv"), first_line("single.csv"));
}

#[test]
fn overlapping_shards_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "experiment",
        "--configs",
        "8",
        "--robots",
        "2",
        "--solvers",
        "bfs",
        "--time-limit",
        "10",
        "--shard",
        "1/2",
        "--out",
        "a.csv",
    ];
    succeeded(dir.path(), &args);
    let out = lab()
        .args(["experiment", "--merge", "m.csv", "a.csv", "a.csv"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("shards must not overlap"), "{err}");
    assert!(!dir.path().join("m.csv").exists());
}

#[cfg(target_os = "linux")]
#[test]
fn a_second_run_on_a_results_file_in_use_is_refused_and_the_file_stays_whole() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        lab()
            .args(args)
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first = run(&[
        "experiment",
        "--out",
        "x.csv",
        "--configs",
        "100000",
        "--solvers",
        "iddfs,bfs",
    ]);
    // The first run has made and locked the file well before this.
    let path = dir.path().join("x.csv");
    for _ in 0..200 {
        if path.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    let second = run(&[
        "experiment",
        "--out",
        "x.csv",
        "--configs",
        "100000",
        "--solvers",
        "iddfs,bfs",
        "--resume",
    ])
    .wait_with_output()
    .unwrap();
    let error = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{error}");
    assert!(error.contains("is writing this file"), "{error}");
    // SAFETY: kill only sends a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(first.id() as i32, libc::SIGINT) }, 0);
    let first = first.wait_with_output().unwrap();
    assert_eq!(first.status.code(), Some(3));
    // Every row is whole: the report reads the file.
    succeeded(dir.path(), &["experiment", "--report", "x.csv"]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.lines()
            .skip(1)
            .all(|line| line.split(',').count() == 10),
        "{text}"
    );
}

#[test]
fn a_merge_refuses_repeated_rows_and_rows_no_run_writes() {
    let dir = tempfile::tempdir().unwrap();
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/small-6x6.ron");
    succeeded(
        dir.path(),
        &[
            "experiment",
            "--configs",
            "3",
            "--board",
            board.to_str().unwrap(),
            "--solvers",
            "bfs,astar",
            "--out",
            "whole.csv",
        ],
    );
    let text = std::fs::read_to_string(dir.path().join("whole.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // The study's description, the header, then the rows.
    let rows = &lines[2..];
    let with_row = |row: &str| format!("{}\n{row}\n", lines.join("\n"));
    // A compared solver's row: the baseline's own fixes what the others require.
    let optimal = rows
        .iter()
        .find(|l| l.contains(",optimal,") && !l.contains(",iddfs,"))
        .unwrap();
    let mut fields: Vec<String> = optimal.split(',').map(String::from).collect();
    fields[4] = "999".into();
    let impossible = fields.join(",");
    fields[5] = "999".into();
    let baseline_disagrees = fields.join(",");
    let mut fields: Vec<String> = rows[0].split(',').map(String::from).collect();
    fields[7] = "-5".into();
    let negative = fields.join(",");
    let mut cases = vec![
        ("repeated", with_row(rows[0]), "two rows of"),
        (
            "baseline",
            text.replace(optimal, &baseline_disagrees),
            "requires 999 moves, but the baseline",
        ),
        (
            "impossible",
            text.replace(optimal, &impossible),
            "cannot be",
        ),
        (
            "negative",
            text.replace(rows[0], &negative),
            "its time is -5",
        ),
    ];
    for (name, body, expected) in cases.drain(..) {
        let input = dir.path().join(format!("{name}.csv"));
        std::fs::write(&input, body).unwrap();
        let out = lab()
            .args(["experiment", "--merge", "merged.csv"])
            .arg(&input)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let error = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {error}");
        assert!(error.contains(expected), "{name}: {error}");
        assert!(!dir.path().join("merged.csv").exists(), "{name}");
    }
}

/// Runs `experiment` in `dir` with the options of a small study, `extra` given in place of
/// the defaults it names.
fn small_study(dir: &Path, extra: &[&str]) {
    let mut args = vec!["experiment", "--configs", "6", "--solvers", "bfs"];
    for (option, default) in [("--robots", "2"), ("--time-limit", "10")] {
        if !extra.contains(&option) {
            args.extend([option, default]);
        }
    }
    args.extend_from_slice(extra);
    succeeded(dir, &args);
}

/// Merges `inputs` into `merged.csv` in `dir`, which must fail; returns its message.
fn refused_merge(dir: &Path, inputs: &[&str]) -> String {
    let out = lab()
        .args(["experiment", "--merge", "merged.csv"])
        .args(inputs)
        .current_dir(dir)
        .output()
        .unwrap();
    let error = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{inputs:?}: {error}");
    assert!(!dir.join("merged.csv").exists(), "{inputs:?}");
    error
}

#[test]
fn a_merge_takes_every_shard_of_one_study_and_nothing_else() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    small_study(dir, &["--shard", "1/3", "--out", "a.csv"]);
    small_study(dir, &["--shard", "2/3", "--out", "b.csv"]);
    small_study(dir, &["--shard", "3/3", "--out", "c.csv"]);
    // The same shard of other studies: another robot count, time limit, baseline, board.
    small_study(
        dir,
        &["--shard", "3/3", "--out", "robots.csv", "--robots", "3"],
    );
    small_study(
        dir,
        &["--shard", "3/3", "--out", "time.csv", "--time-limit", "9"],
    );
    small_study(
        dir,
        &["--shard", "3/3", "--out", "base.csv", "--baseline", "bfs"],
    );
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/real-21.ron");
    let board = board.to_str().unwrap();
    small_study(
        dir,
        &["--shard", "3/3", "--out", "board.csv", "--board", board],
    );
    for (file, expected) in [
        ("robots.csv", "robots 2 against 3"),
        ("time.csv", "time limit 10 s against 9 s"),
        ("base.csv", "baseline iddfs against bfs"),
        ("board.csv", "board standard against fixed "),
    ] {
        let error = refused_merge(dir, &["a.csv", "b.csv", file]);
        assert!(
            error.contains(&format!("{file} and a.csv are not shards of one study"))
                && error.contains(expected),
            "{file}: {error}"
        );
    }
    let error = refused_merge(dir, &["b.csv"]);
    assert!(
        error.contains("the shards 1/3, 3/3 of the study are missing"),
        "{error}"
    );
    // A row moved to another configuration's game.
    let text = std::fs::read_to_string(dir.join("c.csv")).unwrap();
    let games: Vec<&str> = text
        .lines()
        .skip(2)
        .map(|line| line.split(',').nth(2).unwrap())
        .collect();
    assert_ne!(games[0], games[games.len() - 1]);
    std::fs::write(
        dir.join("swapped.csv"),
        text.replacen(games[0], games[games.len() - 1], 1),
    )
    .unwrap();
    let error = refused_merge(dir, &["a.csv", "b.csv", "swapped.csv"]);
    assert!(error.contains("but the study deals"), "{error}");
    // A file without a description cannot be checked.
    let bare: String = text
        .lines()
        .skip(1)
        .map(|line| format!("{line}\n"))
        .collect();
    std::fs::write(dir.join("bare.csv"), bare).unwrap();
    let error = refused_merge(dir, &["a.csv", "b.csv", "bare.csv"]);
    assert!(
        error.contains("bare.csv has no study description"),
        "{error}"
    );
    succeeded(
        dir,
        &[
            "experiment",
            "--merge",
            "merged.csv",
            "c.csv",
            "a.csv",
            "b.csv",
        ],
    );
    // Resuming with other options is refused by name too.
    let out = lab()
        .args([
            "experiment",
            "--configs",
            "6",
            "--robots",
            "2",
            "--solvers",
            "bfs",
        ])
        .args([
            "--time-limit",
            "10",
            "--shard",
            "1/3",
            "--out",
            "a.csv",
            "--resume",
        ])
        .args(["--memory-limit", "100"])
        .current_dir(dir)
        .output()
        .unwrap();
    let error = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{error}");
    assert!(
        error.contains("the file holds another study") && error.contains("memory limit"),
        "{error}"
    );
}

#[test]
fn a_report_draws_its_plots_as_svg_or_png_by_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    let study = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots/study-2000.csv");
    let study = study.to_str().unwrap();
    succeeded(
        dir.path(),
        &["experiment", "--report", study, "--plot", "time.svg"],
    );
    let svg = std::fs::read_to_string(dir.path().join("time.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..60.min(svg.len())]);
    // The SVG writer puts a text element's content on a line of its own.
    for expected in ["\nrequired moves\n", "\n1 ms\n", "\nIDDFS (Fogleman)\n"] {
        assert!(svg.contains(expected), "{expected} in the SVG");
    }
    succeeded(
        dir.path(),
        &[
            "experiment",
            "--report",
            study,
            "--plot",
            "hits.png",
            "--plot-kind",
            "total-hit-rate",
        ],
    );
    let png = std::fs::read(dir.path().join("hits.png")).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    // A name without a picture's extension is refused before anything is read.
    let (code, _, error) = crate::common::run_in(
        dir.path(),
        &["experiment", "--report", study, "--plot", "time.pdf"],
    );
    assert_eq!(code, 1, "{error}");
    assert!(
        error.contains("time.pdf") && error.contains(".svg"),
        "{error}"
    );
}
