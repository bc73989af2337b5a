//! A solution played back as pictures to share: an animated GIF, an animated PNG (APNG), or
//! numbered PNG frames, one frame per position from the start to the goal.
//!
//! Each frame is the print drawing of the position ([`super::drawing`]) with the last move's
//! path drawn under its robot as a trail in the robot's colour, rasterised at a chosen size
//! in pixels. The last frame is held longer, so a looping animation shows the goal reached.
//!
//! The GIF takes one palette of 255 colours learnt (NeuQuant) from the first and last frames,
//! which show every colour the animation uses, and stores of each later frame only the
//! rectangle that changed, its unchanged pixels in the 256th, transparent: the board itself
//! is stored once.

use super::png::{encode_rgba, rasterize};
use super::{Drawing, Item, Outline, Point, PrintError, PrintOptions, Role, robot_rgb};
use crate::model::moves::{Move, MoveTables};
use crate::model::puzzle::{Puzzle, ReplayError};
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// The smallest side of an animation, in pixels: below it a cell is a few pixels wide.
pub const MIN_SIDE_PX: u32 = 64;
/// The largest side of an animation, in pixels.
pub const MAX_SIDE_PX: u32 = 4000;
/// The side when none is asked for: sharp on a screen, small enough to mail.
pub const DEFAULT_SIDE_PX: u32 = 800;
/// The shortest time a frame is shown, in milliseconds (GIF counts in hundredths, and many
/// viewers show anything shorter than 20 ms as 100 ms).
pub const MIN_DELAY_MS: u32 = 20;
/// The longest time a frame is shown, in milliseconds.
pub const MAX_DELAY_MS: u32 = 60_000;
/// The time a frame is shown when none is asked for: long enough to follow a move.
pub const DEFAULT_DELAY_MS: u32 = 700;
/// How many frame times the last frame (the goal reached) is held before the loop restarts.
pub const HOLD_LAST: u32 = 3;
/// The most frames one animation may have. Each frame is drawn and encoded on its own, so
/// memory is not the bound: at 800 pixels a frame takes about 10 ms to draw and encode, so
/// 2,000 frames take half a minute, and an animation of 2,000 steps at the shortest delay
/// already plays for 40 s.
pub const MAX_FRAMES: usize = 2000;

/// The animated formats, named by a file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnimationFormat {
    /// An animated GIF (`.gif`), which every browser, chat and slide program plays.
    Gif,
    /// An animated PNG (`.png`): full colour, played by browsers; other viewers show the
    /// first frame.
    Apng,
}

impl AnimationFormat {
    /// The format a path's extension names (`.gif` or `.png`, in any case).
    pub fn from_path(path: &std::path::Path) -> Option<AnimationFormat> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "gif" => Some(AnimationFormat::Gif),
            "png" | "apng" => Some(AnimationFormat::Apng),
            _ => None,
        }
    }
}

/// The size and pace of an animation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnimationOptions {
    /// The length of the picture's longer side, in pixels.
    pub side_px: u32,
    /// How long each frame is shown, in milliseconds.
    pub delay_ms: u32,
    /// Whether each frame of a solution carries its move number (and the move) in a band
    /// below the board.
    pub numbered: bool,
}

impl Default for AnimationOptions {
    fn default() -> AnimationOptions {
        AnimationOptions {
            side_px: DEFAULT_SIDE_PX,
            delay_ms: DEFAULT_DELAY_MS,
            numbered: false,
        }
    }
}

/// Why an animation cannot be made as asked.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum AnimationError {
    /// The side is outside the limits.
    #[error("the animation's side must be {MIN_SIDE_PX} to {MAX_SIDE_PX} pixels, not {0}")]
    Side(u32),
    /// The delay is outside the limits.
    #[error("a frame's delay must be {MIN_DELAY_MS} to {MAX_DELAY_MS} ms, not {0}")]
    Delay(u32),
    /// The moves are not a solution of the puzzle.
    #[error("the moves do not solve the puzzle: {0}")]
    Replay(#[from] ReplayError),
    /// Drawing or encoding failed.
    #[error("{0}")]
    Print(#[from] PrintError),
    /// The GIF encoder failed.
    #[error("could not encode the GIF: {0}")]
    Gif(String),
    /// There is nothing to animate.
    #[error("there are no frames to animate")]
    NoFrames,
    /// More frames than an animation may have.
    #[error(
        "{0} frames are more than the {MAX_FRAMES} an animation may have; choose a shorter stretch"
    )]
    TooManyFrames(usize),
    /// A path moves a robot the puzzle does not have.
    #[error("the path moves the {0} robot, which the puzzle does not have")]
    UnknownRobot(crate::model::RobotColor),
    /// The caller asked to stop.
    #[error("the export was cancelled")]
    Cancelled,
}

