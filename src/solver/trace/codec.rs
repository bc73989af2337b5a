//! The byte code of a trace's events: each event against the cursor the events before it
//! left, so that a node of a depth-first search is one byte (the move from its parent and how
//! many levels the search climbed back first).
//!
//! The cursor is the path of the node examined last (as move codes), that node's depth and
//! the current iteration. Block headers store it, so decoding can start at any block.

use super::kind::EventKind;
use crate::model::{Board, Direction, Move, RobotColor};
use crate::solver::{DepthStats, Event, PruneReason};

/// The move code of a move: its robot's colour index times four plus its direction's index,
/// so 0..20 and within five bits.
#[inline(always)]
pub(crate) fn move_code(mv: Move) -> u8 {
    (mv.robot.index() * 4 + mv.dir.index()) as u8
}

/// The move of a move code, if it is one.
pub(crate) fn code_move(code: u8) -> Option<Move> {
    let robot = *RobotColor::ALL.get(usize::from(code / 4))?;
    Some(Move::new(robot, Direction::ALL[usize::from(code % 4)]))
}

// The first byte of an event. Below 0x80: a node one move below the cursor's path after
// climbing 0-3 levels (bits 5-6) by the move of bits 0-4.
/// A move pushed on the path without a node of its own (bits 0-4 hold its code).
const PUSH: u8 = 0x80;
/// A prune of the last node by its table: the stored height is in bits 0-4.
const TABLE_HIT_SHORT: u8 = 0xA0;
/// A prune of the last node by its lower bound, the moves left being the iteration's bound
/// less the node's depth: the bound is in bits 0-4.
const LOWER_BOUND_SHORT: u8 = 0xC0;
/// A node at the cursor's path as it stands (the root, or an ancestor met again).
const NODE_HERE: u8 = 0xE0;
/// Climb this many levels (a varint follows).
const POP: u8 = 0xE1;
/// The last node was at the depth limit.
const PRUNE_DEPTH_LIMIT: u8 = 0xE2;
/// The last node was visited before.
const PRUNE_VISITED: u8 = 0xE3;
/// A prune in full: its depth and reason follow.
const PRUNE_FULL: u8 = 0xE4;
/// An iteration starts: its depth or bound follows.
const ITERATION_STARTED: u8 = 0xE5;
/// An iteration ends: its row follows.
const ITERATION_FINISHED: u8 = 0xE6;
/// A solution: its moves follow.
const SOLUTION: u8 = 0xE7;
/// A solver's own event: its description follows.
const SOLVER: u8 = 0xE8;
/// The next node's depth is not its path's length: the depth follows.
const NODE_DEPTH: u8 = 0xE9;
/// A successor of the last node, one level below it, was visited before: what breadth-first
/// and best-first searches send for each successor they drop (format version 2).
const PRUNE_VISITED_BELOW: u8 = 0xEA;
/// A successor of the last node joins the open list: its move code follows, then its estimate
/// plus one (0: none) (format version 3).
const GENERATED: u8 = 0xEB;
/// A node joins the open list elsewhere than below the last node: its depth, its path's
/// length and move codes, then its estimate plus one (format version 3).
const GENERATED_FULL: u8 = 0xEC;

/// The most characters of a text in an event (a solver's own event's description) a reader
/// keeps; names (counters, prune reasons) are cut shorter still, to
/// [`NAME_CHARS`](crate::solver::intern::NAME_CHARS), as they are kept for the program's life.
pub const TEXT_CHARS: usize = 1000;

/// Where the events before a point left the search: what an event is encoded against.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cursor {
    /// The path of the last node, as move codes; after a climb, the part kept.
    pub path: Vec<u8>,
    /// The depth of the last node, if there was one.
    pub node_depth: Option<u32>,
    /// The current iteration's depth or bound, if one started.
    pub iteration: Option<u32>,
}

/// A decoding error: the bytes are not events of this format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeError(pub String);

/// Writes events as bytes, keeping the cursor.
#[derive(Debug, Default)]
pub(crate) struct Encoder {
    pub cursor: Cursor,
    /// The lowest path length the cursor had since [`Encoder::reset_low_water`].
    pub low_water: usize,
    /// The highest path length since then.
    pub high_water: usize,
    /// Whether a node since then was more than one move below the deepest path the two
    /// shared: not the order of a depth-first search.
    pub jumped: bool,
    codes: Vec<u8>,
}

