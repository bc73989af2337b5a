//! Where a board sits on the screen: one transform between board coordinates (in cells, `y`
//! growing southwards) and screen points, shared by the board widget and its coordinate
//! labels.

use crate::model::{Direction, Pos};
use egui::emath::RectTransform;
use egui::{Pos2, Rect, Vec2, pos2, vec2};

/// Where a board of a given size sits on the screen.
#[derive(Clone, Copy, Debug)]
pub struct BoardGeometry {
    /// Board coordinates (in cells) to screen points.
    screen_from_board: RectTransform,
    width: u16,
    height: u16,
}

impl BoardGeometry {
    /// Fits a `width x height` board into `available`, with square cells, centred.
    pub fn fit(available: Rect, width: u16, height: u16) -> BoardGeometry {
        let (w, h) = (f32::from(width.max(1)), f32::from(height.max(1)));
        let cell = (available.width() / w).min(available.height() / h).max(1.0);
        let size = vec2(cell * w, cell * h);
        let screen = Rect::from_center_size(available.center(), size);
        BoardGeometry {
            screen_from_board: RectTransform::from_to(
                Rect::from_min_size(Pos2::ZERO, vec2(w, h)),
                screen,
            ),
            width,
            height,
        }
    }

    /// Whether `pos` is a cell of the board.
    pub(in crate::app) fn contains(&self, pos: Pos) -> bool {
        pos.x < self.width && pos.y < self.height
    }

    /// The screen rectangle of the whole board.
    pub(in crate::app) fn screen_rect(&self) -> Rect {
        *self.screen_from_board.to()
    }

    /// The side of one cell in screen points.
    pub(in crate::app) fn cell_size(&self) -> f32 {
        self.screen_from_board.scale().x
    }

    /// The screen rectangle of a cell.
    pub(in crate::app) fn cell_rect(&self, pos: Pos) -> Rect {
        let min = pos2(f32::from(pos.x), f32::from(pos.y));
        self.screen_from_board
            .transform_rect(Rect::from_min_size(min, Vec2::splat(1.0)))
    }

    /// How thick walls are drawn: the board's border lies wholly inside the board, an interior
    /// wall half in each of its two cells.
    pub(in crate::app) fn wall_thickness(&self) -> f32 {
        (self.cell_size() * 0.12).clamp(2.0, 9.0)
    }

    /// The screen centre of a cell.
    pub(in crate::app) fn cell_center(&self, pos: Pos) -> Pos2 {
        self.cell_rect(pos).center()
    }

    /// The screen point of a position in board coordinates.
    pub(in crate::app) fn to_screen(self, board_point: Pos2) -> Pos2 {
        self.screen_from_board.transform_pos(board_point)
    }

    /// The board coordinates of a screen point.
    pub(in crate::app) fn to_board(self, screen_point: Pos2) -> Pos2 {
        self.screen_from_board.inverse().transform_pos(screen_point)
    }

    /// What a screen point is over.
    pub(in crate::app) fn hit(&self, screen_point: Pos2) -> Option<Hit> {
        hit_test(
            self.to_board(screen_point),
            self.width,
            self.height,
            EDGE_TOLERANCE,
        )
    }

    /// The screen segment of a cell side.
    pub(in crate::app) fn edge_segment(&self, pos: Pos, side: Direction) -> [Pos2; 2] {
        let r = self.cell_rect(pos);
        match side {
            Direction::North => [r.left_top(), r.right_top()],
            Direction::East => [r.right_top(), r.right_bottom()],
            Direction::South => [r.left_bottom(), r.right_bottom()],
            Direction::West => [r.left_top(), r.left_bottom()],
        }
    }
}

/// How close to a cell side (in cells) a point counts as on the side rather than in the cell.
pub const EDGE_TOLERANCE: f32 = 0.22;

/// What a point on the board is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// Inside a cell, away from its sides.
    Cell(Pos),
    /// On a side of a cell (the nearest side, within the tolerance).
    Edge(Pos, Direction),
}

impl Hit {
    /// The cell hit, or the cell whose side is hit.
    pub(in crate::app) fn cell(self) -> Pos {
        match self {
            Hit::Cell(pos) | Hit::Edge(pos, _) => pos,
        }
    }
}

/// Which cell or cell side a point in board coordinates is over; `None` off the board.
/// A point within `tolerance` cells of a side is on that side (the nearest one wins).
pub fn hit_test(point: Pos2, width: u16, height: u16, tolerance: f32) -> Option<Hit> {
    if !(point.x >= 0.0
        && point.y >= 0.0
        && point.x < f32::from(width)
        && point.y < f32::from(height))
    {
        return None;
    }
    let pos = Pos::new(point.x.floor() as u16, point.y.floor() as u16);
    let fx = point.x - point.x.floor();
    let fy = point.y - point.y.floor();
    let sides = [
        (fy, Direction::North),
        (1.0 - fx, Direction::East),
        (1.0 - fy, Direction::South),
        (fx, Direction::West),
    ];
    let (distance, side) = sides
        .into_iter()
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap_or((1.0, Direction::North));
    if distance <= tolerance {
        Some(Hit::Edge(pos, side))
    } else {
        Some(Hit::Cell(pos))
    }
}

/// The centre and radius of a target symbol in a cell that also holds overlay texts: smaller
/// and in the cell's upper half, so that the texts (which keep out of its way, see
/// `overlays::cell_texts`) never cover it.
pub(in crate::app) fn small_symbol(
    geometry: &BoardGeometry,
    pos: crate::model::Pos,
) -> (egui::Pos2, f32) {
    let rect = geometry.cell_rect(pos);
    let cell = geometry.cell_size();
    (
        egui::pos2(rect.center().x, rect.top() + cell * 0.27),
        cell * 0.19,
    )
}
