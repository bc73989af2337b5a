//! A [`Chart`] laid out on paper: the title, the legend below it, the plot area with its grid,
//! frame, tick labels and axis names, and the series on it, as a [`Drawing`] in millimetres;
//! and the chart written as SVG or PNG.

use super::chart::{Chart, Data, Series, TICK_SIZE, Ticks, marks, padded};
use super::{Anchor, Drawing, ImageFormat, Item, Outline, Point, PrintError, Rgb, Role, text};
use std::path::{Path, PathBuf};

/// A chart's width on paper, in millimetres.
pub const WIDTH_MM: f32 = 160.0;
/// A chart's height on paper, in millimetres, unless its names need more.
pub const HEIGHT_MM: f32 = 100.0;
/// The resolution of a chart's PNG: 160 mm make 1260 pixels.
pub const PNG_DPI: u32 = 200;

const MARGIN: f32 = 4.0;
const TITLE_SIZE: f32 = 4.2;
const LABEL_SIZE: f32 = 3.2;
const LEGEND_ROW: f32 = 4.8;
const SWATCH: f32 = 2.6;
/// The room a horizontal bar chart gives each name.
const NAME_ROW: f32 = 6.0;

const BACKGROUND: Rgb = Rgb(255, 255, 255);
const INK: Rgb = Rgb(40, 40, 40);
const MUTED: Rgb = Rgb(110, 110, 110);
const GRID: Rgb = Rgb(228, 228, 228);
const FRAME: Rgb = Rgb(150, 150, 150);

/// Why a chart could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// The file's extension names no image format.
    #[error("{0}: a plot is written as .svg or .png; name the file so")]
    Format(PathBuf),
    /// The picture could not be made.
    #[error("{path}: {error}")]
    Print {
        /// The file.
        path: PathBuf,
        /// Why.
        error: PrintError,
    },
    /// The file could not be written.
    #[error("{0}")]
    Write(crate::model::formats::FormatError),
}

/// The chart encoded as `format`: SVG text, or a PNG at [`PNG_DPI`].
pub fn image(chart: &Chart, format: ImageFormat) -> Result<Vec<u8>, PrintError> {
    let drawing = drawing(chart);
    match format {
        ImageFormat::Svg => Ok(super::svg::to_svg(&drawing).into_bytes()),
        ImageFormat::Png => super::png::to_png(&drawing, PNG_DPI),
    }
}

/// Writes the chart to `path` atomically, as SVG or PNG by its extension (a file already
/// there is replaced).
pub fn save(chart: &Chart, path: &Path) -> Result<(), ChartError> {
    let format = ImageFormat::from_path(path).ok_or_else(|| ChartError::Format(path.into()))?;
    let bytes = image(chart, format).map_err(|error| ChartError::Print {
        path: path.into(),
        error,
    })?;
    crate::model::formats::save_bytes_atomic_with(
        path,
        &bytes,
        crate::model::formats::Overwrite::Allow,
    )
    .map_err(ChartError::Write)
}

/// A chart's values mapped onto its plot area.
struct Frame {
    left: f32,
    top: f32,
    right: f32,
    bottom: f32,
    x: (f64, f64),
    y: (f64, f64),
}

impl Frame {
    fn at(&self, x: f64, y: f64) -> Point {
        let fx = ((x - self.x.0) / (self.x.1 - self.x.0)) as f32;
        let fy = ((y - self.y.0) / (self.y.1 - self.y.0)) as f32;
        Point {
            x: self.left + fx * (self.right - self.left),
            y: self.bottom - fy * (self.bottom - self.top),
        }
    }
}

