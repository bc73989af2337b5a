//! Boards drawn for paper: a puzzle as a vector drawing measured in millimetres, written as
//! SVG ([`svg`]) or rasterised to PNG at a print resolution ([`png`]).
//!
//! The drawing is built once, by [`drawing`], as a flat list of [`Item`]s (filled rectangles,
//! lines, polygons and circles, in paint order); each format only translates items, so the SVG
//! and the PNG of one puzzle always show the same thing. It depends on the model alone.
//!
//! Charts ([`chart`]) are drawn on the same items, with text and polylines beside them: a plot
//! of the app or of a study as SVG or PNG from plain numbers.

pub mod animation;
pub mod chart;
pub mod chart_drawing;
pub mod colors;
#[cfg(test)]
mod colour_vision_tests;
pub mod frame_files;
pub mod page;
pub mod png;
pub mod search_animation;
pub mod svg;
pub mod text;

pub use colors::robot_rgb;

use crate::model::{Board, Direction, Pos, Puzzle, RobotColor, Shape, TargetColor};
use colors::RobotPalette;
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, TAU};

/// The smallest printed side, in millimetres: below it a cell is too small to hold a symbol.
pub const MIN_SIZE_MM: f32 = 20.0;
/// The largest printed side, in millimetres (a board two metres across).
pub const MAX_SIZE_MM: f32 = 2000.0;
/// The printed side when none is asked for: fits an A4 page with its margins.
pub const DEFAULT_SIZE_MM: f32 = 180.0;

/// What to draw and how large.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrintOptions {
    /// The length of the board's longer side on paper, in millimetres.
    pub size_mm: f32,
    /// Whether the robots are drawn (a bare board serves as a reusable game board).
    pub robots: bool,
}

impl Default for PrintOptions {
    fn default() -> PrintOptions {
        PrintOptions {
            size_mm: DEFAULT_SIZE_MM,
            robots: true,
        }
    }
}

/// Why a board cannot be drawn as asked.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PrintError {
    /// The printed size is not a number within the limits.
    #[error("the printed size must be between {MIN_SIZE_MM} and {MAX_SIZE_MM} mm, not {0}")]
    Size(f32),
    /// The resolution is not within the limits.
    #[error("the resolution must be between {min} and {max} dots per inch, not {0}", min = png::MIN_DPI, max = png::MAX_DPI)]
    Dpi(u32),
    /// The picture would be too large to hold in memory.
    #[error(
        "a {width}x{height} pixel image is larger than the {limit} megapixels allowed; \
         ask for a smaller size or resolution",
        limit = png::MAX_PIXELS / 1_000_000
    )]
    TooManyPixels {
        /// Its width in pixels.
        width: u32,
        /// Its height in pixels.
        height: u32,
    },
    /// The PNG encoder failed.
    #[error("could not encode the PNG: {0}")]
    Encode(String),
}

impl PrintOptions {
    /// Checks the size, so every format can rely on it.
    pub fn check(&self) -> Result<(), PrintError> {
        if !(MIN_SIZE_MM..=MAX_SIZE_MM).contains(&self.size_mm) {
            return Err(PrintError::Size(self.size_mm));
        }
        Ok(())
    }
}

/// The image formats a board is drawn in, named by a file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    /// Vector, sized in millimetres.
    Svg,
    /// Pixels at a print resolution.
    Png,
}

impl ImageFormat {
    /// The format a path's extension names (`.svg` or `.png`, in any case).
    pub fn from_path(path: &std::path::Path) -> Option<ImageFormat> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "svg" => Some(ImageFormat::Svg),
            "png" => Some(ImageFormat::Png),
            _ => None,
        }
    }
}

/// Draws a puzzle and encodes it: the file's bytes in `format`, a PNG at `dpi`.
pub fn image(
    puzzle: &Puzzle,
    options: PrintOptions,
    format: ImageFormat,
    dpi: u32,
) -> Result<Vec<u8>, PrintError> {
    options.check()?;
    let drawing = drawing(puzzle, options);
    match format {
        ImageFormat::Svg => Ok(svg::to_svg(&drawing).into_bytes()),
        ImageFormat::Png => png::to_png(&drawing, dpi),
    }
}

/// A colour as red, green and blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// The colour as `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// A point on paper, in millimetres from the board's top-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Millimetres to the right.
    pub x: f32,
    /// Millimetres down.
    pub y: f32,
}

/// An outline: its width in millimetres and its colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outline {
    /// The line's width in millimetres.
    pub width: f32,
    /// The line's colour.
    pub color: Rgb,
}

