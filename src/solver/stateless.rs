//! The thesis' Stateless solver (section "Stateless", with the detail of its earlier draft).
//!
//! It keeps no game states. Instead every field F\[i,j\] has a store S\[i,j\] of *robot states*: a
//! *final state* per robot colour (the robot can land here, after so many moves, depending on
//! these other states) and an *intermediate state* per (direction, colour) (the robot can pass
//! here moving in that direction), plus the colour of the robot that starts here, if any.
//! Final states wait in a min-heap ordered by move count. Each one taken from the heap moves its
//! robot in all four directions; a move walks field by field, and at each field, with a the
//! next field in the direction of the move:
//!
//! - **1**: the field cannot move on (a wall, the border, a closed cell): a final state here;
//!   the move ends.
//! - **2a**: no final state of another colour is on a: an intermediate state here; walk on.
//! - **2b**: another colour's final state is on a: a final state here that depends on the
//!   lowest of them, its move count added; walk on (that robot may not be there).
//! - **2c**: another robot starts on a: as 2b, and every field from a on costs one move more,
//!   the move that takes the starting robot out of the way.
//!
//! Whenever a new final state f is queued, each neighbour a of its field is searched for
//! intermediate states of other colours moving towards f: they are removed and converted into
//! final states on a that depend on f, move counts added. New final states are stored and
//! queued only when their field holds no final state of their colour yet, and intermediate
//! states only when there is none for their direction and colour ("no redundant states"): the
//! first one stored stays. The search ends when the heap is empty; the answer is the final
//! state on the target (of the target's colour, or of any colour for the vortex) with the
//! fewest moves. The text calls it an upper bound on the optimum; that holds for answers that
//! replay, but when dependencies clash a claim can also count fewer moves than the optimum.
//!
//! The moves are read back from the dependencies: a final state's moves are those of the state
//! it depends on (its blocker), then those of the final state its robot moved from, then one
//! move per starting robot taken out of the way, then its own move. Their number is the state's
//! move count. The sequence is claimed as it is; when the interplay the stores do not track
//! breaks it, the replay fails and the run reports the claim as invalid.
//!
//! Choices where the text is silent:
//! - A move starts from the robot's own field, which gets no new state; 2c already counts there
//!   (a robot starting right next to it must make way).
//! - Case 2a also applies when a holds final states of the robot's own colour only: a robot does
//!   not block itself. A robot's own starting field does not trigger 2c for it.
//! - "The lowest final state" on a is the one of another colour with the fewest moves (ties:
//!   colour order); heap ties are taken in creation order.
//! - The text gives no order for a state's dependencies. The blocker's moves come first: they
//!   were found with every other robot on its start, as the robot still is then (on 300
//!   standard games this order replays 70% optimal answers, the robot's history first 66%).
//! - The starting robot of 2c makes way in the first direction, clockwise then anticlockwise
//!   from the move, in which its field can move on the empty board; if neither, along the move.
//! - The earlier draft stops when `r <= k + 2` (best r, current depth k); the later text runs
//!   until the heap is empty, which is what this does.
//! - When the heap runs empty with no final state on the target the outcome is "unsolvable":
//!   a statement of this algorithm, not a proof.
//! - The rule options (ricochet, no rebound) are not part of the algorithm and not supported.
//!
//! Per-move-count rows: *Finals* are the final states taken from the heap with that move
//! count, *new* the final states their moves stored, *converted* the intermediate states
//! turned into final states; `intermediates` counts the intermediate states stored and
//! `redundant` the states dropped because their slot was taken.

use super::probe::{DepthStats, Event};
use super::steps::OpenSteps;
use super::{
    Columns, Optimality, Probe, RuleSupport, Search, SearchEnd, SearchShape, SolverKind, Stop,
};
use crate::model::{Cell, Direction, Move, Puzzle, RobotColor};
use states::read_moves;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// The command-line name.
pub const NAME: &str = "stateless";

/// The registry entry.
pub const KIND: SolverKind = SolverKind {
    name: NAME,
    title: "Stateless",
    description: "Per-field final and intermediate robot states with a min-heap instead of \
                  game states",
    source: "thesis draft, section Stateless",
    optimality: Optimality::NotGuaranteed,
    rules: RuleSupport {
        ricochet: false,
        no_rebound: false,
    },
    columns: Columns {
        depth: "Moves",
        nodes: "Finals",
        inner: "new",
        hits: "converted",
    },
    deepest_limit: None,
    shape: SearchShape::Own,
};

algorithm!(
    /// Stateless search in the registry.
    Stateless, KIND, |puzzle, _, search| solve(puzzle, search)
);

