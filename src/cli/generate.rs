//! `ricochet-lab generate`: positions on a board whose optimum is exactly N moves, found on all
//! cores with a progress bar; Ctrl-C keeps what was found.

use super::common::EXIT_STOPPED;
use super::output::outln;
use ricochet_lab::model::formats::{self, game_id};
use ricochet_lab::study::generate::{self, Ending, Found, GenerateConfig};
use serde::Serialize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `generate`.
#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// A board: a .ron file, a .txt Cox file, or a game id (its walls, targets, robot colours
    /// and rules are used; its robot positions and goal are not).
    pub source: String,
    /// The optimal move count every position must have: 1 to 60 (2 to 60 under the ricochet
    /// rule, which accepts no shorter solution).
    #[arg(
        long,
        value_name = "N",
        value_parser = clap::value_parser!(u32).range(1..=i64::from(generate::MAX_MOVES))
    )]
    pub moves: u32,
    /// How many distinct positions to find (at least 1).
    #[arg(
        long,
        value_name = "K",
        default_value_t = 1,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    pub count: usize,
    /// The seed every walk derives from; the same seed gives the same positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How many robots to deal, 1 to 5 (red, green, blue, yellow, silver in that order); the
    /// board's own robots when not given.
    #[arg(
        long,
        value_name = "R",
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=5)
    )]
    pub robots: Option<usize>,
    /// Worker threads (all cores when not given).
    #[arg(long, value_parser = super::common::thread_count)]
    pub threads: Option<usize>,
    /// The search's total time in seconds.
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = super::common::seconds, allow_negative_numbers = true)]
    pub time_limit: Duration,
    /// Per-solve memory limit in MiB: the solver's own tables, as for `solve`.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub memory_limit: u64,
    /// Where positions are written as .ron files when they cannot be printed as game ids (a
    /// board of other tiles, or one with rules, which a game id cannot hold): required then.
    /// A folder that holds positions of an earlier run is refused before the search.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,
    /// Replace the positions an earlier run wrote into --out-dir.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
}

/// Runs the search with a progress bar on stderr, then prints what it found.
pub fn run(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let puzzle = formats::load(&args.source)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Positions are printed as game ids when the board has them, else written as .ron files
    // (which also keep the rules a game id cannot hold).
    match (game_id::write(&puzzle), &args.out_dir) {
        (Err(error), None) => {
            return Err(super::output::usage(format!(
                "the positions cannot be printed as game ids ({error}), so they are written as \
                 .ron files: give --out-dir DIR"
            )));
        }
        // Files of an earlier run are found now, not after the search.
        (Err(_), Some(dir)) => {
            super::common::check_out_dir(
                dir,
                "position",
                args.count.saturating_add(1),
                args.force,
            )?;
        }
        (Ok(_), _) => {}
    }
    let config = GenerateConfig {
        moves: args.moves,
        count: args.count,
        seed: args.seed,
        robots: args.robots,
        threads,
        time_limit: args.time_limit,
        memory_limit: super::common::mebibytes(args.memory_limit)?,
    };
    let bar = super::common::progress_bar(args.count as u64, "positions");
    let cancel = super::common::cancel_on_signal()?;
    let generated = generate::generate(&puzzle, &config, &cancel, |progress| {
        bar.set_position(progress.found as u64);
        let closest = progress
            .closest
            .map(|m| format!(", closest {m} moves"))
            .unwrap_or_default();
        bar.set_message(format!(
            "{} walks, {} solves{closest}",
            progress.walks, progress.solves
        ));
    });
    bar.finish_and_clear();
    let generated = generated.map_err(|error| match error {
        // The ranges clap cannot know: the shortest length the board's rules accept.
        generate::GenerateError::Moves { .. }
        | generate::GenerateError::Count
        | generate::GenerateError::Robots(_) => super::output::usage(error.to_string()),
        other => other.into(),
    })?;

    let mut output = args
        .out_dir
        .as_deref()
        .map(|dir| super::common::RankedOutput::new(dir, "position", args.force));
    let mut named = Vec::with_capacity(generated.positions.len());
    for (rank, found) in generated.positions.iter().enumerate() {
        named.push(name(found, rank, output.as_mut())?);
    }
    let closest = match &generated.closest {
        Some(found) => Some(name(found, generated.positions.len(), output.as_mut())?),
        None => None,
    };
    if let Some(output) = output {
        output.finish()?;
    }
    if args.json {
        let object = GenerateJson {
            moves: args.moves,
            positions: named,
            closest,
            ending: ending_name(generated.ending),
            walks: generated.walks,
            solves: generated.solves,
            seconds: generated.elapsed.as_secs_f64(),
        };
        outln!("{}", super::common::json_line(&object)?)?;
    } else {
        for position in &named {
            outln!("{}  {} moves", position.puzzle, position.moves)?;
        }
        if let Some(closest) = &closest {
            outln!(
                "found {} of {} positions of {} moves ({}); the closest other: {}  {} moves",
                named.len(),
                args.count,
                args.moves,
                ending_text(generated.ending),
                closest.puzzle,
                closest.moves
            )?;
        }
        eprintln!(
            "{} walks, {} solves in {:.1} s",
            generated.walks,
            generated.solves,
            generated.elapsed.as_secs_f64()
        );
    }
    Ok(match generated.ending {
        Ending::Complete => ExitCode::SUCCESS,
        Ending::TimeLimit | Ending::Cancelled => ExitCode::from(EXIT_STOPPED),
    })
}

/// A position as printed: its game id, or the .ron file it was written to.
#[derive(Serialize)]
struct PositionJson {
    puzzle: String,
    moves: u32,
}

/// The JSON object `generate --json` prints.
#[derive(Serialize)]
struct GenerateJson {
    moves: u32,
    positions: Vec<PositionJson>,
    closest: Option<PositionJson>,
    ending: &'static str,
    walks: u64,
    solves: u64,
    seconds: f64,
}

fn name(
    found: &Found,
    rank: usize,
    output: Option<&mut super::common::RankedOutput<'_>>,
) -> anyhow::Result<PositionJson> {
    let puzzle = match (game_id::write(&found.puzzle), output) {
        (Ok(id), _) => id,
        (Err(_), Some(output)) => output
            .save(&found.puzzle, rank + 1, found.moves)?
            .display()
            .to_string(),
        (Err(error), None) => return Err(error.into()),
    };
    Ok(PositionJson {
        puzzle,
        moves: found.moves,
    })
}

fn ending_name(ending: Ending) -> &'static str {
    match ending {
        Ending::Complete => "complete",
        Ending::TimeLimit => "time-limit",
        Ending::Cancelled => "cancelled",
    }
}

fn ending_text(ending: Ending) -> &'static str {
    match ending {
        Ending::Complete => "all found",
        Ending::TimeLimit => "the time limit came first",
        Ending::Cancelled => "interrupted",
    }
}
