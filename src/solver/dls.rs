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
//!   trials: a run stopped while trimming reports the stop, never an untrimmed answer.
//! - Depth limits are capped at [`MAX_DEPTH_LIMIT`]: a deeper limit only makes the first
//!   solution found longer (the search dives to the limit before it turns back), and the
//!   trimming pass costs the cube of that length.
//!
//! Under the no-rebound rule a robot also never moves opposite to its own previous move.
//!
//! Per-depth statistics, reported when the search ends (it is one pass, not a series of
//! iterations): *Nodes* visited at that depth, *inner* nodes expanded there (neither a goal
//! nor at the limit), *reversals* moves not tried from nodes there by the opposite-move rule.

use super::dfs_state::{DfsState, Frame, TreeSearch, Visit, walk};
use super::probe::{DepthStats, Event, PruneReason};
use super::{
    Columns, DECK_COLUMNS, Optimality, Probe, RuleSupport, Search, SearchEnd, SearchShape,
    SolverKind, SolverOptions, Stop,
};
use crate::model::{Cell, Direction, Move, Puzzle};

/// The command-line name.
pub const NAME: &str = "dls";

/// The depth limit when none is given: the report's best.
pub const DEFAULT_DEPTH_LIMIT: u32 = 10;

/// The deepest limit the search uses; larger limits are capped here (see the module notes).
/// At this depth one trimming pass already replays about half a billion moves.
pub const MAX_DEPTH_LIMIT: u32 = 1000;

/// The registry entry.
pub const KIND: SolverKind = SolverKind {
    name: NAME,
    title: "Depth-limited search",
    description: "Depth-first tree search to a depth limit (--depth-limit, default 10) that \
                  never undoes the previous move, then removes removable moves",
    source: "course report, section Recursive Depth-Limited Search",
    optimality: Optimality::NotGuaranteed,
    rules: RuleSupport::BOTH,
    columns: Columns {
        hits: "reversals",
        ..DECK_COLUMNS
    },
    deepest_limit: Some(MAX_DEPTH_LIMIT),
    shape: SearchShape::DepthFirst(None),
};

algorithm!(
    /// Depth-limited search in the registry.
    DepthLimitedSearch, KIND
);

/// Solves a puzzle with depth-limited search; the limit is `options.depth_limit`, or
/// [`DEFAULT_DEPTH_LIMIT`].
pub fn solve<P: Probe>(
    puzzle: &Puzzle,
    options: &SolverOptions,
    search: &mut Search<'_, P>,
) -> SearchEnd {
    let limit = options
        .depth_limit
        .unwrap_or(DEFAULT_DEPTH_LIMIT)
        .min(MAX_DEPTH_LIMIT);
    let mut dls = Dls::new(puzzle, search);
    match dls.run(limit) {
        Err(stop) => SearchEnd::Stopped(stop),
        Ok(false) => {
            dls.report_rows();
            SearchEnd::Unsolvable(Some(limit))
        }
        Ok(true) => {
            dls.report_rows();
            let found = std::mem::take(&mut dls.dfs.path);
            match dls.shorten(puzzle, found) {
                Ok(moves) => SearchEnd::Found(moves),
                Err(stop) => SearchEnd::Stopped(stop),
            }
        }
    }
}

struct Dls<'s, 'p, P: Probe> {
    search: &'s mut Search<'p, P>,
    dfs: DfsState,
    frames: Vec<Frame<()>>,
    /// Counters per depth, grown as the search goes deeper.
    rows: Vec<DepthStats>,
}

impl<'s, 'p, P: Probe> Dls<'s, 'p, P> {
    fn new(puzzle: &Puzzle, search: &'s mut Search<'p, P>) -> Self {
        Dls {
            search,
            dfs: DfsState::new(puzzle),
            frames: Vec::new(),
            rows: Vec::new(),
        }
    }

    /// The search; leaves the solution in `path` and returns `true` when it finds one.
    fn run(&mut self, limit: u32) -> Result<bool, Stop> {
        self.search
            .probe
            .event(|| Event::IterationStarted { depth: limit });
        walk(self, limit)
    }

    /// Hands the per-depth rows to the probe, shallowest first.
    fn report_rows(&mut self) {
        for row in std::mem::take(&mut self.rows) {
            self.search.finish_depth(row);
        }
    }