/// What each item stands for, so a reader of the SVG (or a test) can find every wall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The board's background.
    Board,
    /// A grid line between cells.
    Grid,
    /// A closed cell (the centre block).
    Closed,
    /// The glow behind the active target.
    Goal,
    /// A printed target symbol.
    Target,
    /// One cell side's wall.
    Wall,
    /// A robot.
    Robot,
    /// The colour's letter on a robot or a target, which tells them apart without colour.
    Letter,
    /// The path of the move that led to an animation frame's position.
    Trail,
    /// A chart's background, frame and axes.
    Axis,
    /// A chart's title, axis names and tick labels.
    Label,
    /// A chart's legend.
    Legend,
    /// A chart's data: its lines, points, bars and boxes.
    Series,
}

impl Role {
    /// The name used as the SVG class.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Board => "board",
            Role::Grid => "grid",
            Role::Closed => "closed",
            Role::Goal => "goal",
            Role::Target => "target",
            Role::Wall => "wall",
            Role::Robot => "robot",
            Role::Letter => "letter",
            Role::Trail => "trail",
            Role::Axis => "axis",
            Role::Label => "label",
            Role::Legend => "legend",
            Role::Series => "series",
        }
    }
}

/// One thing to paint.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A filled axis-aligned rectangle.
    Rect {
        /// What it stands for.
        role: Role,
        /// Its top-left corner.
        min: Point,
        /// Its bottom-right corner.
        max: Point,
        /// Its fill.
        fill: Rgb,
    },
    /// A straight line with square ends, which extend it by half its width so that walls
    /// meeting at a corner join without a notch.
    Line {
        /// What it stands for.
        role: Role,
        /// One end.
        from: Point,
        /// The other end.
        to: Point,
        /// Its width and colour.
        stroke: Outline,
    },
    /// A filled polygon.
    Polygon {
        /// What it stands for.
        role: Role,
        /// Its corners in order.
        points: Vec<Point>,
        /// Its fill.
        fill: Rgb,
        /// Its outline, if any.
        outline: Option<Outline>,
    },
    /// A filled circle.
    Circle {
        /// What it stands for.
        role: Role,
        /// Its centre.
        center: Point,
        /// Its radius in millimetres.
        radius: f32,
        /// Its fill, if any (a ring has none).
        fill: Option<Rgb>,
        /// Its outline, if any.
        outline: Option<Outline>,
    },
    /// An open line through points, with round joins and ends, solid or dashed.
    Polyline {
        /// What it stands for.
        role: Role,
        /// Its points in order.
        points: Vec<Point>,
        /// Its width and colour.
        stroke: Outline,
        /// Whether it is drawn in dashes.
        dashed: bool,
    },
    /// One line of text in the chart font ([`text`]).
    Text {
        /// What it stands for.
        role: Role,
        /// The point its anchor sits on, on its baseline.
        at: Point,
        /// The text.
        text: String,
        /// The font size in millimetres (the em square).
        size: f32,
        /// Its colour.
        color: Rgb,
        /// Which part of the text sits at `at`.
        anchor: Anchor,
        /// Whether it reads upwards (turned a quarter turn anticlockwise), as a vertical
        /// axis's name does.
        upwards: bool,
    },
}

/// Which part of a line of text sits on its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// Its start.
    Start,
    /// Its middle.
    Middle,
    /// Its end.
    End,
}

impl Item {
    /// What the item stands for.
    pub fn role(&self) -> Role {
        match self {
            Item::Rect { role, .. }
            | Item::Line { role, .. }
            | Item::Polygon { role, .. }
            | Item::Circle { role, .. }
            | Item::Polyline { role, .. }
            | Item::Text { role, .. } => *role,
        }
    }
}

/// A board (or a chart) drawn on paper: its size in millimetres and its items in paint order.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    /// The width in millimetres.
    pub width_mm: f32,
    /// The height in millimetres.
    pub height_mm: f32,
    /// The length of one cell's side in millimetres (zero for a chart, which has no cells).
    pub cell_mm: f32,
    /// The margin around the cells, in millimetres: the outer half of the border walls.
    pub margin_mm: f32,
    /// What to paint, first to last.
    pub items: Vec<Item>,
}

// The printed palette: the app's light theme, which is what the real board looks like.
const BOARD: Rgb = Rgb(244, 240, 230);
const GRID: Rgb = Rgb(200, 192, 176);
const WALL: Rgb = Rgb(45, 42, 38);
const CLOSED: Rgb = Rgb(95, 90, 84);
const OUTLINE: Rgb = Rgb(30, 30, 30);
const GOAL: Rgb = Rgb(250, 214, 110);
/// A wall's width as a share of a cell's side.
const WALL_WIDTH: f32 = 0.12;

// The vortex's quarters, clockwise from the north, as the app paints them.
const VORTEX: [RobotColor; 4] = [
    RobotColor::Red,
    RobotColor::Blue,
    RobotColor::Green,
    RobotColor::Yellow,
];