impl AnimationOptions {
    /// Checks the side and the delay.
    pub fn check(&self) -> Result<(), AnimationError> {
        if !(MIN_SIDE_PX..=MAX_SIDE_PX).contains(&self.side_px) {
            return Err(AnimationError::Side(self.side_px));
        }
        if !(MIN_DELAY_MS..=MAX_DELAY_MS).contains(&self.delay_ms) {
            return Err(AnimationError::Delay(self.delay_ms));
        }
        Ok(())
    }
}

/// One frame's pixels: 8-bit RGBA rows from the top, opaque.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes.
    pub rgba: Vec<u8>,
}

/// The drawings of a solution's playback: the start, then the position after each move with
/// that move's path as a trail. The moves must solve the puzzle (they are replayed).
pub fn solution_drawings(puzzle: &Puzzle, moves: &[Move]) -> Result<Vec<Drawing>, ReplayError> {
    puzzle.replay(moves)?;
    let board = puzzle.board();
    let tables = MoveTables::new(board);
    let options = PrintOptions::default();
    let mut cells = puzzle.robot_cells();
    let mut drawings = vec![super::drawing(puzzle, options)];
    for mv in moves {
        // The replay above found every robot and every move.
        let Some(index) = puzzle.robot_index(mv.robot) else {
            break;
        };
        let from = cells[index];
        cells[index] = tables.slide(&cells, index, mv.dir);
        let mut drawing = super::drawing(&puzzle.with_robot_cells(&cells), options);
        let centre = |cell| {
            let pos = board.pos(cell);
            Point {
                x: drawing.margin_mm + (f32::from(pos.x) + 0.5) * drawing.cell_mm,
                y: drawing.margin_mm + (f32::from(pos.y) + 0.5) * drawing.cell_mm,
            }
        };
        let trail = Item::Line {
            role: Role::Trail,
            from: centre(from),
            to: centre(cells[index]),
            stroke: Outline {
                width: drawing.cell_mm * 0.22,
                color: robot_rgb(mv.robot),
            },
        };
        // Under the robots, over the board, so the robot that moved sits at its trail's end.
        let at = drawing
            .items
            .iter()
            .position(|item| item.role() == Role::Robot)
            .unwrap_or(drawing.items.len());
        drawing.items.insert(at, trail);
        drawings.push(drawing);
    }
    Ok(drawings)
}

/// The frames of a solution's playback at the asked size.
pub fn solution_frames(
    puzzle: &Puzzle,
    moves: &[Move],
    options: AnimationOptions,
) -> Result<Vec<Frame>, AnimationError> {
    options.check()?;
    let mut drawings = solution_drawings(puzzle, moves)?;
    if options.numbered {
        for (index, drawing) in drawings.iter_mut().enumerate() {
            add_caption(drawing, frame_caption(index, moves));
        }
    }
    drawings
        .iter()
        .map(|drawing| frame_of(drawing, options.side_px).map_err(AnimationError::from))
        .collect()
}

/// What frame `index` of a solution's playback says: the start, then each move with its
/// number.
fn frame_caption(index: usize, moves: &[Move]) -> String {
    match index.checked_sub(1).and_then(|at| moves.get(at)) {
        Some(mv) => format!("Move {index} of {}: {mv}", moves.len()),
        None => format!("Start: {} moves", moves.len()),
    }
}

