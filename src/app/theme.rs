//! Every colour the app paints with, for the light and the dark look. Nothing else in the
//! app names a colour.

use crate::model::{RobotColor, TargetColor};
use egui::Color32;

/// The colours of the board and of the messages around it.
#[derive(Clone, Copy, Debug)]
pub struct Palette {
    /// The board's background.
    pub board: Color32,
    /// Every other cell, for a faint checker that helps counting.
    pub board_alt: Color32,
    /// The thin lines between cells.
    pub(super) grid_line: Color32,
    /// Walls.
    pub(super) wall: Color32,
    /// Cells closed to robots.
    pub(super) closed: Color32,
    /// The outline of a robot.
    pub(super) robot_outline: Color32,
    /// The ring around the selected robot.
    pub(super) selection: Color32,
    /// The glow under the active target.
    pub(super) goal_glow: Color32,
    /// The ring drawn when the target is reached.
    pub(super) celebration: Color32,
    /// Cells or walls the pointer would change.
    pub(super) hover: Color32,
    /// Cells that make the puzzle invalid.
    pub(super) invalid: Color32,
    /// Small text on the board (coordinates, the minimum-move map).
    pub(super) board_text: Color32,
    /// Error messages.
    pub(super) error: Color32,
    /// Warnings and notes.
    pub(super) warning: Color32,
    /// Good news.
    pub(super) success: Color32,
    /// Muted explanatory text.
    pub(super) muted: Color32,
}

/// The light look.
pub(super) const LIGHT: Palette = Palette {
    board: Color32::from_rgb(244, 240, 230),
    board_alt: Color32::from_rgb(236, 231, 219),
    grid_line: Color32::from_rgb(210, 203, 188),
    wall: Color32::from_rgb(45, 42, 38),
    closed: Color32::from_rgb(95, 90, 84),
    robot_outline: Color32::from_rgb(30, 30, 30),
    selection: Color32::from_rgb(20, 20, 20),
    goal_glow: Color32::from_rgba_premultiplied(250, 200, 40, 150),
    celebration: Color32::from_rgb(230, 170, 0),
    hover: Color32::from_rgba_premultiplied(40, 120, 230, 140),
    invalid: Color32::from_rgb(220, 30, 30),
    board_text: Color32::from_rgb(120, 112, 100),
    error: Color32::from_rgb(200, 30, 30),
    warning: Color32::from_rgb(170, 110, 0),
    success: Color32::from_rgb(30, 140, 60),
    muted: Color32::from_rgb(110, 110, 110),
};

/// The dark look.
const DARK: Palette = Palette {
    board: Color32::from_rgb(52, 54, 60),
    board_alt: Color32::from_rgb(47, 49, 55),
    grid_line: Color32::from_rgb(70, 73, 80),
    wall: Color32::from_rgb(232, 228, 218),
    closed: Color32::from_rgb(24, 25, 28),
    robot_outline: Color32::from_rgb(15, 15, 15),
    selection: Color32::from_rgb(250, 250, 250),
    goal_glow: Color32::from_rgba_premultiplied(200, 160, 30, 120),
    celebration: Color32::from_rgb(255, 205, 60),
    hover: Color32::from_rgba_premultiplied(80, 160, 255, 150),
    invalid: Color32::from_rgb(255, 80, 80),
    board_text: Color32::from_rgb(150, 150, 158),
    error: Color32::from_rgb(255, 110, 110),
    warning: Color32::from_rgb(240, 190, 80),
    success: Color32::from_rgb(110, 210, 130),
    muted: Color32::from_rgb(160, 160, 160),
};

/// The palette for the current look.
pub fn palette(dark_mode: bool) -> &'static Palette {
    if dark_mode { &DARK } else { &LIGHT }
}

