//! A built-in solver speaking the engine protocol, so that other programs (and this one's own
//! driver) can run it as an engine: `ricochet-lab engine serve --solver NAME`.
//!
//! Requests are read on a scoped thread of their own, joined before [`serve`] returns, so
//! that `isready` is answered and `stop` heard while the solver searches on the calling
//! thread. Rows come from the probe's [`depth_finished`](Probe::depth_finished), node and
//! prune events from its events when `go` asks for them, and `stop` is the probe's
//! [`should_stop`](Probe::should_stop).

use super::protocol::{self, Go, Identity, Request, RowKind};
use crate::model::{Move, Puzzle, RobotColor};
use crate::solver::probe::{DepthStats, Event, Probe, PruneReason};
use crate::solver::{self, Limits, Optimality, Outcome, SolverId, SolverOptions};
use std::io::{BufRead, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::sync_channel;
use std::time::{Duration, Instant};

/// What the engine tells a driver about a built-in solver.
pub fn identity(solver: SolverId) -> Identity {
    let kind = solver.kind();
    let depth = kind.columns.depth.to_ascii_lowercase();
    Identity {
        name: Some(kind.name.to_string()),
        author: Some("Ricochet Lab".into()),
        version: Some(env!("CARGO_PKG_VERSION").into()),
        rows: if depth.contains("bound") {
            RowKind::Bound
        } else if depth.contains("depth") {
            RowKind::Depth
        } else {
            RowKind::Level
        },
        optimal: kind.optimality == Optimality::Guaranteed,
        events: true,
        ricochet: kind.rules.ricochet,
        no_rebound: kind.rules.no_rebound,
    }
}

/// The output, shared by the solver's thread and the request reader, each line written whole
/// and flushed.
struct Output<W: Write> {
    writer: Mutex<W>,
    failed: AtomicBool,
}

impl<W: Write> Output<W> {
    fn line(&self, line: &str) {
        // The writer holds no state a panic could leave half-changed.
        let mut writer = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let written = writer
            .write_all(line.as_bytes())
            .and_then(|()| writer.write_all(b"\n"))
            .and_then(|()| writer.flush());
        if written.is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
    }
}

/// Serves `solver` on `input` and `output` until `quit` or the end of the input. Returns an
/// error only when the output could not be written (the driver is gone).
pub fn serve<R, W>(solver: SolverId, input: R, output: W) -> std::io::Result<()>
where
    R: BufRead + Send,
    W: Write + Send,
{
    let output = Output {
        writer: Mutex::new(output),
        failed: AtomicBool::new(false),
    };
    let stop = AtomicBool::new(false);
    let (sender, receiver) = sync_channel::<Request>(16);
    std::thread::scope(|scope| {
        let output = &output;
        let stop = &stop;
        std::thread::Builder::new()
            .name("engine-serve-input".into())
            .spawn_scoped(scope, move || read_requests(input, output, stop, sender))?;
        let mut puzzle: Option<(String, Puzzle)> = None;
        while let Ok(request) = receiver.recv() {
            match request {
                Request::Rep(_) => {
                    for line in identity(solver).lines() {
                        output.line(&line);
                    }
                    output.line(&format!("repok {}", protocol::VERSION));
                }
                Request::Puzzle(request) => puzzle = Some((request.id, request.puzzle)),
                Request::Go(go) => {
                    stop.store(false, Ordering::Relaxed);
                    let line = match &puzzle {
                        Some((id, puzzle)) => solve(solver, id, puzzle, go, output, stop),
                        None => "result id=- gaveup no puzzle was sent".to_string(),
                    };
                    output.line(&line);
                }
                Request::Quit => break,
                // Answered by the reader, which hears them during a search too.
                Request::IsReady | Request::Stop => {}
            }
            if output.failed.load(Ordering::Relaxed) {
                break;
            }
        }
        Ok::<(), std::io::Error>(())
    })?;
    if output.failed.load(Ordering::Relaxed) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::BrokenPipe,
            "the driver stopped reading",
        ));
    }
    Ok(())
}

