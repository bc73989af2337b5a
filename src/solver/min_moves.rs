//! The minimum-move lower bound: for every cell, the fewest moves a robot would need to reach
//! the target if it could stop anywhere (like a rook), with walls and closed cells in the way
//! and other robots ignored. It never overestimates, so solvers may prune with it; the app
//! draws it as an overlay (the deck's "Pre-computed Map").

use crate::model::{Board, Cell, Direction};
use std::collections::VecDeque;

/// The value of a cell from which the target cannot be reached at all.
pub const UNREACHABLE: u16 = u16::MAX;

/// Computes the table towards `target`: breadth first from the target, each step sliding in a
/// direction through every cell until a wall or closed cell, setting cells not yet reached.
/// A straight line between two cells is open in both directions, so the distances from the
/// target are the distances to it.
pub fn min_moves(board: &Board, target: Cell) -> Vec<u16> {
    let mut moves = vec![UNREACHABLE; board.cell_count()];
    moves[usize::from(target)] = 0;
    let mut queue = VecDeque::from([target]);
    while let Some(cell) = queue.pop_front() {
        let next = moves[usize::from(cell)] + 1;
        for dir in Direction::ALL {
            let mut at = cell;
            while !board.has_wall(at, dir) {
                let Some(step) = board.neighbour(at, dir).filter(|&c| !board.is_closed(c)) else {
                    break;
                };
                at = step;
                let slot = &mut moves[usize::from(at)];
                if *slot == UNREACHABLE {
                    *slot = next;
                    queue.push_back(at);
                }
            }
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pos, tiles};

    #[test]
    fn table_matches_the_decks_precomputed_map_shape() {
        let board = tiles::assemble_ids([3, 6, 5, 0], tiles::TileVariant::Fogleman).unwrap();
        let target = board.cell(Pos::new(9, 12));
        let table = min_moves(&board, target);
        assert_eq!(table[usize::from(target)], 0);
        // Same row or column with a clear line: one move.
        assert_eq!(table[usize::from(board.cell(Pos::new(9, 15)))], 1);
        // The closed centre is never reached.
        assert_eq!(table[usize::from(board.cell(Pos::new(7, 7)))], UNREACHABLE);
        assert!(table.iter().filter(|&&m| m != UNREACHABLE).all(|&m| m <= 5));
    }

    #[test]
    fn walls_block_the_line() {
        let mut board = Board::new(4, 1).unwrap();
        board
            .set_wall(Pos::new(1, 0), Direction::East, true)
            .unwrap();
        let table = min_moves(&board, 0);
        assert_eq!(table, vec![0, 1, UNREACHABLE, UNREACHABLE]);
    }
}
