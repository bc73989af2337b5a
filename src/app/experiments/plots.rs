//! The Experiments window's plots: time against required moves with its spread, hit rate per
//! move count, total hit rate, and the distribution of required moves; a shared legend that
//! hides solvers; clicked points select their configurations.

use super::*;
use crate::app::run::plot_export::{title_row_ui, write_chart};
use crate::app::run::plots::{every_whole_mark, moves_marks, seconds_label, whole_marks};
use crate::study::experiment::charts::{self, PlotInput, PlotKind};

/// A time given as log10 seconds, written for a person.
pub(super) fn log_seconds_text(exponent: f64) -> String {
    let seconds = 10f64.powf(exponent).clamp(0.0, 1e9);
    crate::study::format::format_time(Duration::from_secs_f64(seconds))
}

pub(super) fn legend() -> Legend {
    Legend::default()
        .follow_insertion_order(true)
        .position(Corner::LeftTop)
}

/// One legend for the four plots, above them: a plot's own legend of ten or more solvers
/// would cover its lines. A click on a solver hides it in every plot, or shows it again.
pub(super) fn shared_legend_ui(
    ui: &mut egui::Ui,
    all: &[SolverSeries],
    hidden: &mut BTreeSet<String>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Solvers (click to hide or show):");
        for s in all {
            let shown = !hidden.contains(&s.solver);
            let color = theme::series(s.color_index);
            let swatch = if shown {
                color
            } else {
                color.gamma_multiply(0.2)
            };
            let text_color = if shown {
                ui.visuals().text_color()
            } else {
                ui.visuals().weak_text_color()
            };
            // Swatch and name are one widget, so a wrapped row never parts them.
            let galley = ui.painter().layout_no_wrap(
                s.title.clone(),
                egui::TextStyle::Body.resolve(ui.style()),
                text_color,
            );
            let swatch_size = 12.0;
            let size = egui::vec2(
                swatch_size + 5.0 + galley.size().x,
                galley.size().y.max(swatch_size),
            );
            let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
            response.widget_info(|| {
                egui::WidgetInfo::selected(
                    egui::Role::CheckBox,
                    ui.is_enabled(),
                    shown,
                    format!("{} in the plots", s.title),
                )
            });
            if response.hovered() {
                ui.painter().rect_filled(
                    rect.expand(2.0),
                    3.0,
                    ui.visuals().widgets.hovered.bg_fill,
                );
            }
            let swatch_rect = egui::Rect::from_center_size(
                egui::pos2(rect.left() + swatch_size / 2.0, rect.center().y),
                egui::vec2(swatch_size, swatch_size),
            );
            ui.painter().rect_filled(swatch_rect, 2.0, swatch);
            ui.painter().galley(
                egui::pos2(
                    rect.left() + swatch_size + 5.0,
                    rect.center().y - galley.size().y / 2.0,
                ),
                galley,
                text_color,
            );
            let response = response.on_hover_text(format!(
                "{}: {:.1}% optimal; click to {} it in the plots",
                s.solver,
                s.total_hit_rate,
                if shown { "hide" } else { "show" }
            ));
            if response.clicked() && !hidden.remove(&s.solver) {
                hidden.insert(s.solver.clone());
            }
        }
        if !hidden.is_empty() && ui.small_button("Show all").clicked() {
            hidden.clear();
        }
    });
}

