//! How `analyze` reports a board's analysis: CSV rows, one JSON object, or text tables.

use serde::Serialize;
use std::collections::BTreeMap;

/// One CSV row per position: target, deal, the position's game id (empty without one), the
/// optimal move count, the outcome and the solve time.
pub(super) fn analysis_csv(
    analysis: &ricochet_lab::study::analyze::Analysis,
) -> anyhow::Result<String> {
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
            ricochet_lab::model::formats::game_id::write(&r.puzzle).unwrap_or_default(),
            r.moves.map(|m| m.to_string()).unwrap_or_default(),
            r.outcome.to_string(),
            format!("{:.3}", r.millis),
        ])?;
    }
    let bytes = writer.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(String::from_utf8(bytes)?)
}

type NamedPosition = (u32, String, Option<ricochet_lab::study::analyze::Improved>);

/// The JSON object `analyze --json` prints.
#[derive(Serialize)]
pub(super) struct AnalysisJson<'a> {
    puzzles: u64,
    positions: usize,
    unsolved: u64,
    /// Positions a limit stopped, which every figure leaves out.
    stopped: u64,
    /// Positions by optimal move count.
    distribution: BTreeMap<u32, u64>,
    mean: Option<f64>,
    short_share: Option<f64>,
    targets: Vec<TargetJson>,
    skipped_targets: usize,
    hardest: Vec<HardestJson<'a>>,
    cancelled: bool,
    threads: usize,
    millis: f64,
}

/// One target's difficulty.
#[derive(Serialize)]
struct TargetJson {
    index: usize,
    x: u16,
    y: u16,
    color: String,
    shape: &'static str,
    solved: u64,
    unsolved: u64,
    mean: Option<f64>,
    max: Option<u32>,
}

/// One of the hardest positions, with what the local search made of it (with --hardest).
#[derive(Serialize)]
struct HardestJson<'a> {
    moves: u32,
    puzzle: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    start_moves: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    local_optimum: Option<bool>,
}

pub(super) fn analysis_json<'a>(
    analysis: &ricochet_lab::study::analyze::Analysis,
    hardest: &'a [NamedPosition],
    threads: usize,
) -> AnalysisJson<'a> {
    let targets = analysis
        .per_target()
        .iter()
        .map(|t| TargetJson {
            index: t.index,
            x: t.target.pos.x,
            y: t.target.pos.y,
            color: t.target.color.to_string(),
            shape: t.target.shape.name(),
            solved: t.solved,
            unsolved: t.unsolved,
            mean: t.mean,
            max: t.max,
        })
        .collect();
    let hardest = hardest
        .iter()
        .map(|(moves, name, improved)| HardestJson {
            moves: *moves,
            puzzle: name,
            start_moves: improved.as_ref().map(|i| i.start_moves),
            local_optimum: improved.as_ref().map(|i| i.local_optimum),
        })
        .collect();
    AnalysisJson {
        puzzles: analysis.solved(),
        stopped: analysis.stopped(),
        positions: analysis.results.len(),
        unsolved: analysis.results.len() as u64 - analysis.solved(),
        distribution: analysis.distribution(),
        mean: analysis.mean(),
        short_share: analysis.short_share(),
        targets,
        skipped_targets: analysis.skipped.len(),
        hardest,
        cancelled: analysis.cancelled,
        threads,
        millis: analysis.elapsed.as_secs_f64() * 1000.0,
    }
}

/// The tables `analyze` prints.
pub(super) fn analysis_text(
    analysis: &ricochet_lab::study::analyze::Analysis,
    hardest: &[NamedPosition],
    threads: usize,
    deals: u32,
) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let analysed = analysis.targets.len() - analysis.skipped.len();
    let _ = writeln!(
        out,
        "{} of {} positions ({analysed} targets x {deals} deals) solved optimally in {:.1} s on {threads} thread{}",
        analysis.solved(),
        analysis.results.len(),
        analysis.elapsed.as_secs_f64(),
        if threads == 1 { "" } else { "s" }
    );
    if !analysis.skipped.is_empty() {
        let _ = writeln!(
            out,
            "{} targets skipped: no robot of their colour",
            analysis.skipped.len()
        );
    }
    let stopped = analysis.stopped();
    if stopped > 0 {
        let _ = writeln!(
            out,
            "{stopped} positions stopped by a limit (--solve-limit, --memory-limit) before their \
             optimum was known: every figure below leaves them out"
        );
    }
    let unsolvable = analysis.results.len() as u64 - analysis.solved() - stopped;
    if unsolvable > 0 {
        let _ = writeln!(out, "{unsolvable} positions without a solution");
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
