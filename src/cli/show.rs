//! `ricochet-lab show`: draws a puzzle as text.

use super::output::{out, outln};
use ricochet_lab::model::Rules;
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
    match game_id::write(&puzzle) {
        Ok(id) => outln!("game id: {id}")?,
        // A standard game that only its rules keep from a game id says so, lest the id of the
        // same position without them be taken for it.
        Err(error)
            if puzzle.rules() != Rules::default()
                && game_id::write(&puzzle.clone().with_rules(Rules::default())).is_ok() =>
        {
            outln!("game id: none ({error})")?
        }
        Err(_) => {}
    }
    Ok(ExitCode::SUCCESS)
}
