//! Saving: atomic, never over a file unasked, keeping the replaced file's mode, and through a
//! symbolic link to its target.

use ricochet_lab::model::formats::{
    self, FormatError, Overwrite, save_atomic_with, save_puzzle_with,
};
// Only the tests of modes and symbolic links (unix) save without a rule.
#[cfg(unix)]
use ricochet_lab::model::formats::save_atomic;
use ricochet_lab::model::tiles::random_game;
use std::path::Path;

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn a_refused_save_leaves_the_existing_file_and_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("board.ron");
    std::fs::write(&path, "precious").unwrap();
    let error = save_atomic_with(&path, "new", Overwrite::Refuse).unwrap_err();
    assert!(matches!(error, FormatError::Exists { .. }), "{error}");
    assert!(error.to_string().contains("already exists"), "{error}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
    assert_eq!(names(dir.path()), ["board.ron"]);
    // A new name is written.
    let fresh = dir.path().join("fresh.ron");
    save_atomic_with(&fresh, "new", Overwrite::Refuse).unwrap();
    assert_eq!(std::fs::read_to_string(&fresh).unwrap(), "new");
    assert_eq!(names(dir.path()), ["board.ron", "fresh.ron"]);
}

#[test]
fn a_puzzle_save_refuses_an_existing_path_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.ron");
    std::fs::write(&path, "old").unwrap();
    let (puzzle, _) = random_game(3, 4).unwrap();
    assert!(save_puzzle_with(&puzzle, &path, Overwrite::Refuse).is_err());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    save_puzzle_with(&puzzle, &path, Overwrite::Allow).unwrap();
    assert_eq!(
        formats::load_source(path.to_str().unwrap()).unwrap(),
        puzzle
    );
}

#[test]
fn an_unknown_output_extension_is_named_as_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let (puzzle, _) = random_game(3, 4).unwrap();
    let error = save_puzzle_with(&puzzle, &dir.path().join("out.json"), Overwrite::Refuse)
        .unwrap_err()
        .to_string();
    assert!(error.contains("cannot write"), "{error}");
    assert!(error.contains(".ron") && error.contains(".txt"), "{error}");
    assert!(!error.contains("game id"), "{error}");
}

#[cfg(unix)]
#[test]
fn saving_over_a_file_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("private.ron");
    std::fs::write(&path, "first").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    save_atomic(&path, "second").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
    assert_eq!(names(dir.path()), ["private.ron"]);
}

#[cfg(unix)]
#[test]
fn saving_through_a_symlink_replaces_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let real_dir = dir.path().join("real");
    std::fs::create_dir(&real_dir).unwrap();
    let target = real_dir.join("board.ron");
    std::fs::write(&target, "first").unwrap();
    let link = dir.path().join("link.ron");
    // A relative link, resolved from the link's own directory.
    std::os::unix::fs::symlink("real/board.ron", &link).unwrap();
    save_atomic(&link, "second").unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "second");
    assert_eq!(names(&real_dir), ["board.ron"]);
    assert_eq!(names(dir.path()), ["link.ron", "real"]);
    // A link to a file that does not exist yet creates that file.
    let dangling = dir.path().join("later.ron");
    std::os::unix::fs::symlink("real/later.ron", &dangling).unwrap();
    save_atomic(&dangling, "third").unwrap();
    assert_eq!(
        std::fs::read_to_string(real_dir.join("later.ron")).unwrap(),
        "third"
    );
}