/// Writes `text` in a band added below the drawing: every frame gains the same band, so the
/// frames keep one size.
fn add_caption(drawing: &mut Drawing, text: String) {
    let band = (drawing.height_mm * 0.07).max(drawing.cell_mm * 0.8);
    let top = drawing.height_mm;
    drawing.height_mm += band;
    drawing.items.push(Item::Rect {
        role: Role::Label,
        min: Point { x: 0.0, y: top },
        max: Point {
            x: drawing.width_mm,
            y: drawing.height_mm,
        },
        fill: super::BOARD,
    });
    drawing.items.push(Item::Text {
        role: Role::Label,
        at: Point {
            x: drawing.width_mm / 2.0,
            y: top + band * 0.72,
        },
        text,
        size: band * 0.6,
        color: super::OUTLINE,
        anchor: super::Anchor::Middle,
        upwards: false,
    });
}

/// A drawing rasterised with its longer side `side_px` pixels long.
pub fn frame_of(drawing: &Drawing, side_px: u32) -> Result<Frame, PrintError> {
    let per_mm = side_px as f32 / drawing.width_mm.max(drawing.height_mm);
    let pixels = |mm: f32| ((mm * per_mm).round() as u32).max(1);
    let pixmap = rasterize(drawing, pixels(drawing.width_mm), pixels(drawing.height_mm))?;
    Ok(Frame {
        width: pixmap.width(),
        height: pixmap.height(),
        rgba: pixmap.take(),
    })
}

/// The delay of frame `index` of `count`, in milliseconds: the last one is held longer.
fn delay_of(index: usize, count: usize, delay_ms: u32) -> u32 {
    if index + 1 == count {
        delay_ms.saturating_mul(HOLD_LAST)
    } else {
        delay_ms
    }
}

/// What an animation is written as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// One animated file.
    Animation(AnimationFormat),
    /// One PNG per frame.
    Frames,
}

/// An animation's bytes: one file, or one PNG per frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Encoded {
    /// The animated file.
    File(Vec<u8>),
    /// The frames, in order.
    Frames(Vec<Vec<u8>>),
}

impl Encoded {
    /// The number of bytes in all.
    pub fn len(&self) -> usize {
        match self {
            Encoded::File(bytes) => bytes.len(),
            Encoded::Frames(pngs) => pngs.iter().map(Vec::len).sum(),
        }
    }

