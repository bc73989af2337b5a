//! Lessons: Help > Lessons opens a shipped lesson in one click in its prepared state (board,
//! solver, debugger, breakpoints, overlays, its text in the Lesson tab), in the smallest
//! window the app is laid out for; a teacher's own lesson opens as a file does.

use crate::common::harness_from;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use ricochet_lab::app::Opening;
use ricochet_lab::app::RicochetApp;
use ricochet_lab::app::document::draft::Draft;
use ricochet_lab::app::settings::AppState;
use ricochet_lab::lesson::text::{TextBlock, blocks};
use ricochet_lab::lesson::{Lesson, LessonBreakpoint, LessonEntry, LessonOverlay, lessons_in};
use ricochet_lab::solver::SolverPick;
use std::path::Path;

/// The smallest window the app is laid out for.
const SMALL_WINDOW: [f32; 2] = [1024.0, 700.0];

fn shipped() -> Vec<LessonEntry> {
    lessons_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/lessons"))
}

/// The app in the small window, without the system's file dialogs.
fn small_app() -> Harness<'static, RicochetApp> {
    let state = AppState {
        native_dialogs: false,
        ..AppState::default()
    };
    harness_from(state, SMALL_WINDOW)
}

/// The app as the lesson sets it: its board, mode, first solver, debugger settings,
/// breakpoints and overlays, its title in the Lesson tab and its first paragraph shown.
fn assert_prepared(harness: &Harness<'_, RicochetApp>, lesson: &Lesson) {
    let app = harness.state();
    assert_eq!(app.open_lesson_title(), Some(lesson.title()));
    assert_eq!(app.draft(), &Draft::from_puzzle(&lesson.puzzle));
    let state = app.app_state();
    if let Some(first) = lesson.solvers.first() {
        assert_eq!(state.solver.solver, SolverPick::BuiltIn(*first));
    }
    assert_eq!(
        state.solver.use_depth_limit,
        lesson.file.depth_limit.is_some()
    );
    if let Some(limit) = lesson.file.depth_limit {
        assert_eq!(state.solver.depth_limit, limit);
    }
    assert_eq!(state.debug.enabled, lesson.file.debug);
    assert_eq!(state.debug.start_paused, lesson.file.pause_at_start);
    let has = |wanted: fn(&LessonBreakpoint) -> bool| lesson.file.breakpoints.iter().any(wanted);
    assert_eq!(
        state.debug.break_on_depth,
        has(|b| matches!(b, LessonBreakpoint::Depth(_)))
    );
    assert_eq!(
        state.debug.break_on_cell,
        has(|b| matches!(b, LessonBreakpoint::Cell(..)))
    );
    assert_eq!(
        state.debug.break_on_solution,
        has(|b| matches!(b, LessonBreakpoint::Solution))
    );
    assert_eq!(
        state.debug.break_on_prune,
        has(|b| matches!(b, LessonBreakpoint::Prune(_)))
    );
    assert_eq!(
        state.debug.break_on_bound,
        has(|b| matches!(b, LessonBreakpoint::NewDepth))
    );
    let on = |overlay| lesson.overlays.contains(&overlay);
    let overlays = &state.overlays;
    assert_eq!(overlays.min_moves, on(LessonOverlay::MinMoves));
    assert_eq!(overlays.search_heat, on(LessonOverlay::SearchHeat));
    assert_eq!(
        overlays.graph_edges,
        on(LessonOverlay::GraphEdges) || on(LessonOverlay::GraphEdgesAllCells)
    );
    assert_eq!(
        overlays.stateless,
        on(LessonOverlay::Stateless) || on(LessonOverlay::StatelessIntermediates)
    );
    assert_eq!(app.lesson_predict(), lesson.file.predict);
    // The text is shown beside the board: the title, and the first paragraph in full.
    harness.get_by_label(lesson.title());
    let paragraph = blocks(&lesson.file.text)
        .into_iter()
        .find_map(|block| match block {
            TextBlock::Paragraph(text) => Some(text),
            TextBlock::Heading(_) | TextBlock::Item { .. } => None,
        })
        .expect("every shipped lesson has a paragraph");
    let shown = harness.get_by_label(&paragraph);
    // A point of slack for the rounding of the text's layout.
    let dock = app.panel_rects().dock.expand(1.0);
    let rect = shown.rect();
    assert!(
        dock.contains_rect(egui::Rect::from_min_max(
            egui::pos2(rect.min.x as f32, rect.min.y as f32),
            egui::pos2(rect.max.x as f32, rect.max.y as f32),
        )),
        "the lesson's text runs outside the dock {dock:?}: {rect:?}"
    );
}