pub(super) fn plots_ui(ui: &mut egui::Ui, view: &mut ExperimentsView, native_dialogs: bool) {
    // The exported picture starts above the legend, which names the plots' colours.
    let top = ui.cursor().min;
    let all = series::solver_series(&view.summary);
    shared_legend_ui(ui, &all, &mut view.hidden);
    let hidden = &view.hidden;
    let current: Vec<SolverSeries> = all
        .into_iter()
        .filter(|s| !hidden.contains(&s.solver))
        .collect();
    let compared = view.comparison.as_ref().map(|c| {
        let series = series::solver_series(&c.summary)
            .into_iter()
            .filter(|s| !hidden.contains(&s.solver))
            .collect::<Vec<_>>();
        (c.name.clone(), series)
    });
    if view.records.is_empty() && compared.is_none() {
        // Axes around nothing look broken; say what would fill them instead. There is
        // nothing to export either.
        view.set_plots_rect(None);
        let height = ((ui.available_height() - 40.0) / 2.0).max(80.0);
        for row in [
            [PlotKind::Time, PlotKind::HitRate],
            [PlotKind::TotalHitRate, PlotKind::Distribution],
        ] {
            ui.columns(2, |columns| {
                for (column, kind) in columns.iter_mut().zip(row) {
                    // The same row as with data, its button off, so nothing moves when the
                    // first rows come.
                    let _ = title_row_ui(
                        column,
                        kind.title(view.optimal_only),
                        None,
                        kind.name(),
                        false,
                        native_dialogs,
                    );
                    column.allocate_ui(egui::vec2(column.available_width(), height), |ui| {
                        crate::app::run::plots::no_data_ui(
                            ui,
                            "Start an experiment or open a results file.",
                        );
                    });
                }
            });
        }
        return;
    }
    let width = ui.available_width();
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let (plot_height, lower_height) =
        plot_heights(ui.available_height(), current.len(), row_height);
    let mut clicked: Option<Selection> = None;
    let distribution = series::distribution_points(&view.summary);
    let compared_distribution = view
        .comparison
        .as_ref()
        .map(|c| (c.name.clone(), series::distribution_points(&c.summary)));
    let input = PlotInput {
        current: &current,
        compared: compared
            .as_ref()
            .map(|(name, series)| (name.as_str(), series.as_slice())),
        distribution: &distribution,
        compared_distribution: compared_distribution
            .as_ref()
            .map(|(_, points)| points.as_slice()),
        optimal_only: view.optimal_only,
    };
    let mut export: Option<(PlotKind, PathBuf)> = None;
    let mut title = |ui: &mut egui::Ui, kind: PlotKind| {
        if let Some(path) = title_row_ui(
            ui,
            kind.title(view.optimal_only),
            None,
            kind.name(),
            true,
            native_dialogs,
        ) {
            export = Some((kind, path));
        }
    };
    ui.columns(2, |columns| {
        title(&mut columns[0], PlotKind::Time);
        if let Some(s) = time_plot(
            &mut columns[0],
            &current,
            compared.as_ref(),
            view.optimal_only,
            plot_height,
        ) {
            clicked = Some(s);
        }
        title(&mut columns[1], PlotKind::HitRate);
        if let Some(s) = hit_rate_plot(&mut columns[1], &current, compared.as_ref(), plot_height) {
            clicked = Some(s);
        }
    });
    ui.columns(2, |columns| {
        title(&mut columns[0], PlotKind::TotalHitRate);
        if let Some(s) = total_hit_plot(&mut columns[0], &current, compared.as_ref(), lower_height)
        {
            clicked = Some(s);
        }
        title(&mut columns[1], PlotKind::Distribution);
        if let Some(s) = distribution_plot(
            &mut columns[1],
            &distribution,
            compared_distribution.as_ref(),
            lower_height,
        ) {
            clicked = Some(s);
        }
    });
    let bottom = ui.cursor().min.y;
    // A margin at the sides so that the titles' first letters are in the picture, none above
    // the legend, so that no part of the row above it is. The margin is narrower than the
    // window's own, so that its border and what lies behind it stay out.
    let margin = (ui.style().spacing.window_margin.leftf() - 2.0).clamp(1.0, 4.0);
    view.set_plots_rect(Some(
        egui::Rect::from_min_max(
            egui::pos2(top.x - margin, top.y),
            egui::pos2(top.x + width + margin, bottom + 4.0),
        )
        .intersect(ui.clip_rect()),
    ));
    if let Some((kind, path)) = export {
        let chart = charts::chart(kind, input);
        match write_chart(&chart, &path) {
            Ok(note) => view.note(note),
            Err(error) => view.error(error.to_string()),
        }
    }
    if clicked.is_some() {
        view.selection = clicked;
    }
}

/// The heights of the upper plots (time, hit rate) and the lower ones (total hit rate,
/// configurations) in `available` points: halves, unless the bar chart needs a line of
/// `row_height` per solver for its names, which it then takes from the upper plots. Neither
/// row goes below a readable 160 points: when the window is too short for that, the plots
/// scroll.
fn plot_heights(available: f32, solvers: usize, row_height: f32) -> (f32, f32) {
    const READABLE: f32 = 160.0;
    let both = (available - 60.0).max(0.0);
    let bars = solvers as f32 * row_height + 60.0;
    let lower = (both / 2.0).max(bars).max(READABLE);
    ((both - lower).max(READABLE), lower)
}

