//! Overlay layers on the board: pure functions from a board and a snapshot of a search (or of
//! the slide graph) to drawable data in board coordinates, then one painter that turns that data
//! into shapes through the board's transform.
//!
//! The layers: minimum-move values as a heat map, the slide graph's edges (all cells or one,
//! with the edges changed by the last update), the stateless solver's states per cell, how
//! often the search put the active robot on each cell, and the path of a sequence of moves.
//! [`assembly`] puts the layers that are on together each frame; [`panel`] is the dock's
//! Overlays tab; [`distance_map`] computes the exact distance map the [`exact`] layer draws and
//! [`stateless_stores`] the stores the stateless layer draws, both on worker threads.

pub mod assembly;
pub mod cell_texts;
pub mod distance_map;
pub mod exact;
pub mod layers;
pub mod paint;
pub mod panel;
pub mod stateless_stores;

pub use paint::{overlay_shapes, overlay_text_shapes};

use crate::app::board_view::trail::Trail;
use crate::app::theme::Palette;
use crate::model::{Board, Cell, Direction, Move, MoveTables, Pos, Puzzle, RobotColor};
use crate::solver::min_moves::UNREACHABLE;
use crate::solver::slide_graph::{EdgeChange, SlideGraph};
use crate::solver::stateless::{FinalState, IntermediateState};
use serde::{Deserialize, Serialize};

/// Which overlays are on; kept between runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OverlaySettings {
    /// The minimum-move map: its numbers in every cell and its heat tint.
    pub min_moves: bool,
    /// The stateless layer shows only this robot's states (all robots' when `None`).
    pub stateless_robot: Option<RobotColor>,
    /// Which of the stateless solver's states it shows.
    pub stateless_kinds: StatelessKinds,
    /// The slide graph's edges.
    pub graph_edges: bool,
    /// The edges of every cell (otherwise only of the hovered cell).
    pub graph_all_cells: bool,
    /// The stateless solver's states per cell.
    pub stateless: bool,
    /// How often the search put the active robot on each cell.
    pub search_heat: bool,
    /// The last solution's moves as arrows.
    pub solution_path: bool,
    /// The exact distance map of one robot from the current position.
    pub exact_distances: bool,
    /// The robot whose exact distances are shown (the position's first robot when `None`).
    pub exact_robot: Option<RobotColor>,
    /// How many moves deep the exact distance map searches.
    pub exact_depth: u32,
    /// The memory the exact distance map's search may use, in MiB.
    pub exact_memory_mib: u32,
}

impl Default for OverlaySettings {
    fn default() -> Self {
        OverlaySettings {
            min_moves: false,
            stateless_robot: None,
            stateless_kinds: StatelessKinds::default(),
            graph_edges: false,
            graph_all_cells: false,
            stateless: false,
            search_heat: false,
            // On, so that a solution played back shows its path until this is unticked.
            solution_path: true,
            exact_distances: false,
            exact_robot: None,
            exact_depth: crate::solver::analysis::distances::DEFAULT_MAX_DEPTH,
            exact_memory_mib: exact::DEFAULT_MEMORY_MIB,
        }
    }
}

/// Which of the stateless solver's states the layer shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct StatelessKinds {
    /// Final states: where a robot can stop, after how many moves.
    pub finals: bool,
    /// Intermediate states: where a robot passes, moving in a direction.
    pub intermediates: bool,
}

impl Default for StatelessKinds {
    fn default() -> Self {
        // The final states alone are readable on a full board; intermediates are asked for.
        StatelessKinds {
            finals: true,
            intermediates: false,
        }
    }
}

/// What the stateless layer draws: one robot's states or every robot's, and which kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatelessFilter {
    /// Only this robot's states, when given.
    pub robot: Option<RobotColor>,
    /// Which kinds.
    pub kinds: StatelessKinds,
}

impl StatelessFilter {
    /// Everything: every robot, both kinds.
    pub const ALL: StatelessFilter = StatelessFilter {
        robot: None,
        kinds: StatelessKinds {
            finals: true,
            intermediates: true,
        },
    };

    /// The filter the settings describe.
    pub fn of(settings: &OverlaySettings) -> StatelessFilter {
        StatelessFilter {
            robot: settings.stateless_robot,
            kinds: settings.stateless_kinds,
        }
    }

    fn shows(&self, color: RobotColor) -> bool {
        self.robot.is_none_or(|robot| robot == color)
    }
}

/// What a heat fill measures: each has its own colour ramp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeatKind {
    /// Few moves to the target: hot.
    MinMoves,
    /// Often visited by the search: hot.
    Search,
}

