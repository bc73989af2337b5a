//! The Run tab's icicle chart: where a run spent its nodes. The top row gives each first
//! move a width in proportion to the nodes searched under it, and the row below splits it by
//! the second move. Hovering a block names its moves and count; a click plays the moves back
//! on the board.

use crate::app::theme;
use crate::app::widgets::format_count;
use crate::model::{Move, format_moves};
use crate::solver::profile::ProfileEntry;
use egui::{Rect, Sense, pos2, vec2};

/// The moves of the prefixes a run counts for the chart: the first two, one row each.
pub(super) const PROFILE_DEPTH: usize = 2;

/// The height of one row of blocks, in points.
const ROW_HEIGHT: f32 = 22.0;

/// Blocks narrower than this, in points, are neither drawn apart nor offered to the pointer:
/// they could not be told from their neighbours.
const NARROWEST_BLOCK: f32 = 1.5;

/// One block of the chart: a prefix and where it is drawn.
#[derive(Clone, Debug, PartialEq)]
struct Block<'a> {
    /// The prefix and its nodes.
    entry: &'a ProfileEntry,
    /// Where it is drawn.
    rect: Rect,
}

/// Lays the chart's blocks out in `rect`: one row per prefix length, each block as wide as
/// its share of the nodes under every first move, each longer prefix under its shorter one
/// and in the profile's order from the left. The part of a block with nothing below it is
/// the nodes at exactly its depth. Blocks too narrow to see are left out.
fn layout(entries: &[ProfileEntry], rect: Rect) -> Vec<Block<'_>> {
    let total: u64 = entries
        .iter()
        .filter(|e| e.prefix.len() == 1)
        .map(|e| e.nodes)
        .sum();
    if total == 0 {
        return Vec::new();
    }
    let scale = rect.width() / total as f32;
    let rows = entries.iter().map(|e| e.prefix.len()).max().unwrap_or(0);
    // The next free x of each row. The entries come in tree order, each block's longer
    // prefixes right after it, so they start at its left and follow one another.
    let mut next_x = vec![rect.left(); rows + 1];
    let mut blocks = Vec::new();
    for entry in entries {
        let level = entry.prefix.len();
        if level == 0 {
            continue;
        }
        let left = next_x[level];
        let width = entry.nodes as f32 * scale;
        next_x[level] = left + width;
        for deeper in next_x.iter_mut().skip(level + 1) {
            *deeper = left;
        }
        if width >= NARROWEST_BLOCK {
            let top = rect.top() + (level - 1) as f32 * ROW_HEIGHT;
            blocks.push(Block {
                entry,
                rect: Rect::from_min_size(pos2(left, top), vec2(width, ROW_HEIGHT)),
            });
        }
    }
    blocks
}

/// The accessible name of a block: `Prefix` and its moves, e.g. `Prefix BS, RN`.
pub fn block_label(prefix: &[Move]) -> String {
    format!("Prefix {}", format_moves(prefix))
}

/// What the chart asks of the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum IcicleCommand {
    /// Show these moves on the board.
    Show(Vec<Move>),
}