/// Draws the chart: a white page with the title, the legend below it, the plot area with its
/// grid, axes and tick labels, and the series on it.
pub fn drawing(chart: &Chart) -> Drawing {
    let width = WIDTH_MM;
    let names = match &chart.y.ticks {
        Ticks::Names(names) => names.len(),
        _ => 0,
    };
    let height = HEIGHT_MM.max(names as f32 * NAME_ROW + 50.0);
    let mut items = vec![Item::Rect {
        role: Role::Axis,
        min: Point { x: 0.0, y: 0.0 },
        max: Point {
            x: width,
            y: height,
        },
        fill: BACKGROUND,
    }];
    let title_baseline = MARGIN + TITLE_SIZE * 0.8;
    items.push(text_item(
        Role::Label,
        Point {
            x: MARGIN,
            y: title_baseline,
        },
        &chart.title,
        TITLE_SIZE,
        INK,
        Anchor::Start,
    ));
    let legend_bottom = legend(&mut items, chart, title_baseline + 2.0, width);
    let top = legend_bottom + 3.0;
    let (x_range, y_range) = ranges(chart);
    // The x labels go on one row, or on two rows taking turns when neighbours would run into
    // each other (long puzzle names side by side), which takes a row from the plot.
    let lay_out = |staggered: bool| {
        let rows = if staggered { 2.0 } else { 1.0 };
        let bottom = height - MARGIN - LABEL_SIZE - TICK_SIZE * rows - 3.0;
        let y_marks = marks(&chart.y.ticks, y_range, bottom - top, false);
        let widest = y_marks
            .iter()
            .map(|(_, label)| text::width(label, TICK_SIZE))
            .fold(0.0f32, f32::max);
        let left = MARGIN + LABEL_SIZE + 2.0 + widest + 1.5;
        let right = width - MARGIN - 3.0;
        let x_marks = marks(&chart.x.ticks, x_range, right - left, true);
        let frame = Frame {
            left,
            top,
            right,
            bottom,
            x: x_range,
            y: y_range,
        };
        (frame, x_marks, y_marks)
    };
    let (mut frame, mut x_marks, mut y_marks) = lay_out(false);
    let staggered = labels_collide(&frame, &x_marks);
    if staggered {
        (frame, x_marks, y_marks) = lay_out(true);
    }
    let (left, right, top, bottom) = (frame.left, frame.right, frame.top, frame.bottom);
    axes(&mut items, chart, &frame, &x_marks, &y_marks, staggered);
    let any_data = chart
        .series
        .iter()
        .any(|s| !data_points(&s.data).is_empty());
    for series in &chart.series {
        series_items(&mut items, series, &frame);
    }
    if !any_data {
        items.push(text_item(
            Role::Label,
            Point {
                x: (left + right) / 2.0,
                y: (top + bottom) / 2.0,
            },
            "no data",
            LABEL_SIZE,
            MUTED,
            Anchor::Middle,
        ));
    }
    Drawing {
        width_mm: width,
        height_mm: height,
        cell_mm: 0.0,
        margin_mm: MARGIN,
        items,
    }
}

fn text_item(role: Role, at: Point, text: &str, size: f32, color: Rgb, anchor: Anchor) -> Item {
    Item::Text {
        role,
        at,
        text: text.to_string(),
        size,
        color,
        anchor,
        upwards: false,
    }
}

