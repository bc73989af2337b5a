//! Command-line parts that look at one puzzle beyond a single answer: every optimal solution
//! (`solve --all-solutions`), hints (`hint`) and the exact distance map (`distances`).

use crate::model::{Puzzle, RobotColor, format_moves};
use crate::solver::all_solutions::{self, Enumeration};
use crate::solver::distances::{self, DistanceMap};
use crate::solver::hints::{self, HintLevel};
use crate::solver::{Limits, NoProbe, Outcome, Probe, SolverOptions, Stop};
use anyhow::Context;
use clap::Args;
use std::process::ExitCode;
use std::time::Duration;

/// Exit code for a run stopped by a limit or cancelled.
const EXIT_STOPPED: u8 = 3;
/// Exit code for a claimed solution that failed its replay.
const EXIT_INVALID: u8 = 4;

/// Lists every optimal solution for `solve --all-solutions`, printing text or one JSON object
/// (the solve report with `solutions`, `solution_count` and `complete` added).
pub fn solve_all<P: Probe>(
    solver: &str,
    puzzle: &Puzzle,
    options: &SolverOptions,
    max_solutions: usize,
    limits: &Limits,
    probe: &mut P,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let enumeration =
        all_solutions::enumerate(solver, puzzle, options, max_solutions, limits, probe)?;
    if json {
        println!("{}", enumeration_json(&enumeration));
    } else {
        print_enumeration(&enumeration);
    }
    Ok(enumeration_exit_code(&enumeration))
}

/// The exit code of a listing: 4 when a sequence failed its replay, 3 when a limit stopped the
/// solver or the listing, 0 otherwise.
fn enumeration_exit_code(enumeration: &Enumeration) -> ExitCode {
    if !enumeration.rejected.is_empty()
        || matches!(enumeration.optimum.outcome, Outcome::Invalid { .. })
    {
        return ExitCode::from(EXIT_INVALID);
    }
    let solver_stopped = matches!(
        enumeration.optimum.outcome,
        Outcome::Cancelled | Outcome::TimeLimit | Outcome::MemoryLimit
    );
    if solver_stopped || enumeration.stopped.is_some() {
        return ExitCode::from(EXIT_STOPPED);
    }
    ExitCode::SUCCESS
}

fn stop_name(stop: Stop) -> &'static str {
    match stop {
        Stop::Cancelled => "cancelled",
        Stop::TimeLimit => "time-limit",
        Stop::MemoryLimit => "memory-limit",
    }
}

/// The JSON object `solve --all-solutions --json` prints.
pub fn enumeration_json(enumeration: &Enumeration) -> serde_json::Value {
    let mut value = crate::cli::report_json(&enumeration.optimum);
    let solutions: Vec<Vec<String>> = enumeration
        .solutions
        .iter()
        .map(|moves| moves.iter().map(ToString::to_string).collect())
        .collect();
    value["solutions"] = serde_json::json!(solutions);
    value["solution_count"] = serde_json::json!(enumeration.solutions.len());
    value["complete"] = serde_json::json!(enumeration.complete);
    value["listing_millis"] = serde_json::json!(enumeration.elapsed.as_secs_f64() * 1000.0);
    value["listing_nodes"] = serde_json::json!(enumeration.nodes);
    if let Some(stop) = enumeration.stopped {
        value["listing_stopped"] = serde_json::json!(stop_name(stop));
    }
    if !enumeration.rejected.is_empty() {
        let rejected: Vec<String> = enumeration
            .rejected
            .iter()
            .map(|(moves, error)| format!("{}: {error}", format_moves(moves)))
            .collect();
        value["rejected"] = serde_json::json!(rejected);
    }
    value
}

fn print_enumeration(enumeration: &Enumeration) {
    crate::cli::print_report(&enumeration.optimum);
    if !matches!(enumeration.optimum.outcome, Outcome::Solved { .. }) {
        return;
    }
    let count = enumeration.solutions.len();
    let millis = enumeration.elapsed.as_secs_f64() * 1000.0;
    let what = match (enumeration.complete, enumeration.stopped) {
        (true, _) => format!("{count} optimal solutions, all of them"),
        (false, Some(stop)) => format!(
            "{count} optimal solutions found before the listing stopped ({})",
            stop_name(stop)
        ),
        (false, None) => format!("the first {count} optimal solutions; there are more"),
    };
    println!(
        "{what} (listed in {millis:.1} ms, {} nodes):",
        enumeration.nodes
    );
    let width = count.to_string().len();
    for (i, moves) in enumeration.solutions.iter().enumerate() {
        println!("{:>width$}. {}", i + 1, format_moves(moves));
    }
    for (moves, error) in &enumeration.rejected {
        println!("rejected: {} ({error})", format_moves(moves));
    }
}

