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

/// Random puzzles of many shapes (1 to 20 cells a side), and for each a few random
/// placements of its robots.
pub(super) fn placements(count: u64) -> Vec<(Puzzle, Vec<u16>)> {
    placements_on(count, 1..=20, 5, 7)
}

/// Random puzzles with sides in `sides` and 1 to 5 robots, and for each `per_puzzle` random
/// placements of its robots, all drawn from `seed`.
pub(super) fn placements_on(
    count: u64,
    sides: std::ops::RangeInclusive<u16>,
    per_puzzle: usize,
    seed: u64,
) -> Vec<(Puzzle, Vec<u16>)> {
    let mut out = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for seed in 0..count {
        let width = rng.random_range(sides.clone());
        let height = rng.random_range(sides.clone());
        let robots = rng.random_range(1..=5usize);
        let Ok(puzzle) = random_puzzle(width, height, robots, 3, seed) else {
            continue;
        };
        let cells = puzzle.board().cell_count() as u16;
        for _ in 0..per_puzzle {
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
