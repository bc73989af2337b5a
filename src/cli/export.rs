//! `ricochet-lab export`: draws a puzzle's board for print, as SVG or PNG, animates its
//! optimal solution as a GIF, an animated PNG or numbered PNG frames, or writes the puzzle
//! page (`.html`): one self-contained file that plays the puzzle in a browser.

use super::output::outln;
use ricochet_lab::model::formats;
use ricochet_lab::model::moves::{Move, format_moves, parse_moves};
use ricochet_lab::print::animation::{self, AnimationFormat, AnimationOptions};
use ricochet_lab::print::colors::{RobotPalette, set_robot_palette};
use ricochet_lab::print::page::{self, PageAnswer};
use ricochet_lab::print::{self, ImageFormat, PrintOptions, frame_files, png};
use ricochet_lab::solver::{self, Limits, NoProbe, Outcome, SolverId, SolverOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The arguments of `export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// A .ron file, a .txt Cox file, or a game id.
    puzzle: String,
    /// The file to write: `.svg` (vector, scales to any size) or `.png`; `.html` for a page
    /// that plays the puzzle in a browser, with its optimal solution; with --animate a `.gif`
    /// or an animated `.png`; with --frames a folder for numbered PNG frames.
    output: PathBuf,
    /// Solve the puzzle optimally and animate the solution, one frame per move, into a .gif
    /// or an animated .png.
    #[arg(long, conflicts_with_all = ["frames", "size_mm", "dpi", "no_robots"])]
    animate: bool,
    /// Solve the puzzle optimally and write the solution's positions as numbered PNG frames
    /// (frame-00.png is the start) into the output folder.
    #[arg(long, conflicts_with_all = ["size_mm", "dpi", "no_robots"])]
    frames: bool,
    /// The solution to animate instead of solving, as moves such as `BS, BW, BN`.
    #[arg(long, value_name = "MOVES")]
    moves: Option<String>,
    /// The animation's longer side in pixels.
    #[arg(
        long,
        value_name = "PX",
        default_value_t = animation::DEFAULT_SIDE_PX,
        value_parser = clap::value_parser!(u32).range(animation::MIN_SIDE_PX as i64..=animation::MAX_SIDE_PX as i64)
    )]
    side_px: u32,
    /// How long each frame of the animation is shown, in milliseconds (the last frame three
    /// times as long).
    #[arg(
        long,
        value_name = "MS",
        default_value_t = animation::DEFAULT_DELAY_MS,
        value_parser = clap::value_parser!(u32).range(animation::MIN_DELAY_MS as i64..=animation::MAX_DELAY_MS as i64)
    )]
    delay_ms: u32,
    /// The length of the board's longer side on paper, in millimetres (20 to 2000).
    #[arg(long, value_name = "MM", default_value_t = print::DEFAULT_SIZE_MM, value_parser = millimetres)]
    size_mm: f32,
    /// The PNG's resolution in dots per inch (50 to 1200); recorded in the file.
    #[arg(
        long,
        value_name = "DPI",
        default_value_t = png::DEFAULT_DPI,
        value_parser = clap::value_parser!(u32).range(png::MIN_DPI as i64..=png::MAX_DPI as i64)
    )]
    dpi: u32,
    /// Draw the board without its robots.
    #[arg(long)]
    no_robots: bool,
    /// The robots' colours: `classic` (the game's) or `okabe-ito` (safe for colour
    /// blindness); a page starts in them and lets its reader switch.
    #[arg(long, value_name = "PALETTE", default_value = "classic", value_parser = palette)]
    palette: RobotPalette,
    /// Write a page that does not know the solution (no solve; its answer buttons stay off).
    #[arg(long)]
    no_solution: bool,
    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
}

/// The `--palette` parser: a palette by its name.
fn palette(text: &str) -> Result<RobotPalette, String> {
    RobotPalette::from_name(text.trim()).ok_or_else(|| {
        let names: Vec<&str> = RobotPalette::ALL.iter().map(|p| p.name()).collect();
        format!("`{text}` is not a palette: {}", names.join(", "))
    })
}

/// The `--size-mm` parser: a number of millimetres in the range print takes, so a value out of
/// it is a usage error (exit code 2) named with the range, as every range is.
fn millimetres(text: &str) -> Result<f32, String> {
    let range = print::MIN_SIZE_MM..=print::MAX_SIZE_MM;
    let value: f32 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of millimetres"))?;
    if !range.contains(&value) {
        return Err(format!(
            "{text} is not in {}..={} millimetres",
            range.start(),
            range.end()
        ));
    }
    Ok(value)
}

/// Draws the board and writes the image atomically.
pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    set_robot_palette(args.palette);
    if is_page(&args.output) && !args.animate && !args.frames {
        return run_page(&args);
    }
    if args.no_solution {
        anyhow::bail!("--no-solution is for a page: give an output ending in .html");
    }
    if args.animate || args.frames {
        return run_animation(&args);
    }
    if args.moves.is_some() {
        anyhow::bail!("--moves is the solution to animate: give it with --animate or --frames");
    }
    let format = ImageFormat::from_path(&args.output).ok_or_else(|| {
        anyhow::anyhow!(
            "{} must end in .svg or .png, which name the image format, or in .html for a page",
            args.output.display()
        )
    })?;
    let options = PrintOptions {
        size_mm: args.size_mm,
        robots: !args.no_robots,
    };
    options.check()?;
    let puzzle = formats::load(&args.puzzle)?;
    let bytes = print::image(&puzzle, options, format, args.dpi)?;
    formats::save_bytes_atomic_with(&args.output, &bytes, super::common::overwrite(args.force))
        .map_err(super::common::save_error)?;
    let drawing = print::drawing(&puzzle, options);
    let size = match format {
        ImageFormat::Svg => String::new(),
        ImageFormat::Png => {
            let (width, height) = png::pixel_size(&drawing, args.dpi);
            format!(", {width}x{height} px at {} dpi", args.dpi)
        }
    };
    outln!(
        "wrote {} ({:.0} x {:.0} mm{size})",
        args.output.display(),
        drawing.width_mm,
        drawing.height_mm
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Whether a path names a page: it ends in `.html` or `.htm`, in any case.
fn is_page(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
}

/// Solves the puzzle (unless --no-solution) and writes its page atomically.
fn run_page(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    if args.moves.is_some() {
        anyhow::bail!(
            "--moves is the solution to animate: a page shows an optimal solution it solves for"
        );
    }
    let puzzle = formats::load(&args.puzzle)?;
    let started = std::time::Instant::now();
    let answer = if args.no_solution {
        None
    } else {
        Some(PageAnswer {
            moves: solve(&puzzle)?,
        })
    };
    let name = page_name(&args.puzzle);
    let html = page::page_html(&puzzle, &name, answer.as_ref(), args.palette);
    formats::save_bytes_atomic_with(
        &args.output,
        html.as_bytes(),
        super::common::overwrite(args.force),
    )
    .map_err(super::common::save_error)?;
    let solution = match &answer {
        Some(answer) => format!(
            "{} moves: {}",
            answer.moves.len(),
            format_moves(&answer.moves)
        ),
        None => "no solution".to_string(),
    };
    outln!(
        "wrote {} ({} KiB, {solution}, in {:.1} s)",
        args.output.display(),
        html.len().div_ceil(1024),
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// A page's title: the puzzle file's name without its folder and extension, or the text
/// given (a game id, a board line) when it is not a file.
pub(super) fn page_name(source: &str) -> String {
    let path = Path::new(source);
    match path.file_stem().and_then(|s| s.to_str()) {
        Some(stem) if path.is_file() => stem.to_string(),
        _ if source.len() <= 40 => source.to_string(),
        _ => "Ricochet Robots puzzle".to_string(),
    }
}

/// The optimal solution of a puzzle, by the fast solver (Ctrl+C cancels it).
pub(super) fn solve(puzzle: &ricochet_lab::model::Puzzle) -> anyhow::Result<Vec<Move>> {
    let limits = Limits {
        cancel: Some(super::common::cancel_on_signal()?),
        ..Limits::default()
    };
    let report = solver::run(
        SolverId::Fast,
        puzzle,
        &SolverOptions::default(),
        &limits,
        &mut NoProbe,
    )?;
    match report.outcome {
        Outcome::Solved { moves } => Ok(moves),
        Outcome::Unsolvable { .. } => anyhow::bail!("the puzzle has no solution to show"),
        other => anyhow::bail!("the solve ended without a solution ({})", other.name()),
    }
}

/// Solves (or takes the given moves), draws every position and writes the animation or the
/// frames; nothing is left at the output when any step fails.
fn run_animation(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let format = if args.frames {
        None
    } else {
        Some(AnimationFormat::from_path(&args.output).ok_or_else(|| {
            anyhow::anyhow!(
                "{} must end in .gif or .png, which name the animation's format (or give \
                 --frames for a folder of numbered PNG frames)",
                args.output.display()
            )
        })?)
    };
    let options = AnimationOptions {
        side_px: args.side_px,
        delay_ms: args.delay_ms,
        numbered: false,
    };
    let puzzle = formats::load(&args.puzzle)?;
    let started = std::time::Instant::now();
    let moves = match &args.moves {
        Some(text) => parse_moves(text).map_err(|e| anyhow::anyhow!("--moves: {e}"))?,
        None => solve(&puzzle)?,
    };
    let frames = animation::solution_frames(&puzzle, &moves, options)?;
    let (width, height) = frames.first().map_or((0, 0), |f| (f.width, f.height));
    let what = match format {
        Some(format) => {
            let bytes = animation::encode(&frames, format, options.delay_ms)?;
            formats::save_bytes_atomic_with(
                &args.output,
                &bytes,
                super::common::overwrite(args.force),
            )
            .map_err(super::common::save_error)?;
            format!("{} KiB", bytes.len().div_ceil(1024))
        }
        None => {
            let pngs = animation::encode_pngs(&frames)?;
            write_frames(&args.output, &pngs, args.force)?;
            format!("{} PNG frames", pngs.len())
        }
    };
    outln!(
        "wrote {} ({what}, {} moves: {}, {width}x{height} px, in {:.1} s)",
        args.output.display(),
        moves.len(),
        format_moves(&moves),
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Writes numbered frames into a new folder (see [`frame_files::write_frames`]), with the way
/// out when the folder holds files already.
fn write_frames(dir: &Path, pngs: &[Vec<u8>], force: bool) -> anyhow::Result<()> {
    match frame_files::write_frames(dir, pngs, super::common::overwrite(force)) {
        Ok(_) => Ok(()),
        Err(error @ frame_files::FramesError::NotEmpty(_)) => {
            anyhow::bail!("{error}; give --force to replace its frames, or choose another folder")
        }
        Err(error) => Err(error.into()),
    }
}