/// Draws a puzzle: the board with its walls, closed cells and targets, the active target on a
/// glow, and the robots unless `options` leaves them out, in the chosen robot palette
/// ([`colors::robot_palette`]). `options` must have passed [`PrintOptions::check`]; a size
/// outside the limits is clamped into them.
pub fn drawing(puzzle: &Puzzle, options: PrintOptions) -> Drawing {
    drawing_in(puzzle, options, colors::robot_palette())
}

/// [`drawing`] in the robot colours of `palette`.
pub fn drawing_in(puzzle: &Puzzle, options: PrintOptions, palette: RobotPalette) -> Drawing {
    let board = puzzle.board();
    let size = options.size_mm.clamp(MIN_SIZE_MM, MAX_SIZE_MM);
    // The border walls are centred on the board's edge like every wall, so half a wall's
    // width of margin all round keeps them whole on paper.
    let cell = size / (f32::from(board.width().max(board.height())) + WALL_WIDTH);
    let margin = cell * WALL_WIDTH / 2.0;
    let width_mm = cell * f32::from(board.width()) + 2.0 * margin;
    let height_mm = cell * f32::from(board.height()) + 2.0 * margin;
    let at = |x: f32, y: f32| Point {
        x: margin + x * cell,
        y: margin + y * cell,
    };
    let mut items = vec![Item::Rect {
        role: Role::Board,
        min: at(0.0, 0.0),
        max: at(f32::from(board.width()), f32::from(board.height())),
        fill: BOARD,
    }];
    let grid = Outline {
        width: cell * 0.02,
        color: GRID,
    };
    for x in 1..board.width() {
        let x = f32::from(x);
        items.push(Item::Line {
            role: Role::Grid,
            from: at(x, 0.0),
            to: at(x, f32::from(board.height())),
            stroke: grid,
        });
    }
    for y in 1..board.height() {
        let y = f32::from(y);
        items.push(Item::Line {
            role: Role::Grid,
            from: at(0.0, y),
            to: at(f32::from(board.width()), y),
            stroke: grid,
        });
    }
    for pos in board.closed_cells() {
        let (x, y) = (f32::from(pos.x), f32::from(pos.y));
        items.push(Item::Rect {
            role: Role::Closed,
            min: at(x, y),
            max: at(x + 1.0, y + 1.0),
            fill: CLOSED,
        });
    }
    let goal = puzzle.goal();
    {
        let (x, y) = (f32::from(goal.pos.x), f32::from(goal.pos.y));
        items.push(Item::Rect {
            role: Role::Goal,
            min: at(x + 0.06, y + 0.06),
            max: at(x + 0.94, y + 0.94),
            fill: GOAL,
        });
    }
    let symbol_outline = Outline {
        width: cell * 0.035,
        color: OUTLINE,
    };
    for target in board.targets() {
        let active = target.pos == goal.pos;
        let radius = cell * if active { 0.34 } else { 0.26 };
        symbol(
            &mut items,
            at(f32::from(target.pos.x) + 0.5, f32::from(target.pos.y) + 0.5),
            radius,
            (target.color, target.shape),
            symbol_outline,
            palette,
        );
    }
    if board.target_at(goal.pos).is_none() {
        // An active target with no printed symbol: show what it asks for, as the app does.
        let shape = if goal.color == TargetColor::Any {
            Shape::Vortex
        } else {
            Shape::Square
        };
        symbol(
            &mut items,
            at(f32::from(goal.pos.x) + 0.5, f32::from(goal.pos.y) + 0.5),
            cell * 0.3,
            (goal.color, shape),
            symbol_outline,
            palette,
        );
    }
    let wall = Outline {
        width: cell * WALL_WIDTH,
        color: WALL,
    };
    for (from, to) in wall_segments(board) {
        items.push(Item::Line {
            role: Role::Wall,
            from: at(from.0, from.1),
            to: at(to.0, to.1),
            stroke: wall,
        });
    }
    if options.robots {
        for robot in puzzle.robots() {
            items.push(Item::Circle {
                role: Role::Robot,
                center: at(f32::from(robot.pos.x) + 0.5, f32::from(robot.pos.y) + 0.5),
                radius: cell * 0.36,
                fill: Some(palette.rgb(robot.color)),
                outline: Some(Outline {
                    width: cell * 0.05,
                    color: OUTLINE,
                }),
            });
        }
        for robot in puzzle.robots() {
            let center = at(f32::from(robot.pos.x) + 0.5, f32::from(robot.pos.y) + 0.5);
            let fill = palette.rgb(robot.color);
            items.push(colors::letter(
                center,
                cell * 0.42,
                robot.color.letter(),
                fill,
            ));
        }
    }
    Drawing {
        width_mm,
        height_mm,
        cell_mm: cell,
        margin_mm: margin,
        items,
    }
}

