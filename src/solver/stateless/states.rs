//! The stateless solver's robot states and stores: plain data the solver fills, the debugger
//! records and the overlays draw.

use crate::model::{Cell, Direction, Move, RobotColor};

/// The index of a final state in [`StatelessStores::finals`].
pub type StateId = u32;

/// How a final state came about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FinalKind {
    /// The robot starts here, with no moves.
    Start,
    /// Case 1: the field cannot move on.
    Wall,
    /// Case 2b: another robot's final state on the next field.
    Blocked,
    /// Case 2c: a robot that starts on the next field.
    BlockedByStart,
    /// An intermediate state converted when a final state appeared on the next field.
    Converted,
}

/// A starting robot taken out of the way (case 2c): one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClearMove {
    /// The starting robot.
    pub color: RobotColor,
    /// Its starting field.
    pub cell: Cell,
    /// The direction it moves in.
    pub dir: Direction,
}

/// A final state: a robot can land on a field after `moves` moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FinalState {
    /// Its index in [`StatelessStores::finals`].
    pub id: StateId,
    /// The field.
    pub cell: Cell,
    /// The robot.
    pub color: RobotColor,
    /// The move count, dependencies included.
    pub moves: u32,
    /// How it came about.
    pub kind: FinalKind,
    /// The robot's own final state it moved from, and the direction; `None` for a start.
    pub from: Option<(StateId, Direction)>,
    /// The other robot's final state it depends on.
    pub blocker: Option<StateId>,
    /// Starting robots taken out of the way on the move.
    pub clears: Vec<ClearMove>,
}

/// An intermediate state: a robot can pass over a field moving in `dir`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntermediateState {
    /// The field.
    pub cell: Cell,
    /// The robot.
    pub color: RobotColor,
    /// The direction of its move.
    pub dir: Direction,
    /// The move count on reaching the field.
    pub moves: u32,
    /// The robot's final state the move started from.
    pub from: StateId,
    /// Starting robots taken out of the way so far on the move.
    pub clears: Vec<ClearMove>,
}

/// The store S\[i,j\] of one field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FieldStore {
    /// The field.
    pub cell: Cell,
    /// The robot that starts here.
    pub start: Option<RobotColor>,
    /// Its final states, at most one per colour, in colour order.
    pub finals: Vec<StateId>,
    /// Its intermediate states, at most one per direction and colour, by direction then colour.
    pub intermediates: Vec<IntermediateState>,
}

/// The stores of a run: plain data for overlays.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StatelessStores {
    pub(super) width: u16,
    pub(super) height: u16,
    pub(super) finals: Vec<FinalState>,
    pub(super) fields: Vec<FieldStore>,
    pub(super) best: Option<StateId>,
}

impl StatelessStores {
    /// The board's width.
    pub fn width(&self) -> u16 {
        self.width
    }

    /// The board's height.
    pub fn height(&self) -> u16 {
        self.height
    }

    /// Every final state stored, by id.
    pub fn finals(&self) -> &[FinalState] {
        &self.finals
    }

    /// One final state.
    pub fn final_state(&self, id: StateId) -> Option<&FinalState> {
        self.finals.get(id as usize)
    }

    /// The stores of the fields that hold anything, in cell order.
    pub fn fields(&self) -> &[FieldStore] {
        &self.fields
    }

    /// The store of one field, if it holds anything.
    pub fn field(&self, cell: Cell) -> Option<&FieldStore> {
        self.fields
            .binary_search_by_key(&cell, |f| f.cell)
            .ok()
            .map(|i| &self.fields[i])
    }

    /// The final state on the target with the fewest moves: the answer.
    pub fn best(&self) -> Option<StateId> {
        self.best
    }

    /// The moves a final state stands for, read back from its dependencies.
    pub fn moves_of(&self, id: StateId) -> Vec<Move> {
        read_moves(&self.finals, id)
    }
}

/// The moves of final state `id`: those of its blocker, of the state its robot moved from, the
/// clearing moves, then its own move. Iterative, as chains can be long.
pub(super) fn read_moves(finals: &[FinalState], id: StateId) -> Vec<Move> {
    enum Task {
        Expand(StateId),
        Emit(Move),
    }
    let mut out = Vec::new();
    let mut tasks = vec![Task::Expand(id)];
    while let Some(task) = tasks.pop() {
        match task {
            Task::Emit(mv) => out.push(mv),
            Task::Expand(id) => {
                let state = &finals[id as usize];
                let Some((from, dir)) = state.from else {
                    continue;
                };
                // Pushed in reverse, so they come out as: the blocker's moves, the robot's own
                // history, the clearing moves, its own move.
                tasks.push(Task::Emit(Move::new(state.color, dir)));
                for clear in state.clears.iter().rev() {
                    tasks.push(Task::Emit(Move::new(clear.color, clear.dir)));
                }
                tasks.push(Task::Expand(from));
                if let Some(blocker) = state.blocker {
                    tasks.push(Task::Expand(blocker));
                }
            }
        }
    }
    out
}
