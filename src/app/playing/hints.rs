//! Play mode's hints: `H` (or the Hint button) shows the next level for the current position,
//! from the optimal move count to the whole solution. The move count is the optimum of one
//! solve, and comes at once from the board's finished solve of the same position when an
//! optimal solver made one; the other levels need the first of the sorted optimal solutions,
//! searched for on a worker thread. That search starts with the first request, so that the
//! next levels are ready sooner when asked for (at once when the player thought for longer
//! than it took); it gives way to a solve started meanwhile and starts again when a level
//! needs it. Cancel (or Escape) stops a search the panel is waiting for; a move, a new game
//! or an edit makes the hint stale, and the next request starts again at level 1.

use crate::app::command::Command;
use crate::app::widgets;
use crate::model::{Move, Puzzle};
use crate::solver::analysis::all_solutions::EnumerateError;
use crate::solver::analysis::hints::{Hint, HintLevel};
use crate::solver::{Outcome, Report};
use crate::worker::Drained;
use crate::worker::hint::{HintAnswer, HintResult, spawn_hint_at};
use crate::worker::{Task, Waker};
use std::time::Duration;

/// The time a hint may take before it gives up.
const HINT_TIME_LIMIT: Duration = Duration::from_secs(60);

/// What the hint panel says once a hint was cancelled.
pub(in crate::app) const HINT_CANCELLED: &str = "Hint cancelled.";

/// The hint of one position, and how much of it is shown.
#[derive(Default)]
pub(in crate::app) struct HintState {
    /// The position the hint is for.
    position: Option<Puzzle>,
    /// The level asked for: shown once the hint covers it.
    level: Option<HintLevel>,
    /// A finished run of an optimal solver on the position, for the hint to start from.
    known: Option<Report>,
    /// The position's optimum known from elsewhere (hot/cold, the live optimum) without a
    /// solution: it answers the first level at once.
    known_count: Option<Hint>,
    /// The search for the first solution, which answers every level, under way.
    search: Option<Task<HintResult>>,
    result: Option<Result<Hint, HintFailure>>,
    /// The optimal move count, once known: kept when a later search for more stops, so the
    /// panel still shows it.
    count: Option<usize>,
    /// Whether the last search was cancelled (until the next request).
    cancelled: bool,
    /// How many searches were started for the position.
    searches: usize,
}

/// Why a hint has no answer.
#[derive(Debug, thiserror::Error)]
pub(in crate::app) enum HintFailure {
    /// Its thread could not start.
    #[error("The hint could not start: {0}")]
    Start(std::io::Error),
    /// The search for the first solution failed.
    #[error(transparent)]
    Search(EnumerateError),
    /// Its thread ended without sending one.
    #[error("The hint's thread stopped without an answer.")]
    Lost,
}

impl HintState {
    /// Asks for the next hint level of `position`: the first level when the position is new,
    /// otherwise one level more than asked for before. `board_solve` is a finished run of the
    /// same position, when the board has one: the move count is read from it at once when its
    /// solver is optimal, and the search of the other levels skips its solve. Starts the
    /// search for the first solution unless it is under way or known.
    pub(in crate::app) fn request(
        &mut self,
        position: &Puzzle,
        board_solve: Option<Report>,
        known_count: Option<Hint>,
        waker: Waker,
    ) -> Result<(), HintFailure> {
        if self.position.as_ref() == Some(position) {
            self.level = Some(self.level.map_or(HintLevel::MoveCount, HintLevel::next));
        } else {
            self.forget();
            self.position = Some(position.clone());
            self.level = Some(HintLevel::MoveCount);
        }
        self.cancelled = false;
        if let Some(report) = board_solve.filter(|report| optimum_of(report).is_some()) {
            self.known = Some(report);
        }
        if let Some(hint @ (Hint::MoveCount { .. } | Hint::Unsolvable { within: None })) =
            known_count
        {
            self.known_count = Some(hint);
        }
        self.ensure_answer(waker)
    }

