//! `engine check`: a fixed set of puzzles and fault probes run against an external engine,
//! each answer checked against a built-in optimal solver (`bfs` on small boards, `fast` on
//! large ones), and a pass or fail for each.
//!
//! The puzzles cover what the protocol carries: the page's example, a zero-move puzzle, an
//! unsolvable one, the ricochet and no-rebound rules, boards of 1x1, 9x5 and 64x64, five
//! robots, the vortex, a standard 16x16 game, and a depth limit that leaves `none`. The
//! probes: `isready` during a search, `stop` honoured within the grace, an unknown command
//! ignored, `stop` while idle ignored, and the puzzle's id echoed.

use crate::model::formats::{Format, parse};
use crate::model::random::random_puzzle;
use crate::model::{Board, Goal, Pos, Puzzle, Robot, RobotColor, Rules, TargetColor};
use crate::solver::engine::{Engine, EngineError, EngineGaveUp, EngineSpec, protocol, test_puzzle};
use crate::solver::{self, Event, Limits, NoProbe, Outcome, SolveError, SolverId, SolverOptions};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long the engine may take for one check puzzle, unless told otherwise
/// ([`check_streaming`]).
pub const PUZZLE_TIME: Duration = Duration::from_secs(60);

/// How long an engine may take to answer `isready`, or a `stop` with its result.
const ANSWER_TIME: Duration = Duration::from_secs(1);

/// How long the id probe waits for the one-move puzzle's result (or the check's time per
/// puzzle, when shorter).
const ID_TIME: Duration = Duration::from_secs(10);

/// One check's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The engine did what the protocol asks.
    Pass,
    /// It did not.
    Fail,
    /// The check does not apply (a rule option the engine does not list).
    Skip,
}

/// One check: its name, how it went and what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckItem {
    /// A short name, such as `ricochet-rule`.
    pub name: &'static str,
    /// Whether it passed (a skipped check counts as passed).
    pub passed: bool,
    /// Pass, fail or skip.
    pub status: Status,
    /// What was seen, in words.
    pub detail: String,
}

impl CheckItem {
    fn new(name: &'static str, status: Status, detail: impl Into<String>) -> CheckItem {
        CheckItem {
            name,
            passed: status != Status::Fail,
            status,
            detail: detail.into(),
        }
    }
}

/// A puzzle of the check: its name, the puzzle and the depth limit `go` gets.
struct CheckPuzzle {
    name: &'static str,
    puzzle: Puzzle,
    depth: Option<u32>,
}

/// A board with only its border walled, red at `red`, the red goal at `goal`, and green at
/// `green` when given.
fn open_board(width: u16, height: u16, red: Pos, green: Option<Pos>, goal: Pos) -> Puzzle {
    let board = Board::new(width, height).expect("the check's boards have valid sizes");
    let mut robots = vec![Robot {
        color: RobotColor::Red,
        pos: red,
    }];
    if let Some(pos) = green {
        robots.push(Robot {
            color: RobotColor::Green,
            pos,
        });
    }
    let goal = Goal {
        pos: goal,
        color: TargetColor::Red,
    };
    Puzzle::new(board, robots, goal, Rules::default())
        .expect("the check's puzzles have their robots apart, on the board")
}

/// The first seeded random puzzle of a size whose optimum (by `fast`) lies in `moves`.
fn random_with_optimum(
    width: u16,
    height: u16,
    robots: usize,
    moves: std::ops::RangeInclusive<usize>,
) -> Option<Puzzle> {
    // `fast` deepens one move at a time, so with the range's end as its depth limit it still
    // finds every optimum within the range, and it gives up on the other seeds at that depth
    // instead of searching them out (a 16x16 board with five robots can take seconds).
    let options = SolverOptions {
        depth_limit: u32::try_from(*moves.end()).ok(),
        ..SolverOptions::default()
    };
    (0..500u64).find_map(|seed| {
        let puzzle = random_puzzle(width, height, robots, 5, seed).ok()?;
        let report = solver::run(
            SolverId::Fast,
            &puzzle,
            &options,
            &Limits::default(),
            &mut NoProbe,
        )
        .ok()?;
        moves
            .contains(&report.outcome.move_count()?)
            .then_some(puzzle)
    })
}

