//! Results files that a long run appends to (a match's `--out`, an experiment's `--out`),
//! held under an exclusive lock for as long as the run writes them, so that a second run on
//! the same file is refused at once instead of splicing its lines into the first one's.
//!
//! The lock is the operating system's advisory whole-file lock (`flock` on Unix,
//! `LockFileEx` on Windows) taken through the standard library: it goes with the file handle,
//! so a run that crashes or is killed lets go of it, and no lock file is left behind. The
//! holder is named from `/proc/locks` where the system has one (its process id and command).

use std::fs::File;

/// Takes the exclusive lock on `file` without waiting. `Ok(Err(holder))`
/// when another process holds it: `holder` names that process in words, as far as the system
/// tells (`process 1234 (ricochet-lab match …)`, or `another run`).
pub fn try_hold(file: &File) -> std::io::Result<Result<(), String>> {
    match file.try_lock() {
        Ok(()) => Ok(Ok(())),
        Err(std::fs::TryLockError::WouldBlock) => Ok(Err(holder(file))),
        Err(std::fs::TryLockError::Error(error)) => Err(error),
    }
}

/// The process that holds the lock on `file`, in words.
fn holder(file: &File) -> String {
    match holder_pid(file) {
        Some(pid) => match command_of(pid) {
            Some(command) => format!("process {pid} ({command})"),
            None => format!("process {pid}"),
        },
        None => "another run".to_string(),
    }
}

/// The process id `/proc/locks` gives for a whole-file lock on `file`'s device and inode.
#[cfg(target_os = "linux")]
fn holder_pid(file: &File) -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    let meta = file.metadata().ok()?;
    let (dev, ino) = (meta.dev(), meta.ino());
    // `/proc/locks` names a file as MAJOR:MINOR:INODE, the numbers in hexadecimal for the
    // device and decimal for the inode.
    let (major, minor) = (libc::major(dev), libc::minor(dev));
    let wanted = format!("{major:02x}:{minor:02x}:{ino}");
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    // Some file systems (an overlay) report another device there than `stat` does: the
    // inode alone is then taken, a collision on another device being unlikely.
    let by = |exact: bool| {
        locks
            .lines()
            .find_map(|line| lock_holder(line, &wanted, ino, exact))
    };
    by(true).or_else(|| by(false))
}

/// The process id of one `/proc/locks` line when it holds (not waits for) a lock on the file
/// `wanted` (`MAJOR:MINOR:INODE`), or on any file of inode `ino` unless `exact`.
#[cfg(target_os = "linux")]
fn lock_holder(line: &str, wanted: &str, ino: u64, exact: bool) -> Option<u32> {
    {
        // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; a waiting lock has "->".
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.get(1) == Some(&"->") {
            return None;
        }
        let at = fields
            .iter()
            .position(|f| f.split(':').count() == 3 && *f != fields[0])?;
        let same = if exact {
            fields[at] == wanted
        } else {
            fields[at].rsplit(':').next() == Some(ino.to_string().as_str())
        };
        if !same {
            return None;
        }
        fields.get(at.checked_sub(1)?)?.parse().ok()
    }
}

#[cfg(not(target_os = "linux"))]
fn holder_pid(_file: &File) -> Option<u32> {
    None
}

/// A process's command line, its words joined by spaces and cut to 80 characters.
#[cfg(target_os = "linux")]
fn command_of(pid: u32) -> Option<String> {
    let bytes = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let words: Vec<String> = bytes
        .split(|&b| b == 0)
        .filter(|word| !word.is_empty())
        .map(|word| String::from_utf8_lossy(word).into_owned())
        .collect();
    let line = words.join(" ");
    let short: String = line.chars().take(80).collect();
    (!short.is_empty()).then_some(short)
}

#[cfg(not(target_os = "linux"))]
fn command_of(_pid: u32) -> Option<String> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_and_the_first_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.jsonl");
        let first = File::create(&path).unwrap();
        assert_eq!(try_hold(&first).unwrap(), Ok(()));
        let second = File::open(&path).unwrap();
        let holder = try_hold(&second).unwrap().unwrap_err();
        if cfg!(target_os = "linux") {
            assert!(
                holder.contains(&format!("process {}", std::process::id())),
                "{holder}"
            );
        }
        drop(first);
        assert_eq!(try_hold(&second).unwrap(), Ok(()));
    }
}
