//! Traces of every built-in solver on small boards: a recorded trace replays to exactly the
//! events of the live run, compares equal to itself and finds a difference planted in it, its
//! search tree's counts add up, and a trace cut off, from a newer program or no trace at all
//! opens as a prefix marked incomplete or gives an error naming the file.

use ricochet_lab::testing::{board, small};

use ricochet_lab::model::{Puzzle, Rules};
use ricochet_lab::solver::trace::{
    self, DivergenceRule, TraceError, TraceHeader, TraceReader, TraceRecorder, TraceSummary,
    TreeNode, compare_traces,
};
use ricochet_lab::solver::{
    self, Event, Limits, NoProbe, Probe, RecordingProbe, Report, RobotCells, SolverId,
    SolverOptions,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The options a solver runs with here: depth-limited search gets the small board's optimum
/// (5) as its limit, the others their defaults.
fn options(id: SolverId) -> SolverOptions {
    SolverOptions {
        depth_limit: (id == SolverId::Dls).then_some(5),
        ..SolverOptions::default()
    }
}

fn header(id: SolverId, puzzle: &Puzzle) -> TraceHeader {
    TraceHeader {
        program: "ricochet-lab test".into(),
        puzzle: ricochet_lab::model::formats::native::write(puzzle),
        solver: id.name().into(),
        solver_title: id.kind().title.into(),
        external: false,
    }
}

/// Runs `id` on `puzzle`, recording its trace at `path` and, in the same run, every event
/// as a [`RecordingProbe`] sees it.
fn record_live(
    id: SolverId,
    puzzle: &Puzzle,
    options: &SolverOptions,
    path: &Path,
) -> (Report, RecordingProbe, TraceSummary) {
    try_record_live(id, puzzle, options, path).unwrap()
}

/// [`record_live`], or the solver's refusal of the puzzle.
fn try_record_live(
    id: SolverId,
    puzzle: &Puzzle,
    options: &SolverOptions,
    path: &Path,
) -> Result<(Report, RecordingProbe, TraceSummary), solver::SolveError> {
    let mut recorder = TraceRecorder::create(
        path,
        &header(id, puzzle),
        puzzle.board().clone(),
        RecordingProbe::default(),
    )
    .unwrap();
    let report = solver::run(id, puzzle, options, &Limits::default(), &mut recorder)?;
    let (end, complete) = trace::outcome_words(&report.outcome);
    let (live, summary) = recorder.finish(&end, complete).unwrap();
    Ok((report, live, summary))
}

/// Every event of a trace, in order.
fn replayed(reader: &TraceReader) -> Vec<Event> {
    let mut replay = reader.replay(0).unwrap();
    let mut events = Vec::new();
    while let Some(traced) = replay.next_event().unwrap() {
        assert_eq!(traced.index, events.len() as u64);
        events.push(traced.event);
    }
    events
}

/// Asserts that `traced` are the events of `live`: equal, a solver's own events by their
/// description (a trace keeps them as text).
fn assert_same_events(what: &str, puzzle: &Puzzle, live: &[Event], traced: &[Event]) {
    assert_eq!(live.len(), traced.len(), "{what}: event count");
    for (i, (a, b)) in live.iter().zip(traced).enumerate() {
        match (a, b) {
            (Event::Solver(a), Event::Solver(b)) => assert_eq!(
                a.describe(puzzle.board()),
                b.describe(puzzle.board()),
                "{what}: event {i}"
            ),
            _ => assert_eq!(a, b, "{what}: event {i}"),
        }
    }
}

fn node_key(event: &Event) -> Option<(u32, RobotCells)> {
    match event {
        Event::Node { depth, cells, .. } => Some((*depth, *cells)),
        _ => None,
    }
}

/// The iteration (depth or bound) each event happened in, as the trace numbers them.
fn iterations(events: &[Event]) -> Vec<Option<u32>> {
    let mut current = None;
    events
        .iter()
        .map(|event| {
            if let Event::IterationStarted { depth } = event {
                current = Some(*depth);
            }
            current
        })
        .collect()
}

/// Writes `events` as a trace at `path`, as a recorder would have during a run.
fn write_trace(id: SolverId, puzzle: &Puzzle, events: &[Event], path: &Path) {
    let mut recorder =
        TraceRecorder::create(path, &header(id, puzzle), puzzle.board().clone(), NoProbe).unwrap();
    for event in events {
        recorder.event(|| event.clone());
    }
    recorder.finish("rewritten", true).unwrap();
}

struct Scratch(tempfile::TempDir);

impl Scratch {
    fn new() -> Scratch {
        Scratch(tempfile::tempdir().unwrap())
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
}

#[test]
fn every_solvers_trace_replays_to_the_events_of_its_live_run() {
    let dir = Scratch::new();
    let puzzles = [
        ("small-6x6", small()),
        (
            "small-6x6 under the ricochet rule",
            small().with_rules(Rules {
                ricochet: true,
                ..Rules::default()
            }),
        ),
    ];
    for id in SolverId::ALL {
        for (name, puzzle) in &puzzles {
            if id.kind().rules.unsupported(puzzle.rules()).is_some() {
                continue;
            }
            let what = format!("{} on {name}", id.name());
            let path = dir.path(&format!("{}.trace", id.name()));
            let Ok((report, live, summary)) = try_record_live(id, puzzle, &options(id), &path)
            else {
                // A solver may refuse a rule it declares it implements only in part.
                assert_ne!(*name, "small-6x6", "{what}");
                continue;
            };
            assert!(!live.events.is_empty(), "{what}: no events");
            let mut reader = TraceReader::open(&path).unwrap();
            assert!(reader.is_finished(), "{what}");
            assert_eq!(reader.events(), live.events.len() as u64, "{what}");
            assert_eq!(reader.puzzle(), puzzle, "{what}");
            assert_eq!(reader.header().solver, id.name(), "{what}");
            let traced = replayed(&reader);
            assert_same_events(&what, puzzle, &live.events, &traced);
            // The footer agrees with the events and with the run.
            assert_eq!(reader.summary().unwrap(), summary, "{what}");
            assert_eq!(summary.events, live.events.len() as u64, "{what}");
            let nodes = live.count(|e| matches!(e, Event::Node { .. }));
            assert_eq!(reader.nodes(), nodes, "{what}");
            assert_eq!(summary.rows.len(), live.depths.len(), "{what}");
            if let solver::Outcome::Solved { moves } = &report.outcome {
                assert_eq!(
                    summary.solution.as_deref(),
                    Some(ricochet_lab::model::format_moves(moves).as_str()),
                    "{what}"
                );
            }
            // Any event is reached from its block's checkpoint as it is by replaying from
            // the start.
            let step = (traced.len() / 7).max(1);
            for index in (0..traced.len()).step_by(step).chain([traced.len() - 1]) {
                let event = reader.event(index as u64).unwrap();
                assert_same_events(
                    &what,
                    puzzle,
                    std::slice::from_ref(&live.events[index]),
                    std::slice::from_ref(&event.event),
                );
            }
        }
    }
}

#[test]
fn record_writes_the_trace_of_the_run_it_reports() {
    let dir = Scratch::new();
    let path = dir.path("iddfs.trace");
    let puzzle = small();
    let choice = solver::SolverChoice::BuiltIn(SolverId::Iddfs);
    let (report, summary) = trace::record(
        &choice,
        &puzzle,
        &SolverOptions::default(),
        &Limits::default(),
        &path,
        NoProbe,
    )
    .unwrap();
    assert!(summary.complete);
    assert_eq!(summary.end, "solved in 5 moves");
    assert!(matches!(report.outcome, solver::Outcome::Solved { .. }));
    let (_, live) = ricochet_lab::testing::recorded("iddfs", &puzzle, None);
    let reader = TraceReader::open(&path).unwrap();
    assert_same_events("iddfs", &puzzle, &live.events, &replayed(&reader));
    assert_eq!(reader.header().solver_title, SolverId::Iddfs.kind().title);
}

#[test]
fn every_solvers_trace_is_the_same_search_as_itself_and_not_as_a_copy_missing_a_node() {
    let dir = Scratch::new();
    let puzzle = small();
    let mut without_nodes = Vec::new();
    for id in SolverId::ALL {
        let what = id.name();
        let path = dir.path(&format!("{what}.trace"));
        let (_, live, _) = record_live(id, &puzzle, &options(id), &path);
        let nodes = live.count(|e| matches!(e, Event::Node { .. }));
        let mut first = TraceReader::open(&path).unwrap();
        let mut second = TraceReader::open(&path).unwrap();
        let same = compare_traces(&mut first, &mut second, DivergenceRule::Order).unwrap();
        assert_eq!(same.divergence, None, "{what}");
        assert_eq!(same.nodes_compared, nodes, "{what}");
        assert_eq!(same.first_rows, same.second_rows, "{what}");
        let as_sets = compare_traces(&mut first, &mut second, DivergenceRule::Sets).unwrap();
        assert_eq!(as_sets.divergence, None, "{what}");

        // Plant a difference: a copy without one position of the last iteration (every node
        // at its depth and cells there), so that neither rule can find it elsewhere.
        let rounds = iterations(&live.events);
        let node_indices: Vec<usize> = (0..live.events.len())
            .filter(|&i| node_key(&live.events[i]).is_some())
            .collect();
        if node_indices.is_empty() {
            eprintln!("{what} reports no nodes: no difference planted");
            without_nodes.push(what);
            continue;
        }
        let planted = node_indices[node_indices.len() * 2 / 3];
        let key = node_key(&live.events[planted]);
        let round = rounds[planted];
        let dropped: Vec<usize> = node_indices
            .iter()
            .copied()
            .filter(|&i| rounds[i] == round && node_key(&live.events[i]) == key)
            .collect();
        let copy: Vec<Event> = (0..live.events.len())
            .filter(|i| !dropped.contains(i))
            .map(|i| live.events[i].clone())
            .collect();
        let copy_path = dir.path(&format!("{what}-copy.trace"));
        write_trace(id, &puzzle, &copy, &copy_path);
        let mut copied = TraceReader::open(&copy_path).unwrap();
        let in_order = compare_traces(&mut first, &mut copied, DivergenceRule::Order).unwrap();
        let divergence = in_order.divergence.expect(what);
        let first_dropped = dropped[0] as u64;
        assert_eq!(
            divergence.first.as_ref().map(|e| e.index),
            Some(first_dropped),
            "{what}: {divergence:?}"
        );
        let nodes_before = node_indices.iter().filter(|&&i| i < dropped[0]).count();
        assert_eq!(in_order.nodes_compared, nodes_before as u64, "{what}");
        assert_eq!(divergence.iteration, round, "{what}");

        let by_sets = compare_traces(&mut first, &mut copied, DivergenceRule::Sets).unwrap();
        let divergence = by_sets.divergence.expect(what);
        assert_eq!(divergence.iteration, round, "{what}: {divergence:?}");
        assert_eq!(
            divergence.first.as_ref().map(|e| e.index),
            Some(first_dropped),
            "{what}: {divergence:?}"
        );
        assert_eq!(divergence.second, None, "{what}");
        assert!(
            divergence.why.contains("the first search examines a node"),
            "{what}: {}",
            divergence.why
        );
        // The other way round, the second trace holds the node the first lacks.
        let reversed = compare_traces(&mut copied, &mut first, DivergenceRule::Sets).unwrap();
        let divergence = reversed.divergence.expect(what);
        assert_eq!(divergence.first, None, "{what}");
        assert_eq!(
            divergence.second.as_ref().map(|e| e.index),
            Some(first_dropped),
            "{what}"
        );
    }
    // Every solver but those that search no tree of positions reports its nodes.
    assert!(
        without_nodes.len() * 4 < SolverId::ALL.len(),
        "{without_nodes:?}"
    );
}

#[test]
fn a_depth_limited_search_and_another_solver_diverge_where_they_part() {
    let dir = Scratch::new();
    let puzzle = small();
    let full = dir.path("full.trace");
    let (_, live, _) = record_live(SolverId::Iddfs, &puzzle, &options(SolverId::Iddfs), &full);
    let limited = dir.path("limited.trace");
    let three = SolverOptions {
        depth_limit: Some(3),
        ..SolverOptions::default()
    };
    record_live(SolverId::Iddfs, &puzzle, &three, &limited);
    let mut full = TraceReader::open(&full).unwrap();
    let mut limited = TraceReader::open(&limited).unwrap();
    // The limited search stops after depth 3; the full one goes on to depth 4.
    let rounds = iterations(&live.events);
    let first_of_four = (0..live.events.len())
        .find(|&i| rounds[i] == Some(4) && node_key(&live.events[i]).is_some())
        .unwrap() as u64;
    for rule in [DivergenceRule::Order, DivergenceRule::Sets] {
        let comparison = compare_traces(&mut limited, &mut full, rule).unwrap();
        let divergence = comparison.divergence.unwrap();
        assert_eq!(divergence.first, None, "{rule:?}");
        assert_eq!(
            divergence.second.map(|e| e.index),
            Some(first_of_four),
            "{rule:?}"
        );
        assert_eq!(divergence.iteration, Some(4), "{rule:?}");
    }

    // Breadth-first search examines its nodes in another order, and each only once.
    let bfs = dir.path("bfs.trace");
    record_live(SolverId::Bfs, &puzzle, &options(SolverId::Bfs), &bfs);
    let mut bfs = TraceReader::open(&bfs).unwrap();
    let comparison = compare_traces(&mut full, &mut bfs, DivergenceRule::Order).unwrap();
    assert!(comparison.divergence.is_some());
    assert_ne!(comparison.first_rows, comparison.second_rows);
}

#[test]
fn traces_of_two_puzzles_are_not_compared() {
    let dir = Scratch::new();
    let (a, b) = (dir.path("small.trace"), dir.path("standard.trace"));
    record_live(SolverId::Bfs, &small(), &SolverOptions::default(), &a);
    let standard = board("standard-random.ron");
    record_live(SolverId::Bfs, &standard, &SolverOptions::default(), &b);
    let mut first = TraceReader::open(&a).unwrap();
    let mut second = TraceReader::open(&b).unwrap();
    let error = compare_traces(&mut first, &mut second, DivergenceRule::Order).unwrap_err();
    let message = error.to_string();
    assert!(message.contains(&a.display().to_string()), "{message}");
    assert!(message.contains(&b.display().to_string()), "{message}");
    assert!(message.contains("another puzzle"), "{message}");
}

/// Checks a node's subtree count against its children's, `levels` deep, returning how many
/// nodes it checked.
fn check_subtree(reader: &TraceReader, node: &TreeNode, levels: u32) -> usize {
    let children = reader.tree_children(node).unwrap();
    let below: u64 = children.iter().map(|c| c.subtree_nodes).sum();
    assert_eq!(
        node.subtree_nodes,
        1 + below,
        "the node at event {} (path {:?})",
        node.event,
        node.path
    );
    let mut checked = 1;
    for child in &children {
        assert_eq!(child.depth, node.depth + 1);
        assert!(child.path.starts_with(&node.path));
        assert!(child.event > node.event && child.event < node.end.max(child.event + 1));
        if levels > 0 {
            checked += check_subtree(reader, child, levels - 1);
        }
    }
    checked
}

#[test]
fn the_search_trees_subtree_counts_add_up_to_the_rows_node_counts() {
    let dir = Scratch::new();
    let puzzle = small();
    for id in [SolverId::Iddfs, SolverId::Dls, SolverId::Bfs] {
        let what = id.name();
        let path = dir.path(&format!("{what}.trace"));
        let (_, live, summary) = record_live(id, &puzzle, &options(id), &path);
        let reader = TraceReader::open(&path).unwrap();
        assert_eq!(
            reader.is_depth_first(),
            id != SolverId::Bfs,
            "{what}: depth-first order"
        );
        let roots = reader.tree_roots().unwrap();
        assert!(!roots.is_empty(), "{what}");
        let total: u64 = roots.iter().map(|r| r.subtree_nodes).sum();
        let nodes = live.count(|e| matches!(e, Event::Node { .. }));
        assert_eq!(
            total, nodes,
            "{what}: the roots' subtrees against the node events"
        );
        assert_eq!(reader.nodes(), nodes, "{what}");
        // The rows count the same nodes: by depth (DLS, BFS) or by iteration (IDDFS), where
        // each iteration's root holds its row's nodes.
        let rows: u64 = summary.rows.iter().map(|r| r.nodes).sum();
        assert_eq!(total, rows, "{what}: the roots' subtrees against the rows");
        if id == SolverId::Iddfs {
            for root in &roots {
                let row = summary
                    .rows
                    .iter()
                    .find(|r| Some(r.depth) == root.iteration);
                if let Some(row) = row {
                    assert_eq!(root.subtree_nodes, row.nodes, "{what}: {row:?}");
                }
            }
        }
        // Every node of a small iteration, to the bottom, and the top of the last one.
        let mut checked = 0;
        for root in &roots {
            let levels = if root.subtree_nodes < 400 { 8 } else { 1 };
            checked += check_subtree(&reader, root, levels);
        }
        assert!(checked > roots.len(), "{what}: only roots checked");
        // A node found by its event number is the node the tree lists.
        let last = roots.last().unwrap();
        assert_eq!(
            reader.tree_node_at(last.event).unwrap().as_ref(),
            Some(last)
        );
    }
}

fn copy_cut(from: &Path, to: &Path, len: usize) {
    let bytes = std::fs::read(from).unwrap();
    std::fs::write(to, &bytes[..len]).unwrap();
}

#[test]
fn a_trace_cut_off_opens_as_a_prefix_marked_incomplete_or_names_the_file() {
    let dir = Scratch::new();
    let puzzle = board("standard-random.ron");
    let whole = dir.path("whole.trace");
    let (_, live, _) = record_live(SolverId::Iddfs, &puzzle, &options(SolverId::Iddfs), &whole);
    let reader = TraceReader::open(&whole).unwrap();
    assert!(
        reader.blocks().len() >= 2,
        "{} blocks: too few to cut",
        reader.blocks().len()
    );
    let len = std::fs::metadata(&whole).unwrap().len() as usize;
    let second_block = reader.blocks()[1].offset as usize;
    let bytes = std::fs::read(&whole).unwrap();
    let footer_at = u64::from_le_bytes(bytes[len - 16..len - 8].try_into().unwrap()) as usize;
    let mut cuts = vec![
        0,
        5,
        13,
        30,
        second_block - 1,
        second_block,
        second_block + 7,
        len / 2,
        len - 17,
        len - 1,
    ];
    cuts.retain(|&cut| cut < len);
    let cut_path = dir.path("cut.trace");
    let mut prefixes = 0;
    for cut in cuts {
        copy_cut(&whole, &cut_path, cut);
        match TraceReader::open(&cut_path) {
            Ok(mut reader) => {
                assert!(!reader.is_finished(), "cut at {cut}");
                let summary = reader.summary().unwrap();
                assert!(!summary.complete, "cut at {cut}");
                assert!(
                    summary.end.contains("cut off"),
                    "cut at {cut}: {}",
                    summary.end
                );
                let events = replayed(&reader);
                // A cut inside the footer leaves every block whole.
                assert!(events.len() <= live.events.len(), "cut at {cut}");
                assert_same_events(
                    &format!("cut at {cut}"),
                    &puzzle,
                    &live.events[..events.len()],
                    &events,
                );
                assert_eq!(summary.events, events.len() as u64);
                if cut > second_block {
                    assert!(!events.is_empty(), "cut at {cut}");
                }
                // A cut inside a block is named; one inside the footer leaves whole blocks.
                if cut > second_block && cut < footer_at {
                    let damage = reader.damage().unwrap_or_default();
                    assert!(
                        damage.contains("the file ends inside"),
                        "cut at {cut}: {damage}"
                    );
                }
                prefixes += 1;
            }
            Err(error) => {
                // Only a cut inside the header leaves nothing to read.
                assert!(cut < 14 + 400, "cut at {cut}: {error}");
                let message = error.to_string();
                assert!(
                    message.contains(&cut_path.display().to_string()),
                    "{message}"
                );
            }
        }
    }
    assert!(prefixes >= 5);
}

#[test]
fn a_cancelled_recording_is_a_readable_trace_marked_incomplete() {
    let dir = Scratch::new();
    let puzzle = board("hardest-25.ron");
    let path = dir.path("cancelled.trace");
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(Arc::clone(&cancel)),
        ..Limits::default()
    };
    let canceller = {
        let cancel = Arc::clone(&cancel);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            cancel.store(true, Ordering::Relaxed);
        })
    };
    let choice = solver::SolverChoice::BuiltIn(SolverId::Iddfs);
    let (report, summary) = trace::record(
        &choice,
        &puzzle,
        &SolverOptions::default(),
        &limits,
        &path,
        NoProbe,
    )
    .unwrap();
    canceller.join().unwrap();
    assert_eq!(report.outcome, solver::Outcome::Cancelled);
    assert!(!summary.complete);
    assert_eq!(summary.end, "cancelled");
    let mut reader = TraceReader::open(&path).unwrap();
    assert!(reader.is_finished());
    assert!(!reader.summary().unwrap().complete);
    assert_eq!(reader.events(), summary.events);
    let mut replay = reader.replay(0).unwrap();
    let mut count = 0;
    while replay.next_event().unwrap().is_some() {
        count += 1;
    }
    assert_eq!(count, summary.events);
    assert!(count > 1000, "{count} events in 0.3 s");
}

