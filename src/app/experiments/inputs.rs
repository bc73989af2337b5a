//! The Experiments window's inputs (the options of `ricochet-lab experiment`) and its
//! controls: Start, Pause, Resume, Cancel, the progress bar, results files and export.

use super::*;
use crate::app::widgets;

pub(super) fn inputs_ui(
    ui: &mut egui::Ui,
    view: &mut ExperimentsView,
    settings: &mut ExperimentSettings,
    current_board: Option<&Puzzle>,
    engines: &EngineList,
    native_dialogs: bool,
) {
    let running = view.run.is_some();
    ui.add_enabled_ui(!running, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label("Boards:");
            ui.radio_value(&mut settings.fixed_board, false, "Standard random boards");
            ui.add_enabled_ui(current_board.is_some(), |ui| {
                ui.radio_value(&mut settings.fixed_board, true, "The current board");
            });
            ui.separator();
            widgets::labeled_drag(ui, "Configurations", &mut settings.configs, 1..=1_000_000);
            widgets::labeled_drag(ui, "Seed", &mut settings.seed, 0..=u64::MAX);
            widgets::labeled_drag(ui, "Robots", &mut settings.robots, 1..=5);
            widgets::labeled_drag(ui, "Threads", &mut settings.threads, 1..=64);
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("Solvers:");
            for id in SolverId::ALL {
                let pick = SolverPick::BuiltIn(id);
                let mut chosen = settings.solvers.contains(&pick);
                if ui.checkbox(&mut chosen, id.kind().title).changed() {
                    settings.solvers.retain(|s| *s != pick);
                    if chosen {
                        settings.solvers.push(pick);
                        // Registry order, then the engines, so that the plots' colours and
                        // columns are stable.
                        settings.solvers.sort_by_key(|pick| {
                            pick.built_in()
                                .and_then(|id| SolverId::ALL.iter().position(|k| *k == id))
                                .unwrap_or(SolverId::ALL.len())
                        });
                    }
                }
            }
            // Registered engines after the built-in solvers, marked as external; they run
            // as the built-in ones do, each answer replayed and judged against the baseline.
            for (name, spec) in engines.registered() {
                let pick = SolverPick::Engine(name);
                let mut chosen = settings.solvers.contains(&pick);
                if ui
                    .checkbox(&mut chosen, format!("{} (external)", spec.name))
                    .on_hover_text(spec.command_line())
                    .changed()
                {
                    settings.solvers.retain(|s| *s != pick);
                    if chosen {
                        settings.solvers.push(pick);
                    }
                }
            }
            // A chosen engine that is no longer registered stays listed, so that it can be
            // unticked; Start says why it cannot run.
            let unregistered: Vec<SolverPick> = settings
                .solvers
                .iter()
                .filter(|pick| engines.resolve(pick).is_err())
                .cloned()
                .collect();
            for pick in unregistered {
                let mut chosen = true;
                if ui
                    .checkbox(&mut chosen, format!("{pick} (not registered)"))
                    .on_hover_text("No engine is registered under this name; untick it, or add the engine again")
                    .changed()
                {
                    settings.solvers.retain(|s| *s != pick);
                }
            }
            ui.separator();
            egui::ComboBox::from_label("Baseline")
                .selected_text(match settings.baseline {
                    SolverPick::BuiltIn(id) => id.kind().title,
                    SolverPick::Engine(_) => "?",
                })
                .show_ui(ui, |ui| {
                    for id in SolverId::ALL
                        .into_iter()
                        .filter(|id| id.kind().optimality == Optimality::Guaranteed)
                    {
                        ui.selectable_value(
                            &mut settings.baseline,
                            SolverPick::BuiltIn(id),
                            id.kind().title,
                        );
                    }
                });
        });
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Time limit per run");
            ui.add(
                egui::DragValue::new(&mut settings.time_limit_secs)
                    .range(0.01..=3600.0)
                    .speed(0.5)
                    .suffix(" s"),
            )
            .labelled_by(label.id);
            let label = ui.label("Memory limit per run");
            ui.add(
                egui::DragValue::new(&mut settings.memory_limit_mib)
                    .range(16..=1_048_576)
                    .speed(16)
                    .suffix(" MiB"),
            )
            .labelled_by(label.id);
            ui.separator();
            let label = ui.label("Output CSV");
            ui.add(egui::TextEdit::singleline(&mut settings.out_path).desired_width(260.0))
                .labelled_by(label.id);
            if native_dialogs
                && ui.button("Choose...").clicked()
                && let Some(path) = rfd::FileDialog::new()
                    .add_filter("CSV", &["csv"])
                    .set_file_name("experiment.csv")
                    .save_file()
            {
                settings.out_path = path.display().to_string();
            }
            if ui
                .add_enabled(view.run.is_none(), egui::Button::new("Open results"))
                .on_hover_text(
                    "Show the rows already in this CSV (from an earlier run here or from \
                     `ricochet-lab experiment`) without running anything.",
                )
                .clicked()
            {
                let path = pick_csv(native_dialogs, &mut settings.out_path);
                view.open_results(&path, settings);
            }
        });
    });
}

