//! What the fast solver's unit tests share: random placements of robots on random boards,
//! and workers standing on them.

use super::control::NoControl;
use super::setup::Setup;
use super::table::Table;
use super::worker::Worker;
use crate::model::Puzzle;
use crate::model::random::random_puzzle;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random puzzles of many shapes, and for each a few random placements of its robots.
pub(super) fn placements(count: u64) -> Vec<(Puzzle, Vec<u16>)> {
    let mut out = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for seed in 0..count {
        let width = rng.random_range(1..=20);
        let height = rng.random_range(1..=20);
        let robots = rng.random_range(1..=5usize);
        let Ok(puzzle) = random_puzzle(width, height, robots, 3, seed) else {
            continue;
        };
        let cells = puzzle.board().cell_count() as u16;
        for _ in 0..5 {
            let mut placed: Vec<u16> = Vec::new();
            while placed.len() < robots {
                let cell = rng.random_range(0..cells);
                if !puzzle.board().is_closed(cell) && !placed.contains(&cell) {
                    placed.push(cell);
                }
            }
            out.push((puzzle.clone(), placed));
        }
    }
    out
}

pub(super) fn worker<'a>(
    setup: &'a Setup,
    table: &'a Table,
    cells: &[u16],
) -> Worker<'a, NoControl, false> {
    let mut worker = Worker::<_, false>::new(setup, table, NoControl, 1);
    for (i, &cell) in cells.iter().enumerate() {
        worker.set(i, (cell, setup.tables.column_index[usize::from(cell)]));
    }
    worker
}
