//! The stateless layer: the Stateless solver's final and intermediate states per cell, from
//! a debugged run's picture or from the stores computed for the board.

use crate::app::overlays::assembly::OverlaySources;
use crate::app::overlays::layers::OverlayLayer;
use crate::app::overlays::{
    CellText, OverlayDrawing, OverlaySettings, STATELESS_FINAL, STATELESS_INTERMEDIATE,
    StatelessFilter,
};
use crate::app::theme::Palette;
use crate::model::{Board, Cell};
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
            "Stateless states, in the robot's colour: a final state's moves (one robot: in the \
             centre; all: in the robot's corner); an intermediate state as direction and \
             moves, or +count. A number too wide for its corner is a dot in the robot's colour: \
             hover a cell for its states in full.",
        )]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        let board = sources.board;
        let filter = StatelessFilter::of(sources.settings);
        let stores_layer = |stores: &StatelessStores| {
            let intermediates: Vec<IntermediateState> = stores
                .fields()
                .iter()
                .flat_map(|f| f.intermediates.iter().cloned())
                .collect();
            stateless_layer(board, stores.finals(), &intermediates, filter)
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
                Some(part) => stateless_layer(board, &part.finals, &part.intermediates, filter),
                None => stateless_layer(board, &[], &[], filter),
            },
            (None, Some(stores)) => stores_layer(stores),
            (None, None) => OverlayDrawing::default(),
        }
    }
}

/// The stateless solver's states per cell: each final state as its move count in the robot's
/// colour, kept in the corner for that colour (red top left, green top right, blue bottom
/// left, yellow and silver bottom right) when the cell's texts share it out in quarters; the
/// intermediate states as direction and moves in the robot's colour when the cell holds one,
/// or as their count when it holds several, in the centre.
///
/// With one robot chosen, its final state is the cell's number in the centre and its
/// intermediate states go to the bottom left corner, so the layer reads at a glance.
fn stateless_layer(
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
            what: STATELESS_FINAL.into(),
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
}
