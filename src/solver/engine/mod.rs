//! External engines: solvers in any language, run as processes that speak the Ricochet engine
//! protocol (REP, `docs/engine-protocol.md`) on their standard input and output.
//!
//! An engine is one more solver behind the solver layer's API: a
//! [`SolverChoice::Engine`](super::SolverChoice) runs through [`solver::run`](super::run)
//! like a built-in solver, with the same [`Report`] and the same [`Probe`] calls. Its `row`
//! lines become [`Probe::depth_finished`] rows (its extra counters as
//! [`DepthStats::extra`]), its `node` and `prune` lines become [`Event::Node`] and
//! [`Event::Pruned`] events when the probe wants events, its `info` lines become
//! [`EngineInfo`] events, progress is the sum of its rows' nodes, and [`Probe::should_stop`]
//! and the cancel flag send it `stop`. Every `solved` answer is replayed on the board.
//!
//! - [`protocol`]: every line of the page, parsed and formatted.
//! - [`process`]: the engine's process, its readers and its end.
//! - [`store`]: the engines registered by name in the user's config folder.
//! - [`serve`]: the other way round: a built-in solver speaking REP.
//!
//! For a session of several puzzles on one process (a study), start an [`Engine`] and call
//! [`Engine::solve`] for each; [`test_engine`] runs the handshake and a short puzzle and says
//! in words whether an engine works.

mod answers;
mod check;
mod error;
mod events;
mod identities;
mod kill;
pub mod lower_bound;
pub mod process;
pub mod protocol;
pub mod serve;
mod spec;
pub mod store;

use super::probe::{DepthStats, Event, Probe};
use super::{Outcome, Report, Retired, RuleSupport, SolveError, SolverOptions};
use crate::model::Puzzle;
use crate::solver::intern::intern;
use answers::{KEPT_IDS, depth_stats, fresh_id, prune_reason, robot_cells};
pub use check::{EngineVerdict, test_engine, test_puzzle};
use error::millis_of;
pub use error::{EngineError, EngineProblem};
pub use events::{DrawLayer, EngineDraw, EngineGaveUp, EngineInfo, EngineSearch};
pub use identities::{claims_optimal, known_identity};
use process::{EngineProcess, GRACE, Incoming};
use protocol::{Answer, Go, Identity, ProtocolError};
pub use spec::{CommandLineError, EngineSpec};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How long an engine has to finish its handshake (`repok`) and answer the `isready` after it.
pub const HANDSHAKE_TIME: Duration = Duration::from_secs(10);

/// How often the driver looks at the cancel flag and the probe while it waits for a line:
/// well within the 100 ms a cancel may take.
const POLL: Duration = Duration::from_millis(10);

/// Lines in one run that are neither rows nor asked-for events nor the result (info lines,
/// unknown words, events not asked for): past this many, the engine is flooding its output.
pub const FLOOD_LINES: u64 = 100_000;

/// A running engine, past its handshake, ready for puzzles.
pub struct Engine {
    spec: EngineSpec,
    process: EngineProcess,
    identity: Identity,
    runs: u64,
    /// The ids of the puzzles sent to this engine, the latest last (at most
    /// [`KEPT_IDS`]): a result naming one before the latest is stale.
    sent: std::collections::VecDeque<String>,
    /// Stale results read since [`Engine::take_stale`] was last called: the id they name
    /// and the line.
    stale: Vec<(String, String)>,
    /// A search that was stopped and whose result has not been read yet: its id and when it
    /// was stopped.
    stopped: Option<String>,
}

impl Engine {
    /// Starts the engine and runs the handshake: `rep 1`, its `id` lines and `repok`, then
    /// `isready` and `readyok`, all within [`HANDSHAKE_TIME`].
    pub fn start(spec: &EngineSpec) -> Result<Engine, EngineError> {
        Engine::start_within(spec, HANDSHAKE_TIME)
    }

