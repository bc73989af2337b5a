//! `ricochet-lab random`: deals a random standard game.

use super::output::{out, outln};
use ricochet_lab::model::formats::{self, game_id};
use ricochet_lab::model::{text, tiles};
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `random`.
#[derive(clap::Args, Debug)]
pub struct RandomArgs {
    /// The seed; the same seed deals the same game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The number of robots, 1 to 5 (red, green, blue, yellow, then silver).
    #[arg(long, default_value_t = 4, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=5))]
    robots: usize,
    /// Save the game to this .ron or .txt file instead of printing it.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Replace the --out file if it exists.
    #[arg(long)]
    force: bool,
}

/// Deals the game and saves or prints it.
pub fn run(args: RandomArgs) -> anyhow::Result<ExitCode> {
    let (puzzle, _) = tiles::random_game(args.seed, args.robots)?;
    match args.out {
        Some(path) => {
            formats::save_puzzle_with(&puzzle, &path, super::common::overwrite(args.force))
                .map_err(super::common::save_error)?
        }
        None => {
            out!("{}", text::draw(&puzzle))?;
            if let Ok(id) = game_id::write(&puzzle) {
                outln!("game id: {id}")?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
