//! The exact distance map overlay in the real app: turned on in the Overlays tab, computed on a
//! worker thread for the board shown, checked against that board, and dropped (then computed
//! again) when another board is opened.

use crate::common::{import, step_until};
use egui_kittest::kittest::Queryable;
use ricochet_lab::model::formats::game_id;
use ricochet_lab::solver::analysis::distances::DEFAULT_MAX_DEPTH;
use std::time::Duration;

const GAME: &str = "EF81+40+09AF0E2D+1A";
const OTHER_GAME: &str = "EF81+40+39AB8BD4+1A";

#[test]
fn the_overlay_maps_the_board_shown_and_a_new_board_drops_the_map() {
    let puzzle = game_id::parse(GAME).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, [1360.0, 900.0], |_| {});
    assert!(harness.state().exact_distance_map().is_none());

    harness.get_by_label("Overlays").click();
    harness.run();
    harness.get_by_label("Exact distance map").click();
    step_until(&mut harness, Duration::from_secs(120), |app| {
        app.exact_distance_map().is_some()
    });
    let (position, map) = harness.state().exact_distance_map().unwrap();
    assert_eq!(*position, puzzle, "the map is of the board shown");
    assert_eq!(map.depth, DEFAULT_MAX_DEPTH);
    assert_eq!(map.robots.len(), puzzle.robots().len());
    for (robot, distances) in puzzle.robots().iter().zip(&map.robots) {
        let home = usize::from(puzzle.board().cell(robot.pos));
        assert_eq!(distances.exact[home], Some(0), "{:?}", robot.color);
    }
    // The panel says how far the search went, and names the robot shown.
    harness.get_by_label("Distances of robot");
    harness.get_by_label_contains("Exact to 8 moves");

    // Another board: the old map goes at once, and a new one is computed for the new board.
    // (The Run tab shows meanwhile, so that the search's progress does not keep the frames
    // of the import from settling.)
    harness.get_by_label("Run").click();
    harness.run();
    import(&mut harness, OTHER_GAME);
    let other = game_id::parse(OTHER_GAME).unwrap();
    assert!(
        harness
            .state()
            .exact_distance_map()
            .is_none_or(|(position, _)| *position == other),
        "a map of the old board is never shown on the new one"
    );
    step_until(&mut harness, Duration::from_secs(120), |app| {
        app.exact_distance_map().is_some()
    });
    assert_eq!(*harness.state().exact_distance_map().unwrap().0, other);
    harness.get_by_label("Overlays").click();
    harness.run();

    // Turning the overlay off drops the map.
    harness.get_by_label("Exact distance map").click();
    harness.run();
    assert!(harness.state().exact_distance_map().is_none());
}