/// Lays out the legend from `top`, wrapping its entries into rows; returns its bottom.
fn legend(items: &mut Vec<Item>, chart: &Chart, top: f32, width: f32) -> f32 {
    let mut seen: Vec<&str> = Vec::new();
    let mut x = MARGIN;
    let mut row = 0;
    let mut any = false;
    for series in &chart.series {
        if !series.in_legend || seen.contains(&series.name.as_str()) {
            continue;
        }
        seen.push(&series.name);
        let entry = SWATCH + 1.2 + text::width(&series.name, LABEL_SIZE);
        if any && x + entry > width - MARGIN {
            row += 1;
            x = MARGIN;
        }
        any = true;
        let middle = top + row as f32 * LEGEND_ROW + LEGEND_ROW / 2.0;
        let dashed = matches!(
            series.data,
            Data::Line { dashed: true, .. } | Data::HLine(_)
        );
        if dashed {
            items.push(Item::Polyline {
                role: Role::Legend,
                points: vec![
                    Point { x, y: middle },
                    Point {
                        x: x + SWATCH * 1.6,
                        y: middle,
                    },
                ],
                stroke: Outline {
                    width: 0.4,
                    color: series.color,
                },
                dashed: false,
            });
        } else if matches!(series.data, Data::Rings(_)) {
            items.push(Item::Circle {
                role: Role::Legend,
                center: Point {
                    x: x + SWATCH / 2.0,
                    y: middle,
                },
                radius: SWATCH / 2.0 - 0.2,
                fill: None,
                outline: Some(Outline {
                    width: 0.35,
                    color: series.color,
                }),
            });
        } else {
            items.push(Item::Rect {
                role: Role::Legend,
                min: Point {
                    x,
                    y: middle - SWATCH / 2.0,
                },
                max: Point {
                    x: x + SWATCH,
                    y: middle + SWATCH / 2.0,
                },
                fill: series.color,
            });
        }
        let swatch = if dashed { SWATCH * 1.6 } else { SWATCH };
        items.push(text_item(
            Role::Legend,
            Point {
                x: x + swatch + 1.2,
                y: middle + LABEL_SIZE * 0.35,
            },
            &series.name,
            LABEL_SIZE,
            INK,
            Anchor::Start,
        ));
        x += swatch - SWATCH + entry + 4.0;
    }
    if any {
        top + (row + 1) as f32 * LEGEND_ROW
    } else {
        top
    }
}

/// Every (x, y) a series must show, bars and boxes by their ends.
fn data_points(data: &Data) -> Vec<[f64; 2]> {
    let mut points: Vec<[f64; 2]> = match data {
        Data::Points(points)
        | Data::Rings(points)
        | Data::LinePoints(points)
        | Data::Line { points, .. } => points.clone(),
        Data::Bars {
            bars,
            width,
            horizontal,
            ..
        } => bars
            .iter()
            .flat_map(|bar| {
                let ends = [
                    [bar.at - width / 2.0, 0.0],
                    [bar.at + width / 2.0, bar.value],
                ];
                ends.map(|[at, value]| {
                    if *horizontal {
                        [value, at]
                    } else {
                        [at, value]
                    }
                })
            })
            .collect(),
        Data::Boxes { boxes, width } => boxes
            .iter()
            .flat_map(|(x, q)| [[x - width / 2.0, q[0]], [x + width / 2.0, q[4]]])
            .collect(),
        Data::HLine(_) => Vec::new(),
    };
    points.retain(|[x, y]| x.is_finite() && y.is_finite());
    points
}

/// The axes' ranges: the data and the values each axis includes, with room around them.
fn ranges(chart: &Chart) -> ((f64, f64), (f64, f64)) {
    let mut xs: Vec<f64> = chart.x.include.clone();
    let mut ys: Vec<f64> = chart.y.include.clone();
    for series in &chart.series {
        for [x, y] in data_points(&series.data) {
            xs.push(x);
            ys.push(y);
        }
        if let Data::HLine(y) = series.data
            && y.is_finite()
        {
            ys.push(y);
        }
    }
    if let Ticks::Names(names) = &chart.y.ticks {
        ys.extend([0.0, names.len().saturating_sub(1) as f64]);
    }
    (padded(&xs, &chart.x.ticks), padded(&ys, &chart.y.ticks))
}

