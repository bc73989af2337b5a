//! Reading a trace: its index of blocks, and events replayed from any of them.

use super::codec::{Cursor, Decoded, Decoder, code_move};
use super::file::{self, BlockInfo, BlockRead, Footer};
use super::kind::EventKind;
use super::{TraceError, TraceHeader, TraceRow, TraceSummary};
use crate::model::{Cell, Move, MoveTables, Puzzle, format_moves};
use crate::solver::{Event, RobotCells};
use std::fs::File;
use std::path::{Path, PathBuf};

mod health;
pub use health::{HEADER_TEXT_CHARS, Health};

/// An open trace: its header, its puzzle and the index of its blocks.
pub struct TraceReader {
    path: PathBuf,
    file: File,
    header: TraceHeader,
    puzzle: Puzzle,
    tables: MoveTables,
    blocks: Vec<BlockInfo>,
    /// Where the next block would start, for [`TraceReader::refresh`].
    next_offset: u64,
    footer: Option<TraceSummary>,
    /// Why the blocks end before the file does, when the file ends inside a block.
    cut: Option<String>,
    /// What was found damaged, with where, when something was.
    damage: Option<String>,
    /// The file's format version.
    version: u16,
}

/// One event of a trace, with its number.
#[derive(Clone, Debug, PartialEq)]
pub struct TracedEvent {
    /// Its number in the trace, from 0.
    pub index: u64,
    /// The event, as the search reported it (a solver's own event as its description).
    pub event: Event,
    /// The number of the iteration's depth or bound when it happened.
    pub iteration: Option<u32>,
}

impl TraceReader {
    /// Opens a trace and indexes its blocks. A trace cut off (no footer) opens as far as its
    /// whole blocks reach; a header that is no trace's, a newer version or a puzzle that does
    /// not load are errors naming the file.
    pub fn open(path: &Path) -> Result<TraceReader, TraceError> {
        let mut file = File::open(path).map_err(|e| TraceError::io(path, e))?;
        let metadata = file.metadata().map_err(|e| TraceError::io(path, e))?;
        if !metadata.is_file() {
            return Err(TraceError::Corrupt {
                path: path.to_path_buf(),
                why: "it is not a regular file".into(),
            });
        }
        let (mut header, version, blocks_at) = file::read_header(&mut file, path)?;
        let puzzle = crate::model::formats::native::parse(&header.puzzle).map_err(|e| {
            TraceError::Corrupt {
                path: path.to_path_buf(),
                why: format!("its puzzle does not load: {e}"),
            }
        })?;
        health::bound_header(&mut header, &puzzle);
        let tables = MoveTables::new(puzzle.board());
        let mut reader = TraceReader {
            path: path.to_path_buf(),
            file,
            header,
            puzzle,
            tables,
            blocks: Vec::new(),
            next_offset: blocks_at,
            footer: None,
            cut: None,
            damage: None,
            version,
        };
        let len = metadata.len();
        let footer = file::read_footer(&mut reader.file, len).map_err(|e| reader.io(e))?;
        match footer {
            Footer::Found(summary, offsets, footer_at) => {
                for offset in offsets {
                    match file::read_block(&mut reader.file, offset, false)
                        .map_err(|e| reader.io(e))?
                    {
                        BlockRead::Block(info, _) => reader.push_block(info)?,
                        BlockRead::End | BlockRead::Cut(_) | BlockRead::Broken(_) => {
                            return Err(reader.corrupt(format!(
                                "its index names a block at byte {offset} that is not there"
                            )));
                        }
                    }
                }
                reader.next_offset = footer_at;
                reader.footer = Some(summary);
            }
            Footer::Missing => {
                reader.refresh()?;
            }
            Footer::Damaged(why) => {
                // The blocks are walked as for a recording that did not end; the damage is
                // said whatever they hold.
                reader.refresh()?;
                reader.damage.get_or_insert(why);
            }
        }
        Ok(reader)
    }

