//! The stateless layer in the real app: its stores come from a worker thread, never from the
//! frame that turns the layer on, and they belong to the board they were computed on.

use crate::common::{app_harness, step_until};
use egui_kittest::kittest::Queryable;
use ricochet_lab::solver::Limits;
use ricochet_lab::solver::stateless::compute_stores;
use std::time::Duration;

const COMPUTING: &str = "being computed on a worker thread";

#[test]
fn the_stateless_stores_come_from_a_worker_and_an_edit_drops_them() {
    let mut harness = app_harness();
    harness.get_by_label("Overlays").click();
    harness.run();
    assert!(harness.state().stateless_stores().is_none());

    // The frame that takes the click only turns the switch on; the next one starts the run on
    // a worker and shows the panel's note, without stores: nothing was computed in a frame.
    harness.get_by_label("Stateless states").click();
    harness.step();
    assert!(harness.state().stateless_stores().is_none());
    harness.step();
    assert!(harness.state().stateless_stores_computing());
    assert!(harness.state().stateless_stores().is_none());
    harness.get_by_label_contains(COMPUTING);

    step_until(&mut harness, Duration::from_secs(120), |app| {
        app.stateless_stores().is_some()
    });
    let puzzle = harness.state().draft().to_puzzle().expect("a valid board");
    let direct = compute_stores(&puzzle, &Limits::default()).expect("an unlimited run ends");
    let stores = harness.state().stateless_stores().unwrap();
    assert_eq!(stores.finals().len(), direct.finals().len());
    assert_eq!(stores.best(), direct.best());
    assert!(!harness.state().stateless_stores_computing());
    assert!(harness.query_by_label_contains(COMPUTING).is_none());

    // An edit: the stores of the board before it are gone at once, and new ones are computed
    // for the board as it is now.
    harness.get_by_label("Random robots").scroll_to_me();
    harness.run();
    harness.get_by_label("Random robots").click();
    // Frame by frame until the edit is applied: in that frame the stores of the board before
    // it go, and the new board's run starts only in the next.
    for _ in 0..5 {
        harness.step();
        if harness.state().draft().to_puzzle().ok().as_ref() != Some(&puzzle) {
            break;
        }
    }
    let edited = harness.state().draft().to_puzzle().expect("a valid board");
    assert_ne!(edited, puzzle);
    assert!(
        harness.state().stateless_stores().is_none(),
        "no stores of the board before the edit"
    );
    step_until(&mut harness, Duration::from_secs(120), |app| {
        app.stateless_stores().is_some()
    });
    let direct = compute_stores(&edited, &Limits::default()).expect("an unlimited run ends");
    let stores = harness.state().stateless_stores().unwrap();
    assert_eq!(stores.finals().len(), direct.finals().len());
    assert_eq!(stores.best(), direct.best());

    // Turning the layer off drops the stores.
    harness.get_by_label("Stateless states").click();
    harness.run_steps(2);
    assert!(harness.state().stateless_stores().is_none());
}