/// The plot area's grid, frame, tick labels and axis names.
fn axes(
    items: &mut Vec<Item>,
    chart: &Chart,
    frame: &Frame,
    x_marks: &[(f64, String)],
    y_marks: &[(f64, String)],
    staggered: bool,
) {
    let grid = Outline {
        width: 0.2,
        color: GRID,
    };
    for (index, (value, label)) in x_marks.iter().enumerate() {
        let x = frame.at(*value, frame.y.0).x;
        let row = if staggered && index % 2 == 1 {
            1.0
        } else {
            0.0
        };
        items.push(Item::Line {
            role: Role::Grid,
            from: Point { x, y: frame.top },
            to: Point { x, y: frame.bottom },
            stroke: grid,
        });
        items.push(text_item(
            Role::Label,
            Point {
                x,
                y: frame.bottom + 1.2 + TICK_SIZE * (0.8 + row),
            },
            label,
            TICK_SIZE,
            MUTED,
            Anchor::Middle,
        ));
    }
    for (value, label) in y_marks {
        let y = frame.at(frame.x.0, *value).y;
        items.push(Item::Line {
            role: Role::Grid,
            from: Point { x: frame.left, y },
            to: Point { x: frame.right, y },
            stroke: grid,
        });
        items.push(text_item(
            Role::Label,
            Point {
                x: frame.left - 1.5,
                y: y + TICK_SIZE * 0.35,
            },
            label,
            TICK_SIZE,
            MUTED,
            Anchor::End,
        ));
    }
    let corners = [
        (frame.left, frame.top),
        (frame.right, frame.top),
        (frame.right, frame.bottom),
        (frame.left, frame.bottom),
        (frame.left, frame.top),
    ];
    items.push(Item::Polyline {
        role: Role::Axis,
        points: corners.iter().map(|&(x, y)| Point { x, y }).collect(),
        stroke: Outline {
            width: 0.25,
            color: FRAME,
        },
        dashed: false,
    });
    items.push(text_item(
        Role::Label,
        Point {
            x: (frame.left + frame.right) / 2.0,
            y: frame.bottom
                + TICK_SIZE * if staggered { 2.0 } else { 1.0 }
                + 2.6
                + LABEL_SIZE * 0.8,
        },
        &chart.x.label,
        LABEL_SIZE,
        INK,
        Anchor::Middle,
    ));
    items.push(Item::Text {
        role: Role::Label,
        at: Point {
            x: MARGIN + LABEL_SIZE * 0.8,
            y: (frame.top + frame.bottom) / 2.0,
        },
        text: chart.y.label.clone(),
        size: LABEL_SIZE,
        color: INK,
        anchor: Anchor::Middle,
        upwards: true,
    });
}

/// Whether two neighbouring x labels, centred on their marks, would touch.
fn labels_collide(frame: &Frame, x_marks: &[(f64, String)]) -> bool {
    const GAP_MM: f32 = 1.5;
    x_marks.windows(2).any(|pair| {
        let (a, b) = (&pair[0], &pair[1]);
        let distance = (frame.at(b.0, frame.y.0).x - frame.at(a.0, frame.y.0).x).abs();
        let half_widths = (text::width(&a.1, TICK_SIZE) + text::width(&b.1, TICK_SIZE)) / 2.0;
        distance < half_widths + GAP_MM
    })
}

/// A colour a share of the way to white.
fn paler(color: Rgb, share: f32) -> Rgb {
    let mix = |c: u8| (f32::from(c) + (255.0 - f32::from(c)) * share).round() as u8;
    Rgb(mix(color.0), mix(color.1), mix(color.2))
}

