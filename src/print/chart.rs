//! Charts from plain numbers: a title, two axes with their names and tick labels (linear,
//! whole numbers, percentages, names, or powers of ten of seconds or counts), one or more
//! series (lines, points, bars, quartile boxes, reference lines) and a legend in the series'
//! colours, drawn by [`chart_drawing`](super::chart_drawing) in millimetres and written as SVG or PNG like
//! a board.
//!
//! The app's plots and the command line's `--plot` build a [`Chart`] from the numbers they
//! plot, so an exported plot shows what the window shows, with the same tick labels
//! ([`seconds_label`], [`count_label`]).

use super::{Rgb, text};

/// A chart: what [`drawing`](super::chart_drawing::drawing) draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// The title above it.
    pub title: String,
    /// The horizontal axis.
    pub x: Axis,
    /// The vertical axis.
    pub y: Axis,
    /// The data, painted in order; the legend lists the named ones in the same order.
    pub series: Vec<Series>,
}

/// One axis: its name, how its values read, and values it must show whatever the data.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// The axis's name ("moves", "time").
    pub label: String,
    /// How its values are spaced and named.
    pub ticks: Ticks,
    /// Values the axis reaches at least (as the app's plots include zero, say).
    pub include: Vec<f64>,
}

impl Axis {
    /// An axis named `label` reading its values as `ticks`.
    pub fn new(label: impl Into<String>, ticks: Ticks) -> Axis {
        Axis {
            label: label.into(),
            ticks,
            include: Vec::new(),
        }
    }

    /// The axis, reaching at least `values`.
    pub fn including(mut self, values: impl IntoIterator<Item = f64>) -> Axis {
        self.include.extend(values);
        self
    }
}

/// How an axis's values are spaced and named.
#[derive(Clone, Debug, PartialEq)]
pub enum Ticks {
    /// Any number, at steps of 1, 2 or 5 times a power of ten.
    Numbers,
    /// Whole numbers (move counts), half a step of room at both ends.
    Whole,
    /// Percentages, at whole steps.
    Percent,
    /// log10 of seconds, marked at powers of ten ("1 ms", "10 s").
    LogSeconds,
    /// log10 of a count, marked at powers of ten ("1", "10k").
    LogCount,
    /// Names: the n-th at the value n, each marked.
    Names(Vec<String>),
}

/// One series: its name in the legend, its colour and its data.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Its name in the legend.
    pub name: String,
    /// Its colour.
    pub color: Rgb,
    /// Whether the legend lists it (a series drawn in two parts lists one).
    pub in_legend: bool,
    /// What is drawn.
    pub data: Data,
}

impl Series {
    /// A series listed in the legend.
    pub fn new(name: impl Into<String>, color: Rgb, data: Data) -> Series {
        Series {
            name: name.into(),
            color,
            in_legend: true,
            data,
        }
    }

    /// The series, left out of the legend.
    pub fn unlisted(mut self) -> Series {
        self.in_legend = false;
        self
    }
}

/// What a series draws, in the axes' values.
#[derive(Clone, Debug, PartialEq)]
pub enum Data {
    /// Round markers at (x, y).
    Points(Vec<[f64; 2]>),
    /// Hollow round markers at (x, y): values that bound a measurement rather than make it
    /// (a run stopped by its limit, at the time it was stopped).
    Rings(Vec<[f64; 2]>),
    /// A line through (x, y), solid or dashed.
    Line {
        /// Its points in order.
        points: Vec<[f64; 2]>,
        /// Whether it is dashed (a series compared with).
        dashed: bool,
    },
    /// A line through (x, y) with a marker at each point.
    LinePoints(Vec<[f64; 2]>),
    /// Bars from zero.
    Bars {
        /// Each bar: where it stands (x, or y when horizontal), its value, and a label
        /// written beside its end.
        bars: Vec<Bar>,
        /// Its thickness in axis values.
        width: f64,
        /// Whether the bars lie along the x axis (names on the y axis).
        horizontal: bool,
        /// Whether they are pale with an outline (a series compared with).
        pale: bool,
    },
    /// Quartile boxes: at x, (min, lower quartile, median, upper quartile, max) in y.
    Boxes {
        /// The boxes.
        boxes: Vec<(f64, [f64; 5])>,
        /// Their width in x values.
        width: f64,
    },
    /// A dashed horizontal line across the chart at a y value.
    HLine(f64),
}

