//! The frontier behind each choice of a debugged search, at the event shown: the open list of
//! a breadth-first or best-first search (its size, the closed set's, the next entries in the
//! order they will be examined with g, h and f, the next one marked), or a depth-first
//! search's stack (each level's move, its numbers, the moves left to try there, the bound).
//!
//! It is rebuilt from the run's trace ([`crate::solver::trace::FrontierBuilder`]), a stride of
//! events a frame, so it is the same live, scrubbed back or from an opened trace. Hovering an
//! entry draws that node on the board.

use super::Debugger;
use crate::app::theme;
use crate::app::widgets::format_count;
use crate::model::{Board, Cell, Move};
use crate::solver::SearchShape;
use crate::solver::trace::{
    FRONTIER_STRIDE, Frontier, FrontierBuilder, STACK_LOOKAHEAD, Stack, TraceReader,
    shape_of_trace, stack_at,
};
use std::cell::RefCell;

/// How many of the open list's entries the panel lists.
pub(super) const FRONTIER_ROWS: usize = 12;

/// What the panel shows at an event.
#[derive(Clone, Debug, PartialEq)]
pub enum FrontierShown {
    /// A breadth-first or best-first search's open list.
    Open(Frontier, SearchShape),
    /// A depth-first search's stack.
    Stack(Stack),
    /// Why there is nothing to show.
    Nothing(String),
}

/// The frontier's state, kept with the debugger and read by its panel.
#[derive(Default)]
pub(super) struct FrontierState {
    builder: Option<FrontierBuilder>,
    /// The event shown and what the frontier was there.
    shown: Option<(u64, FrontierShown)>,
    /// The frontier entry (its cells and path) under the pointer, drawn on the board.
    pub(super) hovered: RefCell<Option<(Vec<Cell>, Vec<Move>)>>,
}

impl FrontierState {
    /// Brings the frontier toward the event `index` of `reader`'s trace, a stride of events at
    /// most; says whether it is still being rebuilt.
    pub(super) fn sync(&mut self, reader: &TraceReader, index: u64) -> bool {
        if self.shown.as_ref().is_some_and(|(at, _)| *at == index) {
            return false;
        }
        let shape = shape_of_trace(reader);
        let shown = match shape {
            SearchShape::Queue | SearchShape::BestFirst(_) => {
                if self.builder.is_none() {
                    self.builder = FrontierBuilder::new(shape, reader.puzzle());
                }
                let Some(builder) = self.builder.as_mut() else {
                    return false;
                };
                match builder.advance(reader, index, FRONTIER_ROWS, FRONTIER_STRIDE) {
                    Ok(Some(frontier)) => FrontierShown::Open(frontier, shape),
                    Ok(None) => return true,
                    Err(error) => FrontierShown::Nothing(error.to_string()),
                }
            }
            SearchShape::DepthFirst(heuristic) => {
                match stack_at(reader, index, heuristic, STACK_LOOKAHEAD) {
                    Ok(stack) => FrontierShown::Stack(stack),
                    Err(error) => FrontierShown::Nothing(error.to_string()),
                }
            }
            SearchShape::Own => FrontierShown::Nothing(format!(
                "{} chooses its nodes its own way: it keeps no open list or stack to show.",
                reader.header().solver_title
            )),
        };
        self.shown = Some((index, shown));
        false
    }

    /// What the panel shows, once worked out.
    pub(super) fn shown(&self) -> Option<&FrontierShown> {
        self.shown.as_ref().map(|(_, shown)| shown)
    }
}

/// The frontier section of the Debugger tab, a fixed height so that nothing below it moves as
/// its rows change.
pub(super) fn frontier_ui(ui: &mut egui::Ui, debugger: &Debugger) {
    let palette = theme::palette(ui.visuals().dark_mode);
    let board = debugger.puzzle().board();
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y;
    let height = row_height * 7.5;
    let mut hovered = None;
    egui::ScrollArea::vertical()
        .id_salt("debug-frontier")
        .max_height(height)
        .min_scrolled_height(height)
        .auto_shrink([false, true])
        .show(ui, |ui| match debugger.frontier.shown() {
            None => {
                ui.label(egui::RichText::new("Rebuilding the frontier…").color(palette.muted));
            }
            Some(FrontierShown::Nothing(why)) => {
                ui.add(egui::Label::new(egui::RichText::new(why).color(palette.muted)).wrap());
            }
            Some(FrontierShown::Open(frontier, shape)) => {
                hovered = open_list_ui(ui, board, frontier, *shape, palette.success);
            }
            Some(FrontierShown::Stack(stack)) => stack_ui(ui, stack),
        });
    *debugger.frontier.hovered.borrow_mut() = hovered;
}

