//! The history of a debugged run: every event, read back from the run's trace file, with the
//! view right after each, and the overlays' picture at any event rebuilt from the nearest
//! snapshot the probe took.

use super::DebugView;
use crate::solver::picture::SearchPicture;
use crate::solver::trace::{Decoded, TraceError, TraceReader};
use crate::solver::{Event, RobotCells, SolverPayload};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How far [`History::picture_toward`] goes in one call: a few tens of milliseconds of
/// reading, so a window that calls it once a frame keeps drawing frames.
const PICTURE_STRIDE: u64 = 2_000_000;

/// What [`History::picture_toward`] reached.
#[derive(Debug)]
pub enum PictureStep {
    /// The picture after the event asked for.
    Ready(Box<SearchPicture>),
    /// A picture nearer to it, kept as a snapshot: ask again.
    Nearer,
}

/// One recorded event with the view right after it.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// The event's number in the run, from 0.
    pub index: u64,
    /// The event.
    pub event: Event,
    /// What was shown after it.
    pub view: DebugView,
}

/// How far from a snapshot the picture at an event is rebuilt: past this many events the
/// rebuild would take longer than a frame should, so there is no picture.
const MAX_PICTURE_REPLAY: u64 = 4_000_000;

/// What the probe shares with the readers besides the trace: the solver's own events (a
/// trace keeps them as text; the overlays need them whole) and the pictures at the start of
/// blocks.
#[derive(Default)]
pub(super) struct Extras {
    /// Solver events by event number.
    pub payloads: BTreeMap<u64, SolverPayload>,
    /// The overlays' picture before the event of each key.
    pub snapshots: BTreeMap<u64, SearchPicture>,
}

/// A run's trace, opened when first read, and the counts that turn it into views.
pub struct History {
    path: PathBuf,
    reader: Option<TraceReader>,
    /// Prunes before each block, as far as counted.
    pruned_before: Vec<u64>,
    /// The last finished row before each block, as far as read.
    row_before: Vec<Option<crate::solver::DepthStats>>,
}

impl History {
    /// The history of the trace at `path` (opened when first read).
    pub fn new(path: &Path) -> History {
        History {
            path: path.to_path_buf(),
            reader: None,
            pruned_before: vec![0],
            row_before: vec![None],
        }
    }

    /// The history of a trace already open.
    pub fn of_reader(reader: TraceReader) -> History {
        History {
            path: reader.path().to_path_buf(),
            reader: Some(reader),
            pruned_before: vec![0],
            row_before: vec![None],
        }
    }

    /// The trace's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The trace, opened and brought up to date with the blocks written since.
    pub fn reader(&mut self) -> Result<&mut TraceReader, TraceError> {
        match &mut self.reader {
            Some(reader) => {
                reader.refresh()?;
            }
            None => self.reader = Some(TraceReader::open(&self.path)?),
        }
        // Just set when it was missing.
        self.reader.as_mut().ok_or_else(|| TraceError::Corrupt {
            path: self.path.clone(),
            why: "it could not be opened".into(),
        })
    }

    /// How many events can be read.
    pub fn events(&mut self) -> u64 {
        self.reader().map_or(0, |r| r.events())
    }

    /// The first event of the block that holds event `index`: where reading it starts.
    pub(super) fn block_start(&mut self, index: u64) -> u64 {
        let Ok(reader) = self.reader() else {
            return 0;
        };
        reader
            .block_of(index)
            .map_or(0, |block| reader.blocks()[block].first_event)
    }

    /// The prunes and the last finished row before block `block`, reading the blocks before
    /// it once.
    fn before_block(
        &mut self,
        block: usize,
    ) -> Result<(u64, Option<crate::solver::DepthStats>), TraceError> {
        while self.pruned_before.len() <= block {
            let counted = self.pruned_before.len() - 1;
            let Some(reader) = &self.reader else {
                return Ok((0, None));
            };
            let info = reader.blocks()[counted].clone();
            let mut replay = reader.replay(info.first_event)?;
            let mut pruned = 0;
            let mut row = self.row_before[counted].clone();
            // Skimmed, not read whole: only the kinds and the rows count here.
            while replay.position() < info.first_event + u64::from(info.events) {
                match replay.next_decoded()? {
                    Some((_, Decoded::Pruned { .. })) => pruned += 1,
                    Some((_, Decoded::IterationFinished(stats))) => row = Some(stats),
                    Some(_) => {}
                    None => break,
                }
            }
            let before = self.pruned_before[counted];
            self.pruned_before.push(before + pruned);
            self.row_before.push(row);
        }
        Ok((self.pruned_before[block], self.row_before[block].clone()))
    }

