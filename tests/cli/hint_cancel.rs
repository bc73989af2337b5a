//! Ctrl-C at any moment of `hint`: while the first solve runs, after it while the search for
//! the first solution runs, and everywhere between. The command prints `cancelled` on standard
//! error and exits 3, with nothing on standard output; a signal that comes only once the hint
//! is printed leaves the whole, right hint. Never a part of a hint, never a wrong one.

use crate::common::lab;
use std::process::Stdio;
use std::time::Duration;

/// The whole level-4 hint of the deck puzzle, the first of its optimal solutions in the
/// listing's order.
const DECK_HINT: &str = "Moves: 21\nRobots: red, blue, yellow\nFirst move: RE\nSolution: RE, \
                         RS, BW, BS, BW, BS, RW, RS, BN, BE, BS, BE, BS, BW, YS, YE, YN, YW, YS, \
                         BE, BN\n";

/// Runs `hint --level 4` on the deck puzzle, sends SIGINT after `delay`, and returns the exit
/// code, output and errors.
#[cfg(target_os = "linux")]
fn hint_interrupted_after(delay: Duration) -> (i32, String, String) {
    let child = lab()
        .args(["hint", "boards/real-21.ron", "--level", "4"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    // SAFETY: kill only sends a signal to the child this test started.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_at_any_moment_of_a_hint_says_cancelled_and_prints_no_hint() {
    let mut cancelled = 0;
    // From the solve (about a second and a half alone on two cores) to the search after it.
    for millis in [300, 1200, 3000] {
        let (code, out, err) = hint_interrupted_after(Duration::from_millis(millis));
        if code == 3 {
            assert_eq!(
                (out.as_str(), err.as_str()),
                ("", "cancelled\n"),
                "{millis} ms"
            );
            cancelled += 1;
        } else {
            // The hint had ended before the signal: it is the whole, right one.
            assert_eq!((code, out.as_str()), (0, DECK_HINT), "{millis} ms: {err}");
        }
    }
    // The deck puzzle's hint takes longer than the first delays on any machine.
    assert!(cancelled >= 2, "only {cancelled} runs were cancelled");
}

#[test]
fn the_deck_puzzles_hint_is_the_first_of_its_solutions() {
    let out = lab()
        .args(["hint", "boards/real-21.ron", "--level", "4"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), DECK_HINT);
}
