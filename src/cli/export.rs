//! `ricochet-lab export`: draws a puzzle's board for print, as SVG or PNG.

use super::output::outln;
use ricochet_lab::model::formats;
use ricochet_lab::print::{self, ImageFormat, PrintOptions, png};
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `export`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// A .ron file, a .txt Cox file, or a game id.
    puzzle: String,
    /// The image to write: `.svg` (vector, scales to any size) or `.png`.
    output: PathBuf,
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
    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
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
    let format = ImageFormat::from_path(&args.output).ok_or_else(|| {
        anyhow::anyhow!(
            "{} must end in .svg or .png, which name the image format",
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
