//! Depth-limited search as the course report on Ricochet Robots describes it (section
//! "Recursive Depth-Limited Search"): a depth-first tree search with no record of visited
//! states, down to a depth limit the user chooses (10 by default, the limit that found a
//! solution most often in the report's tests). Not optimal: it returns the first solution it
//! meets, shortened afterwards.
//!
//! - At each node, in this order: count the node; stop with it if the target is reached;
//!   stop at the depth limit; otherwise try every robot in colour order (red, green, blue,
//!   yellow, silver), each in directions N, E, S, W. Zero-length moves are not moves.
//! - The opposite-move rule: a robot never moves straight back along the move just made (after
//!   red moved north, red does not move south). This loses no solution within the limit:
//!   after `X d` the move `X opposite(d)` either returns the robot to where it was or stops
//!   where `X opposite(d)` made directly would, so a solution doing it has a shorter one. Under
//!   the ricochet rule the shorter one could be too short, so the rule applies only from the
//!   third move on. Hence "no solution" is a proof: none exists within the limit.
//! - The search is a loop over an explicit stack, not recursion, so a large limit cannot
//!   overflow the thread's stack; the stack is counted against the memory limit.
//! - Post-optimisation of the solution found. The report deletes moves from the end while the
//!   target is still reached; here every move may go: single moves are tried for removal from
//!   the last to the first, then pairs of moves (the later one of the pair running from the
//!   end), and a removal is kept when the shorter sequence still replays under the rules (each
//!   move moves its robot, the no-rebound rule when on, the ricochet rule's length when on)
//!   and ends with the target reached. After any removal the trial starts over, until no
//!   single move and no pair can be removed. The time limit and cancel are honoured between
//!   trials; if either strikes, the valid sequence shortened so far is returned.
//!
//! Under the no-rebound rule a robot also never moves opposite to its own previous move.
//!
//! Per-depth statistics, reported when the search ends (it is one pass, not a series of
//! iterations): *Nodes* visited at that depth, *inner* nodes expanded there (neither a goal
//! nor at the limit), *reversals* moves not tried from nodes there by the opposite-move rule.

use super::probe::{DepthStats, Event, PruneReason, RobotCells};
use super::{
    Columns, Optimality, Probe, RuleSupport, Search, SearchEnd, SolverKind, SolverOptions, Stop,
};
use crate::model::{Cell, Direction, Move, MoveTables, Puzzle, RobotColor};

/// The command-line name.
pub const NAME: &str = "dls";

/// The depth limit when none is given: the report's best.
pub const DEFAULT_DEPTH_LIMIT: u32 = 10;

/// The registry entry.
pub const KIND: SolverKind = SolverKind {
    name: NAME,
    title: "Depth-limited search",
    description: "Depth-first tree search to a depth limit (--depth-limit, default 10) that \
                  never undoes the previous move, then removes removable moves; not optimal",
    source: "course report, section Recursive Depth-Limited Search",
    optimality: Optimality::NotGuaranteed,
    rules: RuleSupport {
        ricochet: true,
        no_rebound: true,
    },
    columns: Columns {
        depth: "Depth",
        nodes: "Nodes",
        inner: "inner",
        hits: "reversals",
    },
    takes_depth_limit: true,
};

/// Solves a puzzle with depth-limited search; the limit is `options.depth_limit`, or
/// [`DEFAULT_DEPTH_LIMIT`].
pub fn solve<P: Probe>(
    puzzle: &Puzzle,
    options: &SolverOptions,
    search: &mut Search<'_, P>,
) -> SearchEnd {
    let limit = options.depth_limit.unwrap_or(DEFAULT_DEPTH_LIMIT);
    let mut dls = Dls::new(puzzle, search);
    match dls.run(limit) {
        Err(stop) => SearchEnd::Stopped(stop),
        Ok(false) => {
            dls.report_rows();
            SearchEnd::Unsolvable(Some(limit))
        }
        Ok(true) => {
            dls.report_rows();
            let moves = dls.shorten(puzzle);
            SearchEnd::Found(moves)
        }
    }
}

/// One level of the depth-first search: the next move to try and how to undo the move that
/// led here.
struct Frame {
    next: usize,
    undo: Option<Undo>,
}

