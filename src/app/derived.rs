//! Everything the app derives from the open board, in one store keyed by the document's
//! revision: the solver panel's run and its rows, the listing of its optimal solutions, the
//! solution played back, the debugged run (and so the overlays it feeds), play mode's hints,
//! the exact distance map, the stateless layer's stores, the slide graph the graph layer
//! follows, and status lines about any of these.
//!
//! Each kind of result sits in a [`Derived`] slot tagged with the revision it was computed on,
//! and a slot hands its value out only to a caller that names the current revision. When the
//! revision moves on, [`DerivedResults::on_revision_change`] drops every slot computed on
//! another one, in this one place. A new kind of result added as a slot here gets both by
//! construction: it cannot be shown on a board it was not made for.
//!
//! The slide graph is the one slot brought forward rather than dropped: it follows the
//! robots edit by edit, so that the graph layer can show the edges an edit changed. A worker
//! brings it up to the current revision ([`DerivedResults::follow_graph`]); it is handed out
//! only once it is there, and a graph of another document is dropped with its update.

use crate::app::debugger::Debugger;
use crate::app::document::Revision;
use crate::app::overlays::distance_map::DistanceMapState;
use crate::app::overlays::stateless_stores::StatelessStoresState;
use crate::app::playing::hints::HintState;
use crate::app::playing::playback::Playback;
use crate::app::run::solutions_list::SolutionsList;
use crate::app::run::solver_panel::SolveSession;
use crate::app::{RicochetApp, theme};
use crate::model::{Board, Cell};
use crate::solver::graph_tracker::GraphTracker;
use crate::worker::graph::spawn_graph_update;
use crate::worker::{Drained, Task, Waker, drain_slot};

/// One result computed from the board, tagged with the revision it was computed on.
#[derive(Debug)]
struct Derived<T> {
    slot: Option<(Revision, T)>,
}

impl<T> Default for Derived<T> {
    fn default() -> Self {
        Derived { slot: None }
    }
}

impl<T> Derived<T> {
    /// The value, when it was computed on `current`.
    fn get(&self, current: Revision) -> Option<&T> {
        match &self.slot {
            Some((revision, value)) if *revision == current => Some(value),
            _ => None,
        }
    }

    /// The value to change, when it was computed on `current`.
    fn get_mut(&mut self, current: Revision) -> Option<&mut T> {
        match &mut self.slot {
            Some((revision, value)) if *revision == current => Some(value),
            _ => None,
        }
    }

    /// Puts a value computed on `revision` in place of the one there was.
    fn set(&mut self, revision: Revision, value: T) {
        self.slot = Some((revision, value));
    }

    /// Takes the value out, whatever its revision.
    fn take(&mut self) -> Option<T> {
        self.slot.take().map(|(_, value)| value)
    }

    /// The revision of the value there is.
    fn revision(&self) -> Option<Revision> {
        self.slot.as_ref().map(|(revision, _)| *revision)
    }

    /// The value of `current` to change, made afresh (empty) when there is none yet.
    fn current_or_default(&mut self, current: Revision) -> &mut T
    where
        T: Default,
    {
        if self.revision() != Some(current) {
            self.slot = None;
        }
        &mut self.slot.get_or_insert_with(|| (current, T::default())).1
    }

    /// Takes the value out when it was computed on another revision than `current`.
    fn take_stale(&mut self, current: Revision) -> Option<T> {
        if self.revision().is_some_and(|revision| revision != current) {
            self.take()
        } else {
            None
        }
    }
}

/// What became of the run of an earlier board: the Run tab says it instead of showing rows
/// that no longer belong to the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::app) struct EarlierRun {
    /// The sentence shown.
    pub(in crate::app) note: String,
}

/// Every result derived from the open board.
#[derive(Default)]
pub(in crate::app) struct DerivedResults {
    /// The revision the store was last brought up to.
    revision: Option<Revision>,
    session: Derived<SolveSession>,
    earlier_run: Derived<EarlierRun>,
    /// A run of an earlier board that was cancelled and has not ended yet: kept only so that
    /// its thread is let go of once it has stopped, never shown.
    retiring: Vec<SolveSession>,
    playback: Derived<Playback>,
    debugger: Derived<Debugger>,
    solutions: Derived<SolutionsList>,
    hints: Derived<HintState>,
    distances: Derived<DistanceMapState>,
    stateless: Derived<StatelessStoresState>,
    /// The slide graph, under the revision it follows; empty while a worker updates it.
    graph: Derived<GraphTracker>,
    /// The worker bringing the slide graph up to the revision it is kept under.
    graph_update: Derived<Task<Box<GraphTracker>>>,
    /// Why the slide graph's update on a revision gave no graph.
    graph_failure: Derived<String>,
}

