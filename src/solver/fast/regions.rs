//! Cell regions: per cell, the cells whose occupation can change the target robot's search
//! of its last moves, and the cells a helper reaches in one move. The helper-move pruning
//! rules ([`super::one_to_spare`], [`super::two_to_spare`]) read them; each test is one bit.

use super::cell_tables::blocker_gains;
use crate::solver::min_moves::UNREACHABLE;
use crate::solver::stops::StopTables;

/// Cell sets (`words` words per cell) for skipping helper moves before the last moves. A
/// search fetches them once per node with [`Setup::cell_sets`](super::setup::Setup::cell_sets).
#[derive(Clone, Debug)]
pub(crate) struct CellSets {
    words: usize,
    /// Per cell `c`, the cells whose occupation can change whether a robot at `c` reaches the
    /// target with every move lowering its rook bound (see [`last_moves_regions`]).
    region: Vec<u64>,
    /// Per cell `h`, the cells a robot at `h` could stand on after at most one move: `h`
    /// itself and its four rays up to the walls.
    reach: Vec<u64>,
    /// Per cell `c`, the cells whose occupation can change whether a robot at `c` alone
    /// reaches the target in its bound plus one moves (see [`spare_move_regions`]).
    spare_region: Vec<u64>,
    /// Per cell `c`, the cells `h` whose reach meets the region of `c`: a helper at `h` may
    /// matter to the last-moves search from `c`.
    matter: Vec<u64>,
    /// Per cell, the moves beyond its rook bound the target robot needs from there with no
    /// helper in its region (see [`super::blockers`]).
    gains: Vec<u8>,
}

/// Words of one cell set on a board of `cells` cells.
fn words_for(cells: usize) -> usize {
    cells.div_ceil(64)
}

impl CellSets {
    /// Builds every set for the board of `tables`.
    pub fn new(tables: &StopTables) -> CellSets {
        let words = words_for(tables.cells());
        let region = last_moves_regions(tables);
        let reach = reach_sets(tables);
        CellSets {
            words,
            spare_region: spare_move_regions(tables, &region),
            matter: matter_sets(words, &region, &reach),
            gains: blocker_gains(tables),
            region,
            reach,
        }
    }

    /// The bytes the sets take.
    pub fn bytes(&self) -> usize {
        (self.region.len() + self.reach.len() + self.spare_region.len() + self.matter.len()) * 8
            + self.gains.len()
    }

    /// The bytes the sets of a board of `cells` cells take.
    pub fn bytes_for(cells: usize) -> usize {
        4 * cells * words_for(cells) * 8 + cells
    }

    /// Whether `member` belongs to the set of `owner` in `sets`.
    #[inline(always)]
    fn holds(&self, sets: &[u64], owner: u16, member: u16) -> bool {
        let word = sets[usize::from(owner) * self.words + usize::from(member) / 64];
        word & (1 << (member % 64)) != 0
    }

    /// Whether a robot standing at `other` could change the outcome of a search of the robot
    /// at `cell` alone with one move to spare (see [`spare_move_regions`]).
    #[inline(always)]
    pub fn in_spare_region(&self, cell: u16, other: u16) -> bool {
        self.holds(&self.spare_region, cell, other)
    }

    /// Whether a robot at `helper` could pass over or stop on `other` in one move (on the
    /// board without robots, so also whenever robots stand in its way).
    #[inline(always)]
    pub fn in_reach(&self, helper: u16, other: u16) -> bool {
        self.holds(&self.reach, helper, other)
    }

    /// Whether a robot's arrival at or departure from `other` could change the outcome of the
    /// last-moves search from `cell`.
    #[inline(always)]
    pub fn in_region(&self, cell: u16, other: u16) -> bool {
        self.holds(&self.region, cell, other)
    }

    /// The gain of `cell`: the moves beyond its rook bound the target robot needs from there
    /// when no helper stands in its region (see [`super::blockers`]).
    #[inline(always)]
    pub fn blocker_gain(&self, cell: u16) -> u32 {
        u32::from(self.gains[usize::from(cell)])
    }

    /// Whether a robot standing at `helper` could change the outcome of the last-moves search
    /// from `cell`, now or after one move of its own.
    #[inline(always)]
    pub fn may_matter(&self, cell: u16, helper: u16) -> bool {
        self.holds(&self.matter, cell, helper)
    }
}

/// Per cell, the cell itself and its four rays up to the walls.
fn reach_sets(tables: &StopTables) -> Vec<u64> {
    let cells = tables.cells();
    let words = words_for(cells);
    let mut sets = vec![0u64; cells * words];
    for cell in 0..cells {
        let set = &mut sets[cell * words..(cell + 1) * words];
        set[cell / 64] |= 1 << (cell % 64);
        for dir in 0..4 {
            for at in tables.ray(cell, dir) {
                set[at / 64] |= 1 << (at % 64);
            }
        }
    }
    sets
}

