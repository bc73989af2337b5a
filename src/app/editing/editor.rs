//! Editor mode: the tool palette and generators in the side panel, and what clicks and drags
//! on the board do while designing.

pub(in crate::app) use super::settings::{EditorSettings, Tool};
use crate::app::board_paint::{BoardGeometry, Hit, RobotSprite};
use crate::app::board_view::BoardScene;
use crate::app::command::{Command, UndoStep};
use crate::app::document::draft::{Draft, Edit, describe_target};
use crate::app::theme;
use crate::app::widgets;
use crate::app::widgets::{capitalised, color_swatch, labeled_drag};
use crate::model::tiles::{self, TileVariant};
use crate::model::{Direction, Goal, Pos, RobotColor, Rules, Shape, Target, TargetColor};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A press-and-drag on the board in progress.
#[derive(Clone, Debug, PartialEq)]
enum Gesture {
    /// Painting walls or closed cells: every side or cell passed over gets `on`. A wall stroke
    /// keeps to the line of the side it started on (`line`: that side), so that a hand's
    /// wobble across a small cell never adds stubs across the line; `last` is the cell along
    /// it painted last, so that a fast stroke leaves no gaps.
    Paint {
        walls: bool,
        on: bool,
        recorded: bool,
        line: Option<(Pos, Direction)>,
        last: Option<Pos>,
    },
    /// Carrying a robot; `at` is the pointer in board coordinates.
    Robot { color: RobotColor, at: egui::Pos2 },
    /// Carrying a printed target.
    Target { from: Pos, at: egui::Pos2 },
}

/// The editor's state within a session: the gesture under way.
#[derive(Clone, Debug, Default)]
pub(in crate::app) struct EditorInteraction {
    gesture: Option<Gesture>,
}

impl EditorInteraction {
    /// Shows a carried robot under the pointer rather than on its cell.
    pub(in crate::app) fn adjust_scene(&self, scene: &mut BoardScene) {
        if let Some(Gesture::Robot { color, at }) = &self.gesture {
            for sprite in &mut scene.robots {
                if sprite.color == *color {
                    *sprite = RobotSprite {
                        color: *color,
                        center: *at,
                    };
                }
            }
            scene.selected = Some(*color);
        }
    }

    /// Forgets a gesture (when the board is replaced under it).
    pub(in crate::app) fn reset(&mut self) {
        self.gesture = None;
    }

    /// Turns this frame's pointer activity on the board into edits.
    pub(in crate::app) fn board_input(
        &mut self,
        response: &egui::Response,
        geometry: &BoardGeometry,
        draft: &Draft,
        settings: &EditorSettings,
        commands: &mut Vec<Command>,
    ) {
        let pointer = response.interact_pointer_pos().or(response.hover_pos());
        let hit = pointer.and_then(|p| geometry.hit(p));
        if response.secondary_clicked() {
            if let Some(hit) = hit {
                erase(hit, draft, commands);
            }
            return;
        }
        if response.drag_started_by(egui::PointerButton::Primary) {
            let origin = response.ctx.input(|i| i.pointer.press_origin()).or(pointer);
            if let Some(start) = origin.and_then(|p| geometry.hit(p)) {
                self.gesture = start_gesture(start, draft, settings, geometry, origin);
                if let Some(Gesture::Paint { .. }) = self.gesture {
                    self.paint(start, draft, commands);
                }
            }
        } else if response.clicked()
            && let Some(hit) = hit
        {
            click(hit, draft, settings, commands);
        }
        if response.dragged() {
            match &mut self.gesture {
                Some(Gesture::Paint { .. }) => {
                    if let Some(hit) = hit {
                        self.paint(hit, draft, commands);
                    }
                }
                Some(Gesture::Robot { at, .. }) | Some(Gesture::Target { at, .. }) => {
                    if let Some(p) = pointer {
                        *at = geometry.to_board(p);
                    }
                }
                None => {}
            }
        }
        if response.drag_stopped() {
            match self.gesture.take() {
                Some(Gesture::Robot { color, .. }) => {
                    if let Some(hit) = hit {
                        commands.push(Command::edit(Edit::PlaceRobot {
                            color,
                            pos: hit.cell(),
                        }));
                    }
                }
                Some(Gesture::Target { from, .. }) => {
                    if let Some(hit) = hit {
                        commands.push(Command::edit(Edit::MoveTarget {
                            from,
                            to: hit.cell(),
                        }));
                    }
                }
                Some(Gesture::Paint { .. }) | None => {}
            }
        }
    }