pub(super) fn time_plot(
    ui: &mut egui::Ui,
    current: &[SolverSeries],
    compared: Option<&(String, Vec<SolverSeries>)>,
    optimal_only: bool,
    height: f32,
) -> Option<Selection> {
    let count = current.len().max(1) as f64;
    let response = Plot::new("experiment-time")
        .show_crosshair(false)
        .height(height)
        .x_axis_label("required moves")
        // A linear axis of whole move counts, a label at each one that fits.
        .x_grid_spacer(moves_marks)
        .x_axis_formatter(|mark, _| format!("{:.0}", mark.value))
        .y_axis_label("time")
        .y_grid_spacer(whole_marks)
        .y_axis_formatter(|mark, _| seconds_label(mark.value))
        .label_formatter(|hover| match hover {
            egui_plot::HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => Some(format!(
                "{plot_name}\n{:.0} moves, mean {}",
                position.x,
                log_seconds_text(position.y)
            )),
            egui_plot::HoverPosition::Elsewhere { .. } => None,
        })
        .include_y(-3.0)
        .include_y(0.0)
        .allow_scroll(false)
        .show(ui, |plot| {
            for (i, s) in current.iter().enumerate() {
                let color = theme::series(s.color_index);
                let means = if optimal_only {
                    &s.mean_optimal
                } else {
                    &s.mean_all
                };
                plot.add(
                    Line::new(s.title.clone(), means.clone())
                        .color(color)
                        .width(2.0),
                );
                plot.add(
                    Points::new(s.title.clone(), means.clone())
                        .color(color)
                        .radius(3.0),
                );
                if !optimal_only {
                    let offset = (i as f64 - (count - 1.0) / 2.0) * 0.8 / count;
                    let boxes = s
                        .spread
                        .iter()
                        .map(|(moves, q)| {
                            BoxElem::new(
                                moves + offset,
                                BoxSpread::new(q[0], q[1], q[2], q[3], q[4]),
                            )
                            .box_width(0.6 / count)
                            .whisker_width(0.4 / count)
                            .fill(color.gamma_multiply(0.25))
                            .stroke(egui::Stroke::new(1.0, color))
                        })
                        .collect();
                    let title = s.title.clone();
                    plot.add(
                        BoxPlot::new(s.title.clone(), boxes)
                            .color(color)
                            .element_formatter(Box::new(move |elem, _| {
                                let q = &elem.spread;
                                format!(
                                    "{}, {:.0} moves\nmax {}\nupper quartile {}\nmedian {}\nlower quartile {}\nmin {}",
                                    title,
                                    elem.argument.round(),
                                    log_seconds_text(q.upper_whisker),
                                    log_seconds_text(q.quartile3),
                                    log_seconds_text(q.median),
                                    log_seconds_text(q.quartile1),
                                    log_seconds_text(q.lower_whisker),
                                )
                            })),
                    );
                }
            }
            if let Some((name, series)) = compared {
                for s in series {
                    let means = if optimal_only {
                        &s.mean_optimal
                    } else {
                        &s.mean_all
                    };
                    plot.add(
                        Line::new(format!("{} ({name})", s.title), means.clone())
                            .color(theme::series(s.color_index))
                            .style(LineStyle::dashed_loose())
                            .width(1.5),
                    );
                }
            }
            clicked_point(plot)
        });
    response.inner.map(|point| {
        series::select_nearest(current, point.x, point.y, |s| {
            if optimal_only {
                &s.mean_optimal
            } else {
                &s.mean_all
            }
        })
    })
}

pub(super) fn hit_rate_plot(
    ui: &mut egui::Ui,
    current: &[SolverSeries],
    compared: Option<&(String, Vec<SolverSeries>)>,
    height: f32,
) -> Option<Selection> {
    let response = Plot::new("experiment-hit-rate")
        .show_crosshair(false)
        .height(height)
        .x_axis_label("required moves")
        // A linear axis of whole move counts, a label at each one that fits.
        .x_grid_spacer(moves_marks)
        .x_axis_formatter(|mark, _| format!("{:.0}", mark.value))
        .y_axis_label("hit rate")
        .y_axis_formatter(|mark, _| format!("{:.0}%", mark.value))
        .include_y(0.0)
        .include_y(105.0)
        .allow_scroll(false)
        .show(ui, |plot| {
            for s in current {
                let color = theme::series(s.color_index);
                plot.add(
                    Line::new(s.title.clone(), s.hit_rate.clone())
                        .color(color)
                        .width(2.0),
                );
                plot.add(
                    Points::new(s.title.clone(), s.hit_rate.clone())
                        .color(color)
                        .radius(3.0),
                );
            }
            if let Some((name, series)) = compared {
                for s in series {
                    plot.add(
                        Line::new(format!("{} ({name})", s.title), s.hit_rate.clone())
                            .color(theme::series(s.color_index))
                            .style(LineStyle::dashed_loose())
                            .width(1.5),
                    );
                }
            }
            clicked_point(plot)
        });
    response
        .inner
        .map(|point| series::select_nearest(current, point.x, point.y, |s| &s.hit_rate))
}

