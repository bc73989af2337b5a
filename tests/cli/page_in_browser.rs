//! The puzzle page in a real browser (headless Chromium through chromedriver): its moves agree
//! with the program's on random boards under every rule, "Show the solution" plays
//! hardest-25's 25 moves onto the target, the keys move and undo, and the page fits a phone's
//! width. They fail, saying what to install, where Chromium or its driver is missing: a skip
//! would pass unseen (`.ci/run` installs both).

use super::common::{lab, text};
use super::webdriver::{self, Browser};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use ricochet_lab::model::formats::board_line;
use ricochet_lab::model::moves::{Move, MoveTables};
use ricochet_lab::model::random::random_puzzle;
use ricochet_lab::model::{Direction, Pos, Puzzle, Rules, formats};
use serde_json::{Value, json};
use std::path::Path;

/// Random boards per rule setting.
const BOARDS: usize = 200;
/// Random moves tried on each board.
const MOVES: usize = 24;

/// A headless Chromium with a window of `width x height` pixels, or a failure that says what to
/// install.
fn browser(width: u32, height: u32) -> Browser {
    let Some((driver, chromium)) = webdriver::installed() else {
        panic!(
            "the page's browser tests need Chromium and its WebDriver: `apt-get install chromium \
             chromium-driver` on Debian, or CHROMIUM and CHROMEDRIVER set to their paths \
             (README, Testing)"
        );
    };
    Browser::start(&driver, &chromium, width, height)
}

/// Writes hardest-25's page into `dir` with the program, as a user does.
fn export_page(dir: &Path) -> String {
    let page = dir.join("page.html");
    let out = lab()
        .args(["export", "boards/hardest-25.ron", page.to_str().unwrap()])
        .output()
        .unwrap();
    let (code, out, err) = text(out);
    assert_eq!(code, 0, "{out}{err}");
    let bytes = std::fs::metadata(&page).unwrap().len();
    assert!(bytes < 1 << 20, "the page is {bytes} bytes");
    format!("file://{}", page.display())
}

/// A random puzzle of seed `seed`: 3x3 to 16x16, 1 to 5 robots, walls, now and then closed
/// cells, and `rules`.
fn random_board(seed: u64, rules: Rules) -> Puzzle {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (width, height) = (rng.random_range(3..=16), rng.random_range(3..=16));
    let robots = rng.random_range(1..=5usize.min(usize::from(width * height) / 3));
    let puzzle = random_puzzle(width, height, robots, rng.random_range(2..8), seed).unwrap();
    let mut board = puzzle.board().clone();
    let taken: Vec<Pos> = puzzle.robots().iter().map(|r| r.pos).collect();
    for _ in 0..rng.random_range(0..4) {
        let pos = Pos::new(rng.random_range(0..width), rng.random_range(0..height));
        if !taken.contains(&pos) && board.target_at(pos).is_none() {
            board.set_closed(pos, true).unwrap();
        }
    }
    Puzzle::new(board, puzzle.robots().to_vec(), puzzle.goal(), rules).unwrap()
}

/// What the program does with each move in turn: whether it is made (the program's replay
/// fails at no earlier move than the end) and where every robot then stands.
fn expected(puzzle: &Puzzle, moves: &[Move]) -> Vec<(bool, Vec<(u16, u16)>)> {
    let tables = MoveTables::new(puzzle.board());
    let mut made: Vec<Move> = Vec::new();
    let mut cells = puzzle.robot_cells();
    moves
        .iter()
        .map(|&mv| {
            let mut tried = made.clone();
            tried.push(mv);
            let accepted = match puzzle.replay(&tried) {
                Ok(_) => true,
                Err(error) => error.at_end,
            };
            if accepted {
                let index = puzzle.robot_index(mv.robot).unwrap();
                cells[index] = tables.slide(&cells, index, mv.dir);
                made.push(mv);
            }
            let positions = cells
                .iter()
                .map(|&c| {
                    let pos = puzzle.board().pos(c);
                    (pos.x, pos.y)
                })
                .collect();
            (accepted, positions)
        })
        .collect()
}

/// Plays every case's moves on the page through its own move code, returning for each move
/// whether it was made and the robots' cells.
const PLAY: &str = "
    const [cases] = arguments;
    (async () => {
        const out = [];
        for (const c of cases) {
            await window.ricochetPage.fromFragment(c.fragment);
            const steps = [];
            for (const m of c.moves) {
                const made = window.ricochetPage.move(m[0], m[1]);
                steps.push([made, window.ricochetPage.cells()]);
            }
            out.push(steps);
        }
        return out;
    })().then(done, (e) => done('error: ' + e.message));
";

