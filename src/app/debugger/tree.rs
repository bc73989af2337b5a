//! The Search tree tab: the recorded search as a tree, children read from the trace when a
//! node is opened, each node coloured by what became of it, with its subtree's node count and
//! an inspector for the node selected. The board, the timeline and the tree follow each
//! other: selecting a node shows it on the board and the timeline, and the keyboard moves
//! through the tree (Up, Down, Right to open, Left to close or go to the parent).

use super::{DebugCommand, Debugger};
use crate::app::shell::commands::Command;
use crate::app::theme;
use crate::app::widgets::format_count;
use crate::model::format_moves;
use crate::solver::PruneReason;
use crate::solver::trace::{TreeNode, TreeNodeFate};
use std::collections::{BTreeSet, HashMap};

/// A change to the tree tab, applied with the debugger's commands.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeCommand {
    /// Read the tree's roots (again, for a run that went on).
    Load,
    /// Open or close the node whose node event has this number, reading its children the
    /// first time.
    Toggle(u64),
    /// Select the node with this event number and show it on the board and the timeline.
    Select(u64),
}

/// What the tree tab shows: the nodes read so far, which are open, which is selected.
#[derive(Default)]
pub struct TreeView {
    /// The roots, or why they could not be read; `None` until read.
    roots: Option<Result<Vec<TreeNode>, String>>,
    /// How many events the trace held when the roots were read.
    read_at: u64,
    /// The children read so far, by their parent's event number.
    children: HashMap<u64, Vec<TreeNode>>,
    open: BTreeSet<u64>,
    selected: Option<u64>,
    /// How long the last read took, in milliseconds, for the tab to say.
    last_read_ms: f64,
}

impl TreeView {
    /// The node with this event number, if it has been read.
    fn node(&self, event: u64) -> Option<&TreeNode> {
        let roots = self.roots.as_ref()?.as_ref().ok()?;
        roots
            .iter()
            .chain(self.children.values().flatten())
            .find(|n| n.event == event)
    }

    /// The nodes as drawn, top to bottom: each open node followed by its children.
    fn visible(&self) -> Vec<&TreeNode> {
        let mut rows = Vec::new();
        if let Some(Ok(roots)) = &self.roots {
            for root in roots {
                self.push_visible(root, &mut rows);
            }
        }
        rows
    }

    fn push_visible<'a>(&'a self, node: &'a TreeNode, rows: &mut Vec<&'a TreeNode>) {
        rows.push(node);
        if self.open.contains(&node.event)
            && let Some(children) = self.children.get(&node.event)
        {
            for child in children {
                self.push_visible(child, rows);
            }
        }
    }

    /// The parent of a node read so far.
    fn parent_of(&self, event: u64) -> Option<u64> {
        self.children
            .iter()
            .find(|(_, children)| children.iter().any(|c| c.event == event))
            .map(|(parent, _)| *parent)
    }
}

impl Debugger {
    /// Applies a change to the tree tab.
    pub(super) fn apply_tree(&mut self, command: TreeCommand) {
        let history = self.history();
        let started = std::time::Instant::now();
        match command {
            TreeCommand::Load => {
                let mut history = super::lock(&history);
                self.tree = TreeView::default();
                self.tree.roots = Some(match history.reader() {
                    Ok(reader) => {
                        self.tree.read_at = reader.events();
                        reader.tree_roots().map_err(|e| e.to_string())
                    }
                    Err(error) => Err(error.to_string()),
                });
            }
            TreeCommand::Toggle(event) => {
                if !self.tree.open.remove(&event) {
                    if !self.tree.children.contains_key(&event)
                        && let Some(node) = self.tree.node(event).cloned()
                    {
                        let mut history = super::lock(&history);
                        let children = history
                            .reader()
                            .and_then(|reader| reader.tree_children(&node))
                            .unwrap_or_default();
                        self.tree.children.insert(event, children);
                    }
                    self.tree.open.insert(event);
                }
            }
            TreeCommand::Select(event) => {
                self.tree.selected = Some(event);
                self.show(event);
            }
        }
        self.tree.last_read_ms = started.elapsed().as_secs_f64() * 1000.0;
    }
}