pub(super) fn total_hit_plot(
    ui: &mut egui::Ui,
    current: &[SolverSeries],
    compared: Option<&(String, Vec<SolverSeries>)>,
    height: f32,
) -> Option<Selection> {
    // Horizontal bars, so the solvers' names fit beside them on the axis, first at the top.
    let count = current.len();
    let row = move |i: usize| (count - 1 - i) as f64;
    let titles = bar_titles(current);
    // The axis is as wide as the longest name, so none is cut.
    let axis_font = egui::TextStyle::Body.resolve(ui.style());
    let widest = titles
        .iter()
        .map(|title| {
            ui.painter()
                .layout_no_wrap(title.clone(), axis_font.clone(), egui::Color32::WHITE)
                .size()
                .x
        })
        .fold(60.0_f32, f32::max);
    let body_size = egui::TextStyle::Body.resolve(ui.style()).size;
    let text_color = ui.visuals().text_color();
    // Room right of a full bar for its "100.0%", whatever the plot's width: the label takes
    // a fixed width in points, so the narrower the plot, the more of the axis it needs (at a
    // fixed 125% a narrow window cut it to "100.0").
    let label_width = ui
        .painter()
        .layout_no_wrap("100.0%".to_string(), axis_font.clone(), text_color)
        .size()
        .x
        + 16.0;
    let plot_width = (ui.available_width() - widest - 12.0).max(2.0 * label_width);
    let axis_end = f64::from(101.5 / (1.0 - label_width / plot_width)).max(115.0);
    let response = Plot::new("experiment-total-hit-rate")
        .show_crosshair(false)
        .height(height)
        .x_axis_label("hit rate")
        .x_axis_formatter(|mark, _| format!("{:.0}%", mark.value))
        .custom_y_axes(vec![
            AxisHints::new_y()
                .formatter(move |mark, _| {
                    let index = mark.value.round();
                    if (mark.value - index).abs() < 1e-6 && index >= 0.0 && (index as usize) < count
                    {
                        titles
                            .get(count - 1 - index as usize)
                            .cloned()
                            .unwrap_or_default()
                    } else {
                        String::new()
                    }
                })
                // One name per bar, even when the bars are close together.
                .label_spacing(9.0..=12.0)
                .min_thickness(widest + 12.0),
        ])
        .y_grid_spacer(every_whole_mark)
        .include_x(0.0)
        .include_x(axis_end)
        .include_y(-0.6)
        .include_y(count.max(1) as f64 - 0.4)
        .allow_scroll(false)
        .allow_drag(false)
        .allow_zoom(false)
        .show(ui, |plot| {
            let width = if compared.is_some() { 0.4 } else { 0.7 };
            let shift = if compared.is_some() { 0.2 } else { 0.0 };
            for (i, s) in current.iter().enumerate() {
                let color = theme::series(s.color_index);
                let bar = Bar::new(row(i) + shift, s.total_hit_rate)
                    .width(width)
                    .fill(color)
                    .name(format!("{}: {:.1}%", s.title, s.total_hit_rate));
                plot.add(
                    BarChart::new(s.title.clone(), vec![bar])
                        .horizontal()
                        .color(color),
                );
                // The percentage in body text and the text colour: a bar's own colour can be
                // pale on the background, and plot text defaults to a small size.
                plot.add(
                    egui_plot::Text::new(
                        format!("{} rate", s.title),
                        PlotPoint::new(s.total_hit_rate + 1.5, row(i) + shift),
                        egui::RichText::new(format!("{:.1}%", s.total_hit_rate))
                            .size(body_size)
                            .color(text_color),
                    )
                    .anchor(egui::Align2::LEFT_CENTER),
                );
            }
            if let Some((name, series)) = compared {
                for s in series {
                    let Some(i) = current.iter().position(|c| c.solver == s.solver) else {
                        continue;
                    };
                    let color = theme::series(s.color_index);
                    let bar = Bar::new(row(i) - 0.2, s.total_hit_rate)
                        .width(width)
                        .fill(color.gamma_multiply(0.35))
                        .stroke(egui::Stroke::new(1.0, color))
                        .name(format!("{} ({name}): {:.1}%", s.title, s.total_hit_rate));
                    plot.add(BarChart::new(name.clone(), vec![bar]).horizontal());
                }
            }
            clicked_point(plot)
        });
    let point = response.inner?;
    let index = point.y.round();
    (index >= 0.0 && (index as usize) < count)
        .then(|| current.get(count - 1 - index as usize))
        .flatten()
        .map(|s| Selection {
            solver: Some(s.solver.clone()),
            moves: None,
        })
}