impl DerivedResults {
    /// Brings the store up to `current`: every result of another revision is dropped (a run
    /// still going is cancelled first, and the Run tab is told why with `reason`, e.g. "the
    /// board was edited"). Returns whether the revision had changed.
    pub(in crate::app) fn on_revision_change(&mut self, current: Revision, reason: &str) -> bool {
        if self.revision == Some(current) {
            return false;
        }
        self.revision = Some(current);
        if let Some(mut session) = self.session.take_stale(current) {
            let note = if session.run.is_finished() {
                "The last run was on the board before the change. Press Solve to run on this one."
                    .to_string()
            } else {
                session.run.cancel();
                session.interrupted = Some(format!("because {reason}"));
                format!(
                    "Cancelled because {reason}; its rows were for the board before the \
                     change. Press Solve to run on this one."
                )
            };
            self.earlier_run.set(current, EarlierRun { note });
            if !session.run.is_finished() {
                self.retiring.push(session);
            }
        }
        self.earlier_run.take_stale(current);
        self.playback.take_stale(current);
        // Dropping a debugger lets go of its handle; its run was cancelled with the solve it belongs to.
        self.debugger.take_stale(current);
        if let Some(mut list) = self.solutions.take_stale(current) {
            list.cancel();
        }
        if let Some(mut hints) = self.hints.take_stale(current) {
            hints.forget();
        }
        if let Some(distances) = self.distances.take_stale(current) {
            distances.cancel();
        }
        if let Some(stateless) = self.stateless.take_stale(current) {
            stateless.cancel();
        }
        // The graph of an earlier revision of this document stays, to be brought forward by
        // the next `follow_graph`, and so does an update under way; neither is handed out
        // until the graph is brought up to `current`. Another document's graph goes, and its
        // update is dropped, which cancels it.
        if self
            .graph
            .revision()
            .or(self.graph_update.revision())
            .is_some_and(|revision| !revision.same_document(current))
        {
            self.graph.take();
            self.graph_update.take();
        }
        self.graph_failure.take_stale(current);
        true
    }

    /// Receives what the retiring runs sent, and lets go of those that have ended.
    pub(in crate::app) fn drain_retiring(&mut self) {
        for session in &mut self.retiring {
            session.run.drain();
        }
        self.retiring.retain(|session| !session.run.is_finished());
    }

    /// The solver panel's run, when it was made on `current`.
    pub(in crate::app) fn session(&self, current: Revision) -> Option<&SolveSession> {
        self.session.get(current)
    }

    /// The run to drain or cancel, when it was made on `current`.
    pub(in crate::app) fn session_mut(&mut self, current: Revision) -> Option<&mut SolveSession> {
        self.session.get_mut(current)
    }

    /// A new run on `current`, in place of the last (which is dropped, and so cancelled); the
    /// solution list, playback and debugged run of the last run go with it.
    pub(in crate::app) fn start_session(&mut self, current: Revision, session: SolveSession) {
        self.session.set(current, session);
        self.earlier_run.take();
        self.playback.take();
        if let Some(mut list) = self.solutions.take() {
            list.cancel();
        }
        self.debugger.take();
    }

    /// What became of the run of an earlier board, said on `current`.
    pub(in crate::app) fn earlier_run(&self, current: Revision) -> Option<&EarlierRun> {
        self.earlier_run.get(current)
    }

    /// Whether the run on `current` is still going.
    pub(in crate::app) fn is_running(&self, current: Revision) -> bool {
        self.session(current).is_some_and(|s| !s.run.is_finished())
    }

    /// The solution played back, when it belongs to `current`.
    pub(in crate::app) fn playback(&self, current: Revision) -> Option<&Playback> {
        self.playback.get(current)
    }

    /// The solution played back, to step.
    pub(in crate::app) fn playback_mut(&mut self, current: Revision) -> Option<&mut Playback> {
        self.playback.get_mut(current)
    }

    /// Plays `playback` on `current`.
    pub(in crate::app) fn set_playback(&mut self, current: Revision, playback: Playback) {
        self.playback.set(current, playback);
    }

    /// Stops showing the solution played back.
    pub(in crate::app) fn close_playback(&mut self) {
        self.playback.take();
    }

    /// The debugged run, when it was started on `current`.
    pub(in crate::app) fn debugger(&self, current: Revision) -> Option<&Debugger> {
        self.debugger.get(current)
    }

    /// The debugged run, to send commands to.
    pub(in crate::app) fn debugger_mut(&mut self, current: Revision) -> Option<&mut Debugger> {
        self.debugger.get_mut(current)
    }

