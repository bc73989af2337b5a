//! Every solver against breadth-first search on hundreds of random seeded puzzles of several
//! sizes and robot counts, with and without the rule options.
//!
//! The solvers come from the registry, so a new one is checked without editing this file; a
//! solver is skipped on puzzles whose rules it declares it does not implement.
//!
//! - Every optimal solver (`iddfs`, `fast`, `astar`, `idastar`, ...) gives exactly BFS's move
//!   count, or proves the puzzle unsolvable exactly when BFS does (`iddfs` and `fast` say
//!   "none within 255 moves", the deepest they search).
//! - Every other one never gives an answer shorter than the optimum, never an invalid answer
//!   that is not reported as invalid (every answer is replayed), and never calls a solvable
//!   puzzle unsolvable; `dls` with its limit at the optimum finds an optimal answer, and one
//!   move below proves there is none.
//!
//! Puzzles where BFS itself stops on a limit are skipped; the tests require that few are. A
//! non-optimal solver stopped by its time limit counts as neither right nor wrong.

use ricochet_lab::testing::{report_within, solve_with};

use ricochet_lab::model::random::random_puzzle;
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::model::{Puzzle, Rules};
use ricochet_lab::solver::{self, Limits, Optimality, Outcome, SolverId, SolverOptions};
use std::time::Duration;

/// The optimal solvers checked against BFS: every one in the registry but BFS itself.
fn optimal_solvers() -> impl Iterator<Item = SolverId> {
    SolverId::ALL
        .into_iter()
        .filter(|id| id.kind().optimality == Optimality::Guaranteed && *id != SolverId::Bfs)
}

/// The solvers that do not guarantee a shortest answer, except DLS, which is checked at
/// several depth limits of its own.
fn non_optimal_solvers() -> impl Iterator<Item = SolverId> {
    SolverId::ALL
        .into_iter()
        .filter(|id| id.kind().optimality == Optimality::NotGuaranteed && *id != SolverId::Dls)
}

/// Whether the solver implements the puzzle's rules.
fn takes(id: SolverId, puzzle: &Puzzle) -> bool {
    id.kind().rules.unsupported(puzzle.rules()).is_none()
}

/// What BFS says about a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Truth {
    /// The fewest moves.
    Optimum(usize),
    /// No solution exists.
    Unsolvable,
}

/// Runs a solver with a depth limit (`None`: its default) and `millis` of time.
fn run(name: &str, puzzle: &Puzzle, millis: u64, depth_limit: Option<u32>) -> Outcome {
    let options = SolverOptions {
        depth_limit,
        ..SolverOptions::default()
    };
    solve_with(name, puzzle, &options, Duration::from_millis(millis))
}

/// BFS's answer, or `None` when it stopped on a limit.
fn truth(puzzle: &Puzzle, millis: u64) -> Option<Truth> {
    match run("bfs", puzzle, millis, None) {
        Outcome::Solved { moves } => Some(Truth::Optimum(moves.len())),
        Outcome::Unsolvable { within: None } => Some(Truth::Unsolvable),
        Outcome::TimeLimit | Outcome::MemoryLimit => None,
        other => panic!("bfs: {other:?}"),
    }
}

/// Checks an optimal solver's outcome against the truth.
fn assert_optimal(name: &str, outcome: &Outcome, truth: Truth, what: &str) {
    match (outcome, truth) {
        (Outcome::Solved { moves }, Truth::Optimum(n)) => {
            assert_eq!(moves.len(), n, "{what}: {name} gave {moves:?}")
        }
        (Outcome::Unsolvable { within: None }, Truth::Unsolvable) => {}
        // The deepening solvers (Fogleman's IDDFS, fast) stop at the deepest bound their tables
        // record and say "none within" it, which is true of an unsolvable puzzle.
        (Outcome::Unsolvable { within: Some(_) }, Truth::Unsolvable) => {}
        _ => panic!("{what}: {name} gave {outcome:?}, bfs says {truth:?}"),
    }
}

