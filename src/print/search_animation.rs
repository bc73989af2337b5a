//! A stretch of a search shown as pictures: one frame per node the search examined, each the
//! print drawing of the node's position with its whole path from the start drawn as arrows in
//! the robots' colours, the last move bold and the earlier ones faded, over a caption that says
//! which event it is and what became of the node. Encoded by [`super::animation::animate`] like
//! a solution's playback, within the same limits.

use super::animation::{AnimationError, AnimationOptions, Encoded, MAX_FRAMES, Output, animate};
use super::{
    Anchor, BOARD, Drawing, Item, Outline, Point, PrintOptions, Rgb, Role, WALL, robot_rgb, text,
};
use crate::model::{Cell, Move, MoveTables, Puzzle};

/// One node of a search, as a frame shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchStep {
    /// The number of its event in the search (from 0).
    pub event: u64,
    /// Its distance from the start.
    pub depth: u32,
    /// The robots' cells there, in the puzzle's robot order.
    pub cells: Vec<Cell>,
    /// The moves from the start to it.
    pub path: Vec<Move>,
    /// What the search recorded of it after examining it.
    pub outcome: StepOutcome,
}

/// What a search recorded of a node between examining it and the next node. A prune's
/// reason comes in words (the solver layer's `PruneReason::in_brief`), so that this layer
/// draws from the model alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepOutcome {
    /// Nothing: the search went on from it (or the stretch ends first).
    Examined,
    /// It was cut off, for this reason, in a few words ("needs 3, 1 left").
    Pruned(String),
    /// Its path is a solution.
    Solution,
}

/// The caption under a node's frame: the event's number, what became of the node, its depth
/// and its path's length, so that a frame shown alone says what it is.
pub fn caption(step: &SearchStep) -> String {
    let what = match &step.outcome {
        StepOutcome::Examined => "node".to_string(),
        StepOutcome::Pruned(reason) => format!("pruned: {reason}"),
        StepOutcome::Solution => "solution".to_string(),
    };
    let moves = match step.path.len() {
        1 => "1 move".to_string(),
        n => format!("{n} moves"),
    };
    format!(
        "event {} · {what} · depth {} · path {moves}",
        step.event, step.depth
    )
}

/// The caption's font size as a share of the frame's width: at 800 pixels, capitals about 18
/// pixels high, readable in a chat's preview.
const CAPTION_SIZE: f32 = 0.032;

/// Puts `caption` in a strip under the drawing: one line in the walls' colour on the board's,
/// made smaller when it would not fit the width.
fn add_caption(drawing: &mut Drawing, caption: &str) {
    let width = drawing.width_mm;
    let mut size = width * CAPTION_SIZE;
    let pad = size * 0.6;
    let strip = size * 1.7;
    let needed = text::width(caption, size);
    if needed > width - 2.0 * pad {
        size *= (width - 2.0 * pad) / needed;
    }
    let top = drawing.height_mm;
    drawing.height_mm += strip;
    drawing.items.push(Item::Rect {
        role: Role::Label,
        min: Point { x: 0.0, y: top },
        max: Point {
            x: width,
            y: top + strip,
        },
        fill: BOARD,
    });
    drawing.items.push(Item::Text {
        role: Role::Label,
        // The baseline sits so that capitals stand in the middle of the strip.
        at: Point {
            x: pad,
            y: top + strip / 2.0 + size * 0.35,
        },
        text: caption.to_string(),
        size,
        color: WALL,
        anchor: Anchor::Start,
        upwards: false,
    });
}

/// How much of the robot's colour an earlier move of the path keeps (the rest is the board's),
/// so the move that led to the node stands out.
const FADED: f32 = 0.45;