/// A cell tinted by a value scaled to 0..=1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellFill {
    /// The cell.
    pub pos: Pos,
    /// The ramp.
    pub kind: HeatKind,
    /// Where on the ramp, from 0 (cold) to 1 (hot).
    pub level: f32,
}

/// A short text in a cell. The painter shares a cell out among its texts (see
/// [`cell_texts`]' notes), so texts of several layers in one cell never meet.
#[derive(Clone, Debug, PartialEq)]
pub struct CellText {
    /// The cell.
    pub pos: Pos,
    /// The corner the text keeps when the cell's texts share it out in quarters: 0 top left,
    /// 1 top right, 2 bottom left, 3 bottom right; 4 for none.
    pub line: u8,
    /// The text.
    pub text: String,
    /// Drawn in a robot's colour, or in the board's text colour.
    pub color: Option<RobotColor>,
    /// What the text is, for the cell's hover details ("Minimum moves").
    pub what: &'static str,
    /// Whether a text too large for its place shows as a dot there (where each text is worth
    /// noticing), or is left out (where every cell has one, and the dots would be noise).
    pub dot_when_cramped: bool,
}

/// How an arrow between two cells is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArrowKind {
    /// A slide-graph edge.
    Edge,
    /// An edge the last update created or redirected (to its new child).
    Changed,
    /// Where a changed edge pointed before (to its old child).
    Removed,
}

/// An arrow from a cell to a cell, drawn along `dir` and shifted to that direction's lane so
/// that opposite edges between the same cells do not cover each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// Where it starts.
    pub from: Pos,
    /// Where it ends.
    pub to: Pos,
    /// The edge's direction.
    pub dir: Direction,
    /// How it is drawn.
    pub kind: ArrowKind,
}

/// Everything the overlays draw in one frame, in board terms.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OverlayDrawing {
    /// Cell tints, drawn first.
    pub fills: Vec<CellFill>,
    /// Arrows.
    pub arrows: Vec<Arrow>,
    /// Texts, drawn last.
    pub texts: Vec<CellText>,
    /// Paths of moves, drawn as the board's trails.
    pub trails: Vec<Trail>,
    /// Cells outlined as needing attention (where a robot needs helpers), drawn over fills.
    pub outlines: Vec<Pos>,
}

impl OverlayDrawing {
    /// Adds another layer's data on top of this one's.
    pub fn extend(&mut self, other: OverlayDrawing) {
        self.fills.extend(other.fills);
        self.arrows.extend(other.arrows);
        self.texts.extend(other.texts);
        self.trails.extend(other.trails);
        self.outlines.extend(other.outlines);
    }

    /// Whether there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.fills.is_empty()
            && self.arrows.is_empty()
            && self.texts.is_empty()
            && self.trails.is_empty()
            && self.outlines.is_empty()
    }
}

/// The minimum-move table as a heat map with its numbers: the fewer moves, the hotter;
/// unreachable cells stay untinted and read "-". A number that does not fit its place is left
/// out rather than dotted, since every open cell has one.
pub fn min_moves_layer(board: &Board, table: &[u16]) -> OverlayDrawing {
    let highest = table
        .iter()
        .copied()
        .filter(|&m| m != UNREACHABLE)
        .max()
        .unwrap_or(0);
    let mut drawing = OverlayDrawing::default();
    for (cell, &moves) in table.iter().enumerate().take(board.cell_count()) {
        if board.is_closed(cell as Cell) {
            continue;
        }
        let pos = board.pos(cell as Cell);
        if moves != UNREACHABLE {
            drawing.fills.push(CellFill {
                pos,
                kind: HeatKind::MinMoves,
                level: if highest == 0 {
                    1.0
                } else {
                    1.0 - f32::from(moves) / f32::from(highest)
                },
            });
        }
        drawing.texts.push(CellText {
            pos,
            line: 4,
            text: if moves == UNREACHABLE {
                "-".to_string()
            } else {
                moves.to_string()
            },
            color: None,
            what: "Minimum moves",
            dot_when_cramped: false,
        });
    }
    drawing
}

/// How often the search put the active robot on each cell: tinted on a square-root scale (a
/// few cells take most visits) and counted in the cell's lower line.
pub fn search_heat_layer(board: &Board, heat: &[u32]) -> OverlayDrawing {
    let highest = heat.iter().copied().max().unwrap_or(0);
    let mut drawing = OverlayDrawing::default();
    if highest == 0 {
        return drawing;
    }
    for (cell, &count) in heat.iter().enumerate() {
        if count == 0 || cell >= board.cell_count() {
            continue;
        }
        let pos = board.pos(cell as Cell);
        drawing.fills.push(CellFill {
            pos,
            kind: HeatKind::Search,
            level: (count as f32 / highest as f32).sqrt(),
        });
        drawing.texts.push(CellText {
            pos,
            line: 3,
            text: short_count(count),
            color: None,
            what: "Search visits",
            dot_when_cramped: true,
        });
    }
    drawing
}

