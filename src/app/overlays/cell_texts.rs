//! Where the overlay's texts go in their cells, so that none is cut by a wall or the board's
//! border and no two meet, whichever layers are on.
//!
//! A text keeps the place its layer gives it: a corner (0 top left, 1 top right, 2 bottom
//! left, 3 bottom right) or the centre. Only the part of a cell that walls and the border
//! leave clear is used. In each cell:
//! - corner texts take their corner, or the next free one when another layer has it; when
//!   there are more than four, the last quarter says how many have no place ("+2");
//! - the first centre text takes the middle of the cell (the bottom half in a cell with a
//!   target symbol, which is drawn small in the cell's upper half and kept clear by every
//!   text), shrunk until it meets no corner text;
//!   further centre texts join the corners.
//!
//! A text is as large as its place allows (measured by the ink of its glyphs, not the font's
//! line height), never smaller than `theme::SMALLEST_BOARD_NUMBER`; one that does not fit at that
//! size becomes a dot in its colour, or is left out, and every text of a cell is in the
//! board's hover details.

use super::CellText;
use crate::app::board_paint::geometry::BoardGeometry;
use crate::app::board_paint::geometry::small_symbol;
use crate::app::theme;
use crate::model::{Board, Direction, Pos};
use egui::epaint::text::FontsView;
use egui::{Align2, Color32, FontId, Galley, Pos2, Rect, pos2};
use std::collections::BTreeMap;
use std::sync::Arc;

/// How a cell text is shown: laid out in its place, or as a dot in its colour there.
#[derive(Clone, Debug)]
pub enum TextMark {
    /// The text's galley at `pos`, on a plate that covers its glyphs.
    Text {
        /// Where the galley goes.
        pos: Pos2,
        /// The laid-out text.
        galley: Arc<Galley>,
        /// The plate behind the glyphs.
        plate: Rect,
    },
    /// A dot with this centre and radius.
    Dot(Pos2, f32),
}

/// The margin of a text's plate around its glyphs.
const PLATE_MARGIN: f32 = 1.0;

impl TextMark {
    /// The rectangle the mark covers on the screen.
    pub fn rect(&self) -> Rect {
        match self {
            TextMark::Text { plate, .. } => *plate,
            TextMark::Dot(center, radius) => {
                Rect::from_center_size(*center, egui::Vec2::splat(2.0 * radius))
            }
        }
    }

    /// The font size of a text mark; `None` for a dot.
    #[cfg(test)]
    fn font_size(&self) -> Option<f32> {
        match self {
            TextMark::Text { galley, .. } => galley
                .job
                .sections
                .first()
                .map(|section| section.format.font_id.size),
            TextMark::Dot(..) => None,
        }
    }
}

/// The part of a cell that the walls and the board's border leave clear, less a margin that
/// keeps the texts of neighbouring cells apart.
fn clear_rect(geometry: &BoardGeometry, board: &Board, pos: Pos) -> Rect {
    let thickness = geometry.wall_thickness();
    let margin = (geometry.cell_size() * 0.04).max(1.5);
    let covered = |dir: Direction| {
        if board.is_border(pos, dir) {
            thickness
        } else if board.contains(pos) && board.has_wall(board.cell(pos), dir) {
            thickness * 0.5
        } else {
            0.0
        }
    };
    let rect = geometry.cell_rect(pos);
    Rect::from_min_max(
        pos2(
            rect.left() + covered(Direction::West) + margin,
            rect.top() + covered(Direction::North) + margin,
        ),
        pos2(
            rect.right() - covered(Direction::East) - margin,
            rect.bottom() - covered(Direction::South) - margin,
        ),
    )
}

/// A place for one text in its cell: where it may go, how it aligns there, the largest font
/// it may take (as a share of the cell) and whether that font is proportional.
#[derive(Clone, Copy, Debug)]
struct Place {
    rect: Rect,
    align: Align2,
    largest: f32,
    proportional: bool,
}

impl Place {
    /// A place from `min` to `max` for a number in the small monospace size, aligned there.
    fn small(min: Pos2, max: Pos2, align: Align2) -> Place {
        Place {
            rect: Rect::from_min_max(min, max),
            align,
            largest: 0.34,
            proportional: false,
        }
    }
}