/// The bytes of a trace of this version as an earlier version wrote them: with no checksum
/// after the header's JSON (version 4 added it), so every offset the footer holds, and its
/// own, 4 bytes earlier.
fn as_version(bytes: &[u8], version: u16) -> Vec<u8> {
    let u64_at =
        |bytes: &[u8], at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let json_end = 14 + u32::from_le_bytes(bytes[10..14].try_into().unwrap()) as usize;
    let mut out = bytes[..json_end].to_vec();
    out[8..10].copy_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&bytes[json_end + 4..]);
    let len = out.len();
    let footer_at = u64_at(&out, len - 16) as usize - 4;
    out[len - 16..len - 8].copy_from_slice(&(footer_at as u64).to_le_bytes());
    let summary_len =
        u32::from_le_bytes(out[footer_at + 4..footer_at + 8].try_into().unwrap()) as usize;
    let mut at = footer_at + 8 + summary_len;
    let blocks = u64_at(&out, at);
    at += 8;
    for _ in 0..blocks {
        let offset = u64_at(&out, at) - 4;
        out[at..at + 8].copy_from_slice(&offset.to_le_bytes());
        at += 8;
    }
    let crc = crc32fast::hash(&out[footer_at..at]);
    out[at..at + 4].copy_from_slice(&crc.to_le_bytes());
    out
}