/// A robot's body colour: the one table the prints read too ([`crate::print::robot_rgb`]), so
/// a printed or exported board shows the robots as the window does.
pub(super) fn robot(color: RobotColor) -> Color32 {
    let crate::print::Rgb(r, g, b) = crate::print::robot_rgb(color);
    Color32::from_rgb(r, g, b)
}

/// A robot's colour for lines and text drawn on the board: brighter than its body on the
/// dark board and deeper on the light one, so that thin strokes and small digits keep their
/// contrast in both themes.
pub(super) fn robot_text(color: RobotColor, dark_board: bool) -> Color32 {
    match (color, dark_board) {
        (RobotColor::Red, true) => Color32::from_rgb(255, 120, 115),
        (RobotColor::Green, true) => Color32::from_rgb(105, 220, 125),
        (RobotColor::Blue, true) => Color32::from_rgb(125, 175, 255),
        (RobotColor::Yellow, true) => Color32::from_rgb(250, 210, 70),
        (RobotColor::Silver, true) => Color32::from_rgb(215, 220, 230),
        (RobotColor::Red, false) => Color32::from_rgb(190, 25, 30),
        (RobotColor::Green, false) => Color32::from_rgb(20, 125, 45),
        (RobotColor::Blue, false) => Color32::from_rgb(25, 75, 195),
        (RobotColor::Yellow, false) => Color32::from_rgb(150, 105, 0),
        (RobotColor::Silver, false) => Color32::from_rgb(85, 90, 100),
    }
}

/// Black or white, whichever reads better on `fill` laid over `under` (`fill` may be
/// translucent): white on the red and blue robot colours, black on yellow, green and silver,
/// by the relative luminance that contrast ratios are made of.
pub(super) fn text_on(fill: Color32, under: Color32) -> Color32 {
    // Color32 is premultiplied: what shows is the fill plus what its alpha leaves of under.
    let rest = 1.0 - f32::from(fill.a()) / 255.0;
    let mix = |top: u8, bottom: u8| (f32::from(top) + f32::from(bottom) * rest).min(255.0) as u8;
    let shown = Color32::from_rgb(
        mix(fill.r(), under.r()),
        mix(fill.g(), under.g()),
        mix(fill.b(), under.b()),
    );
    let linear = egui::Rgba::from(shown);
    let luminance = 0.2126 * linear.r() + 0.7152 * linear.g() + 0.0722 * linear.b();
    // Where white and black give the same contrast ratio: (1.05 / (L + 0.05)) equals
    // ((L + 0.05) / 0.05) at L = 0.179.
    if luminance < 0.179 {
        Color32::WHITE
    } else {
        Color32::BLACK
    }
}

/// The outline drawn under a path so it stands out from the board in either theme.
pub(super) fn halo(dark_board: bool) -> Color32 {
    if dark_board {
        Color32::from_black_alpha(200)
    } else {
        Color32::from_white_alpha(220)
    }
}

/// A target's colour in the chosen robot palette ([`crate::print::colors::target_rgb`]); the
/// vortex is drawn in all four robot colours by [`vortex`].
pub(super) fn target(color: TargetColor) -> Color32 {
    let crate::print::Rgb(r, g, b) = crate::print::colors::target_rgb(color);
    Color32::from_rgb(r, g, b)
}

/// The vortex's colours, clockwise from the north: the red, blue, green and yellow robots'.
pub(super) fn vortex() -> [Color32; 4] {
    [
        RobotColor::Red,
        RobotColor::Blue,
        RobotColor::Green,
        RobotColor::Yellow,
    ]
    .map(robot)
}

/// The colour of the n-th series in a plot (one per solver): the charts' own table
/// ([`crate::print::chart::series_rgb`]), so that a plot and its exported chart agree for any
/// number of solvers.
pub(super) fn series(index: usize) -> Color32 {
    let crate::print::Rgb(r, g, b) = crate::print::chart::series_rgb(index);
    Color32::from_rgb(r, g, b)
}

