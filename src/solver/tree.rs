//! Parent-linked search trees: the path from the root to a node.

use crate::model::Move;

/// The moves from the root to `nodes[index]`, where `link` gives a node's move and its
/// parent's index (`None` at the root).
pub(crate) fn trace_path<T>(
    nodes: &[T],
    mut index: usize,
    link: impl Fn(&T) -> Option<(Move, u32)>,
) -> Vec<Move> {
    let mut moves = Vec::new();
    while let Some((mv, parent)) = link(&nodes[index]) {
        moves.push(mv);
        index = parent as usize;
    }
    moves.reverse();
    moves
}