    /// Starts what the level asked for needs: the move count of the known run when it is all
    /// that is asked for and the run has it; then, unless it is under way or known already,
    /// the search for the first solution, which answers every level (from the first, through
    /// the move count its solve sends ahead).
    fn ensure_answer(&mut self, waker: Waker) -> Result<(), HintFailure> {
        let Some(level) = self.level else {
            return Ok(());
        };
        if level == HintLevel::MoveCount
            && !self.covers(level)
            && let Some(hint) = self
                .known
                .as_ref()
                .and_then(optimum_of)
                .or_else(|| self.known_count.clone())
        {
            self.take_result(Ok(hint));
        }
        let Some(position) = &self.position else {
            return Ok(());
        };
        if self.search.is_some() || self.covers(HintLevel::Solution) {
            return Ok(());
        }
        let task = spawn_hint_at(
            position.clone(),
            HintLevel::Solution,
            self.known.clone(),
            Some(HINT_TIME_LIMIT),
            waker,
        )
        .map_err(HintFailure::Start)?;
        self.search = Some(task);
        self.searches += 1;
        Ok(())
    }

    /// Whether the hint known shows everything `level` shows.
    fn covers(&self, level: HintLevel) -> bool {
        match &self.result {
            Some(Ok(hint)) => hint.covers(level),
            Some(Err(_)) => true,
            None => false,
        }
    }

    /// Stops the search the panel is waiting for, if any, and says so: the level asked for
    /// goes back to the last one the hint known covers. Returns whether there was a search to
    /// stop. A search for levels not asked for yet goes on.
    pub(in crate::app) fn cancel(&mut self) -> bool {
        if !self.is_computing() {
            return false;
        }
        let Some(search) = self.search.take() else {
            return false;
        };
        // The thread stops at its next poll of the flag; its answer is not waited for.
        search.cancel();
        self.level = HintLevel::ALL
            .into_iter()
            .rev()
            .find(|&level| self.result.is_some() && self.covers(level));
        self.cancelled = true;
        true
    }

    /// Drops the hint (the position changed); a running computation is cancelled.
    pub(in crate::app) fn forget(&mut self) {
        if let Some(search) = &self.search {
            search.cancel();
        }
        *self = HintState::default();
    }

    /// Stops a search for levels not asked for yet, so that it does not take cores from a
    /// solve; the level that needs it starts it again.
    pub(in crate::app) fn give_way(&mut self) {
        if !self.is_computing()
            && let Some(search) = self.search.take()
        {
            search.cancel();
        }
    }

    /// Takes the worker's answers that have come: the move count sent ahead, then the hint.
    pub(in crate::app) fn drain(&mut self) {
        let Some(search) = &self.search else {
            return;
        };
        let mut answers = Vec::new();
        let drained = search.drain(|answer| {
            let last = !matches!(&answer, Ok(HintAnswer { partial: true, .. }));
            answers.push(answer);
            last
        });
        for answer in answers {
            match answer {
                Ok(HintAnswer {
                    hint,
                    solve,
                    partial,
                }) => {
                    // The solve made for this answer is what a later search starts from, so
                    // that it does not solve again.
                    if let Some(solve) = solve.filter(|report| optimum_of(report).is_some()) {
                        self.known = Some(solve);
                    }
                    // The move count sent ahead never takes the place of more.
                    if !partial || !self.covers(HintLevel::MoveCount) {
                        self.take_result(Ok(hint));
                    }
                }
                Err(error) => self.take_result(Err(HintFailure::Search(error))),
            }
        }
        match drained {
            Drained::Waiting => return,
            Drained::Finished => {}
            Drained::Lost => {
                self.take_result(Err(HintFailure::Lost));
            }
        }
        self.search = None;
    }

    /// Keeps an answer, and the move count it tells.
    fn take_result(&mut self, result: Result<Hint, HintFailure>) {
        match &result {
            Ok(Hint::MoveCount { moves }) => self.count = Some(*moves),
            Ok(Hint::Solved { solution }) => self.count = Some(solution.len()),
            _ => {}
        }
        self.result = Some(result);
    }

    /// Whether the level asked for is being computed (not only the levels after it).
    pub(in crate::app) fn is_computing(&self) -> bool {
        self.search.is_some() && self.level.is_some_and(|level| !self.covers(level))
    }

