//! The Analyse board window: for every target of the board and a number of seeded random robot
//! deals, the optimal length of each position, solved by the fast solver on a worker task.
//! It shows progress and cancel, a histogram of the optimal lengths, the mean and the share of
//! one- and two-move puzzles, a per-target difficulty heat map on the board, and the hardest
//! positions, each of which opens as the board (asking before unsaved edits are dropped).
//! Positions made to order ([`position_maker`]) share the window.

mod position_maker;

use crate::app::capital;
use crate::app::command::{Command, Pending};
use crate::app::document::draft::Draft;
use crate::app::overlays::{CellFill, CellText, HeatKind, OverlayDrawing};
use crate::app::run::plots::{moves_marks, whole_marks};
use crate::app::theme;
use crate::model::formats::game_id;
use crate::model::{Board, Puzzle};
use crate::study::analyze::{Analysis, AnalyzeConfig};
use crate::worker::analyze::{AnalysisNews, spawn_analysis};
use crate::worker::{Drained, drain_slot};
use crate::worker::{Task, Waker};
use egui_plot::{Bar, BarChart, Plot};
use std::time::Duration;

/// How many hardest positions the window lists.
const HARDEST_SHOWN: usize = 10;

/// The deals per target when none is chosen.
const DEFAULT_DEALS: u32 = 20;

/// The Analyse board window's inputs, run and results.
pub struct AnalyzerView {
    /// Whether the window is open.
    pub open: bool,
    /// Random robot deals per target.
    pub deals: u32,
    /// The seed the deals derive from.
    seed: u64,
    /// Whether the per-target difficulty heat map is drawn on the board.
    heat_map: bool,
    task: Option<Task<AnalysisNews>>,
    progress: (u64, u64),
    /// The board analysed, so that the heat map is drawn only on that board.
    board: Option<Board>,
    analysis: Option<Analysis>,
    error: Option<String>,
    /// Positions made to order from this window.
    pub maker: position_maker::PositionMaker,
}

impl Default for AnalyzerView {
    fn default() -> Self {
        AnalyzerView {
            open: false,
            deals: DEFAULT_DEALS,
            seed: 1,
            heat_map: true,
            task: None,
            progress: (0, 0),
            board: None,
            analysis: None,
            error: None,
            maker: position_maker::PositionMaker::default(),
        }
    }
}

impl AnalyzerView {
    /// Starts analysing the board of `puzzle`; a run under way is cancelled first.
    pub(super) fn start(&mut self, puzzle: &Puzzle, waker: Waker) {
        self.cancel();
        let config = AnalyzeConfig {
            deals: self.deals.max(1),
            seed: self.seed,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            solve_time: Duration::from_secs(60),
            memory_limit: 1 << 30,
        };
        self.analysis = None;
        self.error = None;
        self.progress = (0, 0);
        match spawn_analysis(puzzle.clone(), config, waker) {
            Ok(task) => {
                self.task = Some(task);
                self.board = Some(puzzle.board().clone());
            }
            Err(error) => self.error = Some(format!("The analysis could not start: {error}")),
        }
    }

    /// Asks a run under way to stop; it keeps the positions that finished.
    fn cancel(&self) {
        if let Some(task) = &self.task {
            task.cancel();
        }
    }

    /// Takes the worker's news.
    pub(super) fn drain(&mut self) {
        let drained = drain_slot(&mut self.task, |news| match news {
            AnalysisNews::Progress { done, total } => {
                self.progress = (done, total);
                false
            }
            AnalysisNews::Done(Ok(analysis)) => {
                self.analysis = Some(*analysis);
                true
            }
            AnalysisNews::Done(Err(error)) => {
                self.error = Some(capital(&error.to_string()));
                true
            }
        });
        if drained == Drained::Lost {
            self.error = Some("The analysis's thread stopped without a result.".into());
        }
        self.maker.drain();
    }

    /// Whether an analysis is running.
    pub fn is_running(&self) -> bool {
        self.task.is_some()
    }

    /// The last finished (or cancelled) analysis.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }

