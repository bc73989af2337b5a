//! "Export plot..." beside a plot's title: the plot drawn again as a chart
//! ([`crate::print::chart`]) from the numbers it shows, written as SVG or PNG by the file's
//! extension. The path comes from the system's save dialog, or, when the app uses its own file
//! windows, from a path field in a popup under the button.

use crate::print::Rgb;
use crate::print::chart::Chart;
use crate::print::chart_drawing;
use std::path::{Path, PathBuf};

/// The button's text, which tests and screen readers find it by.
pub(in crate::app) const EXPORT_LABEL: &str = "Export plot...";

/// What the button shows.
const BUTTON_TEXT: &str = "Export…";

/// A colour of the app's palette as a chart colour (plot colours are opaque).
pub(in crate::app) fn rgb(color: egui::Color32) -> Rgb {
    Rgb(color.r(), color.g(), color.b())
}

/// A plot's title with its export button at the right end of the same row, which is one
/// button high whether or not the plot has data, so the plot below never moves. The row
/// shows `short` when given (the title as a narrow column has room for), else the title,
/// cut to the room left; the whole title shows on hover and is what screen readers read.
/// Returns where to write the plot when the user chose a file this frame.
pub(in crate::app) fn title_row_ui(
    ui: &mut egui::Ui,
    title: &str,
    short: Option<&str>,
    file_stem: &str,
    enabled: bool,
    native_dialogs: bool,
) -> Option<PathBuf> {
    let height = ui.spacing().interact_size.y;
    let width = ui.available_width();
    ui.allocate_ui_with_layout(
        egui::vec2(width, height),
        egui::Layout::right_to_left(egui::Align::Center),
        |ui| {
            ui.set_min_size(egui::vec2(width, height));
            let chosen = export_button_ui(ui, file_stem, enabled, native_dialogs);
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                let shown = short.unwrap_or(title);
                let response = ui
                    .add(egui::Label::new(shown).truncate())
                    .on_hover_text(title);
                response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, title));
            });
            chosen
        },
    )
    .inner
}

/// The export button alone: the system's save dialog, or a popup with a path field.
pub(in crate::app) fn export_button_ui(
    ui: &mut egui::Ui,
    file_stem: &str,
    enabled: bool,
    native_dialogs: bool,
) -> Option<PathBuf> {
    // A short text, as the row beside it is a plot's title; screen readers and tests find
    // the button by its whole name.
    let response = ui
        .add_enabled(enabled, egui::Button::new(BUTTON_TEXT).small())
        .on_hover_text(
            "Export the plot: write it as an SVG or PNG picture (by the file's extension).",
        );
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, EXPORT_LABEL));
    if native_dialogs {
        if !response.clicked() {
            return None;
        }
        return rfd::FileDialog::new()
            .set_title("Export the plot")
            .add_filter("Picture (SVG or PNG)", &["svg", "png"])
            .set_file_name(format!("{file_stem}.svg"))
            .save_file()
            .map(|path| {
                if path.extension().is_some() {
                    path
                } else {
                    path.with_extension("svg")
                }
            });
    }
    let field_id = response.id.with("path");
    let mut chosen = None;
    egui::Popup::from_toggle_button_response(&response)
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
        .show(|ui| {
            let mut path: String = ui.data_mut(|data| {
                data.get_temp_mut_or_insert_with(field_id, || default_path(file_stem))
                    .clone()
            });
            ui.horizontal(|ui| {
                let label = ui.label("Plot file");
                ui.add(egui::TextEdit::singleline(&mut path).desired_width(320.0))
                    .labelled_by(label.id);
            });
            ui.label(
                egui::RichText::new("Ending in .svg for a drawing, .png for a picture.").weak(),
            );
            if ui.button("Write plot").clicked() {
                chosen = Some(PathBuf::from(path.trim()));
                ui.close();
            }
            ui.data_mut(|data| data.insert_temp(field_id, path));
        });
    chosen
}

/// The path the popup proposes: the plot's name in the user's folder.
fn default_path(file_stem: &str) -> String {
    crate::app::files::user_folder()
        .map(|dir| dir.join(format!("{file_stem}.svg")))
        .unwrap_or_else(|| PathBuf::from(format!("{file_stem}.svg")))
        .display()
        .to_string()
}

/// Writes the chart atomically; the message to show, or why it failed, naming the file.
pub(in crate::app) fn write_chart(chart: &Chart, path: &Path) -> anyhow::Result<String> {
    chart_drawing::save(chart, path)
        .map(|()| format!("Wrote the plot to {}.", path.display()))
        .map_err(|error| anyhow::anyhow!("The plot could not be written: {error}"))
}