/// Checks a non-optimal solver's outcome against the truth; returns whether it answered.
fn assert_sound(name: &str, outcome: &Outcome, truth: Truth, what: &str) -> bool {
    match (outcome, truth) {
        (Outcome::Solved { moves }, Truth::Optimum(n)) => {
            assert!(moves.len() >= n, "{what}: {name} beat the optimum {n}");
            true
        }
        (Outcome::Unsolvable { within: None }, Truth::Unsolvable) => true,
        (
            Outcome::Unsolvable {
                within: Some(limit),
            },
            Truth::Optimum(n),
        ) => {
            assert!(
                *limit < n as u32,
                "{what}: {name} missed {n} moves within {limit}"
            );
            true
        }
        (Outcome::Unsolvable { within: Some(_) }, Truth::Unsolvable) => true,
        // No answer, or an answer its replay refused and the report says so: neither is
        // wrong for a solver that does not promise one.
        (
            Outcome::TimeLimit | Outcome::MemoryLimit | Outcome::NotFound | Outcome::Invalid { .. },
            _,
        ) => false,
        _ => panic!("{what}: {name} gave {outcome:?}, bfs says {truth:?}"),
    }
}

/// How many puzzles a check saw, and how many non-optimal runs answered in time.
#[derive(Default, Debug)]
struct Tally {
    checked: usize,
    skipped: usize,
    unsolvable: usize,
    heuristic_runs: usize,
    heuristic_answers: usize,
    dls_runs: usize,
    dls_answers: usize,
    deepening_stops: usize,
}

impl Tally {
    /// The checks of the non-optimal solvers must not be empty: at least a quarter of their
    /// runs answer within the short time they get (most answer in a few milliseconds).
    fn assert_non_optimal_checked(&self) {
        assert!(
            self.heuristic_answers * 4 >= self.heuristic_runs,
            "{self:?}"
        );
        assert!(self.dls_answers * 4 >= self.dls_runs, "{self:?}");
    }
}

/// The time each run of a check gets, in milliseconds.
#[derive(Clone, Copy)]
struct Budget {
    /// The BFS run; a puzzle it does not finish in time is skipped.
    truth: u64,
    /// Each run of another optimal solver: far more than BFS got, so a stop here means a
    /// hang, not a slow machine.
    optimal: u64,
    /// Each run of a non-optimal solver.
    quick: u64,
    /// When set, the iterative-deepening solvers (`iddfs`, `idastar`) get this much time
    /// instead of `optimal` and may run out of it. They search the reachable states again at
    /// every bound, so on large boards with a long optimum, or none, they can take far longer
    /// than BFS and A*.
    deepening: Option<u64>,
}

/// Small boards: every optimal solver must finish.
const STRICT: Budget = Budget {
    truth: 5_000,
    optimal: 20_000,
    quick: 10,
    deepening: None,
};

/// Standard games: BFS gets less time (the few hard games it skips would cost the most), the
/// others must finish.
const STANDARD: Budget = Budget {
    truth: 2_000,
    ..STRICT
};

/// Runs every solver on one puzzle.
fn check(puzzle: &Puzzle, what: &str, budget: Budget, tally: &mut Tally) {
    let Budget {
        truth: truth_millis,
        optimal: millis,
        quick,
        deepening,
    } = budget;
    let Some(truth) = truth(puzzle, truth_millis) else {
        tally.skipped += 1;
        return;
    };
    tally.checked += 1;
    tally.unsolvable += usize::from(truth == Truth::Unsolvable);
    for id in optimal_solvers().filter(|id| takes(*id, puzzle)) {
        let name = id.name();
        let deepening_limit =
            deepening.filter(|_| matches!(id, SolverId::Iddfs | SolverId::Idastar));
        let outcome = run(name, puzzle, deepening_limit.unwrap_or(millis), None);
        if deepening_limit.is_some() && outcome == Outcome::TimeLimit {
            tally.deepening_stops += 1;
            continue;
        }
        assert_optimal(name, &outcome, truth, what);
    }
    for id in non_optimal_solvers().filter(|id| takes(*id, puzzle)) {
        let name = id.name();
        tally.heuristic_runs += 1;
        let outcome = run(name, puzzle, quick, None);
        tally.heuristic_answers += usize::from(assert_sound(name, &outcome, truth, what));
    }
    // The default limit, and the optimum and one below it: the opposite-move rule must lose
    // no solution, so the first finds the optimum and the second proves there is none. On an
    // unsolvable puzzle a small limit must be searched out.
    let limits = match truth {
        Truth::Optimum(0) => vec![None, Some(0)],
        Truth::Optimum(n) => vec![None, Some(n as u32), Some(n as u32 - 1)],
        Truth::Unsolvable => vec![Some(4)],
    };
    for limit in limits {
        tally.dls_runs += 1;
        let outcome = run("dls", puzzle, quick, limit);
        tally.dls_answers += usize::from(assert_sound("dls", &outcome, truth, what));
        match (limit, truth, &outcome) {
            (Some(limit), Truth::Optimum(n), Outcome::Solved { moves }) if limit as usize == n => {
                assert_eq!(moves.len(), n, "{what}: dls within the optimum")
            }
            (Some(limit), Truth::Optimum(n), Outcome::Solved { .. }) if (limit as usize) < n => {
                panic!("{what}: dls found a solution within {limit}, below the optimum {n}")
            }
            _ => {}
        }
    }
}