    /// The debugged run whose picture the overlays draw on `current`: while it runs, or once
    /// it has ended by itself; a cancelled run's picture is of a search nobody finished, so
    /// it leaves the board with the run.
    pub(in crate::app) fn debugger_for_overlays(&self, current: Revision) -> Option<&Debugger> {
        let debugger = self.debugger(current)?;
        let cancelled = self.session(current).is_some_and(|s| {
            s.run.is_cancelling()
                || matches!(
                    s.run.end(),
                    Some(crate::worker::RunEnd::Finished(crate::solver::Report {
                        outcome: crate::solver::Outcome::Cancelled,
                        ..
                    }))
                )
        });
        (!cancelled).then_some(debugger)
    }

    /// Keeps the debugged run started on `current`.
    pub(in crate::app) fn set_debugger(&mut self, current: Revision, debugger: Debugger) {
        self.debugger.set(current, debugger);
    }

    /// The listing of the optimal solutions of the run on `current`.
    pub(in crate::app) fn solutions(&self, current: Revision) -> Option<&SolutionsList> {
        self.solutions.get(current)
    }

    /// The listing, to drain or stop.
    pub(in crate::app) fn solutions_mut(
        &mut self,
        current: Revision,
    ) -> Option<&mut SolutionsList> {
        self.solutions.get_mut(current)
    }

    /// A new listing on `current`, in place of the last (which is stopped).
    pub(in crate::app) fn set_solutions(&mut self, current: Revision, list: SolutionsList) {
        if let Some(mut old) = self.solutions.take() {
            old.cancel();
        }
        self.solutions.set(current, list);
    }

    /// Play mode's hint on `current`, made empty when there is none yet.
    pub(in crate::app) fn hints_mut(&mut self, current: Revision) -> &mut HintState {
        self.hints.current_or_default(current)
    }

    /// Play mode's hint, when one was asked for on `current`.
    pub(in crate::app) fn hints(&self, current: Revision) -> Option<&HintState> {
        self.hints.get(current)
    }

    /// The exact distance map on `current`, made empty when there is none yet.
    pub(in crate::app) fn distances_mut(&mut self, current: Revision) -> &mut DistanceMapState {
        self.distances.current_or_default(current)
    }

    /// The exact distance map, when one was made on `current`.
    pub(in crate::app) fn distances(&self, current: Revision) -> Option<&DistanceMapState> {
        self.distances.get(current)
    }

    /// The stateless layer's stores on `current`, made empty when there are none yet.
    pub(in crate::app) fn stateless_mut(&mut self, current: Revision) -> &mut StatelessStoresState {
        self.stateless.current_or_default(current)
    }

    /// The stateless layer's stores, when they were asked for on `current`.
    pub(in crate::app) fn stateless(&self, current: Revision) -> Option<&StatelessStoresState> {
        self.stateless.get(current)
    }

    /// Starts bringing the slide graph up to `current`, whose board and robots are `board` and
    /// `robots`, on a worker: an earlier revision's graph is updated robot by robot (recording
    /// the edges that changed), or built afresh when the walls changed or there is none. Does
    /// nothing while an update is under way (the next call brings its graph forward), once the
    /// graph is up to `current`, or when its update on `current` failed.
    pub(in crate::app) fn follow_graph(
        &mut self,
        current: Revision,
        board: &Board,
        robots: &[Cell],
        waker: Waker,
    ) {
        if self.graph.revision() == Some(current)
            || self.graph_update.revision().is_some()
            || self.graph_failure.get(current).is_some()
        {
            return;
        }
        let tracker = self.graph.take().unwrap_or_default();
        match spawn_graph_update(tracker, board.clone(), robots.to_vec(), waker) {
            Ok(task) => self.graph_update.set(current, task),
            Err(error) => self.graph_failure.set(
                current,
                format!("the slide graph's update could not start: {error}"),
            ),
        }
    }

    /// Takes the slide graph from its worker once the update has ended, under the revision it
    /// was brought up to.
    pub(in crate::app) fn drain_graph(&mut self) {
        let Some(revision) = self.graph_update.revision() else {
            return;
        };
        let mut slot = self.graph_update.take();
        let mut updated = None;
        match drain_slot(&mut slot, |tracker| {
            updated = Some(*tracker);
            true
        }) {
            Drained::Waiting => {
                if let Some(task) = slot {
                    self.graph_update.set(revision, task);
                }
            }
            Drained::Finished => {
                if let Some(tracker) = updated {
                    self.graph.set(revision, tracker);
                }
            }
            Drained::Lost => self.graph_failure.set(
                revision,
                "the slide graph's thread stopped without an answer".to_string(),
            ),
        }
    }

