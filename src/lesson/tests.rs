use super::*;

/// A lesson file with every field given.
fn full_file() -> LessonFile {
    LessonFile {
        lesson: LESSON_FORMAT_VERSION,
        title: "BFS against \"IDDFS\"".into(),
        summary: "Memory against revisits.".into(),
        puzzle: LessonPuzzle::File("../small-6x6.ron".into()),
        mode: LessonMode::Play,
        solvers: vec!["bfs".into(), "iddfs".into()],
        depth_limit: Some(7),
        debug: true,
        pause_at_start: false,
        breakpoints: vec![
            LessonBreakpoint::Depth(3),
            LessonBreakpoint::Cell(2, 2),
            LessonBreakpoint::Solution,
            LessonBreakpoint::Prune(LessonPrune::TableHit),
            LessonBreakpoint::NewDepth,
            LessonBreakpoint::Depths(1, 4),
        ],
        overlays: vec!["search-heat".into(), "min-moves".into()],
        predict: true,
        text: "# Questions\n\n1. How many nodes?\n   A \"quoted\" word, a # and r#\"raw\"#.\n"
            .into(),
    }
}

/// The shipped lessons' folder, where `../small-6x6.ron` is the 6x6 board.
fn lesson_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/lessons/test.ron")
}

#[test]
fn a_lesson_file_round_trips_through_its_text() {
    let file = full_file();
    let text = write_file(&file).unwrap();
    assert!(is_lesson_text(&text), "{text}");
    assert_eq!(parse_file(&text, &lesson_path()).unwrap(), file);
    // The text is written over several lines, as a teacher writes it.
    assert!(text.contains("1. How many nodes?\n"), "{text}");
    assert!(text.contains("depth_limit: 7,"), "{text}");
    // A lesson with its puzzle inline round-trips too.
    let inline = LessonFile {
        puzzle: LessonPuzzle::Text(
            std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/small-6x6.ron"),
            )
            .unwrap(),
        ),
        ..file
    };
    let text = write_file(&inline).unwrap();
    assert_eq!(parse_file(&text, &lesson_path()).unwrap(), inline);
}

#[test]
fn the_optional_fields_take_their_defaults() {
    let text = r#"(lesson: 1, title: "T", puzzle: File("../small-6x6.ron"), text: "Read.")"#;
    let file = parse_file(text, &lesson_path()).unwrap();
    assert_eq!(file.mode, LessonMode::Edit);
    assert!(file.solvers.is_empty() && file.breakpoints.is_empty() && file.overlays.is_empty());
    assert!(!file.debug && !file.predict);
    assert!(file.pause_at_start);
    assert_eq!(file.depth_limit, None);
    // An optional value is written as it is, or as `Some(...)`.
    for limit in ["8", "Some(8)"] {
        let text = format!(
            "(lesson: 1, title: \"T\", puzzle: File(\"x.ron\"), depth_limit: {limit}, text: \"t\")"
        );
        assert_eq!(
            parse_file(&text, &lesson_path()).unwrap().depth_limit,
            Some(8)
        );
    }
}

#[test]
fn a_lesson_resolves_its_puzzle_solvers_and_overlays() {
    let file = full_file();
    let lesson = Lesson::resolve(file, &lesson_path()).unwrap();
    assert_eq!(lesson.solvers, [SolverId::Bfs, SolverId::Iddfs]);
    assert_eq!(
        lesson.overlays,
        [LessonOverlay::SearchHeat, LessonOverlay::MinMoves]
    );
    assert_eq!(lesson.puzzle.board().width(), 6);
}

#[test]
fn every_problem_is_named_with_its_field() {
    let file = LessonFile {
        lesson: 2,
        title: " ".into(),
        depth_limit: Some(0),
        solvers: vec!["bfs".into(), "quick".into(), "bfs".into()],
        overlays: vec!["heat".into()],
        breakpoints: vec![
            LessonBreakpoint::Cell(6, 0),
            LessonBreakpoint::Depth(1),
            LessonBreakpoint::Depth(2),
            LessonBreakpoint::Depths(4, 1),
        ],
        text: "\n  \n".into(),
        ..full_file()
    };
    let problems = Lesson::resolve(file, &lesson_path()).unwrap_err();
    let said: Vec<String> = problems
        .iter()
        .map(|p| format!("{}: {}", p.field, p.message))
        .collect();
    let expected = [
        "lesson: format version 2",
        "title: the title is empty",
        "text: the text is empty",
        "solvers: unknown solver quick; the solvers are bfs, iddfs",
        "solvers: bfs is listed twice",
        "depth_limit: 0 is not a depth limit: it runs from 1 to 255",
        "overlays: unknown overlay heat; the overlays are min-moves",
        "breakpoints: Cell(6, 0) is off the 6x6 board",
        "breakpoints: two Depth breakpoints",
        "breakpoints: Depths(4, 1): the shallowest depth comes first",
    ];
    assert_eq!(said.len(), expected.len(), "{said:#?}");
    for (said, expected) in said.iter().zip(expected) {
        assert!(
            said.starts_with(expected),
            "{said} does not start with {expected}"
        );
    }
    assert!(problems.iter().all(|p| p.file == lesson_path()));
}

#[test]
fn a_puzzle_that_does_not_load_is_named_with_its_file() {
    let file = LessonFile {
        puzzle: LessonPuzzle::File("missing.ron".into()),
        ..full_file()
    };
    let problems = Lesson::resolve(file, &lesson_path()).unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].field, "puzzle");
    assert!(problems[0].message.contains("missing.ron"), "{problems:?}");
    let file = LessonFile {
        puzzle: LessonPuzzle::Text("not a board".into()),
        ..full_file()
    };
    let problems = Lesson::resolve(file, &lesson_path()).unwrap_err();
    assert!(
        problems[0]
            .message
            .starts_with("the puzzle text does not load")
    );
}

#[test]
fn a_syntax_error_names_its_line_and_column() {
    let problem = parse_file("(\n  lesson: 1,\n  title: 3,\n)", &lesson_path()).unwrap_err();
    assert_eq!(problem.field, "line 3, column 9");
    let problem = parse_file(
        "(lesson: 1, title: \"T\", puzzle: File(\"x\"), text: \"t\", colour: 1)",
        &lesson_path(),
    )
    .unwrap_err();
    assert!(problem.message.contains("colour"), "{problem}");
}

#[test]
fn lessons_are_told_from_puzzles_by_their_first_field() {
    assert!(is_lesson_text(
        "// A lesson\n/* about BFS */ (\n  lesson: 1,"
    ));
    assert!(is_lesson_text("\u{feff}(lesson :1)"));
    let puzzle =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/small-6x6.ron"))
            .unwrap();
    assert!(!is_lesson_text(&puzzle));
    assert!(!is_lesson_text("lesson: 1"));
    assert!(!is_lesson_text("(lessons: 1)"));
}

#[test]
fn every_overlay_has_a_name_of_its_own_that_reads_back() {
    for overlay in LessonOverlay::ALL {
        assert_eq!(LessonOverlay::from_name(overlay.name()), Some(overlay));
    }
    let mut names = LessonOverlay::ALL.map(LessonOverlay::name).to_vec();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), LessonOverlay::ALL.len());
}