/// The colours of the three per-depth counters in the nodes plot.
pub(super) const COUNTER_SERIES: [Color32; 3] = [
    Color32::from_rgb(31, 119, 180),
    Color32::from_rgb(255, 127, 14),
    Color32::from_rgb(44, 160, 44),
];

/// The colours of the overlay layers for one look.
#[derive(Clone, Copy, Debug)]
pub(super) struct OverlayPalette {
    /// A slide-graph edge.
    pub(super) graph_edge: Color32,
    /// An edge changed by the last update, towards its new child.
    pub(super) graph_changed: Color32,
    /// Where a changed edge pointed before.
    pub(super) graph_removed: Color32,
    /// The outline of a cell the robot reaches only with helpers.
    pub(super) needs_helpers: Color32,
}

/// Overlay colours on the light look.
const LIGHT_OVERLAY: OverlayPalette = OverlayPalette {
    graph_edge: Color32::from_rgba_premultiplied(40, 70, 120, 150),
    graph_changed: Color32::from_rgb(220, 60, 160),
    graph_removed: Color32::from_rgb(240, 150, 40),
    needs_helpers: Color32::from_rgb(150, 20, 150),
};

/// Overlay colours on the dark look.
const DARK_OVERLAY: OverlayPalette = OverlayPalette {
    graph_edge: Color32::from_rgba_premultiplied(140, 180, 230, 150),
    graph_changed: Color32::from_rgb(255, 110, 200),
    graph_removed: Color32::from_rgb(250, 170, 60),
    needs_helpers: Color32::from_rgb(255, 120, 255),
};

/// The overlay colours that go with a board palette.
pub(super) fn overlay(palette: &Palette) -> &'static OverlayPalette {
    if palette.board == DARK.board {
        &DARK_OVERLAY
    } else {
        &LIGHT_OVERLAY
    }
}

/// The smallest text the app shows, in points below the body text: captions and notes may be
/// smaller than the body, but never by more than this.
const SMALLEST_BELOW_BODY: f32 = 2.0;

/// Adjusts egui's own styles for both looks: small text no smaller than the body text less
/// [`SMALLEST_BELOW_BODY`], and on the light look, outlines on idle widgets so that
/// checkboxes and fields stand out from the panel (egui draws them as a pale fill only).
pub(super) fn style_app(ctx: &egui::Context) {
    ctx.all_styles_mut(adjust_style);
}

/// [`style_app`] for one style.
fn adjust_style(style: &mut egui::Style) {
    let body = style
        .text_styles
        .get(&egui::TextStyle::Body)
        .map_or(13.0, |font| font.size);
    for font in style.text_styles.values_mut() {
        font.size = font.size.max(body - SMALLEST_BELOW_BODY);
    }
    if !style.visuals.dark_mode {
        let widgets = &mut style.visuals.widgets;
        widgets.inactive.bg_stroke = egui::Stroke::new(1.0, Color32::from_gray(125));
        widgets.inactive.bg_fill = Color32::from_gray(236);
    }
}

/// The smallest font size of a number painted onto the board (the overlays' numbers, the
/// solution path's move numbers): at it a digit's ink stands at least 10 pixels tall in both
/// of egui's fonts, so a number reads on a projector at 1024x700. A number that has no room
/// for it becomes a dot, and hovering its cell lists it in full.
pub(super) const SMALLEST_BOARD_NUMBER: f32 = 14.0;