    /// Whether there are no bytes at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Draws and encodes `drawings` one frame at a time, so that only a frame or two of pixels
/// are held whatever their number. `on_frame` is told each frame's number as it is encoded
/// and returns `false` to stop, which ends in [`AnimationError::Cancelled`]. At most
/// [`MAX_FRAMES`] drawings.
pub fn animate(
    drawings: &[Drawing],
    output: Output,
    options: AnimationOptions,
    on_frame: &mut dyn FnMut(usize) -> bool,
) -> Result<Encoded, AnimationError> {
    options.check()?;
    if drawings.is_empty() {
        return Err(AnimationError::NoFrames);
    }
    if drawings.len() > MAX_FRAMES {
        return Err(AnimationError::TooManyFrames(drawings.len()));
    }
    let mut source = |index: usize| {
        if !on_frame(index) {
            return Err(AnimationError::Cancelled);
        }
        Ok(Cow::Owned(frame_of(&drawings[index], options.side_px)?))
    };
    match output {
        Output::Animation(AnimationFormat::Gif) => {
            // The palette is learnt before the first frame is written, from both ends.
            let last = drawings.len() - 1;
            let ends = [
                frame_of(&drawings[0], options.side_px)?,
                frame_of(&drawings[last], options.side_px)?,
            ];
            encode_gif(drawings.len(), &ends, options.delay_ms, &mut source).map(Encoded::File)
        }
        Output::Animation(AnimationFormat::Apng) => {
            encode_apng(drawings.len(), options.delay_ms, &mut source).map(Encoded::File)
        }
        Output::Frames => (0..drawings.len())
            .map(|index| {
                let frame = source(index)?;
                encode_rgba(frame.width, frame.height, &frame.rgba, None)
                    .map_err(AnimationError::from)
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Encoded::Frames),
    }
}

/// Where the encoders take frame `index` from.
type FrameSource<'a> = dyn FnMut(usize) -> Result<Cow<'a, Frame>, AnimationError> + 'a;

/// Encodes frames of one size as an animation that loops forever.
pub fn encode(
    frames: &[Frame],
    format: AnimationFormat,
    delay_ms: u32,
) -> Result<Vec<u8>, AnimationError> {
    let mut source = |index: usize| Ok(Cow::Borrowed(&frames[index]));
    match format {
        AnimationFormat::Gif => {
            let (Some(first), Some(last)) = (frames.first(), frames.last()) else {
                return Err(AnimationError::NoFrames);
            };
            encode_gif(
                frames.len(),
                &[first.clone(), last.clone()],
                delay_ms,
                &mut source,
            )
        }
        AnimationFormat::Apng => encode_apng(frames.len(), delay_ms, &mut source),
    }
}

/// Encodes each frame as a PNG of its own, for slides and for a teacher's handout.
pub fn encode_pngs(frames: &[Frame]) -> Result<Vec<Vec<u8>>, AnimationError> {
    frames
        .iter()
        .map(|f| encode_rgba(f.width, f.height, &f.rgba, None).map_err(AnimationError::from))
        .collect()
}

fn encode_apng(
    count: usize,
    delay_ms: u32,
    source: &mut FrameSource<'_>,
) -> Result<Vec<u8>, AnimationError> {
    let failed = |error: png::EncodingError| PrintError::Encode(error.to_string());
    if count == 0 {
        return Err(AnimationError::NoFrames);
    }
    let first = source(0)?;
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, first.width, first.height);
    // The frames are opaque: three bytes a pixel are enough.
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    encoder.set_animated(count as u32, 0).map_err(failed)?;
    let mut writer = encoder.write_header().map_err(failed)?;
    let mut next = Some(first);
    for index in 0..count {
        let frame = match next.take() {
            Some(frame) => frame,
            None => source(index)?,
        };
        let delay = delay_of(index, count, delay_ms).min(u32::from(u16::MAX));
        writer.set_frame_delay(delay as u16, 1000).map_err(failed)?;
        let rgb: Vec<u8> = frame
            .rgba
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        writer.write_image_data(&rgb).map_err(failed)?;
    }
    writer.finish().map_err(failed)?;
    Ok(bytes)
}

/// The palette index no colour takes: a pixel of a later frame that did not change is written
/// as it, transparent, so that the frame's rectangle is mostly one long run, which the GIF's
/// compression stores in a few bytes (a search frame changes its path and its caption, far
/// apart, so its rectangle spans most of the board).
const UNCHANGED: u8 = 255;

/// A palette of at most 255 colours (the 256th is [`UNCHANGED`]) and the index of each colour
/// met, memoised: a board has few colours besides the blends at the edges of its shapes.
struct Palette {
    quantizer: color_quant::NeuQuant,
    known: FxHashMap<[u8; 3], u8>,
}

impl Palette {
    fn learn(frames: &[Frame]) -> Palette {
        let sample: Vec<u8> = frames.iter().flat_map(|f| f.rgba.iter().copied()).collect();
        Palette {
            quantizer: color_quant::NeuQuant::new(10, usize::from(UNCHANGED), &sample),
            known: FxHashMap::default(),
        }
    }