impl Encoder {
    /// Starts the low and high water marks of a new block at the cursor's path length.
    pub fn reset_low_water(&mut self) {
        self.low_water = self.cursor.path.len();
        self.high_water = self.cursor.path.len();
        self.jumped = false;
    }

    /// Encodes a node at `depth` whose path is `path`.
    #[inline]
    pub fn node(&mut self, out: &mut Vec<u8>, depth: u32, path: &[Move]) {
        self.codes.clear();
        self.codes.extend(path.iter().map(|&mv| move_code(mv)));
        let codes = std::mem::take(&mut self.codes);
        self.node_codes(out, depth, &codes);
        self.codes = codes;
    }

    /// Encodes a node given its path's move codes.
    #[inline]
    pub fn node_codes(&mut self, out: &mut Vec<u8>, depth: u32, codes: &[u8]) {
        let stack = &mut self.cursor.path;
        let common = stack
            .iter()
            .zip(codes)
            .position(|(a, b)| a != b)
            .unwrap_or(stack.len().min(codes.len()));
        let pops = stack.len() - common;
        let pushes = &codes[common..];
        if depth as usize != codes.len() {
            out.push(NODE_DEPTH);
            write_varint(out, u64::from(depth));
        }
        stack.truncate(common);
        self.low_water = self.low_water.min(common);
        match pushes {
            [] => {
                if pops > 0 {
                    out.push(POP);
                    write_varint(out, pops as u64);
                }
                out.push(NODE_HERE);
            }
            [single] if pops <= 3 => {
                out.push(((pops as u8) << 5) | single);
                stack.push(*single);
            }
            [first @ .., last] => {
                self.jumped |= !first.is_empty();
                if pops > 0 {
                    out.push(POP);
                    write_varint(out, pops as u64);
                }
                for &code in first {
                    out.push(PUSH | code);
                }
                out.push(*last);
                stack.extend_from_slice(pushes);
            }
        }
        self.high_water = self.high_water.max(stack.len());
        self.cursor.node_depth = Some(depth);
    }

    /// Encodes any event; a node's path is read from the event, and a solver's own event is
    /// kept as its description on `board`.
    pub fn event(&mut self, out: &mut Vec<u8>, event: &Event, board: &Board) {
        match event {
            Event::Node { depth, path, .. } => self.node(out, *depth, path),
            Event::Generated { depth, path, h, .. } => self.generated(out, *depth, path, *h),
            Event::Pruned { depth, reason } => self.prune(out, *depth, reason),
            Event::IterationStarted { depth } => {
                out.push(ITERATION_STARTED);
                write_varint(out, u64::from(*depth));
                self.cursor.iteration = Some(*depth);
            }
            Event::IterationFinished(stats) => {
                out.push(ITERATION_FINISHED);
                for value in [u64::from(stats.depth), stats.nodes, stats.inner, stats.hits] {
                    write_varint(out, value);
                }
                write_varint(out, stats.extra.len() as u64);
                for (name, value) in &stats.extra {
                    write_text(out, name);
                    write_varint(out, *value);
                }
            }
            Event::Solution { moves } => {
                out.push(SOLUTION);
                write_varint(out, moves.len() as u64);
                out.extend(moves.iter().map(|&mv| move_code(mv)));
            }
            Event::Solver(payload) => {
                out.push(SOLVER);
                write_text(out, &payload.describe(board));
            }
        }
    }

    /// Encodes a node joining the open list: in two or three bytes when it is a successor of
    /// the last node, as the searches with an open list send them.
    fn generated(&mut self, out: &mut Vec<u8>, depth: u32, path: &[Move], h: Option<u32>) {
        let below_last = match path.split_last() {
            Some((_, parent)) => {
                self.cursor.node_depth.and_then(|d| d.checked_add(1)) == Some(depth)
                    && parent.len() == self.cursor.path.len()
                    && parent
                        .iter()
                        .zip(&self.cursor.path)
                        .all(|(&mv, &code)| move_code(mv) == code)
            }
            None => false,
        };
        match path.last() {
            Some(&last) if below_last => {
                out.push(GENERATED);
                out.push(move_code(last));
            }
            _ => {
                out.push(GENERATED_FULL);
                write_varint(out, u64::from(depth));
                write_varint(out, path.len() as u64);
                out.extend(path.iter().map(|&mv| move_code(mv)));
            }
        }
        write_varint(out, h.map_or(0, |h| u64::from(h) + 1));
    }

