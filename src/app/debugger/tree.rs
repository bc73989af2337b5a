//! The Search tree tab: the recorded search as a tree, children read from the trace when a
//! node is opened, each node coloured by what became of it, with its subtree's node count and
//! an inspector for the node selected. The board, the timeline and the tree follow each
//! other: selecting a node shows it on the board and the timeline, and the keyboard moves
//! through the tree (Up, Down, Right to open, Left to close or go to the parent).

use super::Debugger;
use super::tree_state::TreeView;
use crate::app::command::Command;
use crate::app::command::DebugCommand;
use crate::app::command::TreeCommand;
use crate::app::theme;
use crate::app::widgets::format_count;
use crate::model::format_moves;
use crate::solver::PruneReason;
use crate::solver::trace::{TreeNode, TreeNodeFate};

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
            ui.add(
                egui::Label::new(egui::RichText::new(error.to_string()).color(palette.error))
                    .wrap(),
            );
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
        // The opener takes the same width on every row, a leaf's left empty, so that the
        // moves line up.
        let width = 14.0;
        if has_children {
            let opener = if open { "-" } else { "+" };
            let response = ui
                .add_sized(
                    [width, ui.spacing().interact_size.y],
                    egui::Button::new(opener).small().frame(false),
                )
                .on_hover_text(if open { "Close" } else { "Open" });
            if response.clicked() {
                commands.push(Command::Debug(DebugCommand::Tree(TreeCommand::Toggle(
                    node.event,
                ))));
            }
        } else {
            ui.add_space(width);
        }
        let color = fate_color(ui, palette, node.fate);
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
                node.event,
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
    // Arrows typed into a text field are the field's.
    if ui.ctx().egui_wants_keyboard_input() {
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

/// What the selected node is: where, how deep, under which bound, and why it was cut. The
/// grid has the same rows with no node selected, so that selecting one moves nothing below.
fn inspector_ui(ui: &mut egui::Ui, debugger: &Debugger) {
    let node = debugger.tree.selected.and_then(|e| debugger.tree.node(e));
    let puzzle = debugger.puzzle();
    let bounds = crate::solver::min_moves::min_moves(puzzle.board(), puzzle.goal_cell());
    let rows: [(&str, String); 6] = match node {
        None => [
            ("Event", "select a node (or press Down)".to_string()),
            ("Depth", "-".to_string()),
            ("Moves", "-".to_string()),
            ("Numbers", "-".to_string()),
            ("Became", "-".to_string()),
            ("Subtree", "-".to_string()),
        ],
        Some(node) => {
            let cells = node.cells.as_slice();
            let lower_bound = match puzzle.active_robot() {
                Some(active) => cells.get(active).map(|&c| bounds[usize::from(c)]),
                None => cells.iter().map(|&c| bounds[usize::from(c)]).min(),
            };
            [
                ("Event", format_count(node.event)),
                (
                    "Depth",
                    match node.iteration {
                        Some(bound) => format!("{} (iteration {bound})", node.depth),
                        None => node.depth.to_string(),
                    },
                ),
                (
                    "Moves",
                    if node.path.is_empty() {
                        "(the start)".to_string()
                    } else {
                        format_moves(&node.path)
                    },
                ),
                (
                    "Numbers",
                    numbers_text(debugger, cells, node.depth, lower_bound),
                ),
                ("Became", fate_text(node.fate)),
                (
                    "Subtree",
                    format!("{} nodes", format_count(node.subtree_nodes)),
                ),
            ]
        }
    };
    egui::Grid::new("tree-inspector")
        .num_columns(2)
        .show(ui, |ui| {
            for (label, value) in rows {
                ui.label(label);
                // One line each, whole on hover: a long path never pushes the tree down.
                ui.add(egui::Label::new(value.clone()).truncate())
                    .on_hover_text(value);
                ui.end_row();
            }
        });
}

/// g, h and f of a node by the solver's heuristic; for a solver without one, g and the
/// walls-only lower bound.
fn numbers_text(
    debugger: &Debugger,
    cells: &[crate::model::Cell],
    g: u32,
    lower_bound: Option<u16>,
) -> String {
    match debugger.node_numbers(cells, g) {
        Some((heuristic, Some(h))) => {
            format!("g {g} · h {h} · f {} (h: {})", g + h, heuristic.name())
        }
        Some((heuristic, None)) => format!(
            "g {g} · h: the target is out of reach ({})",
            heuristic.name()
        ),
        None => match lower_bound {
            Some(u16::MAX) | None => format!("g {g} · the target is out of reach"),
            Some(bound) => format!("g {g} · lower bound {bound} (walls only)"),
        },
    }
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
                    .color(fate_color(ui, palette, fate)),
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
