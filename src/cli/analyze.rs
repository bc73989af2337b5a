//! `ricochet-lab analyze`: how hard is a board? Every target with many seeded robot deals,
//! solved optimally on all cores with a progress bar; Ctrl-C keeps what finished.

use super::analyze_report::{analysis_csv, analysis_json, analysis_text};
use super::common::EXIT_STOPPED;
use super::output::{out, outln};
use ricochet_lab::model::Puzzle;
use ricochet_lab::model::formats;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `analyze`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// A board: a .ron file, a .txt Cox file, or a game id (its walls, targets, robot colours
    /// and rules are used; its robot positions and goal are not).
    pub source: String,
    /// Random robot deals per target (at least 1).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    pub deals: u32,
    /// The seed every deal derives from; the same seed gives the same results.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (all cores when not given).
    #[arg(long, value_parser = super::common::thread_count)]
    pub threads: Option<usize>,
    /// Per-position solve time limit in seconds.
    #[arg(long, value_name = "SECS", default_value = "60", value_parser = super::common::seconds, allow_negative_numbers = true)]
    pub solve_limit: Duration,
    /// Stop a run when the solver's own tables (visited states, queues, transposition table)
    /// exceed this many MiB; the process holds more beside them (see docs/command-line.md).
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub memory_limit: u64,
    /// How many hardest positions to list.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,
    /// Then make the hardest positions harder by local search (move one robot, keep the
    /// change when the optimum grows).
    #[arg(long)]
    pub hardest: bool,
    /// With --hardest: the local search's total time in seconds.
    #[arg(
        long,
        value_name = "SECS",
        default_value = "60",
        value_parser = super::common::seconds,
        allow_negative_numbers = true,
        requires = "hardest"
    )]
    pub time_limit: Duration,
    /// Save the hardest positions as .ron files in this folder (made when missing) when they
    /// cannot be named by game ids (a board of other tiles, or one with rules, which a game id
    /// cannot hold); without it such positions are only described. A folder that holds
    /// positions of an earlier run is refused before the analysis, unless --force is given.
    #[arg(long, value_name = "DIR")]
    pub save_dir: Option<std::path::PathBuf>,
    /// Write one row per position to this CSV file.
    #[arg(long, value_name = "CSV")]
    pub out: Option<std::path::PathBuf>,
    /// Replace the files --out and --save-dir name when they exist.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Runs `analyze` with a progress bar on stderr; Ctrl-C stops it and keeps what finished.
pub fn run(args: &AnalyzeArgs) -> anyhow::Result<ExitCode> {
    use ricochet_lab::study::analyze::{self, AnalyzeConfig};
    use std::sync::atomic::Ordering;

    let puzzle = formats::load(&args.source)?;
    // Refused before the work, not after it: the files are written atomically at the end.
    if let Some(path) = &args.out
        && !args.force
        && path.exists()
    {
        anyhow::bail!(
            "{} already exists; give --force to replace it",
            path.display()
        );
    }
    if let Some(dir) = &args.save_dir {
        super::common::check_out_dir(dir, "hardest", args.top, args.force)?;
    }
    let threads = match args.threads {
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let config = AnalyzeConfig {
        deals: args.deals,
        seed: args.seed,
        threads,
        solve_time: args.solve_limit,
        memory_limit: (args.memory_limit as usize).saturating_mul(1 << 20),
    };
    let takeable = puzzle
        .board()
        .targets()
        .iter()
        .filter(|t| {
            t.color
                .robot()
                .is_none_or(|c| puzzle.robot_index(c).is_some())
        })
        .count();
    let total = takeable as u64 * u64::from(args.deals);
    let progress = super::common::progress_bar(total, "positions");
    let cancel = super::common::cancel_on_signal()?;
    let analysis = analyze::analyze(&puzzle, &config, &cancel, |result| {
        if let Some(moves) = result.moves {
            progress.set_message(format!("last: {moves} moves"));
        }
        progress.inc(1);
    });
    progress.finish_and_clear();
    let analysis = analysis?;

    let mut hardest: Vec<(u32, Puzzle, Option<analyze::Improved>)> = analysis
        .hardest(args.top)
        .into_iter()
        .filter_map(|r| r.moves.map(|m| (m, r.puzzle.clone(), None)))
        .collect();
    if args.hardest && !cancel.load(Ordering::Relaxed) && !hardest.is_empty() {
        let budget = args.time_limit;
        let start = std::time::Instant::now();
        let count = hardest.len() as u32;
        let bar = super::common::progress_bar(u64::from(count), "hardest positions improved");
        for (i, (moves, position, improved)) in hardest.iter_mut().enumerate() {
            // Each position gets an equal share of what time is left.
            let left = budget.saturating_sub(start.elapsed());
            let share = left / (count - i as u32);
            // A share past what the clock holds is as good as none: a deadline some 136 years
            // away, which every clock holds, so only Ctrl-C ends the search.
            let now = std::time::Instant::now();
            let deadline = now
                .checked_add(share)
                .unwrap_or(now + Duration::from_secs(u32::MAX.into()));
            let result = analyze::improve(
                position,
                *moves,
                analyze::deal_seed(args.seed, usize::MAX >> 1, i as u32),
                &config,
                deadline,
                &cancel,
            )?;
            bar.set_message(format!("{} -> {} moves", result.start_moves, result.moves));
            *moves = result.moves;
            *position = result.puzzle.clone();
            *improved = Some(result);
            bar.inc(1);
        }
        bar.finish_and_clear();
        hardest.sort_by_key(|h| std::cmp::Reverse(h.0));
    }

    // Name every hardest position by its game id, or save it when the board has none.
    let mut named = Vec::with_capacity(hardest.len());
    let mut output = args
        .save_dir
        .as_deref()
        .map(|dir| super::common::RankedOutput::new(dir, "hardest", args.force));
    for (rank, (moves, position, improved)) in hardest.iter().enumerate() {
        let name = match (
            ricochet_lab::model::formats::game_id::write(position),
            output.as_mut(),
        ) {
            (Ok(id), _) => id,
            (Err(_), Some(output)) => output
                .save(position, rank + 1, *moves)?
                .display()
                .to_string(),
            (Err(error), None) => format!("no game id: {error}; give --save-dir DIR to save it"),
        };
        named.push((*moves, name, improved.clone()));
    }
    if let Some(output) = output {
        output.finish()?;
    }

    if let Some(path) = &args.out {
        let text = analysis_csv(&analysis)?;
        ricochet_lab::model::formats::save_atomic_with(
            path,
            &text,
            super::common::overwrite(args.force),
        )
        .map_err(super::common::save_error)?;
    }
    if args.json {
        outln!(
            "{}",
            super::common::json_line(&analysis_json(&analysis, &named, threads))?
        )?;
    } else {
        out!("{}", analysis_text(&analysis, &named, threads, args.deals))?;
    }
    if analysis.cancelled || cancel.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: the figures cover the {} positions that finished",
            analysis.results.len()
        );
        return Ok(ExitCode::from(EXIT_STOPPED));
    }
    if analysis.stopped() > 0 {
        eprintln!(
            "{} positions were stopped by a limit; the figures cover the {} solved",
            analysis.stopped(),
            analysis.solved()
        );
        return Ok(ExitCode::from(EXIT_STOPPED));
    }
    Ok(ExitCode::SUCCESS)
}
