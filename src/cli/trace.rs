//! `ricochet-lab trace`: records a whole search to a trace file, tells what one holds,
//! exports it for other viewers and compares two (see docs/trace-format.md).

use super::common::EXIT_STOPPED;
use super::output::outln;
use super::report::{PrintRows, print_report};
use super::trace_open::open;
use ricochet_lab::model::{format_moves, formats};
use ricochet_lab::solver::trace::{self, EventKind, TraceReader, TraceRow, TracedEvent};
use ricochet_lab::solver::{Event, Limits, SolverOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The arguments of `trace`.
#[derive(clap::Args, Debug)]
pub struct TraceArgs {
    #[command(subcommand)]
    command: TraceCommand,
}

#[derive(clap::Subcommand, Debug)]
enum TraceCommand {
    /// Solve a puzzle, recording every event of the search to a trace file.
    Record(RecordArgs),
    /// Print what a trace holds: its puzzle and solver, its events by kind, its rows.
    Info(InfoArgs),
    /// Write a trace's events as JSON lines, or as a Posthoc search trace.
    Export(ExportArgs),
    /// Compare two traces of one puzzle: their rows side by side and the first event at which
    /// the searches differ, or by states the positions each reaches at each number of moves
    /// (exit 0 when they are the same, 1 when they differ, 2 when they cannot be compared).
    Diff(super::trace_diff::DiffArgs),
    /// Show what a search held after an event: the open list of a breadth-first or best-first
    /// search in the order it is examined, with g, h and f, or a depth-first search's stack.
    Frontier(super::trace_frontier::FrontierArgs),
    /// Print events from a given number on, each with the path and cells of its node.
    Events(EventsArgs),
    /// Print the search tree's nodes below a node (the roots when none is given), each with
    /// what became of it and its subtree's node count.
    Tree(TreeArgs),
    /// Draw the nodes examined between two events as an animated GIF or PNG, or as numbered
    /// PNG frames, one frame per node with its path from the start as arrows.
    Animate(super::trace_animate::AnimateArgs),
}

#[derive(clap::Args, Debug)]
struct EventsArgs {
    /// The trace file.
    file: PathBuf,
    /// The number of the first event to print (from 0).
    #[arg(long, default_value_t = 0)]
    from: u64,
    /// How many events to print.
    #[arg(long, default_value_t = 20)]
    count: u64,
}

#[derive(clap::Args, Debug)]
struct TreeArgs {
    /// The trace file.
    file: PathBuf,
    /// The event number of the node whose children to print (the roots when left out).
    #[arg(long, value_name = "EVENT")]
    node: Option<u64>,
}

#[derive(clap::Args, Debug)]
struct RecordArgs {
    /// A .ron file, a .txt Cox file, or a game id.
    source: String,
    /// The solver (see `ricochet-lab solvers`) or a registered engine.
    #[arg(long, default_value = "iddfs")]
    solver: String,
    /// An engine's command line, run once as the solver.
    #[arg(long, value_name = "\"CMD ARGS\"", conflicts_with = "solver")]
    engine: Option<String>,
    /// The trace file to write (replaced if it exists).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Stop after this many seconds (the trace is kept, marked incomplete).
    #[arg(long, value_name = "SECS", value_parser = super::common::seconds)]
    time_limit: Option<Duration>,
    /// Stop a run before the process holds more than this many MiB.
    #[arg(long, value_name = "MIB", default_value_t = 8192)]
    memory_limit: u64,
    /// The deepest search a depth-limited solver tries.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    depth_limit: Option<u32>,
    /// Run the search as the app's debugger does (its stepping probe, running to the end
    /// with no pause) and keep the debugger's trace: what a debugged run costs beside a
    /// plain one.
    #[arg(long)]
    debugged: bool,
}

#[derive(clap::Args, Debug)]
struct InfoArgs {
    /// The trace file.
    file: PathBuf,
}

#[derive(clap::Args, Debug)]
struct ExportArgs {
    /// The trace file.
    file: PathBuf,
    /// `jsonl`: one JSON object per event; `posthoc`: Posthoc's search trace (YAML), which
    /// its viewer opens (at most 1,000,000 events).
    #[arg(long, value_parser = ["jsonl", "posthoc"])]
    format: String,
    /// Where to write it (`-`, the default: standard output).
    #[arg(short, long, default_value = "-")]
    output: String,
    /// Export at most this many events from the start (all by default, within the format's
    /// limit).
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
}

/// The most events `trace export --format posthoc` writes: Posthoc's viewer holds the whole
/// trace in a browser page, which past about a million events no longer responds.
pub const POSTHOC_MAX_EVENTS: u64 = 1_000_000;

/// Runs a `trace` command.
pub fn run(args: TraceArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        TraceCommand::Record(args) => record(&args),
        TraceCommand::Info(args) => info(&args.file),
        TraceCommand::Export(args) => export(&args),
        TraceCommand::Diff(args) => super::trace_diff::diff(&args),
        TraceCommand::Frontier(args) => super::trace_frontier::frontier(&args),
        TraceCommand::Events(args) => events(&args),
        TraceCommand::Tree(args) => tree(&args),
        TraceCommand::Animate(args) => super::trace_animate::animate(&args),
    }
}