    /// [`Engine::start`] with another time for each of the two handshake steps.
    pub fn start_within(spec: &EngineSpec, handshake: Duration) -> Result<Engine, EngineError> {
        match Engine::start_unless(spec, handshake, &mut || false)? {
            Some(engine) => Ok(engine),
            // Never asked to stop, the start ends with an engine or an error.
            None => Err(EngineError {
                engine: spec.name.clone(),
                problem: EngineProblem::NoHandshake(millis_of(handshake)),
                stderr: Vec::new(),
            }),
        }
    }

    /// [`Engine::start_within`], given up at once (`Ok(None)`, the engine ended in the
    /// background) when `stop` says so: it is asked every few milliseconds.
    pub fn start_unless(
        spec: &EngineSpec,
        handshake: Duration,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<Option<Engine>, EngineError> {
        let mut process = EngineProcess::spawn(spec)?;
        let mut identity = Identity::default();
        process.send(&format!("rep {}", protocol::VERSION))?;
        let deadline = Instant::now() + handshake;
        let mut last_line = None;
        loop {
            let line = match next_line(&mut process, deadline, &mut last_line, stop)? {
                Some(line) => line,
                None if stop() => {
                    process.end_in_background();
                    return Ok(None);
                }
                None => {
                    let error = process.error(EngineProblem::NoHandshake(millis_of(handshake)));
                    process.kill();
                    return Err(error);
                }
            };
            match protocol::parse_answer(&line) {
                Ok(Some(Answer::Id(pairs))) => identity.add(&pairs),
                Ok(Some(Answer::Option(option))) => identity.declare(option),
                Ok(Some(Answer::RepOk(version))) => {
                    if version == 0 || version > protocol::VERSION {
                        let error = process.error(EngineProblem::Version(version));
                        process.kill();
                        return Err(error);
                    }
                    // A version 1 engine declares no options, whatever lines it sent.
                    if version < 2 {
                        identity.options.clear();
                    }
                    identities::remember(spec, &identity);
                    if let Err(problem) = set_options(&mut process, spec, &identity, version) {
                        let error = process.error(problem);
                        process.kill();
                        return Err(error);
                    }
                    break;
                }
                Ok(_) => {}
                Err(error) => {
                    let error = process.error(EngineProblem::Malformed(error));
                    process.kill();
                    return Err(error);
                }
            }
        }
        let mut engine = Engine {
            spec: spec.clone(),
            process,
            identity,
            runs: 0,
            sent: std::collections::VecDeque::new(),
            stale: Vec::new(),
            stopped: None,
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if !engine.is_ready_unless(handshake.min(left.max(POLL)), stop)? {
            engine.process.end_in_background();
            return Ok(None);
        }
        Ok(Some(engine))
    }

    /// What the engine said about itself.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// How the engine was started.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The engine's process id.
    pub fn process_id(&self) -> u32 {
        self.process.id()
    }

    /// The last lines of the engine's standard error.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.process.stderr_tail()
    }

    /// The rule options the engine supports.
    pub fn rules(&self) -> RuleSupport {
        RuleSupport {
            ricochet: self.identity.ricochet,
            no_rebound: self.identity.no_rebound,
        }
    }

    /// Sends `isready` and waits for `readyok`, at most `within`. Other lines are read and
    /// set aside as the protocol allows (a late result of a stopped search is dropped).
    pub fn is_ready(&mut self, within: Duration) -> Result<(), EngineError> {
        self.is_ready_unless(within, &mut || false).map(|_| ())
    }

    /// [`Engine::is_ready`], given up at once (`Ok(false)`) when `stop` says so.
    fn is_ready_unless(
        &mut self,
        within: Duration,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<bool, EngineError> {
        self.process.send("isready")?;
        let deadline = Instant::now() + within;
        let mut last_line = None;
        loop {
            let Some(line) = next_line(&mut self.process, deadline, &mut last_line, stop)? else {
                if stop() {
                    return Ok(false);
                }
                return Err(self
                    .process
                    .error(EngineProblem::NotReady(millis_of(within))));
            };
            match protocol::parse_answer(&line) {
                Ok(Some(Answer::ReadyOk)) => return Ok(true),
                Ok(Some(Answer::Result(result))) if self.stopped.as_ref() == Some(&result.id) => {
                    self.stopped = None;
                    self.process.stop_answered();
                }
                Ok(_) => {}
                Err(error) => return Err(self.process.error(EngineProblem::Malformed(error))),
            }
        }
    }

    /// Sends a raw line, as a fault probe does.
    pub fn send_line(&mut self, line: &str) -> Result<(), EngineError> {
        self.process.send(line)
    }

    /// Reads the engine's next raw line, waiting at most `within`; `Ok(None)` when it sent
    /// none in time. For fault probes, which look at lines themselves.
    pub fn read_line(&mut self, within: Duration) -> Result<Option<String>, EngineError> {
        let mut last_line = None;
        next_line(
            &mut self.process,
            Instant::now() + within,
            &mut last_line,
            &mut || false,
        )
    }

    /// The id the last puzzle was sent with.
    pub fn last_id(&self) -> Option<&str> {
        self.sent.back().map(String::as_str)
    }

    /// The stale results read since the last call, each the id of the earlier puzzle it
    /// names and its line: a second result for a puzzle already answered, or one sent after
    /// the driver stopped waiting. They are set aside, never taken for the puzzle then
    /// solved.
    pub fn take_stale(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.stale)
    }

    /// Marks a search started with raw lines as stopped and its result as read, so the next
    /// [`solve`](Engine::solve) does not wait for it.
    pub fn forget_stop(&mut self) {
        self.stopped = None;
        self.process.stop_answered();
    }

    /// Solves one puzzle: sends it with `go` and its limits, turns every row and event into
    /// probe calls, and returns the report with the answer replayed. A cancel (the flag or
    /// the probe) sends `stop` and returns at once, marked cancelled; the engine's late
    /// result is read before the next puzzle, within a grace of one second.
    ///
    /// A rule option the engine does not list is refused before anything is sent.
    pub fn solve<P: Probe>(
        &mut self,
        puzzle: &Puzzle,
        options: &SolverOptions,
        limits: &super::Limits,
        probe: &mut P,
    ) -> Result<Report, SolveError> {
        let name = intern(&self.spec.name);
        if let Some(rule) = self.rules().unsupported(puzzle.rules()) {
            return Err(SolveError::UnsupportedRule { solver: name, rule });
        }
        self.solve_inner(name, puzzle, options, limits, probe)
            .map_err(SolveError::Engine)
    }

    fn settle_stopped_search(&mut self) -> Result<(), EngineError> {
        if self.stopped.is_none() {
            return Ok(());
        }
        let deadline = Instant::now() + GRACE;
        let mut last_line = None;
        while self.stopped.is_some() {
            let Some(line) = next_line(&mut self.process, deadline, &mut last_line, &mut || false)?
            else {
                return Err(self.process.error(EngineProblem::IgnoredStop));
            };
            if let Ok(Some(Answer::Result(result))) = protocol::parse_answer(&line)
                && self.stopped.as_ref() == Some(&result.id)
            {
                self.stopped = None;
                self.process.stop_answered();
            }
        }
        Ok(())
    }

    fn solve_inner<P: Probe>(
        &mut self,
        name: &'static str,
        puzzle: &Puzzle,
        options: &SolverOptions,
        limits: &super::Limits,
        probe: &mut P,
    ) -> Result<Report, EngineError> {
        self.settle_stopped_search()?;
        self.runs += 1;
        let id = fresh_id();
        if self.sent.len() >= KEPT_IDS {
            self.sent.pop_front();
        }
        self.sent.push_back(id.clone());
        let wants_events = probe.wants_events();
        let go = Go {
            depth: options.depth_limit,
            time_millis: limits
                .time
                .map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            events: wants_events && self.identity.events,
        };
        self.process.send(&protocol::format_puzzle(&id, puzzle))?;
        let start = Instant::now();
        self.process.send(&protocol::Request::Go(go).to_string())?;
        let deadline = limits.time.and_then(|t| start.checked_add(t));
        let mut time_stop: Option<Instant> = None;
        let mut depths: Vec<DepthStats> = Vec::new();
        let mut nodes: u64 = 0;
        let mut idle_lines: u64 = 0;
        let mut last_line: Option<String> = None;
        let end = |outcome, depths, nodes| engine_report(name, outcome, depths, start, nodes);
        loop {
            let cancelled = probe.should_stop()
                || limits
                    .cancel
                    .as_ref()
                    .is_some_and(|c| c.load(Ordering::Relaxed));
            if cancelled && time_stop.is_none() {
                // The wait ends at once; the result is read (or the engine killed) later.
                self.process.send("stop")?;
                self.stopped = Some(id);
                return Ok(end(Outcome::Cancelled, depths, nodes));
            }
            let now = Instant::now();
            match time_stop {
                None if deadline.is_some_and(|d| now >= d) => {
                    self.process.send("stop")?;
                    time_stop = Some(now);
                }
                Some(sent) if now >= sent + GRACE => {
                    let limit = go.time_millis.unwrap_or(0);
                    return Err(self.process.error(EngineProblem::Hung(limit)));
                }
                _ => {}
            }
            // A poll's wait at most, so that the cancel and the time limit are heard.
            let Some(line) =
                next_line(&mut self.process, now + POLL, &mut last_line, &mut || false)?
            else {
                continue;
            };
            let answer = match protocol::parse_answer(&line) {
                Ok(answer) => answer,
                Err(error) => return Err(self.process.error(EngineProblem::Malformed(error))),
            };
            let mut counts = false;
            match answer {
                Some(Answer::Row(row)) => {
                    counts = true;
                    nodes = nodes.saturating_add(row.nodes);
                    let stats = depth_stats(&row);
                    probe.depth_finished(&stats);
                    probe.event(|| Event::IterationFinished(stats.clone()));
                    probe.progress(nodes, 0);
                    depths.push(stats);
                }
                Some(Answer::Node(node)) if go.events => {
                    counts = true;
                    let Some(cells) = robot_cells(puzzle, &node.robots) else {
                        return Err(self
                            .process
                            .error(EngineProblem::WrongRobots(process::quoted(&line))));
                    };
                    probe.event(|| Event::Node {
                        depth: node.path.len() as u32,
                        cells,
                        path: node.path.clone(),
                    });
                }
                Some(Answer::Prune(prune)) if go.events => {
                    counts = true;
                    probe.event(|| Event::Pruned {
                        depth: prune.path.len() as u32,
                        reason: prune_reason(&prune.reason, &prune.numbers),
                    });
                }
                Some(Answer::Info(text)) => {
                    probe.event(|| Event::solver(EngineInfo { text: text.clone() }));
                }
                Some(Answer::Search(info)) if !info.is_empty() => {
                    if let Some(total) = info.nodes {
                        probe.progress(total.max(nodes), 0);
                    }
                    probe.event(|| Event::solver(EngineSearch { info }));
                }
                Some(Answer::Draw(item)) => {
                    // A drawing per node is part of the event stream asked for.
                    counts = go.events;
                    probe.event(|| Event::solver(EngineDraw { item }));
                }
                Some(Answer::Ignored(error)) => {
                    log_line(probe, format!("ignored a malformed line: {error}"));
                }
                Some(Answer::Result(result))
                    if result.id != id && self.sent.contains(&result.id) =>
                {
                    self.set_aside_stale(&result.id, &line, probe);
                }
                Some(Answer::Result(result)) => {
                    return answers::check_result_id(&result, &id, &line)
                        .and_then(|()| {
                            let by_time = time_stop.is_some();
                            if by_time {
                                self.process.stop_answered();
                            }
                            let verdict = result.verdict;
                            answers::outcome_of(verdict, puzzle, go.depth, by_time, &line, probe)
                        })
                        .map_err(|problem| self.process.error(problem))
                        .map(|outcome| end(outcome, depths, nodes));
                }
                // Lines that say nothing during a search: an empty line, nodes and cuts not
                // asked for (`go` without `events`), an `info` with no key, and handshake lines
                // out of their place. Every answer is named, so a new one must be placed here.
                None
                | Some(Answer::Node(_) | Answer::Prune(_) | Answer::Search(_))
                | Some(Answer::Id(_) | Answer::RepOk(_) | Answer::ReadyOk | Answer::Option(_)) => {}
            }
            if !counts {
                idle_lines += 1;
                if idle_lines > FLOOD_LINES {
                    return Err(self
                        .process
                        .error(EngineProblem::Flood(process::quoted(&line))));
                }
            }
        }
    }

    /// Sets aside a result of an earlier puzzle (`id`): stale, with a line in the engine's
    /// log, and never the answer of the puzzle being solved nor its fault.
    fn set_aside_stale<P: Probe>(&mut self, id: &str, line: &str, probe: &mut P) {
        log_line(
            probe,
            format!("ignored a stale result for the earlier puzzle {id}: {line}"),
        );
        self.stale.push((id.to_string(), process::quoted(line)));
    }

    /// Ends the engine: `quit`, a grace of one second, then a kill.
    pub fn quit(self) {
        self.process.end();
    }

    /// Ends the engine now, without a grace.
    pub fn kill(self) {
        self.process.kill();
    }
}

/// A line for the engine's log, as an [`EngineInfo`] event.
fn log_line<P: Probe>(probe: &mut P, text: String) {
    probe.event(|| Event::solver(EngineInfo { text }));
}

/// An engine run's report: an engine is one process of one thread as far as the lab can
/// tell, and its memory and CPU time are its own (not measured).
fn engine_report(
    solver: &'static str,
    outcome: Outcome,
    depths: Vec<DepthStats>,
    started: Instant,
    nodes: u64,
) -> Report {
    Report {
        solver,
        outcome,
        depths,
        elapsed: started.elapsed(),
        peak_memory: 0,
        nodes,
        threads: 1,
        cpu_millis: None,
        huge_page_bytes: None,
    }
}

/// Sends the spec's options as `setoption` lines, each checked against the engine's
/// declaration first: an option it does not declare, or a value the declaration refuses, is
/// the user's mistake, named before any puzzle is sent.
fn set_options(
    process: &mut EngineProcess,
    spec: &EngineSpec,
    identity: &Identity,
    version: u32,
) -> Result<(), EngineProblem> {
    if spec.options.is_empty() {
        return Ok(());
    }
    if version < 2 {
        return Err(EngineProblem::BadOption(format!(
            "it speaks protocol version {version}, which has no options, but was given {}",
            spec.options_text()
        )));
    }
    for (name, value) in &spec.options {
        let Some(declared) = identity.option(name) else {
            let known: Vec<&str> = identity.options.iter().map(|o| o.name.as_str()).collect();
            return Err(EngineProblem::BadOption(format!(
                "it has no option '{}'; {}",
                protocol::quote(name),
                if known.is_empty() {
                    "it declares none".to_string()
                } else {
                    format!("its options are {}", known.join(", "))
                }
            )));
        };
        let value = declared
            .check_value(value)
            .map_err(|refused| EngineProblem::BadOption(refused.to_string()))?;
        let line = protocol::Request::SetOption {
            name: name.clone(),
            value,
        }
        .to_string();
        if let Err(error) = process.send(&line) {
            return Err(error.problem);
        }
    }
    Ok(())
}

/// A line that is not UTF-8 text: an `info` line is kept with its invalid bytes shown as
/// `�` (free text in another encoding harms nothing); any other is malformed.
fn accept_not_utf8(process: &EngineProcess, line: String) -> Result<String, EngineError> {
    if matches!(protocol::parse_answer(&line), Ok(Some(Answer::Info(_)))) {
        return Ok(line);
    }
    Err(process.error(EngineProblem::Malformed(ProtocolError::new(
        &line,
        "the line is not UTF-8 text",
    ))))
}

/// The next line before `deadline`; `Ok(None)` past it, or as soon as `stop` says so (it is
/// asked every [`POLL`]). A closed output or an overlong line is the engine's error;
/// `last_line` keeps the line before, for the error that names it.
fn next_line(
    process: &mut EngineProcess,
    deadline: Instant,
    last_line: &mut Option<String>,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Option<String>, EngineError> {
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stop() {
            return Ok(None);
        }
        let incoming = match process.receive(left.min(POLL))? {
            None => continue,
            Some(Incoming::NotUtf8(line)) => Incoming::Line(accept_not_utf8(process, line)?),
            Some(other) => other,
        };
        match incoming {
            Incoming::NotUtf8(_) => continue,
            Incoming::Line(line) => {
                *last_line = Some(line.clone());
                return Ok(Some(line));
            }
            Incoming::TooLong(head) => {
                return Err(process.error(EngineProblem::LineTooLong(head)));
            }
            Incoming::Closed(read_error) => {
                let status = read_error
                    .map(|error| format!("its output could not be read: {error}"))
                    .unwrap_or_else(|| process.exit_status_soon());
                return Err(process.error(EngineProblem::Exited {
                    status,
                    line: last_line.as_deref().map(process::quoted),
                }));
            }
        }
    }
}

/// Runs one puzzle on a freshly started engine and ends it: the path
/// [`solver::run`](super::run) takes for a [`SolverChoice::Engine`](super::SolverChoice).
/// The time limit bounds the whole run, the handshake included; a cancel is heard during the
/// handshake too. After a cancel the engine is handed back in the [`Retired`] tables, so the
/// caller answers first; dropping them ends it in the background (its grace, then a kill).
pub(crate) fn run_once<P: Probe>(
    spec: &EngineSpec,
    puzzle: &Puzzle,
    options: &SolverOptions,
    limits: &super::Limits,
    probe: &mut P,
) -> Result<(Report, Retired), SolveError> {
    let started = Instant::now();
    let handshake = limits
        .time
        .map_or(HANDSHAKE_TIME, |time| time.min(HANDSHAKE_TIME));
    let cancel = limits.cancel.clone();
    let mut stop =
        || probe.should_stop() || cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
    let started_engine = Engine::start_unless(spec, handshake, &mut stop);
    let Some(mut engine) = started_engine.map_err(SolveError::Engine)? else {
        let report = engine_report(
            intern(&spec.name),
            Outcome::Cancelled,
            Vec::new(),
            started,
            0,
        );
        return Ok((report, Retired::default()));
    };
    // What the handshake took is taken from the search's time.
    let limits = super::Limits {
        time: limits
            .time
            .map(|time| time.saturating_sub(started.elapsed()).max(POLL)),
        ..limits.clone()
    };
    let result = engine.solve(puzzle, options, &limits, probe);
    match &result {
        Ok(report) if report.outcome == Outcome::Cancelled => {
            let retired = Retired(vec![Box::new(engine.process)]);
            return result.map(|report| (report, retired));
        }
        Ok(_) => engine.quit(),
        // An engine that failed is not waited for.
        Err(_) => engine.kill(),
    }
    result.map(|report| (report, Retired::default()))
}

/// An engine shared between the solver choices that name it.
pub type SharedSpec = Arc<EngineSpec>;