/// Arguments of `hint`.
#[derive(Args, Debug)]
pub struct HintArgs {
    /// A .ron file, a .txt Cox file, or a game id.
    pub source: String,
    /// 1: the optimal move count; 2: which robots move; 3: the first move; 4: the whole
    /// solution.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=4))]
    pub level: u8,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<f64>,
    /// Apply the ricochet rule (no solutions of zero or one move).
    #[arg(long)]
    pub ricochet: bool,
    /// Apply the no-rebound rule (a robot may not move straight back).
    #[arg(long)]
    pub no_rebound: bool,
}

/// Runs `hint`: the first line is always `Moves: N`.
pub fn hint(args: &HintArgs) -> anyhow::Result<ExitCode> {
    let puzzle = with_rules(
        crate::cli::load(&args.source)?,
        args.ricochet,
        args.no_rebound,
    );
    let level = HintLevel::from_number(args.level)
        .with_context(|| format!("--level {} is not 1, 2, 3 or 4", args.level))?;
    let limits = Limits {
        time: seconds(args.time_limit, "--time-limit")?,
        ..Limits::default()
    };
    let hint = hints::hint(&puzzle, &limits, &mut NoProbe)?;
    for line in hint.lines(level) {
        println!("{line}");
    }
    Ok(match hint {
        hints::Hint::Unknown { .. } => ExitCode::from(EXIT_STOPPED),
        _ => ExitCode::SUCCESS,
    })
}

/// Arguments of `distances`.
#[derive(Args, Debug)]
pub struct DistancesArgs {
    /// A .ron file, a .txt Cox file, or a game id.
    pub source: String,
    /// Only this robot (R, G, B, Y or K); every robot when not given.
    #[arg(long, value_name = "R")]
    pub robot: Option<char>,
    /// Search every position up to this many moves.
    #[arg(long, value_name = "D", default_value_t = distances::DEFAULT_MAX_DEPTH)]
    pub max_depth: u32,
    /// Stop after this many seconds (the finished depths are kept).
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<f64>,
    /// Stop when the visited set exceeds this many MiB (the finished depths are kept).
    #[arg(long, value_name = "MIB", default_value_t = 4096)]
    pub memory_limit: u64,
    /// Apply the no-rebound rule (a robot may not move straight back).
    #[arg(long)]
    pub no_rebound: bool,
    /// Print one JSON object instead of grids.
    #[arg(long)]
    pub json: bool,
}

/// Runs `distances`.
pub fn distances(args: &DistancesArgs) -> anyhow::Result<ExitCode> {
    let puzzle = with_rules(crate::cli::load(&args.source)?, false, args.no_rebound);
    let only = match args.robot {
        None => None,
        Some(letter) => {
            let color = RobotColor::from_letter(letter)
                .with_context(|| format!("--robot {letter}: not a robot letter (R, G, B, Y, K)"))?;
            if puzzle.robot_index(color).is_none() {
                anyhow::bail!("--robot {letter}: the puzzle has no {color} robot");
            }
            Some(color)
        }
    };
    let limits = Limits {
        time: seconds(args.time_limit, "--time-limit")?,
        memory_bytes: Some((args.memory_limit as usize).saturating_mul(1 << 20)),
        cancel: None,
    };
    let map = distances::distance_map(&puzzle, args.max_depth, &limits, &mut NoProbe);
    if args.json {
        println!("{}", distances_json(&puzzle, &map, only));
    } else {
        print!("{}", distances_text(&puzzle, &map, only));
    }
    Ok(if map.stopped.is_some() {
        ExitCode::from(EXIT_STOPPED)
    } else {
        ExitCode::SUCCESS
    })
}

