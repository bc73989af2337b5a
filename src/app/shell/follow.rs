//! What the shell does each frame to keep the background work up to the board shown: the
//! slide graph, the exact distance map, the stateless stores, the editor's live optimum and
//! play mode's hot/cold. Each room keeps its own worker's state and knows how to follow a
//! position; this is where the app decides which position, from the document and the mode.

use crate::app::RicochetApp;
use crate::app::document::mode::Mode;
use crate::app::overlays::distance_map::DistanceKey;
use crate::app::playing::hints::HintState;
use crate::model::{Cell, Puzzle, RobotColor};
use crate::solver::Optimality;

impl RicochetApp {
    /// Takes the slide graph's update from its worker, and starts the next one when the graph
    /// layer is on and the graph is not yet brought up to the board as it is now.
    pub(in crate::app) fn sync_graph(&mut self) {
        let current = self.doc.revision();
        self.derived.drain_graph();
        if !self.state.overlays.graph_edges {
            return;
        }
        let waker = self.waker();
        let draft = self.doc.draft();
        let board = &draft.board;
        let robots: Vec<Cell> = draft
            .robots
            .iter()
            .filter(|r| board.contains(r.pos))
            .map(|r| board.cell(r.pos))
            .collect();
        self.derived.follow_graph(current, board, &robots, waker);
    }

    /// The position the exact distance map is for: the game in play, else the board edited.
    pub(in crate::app) fn distance_position(&self) -> Option<Puzzle> {
        if self.state.mode == Mode::Play
            && let Some(play) = &self.play
        {
            return Some(play.position());
        }
        self.doc.validity().as_ref().ok().cloned()
    }

    /// Drains the distance map's worker and follows the position shown.
    pub(in crate::app) fn sync_distances(&mut self) {
        let current = self.doc.revision();
        self.derived.distances_mut(current).drain();
        let settings = &self.state.overlays;
        let wanted = self.distance_position().map(|position| DistanceKey {
            revision: self.doc.revision(),
            position,
            depth: settings.exact_depth,
            memory_mib: settings.exact_memory_mib,
        });
        let on = settings.exact_distances;
        let waker = self.waker();
        self.derived.distances_mut(current).sync(wanted, on, waker);
    }

    /// The robot whose distances the overlay shows.
    pub(in crate::app) fn distance_robot(&self) -> Option<RobotColor> {
        let (key, _) = self.derived.distances(self.doc.revision())?.map()?;
        let robots: Vec<RobotColor> = key.position.robots().iter().map(|r| r.color).collect();
        self.state
            .overlays
            .exact_robot
            .filter(|c| robots.contains(c))
            .or_else(|| robots.first().copied())
    }

    /// The Overlays tab's part for the exact distance map.
    pub(in crate::app) fn distance_map_ui(&mut self, ui: &mut egui::Ui) {
        if !self.state.overlays.exact_distances {
            return;
        }
        let robots: Vec<RobotColor> = self
            .distance_position()
            .map(|p| p.robots().iter().map(|r| r.color).collect())
            .unwrap_or_default();
        ui.separator();
        let current = self.doc.revision();
        self.derived
            .distances_mut(current)
            .ui(ui, &mut self.state.overlays, &robots);
    }

    /// Drains the stores' worker and follows the stateless layer's switch.
    pub(in crate::app) fn sync_stateless(&mut self) {
        let current = self.doc.revision();
        let on = self.state.overlays.stateless;
        let waker = self.waker();
        let state = self.derived.stateless_mut(current);
        state.drain();
        state.sync(self.doc.validity().as_ref().ok(), on, waker);
    }

    /// Keeps the live optimum up to the board: starts a solve for a new revision while the
    /// setting is on and the editor is shown, and takes what the worker sent.
    pub(in crate::app) fn sync_live_optimum(&mut self) {
        if !self.state.view.live_optimum {
            self.live_optimum.clear();
            return;
        }
        if self.state.mode == Mode::Edit {
            let current = self.doc.revision();
            let waker = self.waker();
            let puzzle = self.doc.validity().as_ref().ok();
            self.live_optimum.follow(current, puzzle, waker);
        }
        self.live_optimum.drain();
    }

    /// Keeps hot/cold up to the game in play while the setting is on.
    pub(in crate::app) fn sync_hot_cold(&mut self) {
        let on = self.state.view.hot_cold && self.state.mode == Mode::Play;
        match &self.play {
            Some(play) if on => {
                let current = self.doc.revision();
                // What the board's optimal solve and the hint found is not solved again.
                if let Some(session) = self.derived.session(current)
                    && session.puzzle == *play.start()
                    && session.run.optimality() == Optimality::Guaranteed
                    && let Some(solution) = session.solution()
                {
                    let start = play.start();
                    self.hot_cold
                        .learn(start, start, solution.len(), Some(solution));
                }
                if let Some((position, moves, solution)) =
                    self.derived.hints(current).and_then(HintState::optimum)
                {
                    self.hot_cold.learn(play.start(), position, moves, solution);
                }
                let waker = self.waker();
                self.hot_cold.follow(play, waker);
            }
            // A solve nobody will see is dropped; what was found stays for the game.
            _ => self.hot_cold.drop_solve(),
        }
    }
}