    /// The difficulty heat map for `board`: each analysed target's cell tinted by its mean
    /// optimal length (hot = hard) and labelled with it; empty unless the analysis is of this
    /// board's walls and targets, the heat map is on and the window shows (its switch is
    /// there: closed, nothing would say what the colours are or turn them off).
    pub(super) fn heat_layer(&self, board: &Board) -> OverlayDrawing {
        match (&self.analysis, &self.board) {
            (Some(analysis), Some(analysed)) if self.heat_map && self.open && analysed == board => {
                difficulty_layer(analysis)
            }
            _ => OverlayDrawing::default(),
        }
    }
}

/// Each target's cell tinted by its mean optimal length, from the easiest (cold) to the
/// hardest (hot) target of the analysis, with the mean written in the cell.
fn difficulty_layer(analysis: &Analysis) -> OverlayDrawing {
    let summaries = analysis.per_target();
    let means: Vec<f64> = summaries.iter().filter_map(|s| s.mean).collect();
    let low = means.iter().copied().fold(f64::INFINITY, f64::min);
    let high = means.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut drawing = OverlayDrawing::default();
    for summary in summaries {
        let Some(mean) = summary.mean else {
            continue;
        };
        let level = if high > low {
            ((mean - low) / (high - low)) as f32
        } else {
            1.0
        };
        drawing.fills.push(CellFill {
            pos: summary.target.pos,
            kind: HeatKind::Search,
            level: 0.15 + 0.85 * level,
        });
        drawing.texts.push(CellText {
            pos: summary.target.pos,
            line: 4,
            text: format!("{mean:.1}"),
            color: None,
            what: "Mean optimal length".into(),
            dot_when_cramped: true,
        });
    }
    drawing
}

/// What the summary lines say about an analysis.
fn summary_lines(analysis: &Analysis) -> Vec<String> {
    let mut lines = vec![format!(
        "Puzzles solved: {}{}",
        analysis.solved(),
        if analysis.cancelled {
            " (cancelled)"
        } else {
            ""
        }
    )];
    if let Some(mean) = analysis.mean() {
        lines.push(format!("Mean optimal length: {mean:.2} moves"));
    }
    if let Some(share) = analysis.short_share() {
        lines.push(format!("1-2 move puzzles: {:.1}%", share * 100.0));
    }
    lines
}

/// A hardest position's name: its game id when it is a standard game, else its target and
/// deal.
fn position_name(analysis: &Analysis, index: usize) -> String {
    let result = &analysis.results[index];
    game_id::write(&result.puzzle).unwrap_or_else(|_| {
        format!(
            "target {} at {}, deal {}",
            result.target + 1,
            analysis.targets[result.target].pos,
            result.deal + 1
        )
    })
}

/// The window. `open_board` is the board that is open, `puzzle` the same as a puzzle, when it
/// is one.
pub(super) fn analyzer_window(
    ctx: &egui::Context,
    view: &mut AnalyzerView,
    open_board: &Board,
    puzzle: Option<&Puzzle>,
    waker: Waker,
    commands: &mut Vec<Command>,
) {
    let mut open = view.open;
    egui::Window::new("Analyse board")
        .open(&mut open)
        .default_width(400.0)
        .default_pos(egui::pos2(12.0, 60.0))
        .show(ctx, |ui| {
            analyzer_ui(ui, view, open_board, puzzle, waker, commands);
        });
    view.open = open;
}