    fn paint(&mut self, hit: Hit, draft: &Draft, commands: &mut Vec<Command>) {
        let Some(Gesture::Paint {
            walls,
            on,
            recorded,
            line,
            last,
        }) = &mut self.gesture
        else {
            return;
        };
        let edits: Vec<Edit> = if *walls {
            let Some((start, side)) = *line else {
                return;
            };
            // The pointer's cell, brought onto the stroke's line, and every side from the
            // last one painted to it.
            let cell = hit.cell();
            let along_row = matches!(side, Direction::North | Direction::South);
            let target = if along_row {
                Pos::new(cell.x, start.y)
            } else {
                Pos::new(start.x, cell.y)
            };
            let from = last.unwrap_or(target);
            *last = Some(target);
            let (a, b) = if along_row {
                (from.x.min(target.x), from.x.max(target.x))
            } else {
                (from.y.min(target.y), from.y.max(target.y))
            };
            (a..=b)
                .map(|i| {
                    if along_row {
                        Pos::new(i, start.y)
                    } else {
                        Pos::new(start.x, i)
                    }
                })
                .filter(|&pos| {
                    !draft.board.is_border(pos, side)
                        && draft.board.has_wall(draft.board.cell(pos), side) != *on
                })
                .map(|pos| Edit::SetWall { pos, side, on: *on })
                .collect()
        } else {
            let pos = hit.cell();
            if draft.board.is_closed(draft.board.cell(pos)) == *on {
                return;
            }
            vec![Edit::SetClosed { pos, closed: *on }]
        };
        for edit in edits {
            // One undo step for the whole stroke.
            let step = if *recorded {
                UndoStep::Continue
            } else {
                UndoStep::New
            };
            *recorded = true;
            commands.push(Command::Edit { edit, step });
        }
    }

    /// What the pointer would change, for the hover outline.
    pub(in crate::app) fn hover(&self, hit: Option<Hit>, settings: &EditorSettings) -> Option<Hit> {
        match (settings.tool, hit) {
            (Tool::Walls, Some(Hit::Edge(..))) => hit,
            (Tool::Walls, _) => None,
            (_, Some(hit)) => Some(Hit::Cell(hit.cell())),
            (_, None) => None,
        }
    }
}

fn start_gesture(
    start: Hit,
    draft: &Draft,
    settings: &EditorSettings,
    geometry: &BoardGeometry,
    origin: Option<egui::Pos2>,
) -> Option<Gesture> {
    let at = geometry.to_board(origin?);
    let pos = start.cell();
    match settings.tool {
        Tool::Walls => match start {
            Hit::Edge(pos, side) if !draft.board.is_border(pos, side) => Some(Gesture::Paint {
                walls: true,
                on: !draft.board.has_wall(draft.board.cell(pos), side),
                recorded: false,
                line: Some((pos, side)),
                last: None,
            }),
            _ => None,
        },
        Tool::ClosedCells => Some(Gesture::Paint {
            walls: false,
            on: !draft.board.is_closed(draft.board.cell(pos)),
            recorded: false,
            line: None,
            last: None,
        }),
        Tool::Move | Tool::Robots | Tool::Targets | Tool::ActiveTarget => {
            if let Some(color) = draft.robot_at(pos) {
                Some(Gesture::Robot { color, at })
            } else if draft.board.target_at(pos).is_some() {
                Some(Gesture::Target { from: pos, at })
            } else {
                None
            }
        }
    }
}

fn click(hit: Hit, draft: &Draft, settings: &EditorSettings, commands: &mut Vec<Command>) {
    let pos = hit.cell();
    match settings.tool {
        Tool::Walls => match hit {
            Hit::Edge(pos, side) => {
                let on = !draft.board.has_wall(draft.board.cell(pos), side);
                commands.push(Command::edit(Edit::SetWall { pos, side, on }));
            }
            Hit::Cell(_) => commands.push(Command::Message(
                "Click nearer a cell side to toggle its wall.".into(),
            )),
        },
        Tool::Robots => {
            let color = settings.robot_color;
            if draft.robot_at(pos) == Some(color) {
                commands.push(Command::edit(Edit::RemoveRobot(color)));
            } else {
                commands.push(Command::edit(Edit::PlaceRobot { color, pos }));
            }
        }
        Tool::Targets => {
            let target = Target {
                pos,
                color: settings.target_color,
                shape: if settings.target_color == TargetColor::Any {
                    Shape::Vortex
                } else if settings.target_shape == Shape::Vortex {
                    Shape::Circle
                } else {
                    settings.target_shape
                },
            };
            if draft.board.target_at(pos) == Some(&target) {
                commands.push(Command::edit(Edit::RemoveTarget(pos)));
            } else {
                commands.push(Command::edit(Edit::SetTarget(target)));
            }
        }
        Tool::ActiveTarget | Tool::Move => match draft.board.target_at(pos) {
            Some(target) => commands.push(Command::edit(Edit::SetGoal(Goal {
                pos,
                color: target.color,
            }))),
            None if settings.tool == Tool::ActiveTarget => commands.push(Command::Message(
                format!("There is no target printed on {pos}; print one with the Targets tool."),
            )),
            None => {}
        },
        Tool::ClosedCells => {
            let closed = !draft.board.is_closed(draft.board.cell(pos));
            commands.push(Command::edit(Edit::SetClosed { pos, closed }));
        }
    }
}

