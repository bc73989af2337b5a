//! Finding and ending every process an engine started: its process group, the processes
//! that still hold its pipes, and those that carry its mark in their environment (which
//! follows a process out of the group and the session, a daemon's double fork and `setsid`
//! included). On Linux all three are found through `/proc`; elsewhere the group alone.

/// The environment variable every engine process is started with, valued with a mark of its
/// own (this program's process id and a count): the processes it starts inherit it, even
/// those that leave its group and session, so they can be found and ended with it.
pub const MARK_VAR: &str = "RICOCHET_LAB_ENGINE_MARK";

/// Kills the process group led by `pid`: the engine, started as the leader of its own group,
/// and every process it started that stayed in it.
#[cfg(target_os = "linux")]
pub(super) fn kill_group(pid: u32) {
    // Ids always fit in i32 on Linux.
    let group = pid as libc::pid_t;
    // SAFETY: kill only sends a signal; a group that no longer exists gives an error that
    // is ignored.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

#[cfg(not(target_os = "linux"))]
pub(super) fn kill_group(_pid: u32) {}

/// The identity (inode) of a pipe this program reads, to find the processes that hold its
/// other end.
#[cfg(target_os = "linux")]
pub(super) fn pipe_identity(pipe: &impl std::os::fd::AsRawFd) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    let fd = pipe.as_raw_fd();
    std::fs::metadata(format!("/proc/self/fd/{fd}"))
        .ok()
        .map(|meta| meta.ino())
}

#[cfg(not(target_os = "linux"))]
pub(super) fn pipe_identity<T>(_pipe: &T) -> Option<u64> {
    None
}

/// Kills every other process that holds one of `pipes` open: processes the engine started
/// that left its group but kept its output. This program's own pipes are made close-on-exec,
/// so no unrelated process holds them.
#[cfg(target_os = "linux")]
pub(super) fn kill_pipe_holders(pipes: &[u64]) {
    if pipes.is_empty() {
        return;
    }
    let names: Vec<String> = pipes
        .iter()
        .map(|inode| format!("pipe:[{inode}]"))
        .collect();
    let me = std::process::id();
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return;
    };
    for process in processes.flatten() {
        let Some(pid) = process
            .file_name()
            .to_str()
            .and_then(|name| name.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        // Another user's processes cannot be read, and cannot hold these pipes either.
        let Ok(fds) = std::fs::read_dir(process.path().join("fd")) else {
            continue;
        };
        let holds = fds.flatten().any(|fd| {
            std::fs::read_link(fd.path())
                .is_ok_and(|target| names.iter().any(|name| target.as_os_str() == name.as_str()))
        });
        if holds {
            // SAFETY: kill only sends a signal; a process gone meanwhile gives an error that
            // is ignored. Ids always fit in i32 on Linux.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub(super) fn kill_pipe_holders(_pipes: &[u64]) {}

/// Kills every other process whose environment holds [`MARK_VAR`] with the value `mark`:
/// the processes an engine started, wherever they went (another group, another session,
/// their pipes closed). Only this user's processes can be read, and only they can carry it.
#[cfg(target_os = "linux")]
pub(super) fn kill_marked(mark: &str) {
    let wanted = format!("{MARK_VAR}={mark}");
    let me = std::process::id();
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return;
    };
    for process in processes.flatten() {
        let Some(pid) = process
            .file_name()
            .to_str()
            .and_then(|name| name.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(environ) = std::fs::read(process.path().join("environ")) else {
            continue;
        };
        if environ
            .split(|&b| b == 0)
            .any(|entry| entry == wanted.as_bytes())
        {
            // SAFETY: kill only sends a signal; a process gone meanwhile gives an error that
            // is ignored. Ids always fit in i32 on Linux.
            unsafe {
                libc::kill(pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
pub(super) fn kill_marked(_mark: &str) {}