/// A made move: the robot (index), where it came from and its last direction before.
#[derive(Clone, Copy)]
struct Undo {
    robot: usize,
    from: Cell,
    previous_dir: Option<Direction>,
}

struct Dls<'s, 'p, P: Probe> {
    search: &'s mut Search<'p, P>,
    tables: MoveTables,
    goal: Cell,
    active: Option<usize>,
    colors: Vec<RobotColor>,
    cells: Vec<Cell>,
    last_dir: Vec<Option<Direction>>,
    no_rebound: bool,
    min_len: u32,
    /// The moves made, as (robot index, direction).
    path: Vec<(usize, Direction)>,
    frames: Vec<Frame>,
    /// Counters per depth, grown as the search goes deeper.
    rows: Vec<DepthStats>,
}

impl<'s, 'p, P: Probe> Dls<'s, 'p, P> {
    fn new(puzzle: &Puzzle, search: &'s mut Search<'p, P>) -> Self {
        Dls {
            search,
            tables: MoveTables::new(puzzle.board()),
            goal: puzzle.goal_cell(),
            active: puzzle.active_robot(),
            colors: puzzle.robots().iter().map(|r| r.color).collect(),
            cells: puzzle.robot_cells(),
            last_dir: vec![None; puzzle.robots().len()],
            no_rebound: puzzle.rules().no_rebound,
            min_len: puzzle.rules().min_solution_len() as u32,
            path: Vec::new(),
            frames: Vec::new(),
            rows: Vec::new(),
        }
    }

    #[inline(always)]
    fn at_goal(&self, cells: &[Cell]) -> bool {
        match self.active {
            Some(a) => cells[a] == self.goal,
            None => cells.contains(&self.goal),
        }
    }

    /// The search; leaves the solution in `path` and returns `true` when it finds one.
    fn run(&mut self, limit: u32) -> Result<bool, Stop> {
        self.search
            .probe
            .event(|| Event::IterationStarted { depth: limit });
        match self.visit(0, limit)? {
            Visit::Goal => return Ok(true),
            Visit::Cut => return Ok(false),
            Visit::Expand => self.push_frame(None)?,
        }
        let robots = self.colors.len();
        while let Some(top) = self.frames.len().checked_sub(1) {
            let g = top as u32;
            let Some((robot, dir, to)) = self.next_move(top, g, robots) else {
                if let Some(undo) = self.frames[top].undo {
                    self.undo(undo);
                }
                self.frames.pop();
                continue;
            };
            let undo = Undo {
                robot,
                from: self.cells[robot],
                previous_dir: self.last_dir[robot],
            };
            self.cells[robot] = to;
            self.last_dir[robot] = Some(dir);
            self.path.push((robot, dir));
            match self.visit(g + 1, limit)? {
                Visit::Goal => return Ok(true),
                Visit::Cut => self.undo(undo),
                Visit::Expand => self.push_frame(Some(undo))?,
            }
        }
        Ok(false)
    }

    /// Opens a level of the search, growing the stack only within the memory limit.
    fn push_frame(&mut self, undo: Option<Undo>) -> Result<(), Stop> {
        if self.frames.len() == self.frames.capacity() {
            let more = self.frames.capacity().max(64);
            let levels = self.frames.capacity() + more;
            let per_level = std::mem::size_of::<Frame>()
                + std::mem::size_of::<(usize, Direction)>()
                + std::mem::size_of::<DepthStats>();
            self.search.set_memory(levels.saturating_mul(per_level))?;
            self.frames
                .try_reserve(more)
                .map_err(|_| Stop::MemoryLimit)?;
            self.path.try_reserve(more).map_err(|_| Stop::MemoryLimit)?;
            self.rows.try_reserve(more).map_err(|_| Stop::MemoryLimit)?;
        }
        self.frames.push(Frame { next: 0, undo });
        Ok(())
    }

