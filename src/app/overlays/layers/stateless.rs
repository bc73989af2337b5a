//! The stateless layer: the Stateless solver's final and intermediate states per cell, from
//! a debugged run's picture or from the stores computed for the board.

use crate::app::overlays::assembly::OverlaySources;
use crate::app::overlays::layers::OverlayLayer;
use crate::app::overlays::{
    CellText, OverlayDrawing, OverlaySettings, STATELESS_FINAL, STATELESS_INTERMEDIATE,
    StatelessFilter,
};
use crate::app::theme::Palette;
use crate::model::{Board, Cell, RobotColor};
use crate::solver::stateless::{FinalState, IntermediateState, StatelessPicture, StatelessStores};
use egui::Color32;

/// The stateless solver's states per cell.
pub(super) struct Stateless;

impl OverlayLayer for Stateless {
    fn name(&self) -> &'static str {
        "Stateless states"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.stateless
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.stateless, self.name());
    }

    fn legend(&self, palette: &Palette) -> Vec<(Color32, &'static str)> {
        vec![(
            palette.board_text,
            "Stateless states, in the robot's colour: a final state's moves, the target's \
             robot (or the one chosen) in the centre, large enough to read at any size, each \
             other robot in a corner of its own; an intermediate state as direction and moves, \
             or +count. A corner number too wide for its place is a dot in the robot's colour: \
             choose its robot above, or hover the cell, to read it.",
        )]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        let board = sources.board;
        let filter = StatelessFilter::of(sources.settings);
        let goal_robot = sources.goal_robot;
        let stores_layer = |stores: &StatelessStores| {
            let intermediates: Vec<IntermediateState> = stores
                .fields()
                .iter()
                .flat_map(|f| f.intermediates.iter().cloned())
                .collect();
            stateless_layer(board, stores.finals(), &intermediates, filter, goal_robot)
        };
        // A debugged stateless run draws its states as of the shown event: the stores as they
        // grow while it runs, the complete stores once it has ended.
        let debugged = sources.debugger.filter(|d| d.stateless);
        match (debugged, sources.stateless) {
            (Some(debugger), _) => match debugger.picture.part::<StatelessPicture>() {
                Some(StatelessPicture {
                    stores: Some(stores),
                    ..
                }) => stores_layer(stores),
                Some(part) => {
                    stateless_layer(board, &part.finals, &part.intermediates, filter, goal_robot)
                }
                None => stateless_layer(board, &[], &[], filter, goal_robot),
            },
            (None, Some(stores)) => stores_layer(stores),
            (None, None) => OverlayDrawing::default(),
        }
    }
}

/// The stateless solver's states per cell. One robot's final states (the robot chosen, else
/// the target's) are the cell's number in the centre, so that they read at any cell size; every
/// other robot's keep a corner of their own: red top left, green top right, blue bottom left,
/// yellow bottom right, and silver the corner the centre robot left free (with five robots on
/// the board, four corners and the centre hold all five). The intermediate states go where the
/// centre robot's corner was when it has one, else in the centre: direction and moves in the
/// robot's colour when the cell holds one, their count when it holds several.
fn stateless_layer(
    board: &Board,
    finals: &[FinalState],
    intermediates: &[IntermediateState],
    filter: StatelessFilter,
    goal_robot: Option<RobotColor>,
) -> OverlayDrawing {
    let mut drawing = OverlayDrawing::default();
    let centre_robot = filter.robot.or(goal_robot);
    let corner_of = |color: RobotColor| -> u8 {
        match (color, centre_robot) {
            (RobotColor::Silver, Some(centre)) if centre != RobotColor::Silver => {
                centre.index().min(3) as u8
            }
            _ => color.index().min(3) as u8,
        }
    };
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
            line: if Some(state.color) == centre_robot {
                4
            } else {
                corner_of(state.color)
            },
            text: state.moves.to_string(),
            color: Some(state.color),
            what: STATELESS_FINAL.into(),
            // The centre robot's number is what the layer is read by: it keeps the middle at
            // any cell size (a corner mark in its way gives way, and the hover still lists
            // it); the corner numbers become dots where they do not fit.
            dot_when_cramped: Some(state.color) != centre_robot,
        });
    }
    // The intermediate states take the corner the centre robot left, unless silver has it.
    let intermediate_line = match centre_robot {
        Some(centre) if filter.robot.is_some() => centre.index().min(3) as u8,
        Some(centre) if !finals.iter().any(|f| f.color == RobotColor::Silver) => {
            centre.index().min(3) as u8
        }
        _ => 4,
    };
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
            line: intermediate_line,
            text,
            color,
            what: STATELESS_INTERMEDIATE.into(),
            dot_when_cramped: true,
        });
    }
    drawing
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::overlays::StatelessKinds;
    use crate::model::{Pos, RobotColor, samples};

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
        let drawing = stateless_layer(puzzle.board(), stores.finals(), &[], filter, None);
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
            None,
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

    // Problem: with five robots, yellow's states were never drawn (silver took its corner)
    // and at 1024x700 every number was a dot. The target's robot reads in the centre, and
    // every robot keeps a place of its own in each cell.
    #[test]
    fn five_robots_each_keep_a_place_and_the_targets_robot_the_centre() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/boards/five-robots.ron");
        let puzzle = crate::model::formats::load_source(path).unwrap();
        assert_eq!(puzzle.robots().len(), 5);
        let stores =
            crate::solver::stateless::compute_stores(&puzzle, &crate::solver::Limits::default())
                .expect("an unlimited run ends");
        let goal = puzzle.goal().color.robot().expect("a robot's target");
        let drawing = stateless_layer(
            puzzle.board(),
            stores.finals(),
            &[],
            StatelessFilter::ALL,
            Some(goal),
        );
        let mut places = std::collections::BTreeMap::new();
        for text in &drawing.texts {
            let robot = text.color.expect("finals carry their robot");
            if robot == goal {
                assert_eq!(text.line, 4, "the target's robot is in the centre");
            } else {
                assert!(text.line < 4);
            }
            places
                .entry((text.pos, text.line))
                .or_insert_with(Vec::new)
                .push(robot);
        }
        for ((pos, line), robots) in &places {
            let mut distinct = robots.clone();
            distinct.dedup();
            assert_eq!(
                distinct.len(),
                1,
                "{pos} line {line} is shared by {robots:?}"
            );
        }
        for robot in puzzle.robots() {
            assert!(
                drawing.texts.iter().any(|t| t.color == Some(robot.color)),
                "{} is drawn",
                robot.color
            );
        }
    }
}
