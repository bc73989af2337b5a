//! An engine's process: started with its pipes, read line by line with every bound the
//! protocol sets, and always ended, on every path (a finished run, an error, a cancel, a panic
//! that drops it).
//!
//! Two reader threads serve each process, named after the engine: one turns its standard
//! output into lines on a bounded channel, one keeps the last lines of its standard error.
//!
//! The driver waits for the process, never for its pipes: a process the engine started may
//! hold them open long after the engine has gone (a helper in a session of its own, out of
//! reach of the process group). Once the engine has exited, what it wrote is read within
//! [`EXIT_DRAIN`] and the run ends; ending it kills its process group and any process still
//! holding its output, and a reader that does not end at once is left to end on its own.
//! Letting go of a process without ending it ([`Drop`]) ends it on a thread of its own, so
//! whoever lets go (a worker that has answered a cancel, the app) never waits for its grace.

use super::kill::{MARK_VAR, kill_group, kill_marked, kill_pipe_holders, pipe_identity};
use super::protocol::{self, MAX_LINE_BYTES};
use super::{EngineError, EngineProblem, EngineSpec};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How many lines of the engine's standard error are kept.
pub const STDERR_LINES: usize = 50;

/// The most characters of one standard-error line kept.
const STDERR_LINE_CHARS: usize = 400;

/// Lines read from the engine but not yet taken by the driver. With lines of at most
/// [`MAX_LINE_BYTES`], the channel holds at most 64 MiB; an engine that writes faster than the
/// driver reads waits on its pipe.
const LINE_CHANNEL: usize = 64;

/// How long an engine may take to end after `quit`, or to answer a `stop`.
pub const GRACE: Duration = Duration::from_secs(1);

/// How long the lines an engine wrote before it exited are still read after its exit is
/// seen: they are in its pipe already, so this is ample; a pipe still open past it is held by
/// a process the engine started, which the run does not wait for.
pub const EXIT_DRAIN: Duration = Duration::from_millis(200);

/// How long ending a process waits for its readers to end after the process has gone, before
/// and after killing whatever still holds its pipes.
const READER_WAIT: Duration = Duration::from_millis(100);

/// The processes being ended on threads of their own (see [`EngineProcess`]'s drop), by
/// process id, so that a program about to exit can kill them at once
/// ([`kill_processes_being_ended`]).
static ENDING: Mutex<Vec<Ending>> = Mutex::new(Vec::new());

/// What ending an engine's processes takes: its process id (and group), the mark its
/// environment carries into every process it starts, and its pipes.
#[derive(Clone, Debug)]
struct Ending {
    pid: u32,
    mark: String,
    pipes: Vec<u64>,
}

impl Ending {
    /// Kills the engine's group, every process that carries its mark (one that left the group
    /// and the session: a daemon, pipes closed or not) and every process holding its pipes.
    fn kill_all(&self) {
        kill_group(self.pid);
        kill_marked(&self.mark);
        kill_pipe_holders(&self.pipes);
    }
}

/// A fresh mark for the next engine started.
fn next_mark() -> String {
    static STARTED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let count = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{}-{count}", std::process::id())
}

/// Kills at once (with their process groups) the engines still being ended in the
/// background, for a program about to exit: they have been sent `stop` or `quit`, and would
/// otherwise outlive it when they ignore them.
pub fn kill_processes_being_ended() {
    // The list holds plain ids, consistent after any panic that left it locked.
    let ending = ENDING.lock().unwrap_or_else(PoisonError::into_inner);
    for engine in ending.iter() {
        engine.kill_all();
    }
}

/// What the standard-output reader passes on.
#[derive(Debug)]
pub(super) enum Incoming {
    /// One line, without its end of line.
    Line(String),
    /// A line that is not UTF-8 text, each invalid byte shown as `�`.
    NotUtf8(String),
    /// A line longer than the protocol allows (its first bytes); reading has stopped.
    TooLong(String),
    /// The engine closed its standard output (it exited, or is about to); with the read
    /// error, if one ended it.
    Closed(Option<String>),
}

/// A running engine process and its readers.
pub struct EngineProcess {
    name: String,
    /// The process; `None` only once it was moved to the thread that ends it.
    child: Option<Child>,
    pid: u32,
    /// The identities of its output and error pipes, to find a process that still holds them
    /// after the engine has gone.
    pipes: Vec<u64>,
    /// The value of [`MARK_VAR`] in its environment and its children's.
    mark: String,
    /// When the driver first saw that the process had exited.
    exit_seen: Option<Instant>,
    stdin: Option<ChildStdin>,
    lines: Option<Receiver<Incoming>>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    readers: Vec<JoinHandle<()>>,
    /// When the engine was last asked to stop or quit: ending it waits for it until then plus
    /// [`GRACE`].
    asked_to_end: Option<Instant>,
    ended: bool,
}

