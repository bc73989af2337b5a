//! Frames while the solver works: a test that no frame waits for a long solve, counted in
//! frames and solver rows rather than timed; and two measurements kept out of the suite's run
//! (`#[ignore]`), since their figures depend on the machine and are printed, never asserted:
//! the CPU time of one frame of the main views (idle, solving, debugging with overlays), as
//! the median and the 99th percentile over a few hundred frames, and what the live probe costs
//! a solve (`cargo nextest run --release --test app frame_time --run-ignored only
//! --no-capture`). A frame here is egui's whole pass: the app's logic and layout and the
//! tessellation of its shapes, without a GPU.

use crate::common::{
    HARD_GAME, choose_solver, harness_on, start_debugging, start_long_solve, step_to_event,
};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::model::samples;
use std::time::{Duration, Instant};

/// Frames measured per view.
const FRAMES: usize = 300;

/// Prints the median and the 99th percentile of `FRAMES` frames.
fn measure(harness: &mut Harness<'_, RicochetApp>, view: &str) {
    let mut times: Vec<Duration> = (0..FRAMES)
        .map(|frame| {
            // A moving pointer over the board, so hover work is part of every frame.
            let x = 500.0 + (frame % 40) as f32 * 5.0;
            harness.hover_at(egui::pos2(x, 400.0));
            let start = Instant::now();
            harness.step();
            start.elapsed()
        })
        .collect();
    times.sort();
    let median = times[FRAMES / 2];
    let p99 = times[FRAMES * 99 / 100];
    println!("frame time, {view}: median {median:?}, 99th percentile {p99:?}");
}

trait HoverAt {
    fn hover_at(&mut self, pos: egui::Pos2);
}

impl HoverAt for Harness<'_, RicochetApp> {
    fn hover_at(&mut self, pos: egui::Pos2) {
        self.event(egui::Event::PointerMoved(pos));
    }
}

// The UI never waits for the solver: frames go on while the solve runs on its worker. Were a
// frame to run the search, or to wait for its end, the run would be over once the frames are;
// the hard game takes IDDFS many seconds beyond its first rows, and the frames a fraction of
// a second.
#[test]
fn frames_go_on_while_a_long_solve_runs() {
    let mut harness = harness_on(&samples::fogleman_22(), [1360.0, 900.0], |s| {
        s.native_dialogs = false;
    });
    start_long_solve(&mut harness, 1);
    const STEPPED: usize = 30;
    for frame in 0..STEPPED {
        harness.step();
        let summary = harness.state().run_summary().expect("the solve's session");
        assert!(
            summary.running,
            "the solve of {HARD_GAME} ended during frame {frame} of {STEPPED}: {:?}",
            summary.outcome
        );
    }
    harness.get_by_label("Cancel").click();
    harness.run_steps(5);
}

#[test]
#[ignore = "a measurement: run with --run-ignored only --no-capture"]
fn frame_times_of_the_main_views_are_measured() {
    let mut harness = harness_on(&samples::fogleman_22(), [1360.0, 900.0], |s| {
        s.native_dialogs = false;
    });
    measure(&mut harness, "idle");

    // A long solve: the deck's 22-move puzzle with IDDFS runs for many frames.
    choose_solver(&mut harness, "iddfs");
    harness.get_by_label("Solve").click();
    harness.step();
    measure(&mut harness, "solving");
    harness.get_by_label("Cancel").click();
    harness.run_steps(5);

    // A paused debugged run with the heat map, stateless states and graph edges on.
    let mut harness = harness_on(&samples::fogleman_22(), [1360.0, 900.0], |s| {
        s.native_dialogs = false;
        s.overlays.search_heat = true;
        s.overlays.stateless = true;
        s.overlays.graph_edges = true;
        s.overlays.graph_all_cells = true;
        s.overlays.min_moves = true;
    });
    start_debugging(&mut harness, "7650+42+E2302B12+C9");
    step_to_event(&mut harness, 20);
    measure(&mut harness, "debugging with overlays");
}

