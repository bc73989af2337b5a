//! A [`Drawing`] rasterised to PNG at a print resolution, with `tiny-skia`.

use super::{Drawing, Item, Outline, Point, PrintError, Rgb};
use tiny_skia::{
    FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Rect, Stroke, StrokeDash, Transform,
};

/// The lowest resolution offered, in dots per inch.
pub const MIN_DPI: u32 = 50;
/// The highest resolution offered, in dots per inch.
pub const MAX_DPI: u32 = 1200;
/// The resolution when none is asked for: what print shops ask for.
pub const DEFAULT_DPI: u32 = 300;
/// The most pixels an image may have (at four bytes each, 400 MB).
pub const MAX_PIXELS: u64 = 100_000_000;

/// The size in pixels of a drawing printed at `dpi`: one pixel per dot, rounded.
pub fn pixel_size(drawing: &Drawing, dpi: u32) -> (u32, u32) {
    let per_mm = dpi as f32 / 25.4;
    let pixels = |mm: f32| ((mm * per_mm).round() as u32).max(1);
    (pixels(drawing.width_mm), pixels(drawing.height_mm))
}

/// The drawing as PNG bytes at `dpi` dots per inch, the resolution recorded in the file so
/// that it prints at its size.
pub fn to_png(drawing: &Drawing, dpi: u32) -> Result<Vec<u8>, PrintError> {
    if !(MIN_DPI..=MAX_DPI).contains(&dpi) {
        return Err(PrintError::Dpi(dpi));
    }
    let (width, height) = pixel_size(drawing, dpi);
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(PrintError::TooManyPixels { width, height });
    }
    let pixmap = rasterize(drawing, width, height)?;
    encode(&pixmap, dpi)
}

/// The drawing painted on `width x height` pixels (the drawing's width fills the width);
/// refused past [`MAX_PIXELS`].
pub fn rasterize(drawing: &Drawing, width: u32, height: u32) -> Result<Pixmap, PrintError> {
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(PrintError::TooManyPixels { width, height });
    }
    let mut pixmap =
        Pixmap::new(width, height).ok_or(PrintError::TooManyPixels { width, height })?;
    let scale = width as f32 / drawing.width_mm;
    let transform = Transform::from_scale(scale, scale);
    for item in &drawing.items {
        paint_item(&mut pixmap, item, transform);
    }
    Ok(pixmap)
}

fn paint_item(pixmap: &mut Pixmap, item: &Item, transform: Transform) {
    match item {
        Item::Rect { min, max, fill, .. } => {
            if let Some(rect) = Rect::from_ltrb(min.x, min.y, max.x, max.y) {
                pixmap.fill_rect(rect, &paint(*fill), transform, None);
            }
        }
        Item::Line {
            from, to, stroke, ..
        } => {
            let mut path = PathBuilder::new();
            path.move_to(from.x, from.y);
            path.line_to(to.x, to.y);
            if let Some(path) = path.finish() {
                let line = Stroke {
                    width: stroke.width,
                    line_cap: LineCap::Square,
                    ..Stroke::default()
                };
                pixmap.stroke_path(&path, &paint(stroke.color), &line, transform, None);
            }
        }
        Item::Polygon {
            points,
            fill,
            outline,
            ..
        } => {
            if let Some(path) = polygon(points) {
                pixmap.fill_path(&path, &paint(*fill), FillRule::Winding, transform, None);
                stroke_outline(pixmap, &path, *outline, transform);
            }
        }
        Item::Circle {
            center,
            radius,
            fill,
            outline,
            ..
        } => {
            if let Some(path) = PathBuilder::from_circle(center.x, center.y, *radius) {
                if let Some(fill) = fill {
                    pixmap.fill_path(&path, &paint(*fill), FillRule::Winding, transform, None);
                }
                stroke_outline(pixmap, &path, *outline, transform);
            }
        }
        Item::Polyline {
            points,
            stroke,
            dashed,
            ..
        } => {
            let Some((first, rest)) = points.split_first() else {
                return;
            };
            let mut path = PathBuilder::new();
            path.move_to(first.x, first.y);
            for point in rest {
                path.line_to(point.x, point.y);
            }
            if let Some(path) = path.finish() {
                let [dash, gap] = super::svg::dash_mm(stroke.width);
                let line = Stroke {
                    width: stroke.width,
                    line_cap: LineCap::Round,
                    line_join: LineJoin::Round,
                    dash: if *dashed {
                        StrokeDash::new(vec![dash, gap], 0.0)
                    } else {
                        None
                    },
                    ..Stroke::default()
                };
                pixmap.stroke_path(&path, &paint(stroke.color), &line, transform, None);
            }
        }
        Item::Text {
            at,
            text,
            size,
            color,
            anchor,
            upwards,
            ..
        } => {
            if let Some(path) = super::text::outline(text, *at, *size, *anchor, *upwards) {
                pixmap.fill_path(&path, &paint(*color), FillRule::Winding, transform, None);
            }
        }
    }
}

