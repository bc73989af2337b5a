//! The event log of a debugged run: the newest recorded events up to a bound, each with the
//! view right after it, and the picture before the oldest, from which the picture at any
//! recorded event is rebuilt.

use super::DebugView;
use crate::solver::Event;
use crate::solver::picture::SearchPicture;
use std::collections::VecDeque;

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

/// The newest recorded events, at most `capacity` of them.
#[derive(Debug)]
pub(super) struct EventLog {
    events: VecDeque<Recorded>,
    /// The overlays' picture before the oldest recorded event.
    base: SearchPicture,
    capacity: usize,
}

impl EventLog {
    /// An empty log that keeps up to `capacity` events (at least one) of a search whose
    /// picture starts as `base`.
    pub(super) fn new(base: SearchPicture, capacity: usize) -> EventLog {
        EventLog {
            events: VecDeque::new(),
            base,
            capacity: capacity.max(1),
        }
    }

    /// Records an event; the oldest leaves when the log is full.
    pub(super) fn push(&mut self, recorded: Recorded) {
        if self.events.len() >= self.capacity
            && let Some(oldest) = self.events.pop_front()
        {
            // The oldest event leaves the log, so the base picture moves past it.
            oldest.event.draw(&mut self.base);
        }
        self.events.push_back(recorded);
    }

    /// The run-wide index of the oldest event kept (0 while the log is empty).
    pub(super) fn first_index(&self) -> u64 {
        self.events.front().map_or(0, |r| r.index)
    }

    /// How many events are kept.
    pub(super) fn len(&self) -> usize {
        self.events.len()
    }

    /// Where the event with this run-wide index sits in the log, if it is kept.
    fn offset(&self, index: u64) -> Option<usize> {
        let first = self.events.front()?.index;
        let offset = usize::try_from(index.checked_sub(first)?).ok()?;
        (offset < self.events.len()).then_some(offset)
    }

    /// The recorded event with this run-wide index, if it is still kept.
    pub(super) fn get(&self, index: u64) -> Option<&Recorded> {
        self.events.get(self.offset(index)?)
    }

    /// The picture right after the recorded event with this index, rebuilt from the base.
    pub(super) fn picture_at(&self, index: u64) -> Option<SearchPicture> {
        let offset = self.offset(index)?;
        let mut picture = self.base.clone();
        for recorded in self.events.iter().take(offset + 1) {
            recorded.event.draw(&mut picture);
        }
        Some(picture)
    }

    /// Up to `count` recorded events around the one with this index (about half of them
    /// newer), newest first.
    pub(super) fn around(&self, index: u64, count: usize) -> Vec<Recorded> {
        let Some(first) = self.events.front().map(|r| r.index) else {
            return Vec::new();
        };
        let len = self.events.len();
        let at = usize::try_from(index.saturating_sub(first))
            .unwrap_or(usize::MAX)
            .min(len - 1);
        let end = (at + count / 2 + 1).min(len).max(count.min(len));
        let start = end.saturating_sub(count);
        self.events.range(start..end).rev().cloned().collect()
    }

    /// The last `count` recorded events with an index below `end`, newest first
    /// (`u64::MAX`: the last of all).
    pub(super) fn latest_before(&self, end: u64, count: usize) -> Vec<Recorded> {
        let Some(first) = self.events.front().map(|r| r.index) else {
            return Vec::new();
        };
        // The kept events have consecutive indices, from `first` on.
        let stop = usize::try_from(end.saturating_sub(first))
            .unwrap_or(usize::MAX)
            .min(self.events.len());
        self.events
            .range(stop.saturating_sub(count)..stop)
            .rev()
            .cloned()
            .collect()
    }
}