#[test]
fn every_solver_agrees_with_bfs_on_random_small_boards() {
    // (width, height, robots, one wall per this many cells, puzzles)
    let shapes: [(u16, u16, usize, usize, u64); 9] = [
        (6, 6, 3, 4, 120),
        (6, 6, 2, 3, 40),
        (8, 8, 3, 5, 40),
        (8, 8, 4, 4, 40),
        (7, 7, 5, 4, 30),
        (5, 9, 1, 3, 30),
        (10, 4, 3, 4, 30),
        (12, 12, 2, 6, 20),
        (4, 4, 5, 3, 20),
    ];
    let mut tally = Tally::default();
    for (i, &(w, h, robots, wall_every, count)) in shapes.iter().enumerate() {
        for seed in 0..count {
            let seed = seed + 10_000 * i as u64;
            let Ok(puzzle) = random_puzzle(w, h, robots, wall_every, seed) else {
                continue;
            };
            let what = format!("{w}x{h} {robots} robots seed {seed}");
            check(&puzzle, &what, STRICT, &mut tally);
        }
    }
    eprintln!("{tally:?}");
    tally.assert_non_optimal_checked();
    assert!(tally.checked >= 350, "{tally:?}");
    assert_eq!(tally.skipped, 0, "{tally:?}");
    assert!(
        tally.unsolvable > 0,
        "no unsolvable puzzle was drawn: {tally:?}"
    );
}

#[test]
fn every_solver_agrees_with_bfs_on_the_largest_and_narrowest_boards() {
    // (width, height, robots, one wall per this many cells, seeds). The seeds are those whose
    // puzzles breadth-first search finishes in well under its second: the ones it does not
    // finish are skipped by the check anyway, after waiting out that second, and the largest
    // boards it does finish are the point of this test.
    let shapes: [(u16, u16, usize, usize, &[u64]); 6] = [
        (64, 64, 2, 8, &[3, 4, 5, 6, 7]),
        (64, 64, 1, 6, &[0, 1, 2, 3]),
        (64, 64, 3, 3, &[1, 3]),
        (64, 2, 4, 3, &[0, 1, 2, 3, 4, 6, 7, 9]),
        (1, 40, 3, 3, &[0, 1, 2, 3]),
        (40, 1, 2, 3, &[0, 1, 2, 3]),
    ];
    let mut tally = Tally::default();
    for (i, &(w, h, robots, wall_every, seeds)) in shapes.iter().enumerate() {
        for &seed in seeds {
            let seed = seed + 20_000 * i as u64;
            let Ok(puzzle) = random_puzzle(w, h, robots, wall_every, seed) else {
                continue;
            };
            let what = format!("{w}x{h} {robots} robots seed {seed}");
            let budget = Budget {
                truth: 1_000,
                optimal: 20_000,
                quick: 20,
                deepening: Some(1_000),
            };
            check(&puzzle, &what, budget, &mut tally);
        }
    }
    eprintln!("{tally:?}");
    // A slow machine may make breadth-first search skip one or two; most finish.
    assert!(tally.checked >= 20, "{tally:?}");
    tally.assert_non_optimal_checked();
}