/// A right click removes what is under the pointer: a robot, a target, or a wall.
fn erase(hit: Hit, draft: &Draft, commands: &mut Vec<Command>) {
    let pos = hit.cell();
    if let Hit::Edge(pos, side) = hit
        && !draft.board.is_border(pos, side)
        && draft.board.has_wall(draft.board.cell(pos), side)
    {
        commands.push(Command::edit(Edit::SetWall {
            pos,
            side,
            on: false,
        }));
    } else if let Some(color) = draft.robot_at(pos) {
        commands.push(Command::edit(Edit::RemoveRobot(color)));
    } else if draft.board.target_at(pos).is_some() {
        commands.push(Command::edit(Edit::RemoveTarget(pos)));
    }
}

/// The editor's side panel: tools, rules, size, clearing and generators.
pub(in crate::app) fn editor_panel_ui(
    ui: &mut egui::Ui,
    draft: &Draft,
    problem: Option<&str>,
    live_optimum: &dyn Fn(&mut egui::Ui),
    settings: &mut EditorSettings,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    ui.heading("Editor");
    // Two lines are kept for why the board is not solvable, or its live optimum when it is,
    // so the editor does not jump as the board becomes valid or invalid.
    // The live optimum's first line is a row with a spinner, a little taller than text.
    let live_height =
        widgets::widget_rows(ui, 1.0) + ui.spacing().item_spacing.y + widgets::text_lines(ui, 1.0);
    let height = widgets::text_lines(ui, 2.0).max(live_height);
    widgets::reserved(ui, height, |ui| match problem {
        Some(problem) => {
            ui.colored_label(palette.error, format!("Not solvable yet: {problem}"));
        }
        None => live_optimum(ui),
    });
    ui.separator();
    ui.label(egui::RichText::new("Tool").strong());
    ui.horizontal_wrapped(|ui| {
        for tool in Tool::ALL {
            ui.selectable_value(&mut settings.tool, tool, tool.label());
        }
    });
    // The hint takes the height of the longest tool's hint at this width, so that choosing a
    // tool with a shorter one does not move what is below.
    let width = ui.available_width();
    let font = egui::TextStyle::Body.resolve(ui.style());
    let tallest = Tool::ALL
        .iter()
        .map(|tool| {
            ui.fonts_mut(|fonts| {
                fonts
                    .layout(tool.hint().to_string(), font.clone(), palette.muted, width)
                    .size()
                    .y
            })
        })
        .fold(0.0_f32, f32::max);
    crate::app::widgets::reserved(ui, tallest, |ui| {
        ui.label(egui::RichText::new(settings.tool.hint()).color(palette.muted));
    });
    ui.label(
        egui::RichText::new("Right click removes a robot, target or wall.").color(palette.muted),
    );
    // The tools' options share one strip, as tall as the tallest tool needs (the targets'
    // colours and shapes), so choosing a tool never moves what is below.
    // In a narrow panel (a small window) the targets' shapes take a second row.
    let rows = if ui.available_width() < 280.0 {
        4.0
    } else {
        3.0
    };
    let height = widgets::widget_rows(ui, rows);
    widgets::reserved(ui, height, |ui| tool_options_ui(ui, settings));
    ui.separator();
    goal_ui(ui, draft, commands);
    rules_ui(ui, draft, commands);
    ui.separator();
    ui.label(egui::RichText::new("Board size").strong());
    ui.horizontal(|ui| {
        labeled_drag(ui, "Width", &mut settings.width, 1..=64);
        labeled_drag(ui, "Height", &mut settings.height, 1..=64);
    });
    if ui
        .button("Resize board")
        .on_hover_text("Keeps the walls, targets and robots that fit")
        .clicked()
    {
        commands.push(Command::edit(Edit::Resize {
            width: settings.width,
            height: settings.height,
        }));
    }
    ui.horizontal_wrapped(|ui| {
        if ui.button("Clear walls").clicked() {
            commands.push(Command::edit(Edit::ClearWalls));
        }
        if ui.button("Clear targets").clicked() {
            commands.push(Command::edit(Edit::ClearTargets));
        }
        if ui.button("Clear robots").clicked() {
            commands.push(Command::edit(Edit::ClearRobots));
        }
    });
    ui.separator();
    generators_ui(ui, settings, commands);
}

