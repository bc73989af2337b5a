//! Small widgets shared by the panels, each with an accessible name.

use egui::emath::Numeric;
use std::ops::RangeInclusive;

/// A label and a number field tied to it, so the field is announced (and found by tests)
/// under the label's text.
pub(super) fn labeled_drag<N: Numeric>(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut N,
    range: RangeInclusive<N>,
) -> egui::Response {
    let label = ui.label(label);
    ui.add(egui::DragValue::new(value).range(range))
        .labelled_by(label.id)
}

/// A small disc of colour before a choice, so colours read at a glance.
///
/// It answers clicks, so that a dot beside a choice chooses it as its label does.
pub(super) fn color_swatch(ui: &mut egui::Ui, color: egui::Color32) -> egui::Response {
    let size = egui::Vec2::splat(ui.text_style_height(&egui::TextStyle::Body) * 0.8);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
    ui.painter()
        .circle_filled(rect.center(), size.x * 0.5, color);
    response
}

/// Shows `add_contents` in a strip of `height` points across the whole width, so that what
/// follows stays in place whether the strip shows one line, several or nothing: the strip
/// takes exactly its height, whatever its contents measure (to a fraction of a point), and
/// what would run below it is clipped.
pub(super) fn reserved<R>(
    ui: &mut egui::Ui,
    height: f32,
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let size = egui::vec2(ui.available_width(), height);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    let mut strip = ui.new_child(
        egui::UiBuilder::new()
            .max_rect(rect)
            .layout(egui::Layout::top_down(egui::Align::Min)),
    );
    // Clipped below only: sideways the strip draws as far as the panel does.
    let below = egui::Rect::from_x_y_ranges(ui.clip_rect().x_range(), rect.y_range());
    strip.set_clip_rect(below.intersect(ui.clip_rect()));
    add_contents(&mut strip)
}

/// The height of `lines` lines of body text, for [`reserved`].
pub(super) fn text_lines(ui: &egui::Ui, lines: f32) -> f32 {
    ui.text_style_height(&egui::TextStyle::Body) * lines
        + ui.spacing().item_spacing.y * (lines - 1.0)
}

/// The height of `rows` rows of buttons or checkboxes, for [`reserved`].
pub(super) fn widget_rows(ui: &egui::Ui, rows: f32) -> f32 {
    let spacing = ui.spacing();
    spacing.interact_size.y * rows + spacing.item_spacing.y * (rows - 1.0)
}

/// Where the app's windows first open: centred near the top, over the board, clear of the
/// menu bar.
pub(super) fn window_position<'a>(
    window: egui::Window<'a>,
    ctx: &egui::Context,
) -> egui::Window<'a> {
    // A window taller than the room under its top scrolls rather than running off the
    // bottom of the app's window (Help at 1024x700 did).
    placed(window, ctx)
        .vscroll(true)
        .max_height(window_max_height(ctx))
}

/// Centred near the top, over the board, clear of the menu bar: where every app window
/// first opens.
fn placed<'a>(window: egui::Window<'a>, ctx: &egui::Context) -> egui::Window<'a> {
    let area = ctx.content_rect();
    window
        .pivot(egui::Align2::CENTER_TOP)
        .default_pos(egui::pos2(area.center().x, area.top() + WINDOW_TOP))
}

/// A short form's window (a few fields and a button) where [`window_position`] puts
/// windows, always as tall as its contents: a window that scrolls opens at egui's default
/// height, which left empty room under a short form. Its contents grow it (a progress bar,
/// a message) and shrink it back.
pub(super) fn form_window_position<'a>(
    window: egui::Window<'a>,
    ctx: &egui::Context,
) -> egui::Window<'a> {
    placed(window, ctx).auto_sized()
}

/// Shows a window placed as [`window_position`] places it, as tall as its contents up to the
/// room there is, where they scroll: for a window whose contents grow from a short form (a
/// test's verdict below the fields). A window that scrolls by egui's own switch opens at
/// egui's default height whatever its contents, leaving empty room under a short form.
pub(super) fn show_placed<R>(
    window: egui::Window<'_>,
    ctx: &egui::Context,
    add_contents: impl FnOnce(&mut egui::Ui) -> R,
) -> Option<egui::InnerResponse<Option<R>>> {
    let max_height = window_max_height(ctx);
    placed(window, ctx)
        .resizable([true, false])
        // The room the contents may take; the window is only as tall as they are.
        .default_height(max_height)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical()
                .max_height(max_height)
                .auto_shrink([false, true])
                .show(ui, add_contents)
                .inner
        })
}