#[test]
fn every_solver_agrees_with_bfs_on_random_standard_games() {
    let mut tally = Tally::default();
    for seed in 0..70 {
        let (puzzle, _) = random_game(seed, 4).unwrap();
        check(
            &puzzle,
            &format!("standard seed {seed}"),
            STANDARD,
            &mut tally,
        );
    }
    // Breadth-first search does not finish these three five-robot games in its 2 s; each
    // would cost those 2 s to be skipped.
    for seed in (0..30).filter(|seed| ![19, 21, 25].contains(seed)) {
        let (puzzle, _) = random_game(1_000 + seed, 5).unwrap();
        let what = format!("five robots seed {}", 1_000 + seed);
        check(&puzzle, &what, STANDARD, &mut tally);
    }
    eprintln!("{tally:?}");
    tally.assert_non_optimal_checked();
    assert!(tally.checked >= 87, "{tally:?}");
}

#[test]
fn every_solver_honours_the_rule_options() {
    let mut tally = Tally::default();
    for seed in 0..120u64 {
        let Ok(puzzle) = random_puzzle(6, 6, 3, 3, 50_000 + seed) else {
            continue;
        };
        let rules = Rules {
            ricochet: seed % 2 == 0,
            no_rebound: seed % 3 != 0,
        };
        let puzzle = puzzle.with_rules(rules);
        check(
            &puzzle,
            &format!("6x6 seed {} {rules:?}", 50_000 + seed),
            STRICT,
            &mut tally,
        );
    }
    eprintln!("{tally:?}");
    tally.assert_non_optimal_checked();
    assert!(tally.checked >= 100, "{tally:?}");
    assert_eq!(tally.skipped, 0, "{tally:?}");
}

/// The survey behind the second table of docs/solvers.md: 1,000 random standard games with
/// four robots, the optimum from `iddfs` (10 s each; games it does not finish are counted apart),
/// then every other solver with 1 s each. Prints, by optimal move count, each solver's share
/// of optimal answers and its median time (a run stopped by the time limit counts as not
/// optimal and with the time it ran). It checks what the fast tests check: no invalid answer,
/// none shorter than the optimum, and the optimal solvers exact whenever they finish.
///
/// Takes about five minutes: `cargo nextest run --release --test solvers --run-ignored only
/// --nocapture`.
#[test]
#[ignore = "a survey of 1,000 games; run on demand"]
fn survey_of_a_thousand_standard_games() {
    use std::collections::BTreeMap;
    const SOLVERS: [&str; 6] = [
        "iddfs",
        "astar",
        "idastar",
        "astar-manhattan",
        "astar-rowcol",
        "dls",
    ];
    /// One solver's results on the games of one optimum.
    #[derive(Clone, Default)]
    struct Results {
        optimal: usize,
        times: Vec<Duration>,
    }
    /// The games of one optimum.
    struct Row {
        games: usize,
        solvers: Vec<Results>,
    }
    let mut rows: BTreeMap<usize, Row> = BTreeMap::new();
    let mut unknown = 0;
    for seed in 0..1_000 {
        let (puzzle, _) = random_game(100_000 + seed, 4).unwrap();
        let what = format!("standard seed {}", 100_000 + seed);
        let mut reports = Vec::new();
        for name in SOLVERS {
            let millis = if name == "iddfs" { 10_000 } else { 1_000 };
            let limits = Limits {
                time: Some(Duration::from_millis(millis)),
                memory_bytes: Some(2 << 30),
                cancel: None,
            };
            reports.push(report_within(name, &puzzle, &limits));
        }
        let Outcome::Solved { moves } = &reports[0].outcome else {
            assert!(
                matches!(reports[0].outcome, Outcome::TimeLimit),
                "{what}: {:?}",
                reports[0].outcome
            );
            unknown += 1;
            continue;
        };
        let truth = Truth::Optimum(moves.len());
        let row = rows.entry(moves.len()).or_insert_with(|| Row {
            games: 0,
            solvers: vec![Results::default(); SOLVERS.len()],
        });
        row.games += 1;
        for (i, report) in reports.iter().enumerate() {
            let name = SOLVERS[i];
            let optimal =
                solver::kind(name).is_some_and(|kind| kind.optimality == Optimality::Guaranteed);
            if optimal && report.outcome != Outcome::TimeLimit {
                assert_optimal(name, &report.outcome, truth, &what);
            } else {
                assert_sound(name, &report.outcome, truth, &what);
            }
            let results = &mut row.solvers[i];
            if report.outcome.move_count() == Some(moves.len()) {
                results.optimal += 1;
            }
            results.times.push(report.elapsed);
        }
    }
    let mut table = String::from("| optimum | games |");
    for name in SOLVERS {
        table.push_str(&format!(" `{name}` |"));
    }
    table.push_str("\n|---|---|");
    table.push_str(&"---|".repeat(SOLVERS.len()));
    for (optimum, row) in &rows {
        table.push_str(&format!("\n| {optimum} | {} |", row.games));
        for results in &row.solvers {
            let mut times = results.times.clone();
            times.sort();
            let median = times[times.len() / 2].as_secs_f64() * 1000.0;
            let share = 100.0 * results.optimal as f64 / row.games as f64;
            table.push_str(&format!(" {share:.0}%, {median:.1} ms |"));
        }
    }
    println!("{table}\n\n{unknown} games without an optimum within iddfs's 10 s");
}

