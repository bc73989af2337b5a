//! The stateless solver's own events, and how each is drawn on the search picture.

use super::states::{FinalState, IntermediateState, StatelessStores};
use crate::model::{Cell, Direction, RobotColor};
use crate::solver::picture::SearchPicture;
use crate::solver::probe::SolverEvent;

/// What the stateless solver reports beyond the generic events, carried by
/// [`Event::Solver`](crate::solver::Event::Solver).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatelessEvent {
    /// A final state was stored and queued.
    Final(FinalState),
    /// An intermediate state was stored.
    Intermediate(IntermediateState),
    /// An intermediate state was removed on a collision with a new final state.
    Converted {
        /// Its field.
        cell: Cell,
        /// Its robot.
        color: RobotColor,
        /// Its direction.
        dir: Direction,
        /// The final state it became, unless the field held one of its colour already.
        into: Option<u32>,
    },
    /// A final state was taken from the heap; its robot moves in all directions.
    Moved {
        /// The final state's id.
        state: u32,
        /// Its move count.
        moves: u32,
    },
    /// The stores at the end of the run.
    Stores(Box<StatelessStores>),
}

/// The stateless solver's part of the [search picture](SearchPicture): its states as the
/// events so far left them, for the stateless overlay.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatelessPicture {
    /// The final states stored so far.
    pub finals: Vec<FinalState>,
    /// The intermediate states alive now.
    pub intermediates: Vec<IntermediateState>,
    /// The stores at the end of the run.
    pub stores: Option<StatelessStores>,
}

impl SolverEvent for StatelessEvent {
    fn describe(&self, board: &crate::model::Board) -> String {
        let at = |cell: Cell| board.pos(cell).to_string();
        match self {
            StatelessEvent::Final(state) => format!(
                "final {}{} at {}",
                state.color.letter(),
                state.moves,
                at(state.cell)
            ),
            StatelessEvent::Intermediate(state) => format!(
                "intermediate {}{}{} at {}",
                state.color.letter(),
                state.dir.letter(),
                state.moves,
                at(state.cell)
            ),
            StatelessEvent::Converted { cell, color, .. } => {
                format!("converted {} at {}", color.letter(), at(*cell))
            }
            StatelessEvent::Moved { state, moves } => {
                format!("move final {state} ({moves} moves)")
            }
            StatelessEvent::Stores(_) => "stateless stores complete".to_string(),
        }
    }

    fn draw(&self, picture: &mut SearchPicture) {
        let part = picture.part_mut::<StatelessPicture>();
        match self {
            StatelessEvent::Final(final_state) => part.finals.push(final_state.clone()),
            StatelessEvent::Intermediate(intermediate) => {
                part.intermediates.push(intermediate.clone())
            }
            StatelessEvent::Converted {
                cell, color, dir, ..
            } => part
                .intermediates
                .retain(|i| !(i.cell == *cell && i.color == *color && i.dir == *dir)),
            StatelessEvent::Moved { .. } => {}
            StatelessEvent::Stores(stores) => part.stores = Some((**stores).clone()),
        }
    }
}