/// Reads requests until `quit` or the end of the input: answers `isready` at once, sets the
/// stop flag on `stop`, and passes the rest on. A malformed line is answered with an `info`
/// line naming it, and skipped.
fn read_requests<R: BufRead, W: Write>(
    mut input: R,
    output: &Output<W>,
    stop: &AtomicBool,
    sender: std::sync::mpsc::SyncSender<Request>,
) {
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => {
                stop.store(true, Ordering::Relaxed);
                let _ = sender.send(Request::Quit);
                return;
            }
            Ok(_) => {}
        }
        match protocol::parse_request(&line) {
            Ok(Some(Request::IsReady)) => output.line("readyok"),
            Ok(Some(Request::Stop)) => stop.store(true, Ordering::Relaxed),
            Ok(Some(Request::Quit)) => {
                stop.store(true, Ordering::Relaxed);
                let _ = sender.send(Request::Quit);
                return;
            }
            Ok(Some(request)) => {
                if sender.send(request).is_err() {
                    return;
                }
            }
            Ok(None) => {}
            Err(error) => output.line(&format!("info string ignored: {error}")),
        }
    }
}

/// The probe of a served search: rows and asked-for events become lines, and the stop flag
/// stops the search.
struct ServeProbe<'a, W: Write> {
    output: &'a Output<W>,
    stop: &'a AtomicBool,
    events: bool,
    colors: Vec<RobotColor>,
    width: u16,
    row_kind: RowKind,
    start: Instant,
    last_path: Vec<Move>,
}

impl<W: Write> Probe for ServeProbe<'_, W> {
    fn wants_events(&self) -> bool {
        self.events
    }

    fn event(&mut self, event: impl FnOnce() -> Event) {
        if !self.events {
            return;
        }
        match event() {
            Event::Node { cells, path, .. } => {
                let robots = self
                    .colors
                    .iter()
                    .zip(cells.as_slice())
                    .map(|(&color, &cell)| {
                        (
                            color,
                            crate::model::Pos::new(cell % self.width, cell / self.width),
                        )
                    });
                self.output.line(&format!(
                    "node path={} robots={}",
                    protocol::format_path(&path),
                    protocol::format_robots(robots)
                ));
                self.last_path = path;
            }
            Event::Pruned { reason, .. } => {
                self.output.line(&format!(
                    "prune path={} {}",
                    protocol::format_path(&self.last_path),
                    prune_words(reason)
                ));
            }
            _ => {}
        }
    }

    fn depth_finished(&mut self, stats: &DepthStats) {
        self.output
            .line(&row_line(self.row_kind, stats, self.start.elapsed()));
    }

    fn should_stop(&mut self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.output.failed.load(Ordering::Relaxed)
    }
}

/// A prune reason as the page writes it: `reason=WORD` and its numbers.
fn prune_words(reason: PruneReason) -> String {
    match reason {
        PruneReason::DepthLimit => "reason=depth".into(),
        PruneReason::LowerBound { bound, remaining } => {
            format!("reason=bound bound={bound} remaining={remaining}")
        }
        PruneReason::TableHit { stored } => format!("reason=table stored={stored}"),
        PruneReason::Visited => "reason=seen".into(),
        PruneReason::Other(word) => format!("reason={}", key_of(word)),
    }
}