impl EngineProcess {
    /// Starts the engine's command with piped standard input, output and error, in its own
    /// process group (so that ending it also ends any process it started), in its folder when
    /// it names one.
    pub fn spawn(spec: &EngineSpec) -> Result<EngineProcess, EngineError> {
        let no_start = |reason: String| EngineError {
            engine: spec.name.clone(),
            problem: EngineProblem::DidNotStart(reason),
            stderr: Vec::new(),
        };
        let Some((program, args)) = spec.command.split_first() else {
            return Err(no_start("its command is empty".into()));
        };
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mark = next_mark();
        command.env(MARK_VAR, &mark);
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command.spawn().map_err(|error| {
            no_start(match &spec.dir {
                Some(dir) => format!("'{program}' in {}: {error}", dir.display()),
                None => format!("'{program}': {error}"),
            })
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr_pipe = child.stderr.take();
        let mut pipes = Vec::new();
        pipes.extend(stdout.as_ref().and_then(pipe_identity));
        pipes.extend(stderr_pipe.as_ref().and_then(pipe_identity));
        let mut process = EngineProcess {
            name: spec.name.clone(),
            pid: child.id(),
            child: Some(child),
            pipes,
            mark,
            exit_seen: None,
            stdin,
            lines: None,
            stderr: Arc::new(Mutex::new(VecDeque::new())),
            readers: Vec::new(),
            asked_to_end: None,
            ended: false,
        };
        let (sender, receiver) = sync_channel(LINE_CHANNEL);
        process.lines = Some(receiver);
        let thread_name = |stream: &str| {
            let short: String = spec.name.chars().take(24).collect();
            format!("engine-{short}-{stream}")
        };
        if let Some(stdout) = stdout {
            let reader = std::thread::Builder::new()
                .name(thread_name("out"))
                .spawn(move || read_lines(stdout, sender));
            match reader {
                Ok(handle) => process.readers.push(handle),
                Err(error) => return Err(no_start(format!("no reader thread: {error}"))),
            }
        }
        if let Some(pipe) = stderr_pipe {
            let tail = Arc::clone(&process.stderr);
            let reader = std::thread::Builder::new()
                .name(thread_name("err"))
                .spawn(move || keep_tail(pipe, &tail));
            match reader {
                Ok(handle) => process.readers.push(handle),
                Err(error) => return Err(no_start(format!("no reader thread: {error}"))),
            }
        }
        Ok(process)
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The process id.
    pub fn id(&self) -> u32 {
        self.pid
    }

    /// Whether the process has exited (it is reaped then).
    fn has_exited(&mut self) -> bool {
        match self.child.as_mut().map(Child::try_wait) {
            Some(Ok(Some(_))) | None => true,
            Some(Ok(None)) => false,
            // A state that cannot be read is not waited on.
            Some(Err(_)) => true,
        }
    }

    /// The last lines the engine wrote on its standard error, oldest first.
    pub fn stderr_tail(&self) -> Vec<String> {
        // The tail is a list of strings, consistent after any panic that left it locked.
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        tail.iter().cloned().collect()
    }

    /// An error about this engine, with its standard error's last lines.
    pub fn error(&self, problem: EngineProblem) -> EngineError {
        EngineError {
            engine: self.name.clone(),
            problem,
            stderr: self.stderr_tail(),
        }
    }

    /// Sends one line (a newline is added) and flushes it. A closed pipe means the engine
    /// has exited.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if line == "stop" || line == "quit" {
            self.asked_to_end.get_or_insert_with(Instant::now);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.error(EngineProblem::Exited {
                status: "its input is closed".into(),
                line: None,
            }));
        };
        let written = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush());
        match written {
            Ok(()) => Ok(()),
            Err(_) => {
                self.stdin = None;
                let status = self.exit_status_soon();
                Err(self.error(EngineProblem::Exited { status, line: None }))
            }
        }
    }

    /// Forgets an earlier `stop`: the engine answered it.
    pub fn stop_answered(&mut self) {
        self.asked_to_end = None;
    }

    /// The next thing the engine said, waiting at most `timeout`; `Ok(None)` when it said
    /// nothing in time. Once the engine has exited, its output counts as closed
    /// [`EXIT_DRAIN`] later, whether or not its pipe is: a process it started may hold that
    /// open for ever.
    pub(super) fn receive(&mut self, timeout: Duration) -> Result<Option<Incoming>, EngineError> {
        let timeout = match self.exit_seen {
            Some(seen) => {
                let left = (seen + EXIT_DRAIN).saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Ok(Some(Incoming::Closed(None)));
                }
                timeout.min(left)
            }
            None => timeout,
        };
        let Some(lines) = self.lines.as_ref() else {
            return Ok(Some(Incoming::Closed(None)));
        };
        match lines.recv_timeout(timeout) {
            Ok(incoming) => Ok(Some(incoming)),
            Err(RecvTimeoutError::Timeout) => {
                if self.exit_seen.is_none() && self.has_exited() {
                    self.exit_seen = Some(Instant::now());
                }
                Ok(None)
            }
            Err(RecvTimeoutError::Disconnected) => Ok(Some(Incoming::Closed(None))),
        }
    }

    /// How the process ended, waiting briefly for it to end after it closed its output; a
    /// process still running then is described as such.
    pub fn exit_status_soon(&mut self) -> String {
        let until = Instant::now() + Duration::from_millis(200);
        let Some(child) = self.child.as_mut() else {
            return "it was ended".into();
        };
        loop {
            match child.try_wait() {
                Ok(Some(status)) => return describe_status(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                Ok(None) => return "it closed its output but is still running".into(),
                Err(error) => return format!("its state could not be read: {error}"),
            }
        }
    }

    /// Ends the engine: asks it to quit (when it has not been asked to stop or quit), waits
    /// for it until one second after the last `stop` or `quit`, kills it and every process
    /// in its group if it is still running (and any process still holding its output), and
    /// lets its readers go.
    pub fn end(mut self) {
        self.end_now();
    }

    /// Ends the engine as [`EngineProcess::end`] does, on a thread of its own: returns at
    /// once. Letting go of a process does this.
    pub fn end_in_background(mut self) {
        self.hand_to_background();
    }

    fn hand_to_background(&mut self) {
        if self.ended {
            return;
        }
        let Some(child) = self.child.take() else {
            return;
        };
        self.ended = true;
        let mut moved = EngineProcess {
            name: self.name.clone(),
            child: Some(child),
            pid: self.pid,
            pipes: std::mem::take(&mut self.pipes),
            mark: self.mark.clone(),
            exit_seen: self.exit_seen,
            stdin: self.stdin.take(),
            lines: self.lines.take(),
            stderr: Arc::clone(&self.stderr),
            readers: std::mem::take(&mut self.readers),
            asked_to_end: self.asked_to_end,
            // Marked ended until its thread runs, so that a thread that cannot be started
            // drops it without trying again.
            ended: true,
        };
        let pid = self.pid;
        let ending = Ending {
            pid,
            mark: self.mark.clone(),
            pipes: moved.pipes.clone(),
        };
        ENDING
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(ending.clone());
        let short: String = self.name.chars().take(24).collect();
        let ender = std::thread::Builder::new()
            .name(format!("engine-{short}-end"))
            .spawn(move || {
                moved.ended = false;
                moved.end_now();
                let mut ending = ENDING.lock().unwrap_or_else(PoisonError::into_inner);
                ending.retain(|e| e.pid != pid);
            });
        if ender.is_err() {
            // No thread could be started: the process is killed here, without its grace,
            // rather than waited for.
            ending.kill_all();
            ENDING
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .retain(|e| e.pid != pid);
        }
    }

    fn end_now(&mut self) {
        if self.ended {
            return;
        }
        self.ended = true;
        if self.asked_to_end.is_none() {
            // A failed write means the engine is gone already, which ending it finds out.
            let _ = self.send("quit");
        }
        // Closing its input tells a well-behaved engine that reads to its end to exit too.
        self.stdin = None;
        let deadline = self.asked_to_end.unwrap_or_else(Instant::now) + GRACE;
        if let Some(child) = self.child.as_mut() {
            let mut exited = false;
            while Instant::now() < deadline {
                match child.try_wait() {
                    Ok(Some(_)) => {
                        exited = true;
                        break;
                    }
                    Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                    Err(_) => break,
                }
            }
            // The group may hold processes the engine started even when the engine itself
            // has exited (a shell script's children): they are killed too, and so is any
            // process it started that left the group (a daemon), found by its mark.
            kill_group(self.pid);
            kill_marked(&self.mark);
            if !exited {
                let _ = child.kill();
            }
            let _ = child.wait();
        }
        // With the receiver gone, a reader blocked on a full channel gives up; with the
        // process group gone, the pipes close and the readers' reads end.
        self.lines = None;
        self.release_readers();
    }

    /// Lets the readers go once the process has gone: joins those that end at once. A pipe
    /// still open then is held by a process the engine started outside its group (a helper
    /// in a session of its own); that process is killed too. A reader that still does not
    /// end is left to end on its own when its pipe closes: it holds nothing the program
    /// needs, and is never waited for.
    fn release_readers(&mut self) {
        if !readers_end_within(&self.readers, READER_WAIT) {
            kill_pipe_holders(&self.pipes);
            readers_end_within(&self.readers, READER_WAIT);
        }
        for reader in self.readers.drain(..) {
            if reader.is_finished() {
                let _ = reader.join();
            }
        }
    }

    /// Kills the engine at once (and its group), without a grace: for an engine that broke
    /// the protocol and is not worth waiting for.
    pub fn kill(mut self) {
        self.asked_to_end = Some(Instant::now() - GRACE);
        self.end_now();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.hand_to_background();
    }
}