/// Every walled cell side once, as its two ends in cells from the top-left corner: the north
/// and west sides of each cell, and the south and east sides of the last row and column (the
/// other south and east sides are the next cell's north and west).
pub fn wall_segments(board: &Board) -> Vec<((f32, f32), (f32, f32))> {
    let mut segments = Vec::new();
    for y in 0..board.height() {
        for x in 0..board.width() {
            let pos = Pos::new(x, y);
            let cell = board.cell(pos);
            let (left, top) = (f32::from(x), f32::from(y));
            let mut sides = vec![Direction::North, Direction::West];
            if y + 1 == board.height() {
                sides.push(Direction::South);
            }
            if x + 1 == board.width() {
                sides.push(Direction::East);
            }
            for dir in sides {
                if !board.has_wall(cell, dir) {
                    continue;
                }
                segments.push(match dir {
                    Direction::North => ((left, top), (left + 1.0, top)),
                    Direction::West => ((left, top), (left, top + 1.0)),
                    Direction::South => ((left, top + 1.0), (left + 1.0, top + 1.0)),
                    Direction::East => ((left + 1.0, top), (left + 1.0, top + 1.0)),
                });
            }
        }
    }
    segments
}

/// One target symbol around a centre, in the shapes the app draws.
fn symbol(
    items: &mut Vec<Item>,
    center: Point,
    radius: f32,
    (color, shape): (TargetColor, Shape),
    outline: Outline,
    palette: RobotPalette,
) {
    let fill = palette.target_rgb(color);
    let around = |angle: f32, radius: f32| Point {
        x: center.x + radius * angle.cos(),
        y: center.y + radius * angle.sin(),
    };
    let polygon = |corners: usize, turn: f32| Item::Polygon {
        role: Role::Target,
        points: (0..corners)
            .map(|i| around(turn + i as f32 * TAU / corners as f32, radius))
            .collect(),
        fill,
        outline: Some(outline),
    };
    match shape {
        Shape::Circle => items.push(Item::Circle {
            role: Role::Target,
            center,
            radius: radius * 0.85,
            fill: Some(fill),
            outline: Some(outline),
        }),
        Shape::Triangle => items.push(polygon(3, -FRAC_PI_2)),
        Shape::Square => items.push(polygon(4, FRAC_PI_4)),
        Shape::Hexagon => items.push(polygon(6, 0.0)),
        Shape::Vortex => {
            for (quarter, robot) in VORTEX.into_iter().enumerate() {
                let start = -FRAC_PI_2 + quarter as f32 * FRAC_PI_2;
                let mut points = vec![center];
                points.extend(
                    (0..=8).map(|step| around(start + step as f32 / 8.0 * FRAC_PI_2, radius)),
                );
                items.push(Item::Polygon {
                    role: Role::Target,
                    points,
                    fill: palette.rgb(robot),
                    outline: None,
                });
            }
            items.push(Item::Circle {
                role: Role::Target,
                center,
                radius,
                fill: None,
                outline: Some(outline),
            });
        }
    }
    if let Some(letter) = colors::target_letter(color) {
        items.push(colors::letter(center, radius * 0.95, letter, fill));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;

    #[test]
    fn every_wall_of_the_board_is_one_segment() {
        let puzzle = samples::fogleman_22();
        let board = puzzle.board();
        let mut sides = 0;
        for y in 0..board.height() {
            for x in 0..board.width() {
                let cell = board.cell(Pos::new(x, y));
                sides += Direction::ALL
                    .iter()
                    .filter(|&&dir| board.has_wall(cell, dir))
                    .count();
            }
        }
        // An inner wall is recorded on both its cells; a border wall on one.
        let border = 2 * (usize::from(board.width()) + usize::from(board.height()));
        let segments = wall_segments(board).len();
        assert_eq!(2 * segments - border, sides);
    }

    #[test]
    fn the_drawing_has_the_asked_size_and_leaves_robots_out_on_request() {
        let puzzle = samples::fogleman_22();
        let with = drawing(&puzzle, PrintOptions::default());
        assert!((with.width_mm.max(with.height_mm) - DEFAULT_SIZE_MM).abs() < 1e-3);
        let robots = |d: &Drawing| d.items.iter().filter(|i| i.role() == Role::Robot).count();
        assert_eq!(robots(&with), puzzle.robots().len());
        let without = drawing(
            &puzzle,
            PrintOptions {
                robots: false,
                ..PrintOptions::default()
            },
        );
        assert_eq!(robots(&without), 0);
    }

    #[test]
    fn sizes_outside_the_limits_are_refused() {
        for size in [0.0, -5.0, f32::NAN, f32::INFINITY, 19.9, 2000.5] {
            let options = PrintOptions {
                size_mm: size,
                robots: true,
            };
            assert!(options.check().is_err(), "{size} was accepted");
        }
        assert!(PrintOptions::default().check().is_ok());
    }
}