fn analyzer_ui(
    ui: &mut egui::Ui,
    view: &mut AnalyzerView,
    open_board: &Board,
    puzzle: Option<&Puzzle>,
    waker: Waker,
    commands: &mut Vec<Command>,
) {
    let palette = theme::palette(ui.visuals().dark_mode);
    let running = view.is_running();
    ui.horizontal(|ui| {
        let label = ui.label("Deals per target");
        ui.add_enabled(
            !running,
            egui::DragValue::new(&mut view.deals).range(1..=10_000),
        )
        .labelled_by(label.id);
        let label = ui.label("Seed");
        ui.add_enabled(!running, egui::DragValue::new(&mut view.seed))
            .labelled_by(label.id);
    });
    ui.horizontal(|ui| {
        let start = ui
            .add_enabled(!running && puzzle.is_some(), egui::Button::new("Start"))
            .on_hover_text("Solve every target with this many random robot deals")
            .on_disabled_hover_text("The board must be a valid puzzle to be analysed");
        if start.clicked()
            && let Some(puzzle) = puzzle
        {
            view.start(puzzle, waker.clone());
        }
        if ui
            .add_enabled(view.is_running(), egui::Button::new("Cancel analysis"))
            .clicked()
        {
            view.cancel();
        }
        ui.checkbox(&mut view.heat_map, "Heat map on the board")
            .on_hover_text("Each target tinted by its mean optimal length (hot = hard)");
    });
    if view.is_running() {
        let (done, total) = view.progress;
        let fraction = if total == 0 {
            0.0
        } else {
            done as f32 / total as f32
        };
        ui.add(
            egui::ProgressBar::new(fraction)
                .text(format!("{done} of {total} positions"))
                .animate(true),
        );
    }
    if let Some(error) = &view.error {
        ui.colored_label(palette.error, error);
    }
    ui.separator();
    // The results stay when another board is opened (their positions can still be opened),
    // but they describe the board analysed, so the window says so, and *Find harder* starts
    // from the open board instead of the other board's hardest position.
    let of_open_board = view.board.as_ref() == Some(open_board);
    let hardest = view
        .analysis
        .as_ref()
        .filter(|_| of_open_board)
        .and_then(|a| a.hardest(1).first().map(|r| r.puzzle.clone()));
    position_maker::position_maker_ui(
        ui,
        &mut view.maker,
        puzzle,
        hardest.as_ref(),
        waker.clone(),
        commands,
    );
    ui.separator();
    let Some(analysis) = &view.analysis else {
        ui.label("No data yet: choose the deals and press Start.");
        return;
    };
    if !of_open_board {
        ui.colored_label(
            palette.warning,
            "These results are of another board than the open one, and their positions open \
             that board. Start analyses the open board.",
        );
    }
    for line in summary_lines(analysis) {
        ui.label(line);
    }
    lengths_histogram_ui(ui, analysis);
    ui.label(egui::RichText::new("Hardest positions (click to open)").strong());
    let hardest: Vec<(usize, u32)> = analysis
        .hardest(HARDEST_SHOWN)
        .into_iter()
        .filter_map(|r| {
            let index = analysis.results.iter().position(|x| std::ptr::eq(x, r))?;
            Some((index, r.moves?))
        })
        .collect();
    egui::ScrollArea::vertical()
        .id_salt("analysis-hardest")
        .max_height(180.0)
        .show(ui, |ui| {
            for (index, moves) in hardest {
                let name = position_name(analysis, index);
                let text = format!("{moves} moves: {name}");
                if ui
                    .button(&text)
                    .on_hover_text("Open this position as the board")
                    .clicked()
                {
                    let draft = Draft::from_puzzle(&analysis.results[index].puzzle);
                    commands.push(Command::Guarded(Pending::Replace(
                        Box::new(draft),
                        format!("{moves}-move position {name}"),
                    )));
                }
            }
        });
}

/// The histogram of the optimal lengths found, with whole counts and move counts on its axes.
fn lengths_histogram_ui(ui: &mut egui::Ui, analysis: &Analysis) {
    let distribution = analysis.distribution();
    if distribution.is_empty() {
        ui.label("No data yet: no position was solved.");
    } else {
        let bars: Vec<Bar> = distribution
            .iter()
            .map(|(&moves, &count)| {
                Bar::new(f64::from(moves), count as f64)
                    .width(0.8)
                    .name(format!("{moves} moves: {count}"))
            })
            .collect();
        let top = count_axis_top(&distribution);
        Plot::new("analysis-histogram")
            .height(200.0)
            .x_axis_label("optimal moves")
            .y_axis_label("positions")
            // Whole counts on the count axis, from zero to above the tallest bar, spaced so
            // every mark has its label; whole move counts under the bars.
            .y_grid_spacer(whole_marks)
            .y_axis_formatter(|mark, _| format!("{:.0}", mark.value))
            .x_grid_spacer(moves_marks)
            .x_axis_formatter(|mark, _| format!("{:.0}", mark.value))
            .include_y(0.0)
            .include_y(top)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .show(ui, |plot| {
                plot.bar_chart(BarChart::new("Optimal lengths", bars).color(theme::series(0)));
            });
    }
}

