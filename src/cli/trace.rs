//! `ricochet-lab trace`: records a whole search to a trace file, tells what one holds,
//! exports it for other viewers and compares two (see docs/trace-format.md).

use super::common::EXIT_STOPPED;
use super::output::outln;
use super::report::{PrintRows, print_report};
use ricochet_lab::model::{format_moves, formats};
use ricochet_lab::solver::trace::{
    self, DivergenceRule, EventKind, TraceComparison, TraceReader, TraceRow, TracedEvent,
};
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
    /// the searches differ (exit 0 when they are the same, 1 when they differ).
    Diff(DiffArgs),
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

#[derive(clap::Args, Debug)]
struct DiffArgs {
    /// The first trace.
    first: PathBuf,
    /// The second trace, of the same puzzle.
    second: PathBuf,
    /// `order`: the same nodes in the same order; `sets`: the same nodes in each iteration,
    /// in any order (for solvers that order their moves differently).
    #[arg(long, value_parser = ["order", "sets"], default_value = "order")]
    rule: String,
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
        TraceCommand::Diff(args) => diff(&args),
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

fn open(path: &Path) -> anyhow::Result<TraceReader> {
    Ok(TraceReader::open(path)?)
}

fn info(path: &Path) -> anyhow::Result<ExitCode> {
    let mut reader = open(path)?;
    let summary = reader.summary()?;
    let header = reader.header().clone();
    outln!("trace:    {}", path.display())?;
    outln!("written:  {}", header.program)?;
    outln!(
        "solver:   {} ({}){}",
        header.solver,
        header.solver_title,
        if header.external { ", external" } else { "" }
    )?;
    outln!("puzzle:   {}", puzzle_line(reader.puzzle()))?;
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
        if args.format == "posthoc" {
            posthoc_head(out)?;
        }
        let width = reader.puzzle().board().width();
        let robot = reader.puzzle().active_robot().unwrap_or(0);
        let mut last_node = None;
        while let Some(event) = replay.next_event()? {
            if event.index >= events {
                break;
            }
            if args.format == "posthoc" {
                posthoc_event(out, &event, &mut last_node, width, robot)?;
            } else {
                writeln!(out, "{}", json_event(&event, reader.puzzle().board()))?;
            }
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

/// One event as a JSON object; a solver's own event as its description on `board`.
fn json_event(event: &TracedEvent, board: &ricochet_lab::model::Board) -> serde_json::Value {
    use serde_json::json;
    let kind = EventKind::of(&event.event).name();
    match &event.event {
        Event::Node { depth, cells, path } => json!({
            "index": event.index, "kind": kind, "depth": depth,
            "path": format_moves(path), "cells": cells.as_slice(),
        }),
        Event::Pruned { depth, reason } => json!({
            "index": event.index, "kind": kind, "depth": depth,
            "reason": format!("{reason:?}"),
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

/// Posthoc's trace header (its format 1.4.0): how to draw a node, as a square at the cell of
/// the robot the target asks for (the first robot when any may reach it).
fn posthoc_head(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "version: 1.4.0")?;
    writeln!(out, "views:")?;
    writeln!(out, "  main:")?;
    writeln!(out, "    - $: rect")?;
    writeln!(out, "      fill: ${{{{ color[$.type] }}}}")?;
    writeln!(out, "      width: 1")?;
    writeln!(out, "      height: 1")?;
    writeln!(out, "      x: ${{{{ $.x }}}}")?;
    writeln!(out, "      y: ${{{{ $.y }}}}")?;
    writeln!(out, "events:")
}

/// One Posthoc event: a node is `expanding` (its id its path, its parent's id the path less
/// its last move, placed at its robot's cell), a prune `closing` it, a solution `end`.
fn posthoc_event(
    out: &mut dyn Write,
    event: &TracedEvent,
    last_node: &mut Option<(String, u16, u16)>,
    width: u16,
    robot: usize,
) -> std::io::Result<()> {
    match &event.event {
        Event::Node { path, cells, .. } => {
            let id = posthoc_id(path);
            let parent = path
                .split_last()
                .map(|(_, rest)| posthoc_id(rest))
                .unwrap_or_default();
            let cell = cells.as_slice().get(robot).copied().unwrap_or(0);
            let (x, y) = (cell % width, cell / width);
            writeln!(
                out,
                "  - {{ type: expanding, id: \"{id}\", pId: \"{parent}\", x: {x}, y: {y} }}"
            )?;
            *last_node = Some((id, x, y));
            Ok(())
        }
        Event::Pruned { .. } => match last_node {
            Some((id, x, y)) => {
                writeln!(out, "  - {{ type: closing, id: \"{id}\", x: {x}, y: {y} }}")
            }
            None => Ok(()),
        },
        Event::Solution { moves } => {
            writeln!(out, "  - {{ type: end, id: \"{}\" }}", posthoc_id(moves))
        }
        _ => Ok(()),
    }
}

fn posthoc_id(path: &[ricochet_lab::model::Move]) -> String {
    if path.is_empty() {
        "root".to_string()
    } else {
        path.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("-")
    }
}

fn diff(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let rule = if args.rule == "sets" {
        DivergenceRule::Sets
    } else {
        DivergenceRule::Order
    };
    // Exit code 1 says the searches differ, so a comparison that cannot be made (a file that
    // does not read, traces of two puzzles) ends with 2, as `diff` and `cmp` do, the message
    // on standard error.
    let compared = (|| -> Result<_, trace::TraceError> {
        let mut first = TraceReader::open(&args.first)?;
        let mut second = TraceReader::open(&args.second)?;
        let comparison = trace::compare_traces(&mut first, &mut second, rule)?;
        Ok((first, second, comparison))
    })();
    let (first, second, comparison) =
        compared.map_err(|error| super::output::usage(error.to_string()))?;
    print_comparison(&first, &second, &comparison)?;
    Ok(if comparison.divergence.is_some() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_comparison(
    first: &TraceReader,
    second: &TraceReader,
    comparison: &TraceComparison,
) -> anyhow::Result<()> {
    outln!(
        "first:  {} ({})",
        first.path().display(),
        first.header().solver
    )?;
    outln!(
        "second: {} ({})",
        second.path().display(),
        second.header().solver
    )?;
    outln!(
        "{:>6} {:>14} {:>14} {:>14}",
        "depth",
        "first nodes",
        "second nodes",
        "difference"
    )?;
    let depths: std::collections::BTreeSet<u32> = comparison
        .first_rows
        .iter()
        .chain(&comparison.second_rows)
        .map(|r| r.depth)
        .collect();
    for depth in depths {
        let nodes = |rows: &[TraceRow]| rows.iter().find(|r| r.depth == depth).map(|r| r.nodes);
        let (a, b) = (
            nodes(&comparison.first_rows),
            nodes(&comparison.second_rows),
        );
        let show = |n: Option<u64>| n.map_or_else(|| "–".to_string(), |n| n.to_string());
        let difference = match (a, b) {
            (Some(a), Some(b)) => format!("{:+}", b as i128 - a as i128),
            _ => "–".to_string(),
        };
        outln!(
            "{depth:>6} {:>14} {:>14} {difference:>14}",
            show(a),
            show(b)
        )?;
    }
    match &comparison.divergence {
        None => outln!(
            "same search: {} nodes compared, no difference",
            comparison.nodes_compared
        )?,
        Some(divergence) => {
            outln!(
                "first difference after {} equal nodes: {}",
                comparison.nodes_compared,
                divergence.why
            )?;
            for (name, event) in [("first", &divergence.first), ("second", &divergence.second)] {
                match event {
                    Some(event) => {
                        let Event::Node { depth, path, cells } = &event.event else {
                            continue;
                        };
                        outln!(
                            "  {name}: event {}, depth {depth}, path {}, cells {:?}",
                            event.index,
                            if path.is_empty() {
                                "(the start)".to_string()
                            } else {
                                format_moves(path)
                            },
                            cells.as_slice()
                        )?;
                    }
                    None => outln!("  {name}: no node")?,
                }
            }
        }
    }
    Ok(())
}

fn events(args: &EventsArgs) -> anyhow::Result<ExitCode> {
    let reader = open(&args.file)?;
    let started = Instant::now();
    let mut replay = reader.replay(args.from)?;
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
        outln!("{}", json_event(&event, reader.puzzle().board()))?;
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
