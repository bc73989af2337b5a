//! The bench's tables: speed-ups, page sizes, ratios, the reference puzzles and the per-solver
//! summary.

use super::*;

/// Per puzzle, the time of each thread count of the same solver and the speed-up over the
/// first, in Markdown; empty when no solver ran with more than one thread count.
pub fn speedup_table(measurements: &[Measurement]) -> String {
    let mut rows = String::new();
    let mut seen: Vec<(&str, &str, Pages)> = Vec::new();
    for m in measurements.iter().filter(|m| m.build.is_none()) {
        if seen.contains(&(m.puzzle.as_str(), m.solver, m.pages)) {
            continue;
        }
        seen.push((&m.puzzle, m.solver, m.pages));
        let runs: Vec<&Measurement> = measurements
            .iter()
            .filter(|o| {
                o.build.is_none()
                    && o.puzzle == m.puzzle
                    && o.solver == m.solver
                    && o.pages == m.pages
            })
            .collect();
        if runs.len() < 2 {
            continue;
        }
        let base = runs[0];
        for run in &runs[1..] {
            let speedup = base.time.as_secs_f64() / run.time.as_secs_f64().max(1e-9);
            rows.push_str(&format!(
                "| {} | {} | {} × {} | {} × {} | {speedup:.2}x |\n",
                m.puzzle,
                m.label(),
                base.threads,
                format_time(base.time),
                run.threads,
                format_time(run.time),
            ));
        }
    }
    if rows.is_empty() {
        return rows;
    }
    format!(
        "Speed-up with more threads (wall time, same run)\n\n\
         | puzzle | solver | threads × time | threads × time | speed-up |\n\
         |---|---|---:|---:|---:|\n{rows}"
    )
}

/// Per puzzle, solver and thread count run on both page sizes, the time with 4 KiB pages
/// over the time with huge pages, in Markdown; empty when no run asked for small pages.
pub fn pages_table(measurements: &[Measurement]) -> String {
    let mut rows = String::new();
    for small in measurements
        .iter()
        .filter(|m| m.build.is_none() && m.pages == Pages::Small)
    {
        let Some(huge) = measurements.iter().find(|m| {
            m.build.is_none()
                && m.pages == Pages::Huge
                && m.puzzle == small.puzzle
                && m.solver == small.solver
                && m.threads == small.threads
        }) else {
            continue;
        };
        if !finished(small) || !finished(huge) {
            continue;
        }
        let slowdown = small.time.as_secs_f64() / huge.time.as_secs_f64().max(1e-9);
        rows.push_str(&format!(
            "| {} | {} × {} | {} | {} | {} | {slowdown:.2}x |\n",
            small.puzzle,
            small.solver,
            small.threads,
            format_time(huge.time),
            huge.huge_pages.map_or("-".to_string(), format_bytes),
            format_time(small.time),
        ));
    }
    if rows.is_empty() {
        return rows;
    }
    format!(
        "Without huge pages (wall time, same run)\n\n\
         | puzzle | solver × threads | huge pages | of them backed | 4 KiB pages only | ratio |\n\
         |---|---|---:|---:|---:|---:|\n{rows}"
    )
}

/// Per puzzle, the other build's time over this build's for every pair of solvers, in
/// Markdown; empty without another build.
pub fn ratio_table(measurements: &[Measurement]) -> String {
    let mut rows = String::new();
    for theirs in measurements.iter().filter(|m| m.build.is_some()) {
        for ours in measurements
            .iter()
            .filter(|m| m.build.is_none() && m.puzzle == theirs.puzzle)
        {
            if !finished(ours) || !finished(theirs) {
                continue;
            }
            let ratio = theirs.time.as_secs_f64() / ours.time.as_secs_f64().max(1e-9);
            rows.push_str(&format!(
                "| {} | {} × {} | {} | {ratio:.2}x |\n",
                ours.puzzle,
                ours.label(),
                ours.threads,
                theirs.label(),
            ));
        }
    }
    if rows.is_empty() {
        return rows;
    }
    format!(
        "How many times faster than the other build (its wall time over ours, same run)\n\n\
         | puzzle | this build × threads | other build | ratio |\n\
         |---|---|---|---:|\n{rows}"
    )
}

