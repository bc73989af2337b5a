//! Small widgets shared by the panels, each with an accessible name.

use egui::emath::Numeric;
use std::ops::RangeInclusive;

/// A label and a number field tied to it, so the field is announced (and found by tests)
/// under the label's text.
pub fn labeled_drag<N: Numeric>(
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
pub fn color_swatch(ui: &mut egui::Ui, color: egui::Color32) {
    let size = egui::Vec2::splat(ui.text_style_height(&egui::TextStyle::Body) * 0.8);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    ui.painter()
        .circle_filled(rect.center(), size.x * 0.5, color);
}

/// Where the app's windows first open: centred near the top, over the board, clear of the
/// menu bar.
pub fn window_position<'a>(window: egui::Window<'a>, ctx: &egui::Context) -> egui::Window<'a> {
    let area = ctx.content_rect();
    window
        .pivot(egui::Align2::CENTER_TOP)
        .default_pos(egui::pos2(area.center().x, area.top() + 70.0))
}

/// Formats a duration for tables: "412 ms", "3.27 s", "2 min 05 s".
pub fn format_duration(duration: std::time::Duration) -> String {
    let secs = duration.as_secs_f64();
    if secs < 0.01 {
        format!("{:.2} ms", secs * 1000.0)
    } else if secs < 1.0 {
        format!("{:.0} ms", secs * 1000.0)
    } else if secs < 60.0 {
        format!("{secs:.2} s")
    } else {
        let whole = duration.as_secs();
        format!("{} min {:02} s", whole / 60, whole % 60)
    }
}

/// Formats a count with thin groups of three digits: "47 612 050".
pub fn format_count(count: u64) -> String {
    let digits = count.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// Formats bytes as MiB or KiB.
pub fn format_bytes(bytes: usize) -> String {
    if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
    } else {
        format!("{:.0} KiB", bytes as f64 / 1024.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn numbers_and_durations_read_well() {
        assert_eq!(format_count(0), "0");
        assert_eq!(format_count(999), "999");
        assert_eq!(format_count(1000), "1 000");
        assert_eq!(format_count(47_612_050), "47 612 050");
        assert_eq!(format_duration(Duration::from_millis(412)), "412 ms");
        assert_eq!(format_duration(Duration::from_micros(310)), "0.31 ms");
        assert_eq!(format_duration(Duration::from_millis(3270)), "3.27 s");
        assert_eq!(format_duration(Duration::from_secs(125)), "2 min 05 s");
    }
}
