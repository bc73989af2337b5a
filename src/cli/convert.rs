//! `ricochet-lab convert`: converts a puzzle between formats.

use super::output::outln;
use ricochet_lab::model::formats::{self, game_id};
use std::path::Path;
use std::process::ExitCode;

/// The arguments of `convert`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// A .ron file, a .txt Cox file, or a game id.
    input: String,
    /// A .ron or .txt path, or `-` for the game id on standard output.
    output: String,
    /// Replace the output file if it exists.
    #[arg(long)]
    force: bool,
}

/// Writes the puzzle in the format the output names.
pub fn run(args: ConvertArgs) -> anyhow::Result<ExitCode> {
    let puzzle = formats::load(&args.input)?;
    if args.output == "-" {
        outln!("{}", game_id::write(&puzzle)?)?;
    } else {
        formats::save_puzzle_with(
            &puzzle,
            Path::new(&args.output),
            super::common::overwrite(args.force),
        )
        .map_err(super::common::save_error)?;
    }
    Ok(ExitCode::SUCCESS)
}
