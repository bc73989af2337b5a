//! A built-in solver speaking the engine protocol, so that other programs (and this one's own
//! driver) can run it as an engine: `ricochet-lab engine serve --solver NAME`.
//!
//! Requests are read on a scoped thread of their own, joined before [`serve`] returns, so
//! that `isready` is answered and `stop` heard while the solver searches on the calling
//! thread. Rows come from the probe's [`depth_finished`](Probe::depth_finished), node and
//! prune events from its events when `go` asks for them, and `stop` is the probe's
//! [`should_stop`](Probe::should_stop).
//!
//! No input ends it but `quit` and the end of the input: a line that is not UTF-8 text, too
//! long or malformed is answered with an `info string` naming it, a malformed `puzzle` also
//! clears the puzzle (so the next `go` is not answered for an older one), and a malformed
//! `go` is answered with `result … gaveup` and the reason.

use super::protocol::{self, Go, Identity, MAX_LINE_BYTES, Request, RowKind};
use crate::model::{Move, Puzzle, RobotColor};
use crate::solver::probe::{DepthStats, Event, Probe, PruneReason};
use crate::solver::{self, Limits, Optimality, Outcome, SolverId, SolverOptions};
use std::io::{BufRead, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
        options: if solver == SolverId::Fast {
            vec![protocol::OptionDecl {
                name: "threads".into(),
                // 0: one thread per core, the solver's own default.
                kind: protocol::OptionKind::Spin {
                    default: 0,
                    min: 0,
                    max: 256,
                },
            }]
        } else {
            Vec::new()
        },
    }
}