// A trace of the first format version (which versions 2 to 4 only added byte codes and the
// header's checksum to) still opens, and reads as the same events; so do versions 2 and 3.
#[test]
fn a_trace_of_the_first_format_version_still_reads() {
    let dir = Scratch::new();
    let path = dir.path("iddfs.trace");
    record_live(SolverId::Iddfs, &small(), &SolverOptions::default(), &path);
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(trace::VERSION, 4);
    let first = dir.path("first.trace");
    std::fs::write(&first, as_version(&bytes, 1)).unwrap();
    let third = dir.path("third.trace");
    std::fs::write(&third, as_version(&bytes, 3)).unwrap();
    for older in [&first, &third] {
        let mut reader = TraceReader::open(older).unwrap();
        assert!(reader.is_finished(), "its footer still reads");
        assert_eq!(reader.check().unwrap(), trace::Health::Whole);
    }
    let all = |path: &Path| {
        let reader = TraceReader::open(path).unwrap();
        let mut replay = reader.replay(0).unwrap();
        let mut events = Vec::new();
        while let Some(event) = replay.next_event().unwrap() {
            events.push(format!("{event:?}"));
        }
        events
    };
    let events = all(&path);
    assert!(events.len() > 100, "{} events", events.len());
    assert_eq!(all(&first), events);
    assert_eq!(all(&third), events);
}