/// Draws the chart of `entries`, highlighting the block of the moves `shown` on the board;
/// a click on a block returns its command.
pub(super) fn icicle_ui(
    ui: &mut egui::Ui,
    entries: &[ProfileEntry],
    shown: Option<&[Move]>,
) -> Option<IcicleCommand> {
    let palette = theme::palette(ui.visuals().dark_mode);
    let total: u64 = entries
        .iter()
        .filter(|e| e.prefix.len() == 1)
        .map(|e| e.nodes)
        .sum();
    ui.label(egui::RichText::new("Nodes per first moves").strong())
        .on_hover_text(
            "Each first move's share of the nodes below the root, split by the second move. \
             Click a block to show its moves on the board.",
        );
    if total == 0 {
        ui.label(egui::RichText::new("No nodes below the root.").color(palette.muted));
        return None;
    }
    let rows = entries.iter().map(|e| e.prefix.len()).max().unwrap_or(1);
    let size = vec2(ui.available_width(), rows as f32 * ROW_HEIGHT);
    let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
    let mut command = None;
    for block in layout(entries, rect) {
        let prefix = &block.entry.prefix;
        let id = ui.scope_id().with(("icicle", prefix));
        let response = ui.interact(block.rect, id, Sense::click());
        let label = block_label(prefix);
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
        let last = prefix[prefix.len() - 1];
        let mut fill = theme::robot(last.robot);
        // Deeper rows are paler, so a first move and its split read as parent and children.
        if prefix.len() > 1 {
            fill = fill.gamma_multiply(0.6);
        }
        let is_shown = shown == Some(&prefix[..]);
        let stroke = if is_shown {
            egui::Stroke::new(2.0, palette.selection)
        } else if response.hovered() {
            egui::Stroke::new(1.5, palette.hover)
        } else {
            egui::Stroke::new(0.5, palette.grid_line)
        };
        let painter = ui.painter_at(rect);
        painter.rect_filled(block.rect.shrink(0.5), 2.0, fill);
        painter.rect_stroke(
            block.rect.shrink(0.5),
            2.0,
            stroke,
            egui::StrokeKind::Inside,
        );
        let text = last.to_string();
        let font = egui::FontId::proportional(12.0);
        // The block's own hue would vanish on it: black or white, whichever reads.
        let ink = theme::text_on(fill, ui.visuals().panel_fill);
        let galley = painter.layout_no_wrap(text, font, ink);
        if galley.size().x + 4.0 <= block.rect.width() {
            painter.galley(block.rect.center() - galley.size() / 2.0, galley, ink);
        }
        let share = block.entry.nodes as f64 * 100.0 / total as f64;
        let nodes = block.entry.nodes;
        let clicked = response.clicked();
        response.on_hover_text(format!(
            "{}: {} nodes ({share:.1}% of the nodes below the root)",
            format_moves(prefix),
            format_count(nodes)
        ));
        if clicked {
            command = Some(IcicleCommand::Show(prefix.clone()));
        }
    }
    command
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direction::*, RobotColor::*};

    fn entry(moves: &[Move], nodes: u64) -> ProfileEntry {
        ProfileEntry {
            prefix: moves.to_vec(),
            nodes,
        }
    }

    #[test]
    fn blocks_take_their_share_and_sit_under_their_first_move() {
        let (bs, rn, gw) = (
            Move::new(Blue, South),
            Move::new(Red, North),
            Move::new(Green, West),
        );
        // Tree order: RN (10, of which RN GW 4), then BS (30, of which BS RN 30).
        let entries = vec![
            entry(&[rn], 10),
            entry(&[rn, gw], 4),
            entry(&[bs], 30),
            entry(&[bs, rn], 30),
        ];
        let rect = Rect::from_min_size(pos2(100.0, 50.0), vec2(400.0, 2.0 * ROW_HEIGHT));
        let blocks = layout(&entries, rect);
        let spans: Vec<(f32, f32, f32)> = blocks
            .iter()
            .map(|b| (b.rect.left(), b.rect.width(), b.rect.top()))
            .collect();
        assert_eq!(
            spans,
            vec![
                (100.0, 100.0, 50.0),
                (100.0, 40.0, 50.0 + ROW_HEIGHT),
                (200.0, 300.0, 50.0),
                (200.0, 300.0, 50.0 + ROW_HEIGHT),
            ]
        );
    }

    #[test]
    fn blocks_too_narrow_to_see_are_left_out_and_no_nodes_draw_nothing() {
        let (bs, rn) = (Move::new(Blue, South), Move::new(Red, North));
        let entries = vec![entry(&[rn], 1), entry(&[bs], 9999)];
        let rect = Rect::from_min_size(pos2(0.0, 0.0), vec2(100.0, ROW_HEIGHT));
        let blocks = layout(&entries, rect);
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].entry.prefix, vec![bs]);
        assert!(layout(&[], rect).is_empty());
        assert_eq!(block_label(&[bs, rn]), "Prefix BS, RN");
    }
}
