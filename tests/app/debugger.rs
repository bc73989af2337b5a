//! The debugger driven by its accessible labels: a small IDDFS search started paused is
//! stepped forward event by event, stepped back through the recording (each step back shows
//! exactly what was shown at that event), forward again, to the end of a depth, to its
//! solution, and cancelled while paused. A Graph v2 search stepped with the keys restores its
//! slide graph and heat map when stepped back. The graph overlay's check compares the editor's
//! updated slide graph with a fresh build after a robot moves.

use crate::common::{
    app_harness, choose_solver, finished, import, paused_at, start_debugging, step_until,
};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::model::formats::game_id;
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::model::{MoveTables, Puzzle};
use ricochet_lab::solver::graph_solver::GraphPicture;
use ricochet_lab::solver::{Outcome, SolverChoice, SolverId};
use ricochet_lab::worker::debug::{DebugView, SearchPicture};
use std::time::Duration;

fn shown(harness: &Harness<'_, RicochetApp>) -> DebugView {
    harness
        .state()
        .debugger()
        .expect("a debugged run")
        .shown_view()
        .clone()
}

fn shown_picture(harness: &Harness<'_, RicochetApp>) -> SearchPicture {
    harness
        .state()
        .debugger()
        .expect("a debugged run")
        .shown_picture()
        .clone()
}

fn toggle_view(harness: &mut Harness<'_, RicochetApp>, label: &str) {
    harness.get_by_label("View").click();
    harness.run();
    harness.get_by_label(label).click();
    harness.run_steps(2);
}

/// The robots' cells after sliding along `path` from the puzzle's start.
fn cells_after(puzzle: &Puzzle, path: &[ricochet_lab::model::Move]) -> Vec<u16> {
    let tables = MoveTables::new(puzzle.board());
    let mut cells = puzzle.robot_cells();
    for mv in path {
        let robot = puzzle.robot_index(mv.robot).unwrap();
        cells[robot] = tables.slide(&cells, robot, mv.dir);
    }
    cells
}

#[test]
fn stepping_forward_and_back_shows_each_recorded_node_and_its_path() {
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    start_debugging(&mut harness, &game_id::write(&puzzle).unwrap());

    // Forward one event at a time, keeping what the panel and board show.
    let mut seen = vec![shown(&harness)];
    for events in 2..=12 {
        harness.get_by_label("Step").click();
        step_until(&mut harness, Duration::from_secs(20), |app| {
            paused_at(app, events)
        });
        let view = shown(&harness);
        assert_eq!(view.events, events);
        // The board shows the node's robots, and its path leads there from the root.
        if let Some(cells) = view.cells {
            assert_eq!(cells_after(&puzzle, &view.path), cells.as_slice());
            let (robots, trails) = harness.state().debugger().unwrap().board_picture().unwrap();
            assert_eq!(robots.len(), cells.as_slice().len());
            assert_eq!(trails.len(), view.path.len());
        }
        seen.push(view);
    }
    // Back through the recording: each step shows exactly what was shown then.
    for back in 1..=6 {
        harness.get_by_label("Step back").click();
        harness.run_steps(2);
        let expected = &seen[seen.len() - 1 - back];
        assert_eq!(&shown(&harness), expected, "{back} steps back");
        assert!(harness.state().debugger().unwrap().is_scrubbed_back());
    }
    // Forward again replays the recording without moving the solver on.
    harness.get_by_label("Step").click();
    harness.run_steps(2);
    assert_eq!(&shown(&harness), &seen[seen.len() - 6]);
    assert_eq!(
        harness.state().debugger().unwrap().frame().view.events,
        12,
        "the solver waits while the recording is replayed"
    );
    harness.get_by_label("Latest").click();
    harness.run_steps(2);
    assert_eq!(shown(&harness).events, 12);

    // To the end of the depth, then to the solution.
    harness.get_by_label("Step depth").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        app.debugger()
            .is_some_and(|d| d.is_paused() && d.frame().view.last_depth.is_some())
    });
    harness.get_by_label("Run to solution").click();
    step_until(&mut harness, Duration::from_secs(60), |app| {
        app.debugger()
            .is_some_and(|d| d.is_paused() && d.frame().view.solution.is_some())
    });
    let solution = shown(&harness).solution.unwrap();
    assert_eq!(solution.len(), 8);
    assert!(
        harness
            .query_by_label_contains("a solution was found")
            .is_some()
    );

    // Let go: the run ends with the solution shown.
    harness.get_by_label("Continue").click();
    step_until(&mut harness, Duration::from_secs(20), finished);
    let summary = harness.state().run_summary().unwrap();
    assert_eq!(summary.outcome, Some(Outcome::Solved { moves: solution }));

    // A new debugged run waits paused on its first event; Cancel still ends it.
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        paused_at(app, 1)
    });
    harness.get_by_label("Cancel").click();
    step_until(&mut harness, Duration::from_secs(20), finished);
    let summary = harness.state().run_summary().unwrap();
    assert_eq!(summary.outcome, Some(Outcome::Cancelled));
}

