//! The exact distance map overlay's computation: for the position shown (the game in play,
//! else the board being edited), a worker task searches every game state to a depth limit
//! within a memory limit, with progress and cancel. The map is tagged with the document's
//! revision and the position; when either changes it is dropped and, while the overlay is on,
//! computed again.

use crate::app::document::Revision;
use crate::app::overlays::OverlaySettings;
use crate::app::{theme, widgets};
use crate::model::{Puzzle, RobotColor};
use crate::solver::Stop;
use crate::solver::analysis::distances::DistanceMap;
use crate::worker::distances::{DistanceNews, DistanceProgress, spawn_distance_map};
use crate::worker::{Drained, drain_slot};
use crate::worker::{Task, Waker};

/// The exact distance map's memory limit when none is chosen, in MiB.
pub(super) const DEFAULT_MEMORY_MIB: u32 = 1024;

/// What a map is computed for: the board's revision, the position and the limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::app) struct DistanceKey {
    /// The document revision the position belongs to.
    pub(in crate::app) revision: Revision,
    /// The position searched from.
    pub(in crate::app) position: Puzzle,
    /// The depth limit.
    pub(in crate::app) depth: u32,
    /// The memory limit in MiB.
    pub(in crate::app) memory_mib: u32,
}

/// The exact distance map of the position shown, computed or being computed.
#[derive(Default)]
pub(in crate::app) struct DistanceMapState {
    key: Option<DistanceKey>,
    task: Option<Task<DistanceNews>>,
    progress: DistanceProgress,
    map: Option<DistanceMap>,
    error: Option<String>,
}

impl DistanceMapState {
    /// Follows the position shown: a map (or a search) for another key is dropped; with the
    /// overlay on and no map or search for `wanted`, a search starts. A search the user
    /// cancelled is not started again until asked ([`DistanceMapState::restart`]).
    pub(in crate::app) fn sync(&mut self, wanted: Option<DistanceKey>, on: bool, waker: Waker) {
        if !on
            || self
                .key
                .as_ref()
                .is_some_and(|key| Some(key) != wanted.as_ref())
        {
            self.forget();
        }
        if !on || self.key.is_some() {
            return;
        }
        let Some(key) = wanted else {
            return;
        };
        let memory = usize::try_from(key.memory_mib)
            .unwrap_or(usize::MAX)
            .saturating_mul(1 << 20);
        match spawn_distance_map(key.position.clone(), key.depth, memory, waker) {
            Ok(task) => self.task = Some(task),
            Err(error) => self.error = Some(format!("The distance map could not start: {error}")),
        }
        self.key = Some(key);
    }

    /// Drops the map, cancelling a search under way.
    fn forget(&mut self) {
        if let Some(task) = &self.task {
            task.cancel();
        }
        *self = DistanceMapState::default();
    }

    /// Drops the map so that the next [`DistanceMapState::sync`] computes it again.
    fn restart(&mut self) {
        self.forget();
    }

    /// Asks the search to stop; it sends the levels that finished.
    pub(in crate::app) fn cancel(&self) {
        if let Some(task) = &self.task {
            task.cancel();
        }
    }

    /// Takes the worker's news.
    pub(in crate::app) fn drain(&mut self) {
        let drained = drain_slot(&mut self.task, |news| match news {
            DistanceNews::Progress(progress) => {
                self.progress = progress;
                false
            }
            DistanceNews::Done(map) => {
                self.map = Some(*map);
                true
            }
        });
        if drained == Drained::Lost {
            self.error = Some("The distance map's thread stopped without a map.".into());
        }
    }

    /// Whether a search is under way.
    fn is_computing(&self) -> bool {
        self.task.is_some()
    }

    /// The map and what it was computed for, once finished.
    pub(in crate::app) fn map(&self) -> Option<(&DistanceKey, &DistanceMap)> {
        Some((self.key.as_ref()?, self.map.as_ref()?))
    }

    /// The overlay's controls and status in the Overlays tab.
    pub(in crate::app) fn ui(
        &mut self,
        ui: &mut egui::Ui,
        settings: &mut OverlaySettings,
        robots: &[RobotColor],
    ) {
        ui.label(egui::RichText::new("Exact distances").strong());
        let name = |color: RobotColor| crate::app::widgets::capitalised(color.name());
        let shown = settings
            .exact_robot
            .filter(|c| robots.contains(c))
            .or_else(|| robots.first().copied());
        ui.horizontal(|ui| {
            egui::ComboBox::from_label("Distances of robot")
                .selected_text(shown.map_or_else(|| "No robot".to_string(), name))
                .show_ui(ui, |ui| {
                    for &color in robots {
                        ui.selectable_value(&mut settings.exact_robot, Some(color), name(color));
                    }
                });
        });
        ui.horizontal(|ui| {
            let label = ui.label("Depth limit");
            ui.add(egui::DragValue::new(&mut settings.exact_depth).range(1..=30))
                .labelled_by(label.id)
                .on_hover_text("Moves searched; cells further away show no number");
            let label = ui.label("Memory limit (MiB)");
            ui.add(
                egui::DragValue::new(&mut settings.exact_memory_mib)
                    .range(16..=65_536)
                    .speed(16),
            )
            .labelled_by(label.id);
        });
        if let Some(error) = &self.error {
            ui.colored_label(theme_error(ui), error);
        }
        let depth = self.key.as_ref().map_or(settings.exact_depth, |k| k.depth);
        if self.is_computing() {
            let progress = self.progress;
            ui.add(
                egui::ProgressBar::new(progress.levels as f32 / depth.max(1) as f32)
                    .text(format!("{} of {depth} moves searched", progress.levels)),
            );
            ui.horizontal(|ui| {
                widgets::calm_spinner(ui, None);
                ui.label(format!(
                    "{} states, {:.0} MiB",
                    progress.states,
                    progress.memory_bytes as f64 / f64::from(1u32 << 20)
                ));
                if ui
                    .button("Cancel distance map")
                    .on_hover_text("Stop the search; the finished levels are kept")
                    .clicked()
                {
                    self.cancel();
                }
            });
        } else if let Some(map) = &self.map {
            let ended = match map.stopped {
                Some(Stop::Cancelled) => " (cancelled)",
                Some(Stop::MemoryLimit) => " (memory limit reached)",
                Some(Stop::TimeLimit) => " (time limit reached)",
                None if map.exhausted => " (every reachable state)",
                None => "",
            };
            ui.label(format!(
                "Exact to {} moves{ended}: {} states in {:.3} s",
                map.depth,
                map.states,
                map.elapsed.as_secs_f64()
            ));
            if map.stopped.is_some()
                && ui
                    .button("Compute again")
                    .on_hover_text("Search again with the limits above")
                    .clicked()
            {
                self.restart();
            }
        } else if robots.is_empty() {
            ui.label("The board is not a valid puzzle: there is no position to search from.");
        }
    }
}

fn theme_error(ui: &egui::Ui) -> egui::Color32 {
    theme::palette(ui.visuals().dark_mode).error
}
