//! `ricochet-lab trace animate`: the nodes a recorded search examined between two events as an
//! animated GIF or PNG, or as numbered PNG frames, one frame per node with its path from the
//! start drawn as arrows.

use super::common::EXIT_STOPPED;
use super::output::outln;
use ricochet_lab::print::animation::{
    self, AnimationError, AnimationFormat, AnimationOptions, Output,
};
use ricochet_lab::worker::export::{ExportError, ExportJob, ExportSource};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;

/// The arguments of `trace animate`.
#[derive(clap::Args, Debug)]
pub(super) struct AnimateArgs {
    /// The trace file.
    file: PathBuf,
    /// The first event of the stretch (from 0).
    #[arg(long, value_name = "N")]
    from: u64,
    /// The last event of the stretch (included); at most 2,000 nodes may lie between the two.
    #[arg(long, value_name = "M")]
    to: u64,
    /// The animation to write: `.gif` or an animated `.png`; with --frames a folder for
    /// numbered PNG frames.
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// Write numbered PNG frames (frame-00.png is the first node) into the output folder.
    #[arg(long)]
    frames: bool,
    /// How long each frame is shown, in milliseconds (the last frame three times as long).
    #[arg(
        long = "delay-ms",
        alias = "delay",
        value_name = "MS",
        default_value_t = animation::DEFAULT_DELAY_MS,
        value_parser = clap::value_parser!(u32).range(animation::MIN_DELAY_MS as i64..=animation::MAX_DELAY_MS as i64)
    )]
    delay_ms: u32,
    /// The animation's longer side in pixels.
    #[arg(
        long = "side-px",
        alias = "size",
        value_name = "PX",
        default_value_t = animation::DEFAULT_SIDE_PX,
        value_parser = clap::value_parser!(u32).range(animation::MIN_SIDE_PX as i64..=animation::MAX_SIDE_PX as i64)
    )]
    side_px: u32,
    /// Replace the output if it exists.
    #[arg(long)]
    force: bool,
}

/// Draws the stretch and writes it; Ctrl+C stops it with nothing written (exit 3).
pub(super) fn animate(args: &AnimateArgs) -> anyhow::Result<ExitCode> {
    let output = if args.frames {
        Output::Frames
    } else {
        Output::Animation(AnimationFormat::from_path(&args.output).ok_or_else(|| {
            anyhow::anyhow!(
                "{} must end in .gif or .png, which name the animation's format (or give \
                 --frames for a folder of numbered PNG frames)",
                args.output.display()
            )
        })?)
    };
    let job = ExportJob {
        source: ExportSource::Search {
            trace: args.file.clone(),
            from: args.from,
            to: args.to,
        },
        output,
        path: args.output.clone(),
        options: AnimationOptions {
            side_px: args.side_px,
            delay_ms: args.delay_ms,
            numbered: false,
        },
        overwrite: super::common::overwrite(args.force),
    };
    let cancel = super::common::cancel_on_signal()?;
    let stop = || cancel.load(Ordering::Relaxed);
    match job.run(&stop, &mut |_, _| {}) {
        Ok(exported) => {
            let what = match output {
                Output::Animation(_) => format!("{} KiB", exported.bytes.div_ceil(1024)),
                Output::Frames => format!("{} PNG frames", exported.frames),
            };
            outln!(
                "wrote {} ({what}, {} nodes of events {} to {}, {} px, in {:.1} s)",
                exported.path.display(),
                exported.frames,
                args.from,
                args.to,
                args.side_px,
                exported.elapsed.as_secs_f64()
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Err(ExportError::Animation(AnimationError::Cancelled)) => {
            eprintln!("stopped: nothing was written to {}", args.output.display());
            Ok(ExitCode::from(EXIT_STOPPED))
        }
        Err(ExportError::Save(error)) => Err(super::common::save_error(error)),
        Err(
            error @ ExportError::Frames(ricochet_lab::print::frame_files::FramesError::NotEmpty(_)),
        ) => {
            anyhow::bail!("{error}; give --force to replace its frames, or choose another folder")
        }
        Err(error) => Err(error.into()),
    }
}