#[test]
fn help_lessons_opens_a_lesson_in_its_prepared_state_beside_the_board() {
    let lessons = shipped();
    assert!(lessons.len() >= 8, "{lessons:?}");
    let entry = &lessons[0];
    let lesson = Lesson::load(&entry.path).unwrap();
    let mut harness = small_app();
    let panels = harness.state().panel_rects();
    harness.get_by_label("Help").click();
    harness.run();
    harness.get_by_label("Lessons").click();
    harness.run();
    harness.get_by_label(&entry.title).click();
    harness.run();
    assert_prepared(&harness, &lesson);
    // The lesson's text has the dock's tab: nothing else moved.
    assert_eq!(harness.state().panel_rects(), panels);
    let status = harness.state().status_message().unwrap_or_default();
    assert!(status.contains("Opened the lesson"), "{status}");
    // The lesson's other solvers are one click away.
    if let Some(second) = lesson.solvers.get(1) {
        harness.get_by_label(second.name()).click();
        harness.run();
        assert_eq!(
            harness.state().app_state().solver.solver,
            SolverPick::BuiltIn(*second)
        );
    }
}

#[test]
fn every_shipped_lesson_opens_from_the_lesson_tab_in_its_prepared_state() {
    let mut harness = small_app();
    for entry in shipped() {
        let lesson = Lesson::load(&entry.path).unwrap();
        harness.get_by_label("Lesson").click();
        harness.run();
        // With a lesson open the tab shows it; closing it lists the lessons again.
        if harness.state().open_lesson_title().is_some() {
            harness.get_by_label("Close lesson").click();
            harness.run();
        }
        harness.get_by_label(&entry.title).click();
        harness.run();
        // A lesson that opens in play mode starts a game: the board is the lesson's.
        assert_prepared(&harness, &lesson);
    }
}

#[test]
fn a_teachers_lesson_opens_as_a_file_does_and_a_broken_one_names_its_problems() {
    let dir = tempfile::tempdir().unwrap();
    let board = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/small-6x6.ron");
    let path = dir.path().join("my-lesson.ron");
    std::fs::write(
        &path,
        format!(
            "(\n    lesson: 1,\n    title: \"My own lesson\",\n    puzzle: File({:?}),\n    \
             solvers: [\"idastar\", \"bfs\"],\n    debug: true,\n    pause_at_start: false,\n    \
             breakpoints: [Prune(LowerBound), Cell(2, 2)],\n    overlays: [\"min-moves\"],\n    \
             predict: true,\n    text: r#\"\n        # Look\n        Which prunes come first?\n    \"#,\n)\n",
            board.display().to_string()
        ),
    )
    .unwrap();
    let lesson = Lesson::load(&path).unwrap();
    let mut harness = small_app();
    // As `ricochet-lab FILE`, a file dropped on the window and File > Open hand it over.
    harness
        .state_mut()
        .apply_command(Opening::File(path.clone()).command());
    harness.run();
    assert_prepared(&harness, &lesson);
    assert!(harness.state().lesson_predict());
    // The lesson's board has no file: Save never writes over the lesson's puzzle.
    assert_eq!(harness.state().file(), None);

    let broken = dir.path().join("broken.ron");
    std::fs::write(
        &broken,
        "(lesson: 1, title: \"T\", puzzle: File(\"nowhere.ron\"), solvers: [\"quick\"], text: \"\")",
    )
    .unwrap();
    harness
        .state_mut()
        .apply_command(Opening::File(broken.clone()).command());
    harness.run();
    let status = harness.state().status_message().unwrap_or_default();
    for said in [
        "Could not open the lesson",
        "text:",
        "puzzle:",
        "unknown solver quick",
    ] {
        assert!(status.contains(said), "{said} is not in {status}");
    }
    // The lesson shown before stays.
    assert_eq!(harness.state().open_lesson_title(), Some("My own lesson"));
}
