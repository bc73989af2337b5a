//! The graph of every optimal solution gathered beside the questions when no solve's table is
//! at hand (a hint that starts from an earlier solve): `fast` runs the iterations below the
//! optimum and the gathering iteration on a thread of its own, with a search of its own whose
//! probe tells the questions' driver its nodes and memory and stops it when asked.
//!
//! The graph takes every core and the questions one more thread, so the system shares the
//! cores between them until one side finishes or the questions pass their budget; then the
//! other side has them all. On hansel-24, whose questions take hundreds of millions of nodes,
//! this took a hint started from a finished solve from about 4 solves to about 2.5; positions
//! whose questions answer in a few million nodes (the other reference puzzles) answer as
//! before.

use super::{Finder, FirstError, graph};
use crate::model::Move;
use crate::solver::fast::gather::{GatherJob, solution_graph};
use crate::solver::key::StateKey;
use crate::solver::{Probe, Search, Stop};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// The graph being gathered while the questions are asked: what the questions' driver reads
/// of it at each poll.
pub(super) trait Rival: Send + Sync {
    /// Nodes counted since the last call.
    fn take_nodes(&self) -> u64;
    /// Whether the graph's search has ended: the questions have nothing to add, or (when it
    /// was stopped) nothing to gain.
    fn is_over(&self) -> bool;
    /// The memory the graph's search holds.
    fn bytes(&self) -> usize;
}

impl Rival for GatherJob {
    fn take_nodes(&self) -> u64 {
        GatherJob::take_nodes(self)
    }

    fn is_over(&self) -> bool {
        self.is_complete()
    }

    fn bytes(&self) -> usize {
        GatherJob::bytes(self)
    }
}

/// What the graph's own search and the questions' driver share.
#[derive(Default)]
pub(super) struct GraphBeside {
    /// The nodes the graph's search has counted.
    nodes: AtomicU64,
    /// The nodes the driver has taken of them.
    taken: AtomicU64,
    /// The memory the graph's search holds.
    memory: AtomicUsize,
    /// Set by the driver: the graph's search stops at its next poll.
    stop: AtomicBool,
    /// Set once the graph's search has ended.
    over: AtomicBool,
}

impl Rival for GraphBeside {
    fn take_nodes(&self) -> u64 {
        let nodes = self.nodes.load(Ordering::Relaxed);
        nodes.saturating_sub(self.taken.swap(nodes, Ordering::Relaxed))
    }

    fn is_over(&self) -> bool {
        self.over.load(Ordering::Acquire)
    }

    fn bytes(&self) -> usize {
        self.memory.load(Ordering::Relaxed)
    }
}

/// The graph's search's probe: it publishes the counters and stops on the driver's word.
struct BesideProbe<'b>(&'b GraphBeside);

impl Probe for BesideProbe<'_> {
    fn progress(&mut self, nodes: u64, memory_bytes: usize) {
        self.0.nodes.store(nodes, Ordering::Relaxed);
        self.0.memory.store(memory_bytes, Ordering::Relaxed);
    }

    fn should_stop(&mut self) -> bool {
        self.0.stop.load(Ordering::Relaxed)
    }
}

impl<K: StateKey + Send, P: Probe> Finder<'_, '_, '_, K, P> {
    /// The questions on one thread while `fast` gathers the graph on every core from nothing;
    /// the first to finish answers, and past their budget the questions stop and the graph
    /// has the cores. `None` when the system refused the graph its thread.
    pub(super) fn race_beside(&mut self) -> Option<Result<Vec<Move>, FirstError>> {
        let threads = self.seekers.len();
        let beside = Arc::new(GraphBeside::default());
        // The graph's search holds to what is left of the limits, and to a cancel, itself.
        let limits = self.search.limits_left();
        let (puzzle, depth) = (self.puzzle, self.depth);
        std::thread::scope(|scope| {
            let side = Arc::clone(&beside);
            let spawned = std::thread::Builder::new()
                .name("hint-graph".to_string())
                .spawn_scoped(scope, move || {
                    let mut probe = BesideProbe(&side);
                    let mut search = Search::new(&mut probe, &limits);
                    let graph = solution_graph(puzzle, depth, threads, None, &mut search);
                    side.nodes.store(search.nodes, Ordering::Relaxed);
                    side.over.store(true, Ordering::Release);
                    graph
                });
            let graph_side = spawned.ok()?;
            self.seekers.truncate(1);
            self.search.threads = self.search.threads.max(threads + 1);
            self.racing = Some(Arc::clone(&beside) as Arc<dyn Rival>);
            let answer = self.ask_questions();
            self.racing = None;
            let mut stopped = None;
            let graph_answers = matches!(answer, Err(FirstError::Stopped(Stop::Cancelled)))
                && (self.over_budget || self.graph_won);
            if graph_answers {
                if self.over_budget {
                    // The questions' tables are of no more use.
                    self.free_seekers();
                }
                while !beside.is_over() {
                    self.search.nodes += beside.take_nodes();
                    if stopped.is_none()
                        && let Err(stop) = self.search.poll()
                    {
                        beside.stop.store(true, Ordering::Relaxed);
                        stopped = Some(stop);
                    }
                    std::thread::sleep(super::MAIN_POLL);
                }
            } else {
                beside.stop.store(true, Ordering::Relaxed);
            }
            // A thread that panicked is a bug: its panic goes on here.
            let graph = match graph_side.join() {
                Ok(graph) => graph,
                Err(panic) => std::panic::resume_unwind(panic),
            };
            self.search.nodes += beside.take_nodes();
            if !graph_answers {
                return Some(answer);
            }
            if let Some(stop) = stopped {
                return Some(Err(FirstError::Stopped(stop)));
            }
            Some(graph.map_err(FirstError::Stopped).and_then(|graph| {
                graph::first_in_order(&graph, self.puzzle).ok_or(FirstError::NoneOfLength(depth))
            }))
        })
    }
}