fn puzzles() -> Vec<CheckPuzzle> {
    let mut list = Vec::new();
    let mut add = |name, puzzle: Option<Puzzle>, depth| {
        if let Some(puzzle) = puzzle {
            list.push(CheckPuzzle {
                name,
                puzzle,
                depth,
            });
        }
    };
    add("page-example-4x3", Some(test_puzzle()), None);
    let zero = open_board(5, 5, Pos::new(2, 2), None, Pos::new(2, 2));
    add("zero-moves", Some(zero), None);
    let corridor = open_board(3, 1, Pos::new(0, 0), Some(Pos::new(1, 0)), Pos::new(2, 0));
    add("unsolvable", Some(corridor), None);
    let ricochet = test_puzzle().with_rules(Rules {
        ricochet: true,
        no_rebound: false,
    });
    add("ricochet-rule", Some(ricochet), None);
    let rebound = random_with_optimum(8, 8, 3, 3..=6).map(|p| {
        p.with_rules(Rules {
            ricochet: false,
            no_rebound: true,
        })
    });
    add("no-rebound-rule", rebound, None);
    add(
        "board-1x1",
        Some(open_board(1, 1, Pos::new(0, 0), None, Pos::new(0, 0))),
        None,
    );
    add("board-9x5", random_with_optimum(9, 5, 2, 2..=6), None);
    let wide = open_board(
        64,
        64,
        Pos::new(0, 0),
        Some(Pos::new(10, 30)),
        Pos::new(63, 63),
    );
    add("board-64x64", Some(wide), None);
    add("five-robots", random_with_optimum(16, 16, 5, 2..=3), None);
    let vortex = random_with_optimum(10, 10, 3, 2..=5).and_then(|p| {
        let goal = Goal {
            pos: p.goal().pos,
            color: TargetColor::Any,
        };
        Puzzle::new(p.board().clone(), p.robots().to_vec(), goal, p.rules()).ok()
    });
    add("vortex-goal", vortex, None);
    add(
        "standard-16x16",
        random_with_optimum(16, 16, 4, 4..=4),
        None,
    );
    add(
        "depth-limit-none",
        random_with_optimum(8, 8, 3, 4..=6),
        Some(2),
    );
    list
}

/// A shipped hard puzzle (hardest-25, 25 moves), which no engine solves within the probes'
/// few seconds: the search goes on while the probes look.
fn long_puzzle() -> Option<Puzzle> {
    parse(include_str!("../../boards/hardest-25.ron"), Format::Native).ok()
}

/// The built-in optimal solver that checks an answer: `bfs` on small boards, `fast` on the
/// others.
fn reference(puzzle: &Puzzle) -> SolverId {
    if puzzle.board().cell_count() <= 100 {
        SolverId::Bfs
    } else {
        SolverId::Fast
    }
}

/// Runs every check against the engine `spec`, each puzzle within [`PUZZLE_TIME`]; `cancel`
/// stops between checks (and sends `stop` within one).
pub fn check(spec: &EngineSpec, cancel: &Arc<AtomicBool>) -> Vec<CheckItem> {
    check_streaming(spec, cancel, PUZZLE_TIME, &mut |_| {})
}

/// [`check`], with `puzzle_time` for each puzzle (the engine's start within it too), handing
/// each check's outcome to `done` as soon as it is known, so a long check shows its progress.
pub fn check_streaming(
    spec: &EngineSpec,
    cancel: &Arc<AtomicBool>,
    puzzle_time: Duration,
    done: &mut dyn FnMut(&CheckItem),
) -> Vec<CheckItem> {
    let mut items = Items {
        list: Vec::new(),
        done,
    };
    run_checks(spec, cancel, puzzle_time, &mut items);
    items.list
}