/// Draws the Search tree tab.
pub(in crate::app) fn tree_ui(
    ui: &mut egui::Ui,
    debugger: Option<&Debugger>,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    let Some(debugger) = debugger else {
        ui.label(
            egui::RichText::new(
                "Debug a run (tick Debug mode and press Solve) or open a trace file to see its \
                 search as a tree.",
            )
            .color(palette.muted),
        );
        return;
    };
    let send = |commands: &mut Vec<Command>, command: TreeCommand| {
        commands.push(Command::Debug(DebugCommand::Tree(command)));
    };
    let tree = &debugger.tree;
    ui.horizontal(|ui| {
        let label = if tree.roots.is_some() {
            "Read again"
        } else {
            "Read the tree"
        };
        if ui
            .button(label)
            .on_hover_text("Read the search tree from the recording as it stands")
            .clicked()
        {
            send(commands, TreeCommand::Load);
        }
        if tree.roots.is_some() {
            ui.label(
                egui::RichText::new(format!(
                    "{} events, read in {:.0} ms",
                    format_count(tree.read_at),
                    tree.last_read_ms
                ))
                .small(),
            );
        }
    });
    let rows = tree.visible();
    match &tree.roots {
        None => {
            ui.label(
                egui::RichText::new("The tree is read from the run's recording when asked.")
                    .color(palette.muted),
            );
            return;
        }
        Some(Err(error)) => {
            ui.add(egui::Label::new(egui::RichText::new(error).color(palette.error)).wrap());
            return;
        }
        Some(Ok(_)) => {}
    }
    keyboard(ui, tree, &rows, commands);
    inspector_ui(ui, debugger);
    ui.separator();
    legend_ui(ui);
    egui::ScrollArea::vertical()
        .id_salt("search-tree")
        .auto_shrink([false, false])
        .show_rows(
            ui,
            ui.text_style_height(&egui::TextStyle::Body) + ui.spacing().item_spacing.y,
            rows.len(),
            |ui, range| {
                for node in &rows[range] {
                    row_ui(ui, tree, node, commands);
                }
            },
        );
}

/// One row: its opener, its move, what became of it and its subtree's nodes.
fn row_ui(ui: &mut egui::Ui, tree: &TreeView, node: &TreeNode, commands: &mut Vec<Command>) {
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.horizontal(|ui| {
        ui.add_space(12.0 * node.depth.min(40) as f32);
        let has_children = node.fate != TreeNodeFate::Open && node.subtree_nodes > 1;
        let open = tree.open.contains(&node.event);
        let opener = if !has_children {
            " "
        } else if open {
            "-"
        } else {
            "+"
        };
        if ui
            .add_enabled(has_children, egui::Button::new(opener).small().frame(false))
            .on_hover_text(if open { "Close" } else { "Open" })
            .clicked()
        {
            commands.push(Command::Debug(DebugCommand::Tree(TreeCommand::Toggle(
                node.event,
            ))));
        }
        let color = fate_color(ui, &palette, node.fate);
        let name = match node.path.last() {
            Some(mv) => mv.to_string(),
            None => match node.iteration {
                Some(bound) => format!("start (depth {bound})"),
                None => "start".to_string(),
            },
        };
        let text = format!(
            "{name}  {}{}",
            format_count(node.subtree_nodes),
            if node.transposition { "  *" } else { "" }
        );
        let selected = tree.selected == Some(node.event);
        let response = ui
            .selectable_label(selected, egui::RichText::new(text).color(color))
            .on_hover_text(format!(
                "Event {}: {}; {} nodes in its subtree{}",
                node.event + 1,
                fate_text(node.fate),
                format_count(node.subtree_nodes),
                if node.transposition {
                    "; the same robot cells were examined earlier in this iteration"
                } else {
                    ""
                }
            ));
        if response.clicked() {
            commands.push(Command::Debug(DebugCommand::Tree(TreeCommand::Select(
                node.event,
            ))));
        }
        if selected {
            response.scroll_to_me(None);
        }
    });
}

/// The keys that move through the tree while the tab has the pointer's attention.
fn keyboard(ui: &egui::Ui, tree: &TreeView, rows: &[&TreeNode], commands: &mut Vec<Command>) {
    if ui.ctx().memory(|m| m.focused().is_some()) {
        return;
    }
    let position = tree
        .selected
        .and_then(|event| rows.iter().position(|n| n.event == event));
    let (down, up, right, left) = ui.input(|i| {
        (
            i.key_pressed(egui::Key::ArrowDown),
            i.key_pressed(egui::Key::ArrowUp),
            i.key_pressed(egui::Key::ArrowRight),
            i.key_pressed(egui::Key::ArrowLeft),
        )
    });
    let select = |commands: &mut Vec<Command>, event: u64| {
        commands.push(Command::Debug(DebugCommand::Tree(TreeCommand::Select(
            event,
        ))));
    };
    let Some(at) = position else {
        if (down || up)
            && let Some(first) = rows.first()
        {
            select(commands, first.event);
        }
        return;
    };
    let node = rows[at];
    if down && at + 1 < rows.len() {
        select(commands, rows[at + 1].event);
    } else if up && at > 0 {
        select(commands, rows[at - 1].event);
    } else if right && !tree.open.contains(&node.event) && node.subtree_nodes > 1 {
        commands.push(Command::Debug(DebugCommand::Tree(TreeCommand::Toggle(
            node.event,
        ))));
    } else if left {
        if tree.open.contains(&node.event) {
            commands.push(Command::Debug(DebugCommand::Tree(TreeCommand::Toggle(
                node.event,
            ))));
        } else if let Some(parent) = tree.parent_of(node.event) {
            select(commands, parent);
        }
    }
}