/// The tallest a window placed by [`window_position`] may be: the room under its top.
pub(super) fn window_max_height(ctx: &egui::Context) -> f32 {
    (ctx.content_rect().height() - WINDOW_TOP - WINDOW_FRAME).max(120.0)
}

/// Where a window's top starts below the app window's top.
const WINDOW_TOP: f32 = 70.0;

/// The room a window's title bar and frame take, and a margin under it.
const WINDOW_FRAME: f32 = 60.0;

/// The space between groups of three digits: a thin space, narrower than the gap between
/// words or table columns, so that "21 135 552" reads as one number.
const DIGIT_GROUP_SEPARATOR: char = '\u{2009}';

/// Formats a count with thin groups of three digits: "47 612 050".
pub fn format_count(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 * 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(DIGIT_GROUP_SEPARATOR);
        }
        out.push(c);
    }
    out
}

/// A table value laid out with tabular figures: digits (and the rest) in the monospace font,
/// so that columns of numbers line up digit under digit, and the thin group separators in the
/// body font, where they are narrow (in a monospace font every space is a full digit wide).
pub(super) fn table_value(
    ui: &egui::Ui,
    text: &str,
    color: egui::Color32,
) -> egui::text::LayoutJob {
    let style = ui.style();
    let mono = egui::TextStyle::Monospace.resolve(style);
    let body = egui::TextStyle::Body.resolve(style);
    let mut job = egui::text::LayoutJob::default();
    let format = |font: egui::FontId| egui::TextFormat {
        font_id: font,
        color,
        valign: egui::Align::Center,
        ..Default::default()
    };
    let mut run = String::new();
    for c in text.chars() {
        if c == DIGIT_GROUP_SEPARATOR {
            job.append(&run, 0.0, format(mono.clone()));
            run.clear();
            job.append(&c.to_string(), 0.0, format(body.clone()));
        } else {
            run.push(c);
        }
    }
    job.append(&run, 0.0, format(mono));
    job
}

/// How often a [`calm_spinner`] turns: often enough to look alive, rarely enough that a
/// long run does not redraw the whole window at the display's rate (under a software
/// renderer that took a core from the solver beside it).
const SPINNER_FRAME: std::time::Duration = crate::app::RUN_REFRESH;

/// A spinner for long work, `size` points square (a button's height when `None`), that asks
/// for a repaint four times a second rather than every frame as egui's own does; it turns
/// with the time, so it turns just as fast, in coarser steps.
pub(super) fn calm_spinner(ui: &mut egui::Ui, size: Option<f32>) -> egui::Response {
    let size = size.unwrap_or(ui.spacing().interact_size.y);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::hover());
    response.widget_info(|| egui::WidgetInfo::new(egui::Role::ProgressIndicator));
    if ui.is_rect_visible(rect) {
        let color = ui.visuals().strong_text_color();
        let radius = rect.width().min(rect.height()) * 0.5 - 2.0;
        let points = (radius.round() as usize).clamp(8, 128);
        let time = ui.input(|input| input.time);
        // The same sweep as egui's spinner: a turn a second, an arc that grows and shrinks.
        let start = time * std::f64::consts::TAU;
        let end = start + 240f64.to_radians() * time.sin();
        let line: Vec<egui::Pos2> = (0..points)
            .map(|i| {
                let angle = start + (end - start) * i as f64 / points as f64;
                let (sin, cos) = angle.sin_cos();
                rect.center() + radius * egui::vec2(cos as f32, sin as f32)
            })
            .collect();
        ui.painter()
            .add(egui::Shape::line(line, egui::Stroke::new(3.0, color)));
        ui.ctx().request_repaint_after(SPINNER_FRAME);
    }
    response
}

/// "red" → "Red".
pub(super) fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A label of at most `rows` lines, ended with "…" when the text needs more, and shown in
/// full on hover.
pub(in crate::app) fn clipped_label(
    ui: &mut egui::Ui,
    text: egui::RichText,
    rows: usize,
) -> egui::Response {
    let full = text.text().to_string();
    let mut job = egui::text::LayoutJob::default();
    text.append_to(
        &mut job,
        ui.style(),
        egui::FontSelection::Default,
        egui::Align::Min,
    );
    job.wrap = egui::text::TextWrapping {
        max_rows: rows,
        max_width: ui.available_width(),
        break_anywhere: false,
        overflow_character: Some('…'),
    };
    // Wrap mode keeps the rows and width set above; a label's default in a row (as beside
    // "Optimal") is to extend, and a line wider than the dock shifts the whole dock's content
    // out of its left edge.
    let response = ui.add(egui::Label::new(job).wrap());
    if response.hovered() {
        response.on_hover_text(full)
    } else {
        response
    }
}

