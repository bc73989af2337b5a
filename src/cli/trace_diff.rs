//! `ricochet-lab trace diff`: two traces of one puzzle compared, node by node within one
//! algorithm family or by the positions each reaches at each number of moves across any two.

use super::output::outln;
use ricochet_lab::model::{Board, Cell, format_moves};
use ricochet_lab::solver::Event;
use ricochet_lab::solver::trace::{
    self, DivergenceRule, Reached, StateComparison, StateDifference, TraceComparison, TraceReader,
    TraceRow,
};
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `trace diff`.
#[derive(clap::Args, Debug)]
pub(super) struct DiffArgs {
    /// The first trace.
    first: PathBuf,
    /// The second trace, of the same puzzle.
    second: PathBuf,
    /// `order`: the same nodes in the same order; `sets`: the same nodes in each iteration,
    /// in any order (for solvers that order their moves differently); `states`: the same
    /// positions first reached at each number of moves (for any two algorithms).
    #[arg(long, value_parser = ["order", "sets", "states"], default_value = "order")]
    rule: String,
    /// Print the comparison as one JSON object (the `states` rule only).
    #[arg(long, requires = "rule")]
    json: bool,
}

/// Runs `trace diff`: exit 0 when the searches are the same by the rule, 1 when they differ,
/// 2 when they cannot be compared.
pub(super) fn diff(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    if args.rule == "states" {
        return diff_states(args);
    }
    if args.json {
        return Err(super::output::usage(
            "--json prints the comparison by states: add --rule states".to_string(),
        ));
    }
    let rule = if args.rule == "sets" {
        DivergenceRule::Sets
    } else {
        DivergenceRule::Order
    };
    // Exit code 1 says the searches differ, so a comparison that cannot be made (a file that
    // does not read, traces of two puzzles) ends with 2, as `diff` and `cmp` do, the message
    // on standard error.
    let compared = (|| -> Result<_, trace::TraceError> {
        let mut first = TraceReader::open_checked(&args.first)?;
        let mut second = TraceReader::open_checked(&args.second)?;
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

/// `trace diff --rule states`.
fn diff_states(args: &DiffArgs) -> anyhow::Result<ExitCode> {
    let compared = (|| -> Result<_, trace::TraceError> {
        let mut first = TraceReader::open_checked(&args.first)?;
        let mut second = TraceReader::open_checked(&args.second)?;
        let comparison = trace::compare_states_until(&mut first, &mut second, &mut |_| true)?;
        Ok((first, second, comparison))
    })();
    let (first, second, comparison) =
        compared.map_err(|error| super::output::usage(error.to_string()))?;
    // A `keep_going` that always says yes never stops the comparison.
    let Some(comparison) = comparison else {
        unreachable!("a comparison that is never stopped finishes")
    };
    if args.json {
        print_states_json(&first, &second, &comparison)?;
    } else {
        print_states(&first, &second, &comparison)?;
    }
    Ok(if comparison.is_same() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn print_states(
    first: &TraceReader,
    second: &TraceReader,
    comparison: &StateComparison,
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
    outln!("positions first examined at each number of moves:")?;
    outln!(
        "{:>6} {:>12} {:>12} {:>12}  {}",
        "moves",
        "in both",
        "only first",
        "only second",
        "complete in both"
    )?;
    for depth in &comparison.depths {
        outln!(
            "{:>6} {:>12} {:>12} {:>12}  {}",
            depth.moves,
            depth.both,
            depth.only_first,
            depth.only_second,
            if depth.complete_in_both { "yes" } else { "no" }
        )?;
    }
    let board = first.puzzle().board();
    for (name, other, difference) in [
        ("first", "second", &comparison.only_in_first),
        ("second", "first", &comparison.only_in_second),
    ] {
        match difference {
            None => outln!(
                "the {name} search examines no position the {other} misses where the {other} searched whole"
            )?,
            Some(difference) => outln!(
                "the {name} search examines {} at {} (event {}); the {other} {}",
                cells_text(board, &difference.cells),
                moves_text(difference.here.moves),
                difference.here.event,
                there_text(difference)
            )?,
        }
    }
    if comparison.is_same() {
        outln!("same positions at every number of moves both searched whole")?;
    } else {
        outln!("the searches reach different positions")?;
    }
    Ok(())
}

/// "2 moves", "1 move".
fn moves_text(moves: u32) -> String {
    if moves == 1 {
        "1 move".to_string()
    } else {
        format!("{moves} moves")
    }
}

/// Where the other run has a position, in words.
fn there_text(difference: &StateDifference) -> String {
    match difference.there {
        None => "never examines it".to_string(),
        Some(Reached { moves, event }) => {
            format!("examines it first at {} (event {event})", moves_text(moves))
        }
    }
}

/// Robot cells as column and row pairs, in colour order.
pub(super) fn cells_text(board: &Board, cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|&cell| board.pos(cell).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn print_states_json(
    first: &TraceReader,
    second: &TraceReader,
    comparison: &StateComparison,
) -> anyhow::Result<()> {
    let board = first.puzzle().board();
    let difference = |difference: &Option<StateDifference>| {
        difference.as_ref().map(|d| {
            serde_json::json!({
                "cells": d.cells.iter().map(|&c| board.pos(c).to_string()).collect::<Vec<_>>(),
                "moves": d.here.moves,
                "event": d.here.event,
                "other": d.there,
            })
        })
    };
    let json = serde_json::json!({
        "rule": "states",
        "first": { "file": first.path(), "solver": first.header().solver },
        "second": { "file": second.path(), "solver": second.header().solver },
        "same": comparison.is_same(),
        "depths": comparison.depths,
        "only_in_first": difference(&comparison.only_in_first),
        "only_in_second": difference(&comparison.only_in_second),
    });
    outln!("{json}")?;
    Ok(())
}