/// The checks' outcomes so far, each handed on as it is added.
struct Items<'a> {
    list: Vec<CheckItem>,
    done: &'a mut dyn FnMut(&CheckItem),
}

impl Items<'_> {
    fn push(&mut self, item: CheckItem) {
        (self.done)(&item);
        self.list.push(item);
    }
}

fn run_checks(
    spec: &EngineSpec,
    cancel: &Arc<AtomicBool>,
    puzzle_time: Duration,
    items: &mut Items<'_>,
) {
    let handshake = puzzle_time.min(crate::solver::engine::HANDSHAKE_TIME);
    let start = || Engine::start_within(spec, handshake);
    let mut engine = match start() {
        Ok(engine) => {
            items.push(CheckItem::new(
                "handshake",
                Status::Pass,
                "rep 1 answered with repok",
            ));
            engine
        }
        Err(error) => {
            items.push(CheckItem::new("handshake", Status::Fail, error.to_string()));
            return;
        }
    };
    let optimal = engine.identity().optimal;
    // The id each check's puzzle was sent with, so that a stale result read later (a second
    // result, or one past its time) is the fault of the check it answers, not of the next.
    let mut sent: Vec<(String, &'static str)> = Vec::new();
    for case in puzzles() {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let (item, alive) = check_puzzle(&mut engine, &case, optimal, cancel, puzzle_time);
        items.push(item);
        sent.extend(engine.last_id().map(|id| (id.to_string(), case.name)));
        for (id, line) in engine.take_stale() {
            let name = sent
                .iter()
                .find(|(sent_id, _)| *sent_id == id)
                .map_or("stale-result", |(_, name)| *name);
            let problem = crate::solver::engine::EngineProblem::SecondResult { id, line };
            items.push(CheckItem::new(name, Status::Fail, problem.to_string()));
        }
        if !alive {
            match start() {
                Ok(restarted) => engine = restarted,
                Err(error) => {
                    items.push(CheckItem::new("restart", Status::Fail, error.to_string()));
                    return;
                }
            }
        }
    }
    if cancel.load(Ordering::Relaxed) {
        engine.kill();
        return;
    }
    let probes: [(&'static str, Probe); 4] = [
        ("unknown-command-ignored", unknown_command),
        ("stop-while-idle-ignored", stop_while_idle),
        ("id-echoed", id_echoed),
        (
            "isready-and-stop-during-search",
            ready_and_stop_during_search,
        ),
    ];
    for (name, probe) in probes {
        let (status, detail) = probe(&mut engine, puzzle_time);
        let failed = status == Status::Fail;
        items.push(CheckItem::new(name, status, detail));
        if failed {
            engine.kill();
            match start() {
                Ok(restarted) => engine = restarted,
                Err(error) => {
                    items.push(CheckItem::new("restart", Status::Fail, error.to_string()));
                    return;
                }
            }
        }
    }
    engine.quit();
}

/// A fault probe: how the engine behaved, in words. Every wait it makes is bounded by the
/// time it is given (the check's time per puzzle).
type Probe = fn(&mut Engine, Duration) -> (Status, String);

/// Checks one puzzle; also says whether the engine is still fit for the next (an error
/// ends it).
fn check_puzzle(
    engine: &mut Engine,
    case: &CheckPuzzle,
    optimal: bool,
    cancel: &Arc<AtomicBool>,
    puzzle_time: Duration,
) -> (CheckItem, bool) {
    let options = SolverOptions {
        depth_limit: case.depth,
        ..SolverOptions::default()
    };
    let expected = solver::run(
        reference(&case.puzzle),
        &case.puzzle,
        &SolverOptions {
            depth_limit: case.depth,
            ..SolverOptions::default()
        },
        &Limits::default(),
        &mut NoProbe,
    );
    let expected = match (expected, case.depth) {
        // `fast` and `bfs` take no depth limit: an optimum past it is "none within" it.
        (Ok(report), Some(depth)) => match report.outcome {
            Outcome::Solved { moves } if moves.len() > depth as usize => Outcome::Unsolvable {
                within: Some(depth),
            },
            other => other,
        },
        (Ok(report), None) => report.outcome,
        (Err(error), _) => {
            let detail = format!("the built-in reference could not run: {error}");
            return (CheckItem::new(case.name, Status::Fail, detail), true);
        }
    };
    let limits = Limits {
        time: Some(puzzle_time),
        memory_bytes: None,
        cancel: Some(Arc::clone(cancel)),
    };
    let started = Instant::now();
    let mut gave_up = GaveUpReason::default();
    let report = match engine.solve(&case.puzzle, &options, &limits, &mut gave_up) {
        Ok(report) => report,
        Err(SolveError::UnsupportedRule { rule, .. }) => {
            let detail = format!("the engine does not list the {rule} rule");
            return (CheckItem::new(case.name, Status::Skip, detail), true);
        }
        Err(error) => {
            return (
                CheckItem::new(case.name, Status::Fail, error.to_string()),
                false,
            );
        }
    };
    let took = format!("({:.0} ms)", started.elapsed().as_secs_f64() * 1000.0);
    // A puzzle the engine says it does not take (a board size, a rule, the vortex) is not a
    // wrong answer: the check does not apply to it.
    if report.outcome == Outcome::NotFound
        && let Some(refusal) = gave_up.0.filter(EngineGaveUp::is_refusal)
    {
        let detail = format!("the engine does not take it: {} {took}", refusal.reason);
        return (CheckItem::new(case.name, Status::Skip, detail), true);
    }
    let said = describe(&report.outcome);
    let want = describe(&expected);
    let status = match (&report.outcome, &expected) {
        (Outcome::Solved { moves }, Outcome::Solved { moves: best }) => {
            if moves.len() == best.len() || (!optimal && moves.len() > best.len()) {
                Status::Pass
            } else {
                Status::Fail
            }
        }
        (a, b) if a == b => Status::Pass,
        // An engine that does not claim shortest answers may give up (a search that is not
        // exhaustive); only a wrong claim fails.
        (Outcome::NotFound, _) if !optimal => Status::Pass,
        // "None within N" of a puzzle with no solution at all is true, only weaker (a
        // depth-limited search).
        (Outcome::Unsolvable { within: Some(_) }, Outcome::Unsolvable { within: None }) => {
            Status::Pass
        }
        _ => Status::Fail,
    };
    let detail = if status == Status::Pass {
        format!("{said} {took}")
    } else {
        format!("{said}, expected {want} {took}")
    };
    (CheckItem::new(case.name, status, detail), true)
}

/// Keeps the engine's `gaveup` reason, the one event a check reads.
#[derive(Default)]
struct GaveUpReason(Option<EngineGaveUp>);

impl crate::solver::Probe for GaveUpReason {
    fn event(&mut self, event: impl FnOnce() -> Event) {
        if let Event::Solver(payload) = event()
            && let Some(gave_up) = payload.downcast_ref::<EngineGaveUp>()
        {
            self.0 = Some(gave_up.clone());
        }
    }
}

fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Solved { moves } => format!("solved in {} moves", moves.len()),
        Outcome::Unsolvable { within: None } => "unsolvable".into(),
        Outcome::Unsolvable { within: Some(n) } => format!("none within {n}"),
        Outcome::Invalid { error, .. } => format!("an invalid answer: {error}"),
        other => other.name().to_string(),
    }
}