/// The number of robot colours, the size of the per-colour slots.
const COLORS: usize = RobotColor::ALL.len();
/// An empty slot.
const NONE: u32 = u32::MAX;

pub use events::{StatelessEvent, StatelessPicture};
pub use states::{
    ClearMove, FieldStore, FinalKind, FinalState, IntermediateState, StateId, StatelessStores,
};

mod events;
pub mod states;

/// Solves a puzzle with the Stateless algorithm.
pub fn solve<P: Probe>(puzzle: &Puzzle, search: &mut Search<'_, P>) -> SearchEnd {
    let mut engine = Engine::new(puzzle);
    match engine.run(search) {
        Ok(()) => {}
        Err(stop) => return SearchEnd::Stopped(stop),
    }
    search
        .probe
        .event(|| Event::solver(StatelessEvent::Stores(Box::new(engine.stores()))));
    let Some(best) = engine.best else {
        return SearchEnd::NotFound;
    };
    // The sequence is as long as the claimed move count; keep it within the memory budget.
    let claimed = engine.finals[best as usize].moves as usize;
    let bytes = engine
        .bytes()
        .max(claimed.saturating_mul(std::mem::size_of::<Move>()));
    if let Err(stop) = search.set_memory(bytes) {
        return SearchEnd::Stopped(stop);
    }
    SearchEnd::Found(read_moves(&engine.finals, best))
}

/// Runs the algorithm to the end within `limits` and returns its stores, for overlays; a run
/// stopped by a limit or its cancel flag returns why instead of stores half built.
pub fn compute_stores(puzzle: &Puzzle, limits: &super::Limits) -> Result<StatelessStores, Stop> {
    let mut probe = super::NoProbe;
    let mut search = Search::new(&mut probe, limits);
    let mut engine = Engine::new(puzzle);
    engine.run(&mut search)?;
    Ok(engine.stores())
}

/// The running algorithm.
struct Engine {
    width: u16,
    height: u16,
    /// The single steps a robot may take on the empty board.
    steps: OpenSteps,
    goal: Cell,
    /// Per colour index, whether that robot counts on the target.
    accepts: [bool; COLORS],
    start: Vec<Option<RobotColor>>,
    robots: Vec<(Cell, RobotColor)>,
    /// Per field and colour, the id of its final state or `NONE`.
    final_slots: Vec<[StateId; COLORS]>,
    /// Per field, direction and colour, the index of its intermediate state or `NONE`.
    intermediate_slots: Vec<[[u32; COLORS]; 4]>,
    finals: Vec<FinalState>,
    intermediates: Vec<IntermediateState>,
    heap: BinaryHeap<Reverse<(u32, StateId)>>,
    best: Option<StateId>,
    stats: DepthStats,
}

impl Engine {
    fn new(puzzle: &Puzzle) -> Engine {
        let board = puzzle.board();
        let cells = board.cell_count();
        let mut accepts = [false; COLORS];
        for color in RobotColor::ALL {
            accepts[color.index()] = puzzle.goal().color.accepts(color);
        }
        let mut start = vec![None; cells];
        let robots: Vec<(Cell, RobotColor)> = puzzle
            .robots()
            .iter()
            .map(|r| (board.cell(r.pos), r.color))
            .collect();
        for &(cell, color) in &robots {
            start[usize::from(cell)] = Some(color);
        }
        Engine {
            width: board.width(),
            height: board.height(),
            steps: OpenSteps::new(board),
            goal: puzzle.goal_cell(),
            accepts,
            start,
            robots,
            final_slots: vec![[NONE; COLORS]; cells],
            intermediate_slots: vec![[[NONE; COLORS]; 4]; cells],
            finals: Vec::new(),
            intermediates: Vec::new(),
            heap: BinaryHeap::new(),
            best: None,
            stats: new_row(0),
        }
    }

    #[inline(always)]
    fn can_move(&self, cell: Cell, dir: Direction) -> bool {
        self.steps.can_move(cell, dir)
    }

    /// The neighbour in `dir`; only called where [`Engine::can_move`] holds.
    #[inline(always)]
    fn step(&self, cell: Cell, dir: Direction) -> Cell {
        self.steps.step(cell, dir)
    }