/// The JSON object `distances --json` prints: per robot, rows of exact distances and of rook
/// bounds (`null` where none), and the cells where they differ.
pub fn distances_json(
    puzzle: &Puzzle,
    map: &DistanceMap,
    only: Option<RobotColor>,
) -> serde_json::Value {
    let width = usize::from(map.width);
    let robots: Vec<serde_json::Value> = map
        .robots
        .iter()
        .filter(|r| only.is_none_or(|c| c == r.color))
        .map(|robot| {
            let rows = |values: &[Option<u32>]| -> Vec<Vec<Option<u32>>> {
                values.chunks(width).map(<[_]>::to_vec).collect()
            };
            let helpers: Vec<[u16; 2]> = (0..robot.exact.len())
                .filter(|&c| robot.needs_helpers(c as u16, map.depth))
                .map(|c| {
                    let pos = puzzle.board().pos(c as u16);
                    [pos.x, pos.y]
                })
                .collect();
            serde_json::json!({
                "robot": robot.color.letter().to_string(),
                "distances": rows(&robot.exact),
                "lower_bound": rows(&robot.lower_bound),
                "needs_helpers": helpers,
            })
        })
        .collect();
    let mut value = serde_json::json!({
        "width": map.width,
        "height": map.height,
        "depth": map.depth,
        "exhausted": map.exhausted,
        "states": map.states,
        "millis": map.elapsed.as_secs_f64() * 1000.0,
        "peak_memory_bytes": map.peak_memory,
        "levels": map.levels.iter().map(|l| serde_json::json!({
            "depth": l.depth,
            "expanded": l.nodes,
            "generated": l.inner,
            "seen": l.hits,
        })).collect::<Vec<_>>(),
        "robots": robots,
    });
    if let Some(stop) = map.stopped {
        value["stopped"] = serde_json::json!(stop_name(stop));
    }
    value
}

/// The text `distances` prints: a grid per robot, where each cell shows its exact distance
/// (`.` not reached, `#` closed, `*` after the number where it exceeds the rook bound).
pub fn distances_text(puzzle: &Puzzle, map: &DistanceMap, only: Option<RobotColor>) -> String {
    use std::fmt::Write;
    let board = puzzle.board();
    let mut out = String::new();
    let reach = if map.exhausted {
        format!("every reachable position (all within {} moves)", map.depth)
    } else {
        format!("every position within {} moves", map.depth)
    };
    let _ = writeln!(
        out,
        "{reach}: {} states in {:.1} ms",
        map.states,
        map.elapsed.as_secs_f64() * 1000.0
    );
    if let Some(stop) = map.stopped {
        let _ = writeln!(out, "stopped early: {}", stop_name(stop));
    }
    for robot in map
        .robots
        .iter()
        .filter(|r| only.is_none_or(|c| c == r.color))
    {
        let _ = writeln!(
            out,
            "\n{} robot ({}): fewest moves to each cell; * more than the rook bound (needs helpers)",
            robot.color,
            robot.color.letter()
        );
        for y in 0..map.height {
            for x in 0..map.width {
                let cell = board.cell(crate::model::Pos::new(x, y));
                let text = if board.is_closed(cell) {
                    " #".to_string()
                } else {
                    match robot.exact[usize::from(cell)] {
                        Some(d) => format!("{d:>2}"),
                        None => " .".to_string(),
                    }
                };
                let mark = if robot.needs_helpers(cell, map.depth) {
                    '*'
                } else {
                    ' '
                };
                let _ = write!(out, "{text}{mark}");
            }
            out.push('\n');
        }
    }
    out
}

fn with_rules(puzzle: Puzzle, ricochet: bool, no_rebound: bool) -> Puzzle {
    let mut rules = puzzle.rules();
    rules.ricochet |= ricochet;
    rules.no_rebound |= no_rebound;
    puzzle.with_rules(rules)
}

/// Reads a number of seconds from an option.
pub fn seconds(value: Option<f64>, option: &str) -> anyhow::Result<Option<Duration>> {
    value
        .map(|s| {
            Duration::try_from_secs_f64(s)
                .map_err(|_| anyhow::anyhow!("{option} must be a positive number of seconds"))
        })
        .transpose()
}