/// Whether every reader has ended, waiting at most `within`.
fn readers_end_within(readers: &[JoinHandle<()>], within: Duration) -> bool {
    let until = Instant::now() + within;
    loop {
        if readers.iter().all(JoinHandle::is_finished) {
            return true;
        }
        if Instant::now() >= until {
            return false;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// An exit status in words: `it exited with code 3`, `it was killed by signal 9`.
fn describe_status(status: std::process::ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("it exited with code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("it was killed by signal {signal}");
        }
    }
    "it exited".into()
}

/// Reads the engine's standard output into lines of at most [`MAX_LINE_BYTES`] and passes
/// them on until the pipe closes, a line is too long, or no one takes them any more.
fn read_lines(stdout: impl Read, sender: SyncSender<Incoming>) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line: Vec<u8> = Vec::new();
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => {
                let _ = sender.send(Incoming::Closed(Some(error.to_string())));
                return;
            }
        };
        if buffer.is_empty() {
            if !line.is_empty() && sender.send(incoming_line(&line)).is_err() {
                return;
            }
            let _ = sender.send(Incoming::Closed(None));
            return;
        }
        let (taken, complete) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => {
                line.extend_from_slice(&buffer[..end]);
                (end + 1, true)
            }
            None => {
                line.extend_from_slice(buffer);
                (buffer.len(), false)
            }
        };
        reader.consume(taken);
        if line.len() > MAX_LINE_BYTES {
            let head = String::from_utf8_lossy(&line[..200]).into_owned();
            let _ = sender.send(Incoming::TooLong(head));
            return;
        }
        if complete {
            let incoming = incoming_line(&line);
            line.clear();
            if sender.send(incoming).is_err() {
                return;
            }
        }
    }
}