    /// Whether a worker is bringing the slide graph up to date.
    pub(in crate::app) fn is_graph_computing(&self) -> bool {
        self.graph_update.revision().is_some()
    }

    /// Why the slide graph's update on `current` gave no graph.
    fn graph_failure(&self, current: Revision) -> Option<&str> {
        self.graph_failure.get(current).map(String::as_str)
    }

    /// The slide graph, once brought up to `current`.
    pub(in crate::app) fn graph(&self, current: Revision) -> Option<&GraphTracker> {
        self.graph.get(current)
    }

    /// The slide graph of `current`, to check.
    pub(in crate::app) fn graph_mut(&mut self, current: Revision) -> Option<&mut GraphTracker> {
        self.graph.get_mut(current)
    }
}

impl RicochetApp {
    /// Why an overlay layer that is on draws nothing, and how to fill it: one line per such
    /// layer, for the Overlays tab.
    pub fn empty_overlay_notes(&self) -> Vec<String> {
        let settings = &self.state.overlays;
        let current = self.doc.revision();
        let debugged = self.derived.debugger_for_overlays(current);
        let mut notes = Vec::new();
        if settings.search_heat && debugged.is_none() {
            notes.push(
                "Search heat map: there is no debugged run on this board. Tick Debug mode, \
                 press Solve and step or continue: each node the search visits warms its cell."
                    .to_string(),
            );
        }
        if settings.stateless && !debugged.is_some_and(|d| d.is_stateless_run()) {
            let stores = self.derived.stateless(current);
            if let Some(error) = stores.and_then(StatelessStoresState::error) {
                notes.push(format!(
                    "Stateless states: {error}. Turn the layer off and on to run it again."
                ));
            } else if stores.is_some_and(StatelessStoresState::is_computing) {
                notes.push(
                    "Stateless states: the Stateless run on this board is being computed on a \
                     worker thread; its states appear when it ends."
                        .to_string(),
                );
            } else if self.doc.validity().is_err() {
                notes.push(
                    "Stateless states: the board is not a valid puzzle, so there is no run to \
                     show."
                        .to_string(),
                );
            }
        }
        if settings.graph_edges
            && debugged.is_none_or(|d| {
                d.shown_picture()
                    .part::<crate::solver::graph_solver::GraphPicture>()
                    .is_none()
            })
        {
            if let Some(failure) = self.derived.graph_failure(current) {
                notes.push(format!(
                    "Slide-graph edges: {failure}. Edit the board to try again."
                ));
            } else if self.derived.graph(current).is_none() && self.derived.is_graph_computing() {
                notes.push(
                    "Slide-graph edges: the graph of this board is being computed on a worker \
                     thread; its edges appear when it is done."
                        .to_string(),
                );
            }
        }
        let stateless_running =
            debugged.is_some_and(|d| d.is_stateless_run()) && self.derived.is_running(current);
        if settings.stateless && settings.stateless_kinds.intermediates && !stateless_running {
            notes.push(
                "Intermediate states: only a Stateless search under way has them; by its end \
                 each has become a final state. Choose Stateless, tick Debug mode, press \
                 Solve and step to watch them form."
                    .to_string(),
            );
        }
        if settings.solution_path
            && self
                .derived
                .session(current)
                .and_then(SolveSession::solution)
                .is_none()
        {
            let debugged_moves = self
                .debugger_on_board()
                .map(|d| d.shown_view().path.len())
                .filter(|&moves| moves > 0);
            notes.push(match debugged_moves {
                // The debugger draws its node's path with numbered moves too: say whose it is.
                Some(moves) => format!(
                    "Solution path: there is no solution of the board as it is now. The \
                     numbered moves on the board are the debugger's: the path to the node it \
                     shows ({moves} {}), not a solution.",
                    if moves == 1 { "move" } else { "moves" }
                ),
                None => "Solution path: there is no solution of the board as it is now. Press \
                         Solve."
                    .to_string(),
            });
        }
        notes
    }