/// The open list: its sizes, its order, and its first entries; returns the entry hovered.
fn open_list_ui(
    ui: &mut egui::Ui,
    board: &Board,
    frontier: &Frontier,
    shape: SearchShape,
    accent: egui::Color32,
) -> Option<(Vec<Cell>, Vec<Move>)> {
    let order = match shape {
        SearchShape::Queue => "oldest first",
        _ => "lowest f first, newest of equal f first",
    };
    ui.add(
        egui::Label::new(format!(
            "Open list {}, closed {} ({order})",
            format_count(frontier.size),
            format_count(frontier.closed),
        ))
        .truncate(),
    );
    let mut hovered = None;
    egui::Grid::new("debug-frontier-rows")
        .num_columns(5)
        .striped(true)
        .show(ui, |ui| {
            for title in ["#", "g", "h", "f", "move"] {
                ui.label(egui::RichText::new(title).small().strong());
            }
            ui.end_row();
            for (rank, entry) in frontier.next.iter().enumerate() {
                let place = if rank == 0 {
                    egui::RichText::new("next").color(accent).strong()
                } else {
                    egui::RichText::new((rank + 1).to_string())
                };
                let mut row = ui.label(place);
                row |= ui.label(entry.g.to_string());
                row |= ui.label(entry.h.map_or_else(|| "–".to_string(), |h| h.to_string()));
                row |= ui.label(entry.f().to_string());
                row |= ui.label(
                    entry
                        .path
                        .last()
                        .map_or_else(|| "(start)".to_string(), ToString::to_string),
                );
                ui.end_row();
                let row = row.on_hover_text(format!(
                    "Generated at event {} by {}; robots at {}",
                    format_count(entry.event),
                    crate::model::format_moves(&entry.path),
                    cells_text(board, &entry.cells)
                ));
                if row.hovered() {
                    hovered = Some((entry.cells.clone(), entry.path.clone()));
                }
            }
        });
    if frontier.next.is_empty() {
        ui.label("The open list is empty.");
    }
    hovered
}

/// The stack: each level's move, g, h, f and the moves left to try.
fn stack_ui(ui: &mut egui::Ui, stack: &Stack) {
    ui.add(
        egui::Label::new(format!(
            "Stack of {} levels, bound {}",
            stack.levels.len(),
            stack
                .bound
                .map_or_else(|| "none".to_string(), |b| b.to_string())
        ))
        .truncate(),
    );
    egui::Grid::new("debug-stack-rows")
        .num_columns(5)
        .striped(true)
        .show(ui, |ui| {
            for title in ["g", "h", "f", "move", "left to try"] {
                ui.label(egui::RichText::new(title).small().strong());
            }
            ui.end_row();
            for level in &stack.levels {
                ui.label(level.g.to_string());
                ui.label(level.h.map_or_else(|| "–".to_string(), |h| h.to_string()));
                ui.label((level.g + level.h.unwrap_or(0)).to_string());
                ui.label(
                    level
                        .taken
                        .map_or_else(|| "(here)".to_string(), |m| m.to_string()),
                );
                let mut left = level
                    .left
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ");
                if !level.left_complete {
                    left.push_str(" …");
                }
                if left.trim().is_empty() {
                    left = "none".to_string();
                }
                ui.add(egui::Label::new(left).truncate())
                    .on_hover_text(format!(
                        "{} legal moves here: {}",
                        level.legal.len(),
                        crate::model::format_moves(&level.legal)
                    ));
                ui.end_row();
            }
        });
}

/// Robot cells as column and row pairs.
fn cells_text(board: &Board, cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|&cell| board.pos(cell).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