#[test]
fn moving_a_robot_with_the_graph_overlay_on_lists_changed_edges_and_checks_clean() {
    let mut harness = app_harness();
    harness.get_by_label("View").click();
    harness.run();
    harness.get_by_label("Slide-graph edges").click();
    harness.run_steps(3);
    // The changed edges and the check are in the dock's Overlays tab.
    harness.key_press(egui::Key::Escape);
    harness.get_by_label("Overlays").click();
    harness.run_steps(3);
    // The graph is brought up to the board by a worker.
    step_until(&mut harness, Duration::from_secs(10), |app| {
        app.graph_tracker().is_some()
    });
    assert!(
        harness
            .state()
            .graph_tracker()
            .expect("the graph follows the board")
            .changes()
            .is_empty()
    );
    // New random robots: the old ones are removed from the graph and the new ones placed.
    let before = harness.state().draft().robots.clone();
    // The editor's last rows may lie below the panel's fold: bring the button into view.
    harness.get_by_label("Random robots").scroll_to_me();
    harness.run();
    harness.get_by_label("Random robots").click();
    harness.run_steps(3);
    // The graph is brought up to the board by a worker.
    step_until(&mut harness, Duration::from_secs(10), |app| {
        app.graph_tracker().is_some()
    });
    let changes = harness
        .state()
        .graph_tracker()
        .expect("the graph follows the board")
        .changes()
        .to_vec();
    assert_ne!(harness.state().draft().robots, before);
    assert!(!changes.is_empty(), "moving robots changes edges");
    assert!(
        harness
            .query_all_by_label_contains("(case 2")
            .next()
            .is_some()
    );
    harness.get_by_label("Check graph").click();
    harness.run_steps(2);
    assert!(matches!(
        harness
            .state()
            .graph_tracker()
            .expect("the graph follows the board")
            .check,
        Some(Ok(_))
    ));
    assert!(
        harness
            .query_all_by_label_contains("equals a fresh build")
            .next()
            .is_some()
    );
}

