//! The state a depth-first tree search keeps while it walks: robot cells, last directions
//! (for the no-rebound rule and for never undoing a move), the path made so far, and what
//! the puzzle fixes (move tables, goal, rules), and the walk itself ([`walk`]): an explicit
//! stack of [`Frame`]s, so a deep search cannot overflow the thread's stack. Shared by the
//! depth-limited search and IDA*, which differ only in how they examine a node and which
//! moves they skip ([`TreeSearch`]).

use super::{Probe, Search, Stop};
use crate::model::{Cell, Direction, Move, MoveTables, Puzzle, RobotColor};

/// A made move: the robot (index), where it came from and its last direction before.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    /// The robot's index.
    pub robot: usize,
    /// Its cell before the move.
    pub from: Cell,
    /// Its last direction before the move.
    pub previous_dir: Option<Direction>,
}

/// The walking state of a depth-first search on one puzzle.
#[derive(Debug)]
pub struct DfsState {
    /// The board's slide tables.
    pub tables: MoveTables,
    /// The target cell.
    pub goal: Cell,
    /// The robot that must reach the goal (`None`: any robot).
    pub active: Option<usize>,
    /// Robot colours, by index.
    pub colors: Vec<RobotColor>,
    /// Robot cells now, by index.
    pub cells: Vec<Cell>,
    /// Each robot's last direction on the path.
    pub last_dir: Vec<Option<Direction>>,
    /// Whether the no-rebound rule is on.
    pub no_rebound: bool,
    /// The shortest solution the rules accept.
    pub min_len: u32,
    /// The moves made, as (robot index, direction).
    pub path: Vec<(usize, Direction)>,
    /// Robot indices in the order their moves are tried: colour order unless the search
    /// changes it.
    pub order: Vec<usize>,
}

impl DfsState {
    /// The state at the root of a search of `puzzle`.
    pub fn new(puzzle: &Puzzle) -> DfsState {
        DfsState {
            tables: MoveTables::new(puzzle.board()),
            goal: puzzle.goal_cell(),
            active: puzzle.active_robot(),
            colors: puzzle.robots().iter().map(|r| r.color).collect(),
            cells: puzzle.robot_cells(),
            last_dir: vec![None; puzzle.robots().len()],
            no_rebound: puzzle.rules().no_rebound,
            min_len: puzzle.rules().min_solution_len() as u32,
            path: Vec::new(),
            order: (0..puzzle.robots().len()).collect(),
        }
    }

    /// Whether robots on `cells` have the goal reached.
    #[inline(always)]
    pub fn at_goal(&self, cells: &[Cell]) -> bool {
        match self.active {
            Some(a) => cells[a] == self.goal,
            None => cells.contains(&self.goal),
        }
    }

    /// What every walk does on entering the current node, at depth `g`: polls the limits,
    /// reports the node to the probe, and says whether it is a goal (the target reached in no
    /// fewer moves than the rules accept).
    #[inline(always)]
    pub fn enter<P: Probe>(&self, search: &mut Search<'_, P>, g: u32) -> Result<bool, Stop> {
        // Profiled before the tick, so a node counted as the run stops is profiled too.
        search.probe.profile_node(|| {
            self.path
                .iter()
                .map(|&(robot, dir)| Move::new(self.colors[robot], dir))
        });
        search.tick()?;
        search.probe.node(g, &self.cells, |moves| {
            moves.extend(
                self.path
                    .iter()
                    .map(|&(robot, dir)| Move::new(self.colors[robot], dir)),
            )
        });
        Ok(self.at_goal(&self.cells) && g >= self.min_len)
    }

    /// Where robot `robot` lands moving in `dir`, or `None` when it does not move or the
    /// no-rebound rule forbids reversing its last direction.
    #[inline(always)]
    pub fn try_move(&self, robot: usize, dir: Direction) -> Option<Cell> {
        if self.no_rebound && self.last_dir[robot] == Some(dir.opposite()) {
            return None;
        }
        let to = self.tables.slide(&self.cells, robot, dir);
        (to != self.cells[robot]).then_some(to)
    }

