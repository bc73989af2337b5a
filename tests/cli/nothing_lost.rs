//! What the commands write and read loses nothing without a word: rules are kept or refused,
//! `--force` replaces an earlier run whole, and dead saves' temporary files are cleared.

use crate::common::{lab, run};
use std::path::Path;

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

fn small_with(old: &str, new: &str) -> String {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/boards/small-6x6.ron"))
            .unwrap();
    assert!(text.contains(old));
    text.replace(old, new)
}

// `--count 1 --force` once left the old position-02 and -03 beside the new position-01.
#[test]
fn generate_with_force_replaces_an_earlier_run_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("g2");
    let out = out_dir.to_str().unwrap();
    let generate = |count: &str, force: bool| {
        let mut args = vec![
            "generate",
            "boards/small-6x6.ron",
            "--moves",
            "3",
            "--count",
            count,
            "--out-dir",
            out,
        ];
        if force {
            args.push("--force");
        }
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{err}");
    };
    generate("3", false);
    assert_eq!(names(&out_dir).len(), 3, "{:?}", names(&out_dir));
    std::fs::write(out_dir.join("notes.txt"), "mine").unwrap();
    generate("1", true);
    let left = names(&out_dir);
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(left.contains(&"notes.txt".to_string()), "{left:?}");
    assert!(
        left.iter().any(|n| n.starts_with("position-01-")),
        "{left:?}"
    );
}

// Cox's text has no place for rules: `convert nrb.ron x.txt` once dropped no-rebound, exit 0.
#[test]
fn converting_a_puzzle_with_rules_to_cox_text_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ruled = dir.path().join("nrb.ron");
    std::fs::write(&ruled, small_with("no_rebound: false", "no_rebound: true")).unwrap();
    let txt = dir.path().join("x.txt");
    let (code, _, err) = run(&["convert", ruled.to_str().unwrap(), txt.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("cannot hold the no-rebound rule"), "{err}");
    assert!(!txt.exists());
}

// A misspelt rule was ignored, so the rule was silently off.
#[test]
fn a_misspelt_field_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("typo.ron");
    std::fs::write(&file, small_with("no_rebound: false", "no_rebond: true")).unwrap();
    let (code, _, err) = run(&["show", file.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("`no_rebond`"), "{err}");
    assert!(err.contains("did you mean `no_rebound`?"), "{err}");
}

// `hint --memory-limit` was refused as an unknown argument, and a hint had no bound at all.
#[test]
fn hint_takes_a_memory_limit_as_solve_does() {
    let (code, out, err) = run(&["hint", "boards/small-6x6.ron", "--memory-limit", "512"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Moves: "), "{out}");
    let (code, _, err) = run(&["hint", "boards/small-6x6.ron", "--memory-limit", "1"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--memory-limit 1 MiB"), "{err}");
}

// A kill between the temporary file's write and its rename left a `.NAME.XXXXXX.tmp` each
// time, which no later run removed.
#[test]
fn a_save_clears_the_stale_temporary_files_of_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let stale = dir.path().join(".out.ron.k3Jd8x.tmp");
    let file = std::fs::File::create(&stale).unwrap();
    file.set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(300))
        .unwrap();
    let out = dir.path().join("out.ron");
    let (code, _, err) = run(&["convert", "boards/small-6x6.ron", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(names(dir.path()), ["out.ron"]);
}

// `--time-limit -1` and `--repeat -1` read as unknown flags, and counts of 0 were accepted.
#[test]
fn negative_and_zero_counts_are_refused_with_the_range() {
    let (code, _, err) = run(&["solve", "boards/small-6x6.ron", "--time-limit", "-1"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("-1 is not a positive number of seconds"),
        "{err}"
    );
    let (code, _, err) = run(&["bench", "--repeat", "-1"]);
    assert_eq!(code, 2);
    assert!(!err.contains("unexpected argument"), "{err}");
    for args in [
        &["experiment", "--configs", "0"][..],
        &["accuracy", "--solver", "bfs", "--puzzles", "0"],
        &[
            "solve",
            "boards/small-6x6.ron",
            "--all-solutions",
            "--max-solutions",
            "0",
        ],
    ] {
        let (code, _, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("1.."), "{args:?}: {err}");
    }
}

// `install-desktop --uninstall` left the folders it had made and the desktop's caches of the
// type it had registered.
#[test]
fn uninstalling_the_desktop_files_leaves_no_empty_folder_nor_stale_cache() {
    let data = tempfile::tempdir().unwrap();
    let install = |uninstall: bool| {
        let mut command = lab();
        command
            .env("XDG_DATA_HOME", data.path())
            .arg("install-desktop");
        if uninstall {
            command.arg("--uninstall");
        }
        let out = command.output().unwrap();
        assert!(out.status.success(), "{out:?}");
    };
    install(false);
    // What update-mime-database and update-desktop-database make, where they are installed.
    let mime = data.path().join("mime");
    std::fs::create_dir_all(mime.join("application")).unwrap();
    for name in [
        "mime.cache",
        "globs2",
        "types",
        "application/x-ricochet-lab-puzzle.xml",
    ] {
        std::fs::write(mime.join(name), "cache").unwrap();
    }
    std::fs::write(data.path().join("applications/mimeinfo.cache"), "cache").unwrap();
    // Something of the user's own stays.
    let icons = data.path().join("icons/hicolor");
    std::fs::write(icons.join("index.theme"), "mine").unwrap();
    install(true);
    assert_eq!(names(data.path()), ["icons"]);
    assert_eq!(names(&data.path().join("icons")), ["hicolor"]);
    assert_eq!(names(&icons), ["index.theme"]);
}