/// The four corner places of a cell's clear part.
fn corners(clear: Rect, cell: f32) -> [Place; 4] {
    // Half the gap between two corners: side by side it keeps numbers apart; one above the
    // other, numbers cannot run together, so a pixel will do.
    let half_gap_x = (cell * 0.03).max(1.5);
    let half_gap_y = 0.5;
    let middle = clear.center();
    let place = Place::small;
    [
        place(
            clear.min,
            pos2(middle.x - half_gap_x, middle.y - half_gap_y),
            Align2::LEFT_TOP,
        ),
        place(
            pos2(middle.x + half_gap_x, clear.top()),
            pos2(clear.right(), middle.y - half_gap_y),
            Align2::RIGHT_TOP,
        ),
        place(
            pos2(clear.left(), middle.y + half_gap_y),
            pos2(middle.x - half_gap_x, clear.bottom()),
            Align2::LEFT_BOTTOM,
        ),
        place(
            pos2(middle.x + half_gap_x, middle.y + half_gap_y),
            clear.max,
            Align2::RIGHT_BOTTOM,
        ),
    ]
}

/// The places a centre text may take, best first: the middle of the cell's clear part (the
/// bottom half below a symbol), then its halves, so that a corner text in the way moves the
/// number aside rather than shrinking it.
fn centres(clear: Rect, symbol: bool) -> Vec<Place> {
    let middle = clear.center();
    let half = Place::small;
    let bottom = half(
        pos2(clear.left(), middle.y),
        clear.max,
        Align2::CENTER_BOTTOM,
    );
    let others = [
        half(clear.min, pos2(clear.right(), middle.y), Align2::CENTER_TOP),
        half(
            clear.min,
            pos2(middle.x, clear.bottom()),
            Align2::LEFT_CENTER,
        ),
        half(pos2(middle.x, clear.top()), clear.max, Align2::RIGHT_CENTER),
    ];
    let whole = Place {
        rect: clear,
        align: Align2::CENTER_CENTER,
        largest: 0.45,
        proportional: true,
    };
    if symbol {
        // Over the symbol only when nothing else will do.
        std::iter::once(bottom)
            .chain(others)
            .chain([whole])
            .collect()
    } else {
        std::iter::once(whole)
            .chain([bottom])
            .chain(others)
            .collect()
    }
}