/// The chosen tool's options: the colour to place, and for targets the shape.
fn tool_options_ui(ui: &mut egui::Ui, settings: &mut EditorSettings) {
    match settings.tool {
        Tool::Robots => {
            // A grid of three columns fits the panel's fixed width, so choosing this tool
            // never widens the panel or pushes a colour out of reach.
            egui::Grid::new("robot-colours")
                .num_columns(2)
                .min_col_width(COLOUR_COLUMN_WIDTH)
                .show(ui, |ui| {
                    for (index, color) in RobotColor::ALL.into_iter().enumerate() {
                        ui.horizontal(|ui| {
                            if color_swatch(ui, theme::robot(color)).clicked() {
                                settings.robot_color = color;
                            }
                            ui.selectable_value(
                                &mut settings.robot_color,
                                color,
                                capitalised(color.name()),
                            );
                        });
                        if index % 2 == 1 {
                            ui.end_row();
                        }
                    }
                });
        }
        Tool::Targets => {
            egui::Grid::new("target-colours")
                .num_columns(2)
                .min_col_width(COLOUR_COLUMN_WIDTH)
                .show(ui, |ui| {
                    for (index, color) in TargetColor::ALL.into_iter().enumerate() {
                        ui.horizontal(|ui| {
                            if color_swatch(ui, theme::target(color)).clicked() {
                                settings.target_color = color;
                            }
                            let name = match color {
                                TargetColor::Any => "Vortex".to_string(),
                                c => capitalised(&c.to_string()),
                            };
                            ui.selectable_value(&mut settings.target_color, color, name);
                        });
                        if index % 2 == 1 {
                            ui.end_row();
                        }
                    }
                });
            if settings.target_color != TargetColor::Any {
                ui.horizontal_wrapped(|ui| {
                    for shape in [
                        Shape::Circle,
                        Shape::Triangle,
                        Shape::Square,
                        Shape::Hexagon,
                    ] {
                        ui.selectable_value(
                            &mut settings.target_shape,
                            shape,
                            capitalised(shape.name()),
                        );
                    }
                });
            }
        }
        _ => {}
    }
}

/// The width of a column of the robot and target colour choices: two columns of the widest
/// name fit the narrowest panel, and a colour keeps its place from the Robots tool to the
/// Targets tool.
const COLOUR_COLUMN_WIDTH: f32 = 90.0;

fn goal_ui(ui: &mut egui::Ui, draft: &Draft, commands: &mut Vec<Command>) {
    // Once the goal's target is removed there is no active target until another is chosen.
    let current = match draft.active_goal() {
        Some(goal) => draft
            .board
            .target_at(goal.pos)
            .map_or_else(String::new, describe_target),
        None if draft.board.targets().is_empty() => "None: add a target first".to_string(),
        None => "None: choose one".to_string(),
    };
    // The label first and the box as wide as the rest of the row, its text cut to fit: a
    // long target name neither widens the box nor pushes the panel's contents sideways.
    ui.horizontal(|ui| {
        let label = ui.label("Active target");
        egui::ComboBox::from_id_salt("active-target")
            .width(ui.available_width())
            .truncate()
            .selected_text(current)
            .show_ui(ui, |ui| {
                for target in draft.board.targets() {
                    let active = draft.goal.pos == target.pos;
                    if ui
                        .selectable_label(active, describe_target(target))
                        .clicked()
                    {
                        commands.push(Command::edit(Edit::SetGoal(Goal {
                            pos: target.pos,
                            color: target.color,
                        })));
                    }
                }
            })
            .response
            .labelled_by(label.id);
    });
}

