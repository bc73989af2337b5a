//! `ricochet-lab show`: draws a puzzle as text.

use super::output::{out, outln};
use ricochet_lab::model::formats::{self, game_id};
use ricochet_lab::model::text;
use std::process::ExitCode;

/// The arguments of `show`.
#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// A .ron file, a .txt Cox file, or a game id.
    source: String,
}

/// Draws the puzzle and prints its game id when it has one.
pub fn run(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let puzzle = formats::load(&args.source)?;
    out!("{}", text::draw(&puzzle))?;
    if let Ok(id) = game_id::write(&puzzle) {
        outln!("game id: {id}")?;
    }
    Ok(ExitCode::SUCCESS)
}