/// Lays out every text of a drawing (see the module's notes). Returns each shown text's index
/// with its mark, and `None` with the mark that counts a crowded cell's texts with no place; a
/// text too large for its place and not to be shown as a dot is left out.
pub fn place_texts(
    fonts: &mut FontsView<'_>,
    geometry: &BoardGeometry,
    board: &Board,
    texts: &[CellText],
    color_of: &dyn Fn(&CellText) -> Color32,
) -> Vec<(Option<usize>, TextMark)> {
    let cell = geometry.cell_size();
    let mut per_cell: BTreeMap<Pos, Vec<usize>> = BTreeMap::new();
    for (index, text) in texts.iter().enumerate() {
        if board.contains(text.pos) {
            per_cell.entry(text.pos).or_default().push(index);
        }
    }
    let mut marks = Vec::new();
    for (pos, indices) in per_cell {
        let clear = clear_rect(geometry, board, pos);
        let middle = indices.iter().copied().find(|&i| texts[i].line >= 4);
        let cornered: Vec<usize> = indices
            .iter()
            .copied()
            .filter(|&i| Some(i) != middle)
            .collect();
        // Each corner text takes its own corner if free, then the others take what is left;
        // in a crowded cell the last free corner counts the texts with no place.
        let mut taken: [Option<usize>; 4] = [None; 4];
        for &index in &cornered {
            let corner = usize::from(texts[index].line);
            if corner < 4 && taken[corner].is_none() {
                taken[corner] = Some(index);
            }
        }
        let mut homeless: Vec<usize> = Vec::new();
        for &index in &cornered {
            if taken.contains(&Some(index)) {
                continue;
            }
            match taken.iter().position(Option::is_none) {
                Some(free) => taken[free] = Some(index),
                None => homeless.push(index),
            }
        }
        if !homeless.is_empty()
            && let Some(given_up) = taken[3].take()
        {
            homeless.push(given_up);
        }
        // A target's symbol, made small in a cell with texts, is kept clear like a text.
        let symbol: Vec<Rect> = board
            .target_at(pos)
            .map(|_| {
                let (center, radius) = small_symbol(geometry, pos);
                Rect::from_center_size(center, egui::Vec2::splat(2.0 * radius))
            })
            .into_iter()
            .collect();
        let places = corners(clear, cell);
        let mut placed: Vec<(Option<usize>, TextMark)> = Vec::new();
        let mut unplaced = Vec::new();
        for (corner, index) in taken.iter().enumerate() {
            if let Some(index) = *index {
                let text = &texts[index];
                match fit(
                    fonts,
                    &places[corner..=corner],
                    cell,
                    text,
                    color_of(text),
                    &symbol,
                ) {
                    Some(mark) => placed.push((Some(index), mark)),
                    None => unplaced.push(index),
                }
            }
        }
        if !homeless.is_empty() {
            let more = CellText {
                pos,
                line: 3,
                text: format!("+{}", homeless.len()),
                color: None,
                what: "More texts".into(),
                dot_when_cramped: true,
            };
            if let Some(mark) = fit(fonts, &places[3..], cell, &more, Color32::GRAY, &symbol) {
                placed.push((None, mark));
            }
        }
        // A text its corner has no room for (a small symbol takes part of it) takes any place
        // left clear, and as a last resort a dot there, so it never vanishes from the board.
        for index in unplaced {
            let text = &texts[index];
            let mut others: Vec<Rect> = placed.iter().map(|(_, mark)| mark.rect()).collect();
            others.extend(&symbol);
            let dot = CellText {
                dot_when_cramped: true,
                ..text.clone()
            };
            let mark = fit(fonts, &places, cell, text, color_of(text), &others)
                .or_else(|| fit(fonts, &places, cell, &dot, color_of(text), &others));
            if let Some(mark) = mark {
                placed.push((Some(index), mark));
            }
        }
        if let Some(index) = middle {
            let text = &texts[index];
            let mut others: Vec<Rect> = placed.iter().map(|(_, mark)| mark.rect()).collect();
            others.extend(&symbol);
            let places = centres(clear, !symbol.is_empty());
            if let Some(mark) = fit(fonts, &places, cell, text, color_of(text), &others) {
                placed.push((Some(index), mark));
            } else if !text.dot_when_cramped
                && let Some(mark) = fit(fonts, &places, cell, text, color_of(text), &symbol)
            {
                // A layer with a number in every cell (the minimum moves) would vanish from a
                // cell crowded with every layer's marks, and the board would show no map at
                // all: its number keeps the middle, and the corner marks that meet it give
                // way (the hover lists every text of the cell).
                let centre = mark.rect();
                placed.retain(|(_, other)| !other.rect().expand(0.5).intersects(centre));
                placed.push((Some(index), mark));
            }
        }
        marks.extend(placed);
    }
    marks
}

/// The rectangle the glyphs of a galley cover, relative to the galley's position; the whole
/// galley when it has no glyph with ink.
fn ink_rect(galley: &Galley) -> Rect {
    let mut ink = Rect::NOTHING;
    for row in &galley.rows {
        for glyph in &row.row.glyphs {
            if glyph.uv_rect.is_nothing() {
                continue;
            }
            let min = row.pos + glyph.pos.to_vec2() + glyph.uv_rect.offset;
            ink = ink.union(Rect::from_min_size(min, glyph.uv_rect.size));
        }
    }
    if ink.is_positive() {
        ink
    } else {
        Rect::from_min_size(Pos2::ZERO, galley.size())
    }
}