/// How much the app's live probe (counters published to atomics, rows sent to the interface,
/// the cancel flag polled) slows a solve: the same IDDFS runs with no probe and through the
/// app's worker, alternated so that both meet the same machine load. Printed, not asserted.
#[test]
#[ignore = "a measurement: run with --run-ignored only --no-capture"]
fn the_live_probes_cost_is_measured() {
    use ricochet_lab::model::tiles::random_game;
    use ricochet_lab::solver::{self, Limits, NoProbe, SolverOptions};
    use ricochet_lab::worker::{RunEnd, SolveJob};
    use std::sync::Arc;

    // The six longest solves of 60 random games, so that the runs last long enough (about a
    // second in all on a 2-core machine) for a few per cent to show above the noise.
    let mut timed: Vec<_> = (1..=60)
        .map(|seed| {
            let puzzle = random_game(seed, 4).unwrap().0;
            let report = solver::run(
                "iddfs",
                &puzzle,
                &SolverOptions::default(),
                &Limits::default(),
                &mut NoProbe,
            )
            .unwrap();
            (report.elapsed, puzzle)
        })
        .collect();
    timed.sort_by_key(|(elapsed, _)| std::cmp::Reverse(*elapsed));
    let puzzles: Vec<_> = timed.into_iter().take(6).map(|(_, p)| p).collect();
    let (mut bare, mut live) = (Duration::ZERO, Duration::ZERO);
    for round in 0..3 {
        for puzzle in &puzzles {
            let options = SolverOptions::default();
            let report =
                solver::run("iddfs", puzzle, &options, &Limits::default(), &mut NoProbe).unwrap();
            bare += report.elapsed;
            let mut run = SolveJob::new(ricochet_lab::solver::SolverId::Iddfs, puzzle.clone())
                .spawn(Arc::new(|_| {}))
                .unwrap();
            while !run.is_finished() {
                run.drain();
                std::thread::sleep(Duration::from_millis(1));
            }
            match run.end() {
                Some(RunEnd::Finished(report)) => live += report.elapsed,
                other => panic!("round {round}: the live run ended as {other:?}"),
            }
        }
    }
    let overhead = (live.as_secs_f64() / bare.as_secs_f64() - 1.0) * 100.0;
    println!(
        "IDDFS on the 6 longest of 60 games x 3 rounds: no probe {bare:?}, live probe \
         {live:?}, {overhead:+.1}%"
    );
}

/// The CPU time of each frame while the editor is used with the live optimum on and off, on
/// the deck's 22-move puzzle (its solve spans many frames): a drag across the board with the
/// button held, then edits undone and redone a frame apart, each of which starts a new live
/// solve and drops the one before. Printed, not asserted.
#[test]
#[ignore = "a measurement: run with --run-ignored only --no-capture"]
fn frame_times_while_editing_with_the_live_optimum_are_measured() {
    for live in [true, false] {
        let mut harness = harness_on(&samples::fogleman_22(), [1360.0, 900.0], |s| {
            s.native_dialogs = false;
        });
        if !live {
            crate::common::click_menu_item(&mut harness, "View", "Live optimum in the editor");
            harness.key_press(egui::Key::Escape);
        }
        harness.step();
        let setting = if live { "on" } else { "off" };
        // A drag: the button held over the board, the pointer moving a frame at a time.
        let start = egui::pos2(560.0, 300.0);
        crate::common::press_at(&mut harness, start);
        let mut drag: Vec<Duration> = (0..FRAMES)
            .map(|frame| {
                let x = 560.0 + (frame % 60) as f32 * 4.0;
                harness.event(egui::Event::PointerMoved(egui::pos2(x, 300.0)));
                let begun = Instant::now();
                harness.step();
                begun.elapsed()
            })
            .collect();
        let solving = harness.state().live_optimum_solving();
        crate::common::release_at(&mut harness, start);
        harness.step();
        // Edits: one, then undone and redone, each frame a new board to solve.
        harness.get_by_label("Clear walls").click();
        harness.step();
        let mut edits: Vec<Duration> = (0..FRAMES)
            .map(|frame| {
                let redo = frame % 2 == 1;
                let modifiers = if redo {
                    egui::Modifiers::COMMAND | egui::Modifiers::SHIFT
                } else {
                    egui::Modifiers::COMMAND
                };
                harness.key_press_modifiers(modifiers, egui::Key::Z);
                let begun = Instant::now();
                harness.step();
                begun.elapsed()
            })
            .collect();
        for (what, times) in [("dragging", &mut drag), ("an edit every frame", &mut edits)] {
            times.sort();
            println!(
                "frame time, {what}, live optimum {setting}: median {:?}, 99th percentile {:?}, \
                 worst {:?}",
                times[FRAMES / 2],
                times[FRAMES * 99 / 100],
                times[FRAMES - 1]
            );
        }
        if live {
            println!(
                "the live solve was still running after the drag's {FRAMES} frames: {solving}"
            );
        }
    }
}