fn record(args: &RecordArgs) -> anyhow::Result<ExitCode> {
    let puzzle = formats::load(&args.source)?;
    let choice = super::engine::solver_choice(&args.solver, args.engine.as_deref())?;
    let limits = Limits {
        time: args.time_limit,
        memory_bytes: if choice.is_engine() {
            None
        } else {
            Some(super::common::search_budget(args.memory_limit)?)
        },
        cancel: Some(super::common::cancel_on_signal()?),
    };
    let options = SolverOptions {
        depth_limit: args.depth_limit,
        ..SolverOptions::default()
    };
    if args.debugged {
        return record_debugged(args, choice, puzzle, &limits, options);
    }
    let rows = PrintRows::with_columns(choice.columns());
    let started = Instant::now();
    let (report, summary) = trace::record(&choice, &puzzle, &options, &limits, &args.output, rows)
        .map_err(|error| {
            anyhow::anyhow!(
                "could not record the trace {}: {error}",
                args.output.display()
            )
        })?;
    let seconds = started.elapsed().as_secs_f64();
    print_report(&report)?;
    let bytes = std::fs::metadata(&args.output).map_or(0, |m| m.len());
    outln!(
        "trace {}: {} events in {} bytes ({:.2} bytes an event), {:.1} s{}",
        args.output.display(),
        summary.events,
        bytes,
        bytes as f64 / summary.events.max(1) as f64,
        seconds,
        if summary.complete {
            String::new()
        } else {
            format!(", incomplete: {}", summary.end)
        }
    )?;
    Ok(if summary.complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_STOPPED)
    })
}

/// Records through the debugger's probe on its worker thread, as a debugged run in the app
/// that runs to its end, then copies the run's trace to the output.
fn record_debugged(
    args: &RecordArgs,
    choice: ricochet_lab::solver::SolverChoice,
    puzzle: ricochet_lab::model::Puzzle,
    limits: &Limits,
    options: SolverOptions,
) -> anyhow::Result<ExitCode> {
    use ricochet_lab::worker::debug::DebugSetup;
    use ricochet_lab::worker::{RunEnd, SolveJob};
    let mut job = SolveJob::new(choice, puzzle);
    job.options = options;
    job.time_limit = limits.time;
    let setup = DebugSetup {
        start_paused: false,
        ..DebugSetup::default()
    };
    let started = Instant::now();
    let (mut run, debug) = job.spawn_debug(std::sync::Arc::new(|_| {}), setup)?;
    let cancel = limits.cancel.clone();
    let end = loop {
        if let Some(end) = run.wait(Duration::from_millis(20)) {
            break end.clone();
        }
        if cancel
            .as_ref()
            .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
        {
            run.cancel();
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    let report = match end {
        RunEnd::Finished(report) => report,
        RunEnd::Refused(error) => return Err(error.into()),
        RunEnd::Crashed(message) => anyhow::bail!("the solver crashed: {message}"),
    };
    print_report(&report)?;
    if let Some(reason) = debug.frame().stop_reason {
        anyhow::bail!("{reason}");
    }
    let bytes = trace::copy_trace(&debug.trace_path(), &args.output)?;
    let (_, complete) = trace::outcome_words(&report.outcome);
    outln!(
        "trace {}: {} events in {bytes} bytes through the debugger, {seconds:.1} s",
        args.output.display(),
        debug.recorded_events()
    )?;
    Ok(if complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_STOPPED)
    })
}