/// A name as a protocol key: lower case, white space as `_`, other characters left out.
fn key_of(name: &str) -> String {
    let key: String = name
        .chars()
        .map(|c| {
            if c.is_whitespace() {
                '_'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .filter(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
        .collect();
    if key.is_empty() { "other".into() } else { key }
}

/// A built-in row as a `row` line: its depth, nodes, time since `go`, its second and third
/// counters as `inner=` and `hits=`, and its extra counters by name.
fn row_line(kind: RowKind, stats: &DepthStats, elapsed: Duration) -> String {
    let mut counters = vec![
        ("inner".to_string(), stats.inner),
        ("hits".to_string(), stats.hits),
    ];
    for (name, value) in &stats.extra {
        let key = key_of(name);
        if !["depth", "bound", "level", "nodes", "time", "inner", "hits"].contains(&key.as_str()) {
            counters.push((key, *value));
        }
    }
    protocol::format_row(
        kind,
        &protocol::Row {
            depth: stats.depth,
            nodes: stats.nodes,
            time_millis: Some(u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX)),
            counters,
        },
    )
}

/// Runs one search and returns its `result` line.
fn solve<W: Write>(
    solver: SolverId,
    id: &str,
    puzzle: &Puzzle,
    go: Go,
    output: &Output<W>,
    stop: &AtomicBool,
) -> String {
    let kind = solver.kind();
    let depth_limit = match (go.depth, kind.deepest_limit) {
        (Some(depth), Some(deepest)) => Some(depth.clamp(1, deepest)),
        _ => None,
    };
    let options = SolverOptions {
        depth_limit,
        ..SolverOptions::default()
    };
    let limits = Limits {
        time: go.time_millis.map(Duration::from_millis),
        ..Limits::default()
    };
    let mut probe = ServeProbe {
        output,
        stop,
        events: go.events,
        colors: puzzle.robots().iter().map(|r| r.color).collect(),
        width: puzzle.board().width(),
        row_kind: identity(solver).rows,
        start: Instant::now(),
        last_path: Vec::new(),
    };
    let report = match solver::run(solver, puzzle, &options, &limits, &mut probe) {
        Ok(report) => report,
        Err(error) => return format!("result id={id} gaveup {error}"),
    };
    let optimal = kind.optimality == Optimality::Guaranteed;
    let verdict = match report.outcome {
        Outcome::Solved { moves } => match go.depth {
            Some(depth) if moves.len() > depth as usize => {
                if optimal {
                    // The shortest solution is longer than the limit: none within it exists.
                    format!("none {depth}")
                } else {
                    format!("gaveup only a solution of {} moves was found", moves.len())
                }
            }
            _ => {
                let mut line = "solved".to_string();
                for mv in moves {
                    line.push_str(&format!(" {mv}"));
                }
                line
            }
        },
        Outcome::Unsolvable { within: None } => "unsolvable".into(),
        Outcome::Unsolvable { within: Some(n) } => format!("none {n}"),
        Outcome::NotFound => "gaveup no solution found; the search is not exhaustive".into(),
        Outcome::Cancelled => "gaveup stopped".into(),
        Outcome::TimeLimit => "gaveup time limit".into(),
        Outcome::MemoryLimit => "gaveup memory limit".into(),
        Outcome::Invalid { error, .. } => format!("gaveup internal error: {error}"),
    };
    format!("result id={id} {verdict}")
}

/// Serves on a pair of in-memory streams, for tests: the requests' text in, the answers'
/// text out.
pub fn serve_text(solver: SolverId, requests: &str) -> String {
    let mut out = Vec::new();
    // Writing to a vector cannot fail.
    let _ = serve(solver, requests.as_bytes(), &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_served_solver_answers_the_pages_session() {
        let requests = "rep 1\nisready\npuzzle id=p1 size=4x3 walls=d1139002c446 closed=- robots=R@0,0;B@3,2 goal=R@3,0 targets=R:circle@3,0 rules=-\ngo depth=20 events=1\nquit\n";
        let out = serve_text(SolverId::Bfs, requests);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.contains(&"id name=bfs"), "{out}");
        assert!(lines.contains(&"repok 1"), "{out}");
        assert!(lines.contains(&"readyok"), "{out}");
        assert!(lines.iter().any(|l| l.starts_with("row level=")), "{out}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("node path=- robots=R@0,0;B@3,2")),
            "{out}"
        );
        assert_eq!(lines.last(), Some(&"result id=p1 solved RE"), "{out}");
    }

    #[test]
    fn a_depth_limit_below_the_optimum_is_none_within_it() {
        let puzzle = crate::testing::small();
        let requests = format!(
            "rep 1\n{}\ngo depth=3\nquit\n",
            protocol::format_puzzle("q", &puzzle)
        );
        for solver in [SolverId::Bfs, SolverId::Iddfs] {
            let out = serve_text(solver, &requests);
            assert_eq!(
                out.lines().last(),
                Some("result id=q none 3"),
                "{solver}: {out}"
            );
        }
    }
}