/// Why no line an engine check waited for came.
#[derive(Debug, thiserror::Error)]
enum WaitError {
    /// The time ran out first.
    #[error("no answer within {} ms", .0.as_millis())]
    Silent(Duration),
    /// The engine could not be read: it exited, or broke the protocol.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// Reads lines until one satisfies `wanted`, for at most `within`; returns the line, or why
/// there was none.
fn wait_for(
    engine: &mut Engine,
    within: Duration,
    wanted: impl Fn(&str) -> bool,
) -> Result<String, WaitError> {
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match engine.read_line(left)? {
            Some(line) if wanted(&line) => return Ok(line),
            Some(_) => {}
            None => return Err(WaitError::Silent(within)),
        }
    }
}

fn is_word(line: &str, word: &str) -> bool {
    line.split_whitespace().next() == Some(word)
}

fn unknown_command(engine: &mut Engine, limit: Duration) -> (Status, String) {
    let sent = engine
        .send_line("frobnicate the widgets=3")
        .and_then(|()| engine.send_line("isready"));
    if let Err(error) = sent {
        return (Status::Fail, error.to_string());
    }
    match wait_for(engine, ANSWER_TIME.min(limit), |l| is_word(l, "readyok")) {
        Ok(_) => (Status::Pass, "readyok after an unknown command".into()),
        Err(why) => (Status::Fail, why.to_string()),
    }
}

