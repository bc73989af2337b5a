//! Robots told apart without colour: boards drawn as the print layer draws them, seen through
//! simulated deuteranopia and protanopia (Machado, Oliveira and Fernandes' 2009 matrices at
//! full severity), still show every pair of robots different.

use super::colors::RobotPalette;
use super::{PrintOptions, drawing_in, png};
use crate::model::{RobotColor, formats};

/// Machado et al.'s simulation of protanopia (no long-wavelength cones), severity 1.
const PROTANOPIA: [[f32; 3]; 3] = [
    [0.152_286, 1.052_583, -0.204_868],
    [0.114_503, 0.786_281, 0.099_216],
    [-0.003_882, -0.048_116, 1.051_998],
];

/// Machado et al.'s simulation of deuteranopia (no medium-wavelength cones), severity 1.
const DEUTERANOPIA: [[f32; 3]; 3] = [
    [0.367_322, 0.860_646, -0.227_968],
    [0.280_085, 0.672_501, 0.047_413],
    [-0.011_820, 0.042_940, 0.968_881],
];

/// Every robot on a small board, one per row, apart from walls and targets.
const FIVE_ROBOTS: &str = "(
    format: 1,
    width: 5,
    height: 5,
    walls: [],
    closed: [],
    targets: [(x: 4, y: 4, color: Red, shape: Circle)],
    robots: [
        (color: Red, x: 0, y: 0),
        (color: Green, x: 2, y: 1),
        (color: Blue, x: 4, y: 2),
        (color: Yellow, x: 1, y: 3),
        (color: Silver, x: 3, y: 4),
    ],
    goal: (x: 4, y: 4, color: Red),
    rules: (ricochet: false, no_rebound: false),
)";

/// sRGB to linear light and back, as the matrices are meant for linear values.
fn to_linear(channel: u8) -> f32 {
    let c = f32::from(channel) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn to_srgb(linear: f32) -> f32 {
    let c = linear.clamp(0.0, 1.0);
    let encoded = if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    encoded * 255.0
}

/// A pixel as a viewer with the simulated deficiency sees it, in sRGB from 0 to 255.
fn simulate(matrix: &[[f32; 3]; 3], rgb: [u8; 3]) -> [f32; 3] {
    let linear = rgb.map(to_linear);
    matrix.map(|row| to_srgb(row[0] * linear[0] + row[1] * linear[1] + row[2] * linear[2]))
}

fn distance(a: [f32; 3], b: [f32; 3]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f32>()
        .sqrt()
}

/// Each robot's sprite as simulated: the pixels of the square inside its disc, row by row.
fn sprites(palette: RobotPalette, matrix: &[[f32; 3]; 3]) -> Vec<(RobotColor, Vec<[f32; 3]>)> {
    let puzzle = formats::native::parse(FIVE_ROBOTS).unwrap();
    let drawing = drawing_in(&puzzle, PrintOptions::default(), palette);
    let (width, height) = png::pixel_size(&drawing, 100);
    let pixmap = png::rasterize(&drawing, width, height).unwrap();
    let per_mm = width as f32 / drawing.width_mm;
    // The disc's radius is 0.36 of a cell: a square of half-side 0.25 stays inside it.
    let half = (drawing.cell_mm * 0.25 * per_mm) as i32;
    puzzle
        .robots()
        .iter()
        .map(|robot| {
            let centre = |cell: u16| {
                ((drawing.margin_mm + (f32::from(cell) + 0.5) * drawing.cell_mm) * per_mm) as i32
            };
            let (cx, cy) = (centre(robot.pos.x), centre(robot.pos.y));
            let mut pixels = Vec::new();
            for y in cy - half..cy + half {
                for x in cx - half..cx + half {
                    let pixel = pixmap.pixel(x as u32, y as u32).unwrap();
                    let rgb = [pixel.red(), pixel.green(), pixel.blue()];
                    pixels.push(simulate(matrix, rgb));
                }
            }
            (robot.color, pixels)
        })
        .collect()
}

/// The share of two sprites' pixels that differ by more than a clearly visible step.
fn differing_share(a: &[[f32; 3]], b: &[[f32; 3]]) -> f32 {
    let differing = a.iter().zip(b).filter(|(p, q)| distance(**p, **q) > 80.0);
    differing.count() as f32 / a.len() as f32
}

/// The mean colour of a sprite: its fill, nearly (the letter covers a small part).
fn mean(sprite: &[[f32; 3]]) -> [f32; 3] {
    let mut sum = [0.0; 3];
    for pixel in sprite {
        for (total, value) in sum.iter_mut().zip(pixel) {
            *total += value;
        }
    }
    sum.map(|total| total / sprite.len() as f32)
}

// With red and green alike to a deuteranope, each robot's letter still sets its sprite apart:
// a good part of any two robots' sprites differs by a large step in either palette.
#[test]
fn every_robot_pair_differs_under_simulated_deuteranopia_and_protanopia() {
    for palette in RobotPalette::ALL {
        for (name, matrix) in [("deuteranopia", DEUTERANOPIA), ("protanopia", PROTANOPIA)] {
            let sprites = sprites(palette, &matrix);
            assert_eq!(sprites.len(), 5);
            for (i, (first, a)) in sprites.iter().enumerate() {
                for (second, b) in &sprites[i + 1..] {
                    let share = differing_share(a, b);
                    assert!(
                        share > 0.02,
                        "{palette:?} under {name}: {first} and {second} differ in only {:.1}% \
                         of their sprites",
                        share * 100.0
                    );
                }
            }
        }
    }
}

// The Okabe–Ito palette keeps the robots' own colours apart too under both simulations, while
// the game's red and green come close to each other under deuteranopia.
#[test]
fn the_colour_blind_safe_palette_keeps_the_fills_apart() {
    let closest = |palette: RobotPalette, matrix: &[[f32; 3]; 3]| {
        let means: Vec<_> = sprites(palette, matrix)
            .into_iter()
            .map(|(color, sprite)| (color, mean(&sprite)))
            .collect();
        let mut closest = f32::INFINITY;
        for (i, (_, a)) in means.iter().enumerate() {
            for (_, b) in &means[i + 1..] {
                closest = closest.min(distance(*a, *b));
            }
        }
        closest
    };
    for matrix in [DEUTERANOPIA, PROTANOPIA] {
        let safe = closest(RobotPalette::OkabeIto, &matrix);
        let classic = closest(RobotPalette::Classic, &matrix);
        eprintln!("closest pair: Okabe–Ito {safe:.1}, classic {classic:.1}");
        assert!(safe > classic, "Okabe–Ito {safe:.1}, classic {classic:.1}");
        assert!(safe > 60.0, "Okabe–Ito's closest pair is {safe:.1} apart");
    }
}