fn stroke_outline(
    pixmap: &mut Pixmap,
    path: &tiny_skia::Path,
    outline: Option<Outline>,
    transform: Transform,
) {
    if let Some(outline) = outline {
        let stroke = Stroke {
            width: outline.width,
            line_join: LineJoin::Round,
            ..Stroke::default()
        };
        pixmap.stroke_path(path, &paint(outline.color), &stroke, transform, None);
    }
}

fn polygon(points: &[Point]) -> Option<tiny_skia::Path> {
    let (first, rest) = points.split_first()?;
    let mut path = PathBuilder::new();
    path.move_to(first.x, first.y);
    for point in rest {
        path.line_to(point.x, point.y);
    }
    path.close();
    path.finish()
}

fn paint(color: Rgb) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(color.0, color.1, color.2, 255);
    paint.anti_alias = true;
    paint
}

/// Encodes the pixels (opaque, so premultiplied and straight alpha agree) with the
/// resolution in the PNG's `pHYs` chunk, so the image prints at the size it was drawn for.
fn encode(pixmap: &Pixmap, dpi: u32) -> Result<Vec<u8>, PrintError> {
    encode_rgba(pixmap.width(), pixmap.height(), pixmap.data(), Some(dpi))
}

/// Encodes 8-bit RGBA pixels, row by row from the top, as PNG bytes, with the resolution
/// in its `pHYs` chunk when `dpi` is given. Every PNG the program writes (prints, icons,
/// the app's screenshots and exports) is encoded here.
pub fn encode_rgba(
    width: u32,
    height: u32,
    rgba: &[u8],
    dpi: Option<u32>,
) -> Result<Vec<u8>, PrintError> {
    let failed = |error: png::EncodingError| PrintError::Encode(error.to_string());
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    if let Some(dpi) = dpi {
        let per_metre = (f64::from(dpi) / 0.0254).round() as u32;
        encoder.set_pixel_dims(Some(png::PixelDimensions {
            xppu: per_metre,
            yppu: per_metre,
            unit: png::Unit::Meter,
        }));
    }
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(rgba).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use crate::print::{PrintOptions, drawing};

    #[test]
    fn the_png_decodes_at_the_asked_size_and_resolution() {
        let puzzle = samples::fogleman_22();
        let options = PrintOptions {
            size_mm: 50.8,
            robots: true,
        };
        let bytes = to_png(&drawing(&puzzle, options), 150).expect("encodes");
        let decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
        let reader = decoder.read_info().expect("decodes");
        let info = reader.info();
        // 50.8 mm is two inches: 300 pixels at 150 dpi.
        assert_eq!((info.width, info.height), (300, 300));
        let dims = info.pixel_dims.expect("the resolution is recorded");
        assert_eq!(dims.xppu, (150.0f64 / 0.0254).round() as u32);
    }

    #[test]
    fn resolutions_and_sizes_past_the_limits_are_refused() {
        let puzzle = samples::fogleman_22();
        let small = drawing(&puzzle, PrintOptions::default());
        assert_eq!(to_png(&small, 10), Err(PrintError::Dpi(10)));
        let large = drawing(
            &puzzle,
            PrintOptions {
                size_mm: 2000.0,
                robots: true,
            },
        );
        assert!(matches!(
            to_png(&large, 1200),
            Err(PrintError::TooManyPixels { .. })
        ));
    }
}