    fn run<P: Probe>(&mut self, search: &mut Search<'_, P>) -> Result<(), Stop> {
        search.probe.event(|| Event::IterationStarted { depth: 0 });
        for (cell, color) in self.robots.clone() {
            let start = FinalState {
                id: 0,
                cell,
                color,
                moves: 0,
                kind: FinalKind::Start,
                from: None,
                blocker: None,
                clears: Vec::new(),
            };
            self.add_final(start, search);
        }
        while let Some(Reverse((moves, id))) = self.heap.pop() {
            if moves != self.stats.depth {
                let finished = std::mem::replace(&mut self.stats, new_row(moves));
                search.finish_depth(finished);
                search
                    .probe
                    .event(|| Event::IterationStarted { depth: moves });
            }
            self.stats.nodes += 1;
            // Profiled before the tick, so a node counted as the run stops is profiled too.
            let finals = &self.finals;
            search.probe.profile_node(|| read_moves(finals, id));
            search.tick()?;
            search
                .probe
                .event(|| Event::solver(StatelessEvent::Moved { state: id, moves }));
            self.expand(id, search);
            if self.stats.nodes.is_multiple_of(256) {
                search.set_memory(self.bytes())?;
            }
        }
        let finished = std::mem::replace(&mut self.stats, new_row(0));
        search.finish_depth(finished);
        search.set_memory(self.bytes())?;
        Ok(())
    }

    /// Moves the robot of final state `id` in all four directions.
    fn expand<P: Probe>(&mut self, id: StateId, search: &mut Search<'_, P>) {
        let (origin, color, base) = {
            let state = &self.finals[id as usize];
            (state.cell, state.color, state.moves)
        };
        for dir in Direction::ALL {
            // Case 1 on the robot's own field: it cannot move this way at all.
            if !self.can_move(origin, dir) {
                continue;
            }
            let mut clears: Vec<ClearMove> = Vec::new();
            let mut field = origin;
            loop {
                let moves = base.saturating_add(1 + clears.len() as u32);
                if field != origin && !self.can_move(field, dir) {
                    // Case 1.
                    let wall = FinalState {
                        id: 0,
                        cell: field,
                        color,
                        moves,
                        kind: FinalKind::Wall,
                        from: Some((id, dir)),
                        blocker: None,
                        clears,
                    };
                    self.add_final(wall, search);
                    break;
                }
                let next = self.step(field, dir);
                let starter = self.start[usize::from(next)].filter(|&c| c != color);
                if field != origin {
                    match self.lowest_other_final(next, color) {
                        Some(blocker) => {
                            // Cases 2b and 2c.
                            let kind = if starter.is_some() {
                                FinalKind::BlockedByStart
                            } else {
                                FinalKind::Blocked
                            };
                            let blocked = FinalState {
                                id: 0,
                                cell: field,
                                color,
                                moves: moves.saturating_add(self.finals[blocker as usize].moves),
                                kind,
                                from: Some((id, dir)),
                                blocker: Some(blocker),
                                clears: clears.clone(),
                            };
                            self.add_final(blocked, search);
                        }
                        // Case 2a.
                        None => {
                            let passing = IntermediateState {
                                cell: field,
                                color,
                                dir,
                                moves,
                                from: id,
                                clears: clears.clone(),
                            };
                            self.add_intermediate(passing, search);
                        }
                    }
                }
                if let Some(starter) = starter {
                    // Case 2c: from the next field on, one move more.
                    clears.push(ClearMove {
                        color: starter,
                        cell: next,
                        dir: self.clear_direction(next, dir),
                    });
                }
                field = next;
            }
        }
    }

    /// The final state of another colour with the fewest moves on `cell`.
    fn lowest_other_final(&self, cell: Cell, color: RobotColor) -> Option<StateId> {
        let mut lowest: Option<(u32, StateId)> = None;
        for (c, &id) in self.final_slots[usize::from(cell)].iter().enumerate() {
            if c == color.index() || id == NONE {
                continue;
            }
            let moves = self.finals[id as usize].moves;
            // Strictly fewer: on a tie the earlier colour stays.
            if lowest.is_none_or(|(fewest, _)| moves < fewest) {
                lowest = Some((moves, id));
            }
        }
        lowest.map(|(_, id)| id)
    }

    /// Where the starting robot on `cell` makes way for a move in `dir`.
    fn clear_direction(&self, cell: Cell, dir: Direction) -> Direction {
        let clockwise = dir.clockwise();
        let anticlockwise = clockwise.opposite();
        [clockwise, anticlockwise]
            .into_iter()
            .find(|&d| self.can_move(cell, d))
            .unwrap_or(dir)
    }

    /// Stores an intermediate state unless its slot is taken.
    fn add_intermediate<P: Probe>(&mut self, state: IntermediateState, search: &mut Search<'_, P>) {
        let slot = &mut self.intermediate_slots[usize::from(state.cell)][state.dir.index()]
            [state.color.index()];
        if *slot != NONE {
            self.stats.extra[1].1 += 1;
            return;
        }
        *slot = self.intermediates.len() as u32;
        search
            .probe
            .event(|| Event::solver(StatelessEvent::Intermediate(state.clone())));
        self.intermediates.push(state);
        self.stats.extra[0].1 += 1;
    }