#[test]
fn the_keys_step_a_graph_search_and_stepping_back_restores_its_overlays() {
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    import(&mut harness, &game_id::write(&puzzle).unwrap());
    choose_solver(&mut harness, "graph-v2");
    toggle_view(&mut harness, "Slide-graph edges");
    // The edges come from a worker: let it answer before the next clicks.
    step_until(&mut harness, Duration::from_secs(10), |app| {
        app.graph_tracker().is_some()
    });
    // The dock's Overlays tab has the same switches as the View menu.
    harness.get_by_label("Overlays").click();
    harness.run();
    harness.get_by_label("Search heat map").click();
    harness.run();
    let overlays = harness.state().persisted_state().overlays;
    assert!(overlays.graph_edges && overlays.search_heat);
    harness.get_by_label("Debug mode").click();
    harness.run();
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        paused_at(app, 1)
    });

    assert_eq!(
        harness.state().run_summary().unwrap().solver,
        SolverChoice::BuiltIn(SolverId::GraphV2)
    );

    // F11 steps one event: the graph is built, robots are placed (edges change) and nodes
    // are examined (the heat map grows).
    let mut pictures = vec![shown_picture(&harness)];
    for events in 2..=60 {
        harness.key_press(egui::Key::F11);
        step_until(&mut harness, Duration::from_secs(20), |app| {
            paused_at(app, events)
        });
        pictures.push(shown_picture(&harness));
    }
    let last = pictures.last().unwrap();
    let graph = |p: &SearchPicture| p.part::<GraphPicture>().cloned();
    assert!(graph(last).is_some(), "the slide graph was built");
    assert!(last.heat.iter().sum::<u32>() > 0, "nodes were examined");
    assert!(
        pictures
            .iter()
            .any(|p| graph(p).is_some_and(|g| !g.recent_changes.is_empty())),
        "placing robots changed edges"
    );
    // Every step counts an event in the picture; the overlays draw the heat map and graph.
    let distinct = pictures
        .windows(2)
        .filter(|w| (&w[0].heat, graph(&w[0])) != (&w[1].heat, graph(&w[1])))
        .count();
    assert!(
        distinct >= 5,
        "the overlays changed on {distinct} steps only"
    );

    // Shift+F11 steps back: each step shows the overlays exactly as they were at that event,
    // while the live picture stays at the latest event.
    for back in 1..=40 {
        harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F11);
        harness.run_steps(2);
        let expected = &pictures[pictures.len() - 1 - back];
        assert_eq!(&shown_picture(&harness), expected, "{back} steps back");
        assert_eq!(shown(&harness).events, 60 - back as u64);
    }
    assert_eq!(&harness.state().debugger().unwrap().frame().picture, last);
    // The timeline's Latest shows the live picture again.
    harness.get_by_label("Latest").click();
    harness.run_steps(2);
    assert_eq!(&shown_picture(&harness), last);

    // F5 continues: the run stops at its solution (a breakpoint by default), then ends.
    harness.key_press(egui::Key::F5);
    step_until(&mut harness, Duration::from_secs(60), |app| {
        app.debugger()
            .is_some_and(|d| d.is_paused() && d.frame().view.solution.is_some())
    });
    harness.key_press(egui::Key::F5);
    step_until(&mut harness, Duration::from_secs(60), finished);
    assert!(matches!(
        harness.state().run_summary().unwrap().outcome,
        Some(Outcome::Solved { .. })
    ));
}

#[test]
fn cancelling_a_debugged_run_takes_its_overlays_off_the_board() {
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    import(&mut harness, &game_id::write(&puzzle).unwrap());
    choose_solver(&mut harness, "graph-v2");
    toggle_view(&mut harness, "Search heat map");
    let without_a_run = harness.state_mut().shown_overlay();
    harness.get_by_label("Debug mode").click();
    harness.run();
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        paused_at(app, 1)
    });
    for events in 2..=40 {
        harness.key_press(egui::Key::F11);
        step_until(&mut harness, Duration::from_secs(20), |app| {
            paused_at(app, events)
        });
    }
    assert_ne!(
        harness.state_mut().shown_overlay(),
        without_a_run,
        "the paused search warms the cells it visited"
    );
    harness.get_by_label("Cancel").click();
    step_until(&mut harness, Duration::from_secs(20), finished);
    assert_eq!(
        harness.state_mut().shown_overlay(),
        without_a_run,
        "the cancelled search's picture left with it"
    );
    // The debugger says the run was cancelled, as the status line does, not that it finished.
    assert!(harness.query_by_label("Cancelled").is_some());
    assert!(harness.query_by_label("Finished").is_none());
    // The panel says why the heat map is empty now, and how to fill it.
    harness.get_by_label("Overlays").click();
    harness.run();
    assert!(
        harness
            .query_all_by_label_contains("Search heat map: there is no debugged run")
            .next()
            .is_some()
    );
}