    fn prune(&mut self, out: &mut Vec<u8>, depth: u32, reason: &PruneReason) {
        let at_node = self.cursor.node_depth == Some(depth);
        match *reason {
            PruneReason::DepthLimit if at_node => out.push(PRUNE_DEPTH_LIMIT),
            PruneReason::Visited if at_node => out.push(PRUNE_VISITED),
            PruneReason::Visited
                if self.cursor.node_depth.and_then(|d| d.checked_add(1)) == Some(depth) =>
            {
                out.push(PRUNE_VISITED_BELOW);
            }
            PruneReason::TableHit { stored } if at_node && stored < 32 => {
                out.push(TABLE_HIT_SHORT | stored as u8);
            }
            PruneReason::LowerBound { bound, remaining }
                if at_node
                    && bound < 32
                    && self.cursor.iteration.and_then(|i| i.checked_sub(depth))
                        == Some(remaining) =>
            {
                out.push(LOWER_BOUND_SHORT | bound as u8);
            }
            _ => {
                out.push(PRUNE_FULL);
                write_varint(out, u64::from(depth));
                match *reason {
                    PruneReason::DepthLimit => out.push(0),
                    PruneReason::LowerBound { bound, remaining } => {
                        out.push(1);
                        write_varint(out, u64::from(bound));
                        write_varint(out, u64::from(remaining));
                    }
                    PruneReason::TableHit { stored } => {
                        out.push(2);
                        write_varint(out, u64::from(stored));
                    }
                    PruneReason::Visited => out.push(3),
                    PruneReason::Other(why) => {
                        out.push(4);
                        write_text(out, why);
                    }
                }
            }
        }
    }
}

/// One decoded event, before cells are worked out: what the byte code holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// A node at `depth`; its path is the cursor's path.
    Node {
        /// Its depth.
        depth: u32,
        /// How many moves of the cursor's path are new since the last node: the moves from
        /// the deepest part the two paths share.
        pushed: usize,
    },
    /// A node joins the open list.
    Generated {
        /// Its depth.
        depth: u32,
        /// Its path's move codes.
        path: Vec<u8>,
        /// The solver's estimate from it.
        h: Option<u32>,
    },
    /// A prune.
    Pruned {
        /// The pruned node's depth.
        depth: u32,
        /// Why.
        reason: PruneReason,
    },
    /// An iteration starts.
    IterationStarted(u32),
    /// An iteration ends.
    IterationFinished(DepthStats),
    /// A solution.
    Solution(Vec<Move>),
    /// A solver's own event, as its description.
    Solver(String),
}

impl Decoded {
    /// The kind of event.
    pub fn kind(&self) -> EventKind {
        match self {
            Decoded::Node { .. } => EventKind::Node,
            Decoded::Generated { .. } => EventKind::Generated,
            Decoded::Pruned { reason, .. } => match reason {
                PruneReason::DepthLimit => EventKind::DepthLimit,
                PruneReason::LowerBound { .. } => EventKind::LowerBound,
                PruneReason::TableHit { .. } => EventKind::TableHit,
                PruneReason::Visited => EventKind::Visited,
                PruneReason::Other(_) => EventKind::OtherPrune,
            },
            Decoded::IterationStarted(_) => EventKind::IterationStarted,
            Decoded::IterationFinished(_) => EventKind::IterationFinished,
            Decoded::Solution(_) => EventKind::Solution,
            Decoded::Solver(_) => EventKind::Solver,
        }
    }
}

/// Reads events from a block's bytes, moving the cursor.
pub(crate) struct Decoder {
    bytes: Vec<u8>,
    at: usize,
    /// The cursor after the events read so far.
    pub cursor: Cursor,
}

impl Decoder {
    /// Reads `bytes` from `cursor`.
    pub fn new(bytes: Vec<u8>, cursor: Cursor) -> Decoder {
        Decoder {
            bytes,
            at: 0,
            cursor,
        }
    }

    /// Whether every byte was read.
    pub fn is_done(&self) -> bool {
        self.at >= self.bytes.len()
    }