    /// The next move to try from the current node, at depth `g`: its robot, direction and stop
    /// cell. Moves are numbered robot by robot in [`order`](Self::order), each robot's in the directions N,
    /// E, S, W; `next` is the number of the next one to try and is advanced past the move
    /// returned. Skipped on the way:
    ///
    /// - the remaining moves of a robot for which `robot_may_help` says `false` (a search's
    ///   own pruning; asked at each of the robot's moves until it says `false`);
    /// - a robot moving straight back along the move just made, which loses no solution (the
    ///   robot returns or stops where the reverse move made directly would), from the third
    ///   move on under the ricochet rule, where the shorter solution could be too short; each
    ///   such skip calls `on_reversal`;
    /// - moves that do not move the robot or that the no-rebound rule forbids.
    #[inline(always)]
    pub fn next_move(
        &self,
        next: &mut usize,
        g: u32,
        mut robot_may_help: impl FnMut(usize) -> bool,
        mut on_reversal: impl FnMut(),
    ) -> Option<(usize, Direction, Cell)> {
        let last = self.path.last().copied();
        while *next < self.order.len() * 4 {
            let i = *next;
            *next += 1;
            let robot = self.order[i / 4];
            let dir = Direction::ALL[i % 4];
            if !robot_may_help(robot) {
                *next = (i / 4 + 1) * 4;
                continue;
            }
            if g > self.min_len && last == Some((robot, dir.opposite())) {
                on_reversal();
                continue;
            }
            if let Some(to) = self.try_move(robot, dir) {
                return Some((robot, dir, to));
            }
        }
        None
    }

    /// Moves robot `robot` in `dir` to `to`; returns how to take the move back.
    #[inline(always)]
    pub fn make(&mut self, robot: usize, dir: Direction, to: Cell) -> Undo {
        let undo = Undo {
            robot,
            from: self.cells[robot],
            previous_dir: self.last_dir[robot],
        };
        self.cells[robot] = to;
        self.last_dir[robot] = Some(dir);
        self.path.push((robot, dir));
        undo
    }

    /// Takes back the last move made.
    #[inline(always)]
    pub fn undo(&mut self, undo: Undo) {
        self.cells[undo.robot] = undo.from;
        self.last_dir[undo.robot] = undo.previous_dir;
        self.path.pop();
    }

    /// The path as moves.
    pub fn moves(&self) -> Vec<Move> {
        self.path
            .iter()
            .map(|&(robot, dir)| Move::new(self.colors[robot], dir))
            .collect()
    }
}

/// One open level of a depth-first walk: the next move to try, how to undo the move that led
/// here (none at the root), and what the search noted about the node when it expanded it.
#[derive(Clone, Copy, Debug)]
pub struct Frame<N> {
    /// The number of the next move to try (see [`DfsState::next_move`]).
    pub next: usize,
    /// How to take back the move into this node.
    pub undo: Option<Undo>,
    /// The search's note.
    pub note: N,
}

/// What a search does with a node just visited.
#[derive(Clone, Copy, Debug)]
pub enum Visit<N> {
    /// It is a goal: the walk ends with the path to it.
    Goal,
    /// It was cut off.
    Cut,
    /// Search its children; the note goes into the node's frame.
    Expand(N),
}

/// A depth-first tree search that [`walk`] drives: how it examines a node and which move it
/// tries next.
pub trait TreeSearch {
    /// What the search notes about a node it expands (`()` when nothing).
    type Note: Copy;

    /// The walking state.
    fn dfs(&mut self) -> &mut DfsState;

    /// The open levels, the root first.
    fn frames(&mut self) -> &mut Vec<Frame<Self::Note>>;

    /// Counts and examines the current node, at depth `g`, in a walk cut off at `cutoff`
    /// (a depth limit or an f bound).
    fn visit(&mut self, g: u32, cutoff: u32) -> Result<Visit<Self::Note>, Stop>;

    /// The next move to try from the node of frame `top` (at depth `g`), its frame advanced
    /// past it; usually [`DfsState::next_move`] with the search's own skips.
    fn next_move(&mut self, top: usize, g: u32) -> Option<(usize, Direction, Cell)>;

    /// Opens a level; a search may refuse to grow its stack past a memory limit.
    fn push_frame(&mut self, frame: Frame<Self::Note>) -> Result<(), Stop>;
}

/// Walks the tree below the current node depth first, cut off at `cutoff`; the frames must be
/// empty. Returns `true` with the path to a goal left in the state's `path`, or `false` when
/// the walk ended without one (the state is then back at its root).
#[inline(always)]
pub fn walk<S: TreeSearch>(search: &mut S, cutoff: u32) -> Result<bool, Stop> {
    match search.visit(0, cutoff)? {
        Visit::Goal => return Ok(true),
        Visit::Cut => return Ok(false),
        Visit::Expand(note) => search.push_frame(Frame {
            next: 0,
            undo: None,
            note,
        })?,
    }
    while let Some(top) = search.frames().len().checked_sub(1) {
        let g = top as u32;
        let Some((robot, dir, to)) = search.next_move(top, g) else {
            if let Some(undo) = search.frames()[top].undo {
                search.dfs().undo(undo);
            }
            search.frames().pop();
            continue;
        };
        let undo = search.dfs().make(robot, dir, to);
        match search.visit(g + 1, cutoff)? {
            Visit::Goal => return Ok(true),
            Visit::Cut => search.dfs().undo(undo),
            Visit::Expand(note) => search.push_frame(Frame {
                next: 0,
                undo: Some(undo),
                note,
            })?,
        }
    }
    Ok(false)
}
