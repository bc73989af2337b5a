//! The solver panel's per-depth table: one row per finished depth as the deck prints it, with
//! the solver's own column names and the time each row finished, and while the run goes on a
//! last row with the nodes counted so far.
//!
//! Numbers are right-aligned with tabular figures and thin digit groups
//! ([`crate::app::widgets::table_value`]). No column is ever cut: every column is at least as wide
//! as its longest value (the running total included) and the longest word of its name, and
//! the columns that do not fit the panel beside the others go to a second table below, with
//! the depth repeated, instead of scrolling out of sight in fragments.

use crate::app::widgets::{format_count, table_value};
use crate::solver::Columns;
use crate::study::format::format_time;
use crate::worker::DepthRow;

/// The gap between two columns.
const GAP: f32 = 6.0;

/// Below this, a column is narrower than a count needs (used when no floor is given).
const NARROWEST: f32 = 52.0;

/// What stands in a counter's cell when the solver never sent that counter.
const ABSENT: &str = "–";

/// The extra counters of `rows`, in the order they first appear, without an engine's own
/// `time`: the table's Time column already says when each row finished, on the run's clock.
fn extra_names(rows: &[DepthRow]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for row in rows {
        for (name, _) in &row.stats.extra {
            if *name != "time" && !names.contains(name) {
                names.push(name);
            }
        }
    }
    names
}

/// The table's cells, a row for each depth: the depth, the three counters, the extra ones and
/// the time. An engine sends `inner` and `hits` only if it counts them, and an absent counter
/// reads as 0; so in an engine's run (`engine`) a counter that is 0 in every row is shown as
/// absent (–), not as a count of 0.
fn body_cells(rows: &[DepthRow], extra_names: &[&'static str], engine: bool) -> Vec<Vec<String>> {
    let never = |value: fn(&crate::solver::DepthStats) -> u64| {
        engine && rows.iter().all(|row| value(&row.stats) == 0)
    };
    let (no_inner, no_hits) = (never(|s| s.inner), never(|s| s.hits));
    let counter = |absent: bool, value: u64| {
        if absent {
            ABSENT.to_string()
        } else {
            format_count(value)
        }
    };
    rows.iter()
        .map(|row| {
            let mut cells = vec![
                row.stats.depth.to_string(),
                format_count(row.stats.nodes),
                counter(no_inner, row.stats.inner),
                counter(no_hits, row.stats.hits),
            ];
            for name in extra_names {
                let value = row
                    .stats
                    .extra
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| format_count(*v))
                    .unwrap_or_default();
                cells.push(value);
            }
            cells.push(format_time(row.at));
            cells
        })
        .collect()
}

/// The per-depth table of a run, in as many stacked parts as the panel's width needs;
/// `engine` says whether the run is an engine's (see [`body_cells`]).
pub(super) fn depth_table_ui(
    ui: &mut egui::Ui,
    (columns, engine): (&Columns, bool),
    rows: &[DepthRow],
    running_nodes: Option<u64>,
    serial: u64,
) {
    let extra_names = extra_names(rows);
    // The widths a column gets when there is room: the depth, three counters and any extra
    // counters, the time.
    let mut widths: Vec<f32> = vec![56.0, 96.0, 96.0, 96.0];
    widths.extend(extra_names.iter().map(|_| 90.0));
    widths.push(64.0);
    let mut header: Vec<String> = vec![
        columns.depth.to_string(),
        columns.nodes.to_string(),
        columns.inner.to_string(),
        columns.hits.to_string(),
    ];
    header.extend(extra_names.iter().map(|n| (*n).to_string()));
    header.push("Time".into());
    let body = body_cells(rows, &extra_names, engine);
    // The run's node count so far, over all depths, under the first counter.
    let running = running_nodes.map(|nodes| vec!["so far".to_string(), format_count(nodes)]);
    let floors: Vec<f32> = header
        .iter()
        .enumerate()
        .map(|(column, name)| {
            let word = name
                .split_inclusive([' ', '-'])
                .map(|word| header_text_width(ui, word.trim_end()))
                .fold(0.0, f32::max);
            let longest = body
                .iter()
                .chain(&running)
                .filter_map(|cells| cells.get(column))
                .map(|cell| value_width(ui, cell))
                .fold(0.0, f32::max);
            word.max(longest) + 4.0
        })
        .collect();
    for (width, floor) in widths.iter_mut().zip(&floors) {
        *width = (*width).max(*floor);
    }
    let available = ui.available_width() - 16.0;
    let groups = column_groups(&floors, available);
    ui.label(egui::RichText::new(format!("{} rows", columns.depth)).strong());
    let height = (ui.available_height() / groups.len() as f32).clamp(120.0, 360.0);
    for (part, group) in groups.iter().enumerate() {
        let pick = |cells: &[String]| -> Vec<String> {
            group
                .iter()
                .map(|&c| cells.get(c).cloned().unwrap_or_default())
                .collect()
        };
        let mut part_widths: Vec<f32> = group.iter().map(|&c| widths[c]).collect();
        let part_floors: Vec<f32> = group.iter().map(|&c| floors[c]).collect();
        fit_widths(&mut part_widths, &part_floors, available);
        if part > 0 {
            ui.add_space(4.0);
        }
        table_row_ui(ui, &part_widths, &pick(&header), true, None);
        let stripe = ui.visuals().faint_bg_color;
        // Each run has its own scroll state, so a new run starts at its first row.
        egui::ScrollArea::vertical()
            .id_salt(("depth-table", serial, part))
            .max_height(height)
            .stick_to_bottom(true)
            .auto_shrink([false, true])
            .show(ui, |ui| {
                for (index, cells) in body.iter().enumerate() {
                    let fill = (index % 2 == 1).then_some(stripe);
                    table_row_ui(ui, &part_widths, &pick(cells), false, fill);
                }
                if let Some(cells) = &running
                    && part == 0
                {
                    let shown = part_widths.len().min(cells.len());
                    table_row_ui(ui, &part_widths[..shown], &cells[..shown], false, None);
                }
            });
    }
}