    /// Stores and queues a final state unless its slot is taken, then converts the
    /// intermediate states that collide with it (and with the final states that creates).
    fn add_final<P: Probe>(&mut self, state: FinalState, search: &mut Search<'_, P>) {
        let Some(id) = self.store_final(state, search) else {
            return;
        };
        let mut work = VecDeque::from([id]);
        while let Some(id) = work.pop_front() {
            let (cell, color, moves) = {
                let state = &self.finals[id as usize];
                (state.cell, state.color, state.moves)
            };
            for dir in Direction::ALL {
                if !self.can_move(cell, dir) {
                    continue;
                }
                let beside = self.step(cell, dir);
                let towards = dir.opposite();
                for other in RobotColor::ALL {
                    if other == color {
                        continue;
                    }
                    let slot = &mut self.intermediate_slots[usize::from(beside)][towards.index()]
                        [other.index()];
                    if *slot == NONE {
                        continue;
                    }
                    let index = std::mem::replace(slot, NONE) as usize;
                    let passing = self.intermediates[index].clone();
                    self.stats.hits += 1;
                    let converted = FinalState {
                        id: 0,
                        cell: beside,
                        color: other,
                        moves: passing.moves.saturating_add(moves),
                        kind: FinalKind::Converted,
                        from: Some((passing.from, towards)),
                        blocker: Some(id),
                        clears: passing.clears,
                    };
                    let converted = self.store_final(converted, search);
                    search.probe.event(|| {
                        Event::solver(StatelessEvent::Converted {
                            cell: beside,
                            color: other,
                            dir: towards,
                            into: converted,
                        })
                    });
                    if let Some(converted) = converted {
                        work.push_back(converted);
                    }
                }
            }
        }
    }

    /// Stores and queues a final state unless one of its colour is on its field already; its
    /// id is given here. Returns the id when it was stored.
    fn store_final<P: Probe>(
        &mut self,
        mut state: FinalState,
        search: &mut Search<'_, P>,
    ) -> Option<StateId> {
        let (cell, color, moves, kind) = (state.cell, state.color, state.moves, state.kind);
        let slot = &mut self.final_slots[usize::from(cell)][color.index()];
        if *slot != NONE {
            self.stats.extra[1].1 += 1;
            return None;
        }
        let id = self.finals.len() as StateId;
        *slot = id;
        state.id = id;
        search
            .probe
            .event(|| Event::solver(StatelessEvent::Final(state.clone())));
        self.finals.push(state);
        self.heap.push(Reverse((moves, id)));
        if kind != FinalKind::Start {
            self.stats.inner += 1;
        }
        // The validation whether the goal is reached.
        if cell == self.goal
            && self.accepts[color.index()]
            && self
                .best
                .is_none_or(|best| moves < self.finals[best as usize].moves)
        {
            self.best = Some(id);
        }
        Some(id)
    }

    /// An estimate of the memory the stores take.
    fn bytes(&self) -> usize {
        let per_field = std::mem::size_of::<[StateId; COLORS]>()
            + std::mem::size_of::<[[u32; COLORS]; 4]>()
            + std::mem::size_of::<Option<RobotColor>>()
            + 1;
        self.steps.cells() * per_field
            + self.finals.capacity() * std::mem::size_of::<FinalState>()
            + self.intermediates.capacity() * std::mem::size_of::<IntermediateState>()
            + self.heap.capacity() * std::mem::size_of::<(u32, StateId)>()
    }

    /// A snapshot of the stores.
    fn stores(&self) -> StatelessStores {
        let mut fields = Vec::new();
        for cell in 0..self.steps.cells() as Cell {
            let finals: Vec<StateId> = self.final_slots[usize::from(cell)]
                .iter()
                .copied()
                .filter(|&id| id != NONE)
                .collect();
            let intermediates: Vec<IntermediateState> = self.intermediate_slots[usize::from(cell)]
                .iter()
                .flatten()
                .filter(|&&index| index != NONE)
                .map(|&index| self.intermediates[index as usize].clone())
                .collect();
            let start = self.start[usize::from(cell)];
            if start.is_some() || !finals.is_empty() || !intermediates.is_empty() {
                fields.push(FieldStore {
                    cell,
                    start,
                    finals,
                    intermediates,
                });
            }
        }
        StatelessStores {
            width: self.width,
            height: self.height,
            finals: self.finals.clone(),
            fields,
            best: self.best,
        }
    }
}

/// A per-move-count row with its extra columns in place.
fn new_row(moves: u32) -> DepthStats {
    DepthStats {
        depth: moves,
        extra: vec![("intermediates", 0), ("redundant", 0)],
        ..DepthStats::default()
    }
}

#[cfg(test)]
mod tests;