    /// The events numbered `from` up to `to` (not included), each with its view, oldest
    /// first; solver events are taken whole from `payloads` where it has them.
    pub fn read(
        &mut self,
        from: u64,
        to: u64,
        payloads: &BTreeMap<u64, SolverPayload>,
    ) -> Result<Vec<Recorded>, TraceError> {
        let events = self.reader()?.events();
        let to = to.min(events);
        if from >= to {
            return Ok(Vec::new());
        }
        let block = self.reader()?.block_of(from).unwrap_or(0);
        let (pruned, last_depth) = self.before_block(block)?;
        let Some(reader) = &self.reader else {
            return Ok(Vec::new());
        };
        let info = reader.blocks()[block].clone();
        let mut view = DebugView {
            events: info.first_event,
            iteration: info.checkpoint.iteration,
            depth: info.checkpoint.node_depth.unwrap_or(0),
            nodes: info.first_node,
            pruned,
            last_depth,
            ..DebugView::default()
        };
        let mut replay = reader.replay(info.first_event)?;
        // The block starts where its checkpoint left the search: at its last node.
        view.path = replay.path();
        view.cells = reader
            .cells_after(&view.path)
            .map(|cells| crate::solver::RobotCells::new(&cells));
        let start = reader
            .cells_after(&[])
            .map(|cells| crate::solver::RobotCells::new(&cells));
        let mut found = Vec::new();
        while let Some(traced) = replay.next_event()? {
            if traced.index >= to {
                break;
            }
            let event = match (&traced.event, payloads.get(&traced.index)) {
                (Event::Solver(_), Some(payload)) => Event::Solver(payload.clone()),
                _ => traced.event,
            };
            apply_to_view(&mut view, &event, start);
            view.iteration = traced.iteration;
            if traced.index >= from {
                found.push(Recorded {
                    index: traced.index,
                    event,
                    view: view.clone(),
                });
            }
        }
        Ok(found)
    }

    /// The overlays' picture right after event `index`: the snapshot before it with the
    /// events since drawn on it; `None` when there is no snapshot near enough.
    pub(super) fn picture_at(
        &mut self,
        index: u64,
        extras: &Extras,
    ) -> Result<Option<SearchPicture>, TraceError> {
        let Some((&start, snapshot)) = extras.snapshots.range(..=index).next_back() else {
            return Ok(None);
        };
        if index - start > MAX_PICTURE_REPLAY || index >= self.events() {
            return Ok(None);
        }
        let mut picture = snapshot.clone();
        let Some(reader) = &self.reader else {
            return Ok(None);
        };
        let mut replay = reader.replay(start)?;
        while let Some(traced) = replay.next_event()? {
            if traced.index > index {
                break;
            }
            match (&traced.event, extras.payloads.get(&traced.index)) {
                (Event::Solver(_), Some(payload)) => {
                    Event::Solver(payload.clone()).draw(&mut picture)
                }
                (event, _) => event.draw(&mut picture),
            }
        }
        Ok(Some(picture))
    }
}

impl History {
    /// The overlays' picture after event `index` of a trace with no run behind it (a file),
    /// rebuilt from the nearest of `snapshots` (the picture before the event of each key; at
    /// least one, before event 0). When that is far behind, it goes `PICTURE_STRIDE`
    /// events nearer, keeps the picture there as a snapshot and says so, so a far jump is
    /// reached over a few frames rather than in one long one.
    pub fn picture_toward(
        &mut self,
        index: u64,
        snapshots: &mut BTreeMap<u64, SearchPicture>,
    ) -> Result<Option<PictureStep>, TraceError> {
        let Some(&start) = snapshots
            .range(..=index)
            .next_back()
            .map(|(start, _)| start)
        else {
            return Ok(None);
        };
        let reach = index.min(start + PICTURE_STRIDE - 1);
        let mut extras = Extras {
            payloads: BTreeMap::new(),
            snapshots: std::mem::take(snapshots),
        };
        let picture = self.picture_at(reach, &extras);
        *snapshots = std::mem::take(&mut extras.snapshots);
        let Some(picture) = picture? else {
            return Ok(None);
        };
        if reach == index {
            // Kept only a stride apart, so the snapshots stay few.
            if index + 1 - start >= PICTURE_STRIDE / 2 {
                snapshots.insert(index + 1, picture.clone());
            }
            return Ok(Some(PictureStep::Ready(Box::new(picture))));
        }
        snapshots.insert(reach + 1, picture);
        Ok(Some(PictureStep::Nearer))
    }
}

/// Moves a view past one event: what the panel shows after it. A new depth, bound or level
/// starts from the root: the robots at `start`, where the puzzle has them, and no path.
pub(super) fn apply_to_view(view: &mut DebugView, event: &Event, start: Option<RobotCells>) {
    view.events += 1;
    match event {
        Event::IterationStarted { depth } => {
            view.iteration = Some(*depth);
            view.depth = 0;
            view.cells = start;
            view.path.clear();
            view.last_prune = None;
        }
        Event::Node { depth, cells, path } => {
            view.nodes += 1;
            view.depth = *depth;
            view.cells = Some(*cells);
            view.last_prune = None;
            view.path.clone_from(path);
        }
        Event::Pruned { reason, .. } => {
            view.pruned += 1;
            view.last_prune = Some(*reason);
        }
        Event::IterationFinished(stats) => view.last_depth = Some(stats.clone()),
        Event::Solution { moves } => view.solution = Some(moves.clone()),
        // A node put on the open list is shown in the log and the frontier; the node shown
        // stays the one being expanded.
        Event::Generated { .. } => {}
        Event::Solver(payload) => {
            if let Some(status) = payload.status() {
                view.solver_status = Some(status);
            }
        }
    }
}