    /// Whether the last search was cancelled and nothing was asked for since.
    pub(in crate::app) fn is_cancelled(&self) -> bool {
        self.cancelled
    }

    /// How many searches were started for the position.
    pub(in crate::app) fn searches(&self) -> usize {
        self.searches
    }

    /// What the hint knows of its position's optimum: the position, its optimal move count
    /// and, once the search found it, an optimal solution from it.
    pub(in crate::app) fn optimum(&self) -> Option<(&Puzzle, usize, Option<&[Move]>)> {
        let position = self.position.as_ref()?;
        match &self.result {
            Some(Ok(Hint::Solved { solution })) => {
                Some((position, solution.len(), Some(solution.as_slice())))
            }
            _ => self.count.map(|count| (position, count, None)),
        }
    }

    /// The position the hint belongs to.
    pub(in crate::app) fn position(&self) -> Option<&Puzzle> {
        self.position.as_ref()
    }

    /// The lines shown: `Moves: N` first, then what the level adds; while a search for more
    /// is under way, what is known already; empty before any answer.
    pub(in crate::app) fn lines(&self) -> Vec<String> {
        // The first level shows the move count alone: a search for the later levels that
        // stopped or failed says so once one of them is asked for.
        if let (Some(HintLevel::MoveCount), Some(count)) = (self.level, self.count) {
            return vec![format!("Moves: {count}")];
        }
        let mut lines = match (&self.result, self.level) {
            (Some(Ok(hint)), Some(level)) => hint.lines(level),
            (Some(Err(error)), _) => vec![error.to_string()],
            _ => Vec::new(),
        };
        // A search for more that a limit stopped does not take back the move count known.
        if let (Some(Ok(Hint::Stopped { .. } | Hint::Unknown { .. })), Some(count)) =
            (&self.result, self.count)
        {
            lines[0] = format!("Moves: {count}");
        }
        lines
    }

    /// The hint's part of the play panel: a Hint button, while a search runs a spinner and
    /// its Cancel button, and the lines shown.
    pub(in crate::app) fn ui(&self, ui: &mut egui::Ui, commands: &mut Vec<Command>) {
        ui.separator();
        let label = match self.level {
            Some(level) if self.result.is_some() && level < HintLevel::Solution => "More hint",
            _ => "Hint",
        };
        if ui
            .button(label)
            .on_hover_text("The next hint for this position (H)")
            .clicked()
        {
            commands.push(Command::Hint);
        }
        if self.is_computing() {
            // Wrapped, so that Cancel hint moves below the spinner in a narrow panel, not past its edge.
            ui.horizontal_wrapped(|ui| {
                widgets::calm_spinner(ui, None);
                ui.label("Computing a hint…");
                if ui
                    .button("Cancel hint")
                    .on_hover_text("Stop computing the hint (Esc)")
                    .clicked()
                {
                    commands.push(Command::CancelHint);
                }
            });
        }
        for line in self.lines() {
            ui.label(egui::RichText::new(line).monospace());
        }
        if self.cancelled {
            ui.label(HINT_CANCELLED);
        }
    }
}