/// For every cell `c`, the cells from which a robot could stand in the last-moves region of
/// `c` now or after one move: the union of the reaches of the region's cells (a cell lies in
/// the reach of another exactly when that one lies in its reach, as both say the same straight
/// stretch holds no wall).
fn matter_sets(words: usize, region: &[u64], reach: &[u64]) -> Vec<u64> {
    let mut matter = vec![0u64; region.len()];
    for (own, set) in region.chunks(words).zip(matter.chunks_mut(words)) {
        for (w, &bits) in own.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let at = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let from = &reach[at * words..(at + 1) * words];
                set.iter_mut().zip(from).for_each(|(m, f)| *m |= f);
            }
        }
    }
    matter
}

/// For every cell, the region of the last-moves search: a robot at `c` with bound `R` looks,
/// in each direction, for a stop one bound lower. Its slide in a direction ends at the first
/// occupied cell or wall, so only the cells up to one past the farthest cell one bound lower
/// can change where it stops; and from each such possible stop the search goes on. The region
/// is the union of those ray cells and of the regions of the possible stops. Robots outside it
/// never change the outcome.
fn last_moves_regions(tables: &StopTables) -> Vec<u64> {
    ray_regions(tables, None)
}

/// For every cell, the region of a search of the robot alone with one move to spare: its
/// moves lower its rook bound by one, except at most one that keeps it. From a cell with bound
/// `R` a slide can then stop on a cell of bound `R - 1`, or of `R` while the spare move is
/// unused, so the cells up to one past the farthest such cell of each ray can change where it
/// stops. The region is the union of those ray cells, of the spare regions of the cells one
/// bound lower on them and of the last-moves regions of the cells of the same bound (the spare
/// move used). It holds the last-moves region.
fn spare_move_regions(tables: &StopTables, last_moves: &[u64]) -> Vec<u64> {
    ray_regions(tables, Some(last_moves))
}

/// The regions of [`last_moves_regions`] (`same_bound` is `None`) or of
/// [`spare_move_regions`] (`same_bound` holds the last-moves regions, merged for stops of the
/// same bound), built in order of the bound.
fn ray_regions(tables: &StopTables, same_bound: Option<&[u64]>) -> Vec<u64> {
    let rook = &tables.rook;
    let cells = tables.cells();
    let words = words_for(cells);
    let mut regions = vec![0u64; cells * words];
    let mut order: Vec<usize> = (0..cells).filter(|&c| rook[c] != UNREACHABLE).collect();
    // Regions of lower bounds are complete before they are merged into higher ones.
    order.sort_by_key(|&c| rook[c]);
    let mut merged = vec![0u64; words];
    for cell in order {
        let own = rook[cell];
        if own == 0 {
            continue;
        }
        merged.iter_mut().for_each(|w| *w = 0);
        let lower = |at: usize| rook[at] + 1 == own;
        let same = |at: usize| same_bound.is_some() && rook[at] == own;
        for dir in 0..4 {
            let Some(last) = tables
                .ray(cell, dir)
                .enumerate()
                .filter(|&(_, at)| lower(at) || same(at))
                .map(|(i, _)| i)
                .last()
            else {
                continue;
            };
            for (i, at) in tables.ray(cell, dir).enumerate().take(last + 2) {
                merged[at / 64] |= 1 << (at % 64);
                if i > last {
                    continue;
                }
                let from = match same_bound {
                    _ if lower(at) => &regions[at * words..(at + 1) * words],
                    Some(same_bound) if same(at) => &same_bound[at * words..(at + 1) * words],
                    _ => continue,
                };
                merged.iter_mut().zip(from).for_each(|(m, f)| *m |= f);
            }
        }
        regions[cell * words..(cell + 1) * words].copy_from_slice(&merged);
    }
    regions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::random::random_puzzle;

    #[test]
    fn helpers_matter_exactly_when_their_reach_meets_the_region() {
        let mut checked = 0;
        for seed in 0..60u64 {
            let width = 1 + (seed * 7 % 23) as u16;
            let height = 1 + (seed * 11 % 19) as u16;
            let Ok(puzzle) = random_puzzle(width, height, 1, 1 + (seed % 5) as usize, seed) else {
                continue;
            };
            let tables = StopTables::new(puzzle.board(), puzzle.goal_cell());
            let sets = CellSets::new(&tables);
            let w = sets.words;
            let cells = puzzle.board().cell_count();
            assert_eq!(sets.bytes(), CellSets::bytes_for(cells));
            for cell in 0..cells {
                let region = &sets.region[cell * w..(cell + 1) * w];
                for helper in 0..cells {
                    let reach = &sets.reach[helper * w..(helper + 1) * w];
                    let meets = region.iter().zip(reach).any(|(a, b)| a & b != 0);
                    assert_eq!(
                        sets.may_matter(cell as u16, helper as u16),
                        meets,
                        "seed {seed} cell {cell} helper {helper}"
                    );
                    checked += usize::from(meets);
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
