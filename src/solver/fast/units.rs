//! What the threads of one iteration share: the work units, the counter that hands them out
//! and the earliest solution found. Below the parallel driver, the control and the node search,
//! which all read it.

use super::Path;
use crate::model::puzzle::MAX_ROBOTS;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// What the threads share during one iteration.
pub(super) struct Shared {
    /// Set by the main thread when the run must stop.
    pub stop: AtomicBool,
    /// The next work unit to hand out.
    pub next_unit: AtomicUsize,
    /// The earliest unit known to hold a solution (`usize::MAX`: none yet).
    pub best_unit: AtomicUsize,
    /// That unit's solution.
    pub best: Mutex<Option<(usize, Path)>>,
    /// How many of the other threads have finished.
    pub helpers_done: AtomicUsize,
}

impl Shared {
    /// The state before an iteration: nothing handed out, no solution, nobody finished.
    pub fn new() -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            next_unit: AtomicUsize::new(0),
            best_unit: AtomicUsize::new(usize::MAX),
            best: Mutex::new(None),
            helpers_done: AtomicUsize::new(0),
        }
    }

    /// Whether a thread should leave `unit`: the run stops, or an earlier unit holds a
    /// solution.
    #[inline(always)]
    pub fn abandons(&self, unit: usize) -> bool {
        self.stop.load(Ordering::Relaxed) || unit > self.best_unit.load(Ordering::Relaxed)
    }

    /// Offers a solution found in `unit`; the earliest unit's is kept.
    pub fn offer(&self, unit: usize, path: &[(u8, u8)]) {
        // A poisoned lock only means the other thread panicked; the data is still usable.
        let mut best = self.best.lock().unwrap_or_else(|e| e.into_inner());
        if best.as_ref().is_none_or(|(u, _)| unit < *u) {
            *best = Some((unit, path.to_vec()));
            self.best_unit.fetch_min(unit, Ordering::Relaxed);
        }
    }
}

/// A subtree to search: the robots' cells after a prefix of moves.
#[derive(Clone, Debug)]
pub(super) struct Unit {
    pub cells: [u16; MAX_ROBOTS],
    pub columns: [u16; MAX_ROBOTS],
    pub last_dirs: [u8; MAX_ROBOTS],
    pub path: Vec<(u8, u8)>,
    pub last_from: u16,
    /// Whether the unit root's parent already recorded it in the table.
    pub stored: bool,
}
