//! How the tests run the program: from the source folder, so `boards/...` paths read as a user
//! in a checkout types them. Shared by the test binaries that run it (`#[path]` modules).

// Each test binary uses the part it needs; the others would warn as unused there.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// The program under test.
pub const PROGRAM: &str = env!("CARGO_BIN_EXE_ricochet-lab");

/// The program under test, to run from the source folder.
pub fn lab() -> Command {
    let mut command = Command::new(PROGRAM);
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// What a finished run said: its exit code (-1 when a signal ended it), standard output and
/// standard error.
pub fn text(out: Output) -> (i32, String, String) {
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the program with `args` from the source folder.
pub fn run(args: &[&str]) -> (i32, String, String) {
    text(lab().args(args).output().unwrap())
}

/// Runs the program with `args` from `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    text(lab().current_dir(dir).args(args).output().unwrap())
}
