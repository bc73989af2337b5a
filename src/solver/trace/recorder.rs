//! The probe that records a search to a trace file as it runs.

use super::codec::Encoder;
use super::file::{self, BLOCK_BYTES, BlockInfo};
use super::kind::EventKind;
use super::{TraceError, TraceHeader, TraceRow, TraceSummary};
use crate::model::{Board, Cell, Move, format_moves};
use crate::solver::{DepthStats, Event, Probe};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A probe that writes every event of a search to a trace file and passes everything on to
/// the probe it wraps (the run's live counters, its cancel flag). A write that fails (a full
/// disk, a file-size limit) stops the search; the blocks written before it stay readable.
pub struct TraceRecorder<P: Probe> {
    inner: P,
    file: File,
    path: PathBuf,
    board: Board,
    encoder: Encoder,
    /// The current block's event bytes.
    payload: Vec<u8>,
    /// The current block's header, filled in as its events come.
    block: BlockInfo,
    /// The bytes written so far: where the next block goes.
    written: u64,
    offsets: Vec<u64>,
    events: u64,
    nodes: u64,
    by_kind: [u64; EventKind::ALL.len()],
    rows: Vec<TraceRow>,
    solution: Option<Vec<Move>>,
    failure: Option<std::io::Error>,
    /// The path of the node being reported, reused from node to node.
    scratch: Vec<Move>,
    /// A block's bytes on their way to the file, reused from block to block.
    staging: Vec<u8>,
    /// Whether the footer was written: later events are not recorded.
    closed: bool,
}

impl<P: Probe> TraceRecorder<P> {
    /// Creates (or replaces) the trace file at `path` and writes its header.
    pub fn create(
        path: &Path,
        header: &TraceHeader,
        board: Board,
        inner: P,
    ) -> Result<TraceRecorder<P>, TraceError> {
        let mut file = File::create(path).map_err(|e| TraceError::io(path, e))?;
        let head = file::encode_header(header);
        if let Err(source) = file.write_all(&head) {
            // A header cut short (a file-size limit below its length) is no trace: leave
            // nothing rather than a file no reader opens.
            drop(file);
            let _ = std::fs::remove_file(path);
            return Err(TraceError::NothingKept {
                path: path.to_path_buf(),
                source,
            });
        }
        let mut encoder = Encoder::default();
        encoder.reset_low_water();
        Ok(TraceRecorder {
            inner,
            file,
            path: path.to_path_buf(),
            board,
            encoder,
            payload: Vec::with_capacity(BLOCK_BYTES + 256),
            block: empty_block(head.len() as u64, 0, 0, Default::default()),
            written: head.len() as u64,
            offsets: Vec::new(),
            events: 0,
            nodes: 0,
            by_kind: [0; EventKind::ALL.len()],
            rows: Vec::new(),
            solution: None,
            failure: None,
            scratch: Vec::with_capacity(64),
            staging: Vec::with_capacity(BLOCK_BYTES + 512),
            closed: false,
        })
    }

    /// The probe it wraps.
    pub fn inner(&mut self) -> &mut P {
        &mut self.inner
    }

    /// The events recorded so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The node events recorded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The path of the last node reported.
    pub fn current_path(&self) -> Vec<Move> {
        self.encoder
            .cursor
            .path
            .iter()
            .filter_map(|&code| super::codec::code_move(code))
            .collect()
    }

    /// The first write that failed, if one did: the search stops at it.
    pub fn failure(&self) -> Option<&std::io::Error> {
        self.failure.as_ref()
    }

    /// Writes the events gathered so far as a block of their own, so that a reader sees
    /// every event up to now (a debugged search that pauses); returns whether a block was
    /// written.
    pub fn flush(&mut self) -> bool {
        let before = self.offsets.len();
        self.flush_block();
        self.offsets.len() > before
    }

    /// Writes what is left and the footer, then closes the file. `end` says in words how the
    /// run ended and `complete` whether the search reached its own end. A write that failed
    /// during the search is reported here, naming the file; the blocks before it stay
    /// readable, and when there were none the file is removed
    /// ([`TraceError::NothingKept`]).
    pub fn finish(mut self, end: &str, complete: bool) -> Result<(P, TraceSummary), TraceError> {
        let summary = self.close(end, complete)?;
        Ok((self.inner, summary))
    }

