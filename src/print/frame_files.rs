//! Numbered PNG frames written into a folder so that a failure leaves no partial set: they are
//! written into a temporary folder beside it, which is then renamed into place.

use crate::model::formats::Overwrite;
use std::path::{Path, PathBuf};

/// Why frames could not be written.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum FramesError {
    /// The path is a file.
    #[error("{} is a file, not a folder for frames", .0.display())]
    NotAFolder(PathBuf),
    /// The folder holds files already, and replacing them was not allowed.
    #[error("{} already exists and is not empty", .0.display())]
    NotEmpty(PathBuf),
    /// Reading or writing failed.
    #[error("cannot write the frames to {}: {why}", .path.display())]
    Io {
        /// The file or folder that failed.
        path: PathBuf,
        /// The system's reason.
        why: String,
    },
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> FramesError + '_ {
    move |error| FramesError::Io {
        path: path.to_path_buf(),
        why: error.to_string(),
    }
}

/// The name of frame `index` of `count`: numbered with as many digits as the last needs, at
/// least two, so the files sort in playing order.
pub fn frame_name(index: usize, count: usize) -> String {
    let digits = count.saturating_sub(1).to_string().len().max(2);
    format!("frame-{index:0digits$}.png")
}

/// Writes numbered frames (`frame-00.png` is the first) into the folder `dir`, which must not
/// exist or be empty; with [`Overwrite::Allow`] a folder that holds files is used too: its
/// frames are then replaced one by one (each rename is atomic) and older frames past the new
/// count are removed. Returns the frames' names.
pub fn write_frames(
    dir: &Path,
    pngs: &[Vec<u8>],
    overwrite: Overwrite,
) -> Result<Vec<String>, FramesError> {
    let parent = match dir.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let existing = match std::fs::read_dir(dir) {
        Ok(entries) => Some(entries.filter_map(Result::ok).count()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        Err(error) if error.kind() == std::io::ErrorKind::NotADirectory => {
            return Err(FramesError::NotAFolder(dir.to_path_buf()));
        }
        Err(error) => return Err(io_error(dir)(error)),
    };
    if existing.is_some_and(|count| count > 0) && overwrite == Overwrite::Refuse {
        return Err(FramesError::NotEmpty(dir.to_path_buf()));
    }
    let staging = tempfile::Builder::new()
        .prefix(".frames.")
        .tempdir_in(parent)
        .map_err(io_error(parent))?;
    let names: Vec<String> = (0..pngs.len()).map(|i| frame_name(i, pngs.len())).collect();
    for (name, bytes) in names.iter().zip(pngs) {
        let path = staging.path().join(name);
        // A full disk fails here; the staging folder goes with its guard.
        std::fs::write(&path, bytes).map_err(io_error(dir))?;
    }
    match existing {
        None | Some(0) => {
            if existing.is_some() {
                std::fs::remove_dir(dir).map_err(io_error(dir))?;
            }
            let staged = staging.keep();
            std::fs::rename(&staged, dir).map_err(|error| {
                let _ = std::fs::remove_dir_all(&staged);
                io_error(dir)(error)
            })?;
        }
        Some(_) => {
            for name in &names {
                let to = dir.join(name);
                std::fs::rename(staging.path().join(name), &to).map_err(io_error(&to))?;
            }
            for entry in std::fs::read_dir(dir)
                .map_err(io_error(dir))?
                .filter_map(Result::ok)
            {
                let name = entry.file_name().to_string_lossy().into_owned();
                let is_frame = name.starts_with("frame-") && name.ends_with(".png");
                if is_frame && !names.contains(&name) {
                    std::fs::remove_file(entry.path()).map_err(io_error(&entry.path()))?;
                }
            }
        }
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_go_into_a_new_folder_and_a_full_one_is_refused_unless_allowed() {
        let dir = tempfile::tempdir().unwrap();
        let frames = dir.path().join("frames");
        let pngs = vec![vec![1u8], vec![2u8], vec![3u8]];
        let names = write_frames(&frames, &pngs, Overwrite::Refuse).unwrap();
        assert_eq!(names, ["frame-00.png", "frame-01.png", "frame-02.png"]);
        assert_eq!(std::fs::read(frames.join("frame-02.png")).unwrap(), [3]);
        assert_eq!(
            write_frames(&frames, &pngs, Overwrite::Refuse),
            Err(FramesError::NotEmpty(frames.clone()))
        );
        write_frames(&frames, &pngs[..1], Overwrite::Allow).unwrap();
        assert_eq!(std::fs::read_dir(&frames).unwrap().count(), 1);
        // Nothing is left beside the folder.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let file = dir.path().join("file.png");
        std::fs::write(&file, b"x").unwrap();
        assert_eq!(
            write_frames(&file, &pngs, Overwrite::Allow),
            Err(FramesError::NotAFolder(file.clone()))
        );
        assert_eq!(frame_name(7, 120), "frame-007.png");
    }
}