/// The drawing of one node: its position, its path as arrows from cell to cell, and its
/// [`caption`] in a strip underneath.
pub fn search_drawing(puzzle: &Puzzle, step: &SearchStep) -> Result<Drawing, AnimationError> {
    let board = puzzle.board();
    let tables = MoveTables::new(board);
    let mut cells = puzzle.robot_cells();
    let mut segments = Vec::with_capacity(step.path.len());
    for mv in &step.path {
        let index = puzzle
            .robot_index(mv.robot)
            .ok_or(AnimationError::UnknownRobot(mv.robot))?;
        let from = cells[index];
        cells[index] = tables.slide(&cells, index, mv.dir);
        segments.push((from, cells[index], robot_rgb(mv.robot)));
    }
    // The node's own cells, as the search reported them; the path's end when they do not fit.
    let shown = if step.cells.len() == cells.len() {
        &step.cells
    } else {
        &cells
    };
    let mut drawing = super::drawing(&puzzle.with_robot_cells(shown), PrintOptions::default());
    let cell_mm = drawing.cell_mm;
    let centre = |cell: Cell| {
        let pos = board.pos(cell);
        Point {
            x: drawing.margin_mm + (f32::from(pos.x) + 0.5) * cell_mm,
            y: drawing.margin_mm + (f32::from(pos.y) + 0.5) * cell_mm,
        }
    };
    let mut arrows = Vec::with_capacity(segments.len() * 2);
    let last = segments.len().saturating_sub(1);
    for (at, &(from, to, color)) in segments.iter().enumerate() {
        if from == to {
            continue;
        }
        let (color, width) = if at == last {
            (color, 0.2)
        } else {
            (blend(color, BOARD, FADED), 0.13)
        };
        arrows.extend(arrow(centre(from), centre(to), cell_mm, width, color));
    }
    // Under the robots, over the board and its walls.
    let under_robots = drawing
        .items
        .iter()
        .position(|item| item.role() == Role::Robot)
        .unwrap_or(drawing.items.len());
    drawing.items.splice(under_robots..under_robots, arrows);
    add_caption(&mut drawing, &caption(step));
    Ok(drawing)
}

/// A line from `from` to `to` with an arrowhead short of `to`, where the robot at the end
/// would hide it; `width` is the line's width as a share of a cell.
fn arrow(from: Point, to: Point, cell_mm: f32, width: f32, color: Rgb) -> [Item; 2] {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    let length = (dx * dx + dy * dy).sqrt().max(f32::EPSILON);
    let (ux, uy) = (dx / length, dy / length);
    let tip = Point {
        x: to.x - ux * cell_mm * 0.4,
        y: to.y - uy * cell_mm * 0.4,
    };
    let (back, half) = (cell_mm * 0.32, cell_mm * 0.2);
    let base = Point {
        x: tip.x - ux * back,
        y: tip.y - uy * back,
    };
    let line = Item::Line {
        role: Role::Trail,
        from,
        to: base,
        stroke: Outline {
            width: cell_mm * width,
            color,
        },
    };
    let head = Item::Polygon {
        role: Role::Trail,
        points: vec![
            tip,
            Point {
                x: base.x - uy * half,
                y: base.y + ux * half,
            },
            Point {
                x: base.x + uy * half,
                y: base.y - ux * half,
            },
        ],
        fill: color,
        outline: None,
    };
    [line, head]
}

/// `share` of `color` and the rest of `under`.
fn blend(color: Rgb, under: Rgb, share: f32) -> Rgb {
    let mix = |a: u8, b: u8| (f32::from(a) * share + f32::from(b) * (1.0 - share)).round() as u8;
    Rgb(
        mix(color.0, under.0),
        mix(color.1, under.1),
        mix(color.2, under.2),
    )
}