/// Arguments of `analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// A board: a .ron file, a .txt Cox file, or a game id (its walls, targets, robot colours
    /// and rules are used; its robot positions and goal are not).
    pub source: String,
    /// Random robot deals per target.
    #[arg(long, default_value_t = 100)]
    pub deals: u32,
    /// The seed every deal derives from; the same seed gives the same results.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (all cores when not given).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Per-position solve time limit in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub solve_limit: f64,
    /// Per-solve memory limit in MiB.
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
        default_value_t = 60.0,
        requires = "hardest"
    )]
    pub time_limit: f64,
    /// Where positions are saved as .ron files when the board has no game id.
    #[arg(long, value_name = "DIR", default_value = "hardest-positions")]
    pub save_dir: std::path::PathBuf,
    /// Write one row per position to this CSV file.
    #[arg(long, value_name = "CSV")]
    pub out: Option<std::path::PathBuf>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Runs `analyze` with a progress bar on stderr; Ctrl-C stops it and keeps what finished.
pub fn analyze(args: &AnalyzeArgs) -> anyhow::Result<ExitCode> {
    use crate::analyze::{self, AnalyzeConfig};
    use indicatif::{ProgressBar, ProgressStyle};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let puzzle = crate::cli::load(&args.source)?;
    if args.deals == 0 {
        anyhow::bail!("--deals must be at least 1");
    }
    let threads = match args.threads {
        Some(0) => anyhow::bail!("--threads must be at least 1"),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let config = AnalyzeConfig {
        deals: args.deals,
        seed: args.seed,
        threads,
        solve_time: seconds(Some(args.solve_limit), "--solve-limit")?
            .unwrap_or(Duration::from_secs(60)),
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
    let progress = ProgressBar::new(total);
    progress.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} positions  {elapsed_precise} elapsed, ETA {eta_precise}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed))
        .context("cannot install the Ctrl-C handler")?;
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
        let budget = seconds(Some(args.time_limit), "--time-limit")?.unwrap_or_default();
        let start = std::time::Instant::now();
        let count = hardest.len() as u32;
        let bar = ProgressBar::new(u64::from(count));
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} hardest positions improved  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        for (i, (moves, position, improved)) in hardest.iter_mut().enumerate() {
            // Each position gets an equal share of what time is left.
            let left = budget.saturating_sub(start.elapsed());
            let share = left / (count - i as u32);
            let deadline = std::time::Instant::now() + share;
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
    for (rank, (moves, position, improved)) in hardest.iter().enumerate() {
        let name = match crate::model::formats::game_id::write(position) {
            Ok(id) => id,
            Err(_) => {
                std::fs::create_dir_all(&args.save_dir)
                    .with_context(|| format!("cannot create {}", args.save_dir.display()))?;
                let path = args
                    .save_dir
                    .join(format!("hardest-{:02}-{moves}-moves.ron", rank + 1));
                crate::model::formats::save_puzzle(position, &path)?;
                path.display().to_string()
            }
        };
        named.push((*moves, name, improved.clone()));
    }

    if let Some(path) = &args.out {
        let text = analysis_csv(&analysis)?;
        crate::model::formats::save_atomic(path, &text)?;
    }
    if args.json {
        println!("{}", analysis_json(&analysis, &named, threads));
    } else {
        print!("{}", analysis_text(&analysis, &named, threads, args.deals));
    }
    if analysis.cancelled || cancel.load(Ordering::Relaxed) {
        eprintln!(
            "interrupted: the figures cover the {} positions that finished",
            analysis.results.len()
        );
        return Ok(ExitCode::from(EXIT_STOPPED));
    }
    Ok(ExitCode::SUCCESS)
}

/// One CSV row per position: target, deal, the position's game id (empty without one), the
/// optimal move count, the outcome and the solve time.
pub fn analysis_csv(analysis: &crate::analyze::Analysis) -> anyhow::Result<String> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record([
        "target", "x", "y", "color", "shape", "deal", "puzzle", "moves", "outcome", "millis",
    ])?;
    for r in &analysis.results {
        let target = analysis.targets[r.target];
        writer.write_record([
            r.target.to_string(),
            target.pos.x.to_string(),
            target.pos.y.to_string(),
            target.color.to_string(),
            target.shape.name().to_string(),
            r.deal.to_string(),
            crate::model::formats::game_id::write(&r.puzzle).unwrap_or_default(),
            r.moves.map(|m| m.to_string()).unwrap_or_default(),
            r.outcome.to_string(),
            format!("{:.3}", r.millis),
        ])?;
    }
    let bytes = writer.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(String::from_utf8(bytes)?)
}

type NamedPosition = (u32, String, Option<crate::analyze::Improved>);