    /// A solution, as (robot index, direction), with removable moves removed (see the module
    /// documentation). Fails when a limit strikes before no move can be removed: a half-trimmed
    /// answer is not the algorithm's answer.
    fn shorten(
        &mut self,
        puzzle: &Puzzle,
        mut moves: Vec<(usize, Direction)>,
    ) -> Result<Vec<Move>, Stop> {
        let start = puzzle.robot_cells();
        'shorter: loop {
            let len = moves.len();
            for i in (0..len).rev() {
                self.search.poll()?;
                let trial = without(&moves, &[i]);
                if self.solves(&start, &trial) {
                    moves = trial;
                    continue 'shorter;
                }
            }
            for j in (0..len).rev() {
                for i in (0..j).rev() {
                    self.search.poll()?;
                    let trial = without(&moves, &[i, j]);
                    if self.solves(&start, &trial) {
                        moves = trial;
                        continue 'shorter;
                    }
                }
            }
            break;
        }
        Ok(moves
            .into_iter()
            .map(|(robot, dir)| Move::new(self.dfs.colors[robot], dir))
            .collect())
    }

    /// Whether `moves` played from `start` are legal under the puzzle's rules and end on the
    /// target.
    fn solves(&self, start: &[Cell], moves: &[(usize, Direction)]) -> bool {
        if (moves.len() as u32) < self.dfs.min_len {
            return false;
        }
        let mut cells = start.to_vec();
        let mut last_dir = vec![None; cells.len()];
        for &(robot, dir) in moves {
            if self.dfs.no_rebound && last_dir[robot] == Some(dir.opposite()) {
                return false;
            }
            let to = self.dfs.tables.slide(&cells, robot, dir);
            if to == cells[robot] {
                return false;
            }
            cells[robot] = to;
            last_dir[robot] = Some(dir);
        }
        self.dfs.at_goal(&cells)
    }
}

impl<P: Probe> TreeSearch for Dls<'_, '_, P> {
    type Note = ();

    fn dfs(&mut self) -> &mut DfsState {
        &mut self.dfs
    }

    fn frames(&mut self) -> &mut Vec<Frame<()>> {
        &mut self.frames
    }

    /// Opens a level of the search, growing the stack only within the memory limit.
    fn push_frame(&mut self, frame: Frame<()>) -> Result<(), Stop> {
        if self.frames.len() == self.frames.capacity() {
            let more = self.frames.capacity().max(64);
            let levels = self.frames.capacity() + more;
            let per_level = std::mem::size_of::<Frame<()>>()
                + std::mem::size_of::<(usize, Direction)>()
                + std::mem::size_of::<DepthStats>();
            self.search.set_memory(levels.saturating_mul(per_level))?;
            self.frames
                .try_reserve(more)
                .map_err(|_| Stop::MemoryLimit)?;
            self.dfs
                .path
                .try_reserve(more)
                .map_err(|_| Stop::MemoryLimit)?;
            self.rows.try_reserve(more).map_err(|_| Stop::MemoryLimit)?;
        }
        self.frames.push(frame);
        Ok(())
    }

    /// The next move to try from the node of frame `top` (at depth `g`): its robot, direction
    /// and stop cell. Advances the frame past it and counts the reversals it skips.
    fn next_move(&mut self, top: usize, g: u32) -> Option<(usize, Direction, Cell)> {
        let hits = &mut self.rows[top].hits;
        self.dfs
            .next_move(&mut self.frames[top].next, g, |_| true, || *hits += 1)
    }