/// What the selected node is: where, how deep, under which bound, and why it was cut.
fn inspector_ui(ui: &mut egui::Ui, debugger: &Debugger) {
    let Some(node) = debugger.tree.selected.and_then(|e| debugger.tree.node(e)) else {
        ui.label(
            egui::RichText::new("Select a node (or press Down) to inspect it.")
                .small()
                .color(theme::palette(ui.visuals().dark_mode).muted),
        );
        return;
    };
    let puzzle = debugger.puzzle();
    let board = puzzle.board();
    let bounds = crate::solver::min_moves::min_moves(board, puzzle.goal_cell());
    let lower_bound = match puzzle.active_robot() {
        Some(active) => node
            .cells
            .as_slice()
            .get(active)
            .map(|&c| bounds[usize::from(c)]),
        None => node
            .cells
            .as_slice()
            .iter()
            .map(|&c| bounds[usize::from(c)])
            .min(),
    };
    egui::Grid::new("tree-inspector")
        .num_columns(2)
        .show(ui, |ui| {
            ui.label("Event");
            ui.label(format_count(node.event + 1));
            ui.end_row();
            ui.label("Depth");
            ui.label(match node.iteration {
                Some(bound) => format!("{} (iteration {bound})", node.depth),
                None => node.depth.to_string(),
            });
            ui.end_row();
            ui.label("Moves");
            ui.add(
                egui::Label::new(if node.path.is_empty() {
                    "(the start)".to_string()
                } else {
                    format_moves(&node.path)
                })
                .wrap(),
            );
            ui.end_row();
            ui.label("Lower bound");
            ui.label(match lower_bound {
                Some(u16::MAX) | None => "unreachable".to_string(),
                Some(bound) => format!("{bound} moves (walls only)"),
            });
            ui.end_row();
            ui.label("Became");
            ui.add(egui::Label::new(fate_text(node.fate)).wrap());
            ui.end_row();
            ui.label("Subtree");
            ui.label(format!("{} nodes", format_count(node.subtree_nodes)));
            ui.end_row();
        });
}

fn legend_ui(ui: &mut egui::Ui) {
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.horizontal_wrapped(|ui| {
        for fate in [
            TreeNodeFate::Expanded,
            TreeNodeFate::Pruned(PruneReason::DepthLimit),
            TreeNodeFate::Pruned(PruneReason::TableHit { stored: 0 }),
            TreeNodeFate::Solution,
        ] {
            let name = match fate {
                TreeNodeFate::Expanded => "expanded",
                TreeNodeFate::Pruned(PruneReason::TableHit { .. }) => "cut by the table",
                TreeNodeFate::Pruned(_) => "pruned",
                TreeNodeFate::Solution => "on the solution",
                TreeNodeFate::Open => "not finished",
            };
            ui.label(
                egui::RichText::new(name)
                    .small()
                    .color(fate_color(ui, &palette, fate)),
            );
        }
        ui.label(egui::RichText::new("* transposition").small());
    });
}

fn fate_color(ui: &egui::Ui, palette: &theme::Palette, fate: TreeNodeFate) -> egui::Color32 {
    match fate {
        TreeNodeFate::Expanded => ui.visuals().text_color(),
        TreeNodeFate::Pruned(PruneReason::TableHit { .. }) => palette.warning,
        TreeNodeFate::Pruned(_) => palette.muted,
        TreeNodeFate::Solution => palette.success,
        TreeNodeFate::Open => palette.muted,
    }
}

fn fate_text(fate: TreeNodeFate) -> String {
    match fate {
        TreeNodeFate::Expanded => "expanded".to_string(),
        TreeNodeFate::Pruned(reason) => format!("cut: {}", super::panel::prune_text(reason)),
        TreeNodeFate::Solution => "on the solution".to_string(),
        TreeNodeFate::Open => "the recording ends before it was finished".to_string(),
    }
}