    /// Reads the blocks written since the trace was opened or last refreshed, for a trace
    /// still being recorded. Returns whether new blocks were found.
    pub fn refresh(&mut self) -> Result<bool, TraceError> {
        if self.footer.is_some() {
            return Ok(false);
        }
        let before = self.blocks.len();
        self.cut = None;
        loop {
            match file::read_block(&mut self.file, self.next_offset, false)
                .map_err(|e| self.io(e))?
            {
                BlockRead::Block(info, _) => {
                    let next = self.next_offset + file::block_len(&info);
                    let len = self.file.metadata().map_err(|e| self.io(e))?.len();
                    if next > len {
                        self.cut = Some(format!(
                            "the file ends inside the block at byte {}",
                            self.next_offset
                        ));
                        break;
                    }
                    self.push_block(info)?;
                    self.next_offset = next;
                }
                BlockRead::End => break,
                BlockRead::Cut(why) => {
                    self.cut = Some(why);
                    break;
                }
                BlockRead::Broken(why) => {
                    self.damage = Some(why);
                    break;
                }
            }
        }
        Ok(self.blocks.len() > before)
    }

    fn push_block(&mut self, info: BlockInfo) -> Result<(), TraceError> {
        let (events, nodes) = (self.events(), self.nodes());
        if info.first_event != events || info.first_node != nodes {
            return Err(self.corrupt(format!(
                "the block at byte {} starts at event {} where {events} were expected",
                info.offset, info.first_event
            )));
        }
        self.blocks.push(info);
        Ok(())
    }

    fn io(&self, source: std::io::Error) -> TraceError {
        TraceError::io(&self.path, source)
    }