/// How often a served search sends an `info` line with its progress.
const INFO_INTERVAL: Duration = Duration::from_millis(250);

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
    let progress = Progress::default();
    let (sender, receiver) = sync_channel::<Incoming>(16);
    std::thread::scope(|scope| {
        let output = &output;
        let stop = &stop;
        let progress = &progress;
        std::thread::Builder::new()
            .name("engine-serve-input".into())
            .spawn_scoped(scope, move || {
                read_requests(input, output, stop, progress, sender);
            })?;
        let mut puzzle: Option<(String, Puzzle)> = None;
        let mut threads: Option<usize> = None;
        while let Ok(incoming) = receiver.recv() {
            let request = match incoming {
                Incoming::Request(request) => request,
                Incoming::BadPuzzle(reason) => {
                    let had = puzzle.take().map(|(id, _)| id);
                    let cleared = match had {
                        Some(id) => format!("; puzzle {id} is cleared, so go has no puzzle"),
                        None => String::new(),
                    };
                    output.line(&format!("info string puzzle ignored: {reason}{cleared}"));
                    progress.handled.fetch_add(1, Ordering::AcqRel);
                    continue;
                }
                Incoming::BadGo(reason) => {
                    let id = puzzle.as_ref().map_or("-", |(id, _)| id.as_str());
                    output.line(&format!("result id={id} gaveup malformed go: {reason}"));
                    progress.handled.fetch_add(1, Ordering::AcqRel);
                    continue;
                }
            };
            match request {
                Request::Rep(offered) => {
                    let version = offered.clamp(1, protocol::VERSION);
                    let mut facts = identity(solver);
                    // Options are version 2's: a driver that offers 1 is declared none.
                    if version < 2 {
                        facts.options.clear();
                    }
                    for line in facts.lines() {
                        output.line(&line);
                    }
                    output.line(&format!("repok {version}"));
                }
                Request::SetOption { name, value } => {
                    let facts = identity(solver);
                    match facts.option(&name).map(|option| option.check_value(&value)) {
                        Some(Ok(value)) if name == "threads" => {
                            threads = value.parse().ok().filter(|&n: &usize| n > 0);
                        }
                        Some(Ok(_)) => {}
                        Some(Err(reason)) => {
                            output.line(&format!(
                                "info string ignored: {}",
                                one_line(&reason.to_string())
                            ));
                        }
                        None => output.line(&format!(
                            "info string ignored: there is no option {}",
                            one_line(&protocol::quote(&name))
                        )),
                    }
                }
                Request::Puzzle(request) => puzzle = Some((request.id, request.puzzle)),
                Request::Go(go) => {
                    stop.store(false, Ordering::Relaxed);
                    let line = match &puzzle {
                        Some((id, puzzle)) => solve(solver, id, puzzle, go, threads, output, stop),
                        None => "result id=- gaveup no puzzle was sent".to_string(),
                    };
                    output.line(&line);
                    progress.searches.fetch_sub(1, Ordering::AcqRel);
                }
                Request::Quit => break,
                // Passed on by the reader when requests before it were still to be answered:
                // answered in its turn, after their lines.
                Request::IsReady => output.line("readyok"),
                // Heard by the reader, which hears it during a search too.
                Request::Stop => {}
            }
            progress.handled.fetch_add(1, Ordering::AcqRel);
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

/// How far the search loop is with what the reader passed on, so that `isready` is answered
/// after the lines of the requests before it, except during a search, where it is answered
/// at once.
#[derive(Default)]
struct Progress {
    /// Requests passed on to the search loop.
    sent: AtomicUsize,
    /// Requests the search loop has answered.
    handled: AtomicUsize,
    /// `go` requests passed on and not yet answered.
    searches: AtomicUsize,
}

/// What the request reader passes on to the search loop.
enum Incoming {
    /// A well-formed request.
    Request(Request),
    /// A `puzzle` line that could not be read, and why: the puzzle is cleared.
    BadPuzzle(String),
    /// A `go` line that could not be read, and why: it is answered with `gaveup`.
    BadGo(String),
}

/// One line of input, as read by [`next_line`].
enum InputLine {
    /// A line of text, without its end of line.
    Text(String),
    /// A line that is not UTF-8 text, its invalid bytes shown as `�`.
    NotUtf8(String),
    /// A line longer than [`MAX_LINE_BYTES`]: its first bytes (the rest was skipped).
    TooLong(String),
}

/// Reads one line of at most [`MAX_LINE_BYTES`] bytes (a longer one is skipped to its end,
/// so memory stays bounded whatever comes); `None` at the end of the input or when it cannot
/// be read.
fn next_line<R: BufRead>(input: &mut R, line: &mut Vec<u8>) -> Option<InputLine> {
    line.clear();
    let mut too_long = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buffer.is_empty() {
            if line.is_empty() && !too_long {
                return None;
            }
            break;
        }
        let (taken, complete) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (end + 1, Some(end)),
            None => (buffer.len(), None),
        };
        let part = &buffer[..complete.unwrap_or(taken)];
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        if part.len() > room {
            too_long = true;
        }
        line.extend_from_slice(&part[..part.len().min(room)]);
        input.consume(taken);
        if complete.is_some() {
            break;
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if too_long {
        let head = String::from_utf8_lossy(&line[..line.len().min(200)]).into_owned();
        return Some(InputLine::TooLong(head));
    }
    Some(match std::str::from_utf8(line) {
        Ok(text) => InputLine::Text(text.to_string()),
        Err(_) => InputLine::NotUtf8(String::from_utf8_lossy(line).into_owned()),
    })
}

/// Reads requests until `quit` or the end of the input: answers `isready` at once when the
/// search loop has answered everything before it or is searching (and passes it on in its
/// turn otherwise), sets the stop flag on `stop`, and passes the rest on. A line that cannot be read as a request is
/// answered with an `info` line naming it and skipped; a `puzzle` or `go` line among them is
/// passed on as such, so that the puzzle is cleared or the `go` answered.
fn read_requests<R: BufRead, W: Write>(
    mut input: R,
    output: &Output<W>,
    stop: &AtomicBool,
    progress: &Progress,
    sender: std::sync::mpsc::SyncSender<Incoming>,
) {
    let mut bytes = Vec::new();
    loop {
        let parsed = match next_line(&mut input, &mut bytes) {
            None => {
                stop.store(true, Ordering::Relaxed);
                let _ = sender.send(Incoming::Request(Request::Quit));
                return;
            }
            Some(InputLine::Text(line)) => protocol::parse_request(&line),
            Some(InputLine::NotUtf8(line)) => Err(protocol::ProtocolError::new(
                &line,
                "the line is not UTF-8 text",
            )),
            Some(InputLine::TooLong(head)) => Err(protocol::ProtocolError::new(
                &head,
                "the line is longer than 1 MiB",
            )),
        };
        let incoming = match parsed {
            Ok(Some(Request::IsReady))
                if progress.searches.load(Ordering::Acquire) > 0
                    || progress.handled.load(Ordering::Acquire)
                        == progress.sent.load(Ordering::Acquire) =>
            {
                output.line("readyok");
                continue;
            }
            Ok(Some(Request::Stop)) => {
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            Ok(Some(Request::Quit)) => {
                stop.store(true, Ordering::Relaxed);
                let _ = sender.send(Incoming::Request(Request::Quit));
                return;
            }
            Ok(Some(request)) => Incoming::Request(request),
            Ok(None) => continue,
            Err(error) => match first_word(&error.line) {
                "puzzle" => Incoming::BadPuzzle(one_line(&error.to_string())),
                "go" => Incoming::BadGo(one_line(&error.to_string())),
                _ => {
                    output.line(&format!(
                        "info string ignored: {}",
                        one_line(&error.to_string())
                    ));
                    continue;
                }
            },
        };
        if matches!(incoming, Incoming::Request(Request::Go(_))) {
            progress.searches.fetch_add(1, Ordering::AcqRel);
        }
        progress.sent.fetch_add(1, Ordering::AcqRel);
        if sender.send(incoming).is_err() {
            return;
        }
    }
}

/// A line's command word.
fn first_word(line: &str) -> &str {
    line.split([' ', '\t'])
        .find(|w| !w.is_empty())
        .unwrap_or("")
}

/// Text fit to follow `info string` on one line: control characters (an end of line above
/// all) shown as `?`.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
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
    /// When the last `info` line was sent.
    last_info: Instant,
    /// The depth under way: one past the last finished row.
    depth: u32,
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
        self.depth = stats.depth + 1;
        self.output
            .line(&row_line(self.row_kind, stats, self.start.elapsed()));
    }

    fn progress(&mut self, nodes: u64, _memory_bytes: usize) {
        let now = Instant::now();
        if now.duration_since(self.last_info) < INFO_INTERVAL {
            return;
        }
        self.last_info = now;
        let seconds = now.duration_since(self.start).as_secs_f64().max(1e-6);
        let info = protocol::SearchInfo {
            depth: Some(self.depth),
            nodes: Some(nodes),
            nps: Some((nodes as f64 / seconds) as u64),
            ..protocol::SearchInfo::default()
        };
        self.output.line(&info.to_string());
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
    threads: Option<usize>,
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
        threads,
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
        last_info: Instant::now(),
        depth: 0,
    };
    // Once per search, before its rows: the lower bound the solver prunes with, as a layer.
    for item in super::lower_bound::lower_bound_drawing(solver, puzzle) {
        output.line(&item.to_string());
    }
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
        // `none N` answers a depth limit sent; a solver's own limit is no such answer.
        Outcome::Unsolvable { within: Some(n) } if go.depth.is_some() => format!("none {n}"),
        Outcome::Unsolvable { within: Some(n) } => {
            format!("gaveup no solution within {n} moves, the solver's own depth limit")
        }
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
mod tests;