/// The JSON object `analyze --json` prints.
pub fn analysis_json(
    analysis: &crate::analyze::Analysis,
    hardest: &[NamedPosition],
    threads: usize,
) -> serde_json::Value {
    let distribution: serde_json::Map<String, serde_json::Value> = analysis
        .distribution()
        .into_iter()
        .map(|(moves, count)| (moves.to_string(), serde_json::json!(count)))
        .collect();
    let targets: Vec<serde_json::Value> = analysis
        .per_target()
        .iter()
        .map(|t| {
            serde_json::json!({
                "index": t.index,
                "x": t.target.pos.x,
                "y": t.target.pos.y,
                "color": t.target.color.to_string(),
                "shape": t.target.shape.name(),
                "solved": t.solved,
                "unsolved": t.unsolved,
                "mean": t.mean,
                "max": t.max,
            })
        })
        .collect();
    let hardest: Vec<serde_json::Value> = hardest
        .iter()
        .map(|(moves, name, improved)| {
            let mut value = serde_json::json!({ "moves": moves, "puzzle": name });
            if let Some(improved) = improved {
                value["start_moves"] = serde_json::json!(improved.start_moves);
                value["local_optimum"] = serde_json::json!(improved.local_optimum);
            }
            value
        })
        .collect();
    serde_json::json!({
        "puzzles": analysis.solved(),
        "positions": analysis.results.len(),
        "unsolved": analysis.results.len() as u64 - analysis.solved(),
        "distribution": distribution,
        "mean": analysis.mean(),
        "short_share": analysis.short_share(),
        "targets": targets,
        "skipped_targets": analysis.skipped.len(),
        "hardest": hardest,
        "cancelled": analysis.cancelled,
        "threads": threads,
        "millis": analysis.elapsed.as_secs_f64() * 1000.0,
    })
}

/// The tables `analyze` prints.
pub fn analysis_text(
    analysis: &crate::analyze::Analysis,
    hardest: &[NamedPosition],
    threads: usize,
    deals: u32,
) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let analysed = analysis.targets.len() - analysis.skipped.len();
    let _ = writeln!(
        out,
        "{} positions ({analysed} targets x {deals} deals) solved optimally in {:.1} s on {threads} threads",
        analysis.results.len(),
        analysis.elapsed.as_secs_f64()
    );
    if !analysis.skipped.is_empty() {
        let _ = writeln!(
            out,
            "{} targets skipped: no robot of their colour",
            analysis.skipped.len()
        );
    }
    let unsolved = analysis.results.len() as u64 - analysis.solved();
    if unsolved > 0 {
        let _ = writeln!(
            out,
            "{unsolved} positions without a solution or stopped by a limit"
        );
    }
    let distribution = analysis.distribution();
    let largest = distribution.values().copied().max().unwrap_or(1).max(1);
    let _ = writeln!(out, "\noptimal moves  positions");
    for (moves, count) in &distribution {
        let bar = "#".repeat(((count * 40).div_ceil(largest)) as usize);
        let _ = writeln!(out, "{moves:>13}  {count:>9}  {bar}");
    }
    if let (Some(mean), Some(short)) = (analysis.mean(), analysis.short_share()) {
        let _ = writeln!(
            out,
            "\nmean {mean:.2} moves; {:.1}% take 1-2 moves",
            short * 100.0
        );
    }
    let _ = writeln!(out, "\ntarget                    mean   max");
    for t in analysis.per_target() {
        let name = format!(
            "{} {} ({}, {})",
            t.target.color,
            t.target.shape.name(),
            t.target.pos.x,
            t.target.pos.y
        );
        let mean = t.mean.map_or("-".to_string(), |m| format!("{m:.2}"));
        let max = t.max.map_or("-".to_string(), |m| m.to_string());
        let _ = writeln!(out, "{name:<24} {mean:>5} {max:>5}");
    }
    let _ = writeln!(out, "\nhardest positions (open with `ricochet-lab solve`):");
    for (moves, name, improved) in hardest {
        let note = match improved {
            Some(i) if i.moves > i.start_moves => format!(
                "  (local search: from {} moves{})",
                i.start_moves,
                if i.local_optimum {
                    ", local optimum"
                } else {
                    ""
                }
            ),
            Some(i) if i.local_optimum => "  (local optimum)".to_string(),
            _ => String::new(),
        };
        let _ = writeln!(out, "{moves:>3} moves  {name}{note}");
    }
    out
}
