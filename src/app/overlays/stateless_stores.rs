//! The stateless layer's stores: a whole Stateless run on the board edited, computed by a
//! worker task so that turning the layer on never stalls a frame. The stores sit in the store
//! of derived results under the revision they were computed on, so an edit drops them (and
//! cancels a run under way); while the layer is on they are computed again for the new board.

use crate::model::Puzzle;
use crate::solver::Stop;
use crate::solver::stateless::StatelessStores;
use crate::worker::stateless::{StoresResult, spawn_stateless_stores};
use crate::worker::{Drained, Task, Waker, drain_slot};

/// The stores of one revision's board, computed or being computed.
#[derive(Default)]
pub(in crate::app) struct StatelessStoresState {
    /// Whether a run was started for this revision (a stopped or failed one is not started
    /// again until the board or the switch changes).
    started: bool,
    task: Option<Task<StoresResult>>,
    stores: Option<StatelessStores>,
    error: Option<String>,
}

impl StatelessStoresState {
    /// Follows the switch: off drops the stores (cancelling a run under way); on, with a valid
    /// `puzzle` and no run started yet, starts one.
    pub(in crate::app) fn sync(&mut self, puzzle: Option<&Puzzle>, on: bool, waker: Waker) {
        if !on {
            self.forget();
            return;
        }
        if self.started {
            return;
        }
        let Some(puzzle) = puzzle else {
            return;
        };
        match spawn_stateless_stores(puzzle.clone(), waker) {
            Ok(task) => self.task = Some(task),
            Err(error) => {
                self.error = Some(format!("the stateless run could not start: {error}"));
            }
        }
        self.started = true;
    }

    /// Drops the stores, cancelling a run under way.
    fn forget(&mut self) {
        self.cancel();
        *self = StatelessStoresState::default();
    }

    /// Asks a run under way to stop.
    pub(in crate::app) fn cancel(&self) {
        if let Some(task) = &self.task {
            task.cancel();
        }
    }

    /// Takes the worker's answer.
    pub(in crate::app) fn drain(&mut self) {
        let drained = drain_slot(&mut self.task, |answer| {
            match answer {
                Ok(stores) => self.stores = Some(*stores),
                Err(stop) => {
                    self.error = Some(match stop {
                        Stop::Cancelled => "the stateless run was cancelled".to_string(),
                        Stop::TimeLimit => "the stateless run reached a time limit".to_string(),
                        Stop::MemoryLimit => "the stateless run reached a memory limit".to_string(),
                    });
                }
            }
            true
        });
        if drained == Drained::Lost {
            self.error = Some("the stateless run's thread stopped without an answer".into());
        }
    }

    /// Whether the run is under way.
    pub(in crate::app) fn is_computing(&self) -> bool {
        self.task.is_some()
    }

    /// The stores, once the run has ended.
    pub(in crate::app) fn stores(&self) -> Option<&StatelessStores> {
        self.stores.as_ref()
    }

    /// Why there are no stores, when the run failed or stopped.
    pub(in crate::app) fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
}