fn info(path: &Path) -> anyhow::Result<ExitCode> {
    let mut reader = TraceReader::open(path)?;
    let health = reader.check()?;
    let header = reader.header().clone();
    outln!("trace:    {}", path.display())?;
    outln!(
        "written:  {} (trace format version {})",
        header.program,
        reader.version()
    )?;
    outln!(
        "solver:   {} ({}){}",
        header.solver,
        header.solver_title,
        if header.external { ", external" } else { "" }
    )?;
    outln!("puzzle:   {}", puzzle_line(reader.puzzle()))?;
    let rules = reader.puzzle().rules();
    outln!(
        "rules:    ricochet {}, no rebound {}",
        if rules.ricochet { "on" } else { "off" },
        if rules.no_rebound { "on" } else { "off" }
    )?;
    outln!("state:    {}", health.words())?;
    if let trace::Health::Damaged(why) = &health {
        // What the footer says of the run cannot be trusted, nor can the events be counted:
        // the damage is the answer, with where it is.
        anyhow::bail!("{} is damaged: {why}", path.display());
    }
    let summary = reader.summary()?;
    outln!(
        "ended:    {}{}",
        summary.end,
        if summary.complete {
            ""
        } else {
            " (incomplete)"
        }
    )?;
    if let Some(solution) = &summary.solution {
        outln!("solution: {solution}")?;
    }
    outln!(
        "events:   {} in {} block{}, {} bytes",
        summary.events,
        reader.blocks().len(),
        if reader.blocks().len() == 1 { "" } else { "s" },
        std::fs::metadata(path).map_or(0, |m| m.len())
    )?;
    for (kind, count) in &summary.by_kind {
        outln!("  {kind:<16} {count:>14}")?;
    }
    print_rows(&summary.rows)?;
    Ok(ExitCode::SUCCESS)
}

fn puzzle_line(puzzle: &ricochet_lab::model::Puzzle) -> String {
    let board = puzzle.board();
    format!(
        "{}x{} board, {} robots",
        board.width(),
        board.height(),
        puzzle.robots().len()
    )
}

fn print_rows(rows: &[TraceRow]) -> anyhow::Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    outln!(
        "{:>6} {:>14} {:>14} {:>14}",
        "depth",
        "nodes",
        "inner",
        "hits"
    )?;
    for row in rows {
        outln!(
            "{:>6} {:>14} {:>14} {:>14}",
            row.depth,
            row.nodes,
            row.inner,
            row.hits
        )?;
    }
    Ok(())
}

fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let reader = open(&args.file)?;
    if reader.events() == 0 {
        // An empty export would pass for a search with nothing in it.
        anyhow::bail!(
            "{} holds no event to export ({})",
            args.file.display(),
            reader.health().words()
        );
    }
    let events = reader.events().min(args.limit.unwrap_or(u64::MAX));
    if args.format == "posthoc" && events > POSTHOC_MAX_EVENTS {
        anyhow::bail!(
            "{} has {events} events; a Posthoc trace holds at most {POSTHOC_MAX_EVENTS} (its viewer \
             keeps them all in a browser page): export the first ones with --limit {POSTHOC_MAX_EVENTS}",
            args.file.display()
        );
    }
    let write = |out: &mut dyn Write| -> anyhow::Result<()> {
        let mut replay = reader.replay(0)?;
        let mut posthoc =
            (args.format == "posthoc").then(|| super::trace_posthoc::PosthocWriter::new(&reader));
        if let Some(posthoc) = &mut posthoc {
            posthoc.head(out)?;
        }
        let estimates = trace::Estimates::of_trace(&reader);
        while let Some(event) = replay.next_event()? {
            if event.index >= events {
                break;
            }
            match &mut posthoc {
                Some(posthoc) => posthoc.event(out, &event)?,
                None => writeln!(
                    out,
                    "{}",
                    json_event(&event, reader.puzzle().board(), &estimates)
                )?,
            }
        }
        if let Some(posthoc) = &mut posthoc {
            posthoc.finish(out)?;
        }
        out.flush()?;
        Ok(())
    };
    if args.output == "-" {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        write(&mut out)?;
    } else {
        let path = Path::new(&args.output);
        let mut text = Vec::new();
        write(&mut text)?;
        formats::save_bytes_atomic_with(path, &text, formats::Overwrite::Allow)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One event as a JSON object; a solver's own event as its description on `board`. A node
/// carries g, and h and f where the solver estimates; a prune its reason in words.
fn json_event(
    event: &TracedEvent,
    board: &ricochet_lab::model::Board,
    estimates: &trace::Estimates,
) -> serde_json::Value {
    use serde_json::json;
    let kind = EventKind::of(&event.event).name();
    match &event.event {
        Event::Node { depth, cells, path } => {
            let h = estimates.h(cells.as_slice(), *depth);
            json!({
                "index": event.index, "kind": kind, "depth": depth,
                "path": format_moves(path), "cells": cells.as_slice(),
                "g": depth, "h": h, "f": h.map(|h| depth + h),
            })
        }
        Event::Generated {
            depth,
            cells,
            path,
            h,
        } => json!({
            "index": event.index, "kind": kind, "depth": depth,
            "path": format_moves(path), "cells": cells.as_slice(),
            "g": depth, "h": h, "f": h.map(|h| depth + h),
        }),
        Event::Pruned { depth, reason } => json!({
            "index": event.index, "kind": kind, "depth": depth,
            "reason": reason.to_string(),
        }),
        Event::IterationStarted { depth } => json!({
            "index": event.index, "kind": kind, "depth": depth,
        }),
        Event::IterationFinished(stats) => json!({
            "index": event.index, "kind": kind, "depth": stats.depth,
            "nodes": stats.nodes, "inner": stats.inner, "hits": stats.hits,
        }),
        Event::Solution { moves } => json!({
            "index": event.index, "kind": kind, "moves": format_moves(moves),
        }),
        Event::Solver(payload) => json!({
            "index": event.index, "kind": kind, "text": payload.describe(board),
        }),
        other => json!({
            "index": event.index, "kind": kind, "text": format!("{other:?}"),
        }),
    }
}

fn events(args: &EventsArgs) -> anyhow::Result<ExitCode> {
    let reader = open(&args.file)?;
    let started = Instant::now();
    let mut replay = reader.replay(args.from)?;
    let estimates = trace::Estimates::of_trace(&reader);
    let mut printed = 0;
    while printed < args.count {
        let Some(event) = replay.next_event()? else {
            break;
        };
        if printed == 0 {
            outln!(
                "(event {} reached in {:.1} ms)",
                event.index,
                started.elapsed().as_secs_f64() * 1000.0
            )?;
        }
        outln!(
            "{}",
            json_event(&event, reader.puzzle().board(), &estimates)
        )?;
        printed += 1;
    }
    if printed == 0 {
        anyhow::bail!(
            "{} has {} events; there is no event {}",
            args.file.display(),
            reader.events(),
            args.from
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn tree(args: &TreeArgs) -> anyhow::Result<ExitCode> {
    let reader = open(&args.file)?;
    let started = Instant::now();
    let nodes = match args.node {
        None => reader.tree_roots()?,
        Some(event) => {
            let Some(parent) = reader.tree_node_at(event)? else {
                anyhow::bail!("event {event} of {} is not a node", args.file.display());
            };
            reader.tree_children(&parent)?
        }
    };
    let millis = started.elapsed().as_secs_f64() * 1000.0;
    for node in &nodes {
        outln!(
            "event {:>12}  iteration {:>4}  depth {:>3}  {:<24} {:>14} nodes  {:?}{}",
            node.event,
            node.iteration
                .map_or_else(|| "-".to_string(), |i| i.to_string()),
            node.depth,
            node.path
                .last()
                .map_or_else(|| "(start)".to_string(), ToString::to_string),
            node.subtree_nodes,
            node.fate,
            if node.transposition {
                "  (transposition)"
            } else {
                ""
            }
        )?;
    }
    outln!("{} nodes read in {millis:.1} ms", nodes.len())?;
    Ok(ExitCode::SUCCESS)
}