/// Splits the columns into parts that each fit `available` at their floors, in order; every
/// part after the first starts with the first column (the depth), so each row can be read
/// across. A column wider than the room on its own gets a part of its own.
fn column_groups(floors: &[f32], available: f32) -> Vec<Vec<usize>> {
    let Some(&first) = floors.first() else {
        return vec![Vec::new()];
    };
    let mut groups = vec![vec![0]];
    let mut used = first + GAP;
    for (column, &floor) in floors.iter().enumerate().skip(1) {
        let fits = used + floor + GAP <= available;
        // A part holds at least one column beside the depth, whatever its width.
        let alone = groups.last().is_some_and(|g| g.len() == 1);
        if !fits && !alone {
            groups.push(vec![0]);
            used = first + GAP;
        }
        if let Some(group) = groups.last_mut() {
            group.push(column);
        }
        used += floor + GAP;
    }
    groups
}

/// Shrinks column widths in proportion so that they (with their gaps) fit `available`; a
/// column that would get narrower than its floor in `floors` (without one, than a count
/// needs) keeps that width and the others share what is left.
fn fit_widths(widths: &mut [f32], floors: &[f32], available: f32) {
    let room = available - GAP * widths.len() as f32;
    if widths.iter().sum::<f32>() <= room || widths.is_empty() {
        return;
    }
    let original = widths.to_vec();
    let floor_of: Vec<f32> = original
        .iter()
        .enumerate()
        .map(|(i, w)| floors.get(i).copied().unwrap_or(NARROWEST).min(*w))
        .collect();
    let floor = |i: usize| floor_of[i];
    let mut pinned = vec![false; widths.len()];
    loop {
        let pinned_sum: f32 = original
            .iter()
            .zip(&pinned)
            .enumerate()
            .filter(|(_, (_, p))| **p)
            .map(|(i, _)| floor(i))
            .sum();
        let free_sum: f32 = original
            .iter()
            .zip(&pinned)
            .filter(|(_, p)| !**p)
            .map(|(w, _)| *w)
            .sum();
        let scale = if free_sum > 0.0 {
            (room - pinned_sum).max(0.0) / free_sum
        } else {
            0.0
        };
        let mut changed = false;
        for (i, w) in original.iter().enumerate() {
            if !pinned[i] && w * scale < floor(i) {
                pinned[i] = true;
                changed = true;
            }
        }
        if !changed {
            for (i, w) in original.iter().enumerate() {
                widths[i] = if pinned[i] { floor(i) } else { w * scale };
            }
            return;
        }
    }
}

/// One row of fixed-width cells, numbers right-aligned.
fn table_row_ui(
    ui: &mut egui::Ui,
    widths: &[f32],
    cells: &[String],
    header: bool,
    fill: Option<egui::Color32>,
) {
    // A header whose names do not fit their columns takes more lines, so no name is cut.
    let lines = if header {
        header_lines(ui, widths, cells)
    } else {
        1.0
    };
    let height = ui.text_style_height(&egui::TextStyle::Monospace) * lines + 4.0;
    let total: f32 = widths.iter().sum::<f32>() + GAP * widths.len() as f32;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(total, height), egui::Sense::hover());
    if let Some(fill) = fill {
        ui.painter().rect_filled(rect, 0.0, fill);
    }
    let color = ui.visuals().text_color();
    let mut x = rect.left();
    for (cell, width) in cells.iter().zip(widths) {
        let cell_rect =
            egui::Rect::from_min_size(egui::pos2(x, rect.top()), egui::vec2(*width, height));
        // Names of several lines sit on the rows below them, right-aligned like the numbers.
        let wrapped = header && lines > 1.0;
        let layout = if wrapped {
            egui::Layout::bottom_up(egui::Align::Max)
        } else {
            egui::Layout::right_to_left(egui::Align::Center)
        };
        let mut child = ui.new_child(egui::UiBuilder::new().max_rect(cell_rect).layout(layout));
        if header {
            child.add(egui::Label::new(egui::RichText::new(cell).strong()).wrap());
        } else {
            // Columns are as wide as their longest value, so a value never needs cutting.
            child.add(egui::Label::new(table_value(ui, cell, color)).extend());
        }
        x += width + GAP;
    }
}