/// Per puzzle, each external engine's time over each built-in solver's (this build, every
/// thread count and page size), with both move counts, in Markdown; empty when no engine ran.
/// Both were timed in the same run, puzzle by puzzle, so the ratio is the comparison.
pub fn engine_table(measurements: &[Measurement]) -> String {
    let mut rows = String::new();
    for engine in measurements.iter().filter(|m| m.external) {
        for ours in measurements
            .iter()
            .filter(|m| !m.external && m.build.is_none() && m.puzzle == engine.puzzle)
        {
            if !finished(ours) || !finished(engine) {
                continue;
            }
            let ratio = engine.time.as_secs_f64() / ours.time.as_secs_f64().max(1e-9);
            let moves = |m: &Measurement| m.moves.map_or("-".to_string(), |n| n.to_string());
            rows.push_str(&format!(
                "| {} | {} × {} | {} | {} | {} | {} | {ratio:.2}x |\n",
                ours.puzzle,
                ours.label(),
                ours.threads,
                engine.label(),
                moves(ours),
                moves(engine),
                format_time(engine.time),
            ));
        }
    }
    if rows.is_empty() {
        return rows;
    }
    format!(
        "External engines (the engine's wall time over the built-in solver's, same run)\n\n\
         | puzzle | built-in × threads | engine | moves | engine's moves | engine's time | ratio |\n\
         |---|---|---|---:|---:|---:|---:|\n{rows}"
    )
}

/// What a table shows for a figure the solver did not report (an engine's memory, or its
/// nodes when it sends no rows).
pub const NOT_REPORTED: &str = "–";

/// The reference table in Markdown.
pub fn reference_table(measurements: &[Measurement]) -> String {
    let mut text = String::from(
        "| puzzle | solver | threads | moves | time | CPU | nodes | nodes/s | peak memory | huge pages | outcome |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
    );
    for m in measurements {
        // An engine that sends no rows reports no nodes, and no engine reports its memory:
        // a dash, not a zero the solver never measured.
        let unreported = |value: u64| m.external && value == 0;
        let nodes = if unreported(m.nodes) {
            NOT_REPORTED.to_string()
        } else {
            m.nodes.to_string()
        };
        let rate = if unreported(m.nodes) {
            NOT_REPORTED.to_string()
        } else {
            format_rate(m.nodes_per_second())
        };
        let memory = if m.external && m.peak_memory == 0 {
            NOT_REPORTED.to_string()
        } else {
            format_bytes(m.peak_memory)
        };
        text.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {nodes} | {rate} | {memory} | {} | {} |\n",
            m.puzzle,
            m.label(),
            m.threads,
            m.moves.map_or("-".to_string(), |n| n.to_string()),
            format_time(m.time),
            m.cpu.map_or("-".to_string(), format_time),
            m.huge_pages.map_or("-".to_string(), format_bytes),
            m.outcome
        ));
    }
    text
}

/// The random-suite table in Markdown.
pub fn summary_table(summaries: &[Summary], puzzles: usize) -> String {
    let mut text = format!(
        "Random suite: {puzzles} standard games (seeds 1..={puzzles}, four robots)\n\n\
         | solver | finished | mean moves | mean | median | p99 | max | nodes |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|\n"
    );
    for s in summaries {
        text.push_str(&format!(
            "| {} | {}{} | {:.2} | {} | {} | {} | {} | {} |\n",
            s.solver,
            s.finished,
            if s.unfinished > 0 {
                format!(" ({} not)", s.unfinished)
            } else {
                String::new()
            },
            s.mean_moves,
            format_ms(s.mean_ms),
            format_ms(s.median_ms),
            format_ms(s.p99_ms),
            format_ms(s.max_ms),
            s.nodes
        ));
    }
    text
}