/// One bar of [`Data::Bars`].
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Where it stands across its length.
    pub at: f64,
    /// Its value (its end).
    pub value: f64,
    /// Text beside its end, if any.
    pub label: Option<String>,
}

/// Names a power of ten of seconds, as the plots' time axes do: "1 ms", "0.1 ms", "10 s".
pub fn seconds_label(exponent: f64) -> String {
    let e = exponent.round() as i32;
    let seconds = 10f64.powi(e);
    if e < -3 {
        format!("{} ms", seconds * 1000.0)
    } else if e < 0 {
        format!("{:.0} ms", seconds * 1000.0)
    } else {
        format!("{seconds:.0} s")
    }
}

/// Names a power of ten of a count, as the plots' count axes do: "1", "10k", "1M"; nothing
/// below one.
pub fn count_label(exponent: f64) -> String {
    let e = exponent.round() as i32;
    if e < 0 {
        return String::new();
    }
    let (unit, scale) = match e {
        0..=2 => ("", 0),
        3..=5 => ("k", 3),
        6..=8 => ("M", 6),
        9..=11 => ("G", 9),
        _ => ("T", 12),
    };
    format!("{}{unit}", 10u64.pow((e - scale).clamp(0, 2) as u32))
}

/// The colour of the n-th series, as the app's plots colour their solvers: twelve colours
/// chosen to stay apart on both looks, then one hue a golden angle on from the last for each
/// further series.
pub fn series_rgb(index: usize) -> Rgb {
    const SERIES: [Rgb; 12] = [
        Rgb(31, 119, 180),
        Rgb(255, 127, 14),
        Rgb(44, 160, 44),
        Rgb(214, 39, 40),
        Rgb(148, 103, 189),
        Rgb(140, 86, 75),
        Rgb(227, 119, 194),
        Rgb(23, 190, 207),
        Rgb(188, 189, 34),
        Rgb(127, 127, 127),
        Rgb(0, 100, 80),
        Rgb(250, 190, 0),
    ];
    if let Some(&color) = SERIES.get(index) {
        return color;
    }
    const GOLDEN_TURN: f64 = 0.381_966_011_250_105_1;
    let step = (index - SERIES.len()) as f64;
    let hue = (0.05 + step * GOLDEN_TURN).fract() as f32;
    let saturation = [0.75, 0.55, 0.9][index % 3];
    let value = [0.85, 0.7][index % 2];
    hsv_rgb(hue, saturation, value)
}

/// A colour given as linear hue, saturation and value, in sRGB (as egui turns its `Hsva`).
fn hsv_rgb(hue: f32, saturation: f32, value: f32) -> Rgb {
    let h = (hue.fract() * 6.0).floor();
    let f = hue.fract() * 6.0 - h;
    let p = value * (1.0 - saturation);
    let q = value * (1.0 - f * saturation);
    let t = value * (1.0 - (1.0 - f) * saturation);
    let (r, g, b) = match h as i32 {
        0 => (value, t, p),
        1 => (q, value, p),
        2 => (p, value, t),
        3 => (p, q, value),
        4 => (t, p, value),
        _ => (value, p, q),
    };
    let gamma = |linear: f32| -> u8 {
        let encoded = if linear <= 0.0 {
            0.0
        } else if linear <= 0.003_130_8 {
            3294.6 * linear
        } else if linear < 1.0 {
            269.025 * linear.powf(1.0 / 2.4) - 14.025
        } else {
            255.0
        };
        encoded.round().clamp(0.0, 255.0) as u8
    };
    Rgb(gamma(r), gamma(g), gamma(b))
}

/// The size of tick labels, in millimetres: the marks are spaced by it.
pub(super) const TICK_SIZE: f32 = 2.8;

