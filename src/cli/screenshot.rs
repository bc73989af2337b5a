//! `ricochet-lab screenshot`: opens the app on a view and saves it as PNG.

use ricochet_lab::app::screenshot::{self, View};
use std::path::PathBuf;
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

/// Renders the view and writes the file.
pub fn run(args: ScreenshotArgs) -> anyhow::Result<ExitCode> {
    let view: View = args.view.parse().map_err(anyhow::Error::msg)?;
    if !args.force && std::fs::symlink_metadata(&args.file).is_ok() {
        anyhow::bail!(
            "{} already exists and was left as it is; give --force to replace it",
            args.file.display()
        );
    }
    screenshot::run(view, &args.file, args.results.as_deref()).map_err(anyhow::Error::msg)?;
    println!("wrote {}", args.file.display());
    Ok(ExitCode::SUCCESS)
}