/// Draws and encodes a stretch of a search, one frame per step (at most [`MAX_FRAMES`]);
/// `on_frame` is told each frame's number and returns `false` to stop.
pub fn search_animation(
    puzzle: &Puzzle,
    steps: &[SearchStep],
    output: Output,
    options: AnimationOptions,
    on_frame: &mut dyn FnMut(usize) -> bool,
) -> Result<Encoded, AnimationError> {
    options.check()?;
    if steps.len() > MAX_FRAMES {
        return Err(AnimationError::TooManyFrames(steps.len()));
    }
    let drawings = steps
        .iter()
        .map(|step| search_drawing(puzzle, step))
        .collect::<Result<Vec<_>, _>>()?;
    animate(&drawings, output, options, on_frame)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::moves::parse_moves;
    use crate::print::animation::AnimationFormat;
    use crate::print::animation::tests::corner_puzzle;

    fn step(puzzle: &Puzzle, event: u64, moves: &str) -> SearchStep {
        let path = if moves.is_empty() {
            Vec::new()
        } else {
            parse_moves(moves).unwrap()
        };
        let mut cells = puzzle.robot_cells();
        let tables = MoveTables::new(puzzle.board());
        for mv in &path {
            cells[0] = tables.slide(&cells, 0, mv.dir);
        }
        SearchStep {
            event,
            depth: path.len() as u32,
            cells,
            path,
            outcome: StepOutcome::Examined,
        }
    }

    #[test]
    fn captions_name_the_event_what_became_of_the_node_its_depth_and_path() {
        let puzzle = corner_puzzle();
        let mut deep = step(&puzzle, 5, "RE, RS");
        assert_eq!(caption(&deep), "event 5 · node · depth 2 · path 2 moves");
        deep.outcome = StepOutcome::Pruned("needs 3, 1 left".into());
        assert_eq!(
            caption(&deep),
            "event 5 · pruned: needs 3, 1 left · depth 2 · path 2 moves"
        );
        let mut one = step(&puzzle, 7, "RE");
        one.outcome = StepOutcome::Solution;
        assert_eq!(caption(&one), "event 7 · solution · depth 1 · path 1 move");
    }

    #[test]
    fn a_frame_shows_its_caption_in_ink_under_the_board() {
        let puzzle = corner_puzzle();
        let drawing = search_drawing(&puzzle, &step(&puzzle, 12345, "RE")).unwrap();
        assert!(
            drawing.height_mm > drawing.width_mm,
            "a strip is added under the board"
        );
        let frame = crate::print::animation::frame_of(&drawing, 400).unwrap();
        let board_rows = (frame.height as f32 * drawing.width_mm / drawing.height_mm) as usize;
        let width = frame.width as usize;
        // Ink: opaque pixels nearer the walls' colour than the board's, in the strip's rows.
        let dark = |row: usize| {
            (0..width)
                .filter(|&x| {
                    let at = (row * width + x) * 4;
                    let px = &frame.rgba[at..at + 4];
                    px[3] == 255 && px[..3].iter().map(|&c| u32::from(c)).sum::<u32>() < 3 * 128
                })
                .count()
        };
        let ink: usize = (board_rows + 1..frame.height as usize).map(dark).sum();
        assert!(ink > 50, "only {ink} dark pixels in the caption");
        // And none below the text's line: the strip is the board's colour round it.
        assert_eq!(dark(frame.height as usize - 2), 0);
    }

    #[test]
    fn each_move_of_the_path_is_an_arrow_and_the_last_is_in_full_colour() {
        let puzzle = corner_puzzle();
        let root = search_drawing(&puzzle, &step(&puzzle, 0, "")).unwrap();
        let deep = search_drawing(&puzzle, &step(&puzzle, 5, "RE, RS")).unwrap();
        let trails = |d: &Drawing| d.items.iter().filter(|i| i.role() == Role::Trail).count();
        assert_eq!(trails(&root), 0);
        // A line and a head for each move.
        assert_eq!(trails(&deep), 4);
        let colours: Vec<Rgb> = deep
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Line {
                    role: Role::Trail,
                    stroke,
                    ..
                } => Some(stroke.color),
                _ => None,
            })
            .collect();
        let red = robot_rgb(crate::model::RobotColor::Red);
        assert_eq!(colours, [blend(red, BOARD, FADED), red]);
        // The arrows lie under the robot.
        let robot = deep.items.iter().position(|i| i.role() == Role::Robot);
        let arrow = deep.items.iter().rposition(|i| i.role() == Role::Trail);
        assert!(arrow < robot);
    }

    #[test]
    fn a_stretch_gives_one_frame_per_node_and_past_the_cap_is_refused() {
        let puzzle = corner_puzzle();
        let steps = vec![
            step(&puzzle, 1, ""),
            step(&puzzle, 2, "RE"),
            step(&puzzle, 4, "RS"),
            step(&puzzle, 6, "RE, RS"),
        ];
        let options = AnimationOptions {
            side_px: 64,
            delay_ms: 100,
            numbered: false,
        };
        let mut seen = Vec::new();
        let encoded = search_animation(&puzzle, &steps, Output::Frames, options, &mut |i| {
            seen.push(i);
            true
        })
        .unwrap();
        assert_eq!(seen, [0, 1, 2, 3]);
        let Encoded::Frames(pngs) = encoded else {
            panic!("frames were asked for")
        };
        assert_eq!(pngs.len(), 4);
        let gif = Output::Animation(AnimationFormat::Gif);
        let too_many = vec![steps[0].clone(); MAX_FRAMES + 1];
        assert_eq!(
            search_animation(&puzzle, &too_many, gif, options, &mut |_| true),
            Err(AnimationError::TooManyFrames(MAX_FRAMES + 1))
        );
        assert_eq!(
            search_animation(&puzzle, &[], gif, options, &mut |_| true),
            Err(AnimationError::NoFrames)
        );
        // Stopping after the first frame ends the encoding.
        assert_eq!(
            search_animation(&puzzle, &steps, gif, options, &mut |i| i < 1),
            Err(AnimationError::Cancelled)
        );
    }
}
