//! The save and load helpers' own tests.

use super::*;

#[test]
fn atomic_save_replaces_the_file_and_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.ron");
    save_atomic(&path, "first").unwrap();
    save_atomic(&path, "second").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

// The temporary file's owner-only mode once went with it through the rename, so every
// saved puzzle was unreadable to others whatever the umask said.
#[cfg(unix)]
#[test]
fn a_new_file_gets_the_mode_the_umask_gives_any_new_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain");
    std::fs::File::create(&plain).unwrap();
    let saved = dir.path().join("board.ron");
    save_atomic(&saved, "text").unwrap();
    let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&saved), mode(&plain));
    // A replaced file keeps its own mode.
    std::fs::set_permissions(&saved, std::fs::Permissions::from_mode(0o640)).unwrap();
    save_atomic(&saved, "again").unwrap();
    assert_eq!(mode(&saved), 0o640);
    // A private file is its owner's alone when new, and keeps its mode when replaced.
    let private = dir.path().join("settings.ron");
    save_private_atomic(&private, "text").unwrap();
    assert_eq!(mode(&private), 0o600);
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o640)).unwrap();
    save_private_atomic(&private, "again").unwrap();
    assert_eq!(mode(&private), 0o640);
    assert_eq!(std::fs::read_to_string(&private).unwrap(), "again");
}

// A kill between the temporary file's write and its rename left one `.NAME.XXXXXX.tmp`
// per kill, and no later save removed them.
#[test]
fn a_save_removes_its_own_stale_temporary_files_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.ron");
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(120);
    let make = |name: &str, modified: std::time::SystemTime| {
        let file = std::fs::File::create(dir.path().join(name)).unwrap();
        file.set_modified(modified).unwrap();
    };
    make(".board.ron.aB3xY9.tmp", old);
    make(".board.ron.Qw12er.tmp", std::time::SystemTime::now());
    make(".other.ron.aB3xY9.tmp", old);
    make(".board.ron.notours.tmp", old);
    save_atomic(&path, "text").unwrap();
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ".board.ron.Qw12er.tmp",
            ".board.ron.notours.tmp",
            ".other.ron.aB3xY9.tmp",
            "board.ron"
        ]
    );
}

#[test]
fn a_load_error_names_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.ron");
    std::fs::write(&path, "(size: oops)").unwrap();
    let source = path.to_string_lossy().into_owned();
    let message = load(&source).unwrap_err().to_string();
    assert!(message.starts_with(&format!("{source}: ")), "{message}");
    let message = load("no-such-file.ron").unwrap_err().to_string();
    assert!(message.starts_with("no-such-file.ron: "), "{message}");
}

// Two threads of one process saving one file once shared a temporary file named by the
// process id, so one could rename the other's half-written text into place.
#[test]
fn threads_saving_one_file_each_write_a_whole_text() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.ron");
    let texts: Vec<String> = (0..8).map(|i| format!("{i}").repeat(200_000)).collect();
    std::thread::scope(|scope| {
        for text in &texts {
            let path = &path;
            scope.spawn(move || {
                for _ in 0..5 {
                    save_atomic(path, text).unwrap();
                }
            });
        }
    });
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(
        texts.contains(&saved),
        "a mixed text of {} bytes",
        saved.len()
    );
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "temporary files left behind");
}