/// The lines the header needs: its most, when each name wraps at its column's width.
fn header_lines(ui: &egui::Ui, widths: &[f32], cells: &[String]) -> f32 {
    cells
        .iter()
        .zip(widths)
        .map(|(cell, width)| {
            egui::WidgetText::from(egui::RichText::new(cell).strong())
                .into_galley(
                    ui,
                    Some(egui::TextWrapMode::Wrap),
                    *width,
                    egui::TextStyle::Body,
                )
                .rows
                .len()
        })
        .max()
        .unwrap_or(1) as f32
}

/// The width of a table value.
fn value_width(ui: &egui::Ui, text: &str) -> f32 {
    let job = table_value(ui, text, egui::Color32::WHITE);
    ui.fonts_mut(|fonts| fonts.layout_job(job)).size().x
}

/// The width of a header name on one line.
fn header_text_width(ui: &egui::Ui, text: &str) -> f32 {
    egui::WidgetText::from(egui::RichText::new(text).strong())
        .into_galley(
            ui,
            Some(egui::TextWrapMode::Extend),
            f32::INFINITY,
            egui::TextStyle::Body,
        )
        .size()
        .x
}

#[cfg(test)]
mod tests {
    use super::*;

    // An engine that never sends inner or hits has them shown as absent, not as 0, and its
    // own time is not a second time column beside the table's Time.
    #[test]
    fn an_engine_s_unsent_counters_are_absent_and_its_time_is_not_a_second_column() {
        let row = |depth: u32, inner: u64| DepthRow {
            stats: crate::solver::DepthStats {
                depth,
                nodes: 10,
                inner,
                hits: 0,
                extra: vec![("time", 5), ("cuts", 2)],
            },
            at: std::time::Duration::from_millis(5),
        };
        let rows = [row(1, 0), row(2, 3)];
        let names = extra_names(&rows);
        assert_eq!(names, ["cuts"]);
        let engine = body_cells(&rows, &names, true);
        assert_eq!(engine[0][2..4], ["0", ABSENT]);
        assert_eq!(engine[1][2..4], ["3", ABSENT]);
        assert_eq!(engine[0].len(), 6, "depth, three counters, cuts, Time");
        let built_in = body_cells(&rows, &names, false);
        assert_eq!(built_in[0][3], "0", "a built-in solver's 0 is a count");
    }

    #[test]
    fn columns_shrink_to_the_room_without_going_below_a_count() {
        let mut widths = vec![56.0, 96.0, 96.0, 96.0, 90.0, 90.0, 64.0];
        fit_widths(&mut widths, &[], 450.0);
        let total: f32 = widths.iter().sum::<f32>() + 6.0 * widths.len() as f32;
        assert!(total <= 450.5, "{total}");
        assert!(widths.iter().all(|w| *w >= 52.0), "{widths:?}");
        let mut wide = vec![56.0, 96.0];
        fit_widths(&mut wide, &[], 400.0);
        assert_eq!(wide, vec![56.0, 96.0]);
    }

    #[test]
    fn no_column_shrinks_below_its_own_floor() {
        let mut widths = vec![56.0, 96.0, 96.0, 96.0, 90.0, 90.0, 64.0];
        let floors = [0.0, 0.0, 80.0, 0.0, 75.0, 0.0, 0.0];
        fit_widths(&mut widths, &floors, 500.0);
        assert!(widths[2] >= 80.0 && widths[4] >= 75.0, "{widths:?}");
        let total: f32 = widths.iter().sum::<f32>() + 6.0 * widths.len() as f32;
        assert!(total <= 500.5, "{total}");
        assert!(widths[1] < 96.0, "the other columns give way: {widths:?}");
    }

    #[test]
    fn columns_that_do_not_fit_go_to_a_part_below_with_the_depth() {
        let floors = [40.0, 90.0, 90.0, 90.0, 90.0, 90.0, 60.0];
        let groups = column_groups(&floors, 330.0);
        assert!(groups.len() > 1, "{groups:?}");
        let mut seen: Vec<usize> = Vec::new();
        for group in &groups {
            assert_eq!(group[0], 0, "every part starts with the depth: {groups:?}");
            let total: f32 = group.iter().map(|&c| floors[c] + GAP).sum();
            assert!(total <= 330.0, "{group:?} is {total} wide");
            seen.extend(&group[1..]);
        }
        assert_eq!(
            seen,
            (1..floors.len()).collect::<Vec<_>>(),
            "each column once, in order"
        );
        assert_eq!(
            column_groups(&floors, 1000.0),
            vec![(0..7).collect::<Vec<_>>()]
        );
    }
}