    fn corrupt(&self, why: String) -> TraceError {
        TraceError::Corrupt {
            path: self.path.clone(),
            why,
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the trace says of where it came from.
    pub fn header(&self) -> &TraceHeader {
        &self.header
    }

    /// The puzzle the search ran on.
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The blocks, in order.
    pub fn blocks(&self) -> &[BlockInfo] {
        &self.blocks
    }

    /// The events in the whole blocks.
    pub fn events(&self) -> u64 {
        self.blocks
            .last()
            .map_or(0, |b| b.first_event + u64::from(b.events))
    }

    /// The node events in the whole blocks.
    pub fn nodes(&self) -> u64 {
        self.blocks
            .last()
            .map_or(0, |b| b.first_node + u64::from(b.nodes))
    }

    /// Whether the recording finished (it has its footer).
    pub fn is_finished(&self) -> bool {
        self.footer.is_some()
    }

    /// The solution the footer names, with the last row's depth or bound (the iteration
    /// that found it, for an iterative search).
    pub fn solution(&self) -> Option<(Option<u32>, Vec<Move>)> {
        let footer = self.footer.as_ref()?;
        let moves = crate::model::parse_moves(footer.solution.as_deref()?).ok()?;
        Some((footer.rows.last().map(|row| row.depth), moves))
    }

    /// Why the whole blocks end before the file does, for a trace cut off or damaged.
    pub fn damage(&self) -> Option<&str> {
        self.damage.as_deref().or(self.cut.as_deref())
    }

    /// The file's format version.
    pub fn version(&self) -> u16 {
        self.version
    }

    /// The summary: the footer's, or for a trace cut off, one worked out by reading every
    /// event (marked incomplete, its end saying where it was cut off).
    pub fn summary(&mut self) -> Result<TraceSummary, TraceError> {
        if let Some(footer) = &self.footer {
            return Ok(footer.clone());
        }
        let mut by_kind = [0u64; EventKind::ALL.len()];
        let mut rows = Vec::new();
        let mut solution = None;
        let mut replay = self.replay(0)?;
        while let Some(event) = replay.next_event()? {
            by_kind[EventKind::of(&event.event) as usize] += 1;
            match &event.event {
                Event::IterationFinished(stats) => rows.push(TraceRow::from(stats)),
                Event::Solution { moves } => solution = Some(format_moves(moves)),
                _ => {}
            }
        }
        Ok(TraceSummary {
            complete: false,
            end: match self.damage() {
                Some(why) => format!("the recording was cut off ({why})"),
                None => "the recording was cut off".to_string(),
            },
            events: self.events(),
            by_kind: EventKind::ALL
                .iter()
                .zip(by_kind)
                .filter(|(_, count)| *count > 0)
                .map(|(kind, count)| (kind.name().to_string(), count))
                .collect(),
            rows,
            solution,
        })
    }

    /// The robots' cells after `path` from the start, or `None` if it moves a robot the
    /// puzzle does not have.
    pub fn cells_after(&self, path: &[Move]) -> Option<Vec<Cell>> {
        let mut cells = self.puzzle.robot_cells();
        for mv in path {
            let robot = self.puzzle.robot_index(mv.robot)?;
            cells[robot] = self.tables.slide(&cells, robot, mv.dir);
        }
        Some(cells)
    }

    /// The first event of `kind` after event `from` (`forward`) or the last before it,
    /// reading at most `budget` events; `None` when there is none within them.
    pub fn find_kind(
        &self,
        from: u64,
        kind: EventKind,
        forward: bool,
        budget: u64,
    ) -> Result<Option<u64>, TraceError> {
        if forward {
            let mut replay = self.replay((from + 1).min(self.events()))?;
            while let Some((index, decoded)) = replay.next_decoded()? {
                if decoded.kind() == kind {
                    return Ok(Some(index));
                }
                if index - from > budget {
                    break;
                }
            }
            return Ok(None);
        }
        // Backwards: each block from the one that holds `from`, its last match before it.
        let Some(mut block) = self.block_of(from.min(self.events().saturating_sub(1))) else {
            return Ok(None);
        };
        let mut read = 0;
        loop {
            let info = &self.blocks[block];
            let mut replay = self.replay(info.first_event)?;
            let mut last = None;
            while let Some((index, decoded)) = replay.next_decoded()? {
                if index >= from || index >= info.first_event + u64::from(info.events) {
                    break;
                }
                if decoded.kind() == kind {
                    last = Some(index);
                }
            }
            read += u64::from(info.events);
            if last.is_some() || block == 0 || read > budget {
                return Ok(last);
            }
            block -= 1;
        }
    }

    /// The event that starts the iteration of this depth or bound, if the trace has one
    /// within the first `budget` events.
    pub fn find_iteration_start(&self, depth: u32, budget: u64) -> Result<Option<u64>, TraceError> {
        // A block whose checkpoint is already past that iteration cannot hold its start.
        let first = self
            .blocks
            .partition_point(|b| b.checkpoint.iteration.is_some_and(|i| i < depth))
            .saturating_sub(1);
        let Some(start) = self.blocks.get(first).map(|b| b.first_event) else {
            return Ok(None);
        };
        let mut replay = self.replay(start)?;
        while let Some((index, decoded)) = replay.next_decoded()? {
            if decoded == Decoded::IterationStarted(depth) {
                return Ok(Some(index));
            }
            if index - start > budget {
                break;
            }
        }
        Ok(None)
    }

    /// The first node whose robots stand on `cells`, within the first `budget` events.
    pub fn find_cells(&self, cells: &RobotCells, budget: u64) -> Result<Option<u64>, TraceError> {
        let mut replay = self.replay(0)?;
        while let Some(traced) = replay.next_event()? {
            if let Event::Node { cells: here, .. } = &traced.event
                && here == cells
            {
                return Ok(Some(traced.index));
            }
            if traced.index > budget {
                break;
            }
        }
        Ok(None)
    }

    /// The block that holds event `index`.
    pub fn block_of(&self, index: u64) -> Option<usize> {
        if index >= self.events() {
            return None;
        }
        Some(
            self.blocks
                .partition_point(|b| b.first_event <= index)
                .saturating_sub(1),
        )
    }

    /// Replays events from `index` on (the end of the trace gives a replay with no events).
    pub fn replay(&self, index: u64) -> Result<Replay<'_>, TraceError> {
        let events = self.events();
        if index > events {
            return Err(TraceError::NoSuchEvent {
                path: self.path.clone(),
                index,
                events,
            });
        }
        let block = self.block_of(index).unwrap_or(self.blocks.len());
        // A file of its own, so that replays do not move each other's place in it.
        let file = File::open(&self.path).map_err(|e| self.io(e))?;
        let mut replay = Replay {
            reader: self,
            file,
            block,
            decoder: Decoder::new(Vec::new(), Cursor::default()),
            cells: Vec::new(),
            cells_valid_for: None,
            next_index: 0,
        };
        if block < self.blocks.len() {
            replay.load_block(block)?;
            while replay.next_index < index {
                replay.next_event()?;
            }
        } else {
            replay.next_index = events;
        }
        Ok(replay)
    }

    /// The event numbered `index`.
    pub fn event(&self, index: u64) -> Result<TracedEvent, TraceError> {
        let mut replay = self.replay(index)?;
        replay.next_event()?.ok_or(TraceError::NoSuchEvent {
            path: self.path.clone(),
            index,
            events: self.events(),
        })
    }
}

/// Events read one after another from some point of a trace.
pub struct Replay<'r> {
    reader: &'r TraceReader,
    file: File,
    block: usize,
    decoder: Decoder,
    /// The robots' cells after each move of the decoder's path: one more entry than moves
    /// whose cells are known.
    cells: Vec<Vec<Cell>>,
    /// The number of the next event when the cells were last worked out: they hold for the
    /// cursor's path only if no event was skimmed since.
    cells_valid_for: Option<u64>,
    next_index: u64,
}

