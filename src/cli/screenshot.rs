//! `ricochet-lab screenshot`: opens the app on a view and saves it as PNG.

use super::output::outln;
use anyhow::Context;
use ricochet_lab::app::shell::screenshot::{self, View};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The arguments of `screenshot`.
#[derive(clap::Args, Debug)]
pub struct ScreenshotArgs {
    /// The view: the name of a picture in screenshots/ without `.png` (editor, solving,
    /// debug-paused, experiments, ...); an unknown name lists them all.
    view: String,
    /// The PNG file to write.
    file: PathBuf,
    /// For the experiments views: show the rows of this results CSV (as written by
    /// `experiment`) instead of running a fresh 300-configuration experiment.
    #[arg(long, value_name = "CSV")]
    results: Option<PathBuf>,
    /// Replace the PNG file if it exists.
    #[arg(long)]
    force: bool,
}

/// Renders the view and writes the file. The picture is rendered into a temporary folder
/// beside the file and each file made there is then renamed into place, so a full disk or a
/// crash never leaves a truncated PNG under the name asked for.
pub fn run(args: ScreenshotArgs) -> anyhow::Result<ExitCode> {
    // A view is one of a list of names, as a solver is: another word is a usage error.
    let view: View = args
        .view
        .parse()
        .map_err(|error: screenshot::UnknownView| super::output::usage(error.to_string()))?;
    let is_png = args
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if !is_png {
        anyhow::bail!(
            "{}: a screenshot is PNG data; give the file a .png name",
            args.file.display()
        );
    }
    let Some(name) = args.file.file_name() else {
        anyhow::bail!("{}: not a file name", args.file.display());
    };
    // As every other command that writes a file, the folder must already exist.
    let folder = match args.file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        anyhow::bail!(
            "{}: the folder {} does not exist",
            args.file.display(),
            folder.display()
        );
    }
    if !args.force && std::fs::symlink_metadata(&args.file).is_ok() {
        anyhow::bail!(
            "{} already exists and was left as it is; give --force to replace it",
            args.file.display()
        );
    }
    let scratch = tempfile::Builder::new()
        .prefix(".screenshot-")
        .tempdir_in(folder)
        .with_context(|| format!("cannot write in {}", folder.display()))?;
    screenshot::run(view, &scratch.path().join(name), args.results.as_deref()).map_err(
        |error| {
            // The scratch folder is this command's own business: the user asked for the folder
            // the picture goes to.
            let scratch = scratch.path().display().to_string();
            anyhow::Error::msg(
                format!("{error:#}").replace(&scratch, &folder.display().to_string()),
            )
        },
    )?;
    let mut made: Vec<_> = std::fs::read_dir(scratch.path())
        .with_context(|| format!("cannot read {}", scratch.path().display()))?
        .collect::<Result<_, _>>()
        .with_context(|| format!("cannot read {}", scratch.path().display()))?;
    // The picture asked for last, so it appears only once its companions are in place.
    made.sort_by_key(|entry| entry.file_name() == name);
    for entry in made {
        let to = folder.join(entry.file_name());
        std::fs::rename(entry.path(), &to)
            .with_context(|| format!("cannot move the screenshot to {}", to.display()))?;
    }
    outln!("wrote {}", args.file.display())?;
    Ok(ExitCode::SUCCESS)
}