    /// The next move to try from the node of frame `top` (at depth `g`): its robot, direction
    /// and stop cell. Advances the frame past it and counts the reversals it skips.
    fn next_move(&mut self, top: usize, g: u32, robots: usize) -> Option<(usize, Direction, Cell)> {
        let last = self.path.last().copied();
        while self.frames[top].next < robots * 4 {
            let i = self.frames[top].next;
            self.frames[top].next += 1;
            let robot = i / 4;
            let dir = Direction::ALL[i % 4];
            if g > self.min_len && last == Some((robot, dir.opposite())) {
                self.rows[top].hits += 1;
                continue;
            }
            if self.no_rebound && self.last_dir[robot] == Some(dir.opposite()) {
                continue;
            }
            let to = self.tables.slide(&self.cells, robot, dir);
            if to != self.cells[robot] {
                return Some((robot, dir, to));
            }
        }
        None
    }

    fn undo(&mut self, undo: Undo) {
        self.cells[undo.robot] = undo.from;
        self.last_dir[undo.robot] = undo.previous_dir;
        self.path.pop();
    }

    /// Counts and examines the current node at depth `g`.
    fn visit(&mut self, g: u32, limit: u32) -> Result<Visit, Stop> {
        let depth = g as usize;
        if depth == self.rows.len() {
            self.rows.push(DepthStats {
                depth: g,
                ..DepthStats::default()
            });
        }
        self.rows[depth].nodes += 1;
        self.search.tick()?;
        self.search.probe.event(|| Event::Node {
            depth: g,
            cells: RobotCells::new(&self.cells),
            last: self
                .path
                .last()
                .map(|&(robot, dir)| Move::new(self.colors[robot], dir)),
        });
        if self.at_goal(&self.cells) && g >= self.min_len {
            return Ok(Visit::Goal);
        }
        if g == limit {
            self.search.probe.event(|| Event::Pruned {
                depth: g,
                reason: PruneReason::DepthLimit,
            });
            return Ok(Visit::Cut);
        }
        self.rows[depth].inner += 1;
        Ok(Visit::Expand)
    }

    /// Hands the per-depth rows to the probe, shallowest first.
    fn report_rows(&mut self) {
        for row in std::mem::take(&mut self.rows) {
            self.search.finish_depth(row);
        }
    }

    /// The solution in `path` with removable moves removed (see the module documentation).
    fn shorten(&mut self, puzzle: &Puzzle) -> Vec<Move> {
        let start = puzzle.robot_cells();
        let mut moves = std::mem::take(&mut self.path);
        'shorter: loop {
            let len = moves.len();
            for i in (0..len).rev() {
                if self.search.poll().is_err() {
                    break 'shorter;
                }
                let trial = without(&moves, &[i]);
                if self.solves(&start, &trial) {
                    moves = trial;
                    continue 'shorter;
                }
            }
            for j in (0..len).rev() {
                for i in (0..j).rev() {
                    if self.search.poll().is_err() {
                        break 'shorter;
                    }
                    let trial = without(&moves, &[i, j]);
                    if self.solves(&start, &trial) {
                        moves = trial;
                        continue 'shorter;
                    }
                }
            }
            break;
        }
        moves
            .into_iter()
            .map(|(robot, dir)| Move::new(self.colors[robot], dir))
            .collect()
    }

    /// Whether `moves` played from `start` are legal under the puzzle's rules and end on the
    /// target.
    fn solves(&self, start: &[Cell], moves: &[(usize, Direction)]) -> bool {
        if (moves.len() as u32) < self.min_len {
            return false;
        }
        let mut cells = start.to_vec();
        let mut last_dir = vec![None; cells.len()];
        for &(robot, dir) in moves {
            if self.no_rebound && last_dir[robot] == Some(dir.opposite()) {
                return false;
            }
            let to = self.tables.slide(&cells, robot, dir);
            if to == cells[robot] {
                return false;
            }
            cells[robot] = to;
            last_dir[robot] = Some(dir);
        }
        self.at_goal(&cells)
    }
}

/// What to do with a node just visited.
enum Visit {
    /// It is a goal.
    Goal,
    /// It was cut off.
    Cut,
    /// Search its children.
    Expand,
}

/// `moves` without the entries at the (distinct) indices `skip`.
fn without(moves: &[(usize, Direction)], skip: &[usize]) -> Vec<(usize, Direction)> {
    moves
        .iter()
        .enumerate()
        .filter(|(i, _)| !skip.contains(i))
        .map(|(_, &mv)| mv)
        .collect()
}