impl Replay<'_> {
    fn load_block(&mut self, block: usize) -> Result<(), TraceError> {
        let info = &self.reader.blocks[block];
        let read =
            file::read_block(&mut self.file, info.offset, true).map_err(|e| self.reader.io(e))?;
        let read_info_payload = match read {
            BlockRead::Block(read_info, payload) => (read_info, payload),
            BlockRead::Broken(why) | BlockRead::Cut(why) => {
                return Err(self.reader.corrupt(why));
            }
            BlockRead::End => {
                return Err(self.reader.corrupt(format!(
                    "the block at byte {} is no longer there",
                    info.offset
                )));
            }
        };
        let (read_info, payload) = read_info_payload;
        self.block = block;
        self.next_index = read_info.first_event;
        self.decoder = Decoder::new(payload, read_info.checkpoint);
        self.cells.clear();
        self.cells_valid_for = None;
        Ok(())
    }

    /// The number of the event [`Replay::next_event`] reads next.
    pub fn position(&self) -> u64 {
        self.next_index
    }

    /// The cursor: the path of the last node and the iteration, as move codes.
    pub fn path(&self) -> Vec<Move> {
        self.decoder
            .cursor
            .path
            .iter()
            .filter_map(|&code| code_move(code))
            .collect()
    }

    /// The next event, or `None` at the end of the whole blocks.
    pub fn next_event(&mut self) -> Result<Option<TracedEvent>, TraceError> {
        let Some((index, decoded)) = self.next_decoded()? else {
            return Ok(None);
        };
        let event = self.complete(decoded)?;
        Ok(Some(TracedEvent {
            index,
            event,
            iteration: self.decoder.cursor.iteration,
        }))
    }

    /// The next event as its byte code holds it, with its number: a node's path is the
    /// cursor's and its cells are not worked out, which [`Replay::materialize`] does when
    /// they are wanted. Skimming many events this way costs a fraction of reading them.
    pub fn next_decoded(&mut self) -> Result<Option<(u64, Decoded)>, TraceError> {
        loop {
            if self.block >= self.reader.blocks.len() {
                return Ok(None);
            }
            // Bytes left after the events the header counts are damage, found before they are
            // read as events past the block's (and perhaps the trace's) end.
            let info = &self.reader.blocks[self.block];
            if self.next_index >= info.first_event + u64::from(info.events)
                && !self.decoder.is_done()
            {
                return Err(self.reader.corrupt(format!(
                    "the block at byte {} holds more events than the {} its header says",
                    info.offset, info.events
                )));
            }
            let decoded = self.decoder.next_event().map_err(|e| {
                self.reader.corrupt(format!(
                    "event {} in the block at byte {}: {}",
                    self.next_index, self.reader.blocks[self.block].offset, e.0
                ))
            })?;
            match decoded {
                Some(decoded) => {
                    let index = self.next_index;
                    self.next_index += 1;
                    return Ok(Some((index, decoded)));
                }
                None => {
                    let info = &self.reader.blocks[self.block];
                    if self.next_index != info.first_event + u64::from(info.events) {
                        return Err(self.reader.corrupt(format!(
                            "the block at byte {} holds {} events where its header says {}",
                            info.offset,
                            self.next_index - info.first_event,
                            info.events
                        )));
                    }
                    if self.block + 1 >= self.reader.blocks.len() {
                        self.block += 1;
                        return Ok(None);
                    }
                    self.load_block(self.block + 1)?;
                }
            }
        }
    }

    /// The event read last by [`Replay::next_decoded`], whole, with its number.
    pub fn materialize(&mut self, index: u64, decoded: Decoded) -> Result<TracedEvent, TraceError> {
        self.cells.clear();
        let event = self.complete(decoded)?;
        Ok(TracedEvent {
            index,
            event,
            iteration: self.decoder.cursor.iteration,
        })
    }

    /// Turns a decoded event into the event the search reported: a node's path as moves and
    /// its cells slid from the start.
    fn complete(&mut self, decoded: Decoded) -> Result<Event, TraceError> {
        // The cells hold for the cursor's path only if every event since they were worked
        // out was read whole; after events skimmed they are worked out from the start.
        let fresh = self.cells_valid_for == Some(self.next_index - 1);
        self.cells_valid_for = Some(self.next_index);
        Ok(match decoded {
            Decoded::Node { depth, pushed } => {
                let codes = &self.decoder.cursor.path;
                let known = codes.len() - pushed.min(codes.len());
                if !fresh {
                    self.cells.clear();
                }
                if self.cells.is_empty() {
                    self.cells.push(self.reader.puzzle.robot_cells());
                }
                self.cells.truncate(known.min(self.cells.len() - 1) + 1);
                let mut path = Vec::with_capacity(codes.len());
                for (i, &code) in codes.iter().enumerate() {
                    let mv = code_move(code)
                        .ok_or_else(|| self.reader.corrupt(format!("{code} is not a move code")))?;
                    path.push(mv);
                    if i + 1 < self.cells.len() {
                        continue;
                    }
                    let robot = self.reader.puzzle.robot_index(mv.robot).ok_or_else(|| {
                        self.reader.corrupt(format!(
                            "event {} moves the {} robot, which the puzzle does not have",
                            self.next_index - 1,
                            mv.robot.letter()
                        ))
                    })?;
                    let before = &self.cells[i];
                    let mut after = before.clone();
                    after[robot] = self.reader.tables.slide(before, robot, mv.dir);
                    self.cells.push(after);
                }
                Event::Node {
                    depth,
                    cells: RobotCells::new(&self.cells[codes.len()]),
                    path,
                }
            }
            Decoded::Generated { depth, path, h } => {
                let moves = path
                    .iter()
                    .map(|&code| {
                        code_move(code).ok_or_else(|| {
                            self.reader.corrupt(format!("{code} is not a move code"))
                        })
                    })
                    .collect::<Result<Vec<Move>, TraceError>>()?;
                let cells = self.reader.cells_after(&moves).ok_or_else(|| {
                    self.reader.corrupt(format!(
                        "event {} moves a robot the puzzle does not have",
                        self.next_index - 1
                    ))
                })?;
                Event::Generated {
                    depth,
                    cells: RobotCells::new(&cells),
                    path: moves,
                    h,
                }
            }
            Decoded::Pruned { depth, reason } => Event::Pruned { depth, reason },
            Decoded::IterationStarted(depth) => Event::IterationStarted { depth },
            Decoded::IterationFinished(stats) => Event::IterationFinished(stats),
            Decoded::Solution(moves) => Event::Solution { moves },
            Decoded::Solver(text) => Event::solver(RecordedEvent { text }),
        })
    }
}

/// A solver's own event read back from a trace: its description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedEvent {
    /// What the event said of itself when it was recorded.
    pub text: String,
}

impl crate::solver::SolverEvent for RecordedEvent {
    fn describe(&self, _board: &crate::model::Board) -> String {
        self.text.clone()
    }
}