fn rules_ui(ui: &mut egui::Ui, draft: &Draft, commands: &mut Vec<Command>) {
    let mut rules: Rules = draft.rules;
    ui.checkbox(&mut rules.ricochet, "Ricochet rule")
        .on_hover_text("A solution of zero or one move does not count");
    ui.checkbox(&mut rules.no_rebound, "No-rebound rule")
        .on_hover_text("A robot may not move straight back along its last move");
    if rules != draft.rules {
        commands.push(Command::edit(Edit::SetRules(rules)));
    }
}

fn generators_ui(ui: &mut egui::Ui, settings: &mut EditorSettings, commands: &mut Vec<Command>) {
    ui.label(egui::RichText::new("Standard board from the real tiles").strong());
    // The choices below are the tiles to build from; this line says whether, and from which
    // tiles, the open board is built, so the choices are never read as a description of a board
    // that has no tiles.
    let muted = theme::palette(ui.visuals().dark_mode).muted;
    ui.label(egui::RichText::new(open_board_tiles(settings)).color(muted));
    let names = [
        "North-west tile",
        "North-east tile",
        "South-east tile",
        "South-west tile",
    ];
    for (slot, name) in names.into_iter().enumerate() {
        let current =
            tiles::tile_by_id(settings.tiles[slot]).map_or("?".to_string(), |t| t.name.clone());
        egui::ComboBox::from_label(name)
            .selected_text(current)
            .show_ui(ui, |ui| {
                for tile in tiles::tiles() {
                    ui.selectable_value(&mut settings.tiles[slot], tile.id, &tile.name);
                }
            });
    }
    if ui.button("Build board from these tiles").clicked() {
        match tiles::assemble_ids(settings.tiles, TileVariant::Real) {
            Ok(board) => commands.push(Command::edit(Edit::ReplaceBoard(board))),
            Err(error) => commands.push(Command::Error(error.to_string())),
        }
    }
    ui.horizontal(|ui| {
        if ui.button("Random standard board").clicked() {
            let mut rng = ChaCha8Rng::seed_from_u64(settings.board_seed);
            let (ids, board) = tiles::random_board(&mut rng);
            settings.tiles = ids;
            commands.push(Command::edit(Edit::ReplaceBoard(board)));
            commands.push(Command::Message(format!(
                "Standard board dealt with seed {}",
                settings.board_seed
            )));
            settings.board_seed += 1;
        }
    });
    seed_row(ui, "Board seed", &mut settings.board_seed);
    ui.separator();
    ui.label(egui::RichText::new("Random robots and target").strong());
    ui.horizontal(|ui| {
        labeled_drag(ui, "Robot count", &mut settings.robot_count, 1..=5);
    });
    seed_row(ui, "Robot seed", &mut settings.robots_seed);
    if ui.button("Random robots").clicked() {
        commands.push(Command::edit(Edit::RandomRobots {
            count: settings.robot_count,
            seed: settings.robots_seed,
        }));
        commands.push(Command::Message(format!(
            "Robots dealt with seed {}",
            settings.robots_seed
        )));
        settings.robots_seed += 1;
    }
    ui.horizontal(|ui| {
        if ui.button("Random target").clicked() {
            commands.push(Command::edit(Edit::RandomGoal {
                seed: settings.goal_seed,
            }));
            commands.push(Command::Message(format!(
                "Target picked with seed {}",
                settings.goal_seed
            )));
            settings.goal_seed += 1;
        }
    });
    seed_row(ui, "Target seed", &mut settings.goal_seed);
}

/// A seed on a row of its own, its field as wide as the row: a seed of any length shows whole
/// in the narrowest panel, and the field keeps its place and size as the seed grows.
fn seed_row(ui: &mut egui::Ui, label: &str, seed: &mut u64) {
    ui.horizontal(|ui| {
        let label = ui.label(label);
        let size = egui::vec2(ui.available_width(), ui.spacing().interact_size.y);
        ui.add_sized(size, egui::DragValue::new(seed).range(0..=u64::MAX))
            .labelled_by(label.id);
    });
}

/// What the tile choices have to do with the open board.
fn open_board_tiles(settings: &EditorSettings) -> String {
    match settings.board_tiles {
        None => "The open board is not built from the real tiles.".to_string(),
        Some(ids) if ids == settings.tiles => {
            "The open board is built from these tiles.".to_string()
        }
        Some(ids) => {
            let names: Vec<String> = ids
                .iter()
                .map(|&id| tiles::tile_by_id(id).map_or("?".to_string(), |t| t.name.clone()))
                .collect();
            format!("The open board is built from tiles {}.", names.join(" "))
        }
    }
}