/// The hint a finished run gives at once: the move count of an optimal solver's solution, or
/// its proof that no solution exists. The worker replayed the solution on the position before
/// calling the run solved; a solver that does not guarantee optimal answers gives nothing.
fn optimum_of(report: &Report) -> Option<Hint> {
    if !report.from_optimal_solver() {
        return None;
    }
    match &report.outcome {
        Outcome::Solved { moves } => Some(Hint::MoveCount { moves: moves.len() }),
        Outcome::Unsolvable { within: None } => Some(Hint::Unsolvable { within: None }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direction, Move, RobotColor};

    fn report(solver: &'static str, outcome: Outcome) -> Report {
        Report {
            solver,
            outcome,
            depths: Vec::new(),
            elapsed: Duration::ZERO,
            peak_memory: 0,
            nodes: 0,
            threads: 1,
            cpu_millis: None,
            huge_page_bytes: None,
        }
    }

    #[test]
    fn only_an_optimal_solvers_finished_answer_gives_the_move_count() {
        let moves = vec![
            Move {
                robot: RobotColor::Red,
                dir: Direction::North,
            };
            7
        ];
        let solved = Outcome::Solved { moves };
        assert_eq!(
            optimum_of(&report("fast", solved.clone())),
            Some(Hint::MoveCount { moves: 7 })
        );
        assert_eq!(optimum_of(&report("dls", solved.clone())), None);
        assert_eq!(optimum_of(&report("no-such-solver", solved)), None);
        assert_eq!(
            optimum_of(&report("iddfs", Outcome::Unsolvable { within: None })),
            Some(Hint::Unsolvable { within: None })
        );
        // A proof within a depth limit says nothing of longer solutions.
        let bounded = Outcome::Unsolvable { within: Some(10) };
        assert_eq!(optimum_of(&report("iddfs", bounded)), None);
        for stopped in [Outcome::Cancelled, Outcome::TimeLimit, Outcome::NotFound] {
            assert_eq!(optimum_of(&report("fast", stopped)), None);
        }
    }

    // Problem: after a level-1 hint from the hint's own worker, level 2 solved the position
    // again. The worker's solve is kept, and the next search starts from it.
    #[test]
    fn a_later_level_starts_from_the_solve_the_first_level_made() {
        let puzzle = crate::model::samples::fogleman_22();
        let waker: Waker = std::sync::Arc::new(|_| {});
        let mut hints = HintState::default();
        hints.request(&puzzle, None, None, waker.clone()).unwrap();
        let started = std::time::Instant::now();
        while hints.is_computing() && started.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(20));
            hints.drain();
        }
        assert_eq!(hints.lines(), ["Moves: 22"]);
        let known = hints.known.as_ref().expect("the level-1 solve is kept");
        assert!(optimum_of(known).is_some());
        assert_eq!(hints.searches(), 1);
    }

    // Problem: right after a move whose optimum hot/cold had shown, a level-1 hint solved
    // the position again (4.4 s on a 24-move game). The count known answers at once; the
    // search for the later levels starts beside it.
    #[test]
    fn a_count_known_elsewhere_answers_the_first_level_without_a_search() {
        let puzzle = crate::model::samples::fogleman_22();
        let waker: Waker = std::sync::Arc::new(|_| {});
        let mut hints = HintState::default();
        let known = Hint::MoveCount { moves: 22 };
        hints
            .request(&puzzle, None, Some(known), waker.clone())
            .unwrap();
        assert!(!hints.is_computing());
        assert_eq!(hints.lines(), ["Moves: 22"]);
        // A position known to have no solution needs no search at all.
        let mut hints = HintState::default();
        let none = Hint::Unsolvable { within: None };
        hints.request(&puzzle, None, Some(none), waker).unwrap();
        assert!(!hints.is_computing());
        assert_eq!(hints.searches(), 0);
    }

    // Problem: a level 2-4 search stopped by its time limit showed "Moves: unknown", though
    // the move count was known. The count stays.
    #[test]
    fn a_stopped_search_for_more_keeps_the_move_count() {
        let mut hints = HintState {
            level: Some(HintLevel::MoveCount),
            ..HintState::default()
        };
        hints.take_result(Ok(Hint::MoveCount { moves: 17 }));
        hints.level = Some(HintLevel::Robots);
        hints.take_result(Ok(Hint::Stopped {
            stop: crate::solver::Stop::TimeLimit,
        }));
        let lines = hints.lines();
        assert_eq!(lines[0], "Moves: 17");
        assert!(lines[1].contains("time-limit"), "{lines:?}");
    }

    // The search for the later levels starts with the first; its failure is not the first
    // level's to show.
    #[test]
    fn the_first_level_shows_the_move_count_alone_when_the_search_for_more_stopped() {
        let mut hints = HintState {
            level: Some(HintLevel::MoveCount),
            ..HintState::default()
        };
        hints.take_result(Ok(Hint::MoveCount { moves: 17 }));
        hints.take_result(Ok(Hint::Stopped {
            stop: crate::solver::Stop::TimeLimit,
        }));
        assert_eq!(hints.lines(), ["Moves: 17"]);
        hints.level = Some(HintLevel::Robots);
        assert_eq!(hints.lines().len(), 2);
    }
}
