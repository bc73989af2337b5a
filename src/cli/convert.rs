//! `ricochet-lab convert`: converts a puzzle between formats.

use super::output::outln;
use ricochet_lab::model::formats::{self, Format};
use std::path::Path;
use std::process::ExitCode;

/// The formats `convert` writes, by the name `--format` takes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum OutputFormat {
    /// The native RON text.
    Ron,
    /// Kevin Cox's text format.
    Cox,
    /// A DriftingDroids game id (real tiles only).
    GameId,
    /// A DriftingDroids board dump, `!DriftingDroids_game!...`.
    DdDump,
    /// The one-line board text, `ricochet-lab:1:...`, which keeps everything a .ron file does.
    Line,
}

impl OutputFormat {
    fn format(self) -> Format {
        match self {
            OutputFormat::Ron => Format::Native,
            OutputFormat::Cox => Format::Cox,
            OutputFormat::GameId => Format::GameId,
            OutputFormat::DdDump => Format::DdDump,
            OutputFormat::Line => Format::BoardLine,
        }
    }
}

/// The arguments of `convert`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// A .ron file, a .txt Cox file, a game id, a DriftingDroids dump or a board line.
    input: String,
    /// A .ron or .txt path, or `-` for standard output (the game id unless --format says).
    output: String,
    /// The format to write, whatever the output's extension; without it a file's extension
    /// names the format, and standard output gets the game id.
    #[arg(long, value_enum, value_name = "FORMAT")]
    format: Option<OutputFormat>,
    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
}

/// Writes the puzzle in the format the output names.
pub fn run(args: ConvertArgs) -> anyhow::Result<ExitCode> {
    let puzzle = formats::load(&args.input)?;
    let overwrite = super::common::overwrite(args.force);
    let path = Path::new(&args.output);
    match (args.output.as_str(), args.format) {
        ("-", format) => {
            let format = format.map_or(Format::GameId, OutputFormat::format);
            let text = formats::write(&puzzle, format)?;
            outln!("{}", text.trim_end())?;
        }
        (_, Some(format)) => {
            puzzle.check_targets()?;
            let mut text = formats::write(&puzzle, format.format())?;
            if !text.ends_with('\n') {
                text.push('\n');
            }
            formats::save_atomic_with(path, &text, overwrite).map_err(super::common::save_error)?;
        }
        (_, None) => {
            formats::save_puzzle_with(&puzzle, path, overwrite)
                .map_err(super::common::save_error)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