pub(super) fn distribution_plot(
    ui: &mut egui::Ui,
    distribution: &[[f64; 2]],
    compared: Option<&(String, Vec<[f64; 2]>)>,
    height: f32,
) -> Option<Selection> {
    let response = Plot::new("experiment-distribution")
        .show_crosshair(false)
        .height(height)
        .legend(legend().position(Corner::RightTop))
        .x_axis_label("required moves")
        // A linear axis of whole move counts, a label at each one that fits.
        .x_grid_spacer(moves_marks)
        .x_axis_formatter(|mark, _| format!("{:.0}", mark.value))
        .y_axis_label("configurations")
        .include_y(0.0)
        .allow_scroll(false)
        .show(ui, |plot| {
            let bars = distribution
                .iter()
                .map(|[moves, count]| {
                    Bar::new(*moves, *count)
                        .width(0.7)
                        .name(format!("{moves:.0} moves: {count:.0} configurations"))
                })
                .collect();
            plot.add(BarChart::new("this experiment", bars).color(theme::series(7)));
            if let Some((name, points)) = compared {
                plot.add(
                    Line::new(name.clone(), points.clone())
                        .color(theme::series(3))
                        .style(LineStyle::dashed_loose())
                        .width(1.5),
                );
            }
            clicked_point(plot)
        });
    let point = response.inner?;
    let moves = point.x.round();
    (moves >= 0.0).then_some(Selection {
        solver: None,
        moves: Some(moves as u32),
    })
}

/// The names beside the total hit-rate bars: the legend's titles ("IDDFS (Fogleman)"), so a
/// bar and its legend entry read alike, never the solvers' command-line names.
pub(super) fn bar_titles(current: &[SolverSeries]) -> Vec<String> {
    current.iter().map(|s| s.title.clone()).collect()
}

/// Where the plot was clicked, in plot coordinates.
pub(super) fn clicked_point(plot: &egui_plot::PlotUi<'_>) -> Option<PlotPoint> {
    if plot.response().clicked() {
        plot.pointer_coordinate()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::series::solver_series;
    use super::{bar_titles, plot_heights};

    #[test]
    fn the_bar_chart_gets_a_line_per_solver_and_the_plots_share_what_is_left() {
        // Few solvers: the two rows share the height equally.
        assert_eq!(plot_heights(660.0, 3, 23.0), (300.0, 300.0));
        // Eleven solvers need 313 points for their names; the plots above give up the rest.
        let (upper, lower) = plot_heights(660.0, 11, 23.0);
        assert!(lower >= 11.0 * 23.0 + 60.0, "{lower}");
        assert_eq!(upper + lower, 600.0);
        // A short window keeps both rows readable and every name on the bars' axis: the
        // plots then scroll.
        let (upper, lower) = plot_heights(400.0, 30, 23.0);
        assert_eq!((upper, lower), (160.0, 30.0 * 23.0 + 60.0));
    }
    use crate::study::experiment::record::{Record, Status};
    use crate::study::experiment::stats::summarize;
    use std::collections::BTreeSet;

    #[test]
    fn the_bars_name_the_solvers_as_the_legend_does() {
        let records: Vec<Record> = ["iddfs", "fast", "graph-v2"]
            .into_iter()
            .map(|solver| Record {
                config: 0,
                config_seed: 0,
                puzzle: String::new(),
                solver: solver.into(),
                required_moves: Some(5),
                found_moves: Some(5),
                status: Status::Optimal,
                millis: 1.0,
                nodes: 1,
                peak_memory_bytes: 0,
            })
            .collect();
        let series = solver_series(&summarize(&records));
        let legend: BTreeSet<String> = series.iter().map(|s| s.title.clone()).collect();
        let bars: BTreeSet<String> = bar_titles(&series).into_iter().collect();
        assert_eq!(bars, legend);
        assert!(bars.contains("IDDFS (Fogleman)"), "{bars:?}");
        assert!(!bars.contains("iddfs"), "{bars:?}");
    }
}