/// A heat-map tint: `level` 0 is cold (faint), 1 is hot. The minimum-move map runs from pale
/// blue to orange, the search heat map from pale yellow to deep red; both are translucent so
/// the board's checker and walls show through.
pub(super) fn heat(search: bool, level: f32) -> Color32 {
    let t = level.clamp(0.0, 1.0);
    let (cold, hot) = if search {
        ([255.0, 235.0, 120.0], [200.0, 20.0, 30.0])
    } else {
        ([120.0, 170.0, 230.0], [245.0, 130.0, 30.0])
    };
    let mix = |i: usize| (cold[i] + (hot[i] - cold[i]) * t) as u8;
    let alpha = (60.0 + 120.0 * t) as u8;
    Color32::from_rgba_unmultiplied(mix(0), mix(1), mix(2), alpha)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_solver_has_a_series_colour_of_its_own() {
        let colours: std::collections::BTreeSet<[u8; 4]> = (0..crate::solver::SOLVERS.len())
            .map(|i| series(i).to_array())
            .collect();
        assert_eq!(colours.len(), crate::solver::SOLVERS.len());
    }

    #[test]
    fn any_number_of_series_get_colours_that_differ_the_same_each_time() {
        let count = 60;
        let colours: std::collections::BTreeSet<[u8; 4]> =
            (0..count).map(|i| series(i).to_array()).collect();
        assert_eq!(colours.len(), count, "a colour is repeated");
        assert_eq!(series(40), series(40));
        // Every colour is opaque, as a plot line or bar needs.
        assert!((0..count).all(|i| series(i).a() == 255));
    }
}

#[cfg(test)]
mod contrast_tests {
    use super::*;

    /// WCAG's relative luminance of an sRGB colour.
    fn luminance(color: Color32) -> f32 {
        let channel = |c: u8| {
            let c = f32::from(c) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * channel(color.r()) + 0.7152 * channel(color.g()) + 0.0722 * channel(color.b())
    }

    fn contrast(a: Color32, b: Color32) -> f32 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    #[test]
    fn light_checkboxes_stand_out_from_their_panel() {
        let mut style = egui::Style {
            visuals: egui::Visuals::light(),
            ..egui::Style::default()
        };
        adjust_style(&mut style);
        let visuals = &style.visuals;
        let ratio = contrast(visuals.widgets.inactive.bg_stroke.color, visuals.panel_fill);
        assert!(ratio >= 3.0, "checkbox outline on the panel: {ratio:.2}");
        assert!(visuals.widgets.inactive.bg_stroke.width >= 1.0);
    }

    #[test]
    fn no_text_style_is_smaller_than_the_body_less_two_points() {
        for visuals in [egui::Visuals::light(), egui::Visuals::dark()] {
            let mut style = egui::Style {
                visuals,
                ..egui::Style::default()
            };
            adjust_style(&mut style);
            let body = style.text_styles[&egui::TextStyle::Body].size;
            for (name, font) in &style.text_styles {
                assert!(font.size >= body - 2.0, "{name:?} is {}", font.size);
            }
        }
    }

    #[test]
    fn labels_on_robot_coloured_blocks_read_in_both_themes() {
        // The icicle chart's blocks: each robot's colour, full or at 60% over the panel.
        for visuals in [egui::Visuals::light(), egui::Visuals::dark()] {
            let panel = visuals.panel_fill;
            for color in RobotColor::ALL {
                for fill in [robot(color), robot(color).gamma_multiply(0.6)] {
                    let rest = 1.0 - f32::from(fill.a()) / 255.0;
                    let mix = |t: u8, b: u8| (f32::from(t) + f32::from(b) * rest) as u8;
                    let shown = Color32::from_rgb(
                        mix(fill.r(), panel.r()),
                        mix(fill.g(), panel.g()),
                        mix(fill.b(), panel.b()),
                    );
                    let ratio = contrast(text_on(fill, panel), shown);
                    assert!(ratio >= 4.0, "{color:?} block {fill:?}: {ratio:.2}");
                }
            }
        }
    }

    #[test]
    fn robot_text_reads_on_both_boards() {
        for (palette, dark) in [(&LIGHT, false), (&DARK, true)] {
            for color in RobotColor::ALL {
                for board in [palette.board, palette.board_alt] {
                    let ratio = contrast(robot_text(color, dark), board);
                    assert!(ratio >= 3.0, "{color:?} on {board:?}: {ratio:.2}");
                }
            }
        }
    }
}