    fn byte(&mut self) -> Result<u8, CodeError> {
        let byte = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| CodeError("an event is cut off at the end of its block".into()))?;
        self.at += 1;
        Ok(byte)
    }

    fn varint(&mut self) -> Result<u64, CodeError> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7F) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(CodeError("a number runs past 64 bits".into()))
    }

    fn small(&mut self, what: &str) -> Result<u32, CodeError> {
        let value = self.varint()?;
        u32::try_from(value).map_err(|_| CodeError(format!("{what} {value} is out of range")))
    }

    /// A text, cut to [`TEXT_CHARS`] characters: a block may hold up to 64 MiB of it, which
    /// is checked but not kept.
    fn text(&mut self) -> Result<String, CodeError> {
        let len = self.varint()? as usize;
        let end = self
            .at
            .checked_add(len)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| CodeError("a text runs past the end of its block".into()))?;
        let text = std::str::from_utf8(&self.bytes[self.at..end])
            .map_err(|_| CodeError("a text is not UTF-8".into()))?;
        let kept = match text.char_indices().nth(TEXT_CHARS) {
            Some((cut, _)) => &text[..cut],
            None => text,
        };
        self.at = end;
        Ok(kept.to_string())
    }

    fn code(&self, code: u8) -> Result<u8, CodeError> {
        if code_move(code).is_some() {
            Ok(code)
        } else {
            Err(CodeError(format!("{code} is not a move code")))
        }
    }

    fn pop(&mut self, count: u64) -> Result<(), CodeError> {
        let path = &mut self.cursor.path;
        let count = usize::try_from(count)
            .ok()
            .filter(|&c| c <= path.len())
            .ok_or_else(|| {
                CodeError(format!(
                    "climbs {count} levels from a path of {} moves",
                    path.len()
                ))
            })?;
        path.truncate(path.len() - count);
        Ok(())
    }

    /// The next event, or `None` at the end of the bytes.
    pub fn next_event(&mut self) -> Result<Option<Decoded>, CodeError> {
        if self.is_done() {
            return Ok(None);
        }
        let mut depth_override = None;
        let mut pushed = 0;
        loop {
            let byte = self.byte()?;
            let event = match byte {
                0x00..=0x7F => {
                    self.pop(u64::from(byte >> 5))?;
                    let code = self.code(byte & 0x1F)?;
                    self.cursor.path.push(code);
                    pushed += 1;
                    Some(self.node(depth_override, pushed))
                }
                0x80..=0x9F => {
                    let code = self.code(byte & 0x1F)?;
                    self.cursor.path.push(code);
                    pushed += 1;
                    None
                }
                0xA0..=0xBF => Some(self.pruned_here(PruneReason::TableHit {
                    stored: u32::from(byte & 0x1F),
                })?),
                0xC0..=0xDF => {
                    let depth = self.last_node_depth()?;
                    let remaining = self
                        .cursor
                        .iteration
                        .and_then(|i| i.checked_sub(depth))
                        .ok_or_else(|| {
                            CodeError("a short lower-bound prune outside an iteration".into())
                        })?;
                    Some(Decoded::Pruned {
                        depth,
                        reason: PruneReason::LowerBound {
                            bound: u32::from(byte & 0x1F),
                            remaining,
                        },
                    })
                }
                NODE_HERE => Some(self.node(depth_override, pushed)),
                POP => {
                    let count = self.varint()?;
                    self.pop(count)?;
                    None
                }
                PRUNE_DEPTH_LIMIT => Some(self.pruned_here(PruneReason::DepthLimit)?),
                PRUNE_VISITED => Some(self.pruned_here(PruneReason::Visited)?),
                PRUNE_VISITED_BELOW => {
                    let depth = self.last_node_depth()?.checked_add(1).ok_or_else(|| {
                        CodeError("a visited successor below the deepest depth".into())
                    })?;
                    Some(Decoded::Pruned {
                        depth,
                        reason: PruneReason::Visited,
                    })
                }
                PRUNE_FULL => {
                    let depth = self.small("a prune's depth")?;
                    let reason = match self.byte()? {
                        0 => PruneReason::DepthLimit,
                        1 => PruneReason::LowerBound {
                            bound: self.small("a lower bound")?,
                            remaining: self.small("a number of moves left")?,
                        },
                        2 => PruneReason::TableHit {
                            stored: self.small("a stored height")?,
                        },
                        3 => PruneReason::Visited,
                        4 => PruneReason::Other(crate::solver::intern::intern_name(&self.text()?)),
                        other => return Err(CodeError(format!("{other} is not a prune reason"))),
                    };
                    Some(Decoded::Pruned { depth, reason })
                }
                ITERATION_STARTED => {
                    let depth = self.small("an iteration's depth")?;
                    self.cursor.iteration = Some(depth);
                    Some(Decoded::IterationStarted(depth))
                }
                ITERATION_FINISHED => {
                    let depth = self.small("a row's depth")?;
                    let (nodes, inner, hits) = (self.varint()?, self.varint()?, self.varint()?);
                    let extras = self.varint()?;
                    if extras > 64 {
                        return Err(CodeError(format!("a row with {extras} extra counters")));
                    }
                    let mut extra = Vec::new();
                    for _ in 0..extras {
                        let name = crate::solver::intern::intern_name(&self.text()?);
                        extra.push((name, self.varint()?));
                    }
                    Some(Decoded::IterationFinished(DepthStats {
                        depth,
                        nodes,
                        inner,
                        hits,
                        extra,
                    }))
                }
                SOLUTION => {
                    let len = self.varint()?;
                    if len > 4096 {
                        return Err(CodeError(format!("a solution of {len} moves")));
                    }
                    let mut moves = Vec::new();
                    for _ in 0..len {
                        let byte = self.byte()?;
                        let code = self.code(byte)?;
                        moves.extend(code_move(code));
                    }
                    Some(Decoded::Solution(moves))
                }
                SOLVER => Some(Decoded::Solver(self.text()?)),
                GENERATED => Some(self.generated(false)?),
                GENERATED_FULL => Some(self.generated(true)?),
                NODE_DEPTH => {
                    depth_override = Some(self.small("a node's depth")?);
                    None
                }
                other => return Err(CodeError(format!("byte {other:#04x} starts no event"))),
            };
            if let Some(event) = event {
                if depth_override.is_some() && !matches!(event, Decoded::Node { .. }) {
                    return Err(CodeError("a node's depth is not followed by a node".into()));
                }
                return Ok(Some(event));
            }
            if self.is_done() {
                return Err(CodeError(
                    "an event is cut off at the end of its block".into(),
                ));
            }
        }
    }

    fn node(&mut self, depth_override: Option<u32>, pushed: usize) -> Decoded {
        let depth = depth_override.unwrap_or(self.cursor.path.len() as u32);
        self.cursor.node_depth = Some(depth);
        Decoded::Node { depth, pushed }
    }

    /// A node put on the open list: below the last node by a move, or `full` with its depth
    /// and path.
    fn generated(&mut self, full: bool) -> Result<Decoded, CodeError> {
        let (depth, path) = if full {
            let depth = self.small("a node's depth")?;
            let len = self.varint()?;
            if len > 4096 {
                return Err(CodeError(format!("a path of {len} moves")));
            }
            let mut path = Vec::new();
            for _ in 0..len {
                let byte = self.byte()?;
                path.push(self.code(byte)?);
            }
            (depth, path)
        } else {
            let depth = self
                .last_node_depth()?
                .checked_add(1)
                .ok_or_else(|| CodeError("a successor below the deepest depth".into()))?;
            let byte = self.byte()?;
            let mut path = self.cursor.path.clone();
            path.push(self.code(byte)?);
            (depth, path)
        };
        Ok(Decoded::Generated {
            depth,
            path,
            h: self.estimate()?,
        })
    }

    /// An estimate written plus one, 0 standing for none.
    fn estimate(&mut self) -> Result<Option<u32>, CodeError> {
        match self.varint()? {
            0 => Ok(None),
            value => u32::try_from(value - 1)
                .map(Some)
                .map_err(|_| CodeError(format!("an estimate of {} is out of range", value - 1))),
        }
    }

    fn last_node_depth(&self) -> Result<u32, CodeError> {
        self.cursor
            .node_depth
            .ok_or_else(|| CodeError("a prune before any node".into()))
    }

    fn pruned_here(&self, reason: PruneReason) -> Result<Decoded, CodeError> {
        Ok(Decoded::Pruned {
            depth: self.last_node_depth()?,
            reason,
        })
    }
}

/// Appends `value` as a little-endian base-128 varint.
#[inline]
pub(crate) fn write_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// Appends a text as its length and its UTF-8 bytes.
pub(crate) fn write_text(out: &mut Vec<u8>, text: &str) {
    write_varint(out, text.len() as u64);
    out.extend_from_slice(text.as_bytes());
}

#[cfg(test)]
mod tests;
