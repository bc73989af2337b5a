//! A [`Drawing`] as an SVG document whose width and height are in millimetres, so it prints at
//! the size it was drawn for and scales without loss.

use super::{Anchor, Drawing, Item, Outline, Point};
use svg::Document;
use svg::node::element::{Circle, Line, Polygon, Polyline, Rectangle, Text};

/// The drawing as SVG text. Every item carries its [`Role`](super::Role) as its class, so
/// walls, targets and robots can be found (and restyled) by name.
pub fn to_svg(drawing: &Drawing) -> String {
    let mut document = Document::new()
        .set("width", format!("{}mm", round(drawing.width_mm)))
        .set("height", format!("{}mm", round(drawing.height_mm)))
        .set(
            "viewBox",
            (0, 0, round(drawing.width_mm), round(drawing.height_mm)),
        );
    for item in &drawing.items {
        let class = item.role().name();
        document = match item {
            Item::Rect { min, max, fill, .. } => document.add(
                Rectangle::new()
                    .set("class", class)
                    .set("x", round(min.x))
                    .set("y", round(min.y))
                    .set("width", round(max.x - min.x))
                    .set("height", round(max.y - min.y))
                    .set("fill", fill.hex()),
            ),
            Item::Line {
                from, to, stroke, ..
            } => document.add(
                Line::new()
                    .set("class", class)
                    .set("x1", round(from.x))
                    .set("y1", round(from.y))
                    .set("x2", round(to.x))
                    .set("y2", round(to.y))
                    .set("stroke", stroke.color.hex())
                    .set("stroke-width", round(stroke.width))
                    .set("stroke-linecap", "square"),
            ),
            Item::Polygon {
                points,
                fill,
                outline,
                ..
            } => document.add(with_outline(
                Polygon::new()
                    .set("class", class)
                    .set("points", point_list(points))
                    .set("fill", fill.hex()),
                *outline,
            )),
            Item::Circle {
                center,
                radius,
                fill,
                outline,
                ..
            } => document.add(with_outline(
                Circle::new()
                    .set("class", class)
                    .set("cx", round(center.x))
                    .set("cy", round(center.y))
                    .set("r", round(*radius))
                    .set("fill", fill.map_or_else(|| "none".to_string(), |f| f.hex())),
                *outline,
            )),
            Item::Polyline {
                points,
                stroke,
                dashed,
                ..
            } => {
                let mut line = Polyline::new()
                    .set("class", class)
                    .set("points", point_list(points))
                    .set("fill", "none")
                    .set("stroke", stroke.color.hex())
                    .set("stroke-width", round(stroke.width))
                    .set("stroke-linejoin", "round")
                    .set("stroke-linecap", "round");
                if *dashed {
                    let dash = dash_mm(stroke.width);
                    line = line.set("stroke-dasharray", (round(dash[0]), round(dash[1])));
                }
                document.add(line)
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
                let mut element = Text::new(text.clone())
                    .set("class", class)
                    .set("x", round(at.x))
                    .set("y", round(at.y))
                    .set("font-family", super::text::FONT_FAMILY)
                    .set("font-size", round(*size))
                    .set("fill", color.hex());
                element = match anchor {
                    Anchor::Start => element,
                    Anchor::Middle => element.set("text-anchor", "middle"),
                    Anchor::End => element.set("text-anchor", "end"),
                };
                if *upwards {
                    element = element.set(
                        "transform",
                        format!("rotate(-90 {} {})", round(at.x), round(at.y)),
                    );
                }
                document.add(element)
            }
        };
    }
    document.to_string()
}

/// The dash and the gap of a dashed line of `width`, in millimetres: long enough to read as
/// dashes at any width, the same in the SVG and the PNG.
pub(super) fn dash_mm(width: f32) -> [f32; 2] {
    [width * 4.0 + 0.8, width * 3.0 + 0.6]
}

fn with_outline<T: svg::Node>(mut element: T, outline: Option<Outline>) -> T {
    if let Some(outline) = outline {
        element.assign("stroke", outline.color.hex());
        element.assign("stroke-width", round(outline.width));
        element.assign("stroke-linejoin", "round");
    }
    element
}

fn point_list(points: &[Point]) -> String {
    points
        .iter()
        .map(|p| format!("{},{}", round(p.x), round(p.y)))
        .collect::<Vec<_>>()
        .join(" ")
}

// Thousandths of a millimetre are far below what a printer resolves and keep the file short.
fn round(value: f32) -> f32 {
    (value * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direction, Pos, samples};
    use crate::print::{PrintOptions, drawing, wall_segments};
    use std::collections::BTreeSet;
    use svg::parser::Event;

    /// Reads the walls back out of the SVG text as cell sides (in cells, doubled so the
    /// coordinates are whole), to compare with the board's own walls.
    fn walls_in(text: &str, cell_mm: f32, margin_mm: f32) -> BTreeSet<(i64, i64, i64, i64)> {
        let mut walls = BTreeSet::new();
        for event in svg::read(text).expect("the SVG parses") {
            if let Event::Tag("line", _, attributes) = event
                && attributes.get("class").map(|c| c.to_string()) == Some("wall".into())
            {
                let coordinate = |name: &str| -> i64 {
                    let value: f32 = attributes[name].parse().expect("a number");
                    ((value - margin_mm) / cell_mm * 2.0).round() as i64
                };
                walls.insert((
                    coordinate("x1"),
                    coordinate("y1"),
                    coordinate("x2"),
                    coordinate("y2"),
                ));
            }
        }
        walls
    }

    #[test]
    fn the_svg_parses_and_holds_every_wall_of_the_board() {
        let puzzle = samples::fogleman_22();
        let drawing = drawing(&puzzle, PrintOptions::default());
        let text = to_svg(&drawing);
        let expected: BTreeSet<_> = wall_segments(puzzle.board())
            .into_iter()
            .map(|((x1, y1), (x2, y2))| {
                let twice = |v: f32| (v * 2.0).round() as i64;
                (twice(x1), twice(y1), twice(x2), twice(y2))
            })
            .collect();
        assert_eq!(
            walls_in(&text, drawing.cell_mm, drawing.margin_mm),
            expected
        );
        // Spot-check one known inner wall against the board itself.
        let board = puzzle.board();
        let inner = board
            .interior_walls()
            .into_iter()
            .find(|&(_, dir)| dir == Direction::East)
            .expect("the board has an inner wall on an east side");
        let Pos { x, y } = inner.0;
        let (x, y) = (i64::from(x), i64::from(y));
        assert!(expected.contains(&(2 * (x + 1), 2 * y, 2 * (x + 1), 2 * (y + 1))));
    }

    #[test]
    fn the_svg_is_sized_in_millimetres() {
        let puzzle = samples::fogleman_22();
        let options = PrintOptions {
            size_mm: 250.0,
            robots: false,
        };
        let text = to_svg(&drawing(&puzzle, options));
        assert!(text.contains(r#"width="250mm""#), "{}", &text[..200]);
        assert!(!text.contains(r#"class="robot""#));
    }
}
