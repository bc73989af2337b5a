//! Records the commit the program is built from, for `ricochet-lab --version`: the short hash
//! `git rev-parse --short HEAD` gives, or `unknown` where there is no git or no repository (a
//! source tarball, a package built from one).

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .and_then(|output| String::from_utf8(output.stdout).ok())
        .map(|text| text.trim().to_string())
        .filter(|hash| !hash.is_empty() && hash.chars().all(|c| c.is_ascii_hexdigit()))
        .unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=RICOCHET_LAB_COMMIT={commit}");
    // A new commit or a checkout changes HEAD (or the branch it points to): build again then,
    // and not on every other change.
    if let Some(git_dir) = git_dir() {
        for file in ["HEAD", "packed-refs"] {
            let path = git_dir.join(file);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        if let Some(branch) = head_branch(&git_dir) {
            let path = common_dir(&git_dir).join(branch);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// The repository's git folder (a worktree's own one in a worktree), when git knows it.
fn git_dir() -> Option<std::path::PathBuf> {
    let output = Command::new("git")
        .args(["rev-parse", "--git-dir"])
        .output()
        .ok()?;
    output
        .status
        .success()
        .then(|| String::from_utf8(output.stdout).ok())
        .flatten()
        .map(|text| std::path::PathBuf::from(text.trim()))
}

/// The folder that holds the branches: a worktree's `commondir`, else the git folder itself.
fn common_dir(git_dir: &std::path::Path) -> std::path::PathBuf {
    match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(text) => git_dir.join(text.trim()),
        Err(_) => git_dir.to_path_buf(),
    }
}

/// The branch `HEAD` names (`refs/heads/main`), when it names one.
fn head_branch(git_dir: &std::path::Path) -> Option<String> {
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    head.trim().strip_prefix("ref: ").map(str::to_string)
}