    /// Counts and examines the current node at depth `g`.
    fn visit(&mut self, g: u32, limit: u32) -> Result<Visit<()>, Stop> {
        let depth = g as usize;
        if depth == self.rows.len() {
            self.rows.push(DepthStats {
                depth: g,
                ..DepthStats::default()
            });
        }
        self.rows[depth].nodes += 1;
        if self.dfs.enter(self.search, g)? {
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
        Ok(Visit::Expand(()))
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Rules, format_moves};
    use crate::solver::{Limits, NoProbe, Outcome};
    use crate::testing::*;

    #[test]
    fn dls_solves_the_small_board_within_its_default_limit() {
        let puzzle = small();
        let report = run(NAME, &puzzle, None);
        let found = moves(&report);
        assert!((5..=10).contains(&found), "{found}");
        // One row per depth down to the default limit.
        assert_eq!(report.depths.len(), 11);
        assert!(report.depths.iter().any(|row| row.hits > 0));
    }

    #[test]
    fn a_limit_at_the_optimum_finds_it_and_one_below_proves_there_is_none() {
        assert_eq!(moves(&run(NAME, &small(), Some(5))), 5);
        assert_eq!(
            run(NAME, &small(), Some(4)).outcome,
            Outcome::Unsolvable { within: Some(4) }
        );
        assert_eq!(moves(&run(NAME, &five_robots(), Some(9))), 9);
        assert_eq!(moves(&run(NAME, &small_vortex(), Some(10))), {
            let optimum = moves(&run("bfs", &small_vortex(), None));
            assert!(optimum <= 10);
            moves(&run(NAME, &small_vortex(), Some(optimum as u32)))
        });
    }

    #[test]
    fn nothing_within_the_limit_is_unsolvable_within_it() {
        let report = run(NAME, &corridor(true, Rules::default()), None);
        assert_eq!(report.outcome, Outcome::Unsolvable { within: Some(10) });
        let ricochet = Rules {
            ricochet: true,
            no_rebound: false,
        };
        // The reversals the ricochet rule needs are tried.
        assert_eq!(moves(&run(NAME, &corridor(false, ricochet), None)), 3);
    }

    #[test]
    fn a_huge_limit_stops_at_the_memory_limit_instead_of_overflowing() {
        // An unsolvable 6x6 puzzle: the tree search goes ever deeper through cycles.
        let puzzle = crate::model::random::random_puzzle(6, 6, 2, 3, 10_003).unwrap();
        assert_eq!(
            run("bfs", &puzzle, None).outcome,
            Outcome::Unsolvable { within: None }
        );
        let limit = 1 << 14;
        let report = run_to_memory_limit(NAME, &puzzle, Some(u32::MAX), limit);
        // The stack was not grown past the limit, and the peak says what was held.
        assert!(report.peak_memory > limit / 2, "{}", report.peak_memory);
    }

    #[test]
    fn a_limit_that_strikes_while_trimming_reports_the_stop_not_the_long_answer() {
        // The depth-1000 search of the small board meets a 965-move solution at once; its
        // trimming takes far longer than the time allowed.
        let (puzzle, deep) = (small(), depth_limited(Some(1000)));
        let limits = Limits {
            time: Some(std::time::Duration::from_millis(200)),
            ..Limits::default()
        };
        let report = report_with(NAME, &puzzle, &deep, &limits, &mut NoProbe);
        assert_eq!(report.outcome, Outcome::TimeLimit);
        assert!(report.elapsed < std::time::Duration::from_secs(5));
        // A cancel during trimming is reported as a cancel.
        let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut probe = CancelAfterSearch {
            cancel: cancel.clone(),
        };
        let limits = Limits {
            cancel: Some(cancel),
            ..Limits::default()
        };
        let report = report_with(NAME, &puzzle, &deep, &limits, &mut probe);
        assert_eq!(report.outcome, Outcome::Cancelled);
    }

    /// Sets the cancel flag when the search's rows are reported, that is once the search has
    /// found its answer and before the trimming starts.
    struct CancelAfterSearch {
        cancel: std::sync::Arc<std::sync::atomic::AtomicBool>,
    }

    impl crate::solver::Probe for CancelAfterSearch {
        fn depth_finished(&mut self, _stats: &DepthStats) {
            self.cancel
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    #[test]
    fn depth_limits_past_the_cap_search_to_the_cap() {
        let report = run(NAME, &corridor(true, Rules::default()), Some(u32::MAX));
        assert_eq!(
            report.outcome,
            Outcome::Unsolvable {
                within: Some(MAX_DEPTH_LIMIT)
            }
        );
    }

    #[test]
    fn removable_moves_are_removed_from_anywhere() {
        let puzzle = small();
        let mut probe = NoProbe;
        let mut search = Search::new(&mut probe, &Limits::default());
        let mut dls = Dls::new(&puzzle, &mut search);
        let start = puzzle.robot_cells();
        use Direction::*;
        // Red, green, blue are robots 0, 1, 2; the optimum is RN, GS, RW, RS, RE.
        // A blue excursion to the west and back: each move can go on its own.
        let excursion = vec![
            (0, North),
            (1, South),
            (2, West),
            (2, East),
            (0, West),
            (0, South),
            (0, East),
        ];
        // Green east and back before it moves south: only the pair can go, since without
        // the return green would stop elsewhere and red would miss the target.
        let round_trip = vec![
            (0, North),
            (1, East),
            (1, West),
            (1, South),
            (0, West),
            (0, South),
            (0, East),
        ];
        assert!(!dls.solves(&start, &without(&round_trip, &[1])));
        assert!(!dls.solves(&start, &without(&round_trip, &[2])));
        for padded in [excursion, round_trip] {
            assert!(dls.solves(&start, &padded));
            let shortened = dls.shorten(&puzzle, padded).unwrap();
            assert_eq!(format_moves(&shortened), "RN, GS, RW, RS, RE");
            puzzle.replay(&shortened).unwrap();
        }
    }

    #[test]
    fn rows_and_events_follow_the_search() {
        let (report, probe) = recorded(NAME, &small(), Some(6));
        assert_eq!(probe.depths, report.depths);
        assert_eq!(
            probe.count(|e| matches!(e, Event::Node { .. })),
            report.nodes
        );
        assert_eq!(
            report.depths.iter().map(|row| row.nodes).sum::<u64>(),
            report.nodes
        );
        assert_eq!(
            probe.events.first(),
            Some(&Event::IterationStarted { depth: 6 })
        );
    }
}
