//! A trace opened in the app: its puzzle on the board, its events in the debugger with no
//! solver running, its search in the Search tree tab, whose nodes the board and the timeline
//! follow.

use crate::common::app_harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::command::{Command, Pending};
use ricochet_lab::model::formats;
use ricochet_lab::solver::trace::{self, TraceReader};
use ricochet_lab::solver::{Event, Limits, NoProbe, SolverChoice, SolverId, SolverOptions};

#[test]
fn an_opened_trace_is_stepped_and_seen_as_a_tree_that_the_board_follows() {
    let puzzle = formats::load(&format!(
        "{}/boards/small-6x6.ron",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.rltrace");
    let (report, summary) = trace::record(
        &SolverChoice::BuiltIn(SolverId::Iddfs),
        &puzzle,
        &SolverOptions::default(),
        &Limits::default(),
        &path,
        NoProbe,
    )
    .unwrap();
    assert!(summary.complete);
    let events = summary.events;

    let mut harness = app_harness();
    harness
        .state_mut()
        .apply_command(Command::Guarded(Pending::Open(path.clone())));
    harness.run_steps(2);
    // The board is the trace's puzzle, and the debugger holds every event of it.
    let debugger = harness
        .state()
        .debugger()
        .expect("the trace opens in the debugger");
    assert!(debugger.is_from_file());
    // The debugger's tab shows, with its step buttons.
    assert!(harness.query_by_label("Step back").is_some());
    assert_eq!(debugger.puzzle(), &puzzle);
    assert_eq!(debugger.frame().recorded, events);
    assert!(debugger.frame().view.solution.is_some());
    // The heat map of a file is rebuilt from its events: every node of the run counts once.
    let nodes: u64 = summary.rows.iter().map(|r| r.nodes).sum();
    let heat: u64 = debugger
        .shown_picture()
        .heat
        .iter()
        .map(|&n| u64::from(n))
        .sum();
    assert_eq!(heat, nodes, "the heat map counts every node of the trace");

    // The tree's roots are the iterations, their subtrees as many nodes as the rows say.
    harness.get_by_label("Search tree").click();
    harness.run();
    harness.get_by_label("Read the tree").click();
    harness.run_steps(2);
    let rows: Vec<u64> = match &report.outcome {
        ricochet_lab::solver::Outcome::Solved { .. } => {
            summary.rows.iter().map(|r| r.nodes).collect()
        }
        other => panic!("{other:?}"),
    };
    let reader = TraceReader::open(&path).unwrap();
    let roots = reader.tree_roots().unwrap();
    assert_eq!(
        roots.iter().map(|r| r.subtree_nodes).collect::<Vec<_>>(),
        rows
    );
    let last = roots.last().unwrap().clone();
    let label = format!(
        "start (depth {})  {}",
        last.iteration.unwrap(),
        last.subtree_nodes
    );
    assert!(
        harness.query_by_label(&label).is_some(),
        "{label} is listed"
    );

    // Opening the last root and selecting its first child shows that node on the board.
    let child = reader.tree_children(&last).unwrap()[0].clone();
    harness.state_mut().apply_command(Command::Debug(
        ricochet_lab::app::command::DebugCommand::Tree(
            ricochet_lab::app::command::TreeCommand::Toggle(last.event),
        ),
    ));
    harness.run();
    let child_label = format!("{}  {}", child.path.last().unwrap(), child.subtree_nodes);
    harness.get_by_label(&child_label).click();
    harness.run_steps(2);
    let shown = harness.state().debugger().unwrap().shown_view().clone();
    assert_eq!(
        shown.events,
        child.event + 1,
        "the timeline follows the tree"
    );
    assert_eq!(shown.path, child.path);
    assert_eq!(shown.cells, Some(child.cells));
    // The keyboard moves through the tree: up to the child's parent, the iteration's start.
    harness.key_press(egui::Key::ArrowUp);
    harness.run_steps(2);
    assert_eq!(
        harness.state().debugger().unwrap().shown_view().events,
        last.event + 1
    );

    // The recording is searched for events of a kind: the first table hit from the start.
    harness.state_mut().apply_command(Command::Debug(
        ricochet_lab::app::command::DebugCommand::GoTo(0),
    ));
    harness.state_mut().apply_command(Command::Debug(
        ricochet_lab::app::command::DebugCommand::FindKind(trace::EventKind::TableHit, true),
    ));
    let index = harness.state().debugger().unwrap().shown_view().events - 1;
    let event = reader.event(index).unwrap().event;
    assert!(
        matches!(
            event,
            Event::Pruned {
                reason: ricochet_lab::solver::PruneReason::TableHit { .. },
                ..
            }
        ),
        "{event:?}"
    );
}