/// The top of the histogram's count axis: a little above the tallest bar, so the axis has a
/// labelled mark at or above it, and at least one.
fn count_axis_top(distribution: &std::collections::BTreeMap<u32, u64>) -> f64 {
    let tallest = distribution.values().copied().max().unwrap_or(0) as f64;
    (tallest * 1.1).max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn the_heat_map_writes_each_targets_mean_in_its_cell_and_the_summary_reads_the_analysis() {
        let puzzle = samples::fogleman_22();
        let config = AnalyzeConfig {
            deals: 2,
            seed: 3,
            threads: 1,
            solve_time: Duration::from_secs(60),
            memory_limit: 1 << 30,
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let analysis = crate::study::analyze::analyze(&puzzle, &config, &cancel, |_| {}).unwrap();
        let drawing = difficulty_layer(&analysis);
        let summaries: Vec<_> = analysis
            .per_target()
            .into_iter()
            .filter(|s| s.mean.is_some())
            .collect();
        assert_eq!(drawing.fills.len(), summaries.len());
        for summary in &summaries {
            let text = format!("{:.1}", summary.mean.unwrap());
            assert!(
                drawing
                    .texts
                    .iter()
                    .any(|t| t.pos == summary.target.pos && t.text == text)
            );
        }
        // The hardest target is the hottest.
        let hardest = summaries
            .iter()
            .max_by(|a, b| a.mean.partial_cmp(&b.mean).unwrap())
            .unwrap();
        let hottest = drawing
            .fills
            .iter()
            .max_by(|a, b| a.level.total_cmp(&b.level))
            .unwrap();
        assert_eq!(hottest.level, 1.0);
        let at_hottest = summaries
            .iter()
            .find(|s| s.target.pos == hottest.pos)
            .unwrap();
        assert_eq!(at_hottest.mean, hardest.mean);
        // Problem: the means showed only as dots, even on 40 px cells. On 40 px cells every
        // mean is written out, on its target's cell.
        let board = puzzle.board();
        let geometry = crate::app::board_paint::geometry::BoardGeometry::fit(
            egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(640.0, 640.0)),
            board.width(),
            board.height(),
        );
        let ctx = egui::Context::default();
        let _ = ctx.run_ui(Default::default(), |_| {});
        let marks = ctx.fonts_mut(|fonts| {
            crate::app::overlays::cell_texts::place_texts(
                fonts,
                &geometry,
                board,
                &drawing.texts,
                &|_| egui::Color32::WHITE,
            )
        });
        assert_eq!(marks.len(), drawing.texts.len());
        for (_, mark) in &marks {
            assert!(matches!(
                mark,
                crate::app::overlays::cell_texts::TextMark::Text { .. }
            ));
        }
        let lines = summary_lines(&analysis);
        assert_eq!(lines[0], format!("Puzzles solved: {}", analysis.solved()));
        assert!(lines[1].starts_with("Mean optimal length: "));
        assert!(lines[2].starts_with("1-2 move puzzles: "));
    }

    #[test]
    fn the_count_axis_has_whole_labelled_marks_up_to_the_tallest_bar() {
        let distribution: std::collections::BTreeMap<u32, u64> =
            [(3, 2), (7, 41), (9, 13)].into_iter().collect();
        let top = count_axis_top(&distribution);
        assert!(top >= 41.0, "{top}");
        // The plot is 200 points high; egui_plot's base step is the value of 8 points.
        let marks = whole_marks(egui_plot::GridInput {
            bounds: (0.0, top),
            base_step_size: top * 8.0 / 200.0,
        });
        let values: Vec<f64> = marks.iter().map(|m| m.value).collect();
        assert!(values.len() >= 3, "{values:?}");
        assert!(values.iter().all(|v| v.fract() == 0.0), "{values:?}");
        assert!(values.iter().any(|&v| v >= 20.0), "{values:?}");
    }
}