    /// The Overlays tab's lines on layers that are on but empty.
    pub(in crate::app) fn empty_overlays_ui(&self, ui: &mut egui::Ui) {
        let palette = theme::palette(ui.visuals().dark_mode);
        for note in self.empty_overlay_notes() {
            ui.add(egui::Label::new(egui::RichText::new(note).color(palette.muted)).wrap());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIRST: Revision = Revision::at(0, 0);
    const EDITED: Revision = Revision::at(0, 1);
    const OTHER_BOARD: Revision = Revision::at(1, 0);

    #[test]
    fn a_slot_hands_its_value_only_to_the_revision_it_was_computed_on() {
        let mut slot = Derived::default();
        assert_eq!(slot.get(FIRST), None);
        slot.set(FIRST, "rows");
        assert_eq!(slot.get(FIRST), Some(&"rows"));
        assert_eq!(slot.get(EDITED), None);
        assert_eq!(slot.get_mut(OTHER_BOARD), None);
        assert_eq!(slot.take_stale(FIRST), None, "current: kept");
        assert_eq!(slot.take_stale(OTHER_BOARD), Some("rows"));
        assert_eq!(slot.revision(), None);
    }

    #[test]
    fn a_change_of_revision_drops_every_result_of_the_old_one() {
        let mut store = DerivedResults::default();
        assert!(store.on_revision_change(FIRST, "a board was opened"));
        let puzzle = crate::model::samples::fogleman_22();
        let moves = vec![crate::model::Move {
            robot: crate::model::RobotColor::Red,
            dir: crate::model::Direction::North,
        }];
        store.set_playback(FIRST, Playback::new(puzzle, moves, 0.0));
        store.set_solutions(FIRST, SolutionsList::default());
        store.hints_mut(FIRST);
        store.distances_mut(FIRST);
        store.stateless_mut(FIRST);
        assert!(store.playback(FIRST).is_some());
        assert!(!store.on_revision_change(FIRST, "nothing"), "same revision");
        assert!(store.playback(FIRST).is_some());
        assert!(store.on_revision_change(OTHER_BOARD, "another board was opened"));
        assert!(store.playback(OTHER_BOARD).is_none());
        assert!(store.playback(FIRST).is_none(), "gone, not only hidden");
        assert!(store.solutions(OTHER_BOARD).is_none());
        assert!(store.hints(OTHER_BOARD).is_none());
        assert!(store.distances(OTHER_BOARD).is_none());
        assert!(store.stateless(OTHER_BOARD).is_none());
        assert!(store.session(OTHER_BOARD).is_none());
        assert!(store.earlier_run(OTHER_BOARD).is_none(), "there was no run");
    }

    /// Brings the store's slide graph up to `current` through its worker, waiting for it.
    fn follow_and_wait(
        store: &mut DerivedResults,
        current: Revision,
        board: &Board,
        robots: &[Cell],
    ) {
        let start = std::time::Instant::now();
        store.follow_graph(current, board, robots, std::sync::Arc::new(|_| {}));
        assert!(store.is_graph_computing(), "the update is left to a worker");
        assert!(
            store.graph(current).is_none(),
            "nothing is computed in the call"
        );
        while store.graph(current).is_none() {
            assert!(start.elapsed() < std::time::Duration::from_secs(10));
            std::thread::sleep(std::time::Duration::from_millis(1));
            store.drain_graph();
        }
        assert!(!store.is_graph_computing());
    }

    #[test]
    fn the_slide_graph_follows_the_edits_of_a_document_and_not_another_document() {
        let puzzle = crate::model::samples::fogleman_22();
        let board = puzzle.board();
        let robots: Vec<Cell> = puzzle.robots().iter().map(|r| board.cell(r.pos)).collect();
        let mut store = DerivedResults::default();
        store.on_revision_change(FIRST, "a board was opened");
        follow_and_wait(&mut store, FIRST, board, &robots);
        assert!(store.graph(FIRST).is_some_and(|g| g.changes().is_empty()));

        // An edit moves a robot: the graph is not handed out until brought forward, and then
        // lists the edges the move changed.
        store.on_revision_change(EDITED, "the board was edited");
        assert!(store.graph(EDITED).is_none());
        let free = (0..board.cell_count() as Cell)
            .find(|c| !robots.contains(c) && !board.is_closed(*c))
            .expect("a free cell");
        let mut moved = robots.clone();
        moved[0] = free;
        follow_and_wait(&mut store, EDITED, board, &moved);
        let graph = store.graph(EDITED).expect("brought forward");
        assert!(!graph.changes().is_empty());

        // Another document: the graph goes, and so does an update under way.
        store.on_revision_change(OTHER_BOARD, "another board was opened");
        assert!(store.graph(OTHER_BOARD).is_none());
        assert_eq!(store.graph.revision(), None);
        store.follow_graph(OTHER_BOARD, board, &robots, std::sync::Arc::new(|_| {}));
        let third = Revision::at(2, 0);
        store.on_revision_change(third, "a third board was opened");
        assert!(!store.is_graph_computing());
        assert_eq!(store.graph_update.revision(), None);
    }
}