#[test]
fn the_log_timeline_and_node_number_events_alike_and_the_plot_rewinds() {
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    import(&mut harness, &game_id::write(&puzzle).unwrap());
    choose_solver(&mut harness, "iddfs");
    harness.get_by_label("Debug mode").click();
    harness.run();
    harness.get_by_label("Solve").click();
    step_until(&mut harness, Duration::from_secs(20), |app| {
        paused_at(app, 1)
    });
    for events in 2..=7 {
        harness.key_press(egui::Key::F11);
        step_until(&mut harness, Duration::from_secs(20), |app| {
            paused_at(app, events)
        });
    }
    // The seventh event is event 6, numbered from 0 as in the trace file and every `trace`
    // command: the node's facts, the log's newest line and the timeline agree.
    assert!(
        harness
            .query_by_label_contains("6 of 0–6; node depth")
            .is_some()
    );
    let debugger = harness.state().debugger().unwrap();
    let board = debugger.puzzle().board().clone();
    let newest = debugger.log()[0].clone();
    assert_eq!(newest.index, 6);
    let line = ricochet_lab::app::debugger::panel::log_line(&board, &newest);
    assert!(line.trim_start().starts_with("6  "), "{line}");
    assert!(harness.query_by_label(&line).is_some(), "{line} is listed");

    // Run on to the solution: depths finish, and the plot has their rows.
    harness.key_press(egui::Key::F8);
    step_until(&mut harness, Duration::from_secs(60), |app| {
        app.debugger()
            .is_some_and(|d| d.is_paused() && d.frame().view.solution.is_some())
    });
    let rows = harness.state().run_summary().unwrap().rows.len();
    assert!(rows >= 2);
    assert_eq!(harness.state().plotted_rows(), rows);
    // The newest entries are at the top of the log, and shown.
    let newest = harness.state().debugger().unwrap().log()[0].clone();
    let line = ricochet_lab::app::debugger::panel::log_line(&board, &newest);
    assert!(harness.query_by_label(&line).is_some(), "{line} is listed");
    // Scrubbed back to the first event, before any depth finished, the plot has no row of
    // the later ones: the whole run is recorded.
    harness
        .state_mut()
        .apply_command(ricochet_lab::app::command::Command::Debug(
            ricochet_lab::app::command::DebugCommand::Scrub(0),
        ));
    harness.run_steps(2);
    assert!(harness.state().plotted_rows() < rows, "the plot rewinds");
}

#[test]
fn the_edge_change_list_explains_its_cases_and_its_check_goes_with_the_next_edit() {
    use ricochet_lab::app::overlays::panel::case_meaning;
    let mut harness = app_harness();
    toggle_view(&mut harness, "Slide-graph edges");
    harness.key_press(egui::Key::Escape);
    harness.get_by_label("Overlays").click();
    harness.run_steps(3);
    // The editor's last rows may lie below the panel's fold: bring the button into view.
    harness.get_by_label("Random robots").scroll_to_me();
    harness.run();
    harness.get_by_label("Random robots").click();
    harness.run_steps(3);
    // The graph is brought up to the board by a worker.
    step_until(&mut harness, Duration::from_secs(10), |app| {
        app.graph_tracker().is_some()
    });
    let changes = harness
        .state()
        .graph_tracker()
        .expect("the graph follows the board")
        .changes()
        .to_vec();
    assert!(!changes.is_empty());
    // Every case in the list is explained in words.
    for change in &changes {
        let legend = format!(
            "case {}: {}",
            change.case.label(),
            case_meaning(change.case)
        );
        assert!(
            harness.query_all_by_label(&legend).next().is_some(),
            "{legend} is shown"
        );
    }
    assert!(
        harness
            .query_by_label("place: a robot was put there")
            .is_some()
    );
    harness.get_by_label("Check graph").click();
    harness.run_steps(2);
    assert!(
        harness
            .state()
            .status_message()
            .is_some_and(|m| m.contains("equals a fresh build"))
    );
    // The verdict was about the board before this edit (an undo, which says nothing of its
    // own): the status line lets it go.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_steps(3);
    // The graph is brought up to the board by a worker.
    step_until(&mut harness, Duration::from_secs(10), |app| {
        app.graph_tracker().is_some()
    });
    assert_ne!(
        harness
            .state()
            .graph_tracker()
            .expect("the graph follows the board")
            .changes(),
        changes.as_slice()
    );
    assert!(
        !harness
            .state()
            .status_message()
            .is_some_and(|m| m.contains("equals a fresh build")),
        "{:?}",
        harness.state().status_message()
    );
}

// The paused debugger draws its node's path with numbered moves; the Overlays tab must not
// say only that there is no solution, as if the numbered moves drawn were nobody's.
#[test]
fn the_overlays_tab_names_the_debuggers_path_while_the_board_has_no_solution() {
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    start_debugging(&mut harness, &game_id::write(&puzzle).unwrap());
    for events in 2..=30 {
        harness.key_press(egui::Key::F11);
        step_until(&mut harness, Duration::from_secs(20), |app| {
            paused_at(app, events)
        });
        if !shown(&harness).path.is_empty() {
            break;
        }
    }
    let moves = shown(&harness).path.len();
    assert!(moves > 0, "the debugger shows a node below the root");
    let notes = harness.state().empty_overlay_notes();
    let note = notes
        .iter()
        .find(|note| note.starts_with("Solution path"))
        .expect("the solution path is on and the board has no solution yet");
    let plural = if moves == 1 { "move" } else { "moves" };
    assert!(
        note.contains(&format!(
            "the debugger's: the path to the node it shows ({moves} {plural})"
        )),
        "{note}"
    );
}