    fn index(&mut self, pixel: &[u8]) -> u8 {
        let key = [pixel[0], pixel[1], pixel[2]];
        let quantizer = &self.quantizer;
        // The quantizer has 255 colours, so an index fits a byte and is never UNCHANGED.
        *self
            .known
            .entry(key)
            .or_insert_with(|| quantizer.index_of(&[key[0], key[1], key[2], 255]) as u8)
    }
}

/// Encodes `count` frames as a GIF whose palette is learnt from `ends`, the first and last
/// frames, which show every colour the animation uses.
fn encode_gif(
    count: usize,
    ends: &[Frame; 2],
    delay_ms: u32,
    source: &mut FrameSource<'_>,
) -> Result<Vec<u8>, AnimationError> {
    let failed = |error: gif::EncodingError| AnimationError::Gif(error.to_string());
    let (width, height) = (ends[0].width, ends[0].height);
    let too_large = || AnimationError::Gif(format!("{width}x{height} is larger than GIF's 65535"));
    let gif_width = u16::try_from(width).map_err(|_| too_large())?;
    let gif_height = u16::try_from(height).map_err(|_| too_large())?;
    let mut palette = Palette::learn(ends);
    let mut bytes = Vec::new();
    {
        let mut encoder = gif::Encoder::new(
            &mut bytes,
            gif_width,
            gif_height,
            &palette.quantizer.color_map_rgb(),
        )
        .map_err(failed)?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(failed)?;
        let mut previous: Option<Vec<u8>> = None;
        for index in 0..count {
            let frame = source(index)?;
            let indices: Vec<u8> = frame
                .rgba
                .chunks_exact(4)
                .map(|p| palette.index(p))
                .collect();
            // Only the rectangle that changed since the last frame; the rest stays on screen.
            let (left, top, right, bottom) = match &previous {
                None => (0, 0, width, height),
                Some(before) => {
                    changed_rect(before, &indices, width, height).unwrap_or((0, 0, 1, 1))
                }
            };
            let mut buffer = Vec::with_capacity(((right - left) * (bottom - top)) as usize);
            for y in top..bottom {
                let row = (y * width) as usize + left as usize..(y * width + right) as usize;
                match &previous {
                    None => buffer.extend_from_slice(&indices[row]),
                    Some(before) => buffer.extend(
                        before[row.clone()]
                            .iter()
                            .zip(&indices[row])
                            .map(|(&was, &now)| if was == now { UNCHANGED } else { now }),
                    ),
                }
            }
            let delay = delay_of(index, count, delay_ms) / 10;
            let gif_frame = gif::Frame {
                delay: delay.clamp(2, u32::from(u16::MAX)) as u16,
                dispose: gif::DisposalMethod::Keep,
                left: left as u16,
                top: top as u16,
                width: (right - left) as u16,
                height: (bottom - top) as u16,
                buffer: Cow::Owned(buffer),
                transparent: previous.is_some().then_some(UNCHANGED),
                ..gif::Frame::default()
            };
            encoder.write_frame(&gif_frame).map_err(failed)?;
            previous = Some(indices);
        }
    }
    Ok(bytes)
}

/// The smallest rectangle `(left, top, right, bottom)`, ends excluded, holding every pixel
/// that differs between two frames; `None` when they are the same.
fn changed_rect(
    before: &[u8],
    after: &[u8],
    width: u32,
    height: u32,
) -> Option<(u32, u32, u32, u32)> {
    let mut rect: Option<(u32, u32, u32, u32)> = None;
    for y in 0..height {
        let row = (y * width) as usize..((y + 1) * width) as usize;
        let (a, b) = (&before[row.clone()], &after[row]);
        let Some(first) = a.iter().zip(b).position(|(p, q)| p != q) else {
            continue;
        };
        let last = a.iter().zip(b).rposition(|(p, q)| p != q).unwrap_or(first);
        let (first, last) = (first as u32, last as u32 + 1);
        rect = Some(match rect {
            None => (first, y, last, y + 1),
            Some((l, t, r, _)) => (l.min(first), t, r.max(last), y + 1),
        });
    }
    rect
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::moves::parse_moves;

    #[test]
    fn the_changed_rectangle_holds_every_change_and_nothing_more() {
        let before = vec![0u8; 5 * 4];
        let mut after = before.clone();
        after[6] = 1; // (1, 1)
        after[13] = 1; // (3, 2)
        assert_eq!(changed_rect(&before, &after, 5, 4), Some((1, 1, 4, 3)));
        assert_eq!(changed_rect(&before, &before, 5, 4), None);
    }

    /// A 3x3 board with one robot in a corner and its target in the other, shared with the
    /// search animation's tests.
    pub(crate) fn corner_puzzle() -> Puzzle {
        crate::model::formats::native::parse(
            "(format: 1, width: 3, height: 3, \
             targets: [(x: 2, y: 2, color: Red, shape: Circle)], \
             robots: [(color: Red, x: 0, y: 0)], goal: (x: 2, y: 2, color: Red))",
        )
        .unwrap()
    }

    /// The options of the small tests: 90 pixels, a tenth of a second a frame.
    const SMALL: AnimationOptions = AnimationOptions {
        side_px: 90,
        delay_ms: 100,
        numbered: false,
    };

    /// The corner puzzle's two-move solution, as frames of [`SMALL`] size.
    fn two_move_frames() -> Vec<Frame> {
        let moves = parse_moves("RE, RS").unwrap();
        solution_frames(&corner_puzzle(), &moves, SMALL).unwrap()
    }

    // Frames can carry their move number: a band below the board, the same on each frame.
    #[test]
    fn numbered_frames_gain_a_caption_band_and_keep_one_size() {
        let moves = parse_moves("RE, RS").unwrap();
        let numbered = AnimationOptions {
            numbered: true,
            ..SMALL
        };
        let frames = solution_frames(&corner_puzzle(), &moves, numbered).unwrap();
        assert!(
            frames
                .iter()
                .all(|f| f.height > f.width && f.height == frames[0].height)
        );
        assert_eq!(frame_caption(0, &moves), "Start: 2 moves");
        assert_eq!(frame_caption(2, &moves), "Move 2 of 2: RS");
    }

    #[test]
    fn a_solution_gives_one_frame_per_position_and_each_format_encodes_them() {
        let options = SMALL;
        let frames = two_move_frames();
        assert_eq!(frames.len(), 3);
        assert!(frames.iter().all(|f| f.width == 90 && f.height == 90));
        // Each move changes the picture.
        assert_ne!(frames[0], frames[1]);
        assert_ne!(frames[1], frames[2]);
        let gif = encode(&frames, AnimationFormat::Gif, options.delay_ms).unwrap();
        assert!(gif.starts_with(b"GIF89a"));
        let apng = encode(&frames, AnimationFormat::Apng, options.delay_ms).unwrap();
        let reader = ::png::Decoder::new(std::io::Cursor::new(apng))
            .read_info()
            .unwrap();
        let control = reader.info().animation_control.unwrap();
        assert_eq!(control.num_frames, 3);
        assert_eq!(encode_pngs(&frames).unwrap().len(), 3);
    }

    #[test]
    fn a_gif_played_back_shows_each_frame_though_unchanged_pixels_are_left_transparent() {
        let frames = two_move_frames();
        let gif = encode(&frames, AnimationFormat::Gif, SMALL.delay_ms).unwrap();
        let mut decoding = gif::DecodeOptions::new();
        decoding.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = decoding.read_info(std::io::Cursor::new(gif)).unwrap();
        let palette = decoder.global_palette().unwrap().to_vec();
        // Played as a viewer plays it: each frame's opaque pixels over what was on screen.
        let mut screen = vec![0u8; 90 * 90 * 3];
        let mut shown = 0;
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            let rows = usize::from(frame.top)..usize::from(frame.top + frame.height);
            for (y, row) in rows.zip(frame.buffer.chunks(usize::from(frame.width))) {
                for (dx, &index) in row.iter().enumerate() {
                    if Some(index) == frame.transparent {
                        continue;
                    }
                    let at = (y * 90 + usize::from(frame.left) + dx) * 3;
                    let colour = usize::from(index) * 3;
                    screen[at..at + 3].copy_from_slice(&palette[colour..colour + 3]);
                }
            }
            // Within the palette's rounding of every pixel of the frame drawn.
            let drawn = &frames[shown].rgba;
            let off = (0..90 * 90)
                .filter(|&p| (0..3).any(|c| screen[p * 3 + c].abs_diff(drawn[p * 4 + c]) > 48))
                .count();
            // A few blends at shapes' edges may fall far from every palette colour; a pixel
            // left showing an earlier frame would make a robot's whole disc wrong.
            assert!(off <= 10, "frame {shown}: {off} pixels off");
            shown += 1;
        }
        assert_eq!(shown, 3);
    }

    #[test]
    fn moves_that_do_not_solve_and_sizes_past_the_limits_are_refused() {
        let puzzle = corner_puzzle();
        let options = AnimationOptions::default();
        let wrong = parse_moves("RE").unwrap();
        assert!(matches!(
            solution_frames(&puzzle, &wrong, options),
            Err(AnimationError::Replay(_))
        ));
        let moves = parse_moves("RE, RS").unwrap();
        let tiny = AnimationOptions {
            side_px: 10,
            ..options
        };
        assert_eq!(
            solution_frames(&puzzle, &moves, tiny),
            Err(AnimationError::Side(10))
        );
        let quick = AnimationOptions {
            delay_ms: 1,
            ..options
        };
        assert_eq!(
            solution_frames(&puzzle, &moves, quick),
            Err(AnimationError::Delay(1))
        );
    }
}