    /// [`TraceRecorder::finish`] for a recorder that stays where it is: events after it are
    /// not recorded.
    pub fn close(&mut self, end: &str, complete: bool) -> Result<TraceSummary, TraceError> {
        self.flush_block();
        if let Some(failure) = self.failure.take() {
            self.closed = true;
            if self.offsets.is_empty() {
                // Only the header and part of a block: no event to read, so nothing is left.
                let _ = std::fs::remove_file(&self.path);
                return Err(TraceError::NothingKept {
                    path: self.path.clone(),
                    source: failure,
                });
            }
            return Err(TraceError::io(&self.path, failure));
        }
        if self.closed {
            return Err(TraceError::Corrupt {
                path: self.path.clone(),
                why: "its recording was already closed".into(),
            });
        }
        self.closed = true;
        let summary = TraceSummary {
            complete,
            end: end.to_string(),
            events: self.events,
            by_kind: EventKind::ALL
                .iter()
                .zip(self.by_kind)
                .filter(|(_, count)| *count > 0)
                .map(|(kind, count)| (kind.name().to_string(), count))
                .collect(),
            rows: std::mem::take(&mut self.rows),
            solution: self.solution.as_deref().map(format_moves),
        };
        let footer = file::encode_footer(&summary, &self.offsets, self.written);
        let written = self
            .file
            .write_all(&footer)
            .and_then(|()| self.file.sync_data());
        written.map_err(|e| TraceError::io(&self.path, e))?;
        Ok(summary)
    }

    /// The blocks written so far.
    pub fn blocks_written(&self) -> u64 {
        self.offsets.len() as u64
    }

    #[inline(always)]
    fn counted(&mut self, kind: EventKind) {
        self.events += 1;
        self.block.events += 1;
        self.by_kind[kind as usize] += 1;
        if self.payload.len() >= BLOCK_BYTES {
            self.flush_block();
        }
    }

    /// Writes the current block, if it holds events, and starts the next at the cursor.
    fn flush_block(&mut self) {
        if self.block.events == 0 || self.failure.is_some() || self.closed {
            return;
        }
        self.block.low_water = clamp16(self.encoder.low_water);
        self.block.high_water = clamp16(self.encoder.high_water);
        self.block.depth_first = !self.encoder.jumped;
        self.staging.clear();
        file::encode_block(&self.block, &self.payload, &mut self.staging);
        if let Err(failure) = self.file.write_all(&self.staging) {
            self.failure = Some(failure);
            return;
        }
        self.offsets.push(self.written);
        self.written += self.staging.len() as u64;
        self.payload.clear();
        self.encoder.reset_low_water();
        self.block = empty_block(
            self.written,
            self.events,
            self.nodes,
            self.encoder.cursor.clone(),
        );
    }
}

fn clamp16(value: usize) -> u16 {
    u16::try_from(value).unwrap_or(u16::MAX)
}

fn empty_block(
    offset: u64,
    first_event: u64,
    first_node: u64,
    checkpoint: super::codec::Cursor,
) -> BlockInfo {
    BlockInfo {
        offset,
        first_event,
        first_node,
        events: 0,
        nodes: 0,
        low_water: 0,
        high_water: 0,
        depth_first: true,
        checkpoint,
        payload_len: 0,
    }
}

impl<P: Probe> Probe for TraceRecorder<P> {
    const PROFILES: bool = P::PROFILES;

    #[inline(always)]
    fn node_profile(&mut self) -> Option<&mut crate::solver::profile::NodeProfile> {
        self.inner.node_profile()
    }

    fn wants_events(&self) -> bool {
        true
    }

    fn event(&mut self, event: impl FnOnce() -> Event) {
        let event = event();
        let kind = EventKind::of(&event);
        match &event {
            Event::Node { .. } => {
                self.nodes += 1;
                self.block.nodes += 1;
            }
            Event::IterationFinished(stats) => self.rows.push(TraceRow::from(stats)),
            Event::Solution { moves } => self.solution = Some(moves.clone()),
            _ => {}
        }
        self.encoder.event(&mut self.payload, &event, &self.board);
        if self.inner.wants_events() {
            self.inner.event(|| event);
        }
        self.counted(kind);
    }

    #[inline(always)]
    fn node(&mut self, depth: u32, cells: &[Cell], path: impl FnOnce(&mut Vec<Move>)) {
        self.scratch.clear();
        path(&mut self.scratch);
        self.encoder.node(&mut self.payload, depth, &self.scratch);
        self.nodes += 1;
        self.block.nodes += 1;
        if self.inner.wants_events() {
            let scratch = &self.scratch;
            self.inner
                .node(depth, cells, |moves| moves.extend_from_slice(scratch));
        }
        self.counted(EventKind::Node);
    }

    fn depth_finished(&mut self, stats: &DepthStats) {
        self.inner.depth_finished(stats);
    }

    #[inline(always)]
    fn progress(&mut self, nodes: u64, memory_bytes: usize) {
        self.inner.progress(nodes, memory_bytes);
    }

    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        self.failure.is_some() || self.inner.should_stop()
    }
}