/// An axis's range around `values`: half a step of room for whole numbers and names, a
/// twentieth of the span otherwise.
pub(super) fn padded(values: &[f64], ticks: &Ticks) -> (f64, f64) {
    let low = values
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold(f64::INFINITY, f64::min);
    let high = values
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold(f64::NEG_INFINITY, f64::max);
    if !low.is_finite() {
        return (0.0, 1.0);
    }
    match ticks {
        Ticks::Whole | Ticks::Names(_) => (low - 0.5, high + 0.5),
        _ => {
            let span = high - low;
            let room = if span > 0.0 {
                span * 0.05
            } else {
                low.abs().max(1.0) * 0.5
            };
            (low - room, high + room)
        }
    }
}

/// The marked values of an axis of `length` millimetres and their labels: the smallest step
/// that keeps the labels apart (side by side on a horizontal axis, a line apart on a
/// vertical one).
pub(super) fn marks(
    ticks: &Ticks,
    (low, high): (f64, f64),
    length: f32,
    horizontal: bool,
) -> Vec<(f64, String)> {
    if let Ticks::Names(names) = ticks {
        return names
            .iter()
            .enumerate()
            .map(|(i, name)| (i as f64, name.clone()))
            .filter(|(v, _)| (low..=high).contains(v))
            .collect();
    }
    let whole = !matches!(ticks, Ticks::Numbers);
    let span = high - low;
    if !(span.is_finite() && span > 0.0) {
        return Vec::new();
    }
    let mut step = if whole {
        1.0
    } else {
        10f64.powf((span / 200.0).log10().floor())
    };
    let mm_per_value = f64::from(length) / span;
    for _ in 0..60 {
        let values = marked_values(low, high, step);
        let labelled: Vec<(f64, String)> = values
            .into_iter()
            .map(|v| (v, tick_label(ticks, v, step)))
            .collect();
        let needed = if horizontal {
            labelled
                .iter()
                .map(|(_, l)| text::width(l, TICK_SIZE))
                .fold(0.0f32, f32::max)
                + 3.0
        } else {
            TICK_SIZE * 2.0
        };
        if labelled.len() <= 200 && step * mm_per_value >= f64::from(needed) {
            return labelled;
        }
        step = next_step(step);
    }
    Vec::new()
}

/// The step after `step` in 1, 2, 5, 10, 20, 50, ...
fn next_step(step: f64) -> f64 {
    let power = 10f64.powf(step.log10().floor());
    let leading = (step / power).round();
    if leading < 2.0 {
        2.0 * power
    } else if leading < 5.0 {
        5.0 * power
    } else {
        10.0 * power
    }
}

fn marked_values(low: f64, high: f64, step: f64) -> Vec<f64> {
    let first = (low / step).ceil() as i64;
    let last = (high / step).floor() as i64;
    if last < first || last - first > 400 {
        return Vec::new();
    }
    // Adding zero turns -0 into 0, so no axis reads "-0".
    (first..=last).map(|k| k as f64 * step + 0.0).collect()
}

/// A marked value's label.
fn tick_label(ticks: &Ticks, value: f64, step: f64) -> String {
    match ticks {
        Ticks::Numbers => {
            let decimals = (-step.log10().floor()).max(0.0) as usize;
            format!("{value:.decimals$}")
        }
        Ticks::Whole => format!("{value:.0}"),
        Ticks::Percent => format!("{value:.0}%"),
        Ticks::LogSeconds => seconds_label(value),
        Ticks::LogCount => count_label(value),
        Ticks::Names(names) => names
            .get(value.round().max(0.0) as usize)
            .cloned()
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_powers_of_ten() {
        assert_eq!(seconds_label(-4.0), "0.1 ms");
        assert_eq!(seconds_label(-3.0), "1 ms");
        assert_eq!(seconds_label(1.0), "10 s");
        assert_eq!(count_label(6.0), "1M");
        assert_eq!(count_label(-1.0), "");
    }

    #[test]
    fn tick_labels_keep_apart_on_a_long_axis() {
        let whole = marks(&Ticks::Whole, (-0.5, 60.5), 120.0, true);
        let values: Vec<f64> = whole.iter().map(|(v, _)| *v).collect();
        assert!(values.len() >= 5 && values.len() <= 20, "{values:?}");
        assert!(values.windows(2).all(|w| w[1] - w[0] >= 1.0));
        let numbers = marks(&Ticks::Numbers, (0.8, 1.3), 60.0, false);
        assert!(numbers.iter().any(|(_, l)| l == "1.00"), "{numbers:?}");
    }
}
