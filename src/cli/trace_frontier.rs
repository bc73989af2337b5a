//! `ricochet-lab trace frontier`: what a search held at an event of its trace: the open list
//! of a breadth-first or best-first search with g, h and f, or a depth-first search's stack.

use super::output::outln;
use super::trace_diff::cells_text;
use ricochet_lab::model::{Board, format_moves};
use ricochet_lab::solver::SearchShape;
use ricochet_lab::solver::trace::{
    Frontier, FrontierBuilder, STACK_LOOKAHEAD, Stack, shape_of_trace, stack_at,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `trace frontier`.
#[derive(clap::Args, Debug)]
pub(super) struct FrontierArgs {
    /// The trace file.
    file: PathBuf,
    /// The event after which to show it (numbered from 0, as `trace events` numbers them).
    #[arg(long, value_name = "EVENT")]
    at: u64,
    /// How many of the open list's next entries to print.
    #[arg(long, default_value_t = 10, value_name = "K")]
    top: usize,
    /// Print it as one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `trace frontier`.
pub(super) fn frontier(args: &FrontierArgs) -> anyhow::Result<ExitCode> {
    let reader = super::trace_open::open(&args.file)?;
    if args.at >= reader.events() {
        anyhow::bail!(
            "{} has {} events (0 to {}); there is no event {}",
            args.file.display(),
            reader.events(),
            reader.events().saturating_sub(1),
            args.at
        );
    }
    let shape = shape_of_trace(&reader);
    match shape {
        SearchShape::Queue | SearchShape::BestFirst(_) => {
            let Some(mut builder) = FrontierBuilder::new(shape, reader.puzzle()) else {
                unreachable!("a queue and a best-first search have an open list")
            };
            let frontier = builder.build(&reader, args.at, args.top)?;
            if args.json {
                outln!(
                    "{}",
                    serde_json::json!({ "kind": "open-list", "frontier": frontier })
                )?;
            } else {
                print_frontier(reader.puzzle().board(), &frontier, shape)?;
            }
        }
        SearchShape::DepthFirst(heuristic) => {
            let stack = stack_at(&reader, args.at, heuristic, STACK_LOOKAHEAD)?;
            if args.json {
                outln!("{}", serde_json::json!({ "kind": "stack", "stack": stack }))?;
            } else {
                print_stack(&stack)?;
            }
        }
        SearchShape::Own => anyhow::bail!(
            "{} is a trace of {}, which orders its nodes its own way: it keeps no open list or \
             stack that its trace shows",
            args.file.display(),
            reader.header().solver_title
        ),
    }
    Ok(ExitCode::SUCCESS)
}

fn print_frontier(board: &Board, frontier: &Frontier, shape: SearchShape) -> anyhow::Result<()> {
    let order = match shape {
        SearchShape::Queue => "first in, first out",
        _ => "lowest f = g + h first, the newest of equal f first",
    };
    outln!(
        "after event {}: {} in the open list, {} examined (closed); next in order ({order}):",
        frontier.after_event,
        frontier.size,
        frontier.closed
    )?;
    outln!(
        "{:>4} {:>12} {:>4} {:>4} {:>4}  {:<28} cells",
        "#",
        "generated at",
        "g",
        "h",
        "f",
        "path"
    )?;
    for (rank, entry) in frontier.next.iter().enumerate() {
        outln!(
            "{:>4} {:>12} {:>4} {:>4} {:>4}  {:<28} {}",
            if rank == 0 {
                "next".to_string()
            } else {
                (rank + 1).to_string()
            },
            entry.event,
            entry.g,
            entry.h.map_or_else(|| "-".to_string(), |h| h.to_string()),
            entry.f(),
            format_moves(&entry.path),
            cells_text(board, &entry.cells)
        )?;
    }
    Ok(())
}

fn print_stack(stack: &Stack) -> anyhow::Result<()> {
    outln!(
        "after event {}: a stack of {} levels, bound {}",
        stack.after_event,
        stack.levels.len(),
        stack
            .bound
            .map_or_else(|| "none".to_string(), |b| b.to_string())
    )?;
    outln!(
        "{:>4} {:>4} {:>4}  {:<6} {:<36} left to try",
        "g",
        "h",
        "f",
        "move",
        "legal moves"
    )?;
    for level in &stack.levels {
        let left = format_moves(&level.left);
        outln!(
            "{:>4} {:>4} {:>4}  {:<6} {:<36} {}{}",
            level.g,
            level.h.map_or_else(|| "-".to_string(), |h| h.to_string()),
            level.g + level.h.unwrap_or(0),
            level
                .taken
                .map_or_else(|| "(here)".to_string(), |m| m.to_string()),
            format_moves(&level.legal),
            if left.is_empty() { "none" } else { &left },
            if level.left_complete {
                ""
            } else {
                " (the trace has not told all)"
            }
        )?;
    }
    Ok(())
}
