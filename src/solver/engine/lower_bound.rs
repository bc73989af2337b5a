//! The lower bound a served built-in solver prunes with, as `draw` lines: the example of an
//! engine's own layer that `engine serve` gives, once per search.

use super::protocol::DrawItem;
use crate::model::Puzzle;
use crate::solver::SolverId;

/// The solvers that prune with the minimum-move table, and so have a lower bound to draw.
const LOWER_BOUND_SOLVERS: &[SolverId] = &[
    SolverId::Iddfs,
    SolverId::Fast,
    SolverId::Astar,
    SolverId::Idastar,
];

/// A served solver's lower-bound values as `draw` lines: its legend, then every cell the
/// target can be reached from with its fewest moves (robots ignored), tinted from warm
/// (near) to cold (far). Nothing for solvers that use no such bound.
pub fn lower_bound_drawing(solver: SolverId, puzzle: &Puzzle) -> Vec<DrawItem> {
    use crate::solver::min_moves::{UNREACHABLE, min_moves};
    if !LOWER_BOUND_SOLVERS.contains(&solver) {
        return Vec::new();
    }
    let board = puzzle.board();
    let table = min_moves(board, puzzle.goal_cell());
    let farthest = table
        .iter()
        .copied()
        .filter(|&v| v != UNREACHABLE)
        .max()
        .unwrap_or(0)
        .max(1);
    let mut items = vec![
        DrawItem::Clear,
        DrawItem::Legend(format!(
            "{}: fewest moves to the target, robots ignored (the lower bound it prunes with)",
            solver.name()
        )),
    ];
    for (cell, &value) in table.iter().enumerate() {
        if value == UNREACHABLE {
            continue;
        }
        // Warm near the target, cold far from it.
        let warmth = 1.0 - f32::from(value) / f32::from(farthest);
        let color = [
            (90.0 + 160.0 * warmth) as u8,
            120,
            (250.0 - 160.0 * warmth) as u8,
        ];
        items.push(DrawItem::Cell {
            pos: board.pos(cell as crate::model::Cell),
            value: Some(i64::from(value)),
            color: Some(color),
        });
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::engine::protocol;

    #[test]
    fn a_solver_with_a_lower_bound_draws_it_once_per_search_and_others_draw_nothing() {
        use crate::model::{
            Board, Goal, Pos, Puzzle, Robot, RobotColor, Rules, Shape, Target, TargetColor,
        };
        // An open 2x2 board: the red robot in one corner, its target in the other.
        let goal = Pos::new(1, 1);
        let mut board = Board::new(2, 2).unwrap();
        board
            .set_target(Target {
                pos: goal,
                color: TargetColor::Red,
                shape: Shape::Circle,
            })
            .unwrap();
        let robots = vec![Robot {
            color: RobotColor::Red,
            pos: Pos::new(0, 0),
        }];
        let goal = Goal {
            pos: goal,
            color: TargetColor::Red,
        };
        let puzzle = Puzzle::new(board, robots, goal, Rules::default()).unwrap();
        let requests = format!(
            "rep 2\n{}\ngo\nquit\n",
            protocol::format_puzzle("p1", &puzzle)
        );
        let out = super::super::serve::serve_text(SolverId::Iddfs, &requests);
        let draws: Vec<&str> = out.lines().filter(|l| l.starts_with("draw ")).collect();
        assert_eq!(draws.first(), Some(&"draw clear"), "{out}");
        assert!(draws[1].starts_with("draw legend=iddfs:"), "{out}");
        // Every cell of an open 2x2 board reaches the target: four cells, the target at 0.
        assert_eq!(draws.len(), 2 + 4, "{out}");
        assert!(
            draws
                .iter()
                .any(|line| line.starts_with("draw cell=1,1 value=0 color=")),
            "{out}"
        );
        for line in &draws {
            assert!(
                matches!(
                    protocol::parse_answer(line),
                    Ok(Some(protocol::Answer::Draw(_)))
                ),
                "{line} reads back as a draw line"
            );
        }
        let first_draw = out.find("draw ").unwrap_or(usize::MAX);
        let result = out.find("result ").unwrap_or(0);
        assert!(first_draw < result, "drawn before the result: {out}");
        let plain = super::super::serve::serve_text(SolverId::Bfs, &requests);
        assert!(!plain.contains("draw "), "{plain}");
    }
}