#[test]
fn the_pages_moves_agree_with_the_programs_on_random_boards_under_every_rule() {
    let browser = browser(1000, 800);
    let dir = tempfile::tempdir().unwrap();
    browser.open(&export_page(dir.path()));
    browser.run(
        "window.ricochetPage.ready.then(() => done(true));",
        json!([]),
    );
    let settings = [(false, false), (true, false), (false, true), (true, true)];
    for (ricochet, no_rebound) in settings {
        let rules = Rules {
            ricochet,
            no_rebound,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(u64::from(ricochet) * 2 + u64::from(no_rebound));
        let mut cases = Vec::new();
        let mut wanted = Vec::new();
        for board in 0..BOARDS {
            let puzzle = random_board(board as u64 * 7 + 1, rules);
            let moves: Vec<Move> = (0..MOVES)
                .map(|_| {
                    let robot = puzzle.robots()[rng.random_range(0..puzzle.robots().len())];
                    Move::new(robot.color, Direction::ALL[rng.random_range(0..4)])
                })
                .collect();
            let fragment = format!("#puzzle={}", board_line::write(&puzzle).unwrap());
            let texts: Vec<String> = moves.iter().map(Move::to_string).collect();
            cases.push(json!({"fragment": fragment, "moves": texts}));
            wanted.push((puzzle, moves));
        }
        let played = browser.run(PLAY, json!([cases]));
        let played = played.as_array().unwrap_or_else(|| panic!("{played}"));
        for ((puzzle, moves), steps) in wanted.iter().zip(played) {
            for (at, ((made, cells), step)) in expected(puzzle, moves)
                .into_iter()
                .zip(steps.as_array().unwrap())
                .enumerate()
            {
                let page: Vec<(u16, u16)> = serde_json::from_value(step[1].clone()).unwrap();
                assert!(
                    step[0] == Value::Bool(made) && page == cells,
                    "move {} ({}) of {:?} on\n{}\nthe program: made {made}, {cells:?}; the \
                     page: {step}",
                    at + 1,
                    moves[at],
                    puzzle.rules(),
                    formats::native::write(puzzle)
                );
            }
        }
    }
}

#[test]
fn show_the_solution_plays_hardest_25_onto_its_target() {
    let browser = browser(1200, 900);
    let dir = tempfile::tempdir().unwrap();
    browser.open(&export_page(dir.path()));
    browser.run(
        "window.ricochetPage.ready.then(() => { window.ricochetPage.setSpeed(8); done(true); });",
        json!([]),
    );
    // Nothing was fetched: the page is whole in itself.
    let loads = browser.run(
        "done(performance.getEntriesByType('resource').length);",
        json!([]),
    );
    assert_eq!(loads, json!(0));
    browser.click("best");
    let answer = browser.run(
        "done(document.getElementById('answer').textContent);",
        json!([]),
    );
    assert_eq!(answer, json!("The best solution takes 25 moves."));
    browser.click("show");
    let state = browser.run(
        "const wait = () => { const s = window.ricochetPage.state(); \
         if (s.playing || s.moves === 0) setTimeout(wait, 50); else done(s); }; wait();",
        json!([]),
    );
    assert_eq!(state["moves"], json!(25), "{state}");
    assert_eq!(state["solved"], json!(true), "{state}");
    let status = browser.run(
        "done(document.getElementById('status').textContent);",
        json!([]),
    );
    assert_eq!(status, json!("Solved in 25 moves!"));
    // The goal's robot stands on the target, as the program's replay of hardest-25 ends.
    let puzzle = formats::load(&ricochet_lab::testing::board_path("hardest-25.ron")).unwrap();
    let cells = browser.run("done(window.ricochetPage.cells());", json!([]));
    let active = puzzle.active_robot().unwrap();
    let goal = puzzle.goal().pos;
    assert_eq!(cells[active], json!([goal.x, goal.y]));
    save_screenshot(&browser, "page-desktop.png");
}

#[test]
fn the_keys_move_and_undo_and_the_page_fits_a_phone() {
    let browser = browser(375, 812);
    let dir = tempfile::tempdir().unwrap();
    browser.open(&export_page(dir.path()));
    browser.run(
        "window.ricochetPage.ready.then(() => done(true));",
        json!([]),
    );
    // Nothing is wider than the phone's screen.
    let widths = browser.run(
        "done([document.documentElement.scrollWidth, \
         document.getElementById('board').getBoundingClientRect().width]);",
        json!([]),
    );
    assert!(widths[0].as_f64().unwrap() <= 375.0, "{widths}");
    assert!(widths[1].as_f64().unwrap() >= 300.0, "{widths}");
    // Tab reaches the first robot (red), the arrows move it, U takes the move back.
    browser.keys("\u{E004}");
    let focused = browser.run("done(document.activeElement.id);", json!([]));
    assert_eq!(focused, json!("robot-0"));
    let puzzle = formats::load(&ricochet_lab::testing::board_path("hardest-25.ron")).unwrap();
    let dir_keys = [
        ("\u{E013}", Direction::North),
        ("\u{E014}", Direction::East),
    ];
    let mut moves: u64 = 0;
    for (key, dir) in dir_keys {
        let before = browser.run("done(window.ricochetPage.cells());", json!([]));
        browser.keys(key);
        let after = browser.run("done(window.ricochetPage.cells());", json!([]));
        let cells: Vec<u16> = before
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                let (x, y) = (c[0].as_u64().unwrap() as u16, c[1].as_u64().unwrap() as u16);
                puzzle.board().cell(Pos::new(x, y))
            })
            .collect();
        let tables = MoveTables::new(puzzle.board());
        let to = puzzle.board().pos(tables.slide(&cells, 0, dir));
        assert_eq!(after[0], json!([to.x, to.y]), "{key:?}");
        if after != before {
            moves += 1;
        }
    }
    let count = browser.run("done(window.ricochetPage.state().moves);", json!([]));
    assert_eq!(count, json!(moves));
    browser.keys("u");
    let count = browser.run("done(window.ricochetPage.state().moves);", json!([]));
    assert_eq!(count, json!(moves.saturating_sub(1)));
    save_screenshot(&browser, "page-phone.png");
}

/// Keeps a screenshot in `RICOCHET_LAB_PAGE_SCREENSHOTS` when that folder is given.
fn save_screenshot(browser: &Browser, name: &str) {
    if let Some(dir) = std::env::var_os("RICOCHET_LAB_PAGE_SCREENSHOTS") {
        std::fs::write(Path::new(&dir).join(name), browser.screenshot()).unwrap();
    }
}
