//! The slide-graph layer: the edges of the hovered cell or of every cell, with the edges the
//! last update changed, and the lines that list those changes.

use crate::app::overlays::assembly::OverlaySources;
use crate::app::overlays::layers::OverlayLayer;
use crate::app::overlays::{Arrow, ArrowKind, OverlayDrawing, OverlaySettings};
use crate::app::theme::{self, Palette};
use crate::model::{Board, Cell, Direction};
use crate::solver::graph_solver::GraphPicture;
use crate::solver::slide_graph::EdgeChange;
use egui::Color32;

/// The slide graph's edges: of the hovered cell or of every cell, with the last update's
/// changes.
pub(super) struct GraphEdges;

impl OverlayLayer for GraphEdges {
    fn name(&self) -> &'static str {
        "Slide-graph edges"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.graph_edges
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.graph_edges, self.name());
        ui.add_enabled(
            settings.graph_edges,
            egui::Checkbox::new(&mut settings.graph_all_cells, "Edges of every cell"),
        );
    }

    fn legend(&self, palette: &Palette) -> Vec<(Color32, &'static str)> {
        let colors = theme::overlay(palette);
        vec![
            (
                colors.graph_edge,
                "Slide-graph edge: cell -> where a robot stops",
            ),
            (
                colors.graph_changed,
                "Edge changed by the last update (new child)",
            ),
            (colors.graph_removed, "Where that edge pointed before"),
        ]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        let focus = if sources.settings.graph_all_cells {
            None
        } else {
            // No cell hovered: only the changed edges.
            Some(sources.focus.unwrap_or(Cell::MAX))
        };
        let graph = sources
            .debugger
            .and_then(|d| d.picture.part::<GraphPicture>());
        match (graph, sources.tracker) {
            (Some(graph), _) => {
                graph_layer(sources.board, &graph.edges, focus, &graph.recent_changes)
            }
            (None, Some(tracker)) => {
                graph_layer(sources.board, tracker.edges(), focus, tracker.changes())
            }
            (None, None) => OverlayDrawing::default(),
        }
    }
}

/// The slide graph's edges as arrows from each cell to each child: of every cell, or of the
/// `focus` cell only; the edges in `changes` are drawn highlighted to their new child, with
/// their old child marked, whatever the focus.
fn graph_layer(
    board: &Board,
    edges: &[[Option<Cell>; 4]],
    focus: Option<Cell>,
    changes: &[EdgeChange],
) -> OverlayDrawing {
    let mut drawing = OverlayDrawing::default();
    let changed = |cell: Cell, dir: Direction| {
        changes
            .iter()
            .any(|c| c.vertex == cell && c.dir == dir && c.new.is_some())
    };
    for (cell, children) in edges.iter().enumerate() {
        let cell = cell as Cell;
        if focus.is_some_and(|f| f != cell) || usize::from(cell) >= board.cell_count() {
            continue;
        }
        for dir in Direction::ALL {
            if let Some(child) = children[dir.index()]
                && !changed(cell, dir)
            {
                drawing.arrows.push(Arrow {
                    from: board.pos(cell),
                    to: board.pos(child),
                    dir,
                    kind: ArrowKind::Edge,
                });
            }
        }
    }
    for change in changes {
        if usize::from(change.vertex) >= board.cell_count() {
            continue;
        }
        let from = board.pos(change.vertex);
        if let Some(old) = change.old {
            drawing.arrows.push(Arrow {
                from,
                to: board.pos(old),
                dir: change.dir,
                kind: ArrowKind::Removed,
            });
        }
        if let Some(new) = change.new {
            drawing.arrows.push(Arrow {
                from,
                to: board.pos(new),
                dir: change.dir,
                kind: ArrowKind::Changed,
            });
        }
    }
    drawing
}

/// One line per edge change, sorted: "place (5, 9): (5, 4) S (5, 15) -> (5, 8) (case 2b)".
pub(in crate::app::overlays) fn change_lines(board: &Board, changes: &[EdgeChange]) -> Vec<String> {
    let mut sorted = changes.to_vec();
    sorted.sort_by_key(|c| (c.robot, c.vertex, c.dir.index()));
    let name = |cell: Option<Cell>| match cell {
        Some(cell) => board.pos(cell).to_string(),
        None => "none".to_string(),
    };
    sorted
        .iter()
        .map(|c| {
            let action = match c.action {
                crate::solver::slide_graph::GraphAction::Place => "place",
                crate::solver::slide_graph::GraphAction::Remove => "remove",
            };
            format!(
                "{action} {}: {} {} {} -> {} (case {})",
                board.pos(c.robot),
                board.pos(c.vertex),
                c.dir.letter(),
                name(c.old),
                name(c.new),
                c.case.label()
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Pos;
    use crate::solver::graph_tracker::graph_edges;
    use crate::solver::slide_graph::SlideGraph;

    #[test]
    fn graph_layer_draws_every_edge_or_only_the_focus_cell() {
        let board = Board::new(3, 3).unwrap();
        let graph = SlideGraph::new(&board);
        let edges = graph_edges(&graph);
        let all = graph_layer(&board, &edges, None, &[]);
        // On an empty 3x3 board each cell has an edge in every direction it can move: the
        // corners 2, the sides 3, the middle 4.
        assert_eq!(all.arrows.len(), 4 * 2 + 4 * 3 + 4);
        let middle = graph_layer(&board, &edges, Some(4), &[]);
        assert_eq!(middle.arrows.len(), 4);
        assert!(middle.arrows.iter().all(|a| a.from == Pos::new(1, 1)));
    }

    #[test]
    fn placing_a_robot_highlights_each_changed_edge_with_its_old_child() {
        let board = Board::new(5, 1).unwrap();
        let mut graph = SlideGraph::new(&board);
        let mut changes = Vec::new();
        graph.place(2, |c| changes.push(c)).unwrap();
        let drawing = graph_layer(&board, &graph_edges(&graph), None, &changes);
        let changed: Vec<&Arrow> = drawing
            .arrows
            .iter()
            .filter(|a| a.kind == ArrowKind::Changed)
            .collect();
        let removed = drawing
            .arrows
            .iter()
            .filter(|a| a.kind == ArrowKind::Removed)
            .count();
        assert_eq!(
            changed.len(),
            changes.iter().filter(|c| c.new.is_some()).count()
        );
        assert_eq!(removed, changes.iter().filter(|c| c.old.is_some()).count());
        // Cell 0 sliding east now stops at cell 1, next to the robot.
        assert!(
            changed
                .iter()
                .any(|a| a.from == Pos::new(0, 0) && a.to == Pos::new(1, 0))
        );
        let lines = change_lines(&board, &changes);
        assert_eq!(lines.len(), changes.len());
        assert!(lines.iter().all(|l| l.contains("case 2")));
    }
}