/// A copy of `puzzle` with robot `index` walled in on all four sides of its cell.
fn with_robot_boxed(puzzle: &Puzzle, index: usize) -> Puzzle {
    use ricochet_lab::model::Direction;
    let mut board = puzzle.board().clone();
    let pos = puzzle.robots()[index].pos;
    for dir in Direction::ALL {
        board.set_wall(pos, dir, true).unwrap();
    }
    Puzzle::new(
        board,
        puzzle.robots().to_vec(),
        puzzle.goal(),
        puzzle.rules(),
    )
    .unwrap()
}

#[test]
fn every_solver_agrees_with_bfs_under_each_rule_option_on_corridors_and_boxed_robots() {
    // (width, height, robots, one wall per this many cells, seeds): corridors one and two
    // cells wide, where solutions go out and back, and small open boards.
    let shapes: [(u16, u16, usize, usize, u64); 8] = [
        (3, 1, 1, 50, 6),
        (1, 7, 2, 4, 20),
        (9, 1, 3, 3, 20),
        (2, 8, 2, 4, 20),
        (8, 2, 3, 5, 20),
        (4, 4, 2, 3, 20),
        (5, 5, 3, 4, 20),
        (6, 6, 4, 4, 20),
    ];
    let mut tally = Tally::default();
    let mut boxed = 0;
    for (i, &(w, h, robots, wall_every, count)) in shapes.iter().enumerate() {
        for seed in 0..count {
            let seed = seed + 60_000 + 1_000 * i as u64;
            let Ok(plain) = random_puzzle(w, h, robots, wall_every, seed) else {
                continue;
            };
            // Every third puzzle walls in one robot: a helper that can never move, or the
            // goal's robot, which makes the puzzle unsolvable unless it stands on the goal.
            let puzzle = if seed.is_multiple_of(3) {
                boxed += 1;
                with_robot_boxed(&plain, (seed as usize / 3) % robots)
            } else {
                plain
            };
            for ricochet in [false, true] {
                for no_rebound in [false, true] {
                    let rules = Rules {
                        ricochet,
                        no_rebound,
                    };
                    let what = format!("{w}x{h} {robots} robots seed {seed} {rules:?}");
                    check(&puzzle.with_rules(rules), &what, STRICT, &mut tally);
                }
            }
        }
    }
    eprintln!("{tally:?}, {boxed} with a boxed robot");
    assert!(tally.checked >= 500, "{tally:?}");
    assert!(boxed >= 40, "{boxed}");
    assert_eq!(tally.skipped, 0, "{tally:?}");
    assert!(tally.unsolvable > 0, "{tally:?}");
}