/// A text in the first of its `places` where it fits and keeps clear of `others`, at the
/// largest size that does, down to [`theme::SMALLEST_BOARD_NUMBER`]; a dot in the first place that
/// has room for one when it does not fit even then and the text allows one.
fn fit(
    fonts: &mut FontsView<'_>,
    places: &[Place],
    cell: f32,
    text: &CellText,
    color: Color32,
    others: &[Rect],
) -> Option<TextMark> {
    let apart = |rect: Rect| {
        others
            .iter()
            .all(|other| !rect.expand(0.5).intersects(*other))
    };
    for place in places {
        let room = place.rect.shrink(PLATE_MARGIN);
        if room.width() <= 0.0 || room.height() <= 0.0 {
            continue;
        }
        // Sizes from the largest the place allows down to the smallest, a step at a time.
        let mut size = (cell * place.largest).max(theme::SMALLEST_BOARD_NUMBER);
        loop {
            let font = if place.proportional {
                FontId::proportional(size)
            } else {
                FontId::monospace(size)
            };
            let galley = fonts.layout_no_wrap(text.text.clone(), font, color);
            let ink = ink_rect(&galley);
            if ink.width() <= room.width() && ink.height() <= room.height() {
                let glyphs = place.align.align_size_within_rect(ink.size(), room);
                let plate = glyphs.expand(PLATE_MARGIN);
                if apart(plate) {
                    return Some(TextMark::Text {
                        pos: glyphs.min - ink.min.to_vec2(),
                        galley,
                        plate,
                    });
                }
            }
            if size <= theme::SMALLEST_BOARD_NUMBER {
                break;
            }
            size = (size * 0.9).floor().max(theme::SMALLEST_BOARD_NUMBER);
        }
    }
    if !text.dot_when_cramped {
        return None;
    }
    // A dot stays inside its place, on the smallest cells too, and clear of the others.
    places.iter().find_map(|place| {
        let radius = (cell * 0.08)
            .clamp(1.0, 4.0)
            .min(place.rect.width() * 0.5)
            .min(place.rect.height() * 0.5);
        let dot = TextMark::Dot(place.rect.center(), radius);
        (radius >= 1.0 && apart(dot.rect())).then_some(dot)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Shape as Symbol, Target, TargetColor};
    use egui::pos2;
    use proptest::prelude::*;

    /// Whether `inner` lies inside `outer`, to a tenth of a pixel.
    fn within(inner: Rect, outer: Rect) -> bool {
        outer.expand(0.1).contains_rect(inner)
    }

    fn geometry_for(board: &Board, cell: f32) -> BoardGeometry {
        BoardGeometry::fit(
            Rect::from_min_size(
                pos2(5.0, 5.0),
                egui::vec2(
                    cell * f32::from(board.width()),
                    cell * f32::from(board.height()),
                ),
            ),
            board.width(),
            board.height(),
        )
    }

    fn marks_of(
        board: &Board,
        geometry: &BoardGeometry,
        texts: &[CellText],
    ) -> Vec<(Option<usize>, TextMark)> {
        let ctx = egui::Context::default();
        let _ = ctx.run_ui(Default::default(), |_| {});
        ctx.fonts_mut(|fonts| place_texts(fonts, geometry, board, texts, &|_| egui::Color32::WHITE))
    }

    fn text(x: u16, y: u16, line: u8, text: &str) -> CellText {
        CellText {
            pos: Pos { x, y },
            line,
            text: text.to_string(),
            color: None,
            what: "Test".into(),
            dot_when_cramped: true,
        }
    }

    proptest! {
        // Problem: numbers were cut by the board's border in the first row and column, the
        // numbers of several layers were drawn on top of each other in one corner, and
        // neighbouring numbers ran together ("1 13" read "113"). Whatever the cell size, the
        // walls, the targets and the texts, a mark stays in the part of its cell that no wall
        // covers, no two marks meet, and texts are never smaller than the smallest size.
        #[test]
        fn every_mark_stays_clear_of_walls_and_of_every_other_mark(
            width in 2u16..=24,
            height in 2u16..=24,
            cell in 8.0f32..90.0,
            walls in proptest::collection::vec((0u16..24, 0u16..24, 0usize..4), 0..60),
            targets in proptest::collection::vec((0u16..24, 0u16..24), 0..12),
            numbers in proptest::collection::vec(
                (0u16..24, 0u16..24, 0u8..=4, 0u64..10_000_000, 1u32..=7, any::<bool>()),
                1..60,
            ),
        ) {
            let mut board = Board::new(width, height).unwrap();
            for (x, y, side) in walls {
                let _ = board.set_wall(Pos { x: x % width, y: y % height }, Direction::ALL[side], true);
            }
            for (x, y) in targets {
                let pos = Pos { x: x % width, y: y % height };
                let _ = board.set_target(Target { pos, color: TargetColor::Any, shape: Symbol::Vortex });
            }
            let texts: Vec<CellText> = numbers
                .into_iter()
                .map(|(x, y, line, number, digits, dot)| CellText {
                    // Short numbers as often as long ones: most short ones fit, most long
                    // ones do not.
                    dot_when_cramped: dot,
                    ..text(x % width, y % height, line, &(number % 10u64.pow(digits)).to_string())
                })
                .collect();
            let geometry = geometry_for(&board, cell);
            let marks = marks_of(&board, &geometry, &texts);
            for (index, mark) in &marks {
                if let Some(i) = index {
                    let pos = texts[*i].pos;
                    prop_assert!(
                        within(mark.rect(), clear_rect(&geometry, &board, pos)),
                        "{:?} at {:?} line {} leaves its cell's clear part {:?}: {:?}",
                        texts[*i].text, pos, texts[*i].line, clear_rect(&geometry, &board, pos), mark.rect()
                    );
                }
                if let Some(size) = mark.font_size() {
                    prop_assert!(size >= theme::SMALLEST_BOARD_NUMBER, "a text at {size} px");
                }
                // No text covers a target's symbol (drawn small in a cell with texts).
                if let Some(i) = index
                    && board.target_at(texts[*i].pos).is_some()
                {
                    let (center, radius) = small_symbol(&geometry, texts[*i].pos);
                    let symbol = Rect::from_center_size(center, egui::Vec2::splat(2.0 * radius));
                    prop_assert!(
                        !mark.rect().intersects(symbol),
                        "{:?} at {:?} covers the symbol {symbol:?}", texts[*i].text, texts[*i].pos
                    );
                }
            }
            for (i, (_, a)) in marks.iter().enumerate() {
                for (_, b) in &marks[i + 1..] {
                    let (a, b) = (a.rect(), b.rect());
                    let apart_x = (b.left() - a.right()).max(a.left() - b.right());
                    let apart_y = (b.top() - a.bottom()).max(a.top() - b.bottom());
                    prop_assert!(
                        apart_x >= 0.5 || apart_y >= 0.5,
                        "marks {a:?} and {b:?} meet"
                    );
                }
            }
            // Every corner text of a cell of up to four texts shows, and a centre text alone
            // in its cell, when it may be a dot; a centre text squeezed out by corner texts
            // is in the hover details.
            for (index, text) in texts.iter().enumerate() {
                let in_cell = texts.iter().filter(|t| t.pos == text.pos).count();
                let first_centre = texts.iter().position(|t| t.pos == text.pos && t.line >= 4);
                // A centre text that may not be a dot keeps the middle before corner marks.
                let centre_wins = first_centre.is_some_and(|c| c != index && !texts[c].dot_when_cramped);
                let shown = if first_centre == Some(index) {
                    in_cell == 1
                } else {
                    in_cell <= 4 && !centre_wins
                };
                // In a target's cell the symbol keeps its room, and the hover lists the rest.
                let symbol = board.target_at(text.pos).is_some();
                if shown && text.dot_when_cramped && cell >= 16.0 && !symbol {
                    prop_assert!(
                        marks.iter().any(|(i, _)| *i == Some(index)),
                        "{:?} at {:?} has no mark", text.text, text.pos
                    );
                }
            }
        }
    }

    #[test]
    fn a_crowded_cell_counts_the_texts_it_has_no_place_for() {
        let board = Board::new(4, 4).unwrap();
        let geometry = geometry_for(&board, 60.0);
        let texts: Vec<CellText> = (0..6).map(|n| text(1, 1, n % 4, &n.to_string())).collect();
        let marks = marks_of(&board, &geometry, &texts);
        assert_eq!(marks.iter().filter(|(i, _)| i.is_some()).count(), 3);
        let more: Vec<&TextMark> = marks
            .iter()
            .filter(|(i, _)| i.is_none())
            .map(|(_, m)| m)
            .collect();
        assert_eq!(more.len(), 1);
        let TextMark::Text { galley, .. } = more[0] else {
            panic!("the count of the others is written out");
        };
        assert_eq!(galley.text(), "+3");
    }

    // Problem: at 1024x700 a 16x16 board's cells are about 24 px and its numbers were drawn
    // at 11 px, digits 8 px tall. The smallest size a number takes gives digits of 10 px.
    #[test]
    fn the_smallest_board_number_has_digits_ten_pixels_tall() {
        let ctx = egui::Context::default();
        let _ = ctx.run_ui(Default::default(), |_| {});
        let size = theme::SMALLEST_BOARD_NUMBER;
        for font in [FontId::monospace(size), FontId::proportional(size)] {
            let galley = ctx.fonts_mut(|fonts| {
                fonts.layout_no_wrap("0123456789".into(), font.clone(), Color32::WHITE)
            });
            let tall = ink_rect(&galley).height();
            assert!(tall >= 10.0, "{font:?}: digits {tall} px tall");
        }
    }

    // Problem: corner digits were about 8 px tall on a board of 48 px cells. The one number of
    // a cell is large, and numbers that share a cell in quarters are still at least 14 px.
    #[test]
    fn numbers_are_as_large_as_their_place_allows() {
        let board = Board::new(16, 16).unwrap();
        let geometry = geometry_for(&board, 48.0);
        let size_of = |texts: &[CellText], index: usize| {
            marks_of(&board, &geometry, texts)
                .into_iter()
                .find(|(i, _)| *i == Some(index))
                .and_then(|(_, mark)| mark.font_size())
                .unwrap_or(0.0)
        };
        assert!(size_of(&[text(5, 5, 4, "12")], 0) >= 20.0);
        let quarters: Vec<CellText> = (0..4).map(|n| text(5, 5, n, "12")).collect();
        for index in 0..4 {
            assert!(
                size_of(&quarters, index) >= 14.0,
                "{}",
                size_of(&quarters, index)
            );
        }
        // In the first row and column too, under the border.
        let corner: Vec<CellText> = (0..4).map(|n| text(0, 0, n, "12")).collect();
        for index in 0..4 {
            assert!(
                size_of(&corner, index) >= 12.0,
                "{}",
                size_of(&corner, index)
            );
        }
    }

    // Problem: with every layer on, the minimum-move numbers vanished from the board: the
    // corners' marks left the middle no room. A number every cell has keeps the middle.
    #[test]
    fn a_number_in_every_cell_keeps_the_middle_of_a_crowded_cell() {
        let board = Board::new(16, 16).unwrap();
        let geometry = geometry_for(&board, 27.0);
        let mut texts = vec![CellText {
            dot_when_cramped: false,
            ..text(5, 5, 4, "12")
        }];
        texts.extend((0..4).map(|n| text(5, 5, n, "345")));
        let marks = marks_of(&board, &geometry, &texts);
        assert!(
            marks
                .iter()
                .any(|(i, mark)| *i == Some(0) && matches!(mark, TextMark::Text { .. })),
            "{marks:?}"
        );
    }

    // Problem: an exact distance in a target's cell was hidden under the target's symbol. A
    // cell's one text goes below the symbol's middle, where the symbol leaves room.
    #[test]
    fn the_one_text_of_a_target_cell_goes_below_the_symbol() {
        let mut board = Board::new(8, 8).unwrap();
        let pos = Pos { x: 3, y: 3 };
        board
            .set_target(Target {
                pos,
                color: TargetColor::Red,
                shape: Symbol::Circle,
            })
            .unwrap();
        let geometry = geometry_for(&board, 48.0);
        let marks = marks_of(&board, &geometry, &[text(3, 3, 4, "7")]);
        assert_eq!(marks.len(), 1);
        assert!(marks[0].1.rect().top() > geometry.cell_center(pos).y);
    }
}