fn series_items(items: &mut Vec<Item>, series: &Series, frame: &Frame) {
    let finite = |points: &[[f64; 2]]| -> Vec<Point> {
        points
            .iter()
            .filter(|[x, y]| x.is_finite() && y.is_finite())
            .map(|&[x, y]| frame.at(x, y))
            .collect()
    };
    let line = |points: Vec<Point>, width: f32, dashed: bool| Item::Polyline {
        role: Role::Series,
        points,
        stroke: Outline {
            width,
            color: series.color,
        },
        dashed,
    };
    let dot = |center: Point, radius: f32| Item::Circle {
        role: Role::Series,
        center,
        radius,
        fill: Some(series.color),
        outline: None,
    };
    match &series.data {
        Data::Points(points) => {
            items.extend(finite(points).into_iter().map(|p| dot(p, 1.0)));
        }
        Data::Rings(points) => {
            items.extend(finite(points).into_iter().map(|center| Item::Circle {
                role: Role::Series,
                center,
                radius: 0.9,
                fill: None,
                outline: Some(Outline {
                    width: 0.35,
                    color: series.color,
                }),
            }));
        }
        Data::Line { points, dashed } => {
            items.push(line(
                finite(points),
                if *dashed { 0.35 } else { 0.5 },
                *dashed,
            ));
        }
        Data::LinePoints(points) => {
            let points = finite(points);
            items.push(line(points.clone(), 0.5, false));
            items.extend(points.into_iter().map(|p| dot(p, 0.75)));
        }
        Data::Bars {
            bars,
            width,
            horizontal,
            pale,
        } => {
            for bar in bars
                .iter()
                .filter(|b| b.at.is_finite() && b.value.is_finite())
            {
                let (a, b) = if *horizontal {
                    (
                        frame.at(0.0, bar.at - width / 2.0),
                        frame.at(bar.value, bar.at + width / 2.0),
                    )
                } else {
                    (
                        frame.at(bar.at - width / 2.0, 0.0),
                        frame.at(bar.at + width / 2.0, bar.value),
                    )
                };
                let corners = [(a.x, a.y), (b.x, a.y), (b.x, b.y), (a.x, b.y)];
                items.push(Item::Polygon {
                    role: Role::Series,
                    points: corners.iter().map(|&(x, y)| Point { x, y }).collect(),
                    fill: if *pale {
                        paler(series.color, 0.65)
                    } else {
                        series.color
                    },
                    outline: pale.then_some(Outline {
                        width: 0.25,
                        color: series.color,
                    }),
                });
                if let Some(label) = &bar.label {
                    let end = if *horizontal {
                        frame.at(bar.value, bar.at)
                    } else {
                        frame.at(bar.at, bar.value)
                    };
                    let (at, anchor) = if *horizontal {
                        (
                            Point {
                                x: end.x + 1.2,
                                y: end.y + TICK_SIZE * 0.35,
                            },
                            Anchor::Start,
                        )
                    } else {
                        (
                            Point {
                                x: end.x,
                                y: end.y - 1.0,
                            },
                            Anchor::Middle,
                        )
                    };
                    items.push(text_item(Role::Label, at, label, TICK_SIZE, INK, anchor));
                }
            }
        }
        Data::Boxes { boxes, width } => box_items(items, series.color, boxes, *width, frame),
        Data::HLine(y) => {
            if y.is_finite() {
                items.push(line(
                    vec![frame.at(frame.x.0, *y), frame.at(frame.x.1, *y)],
                    0.3,
                    true,
                ));
            }
        }
    }
}

/// Box plots: a box from the first to the third quartile with the median across it, and
/// whiskers to the least and greatest values (each box's five numbers, in order).
fn box_items(
    items: &mut Vec<Item>,
    color: Rgb,
    boxes: &[(f64, [f64; 5])],
    width: f64,
    frame: &Frame,
) {
    let stroke = Outline { width: 0.25, color };
    for (x, q) in boxes {
        if !(x.is_finite() && q.iter().all(|v| v.is_finite())) {
            continue;
        }
        let half = width / 2.0;
        let corners = [
            frame.at(x - half, q[1]),
            frame.at(x + half, q[1]),
            frame.at(x + half, q[3]),
            frame.at(x - half, q[3]),
        ];
        items.push(Item::Polygon {
            role: Role::Series,
            points: corners.to_vec(),
            fill: paler(color, 0.75),
            outline: Some(stroke),
        });
        let segment = |from: Point, to: Point| Item::Polyline {
            role: Role::Series,
            points: vec![from, to],
            stroke,
            dashed: false,
        };
        items.push(segment(frame.at(x - half, q[2]), frame.at(x + half, q[2])));
        items.push(segment(frame.at(*x, q[3]), frame.at(*x, q[4])));
        items.push(segment(frame.at(*x, q[1]), frame.at(*x, q[0])));
        for end in [q[0], q[4]] {
            items.push(segment(
                frame.at(x - half / 2.0, end),
                frame.at(x + half / 2.0, end),
            ));
        }
    }
}

#[cfg(test)]
mod tests;