/// A button that opens a popup of controls under it, which stays open while they are used:
/// a click inside it, or in the list of a combo box inside it, leaves it open; a click
/// elsewhere, the button again, Escape or [`egui::Ui::close`] closes it.
///
/// egui keeps one popup open at a time, so a menu (such as
/// [`egui::containers::menu::MenuButton`]) closes as soon as a combo box inside it opens its
/// list. This popup keeps whether it is open itself, and stands in egui's slot only while no
/// list holds it, so that Escape still closes the popup before it means anything to the app.
pub(super) struct PopupButton {
    label: egui::WidgetText,
    hint: Option<String>,
}

impl PopupButton {
    /// A popup button with this label.
    pub(super) fn new(label: impl Into<egui::WidgetText>) -> PopupButton {
        PopupButton {
            label: label.into(),
            hint: None,
        }
    }

    /// What the button's tooltip says the popup holds.
    pub(super) fn hint(mut self, hint: impl Into<String>) -> PopupButton {
        self.hint = Some(hint.into());
        self
    }

    /// Shows the button, and the popup with `add_contents` when it is open; returns the
    /// button's response.
    pub(super) fn ui<R>(
        self,
        ui: &mut egui::Ui,
        add_contents: impl FnOnce(&mut egui::Ui) -> R,
    ) -> egui::Response {
        let mut button = ui.button(self.label);
        if let Some(hint) = self.hint {
            button = button.on_hover_text(hint);
        }
        let popup_id = egui::Popup::default_response_id(&button);
        let open_id = popup_id.with("open");
        let ctx = ui.ctx().clone();
        let mut open: bool = ctx.data(|data| data.get_temp(open_id)).unwrap_or(false);
        if button.clicked() {
            open = !open;
        }
        // A list opened from the popup holds egui's slot until it closes; a click meanwhile
        // (on one of its entries, or beside it) is the list's, and closes only the list.
        let list_open = egui::Popup::is_any_open(&ctx) && !egui::Popup::is_id_open(&ctx, popup_id);
        let shown = egui::Popup::menu(&button)
            .id(popup_id)
            .open_bool(&mut open)
            .close_behavior(egui::PopupCloseBehavior::IgnoreClicks)
            .show(add_contents);
        if let Some(shown) = shown
            && open
            && !button.clicked()
            && !list_open
            && shown.response.clicked_elsewhere()
        {
            open = false;
        }
        // egui forgets a popup not asked for again within a frame: this one is asked for at
        // every frame it stays open, unless a list holds the slot.
        if open {
            if !egui::Popup::is_any_open(&ctx) || egui::Popup::is_id_open(&ctx, popup_id) {
                egui::Popup::open_id(&ctx, popup_id);
            }
        } else {
            egui::Popup::close_id(&ctx, popup_id);
        }
        ctx.data_mut(|data| data.insert_temp(open_id, open));
        button
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_groups_are_narrower_than_a_digit_and_digits_are_tabular() {
        let ctx = egui::Context::default();
        let _ = ctx.run_ui(egui::RawInput::default(), |ui| {
            let width = |job: egui::text::LayoutJob| ui.fonts_mut(|f| f.layout_job(job)).size().x;
            let color = egui::Color32::WHITE;
            // The body font has the thin space (no replacement box), and it is narrow.
            let separator = width(table_value(ui, &DIGIT_GROUP_SEPARATOR.to_string(), color));
            let digit = width(table_value(ui, "0", color));
            assert!(
                separator > 0.5 && separator < digit * 0.7,
                "{separator} vs {digit}"
            );
            // Every digit is as wide as every other.
            let widths: Vec<f32> = (0..10)
                .map(|d| width(table_value(ui, &d.to_string(), color)))
                .collect();
            assert!(
                widths.iter().all(|w| (w - widths[0]).abs() < 0.01),
                "{widths:?}"
            );
            assert_eq!(
                width(table_value(ui, &format_count(111_111), color)),
                width(table_value(ui, &format_count(888_888), color))
            );
        });
    }

    #[test]
    fn numbers_and_durations_read_well() {
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(999), "999");
        assert_eq!(format_count(1000), "1\u{2009}000");
        assert_eq!(format_count(47_612_050), "47\u{2009}612\u{2009}050");
    }
}