#[test]
fn a_trace_from_a_newer_program_and_a_foreign_file_are_refused_naming_the_file() {
    let dir = Scratch::new();
    let path = dir.path("bfs.trace");
    record_live(SolverId::Bfs, &small(), &SolverOptions::default(), &path);
    let mut bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..8], trace::MAGIC);
    let newer = dir.path("newer.trace");
    bytes[8..10].copy_from_slice(&(trace::VERSION + 1).to_le_bytes());
    std::fs::write(&newer, &bytes).unwrap();
    let error = TraceReader::open(&newer).err().unwrap();
    assert!(
        matches!(error, TraceError::NewerVersion { version, .. } if version == trace::VERSION + 1)
    );
    let message = error.to_string();
    assert!(message.contains(&newer.display().to_string()), "{message}");
    assert!(
        message.contains(&format!("version {}", trace::VERSION + 1)),
        "{message}"
    );

    let foreign = ricochet_lab::testing::board_path("small-6x6.ron");
    let error = TraceReader::open(Path::new(&foreign)).err().unwrap();
    assert!(matches!(error, TraceError::NotATrace(_)), "{error}");
    assert!(error.to_string().contains(&foreign), "{error}");

    let missing = dir.path("missing.trace");
    let error = TraceReader::open(&missing).err().unwrap();
    assert!(error.to_string().contains(&missing.display().to_string()));

    let error = TraceReader::open(dir.0.path()).err().unwrap();
    assert!(
        error
            .to_string()
            .contains(&dir.0.path().display().to_string())
    );
}
