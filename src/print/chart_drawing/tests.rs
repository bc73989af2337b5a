//! The charts' drawing: names, ticks and series where the app has them, files by extension,
//! long names on two rows, an empty chart.

use super::*;
use crate::print::chart::{Axis, Data, Series, series_rgb};
use std::collections::BTreeSet;

fn sample() -> Chart {
    Chart {
        title: "Time against solution length".into(),
        x: Axis::new("moves", Ticks::Whole),
        y: Axis::new("time", Ticks::LogSeconds),
        series: vec![
            Series::new(
                "IDDFS",
                series_rgb(0),
                Data::Points(vec![[5.0, -3.0], [8.0, -1.0]]),
            ),
            Series::new(
                "BFS",
                series_rgb(1),
                Data::LinePoints(vec![[5.0, -2.0], [9.0, 0.5]]),
            ),
        ],
    }
}

fn texts(drawing: &Drawing) -> Vec<String> {
    drawing
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn a_chart_names_its_axes_series_and_ticks_as_the_app_does() {
    let drawing = drawing(&sample());
    let texts = texts(&drawing);
    for expected in [
        "Time against solution length",
        "moves",
        "time",
        "IDDFS",
        "BFS",
    ] {
        assert!(
            texts.iter().any(|t| t == expected),
            "{expected} in {texts:?}"
        );
    }
    assert!(texts.iter().any(|t| t == "1 ms"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "1 s"), "{texts:?}");
    assert!(texts.iter().any(|t| t == "6"), "{texts:?}");
    // Every item lies on the page.
    for item in &drawing.items {
        if let Item::Circle { center, .. } = item {
            assert!(center.x > 0.0 && center.x < drawing.width_mm);
            assert!(center.y > 0.0 && center.y < drawing.height_mm);
        }
    }
}

#[test]
fn the_svg_and_the_png_are_written_by_extension() {
    let dir = tempfile::tempdir().unwrap();
    let chart = sample();
    let svg = dir.path().join("plot.svg");
    save(&chart, &svg).unwrap();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<text") && text.contains("IDDFS"), "{text}");
    let png = dir.path().join("plot.PNG");
    save(&chart, &png).unwrap();
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let error = save(&chart, &dir.path().join("plot.pdf")).unwrap_err();
    assert!(error.to_string().contains("plot.pdf"), "{error}");
}

/// The baselines the x axis's names are written on, for a chart of `names`.
fn name_rows(names: &[&str]) -> BTreeSet<i64> {
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let chart = Chart {
        title: "Time per puzzle".into(),
        x: Axis::new("puzzle", Ticks::Names(names.clone())),
        y: Axis::new("time", Ticks::LogSeconds),
        series: vec![Series::new(
            "fast",
            Rgb(31, 119, 180),
            Data::Points((0..names.len()).map(|i| [i as f64, -2.0]).collect()),
        )],
    };
    drawing(&chart)
        .items
        .iter()
        .filter_map(|item| match item {
            Item::Text { text, at, .. } if names.contains(text) => {
                Some((at.y * 10.0).round() as i64)
            }
            _ => None,
        })
        .collect()
}

// Long names side by side would run into each other: they take turns on two rows; short
// ones keep to one.
#[test]
fn long_names_on_the_x_axis_take_two_rows() {
    let long = [
        "empty-16x16",
        "five-robots",
        "fogleman-22",
        "hansel-24",
        "hardest-25",
        "real-21",
        "small-6x6",
        "standard-random",
        "another-long-name",
        "and-one-more-long",
        "twelve-chars",
        "thirteen-char",
    ];
    assert_eq!(name_rows(&long).len(), 2);
    assert_eq!(name_rows(&["a", "b", "c"]).len(), 1);
}

#[test]
fn an_empty_chart_says_so() {
    let chart = Chart {
        series: Vec::new(),
        ..sample()
    };
    assert!(texts(&drawing(&chart)).contains(&"no data".to_string()));
}
