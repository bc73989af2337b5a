//! The solution path layer: the last solution's moves as numbered trails.

use crate::app::board_paint::trail::Trail;
use crate::app::overlays::assembly::OverlaySources;
use crate::app::overlays::layers::OverlayLayer;
use crate::app::overlays::{OverlayDrawing, OverlaySettings};
use crate::app::theme::{self, Palette};
use crate::model::{Move, MoveTables, Puzzle, RobotColor};
use egui::Color32;

/// The last solution's moves as numbered arrows.
pub(super) struct SolutionPath;

impl OverlayLayer for SolutionPath {
    fn name(&self) -> &'static str {
        "Solution path"
    }

    fn is_on(&self, settings: &OverlaySettings) -> bool {
        settings.solution_path
    }

    fn switch_ui(&self, ui: &mut egui::Ui, settings: &mut OverlaySettings) {
        ui.checkbox(&mut settings.solution_path, self.name());
    }

    fn legend(&self, _palette: &Palette) -> Vec<(Color32, &'static str)> {
        vec![(
            theme::robot(RobotColor::Red),
            "Solution path: numbered moves in the robot's colour",
        )]
    }

    fn draw(&self, sources: &OverlaySources<'_>) -> OverlayDrawing {
        match sources.solution {
            Some((puzzle, moves)) => OverlayDrawing {
                trails: path_trails(puzzle, moves),
                ..OverlayDrawing::default()
            },
            None => OverlayDrawing::default(),
        }
    }
}

/// The path of `moves` from the puzzle's start as trails, numbered, the last one emphasised.
/// Moves of robots the puzzle does not have are skipped.
pub(in crate::app) fn path_trails(puzzle: &Puzzle, moves: &[Move]) -> Vec<Trail> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;

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