pub(super) fn controls_ui(
    ui: &mut egui::Ui,
    view: &mut ExperimentsView,
    settings: &mut ExperimentSettings,
    current_board: Option<&Puzzle>,
    engines: &EngineList,
    native_dialogs: bool,
    waker: &Waker,
) {
    let ctx = ui.ctx().clone();
    ui.horizontal_wrapped(|ui| {
        let running = view.run.is_some();
        let stopping = view.run.as_ref().is_some_and(|r| r.stopping.is_some());
        if ui
            .add_enabled(!running, egui::Button::new("Start"))
            .clicked()
        {
            view.start(settings, current_board, engines, Arc::clone(waker), false);
        }
        if ui
            .add_enabled(running && !stopping, egui::Button::new("Pause"))
            .on_hover_text(
                "Stop now, keeping every finished row; Resume continues from the output file \
                 and runs the interrupted configurations again.",
            )
            .clicked()
        {
            view.pause();
        }
        if ui
            .add_enabled(!running, egui::Button::new("Resume"))
            .on_hover_text(
                "Continue the experiment in the output file, skipping its finished rows.",
            )
            .clicked()
        {
            view.start(settings, current_board, engines, Arc::clone(waker), true);
        }
        if ui
            .add_enabled(running && !stopping, egui::Button::new("Cancel"))
            .clicked()
        {
            view.cancel();
        }
        if let Some((done, total, eta)) = view.progress() {
            let fraction = if total == 0 {
                1.0
            } else {
                done as f32 / total as f32
            };
            let mut text = format!("{done} / {total} runs");
            if let Some(eta) = eta {
                text.push_str(&format!(", ETA {}", crate::study::format::format_eta(eta)));
            }
            if stopping {
                text.push_str(", stopping");
            }
            // The bar's own animation draws its spinner over the start of the text while
            // little is done; the spinner stands beside the bar instead, in a slot kept
            // whether it turns or not, so nothing moves when the run ends.
            ui.add(
                egui::ProgressBar::new(fraction)
                    .desired_width(360.0)
                    .text(text),
            );
            let side = ui.spacing().interact_size.y;
            if running {
                widgets::calm_spinner(ui, Some(side)).widget_info(|| {
                    egui::WidgetInfo::labeled(egui::Role::Status, true, "Experiment running")
                });
            } else {
                ui.add_space(side);
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Compare with CSV");
        ui.add(egui::TextEdit::singleline(&mut settings.compare_path).desired_width(200.0))
            .labelled_by(label.id);
        if ui.button("Load CSV to compare").clicked() {
            let path = pick_csv(native_dialogs, &mut settings.compare_path);
            view.load_comparison(&path);
        }
        if view.comparison.is_some() && ui.button("Stop comparing").clicked() {
            view.comparison = None;
        }
        ui.separator();
        let label = ui.label("Export to");
        ui.add(egui::TextEdit::singleline(&mut settings.export_path).desired_width(200.0))
            .labelled_by(label.id);
        if native_dialogs
            && ui.button("Choose...").clicked()
            && let Some(path) = rfd::FileDialog::new()
                .add_filter("CSV or PNG", &["csv", "png"])
                .save_file()
        {
            settings.export_path = path.with_extension("").display().to_string();
        }
        let base = PathBuf::from(settings.export_path.trim());
        if ui
            .add_enabled(!view.records.is_empty(), egui::Button::new("Export CSV"))
            .clicked()
        {
            view.export_csv(&base.with_extension("csv"));
        }
        if ui
            .add_enabled(
                !view.records.is_empty() && view.tab == Tab::Plots,
                egui::Button::new("Export PNG"),
            )
            .on_hover_text("A picture of the four plots as they are shown.")
            .clicked()
        {
            view.export_png(&ctx, base.with_extension("png"));
        }
    });
    if let Some((text, error)) = &view.message {
        let color = if *error {
            ui.visuals().error_fg_color
        } else {
            ui.visuals().weak_text_color()
        };
        ui.colored_label(color, text);
    }
}

/// The CSV file a button opens: with the system's dialogs, the button asks for it and the
/// field keeps the answer; otherwise the field names it.
pub(super) fn pick_csv(native_dialogs: bool, field: &mut String) -> PathBuf {
    if native_dialogs
        && let Some(path) = rfd::FileDialog::new()
            .add_filter("CSV", &["csv"])
            .pick_file()
    {
        *field = path.display().to_string();
    }
    PathBuf::from(field.trim())
}