// Opening the breakpoints must not push the timeline and the node's figures down the panel.
#[test]
fn opening_the_breakpoints_moves_nothing_and_they_stay_open_while_set() {
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    start_debugging(&mut harness, &game_id::write(&puzzle).unwrap());
    harness.get_by_label("Debugger").click();
    harness.run();
    let timeline = |h: &Harness<'_, RicochetApp>| {
        h.get_by_role_and_label(egui::accesskit::Role::Slider, "Timeline")
            .rect()
    };
    let before = timeline(&harness);
    let set = |h: &Harness<'_, RicochetApp>| {
        let debug = &h.state().app_state().debug;
        [
            debug.break_on_depth,
            debug.break_on_cell,
            debug.break_on_solution,
        ]
        .into_iter()
        .filter(|&on| on)
        .count()
    };
    let set_before = set(&harness);
    harness
        .get_by_label(&format!("Breakpoints ({set_before})…"))
        .click();
    harness.run();
    assert_eq!(timeline(&harness), before, "the timeline stays put");
    harness
        .get_by_role_and_label(egui::accesskit::Role::CheckBox, "At depth")
        .click();
    harness.run();
    assert_eq!(timeline(&harness), before, "the timeline stays put");
    assert!(
        harness.query_by_label("Active robot on cell").is_some(),
        "setting one breakpoint leaves the others in reach"
    );
    assert_ne!(
        set(&harness),
        set_before,
        "the click set or cleared a breakpoint"
    );
    assert!(
        harness
            .query_by_label(&format!("Breakpoints ({})…", set(&harness)))
            .is_some(),
        "the button counts the breakpoints set"
    );
}

/// Problem: scrubbed back while the run went on to its end, the board stayed on the scrubbed
/// search node while the solution's playback said the board showed its own position.
#[test]
fn a_run_that_ends_while_scrubbed_back_hands_the_board_to_its_playback() {
    use ricochet_lab::app::command::Command;
    use ricochet_lab::app::command::DebugCommand;
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    start_debugging(&mut harness, &game_id::write(&puzzle).unwrap());
    let start = harness.state().shown_robots();
    harness.key_press(egui::Key::F8);
    step_until(&mut harness, Duration::from_secs(60), |app| {
        app.debugger()
            .is_some_and(|d| d.is_paused() && d.frame().view.solution.is_some())
    });
    // An event whose node is not the start.
    let events = harness.state().debugger().unwrap().frame().view.events;
    let away = (1..events)
        .rev()
        .find(|&index| {
            harness
                .state_mut()
                .apply_command(Command::Debug(DebugCommand::Scrub(index)));
            harness.run_steps(2);
            harness.state().shown_robots() != start
        })
        .expect("a node away from the start");
    // Let the run go on and scrub back in the same frame: the run ends scrubbed back.
    harness
        .state_mut()
        .apply_command(Command::Debug(DebugCommand::Continue));
    harness
        .state_mut()
        .apply_command(Command::Debug(DebugCommand::Scrub(away)));
    step_until(&mut harness, Duration::from_secs(20), finished);
    harness.run_steps(2);
    assert!(
        harness.state().playback().is_some(),
        "the solution is played back"
    );
    assert_eq!(
        harness.state().shown_robots(),
        start,
        "the board shows the playback's first position, not the scrubbed node"
    );
}

// Problem: scrubbed back to an event near the top of the log, the log asked every frame to
// centre a line it could not centre, and the app repainted without end (a core busy while
// the user only looked). Stepped back and left alone, the window settles.
#[test]
fn a_run_scrubbed_back_settles_instead_of_repainting_forever() {
    let mut harness = app_harness();
    let (puzzle, _) = random_game(2, 4).unwrap();
    start_debugging(&mut harness, &game_id::write(&puzzle).unwrap());
    crate::common::step_to_event(&mut harness, 8);
    for back in 1..=3 {
        harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F11);
        // `run` fails when the frames do not settle.
        harness.run();
        assert_eq!(shown(&harness).events, 8 - back);
    }
}