fn stop_while_idle(engine: &mut Engine, limit: Duration) -> (Status, String) {
    let sent = engine
        .send_line("stop")
        .and_then(|()| engine.send_line("isready"));
    if let Err(error) = sent {
        return (Status::Fail, error.to_string());
    }
    engine.forget_stop();
    match wait_for(engine, ANSWER_TIME.min(limit), |l| {
        is_word(l, "readyok") || is_word(l, "result")
    }) {
        Ok(line) if is_word(&line, "readyok") => {
            (Status::Pass, "no result for a stop while idle".into())
        }
        Ok(line) => (
            Status::Fail,
            format!("it answered a stop while idle with '{line}'"),
        ),
        Err(why) => (Status::Fail, why.to_string()),
    }
}

fn id_echoed(engine: &mut Engine, limit: Duration) -> (Status, String) {
    let id = "chk-Z_9.x";
    let sent = engine
        .send_line(&protocol::format_puzzle(id, &test_puzzle()))
        .and_then(|()| engine.send_line("go"));
    if let Err(error) = sent {
        return (Status::Fail, error.to_string());
    }
    match wait_for(engine, ID_TIME.min(limit), |l| is_word(l, "result")) {
        Ok(line) => match protocol::parse_answer(&line) {
            Ok(Some(protocol::Answer::Result(result))) if result.id == id => {
                (Status::Pass, format!("'{id}' came back"))
            }
            _ => (Status::Fail, format!("sent id={id}, got '{line}'")),
        },
        Err(why) => (Status::Fail, why.to_string()),
    }
}

fn ready_and_stop_during_search(engine: &mut Engine, limit: Duration) -> (Status, String) {
    let Some(puzzle) = long_puzzle() else {
        return (Status::Skip, "the long puzzle could not be read".into());
    };
    if engine.rules().unsupported(puzzle.rules()).is_some() {
        return (
            Status::Skip,
            "the long puzzle uses a rule the engine does not list".into(),
        );
    }
    let sent = engine
        .send_line(&protocol::format_puzzle("long", &puzzle))
        .and_then(|()| engine.send_line("go"));
    if let Err(error) = sent {
        return (Status::Fail, error.to_string());
    }
    std::thread::sleep(Duration::from_millis(300).min(limit));
    if let Err(error) = engine.send_line("isready") {
        return (Status::Fail, error.to_string());
    }
    let ready = wait_for(engine, ANSWER_TIME.min(limit), |l| {
        is_word(l, "readyok") || is_word(l, "result")
    });
    let finished_early = match ready {
        Ok(line) if is_word(&line, "readyok") => false,
        Ok(_) => true,
        Err(why) => return (Status::Fail, format!("isready during a search: {why}")),
    };
    if finished_early {
        return (
            Status::Pass,
            "the search ended before isready was sent; nothing to stop".into(),
        );
    }
    let stopped = Instant::now();
    if let Err(error) = engine.send_line("stop") {
        return (Status::Fail, error.to_string());
    }
    let result = wait_for(engine, ANSWER_TIME.min(limit), |l| is_word(l, "result"));
    engine.forget_stop();
    match result {
        Ok(_) => (
            Status::Pass,
            format!(
                "readyok during the search; result {} ms after stop",
                stopped.elapsed().as_millis()
            ),
        ),
        Err(why) => (Status::Fail, format!("stop: {why}")),
    }
}
