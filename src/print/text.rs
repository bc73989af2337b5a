//! Text for charts: one font (the one the app shows, Ubuntu Light), measured here so that a
//! chart's layout knows how wide its labels are, and turned into outlines for the PNG (the
//! SVG keeps text as text, naming the same font).

use super::{Anchor, Point};
use std::sync::LazyLock;
use ttf_parser::{Face, OutlineBuilder};

/// The font family the SVG names, with a fallback for systems without it.
pub const FONT_FAMILY: &str = "Ubuntu, 'DejaVu Sans', Arial, sans-serif";

/// The font, parsed once. It is compiled in, so it parses unless the build itself is broken;
/// then text is measured at a typical width and left out of PNGs rather than failing.
static FACE: LazyLock<Option<Face<'static>>> =
    LazyLock::new(|| Face::parse(epaint_default_fonts::UBUNTU_LIGHT, 0).ok());

/// A typical advance as a share of the font size, for characters the font lacks.
const FALLBACK_ADVANCE: f32 = 0.55;

/// The width of `text` at `size` (the em square), in the unit of `size`.
pub fn width(text: &str, size: f32) -> f32 {
    let Some(face) = FACE.as_ref() else {
        return text.chars().count() as f32 * FALLBACK_ADVANCE * size;
    };
    let per_unit = size / f32::from(face.units_per_em());
    text.chars()
        .map(|c| {
            face.glyph_index(c)
                .and_then(|glyph| face.glyph_hor_advance(glyph))
                .map_or(FALLBACK_ADVANCE * size, |advance| {
                    f32::from(advance) * per_unit
                })
        })
        .sum()
}

/// Where a line of text starts along its own direction, given where its anchor sits.
pub fn start_offset(text: &str, size: f32, anchor: Anchor) -> f32 {
    match anchor {
        Anchor::Start => 0.0,
        Anchor::Middle => -width(text, size) / 2.0,
        Anchor::End => -width(text, size),
    }
}

/// The outlines of a line of text whose anchor sits at `at` on its baseline, reading
/// rightwards or (when `upwards`) upwards; `None` for blank text.
pub fn outline(
    text: &str,
    at: Point,
    size: f32,
    anchor: Anchor,
    upwards: bool,
) -> Option<tiny_skia::Path> {
    let face = FACE.as_ref()?;
    let scale = size / f32::from(face.units_per_em());
    let mut pen = start_offset(text, size, anchor);
    let mut builder = Outliner {
        path: tiny_skia::PathBuilder::new(),
        at,
        scale,
        pen: 0.0,
        upwards,
    };
    for c in text.chars() {
        let Some(glyph) = face.glyph_index(c) else {
            pen += FALLBACK_ADVANCE * size;
            continue;
        };
        builder.pen = pen;
        face.outline_glyph(glyph, &mut builder);
        pen += face
            .glyph_hor_advance(glyph)
            .map_or(FALLBACK_ADVANCE * size, |a| f32::from(a) * scale);
    }
    builder.path.finish()
}

/// Builds glyph outlines into one path: font units (y up) to the page (y down), each glyph
/// moved along the line by the pen.
struct Outliner {
    path: tiny_skia::PathBuilder,
    at: Point,
    scale: f32,
    pen: f32,
    upwards: bool,
}

impl Outliner {
    fn place(&self, x: f32, y: f32) -> (f32, f32) {
        // Along the line and above the baseline, in millimetres.
        let along = self.pen + x * self.scale;
        let up = y * self.scale;
        if self.upwards {
            (self.at.x - up, self.at.y - along)
        } else {
            (self.at.x + along, self.at.y - up)
        }
    }
}

impl OutlineBuilder for Outliner {
    fn move_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.place(x, y);
        self.path.move_to(x, y);
    }

    fn line_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.place(x, y);
        self.path.line_to(x, y);
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let (x1, y1) = self.place(x1, y1);
        let (x, y) = self.place(x, y);
        self.path.quad_to(x1, y1, x, y);
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let (x1, y1) = self.place(x1, y1);
        let (x2, y2) = self.place(x2, y2);
        let (x, y) = self.place(x, y);
        self.path.cubic_to(x1, y1, x2, y2, x, y);
    }

    fn close(&mut self) {
        self.path.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_font_is_read_and_wider_text_measures_wider() {
        assert!(FACE.is_some());
        let short = width("10 ms", 3.0);
        let long = width("100 ms", 3.0);
        assert!(short > 3.0 && short < 15.0, "{short}");
        assert!(long > short);
        assert_eq!(width("", 3.0), 0.0);
        assert!((start_offset("abc", 3.0, Anchor::Middle) * -2.0 - width("abc", 3.0)).abs() < 1e-4);
    }

    #[test]
    fn outlines_sit_on_the_baseline_from_their_anchor() {
        let at = Point { x: 50.0, y: 20.0 };
        let path = outline("Time", at, 4.0, Anchor::Start, false).expect("glyphs");
        let bounds = path.bounds();
        assert!(
            bounds.left() >= 49.5 && bounds.bottom() <= 20.5,
            "{bounds:?}"
        );
        assert!(bounds.top() > 16.0 && bounds.right() < 50.0 + width("Time", 4.0) + 0.5);
        let up = outline("Time", at, 4.0, Anchor::End, true).expect("glyphs");
        // Read upwards and ending at the point: all of it is below the point, left of it.
        assert!(
            up.bounds().top() >= 19.5 && up.bounds().bottom() > 25.0 && up.bounds().right() <= 50.5,
            "{:?}",
            up.bounds()
        );
        assert!(outline("", at, 4.0, Anchor::Start, false).is_none());
    }
}