/// One line read, as text when it is UTF-8.
fn incoming_line(line: &[u8]) -> Incoming {
    match std::str::from_utf8(line) {
        Ok(text) => Incoming::Line(text.to_string()),
        Err(_) => Incoming::NotUtf8(String::from_utf8_lossy(line).into_owned()),
    }
}

/// Keeps the last [`STDERR_LINES`] lines of the engine's standard error, each cut to
/// [`STDERR_LINE_CHARS`] characters, until the pipe closes.
fn keep_tail(stderr: impl Read, tail: &Mutex<VecDeque<String>>) {
    let mut reader = BufReader::with_capacity(16 * 1024, stderr);
    let mut line: Vec<u8> = Vec::new();
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        if buffer.is_empty() {
            if !line.is_empty() {
                push_line(tail, &line);
            }
            return;
        }
        let (taken, complete) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (end + 1, Some(end)),
            None => (buffer.len(), None),
        };
        let part = &buffer[..complete.unwrap_or(taken)];
        // Only the start of a long line is kept: memory stays bounded whatever is written.
        let room = (STDERR_LINE_CHARS * 4).saturating_sub(line.len());
        line.extend_from_slice(&part[..part.len().min(room)]);
        reader.consume(taken);
        if complete.is_some() {
            push_line(tail, &line);
            line.clear();
        }
    }
}

fn push_line(tail: &Mutex<VecDeque<String>>, line: &[u8]) {
    let text = String::from_utf8_lossy(line);
    let text = text.strip_suffix('\r').unwrap_or(&text);
    let text: String = text.chars().take(STDERR_LINE_CHARS).collect();
    let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
    if tail.len() == STDERR_LINES {
        tail.pop_front();
    }
    tail.push_back(text);
}

/// A line as an error quotes it.
pub fn quoted(line: &str) -> String {
    protocol::quote(line)
}
