//! The tour's stops that start outside the window: a file changed on disk, a failing engine.

use super::*;

pub(super) fn disk_stops(tour: &mut Tour, folder: &Path) {
    let file = folder.join("board.ron");
    std::fs::copy(manifest("boards/real-21.ron"), &file).unwrap();
    tour.command(Command::Guarded(Pending::Open(file.clone())));
    tour.check("a board opened from a long path");
    // Another program writes the file: a later modification time and another length.
    std::thread::sleep(Duration::from_millis(1100));
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str("\n// changed elsewhere\n");
    std::fs::write(&file, text).unwrap();
    tour.command(Command::edit(Edit::ClearRobots));
    tour.visit_window("Changed on disk", Command::Save);
    tour.command(Command::Undo);
}

/// An engine that fails: its error and the end of its log.
pub(super) fn engine_stops(tour: &mut Tour, folder: &Path) {
    use ricochet_lab::solver::engine::EngineSpec;
    use ricochet_lab::solver::engine::store::EngineStore;
    let file = folder.join("engines.ron");
    let mut store = EngineStore::load(&file).unwrap();
    let spec = EngineSpec {
        name: "crashing".into(),
        command: vec![
            "python3".into(),
            manifest("tests/engines/fault_engine.py")
                .display()
                .to_string(),
            "crash".into(),
            folder.join("pids").display().to_string(),
        ],
        dir: None,
        options: Vec::new(),
    };
    store.add(spec, true).unwrap();
    store.save().unwrap();
    tour.harness.state_mut().use_engines_file(file);
    tour.harness.run_ok();
    tour.tab("Run");
    tour.harness.get_by_label("Solver").click();
    tour.harness.run_ok();
    tour.harness
        .get_by_label("crashing (external)")
        .scroll_to_me();
    tour.harness.run_ok();
    tour.click("crashing (external)");
    tour.click("Solve");
    step_until(&mut tour.harness, Duration::from_secs(30), finished);
    tour.every_tab("a failed engine", "Run");
    tour.check_scrolling("a failed engine");
}
