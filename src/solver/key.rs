//! Compact state keys: robot cells packed into an integer so transposition tables and visited
//! sets hash one word. Robots that play the same part (the obstacles, or all robots when any
//! robot may take the target) are sorted first, so states that differ only by swapping them
//! share a key.

use crate::model::{Cell, Direction, Puzzle};
use std::hash::Hash;

/// An integer a state is packed into.
pub trait StateKey: Copy + Eq + Hash + Default + Ord + std::fmt::Debug + 'static {
    /// Appends `bits` low bits of `value`.
    fn push(self, bits: u32, value: u64) -> Self;
    /// The number of bits the key holds.
    const BITS: u32;
    /// The key folded into one word for hashing (the identity on `u64`).
    fn fold(self) -> u64;
    /// Splits off the `bits` low bits: the rest of the key and those bits (the inverse of
    /// [`push`](Self::push)).
    fn pop(self, bits: u32) -> (Self, u64);
}

impl StateKey for u64 {
    #[inline(always)]
    fn push(self, bits: u32, value: u64) -> u64 {
        (self << bits) | value
    }
    const BITS: u32 = 64;
    #[inline(always)]
    fn fold(self) -> u64 {
        self
    }
    #[inline(always)]
    fn pop(self, bits: u32) -> (u64, u64) {
        (self >> bits, self & ((1 << bits) - 1))
    }
}

impl StateKey for u128 {
    #[inline(always)]
    fn push(self, bits: u32, value: u64) -> u128 {
        (self << bits) | u128::from(value)
    }
    const BITS: u32 = 128;
    #[inline(always)]
    fn fold(self) -> u64 {
        // A multiplication spreads the high half before the halves are combined.
        (self as u64) ^ ((self >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
    #[inline(always)]
    fn pop(self, bits: u32) -> (u128, u64) {
        // A robot's field is far narrower than a word, so the low bits fit one.
        (self >> bits, (self & ((1 << bits) - 1)) as u64)
    }
}

/// How states of one puzzle are packed.
#[derive(Clone, Copy, Debug)]
pub struct KeyLayout {
    /// Bits per cell index.
    pub cell_bits: u32,
    /// The robot that plays its own part (the one the target asks for), if any.
    pub active: Option<usize>,
    /// Whether each robot's last direction is part of the state (the no-rebound rule).
    pub with_last_dir: bool,
}

impl KeyLayout {
    /// The layout for a board of `cells` cells.
    pub fn new(cells: usize, active: Option<usize>, with_last_dir: bool) -> KeyLayout {
        let cell_bits = usize::BITS - (cells.max(2) - 1).leading_zeros();
        KeyLayout {
            cell_bits,
            active,
            with_last_dir,
        }
    }

    /// The bits one robot takes.
    fn robot_bits(&self) -> u32 {
        self.cell_bits + if self.with_last_dir { 3 } else { 0 }
    }

    /// Whether `robots` robots fit in a key of type `K`.
    pub fn fits<K: StateKey>(&self, robots: usize) -> bool {
        self.robot_bits() * robots as u32 <= K::BITS
    }

    /// Packs a state: the active robot first, then the rest sorted. `last_dir` is read only
    /// when the layout includes directions.
    #[inline(always)]
    pub fn key<K: StateKey>(&self, cells: &[Cell], last_dir: &[Option<Direction>]) -> K {
        let code = |i: usize| -> u64 {
            let cell = u64::from(cells[i]);
            if self.with_last_dir {
                let dir = last_dir[i].map_or(0, |d| d.index() as u64 + 1);
                (cell << 3) | dir
            } else {
                cell
            }
        };
        let mut rest = [0u64; 5];
        let mut len = 0;
        let mut key = K::default();
        for i in 0..cells.len() {
            if Some(i) == self.active {
                key = key.push(self.robot_bits(), code(i));
            } else {
                rest[len] = code(i);
                len += 1;
            }
        }
        let rest = &mut rest[..len];
        // Insertion sort: at most five items, and usually nearly sorted.
        for i in 1..rest.len() {
            let mut j = i;
            while j > 0 && rest[j - 1] > rest[j] {
                rest.swap(j - 1, j);
                j -= 1;
            }
        }
        for &code in rest.iter() {
            key = key.push(self.robot_bits(), code);
        }
        key
    }
}

impl KeyLayout {
    /// The layout of a puzzle's states: its board size, the robot its target asks for, and
    /// last directions when the no-rebound rule is on.
    pub fn for_puzzle(puzzle: &Puzzle) -> KeyLayout {
        KeyLayout::new(
            puzzle.board().cell_count(),
            puzzle.active_robot(),
            puzzle.rules().no_rebound,
        )
    }

    /// Whether the puzzle's state keys, with the ricochet phase when its rules ask for one,
    /// fit in a `u64`; otherwise they take a `u128`.
    pub fn fits_u64(&self, puzzle: &Puzzle) -> bool {
        let phase = puzzle.rules().min_solution_len() > 0;
        key_bits(self, puzzle.robots().len(), phase) <= u64::BITS
    }
}

/// Runs `$body` with the type alias `$key` set to the narrowest state key the puzzle's states
/// fit in (`u64`, else `u128`) and `$layout` bound to the puzzle's [`KeyLayout`]: the one place
/// the key width is chosen for every solver that packs states.
macro_rules! with_key_width {
    ($puzzle:expr, |$layout:ident, $key:ident| $body:expr) => {{
        let $layout = $crate::solver::key::KeyLayout::for_puzzle($puzzle);
        if $layout.fits_u64($puzzle) {
            type $key = u64;
            $body
        } else {
            type $key = u128;
            $body
        }
    }};
}
pub(crate) use with_key_width;

/// The bits a state key of `robots` robots takes, with the ricochet phase when `phase`.
pub fn key_bits(layout: &KeyLayout, robots: usize, phase: bool) -> u32 {
    let robot_bits = layout.cell_bits + if layout.with_last_dir { 3 } else { 0 };
    robot_bits * robots as u32 + if phase { 2 } else { 0 }
}

/// The key of a state: the robots (see [`KeyLayout::key`]) and, under the ricochet rule, how
/// many of the first `min_len` moves have been made, since a goal only counts after them.
#[inline(always)]
pub fn state_key<K: StateKey>(
    layout: &KeyLayout,
    cells: &[Cell],
    last_dir: &[Option<Direction>],
    g: u32,
    min_len: u32,
) -> K {
    let key: K = layout.key(cells, last_dir);
    if min_len > 0 {
        key.push(2, u64::from(g.min(min_len)))
    } else {
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obstacles_are_interchangeable_but_the_active_robot_is_not() {
        let layout = KeyLayout::new(256, Some(0), false);
        let a: u64 = layout.key(&[1, 2, 3, 4], &[]);
        let b: u64 = layout.key(&[1, 4, 2, 3], &[]);
        let c: u64 = layout.key(&[2, 1, 3, 4], &[]);
        assert_eq!(a, b);
        assert_ne!(a, c);
        let any = KeyLayout::new(256, None, false);
        assert_eq!(any.key::<u64>(&[1, 2], &[]), any.key::<u64>(&[2, 1], &[]));
        assert!(KeyLayout::new(4096, None, true).fits::<u128>(5));
        assert!(!KeyLayout::new(4096, None, true).fits::<u64>(5));
    }
}