/// A count in at most four characters: 950, 12k, 3.4M.
pub fn short_count(count: u32) -> String {
    match count {
        0..=999 => count.to_string(),
        1_000..=9_999 => format!("{:.1}k", count as f32 / 1e3),
        10_000..=999_999 => format!("{}k", count / 1_000),
        _ => format!("{:.1}M", count as f32 / 1e6),
    }
}

/// The slide graph's edges, as a table of children per cell (north, east, south, west).
pub fn graph_edges(graph: &SlideGraph) -> Vec<[Option<Cell>; 4]> {
    (0..graph.cell_count())
        .map(|cell| graph.edges(cell as Cell))
        .collect()
}

/// The slide graph's edges as arrows from each cell to each child: of every cell, or of the
/// `focus` cell only; the edges in `changes` are drawn highlighted to their new child, with
/// their old child marked, whatever the focus.
pub fn graph_layer(
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
pub fn change_lines(board: &Board, changes: &[EdgeChange]) -> Vec<String> {
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

/// The stateless solver's states per cell: each final state as its move count in the robot's
/// colour, kept in the corner for that colour (red top left, green top right, blue bottom
/// left, yellow and silver bottom right) when the cell's texts share it out in quarters; the
/// intermediate states as direction and moves in the robot's colour when the cell holds one,
/// or as their count when it holds several, in the centre.
///
/// With one robot chosen, its final state is the cell's number in the centre and its
/// intermediate states go to the bottom left corner, so the layer reads at a glance.
pub fn stateless_layer(
    board: &Board,
    finals: &[FinalState],
    intermediates: &[IntermediateState],
    filter: StatelessFilter,
) -> OverlayDrawing {
    let mut drawing = OverlayDrawing::default();
    let single = filter.robot.is_some();
    let mut sorted_finals: Vec<&FinalState> = finals
        .iter()
        .filter(|f| {
            filter.kinds.finals && filter.shows(f.color) && usize::from(f.cell) < board.cell_count()
        })
        .collect();
    sorted_finals.sort_by_key(|f| (f.cell, f.color.index(), f.moves));
    for state in sorted_finals {
        drawing.texts.push(CellText {
            pos: board.pos(state.cell),
            line: if single {
                4
            } else {
                state.color.index().min(3) as u8
            },
            text: state.moves.to_string(),
            color: Some(state.color),
            what: "Final state, moves",
            dot_when_cramped: true,
        });
    }
    let mut per_cell: std::collections::BTreeMap<Cell, Vec<&IntermediateState>> =
        std::collections::BTreeMap::new();
    for state in intermediates.iter().filter(|i| {
        filter.kinds.intermediates
            && filter.shows(i.color)
            && usize::from(i.cell) < board.cell_count()
    }) {
        per_cell.entry(state.cell).or_default().push(state);
    }
    for (cell, states) in per_cell {
        let (text, color) = match states.as_slice() {
            [only] => (
                format!("{}{}", only.dir.letter(), only.moves),
                Some(only.color),
            ),
            many => (format!("+{}", many.len()), None),
        };
        drawing.texts.push(CellText {
            pos: board.pos(cell),
            line: if single { 2 } else { 4 },
            text,
            color,
            what: "Intermediate states",
            dot_when_cramped: true,
        });
    }
    drawing
}

/// The path of `moves` from the puzzle's start as trails, numbered, the last one emphasised.
/// Moves of robots the puzzle does not have are skipped.
pub fn path_trails(puzzle: &Puzzle, moves: &[Move]) -> Vec<Trail> {
    let tables = MoveTables::new(puzzle.board());
    let board = puzzle.board();
    let mut cells = puzzle.robot_cells();
    let mut trails = Vec::new();
    for (number, mv) in moves.iter().enumerate() {
        let Some(robot) = puzzle.robot_index(mv.robot) else {
            continue;
        };
        let from = cells[robot];
        let to = tables.slide(&cells, robot, mv.dir);
        cells[robot] = to;
        trails.push(Trail {
            color: mv.robot,
            from: board.pos(from),
            to: board.pos(to),
            // The whole path stands out; the last move the most.
            emphasis: if number + 1 == moves.len() { 1.0 } else { 0.8 },
            number: Some(number + 1),
        });
    }
    trails
}

/// The legend of the overlays that are on: a colour sample and what it means, layer by layer
/// in [`layers::LAYERS`] order.
pub fn legend(settings: &OverlaySettings, palette: &Palette) -> Vec<(egui::Color32, &'static str)> {
    layers::LAYERS
        .iter()
        .filter(|layer| layer.is_on(settings))
        .flat_map(|layer| layer.legend(palette))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use crate::solver::min_moves::min_moves;

    #[test]
    fn min_moves_heat_is_hottest_on_the_target_and_skips_unreachable_cells() {
        let puzzle = samples::fogleman_22();
        let board = puzzle.board();
        let table = min_moves(board, puzzle.goal_cell());
        let drawing = min_moves_layer(board, &table);
        let target = board.pos(puzzle.goal_cell());
        let on_target = drawing.fills.iter().find(|f| f.pos == target).unwrap();
        assert_eq!(on_target.level, 1.0);
        let reachable = table.iter().filter(|&&m| m != UNREACHABLE).count();
        assert_eq!(drawing.fills.len(), reachable);
        assert!(drawing.fills.iter().all(|f| (0.0..=1.0).contains(&f.level)));
    }

    #[test]
    fn search_heat_counts_every_visited_cell_and_scales_to_the_busiest() {
        let board = Board::new(4, 4).unwrap();
        let mut heat = vec![0; 16];
        heat[5] = 100;
        heat[6] = 25;
        let drawing = search_heat_layer(&board, &heat);
        assert_eq!(drawing.fills.len(), 2);
        assert_eq!(drawing.fills[0].level, 1.0);
        assert!((drawing.fills[1].level - 0.5).abs() < 1e-6);
        assert_eq!(drawing.texts[1].text, "25");
        assert!(search_heat_layer(&board, &[0; 16]).is_empty());
    }

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

    #[test]
    fn the_stateless_filter_keeps_one_robots_final_states_in_the_centre() {
        let puzzle = samples::fogleman_22();
        let stores =
            crate::solver::stateless::compute_stores(&puzzle, &crate::solver::Limits::default())
                .expect("an unlimited run ends");
        let filter = StatelessFilter {
            robot: Some(RobotColor::Blue),
            kinds: StatelessKinds::default(),
        };
        let drawing = stateless_layer(puzzle.board(), stores.finals(), &[], filter);
        let blue = stores
            .finals()
            .iter()
            .filter(|f| f.color == RobotColor::Blue)
            .count();
        assert!(blue > 0);
        assert_eq!(drawing.texts.len(), blue);
        assert!(
            drawing
                .texts
                .iter()
                .all(|t| t.line == 4 && t.color == Some(RobotColor::Blue))
        );
    }

    #[test]
    fn stateless_layer_shows_every_final_state_in_its_colour_corner() {
        let puzzle = samples::fogleman_22();
        let stores =
            crate::solver::stateless::compute_stores(&puzzle, &crate::solver::Limits::default())
                .expect("an unlimited run ends");
        let intermediates: Vec<IntermediateState> = stores
            .fields()
            .iter()
            .flat_map(|f| f.intermediates.iter().cloned())
            .collect();
        let drawing = stateless_layer(
            puzzle.board(),
            stores.finals(),
            &intermediates,
            StatelessFilter::ALL,
        );
        let finals = drawing.texts.iter().filter(|t| t.line < 4).count();
        assert_eq!(finals, stores.finals().len());
        let centres: std::collections::BTreeSet<Pos> = intermediates
            .iter()
            .map(|i| puzzle.board().pos(i.cell))
            .collect();
        assert_eq!(
            drawing.texts.iter().filter(|t| t.line == 4).count(),
            centres.len()
        );
        // Each robot's start is a final state of no moves, in its colour.
        let start = puzzle.robots()[0];
        assert!(
            drawing
                .texts
                .iter()
                .any(|t| t.pos == start.pos && t.color == Some(start.color) && t.text == "0")
        );
    }

    #[test]
    fn path_trails_follow_the_slides_of_a_replayed_solution() {
        let puzzle = samples::fogleman_22();
        let report = crate::solver::run(
            "bfs",
            &crate::model::tiles::random_game(2, 4).unwrap().0,
            &crate::solver::SolverOptions::default(),
            &crate::solver::Limits::default(),
            &mut crate::solver::NoProbe,
        )
        .unwrap();
        let crate::solver::Outcome::Solved { moves } = report.outcome else {
            panic!("the game is solvable");
        };
        let game = crate::model::tiles::random_game(2, 4).unwrap().0;
        let trails = path_trails(&game, &moves);
        assert_eq!(trails.len(), moves.len());
        let cells = game.replay(&moves).unwrap();
        let active = game.active_robot().unwrap();
        let last_of_active = trails
            .iter()
            .rev()
            .find(|t| t.color == moves.last().unwrap().robot);
        assert_eq!(last_of_active.unwrap().to, game.board().pos(cells[active]));
        assert_eq!(trails.last().unwrap().emphasis, 1.0);
        assert!(path_trails(&puzzle, &[]).is_empty());
    }
}
