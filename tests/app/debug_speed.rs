//! What debugging costs a search in the window: IDDFS on `boards/hardest-25.ron` (or the
//! board file `DEBUG_SPEED_PUZZLE` names) solved plainly and debugged to its solution (Debug
//! mode, not started paused, the heat map and the minimum-move map on), in the app at
//! 1024x700 with frames drawn when the app asks for them, as eframe draws them: at the delay
//! each repaint request gives, at most 60 a second. The pairs alternate, so that both meet the
//! same machine load. Printed, not asserted: a measurement kept out of the suite's run
//! (`cargo nextest run --release --test app debug_speed --run-ignored only --no-capture`). A
//! frame here is egui's whole pass without a GPU: the app's logic, layout and tessellation,
//! not the rasterising a window adds.
use crate::common::{finished, harness_on, manifest};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::RicochetApp;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Rounds of one plain and one debugged run each.
const ROUNDS: usize = 2;

/// The puzzle solved: hardest-25 unless `DEBUG_SPEED_PUZZLE` names another board file (a
/// shorter one for a quick look on a busy machine).
fn puzzle_file() -> String {
    std::env::var("DEBUG_SPEED_PUZZLE").unwrap_or_else(|_| "boards/hardest-25.ron".to_string())
}

/// The shortest time between two frames, as a 60 Hz display allows.
const FRAME_INTERVAL: Duration = Duration::from_micros(16_667);

/// What one run took through the window.
struct Timing {
    /// From the click on Solve to the run's end (plain) or its stop at the solution.
    wall: Duration,
    /// The run's own clock, as the Run tab shows it.
    running: Duration,
    frames: usize,
    /// The time spent in frames.
    frame_time: Duration,
    /// What asked for the frames, the most frequent first: where in the code, and how often.
    causes: Vec<(String, usize)>,
}

/// The app on hardest-25 with the overlays on, its repaint requests noted in `next_frame`.
fn app(next_frame: &Arc<Mutex<Option<Instant>>>) -> Harness<'static, RicochetApp> {
    let text = std::fs::read_to_string(manifest(&puzzle_file())).unwrap();
    let puzzle = ricochet_lab::model::formats::native::parse(&text).unwrap();
    let harness = harness_on(&puzzle, [1024.0, 700.0], |s| {
        s.native_dialogs = false;
        s.debug.start_paused = false;
        s.overlays.search_heat = true;
        s.overlays.min_moves = true;
    });
    let next = Arc::clone(next_frame);
    // eframe draws the next frame at the earliest time a request asks for.
    harness.ctx.set_request_repaint_callback(move |info| {
        let at = Instant::now() + info.delay;
        let mut next = next.lock().unwrap();
        *next = Some(next.map_or(at, |next| next.min(at)));
    });
    harness
}

/// Draws frames as the app asks for them until `done`.
fn run_paced(
    harness: &mut Harness<'static, RicochetApp>,
    next_frame: &Arc<Mutex<Option<Instant>>>,
    done: impl Fn(&RicochetApp) -> bool,
) -> (usize, Duration, Vec<(String, usize)>) {
    let (mut frames, mut frame_time) = (0, Duration::ZERO);
    let mut causes = std::collections::BTreeMap::<String, usize>::new();
    let mut last = Instant::now();
    while !done(harness.state()) {
        let due = {
            let mut next = next_frame.lock().unwrap();
            let now = Instant::now();
            match *next {
                Some(at) if at <= now && now >= last + FRAME_INTERVAL => {
                    *next = None;
                    true
                }
                _ => false,
            }
        };
        if !due {
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        last = Instant::now();
        harness.step();
        frames += 1;
        frame_time += last.elapsed();
        for cause in harness.ctx.repaint_causes() {
            *causes
                .entry(format!("{}:{}", cause.file, cause.line))
                .or_default() += 1;
        }
    }
    let mut causes: Vec<(String, usize)> = causes.into_iter().collect();
    causes.sort_by_key(|(cause, count)| (std::cmp::Reverse(*count), cause.clone()));
    causes.truncate(4);
    (frames, frame_time, causes)
}

fn solve(debugged: bool) -> Timing {
    let next_frame = Arc::new(Mutex::new(None));
    let mut harness = app(&next_frame);
    if debugged {
        harness.get_by_label("Debug mode").click();
        harness.run();
    }
    harness.get_by_label("Solve").click();
    *next_frame.lock().unwrap() = Some(Instant::now());
    let start = Instant::now();
    let (frames, frame_time, causes) = if debugged {
        run_paced(&mut harness, &next_frame, |app| {
            app.debugger()
                .is_some_and(|d| d.is_paused() && d.frame().view.solution.is_some())
        })
    } else {
        run_paced(&mut harness, &next_frame, finished)
    };
    let wall = start.elapsed();
    if debugged {
        // Let go at the solution: the run ends, and its clock leaves the stop out.
        harness.get_by_label("Continue").click();
        crate::common::step_until(&mut harness, Duration::from_secs(60), finished);
    }
    let running = harness
        .state()
        .run_summary()
        .unwrap()
        .total
        .unwrap_or_default();
    Timing {
        wall,
        running,
        frames,
        frame_time,
        causes,
    }
}

#[test]
#[ignore = "a measurement: run with --run-ignored only --no-capture"]
fn a_debugged_run_to_its_solution_against_a_plain_solve_is_measured() {
    println!("IDDFS on {}", puzzle_file());
    let mut ratios = Vec::new();
    for round in 1..=ROUNDS {
        let plain = solve(false);
        let debugged = solve(true);
        for (what, timing) in [("plain", &plain), ("debugged", &debugged)] {
            println!(
                "round {round}, {what}: {:.2} s from Solve ({:.2} s on the run's clock), {} \
                 frames taking {:.2} s",
                timing.wall.as_secs_f64(),
                timing.running.as_secs_f64(),
                timing.frames,
                timing.frame_time.as_secs_f64()
            );
            println!("  frames asked for by {:?}", timing.causes);
        }
        let ratio = debugged.wall.as_secs_f64() / plain.wall.as_secs_f64();
        println!("round {round}: debugged / plain {ratio:.2}");
        ratios.push(ratio);
    }
    ratios.sort_by(f64::total_cmp);
    println!("debugged / plain over {ROUNDS} rounds: {ratios:.2?}");
}
