//! Generic tasks: a named thread with a cancel flag, a bounded channel and the interface's
//! waker, owned by a [`Task`] that cancels and detaches it when dropped.

use crate::solver::Limits;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TryRecvError, sync_channel};
use std::thread::JoinHandle;
use std::time::Duration;

/// Called by the worker when the user interface should repaint, with the delay after which it
/// should: zero for news that matters now (a finished depth, the end), a short delay for
/// counters, so that a burst of progress costs one repaint.
pub type Waker = Arc<dyn Fn(Duration) + Send + Sync>;

/// How often at most the worker publishes its counters and asks for a repaint. Ten times a
/// second or more keeps the table lively; more often would only cost repaints.
pub const PUBLISH_INTERVAL: Duration = Duration::from_millis(50);

/// The repaint delay asked for with counter updates: repaints are coalesced within it.
pub const PROGRESS_REPAINT_DELAY: Duration = Duration::from_millis(80);

/// How many messages the channel holds. A run sends one message per finished depth and one at
/// the end, so this bound is far above what a run produces between two frames; should the
/// interface stop draining, the solver waits rather than losing a row.
pub(crate) const CHANNEL_CAPACITY: usize = 1024;

/// A thread started by [`spawn_task`], as its caller holds it: the messages it sends, and its
/// cancel flag. Dropping it cancels the thread, which then ends at its next check.
pub struct Task<M> {
    cancel: Arc<AtomicBool>,
    receiver: Receiver<M>,
    thread: Option<JoinHandle<()>>,
}

impl<M> Task<M> {
    /// Asks the thread to stop.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The cancel flag.
    pub fn cancel_flag(&self) -> &Arc<AtomicBool> {
        &self.cancel
    }

    /// Hands the messages waiting from the thread to `take`, in order and without blocking,
    /// until `take` says one was the thread's last (its result). Says how the task stands.
    pub fn drain(&self, mut take: impl FnMut(M) -> bool) -> Drained {
        loop {
            match self.receiver.try_recv() {
                Ok(message) => {
                    if take(message) {
                        return Drained::Finished;
                    }
                }
                Err(TryRecvError::Empty) => return Drained::Waiting,
                Err(TryRecvError::Disconnected) => return Drained::Lost,
            }
        }
    }

    /// The next message, waiting at most `timeout`.
    pub fn recv_timeout(&self, timeout: Duration) -> Result<M, RecvTimeoutError> {
        self.receiver.recv_timeout(timeout)
    }

    /// Waits for the thread to return, once it has sent its last message; returns `false`
    /// when it panicked.
    pub fn join(&mut self) -> bool {
        match self.thread.take() {
            Some(thread) => thread.join().is_ok(),
            None => true,
        }
    }
}

/// How a task stands after [`Task::drain`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drained {
    /// Nothing more has come yet (or there is no task).
    Waiting,
    /// The thread sent its last message.
    Finished,
    /// The thread ended without sending its last message.
    Lost,
}

/// Drains the task in `slot`, if any (see [`Task::drain`]), and empties the slot once the task
/// has finished or is lost: the views that run one task at a time keep it this way.
pub fn drain_slot<M>(slot: &mut Option<Task<M>>, take: impl FnMut(M) -> bool) -> Drained {
    let drained = slot
        .as_ref()
        .map_or(Drained::Waiting, |task| task.drain(take));
    if drained != Drained::Waiting {
        *slot = None;
    }
    drained
}

impl<M> Drop for Task<M> {
    fn drop(&mut self) {
        // Nobody will read the result: stop the thread rather than let it run on.
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The thread's side of a [`Task`]: its cancel flag, its channel and the waker.
pub struct TaskLink<M> {
    /// Set when the caller cancels.
    pub cancel: Arc<AtomicBool>,
    sender: SyncSender<M>,
    waker: Waker,
}

impl<M> TaskLink<M> {
    /// Whether the caller asked the thread to stop.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// Sends a message (waiting while the channel is full) and asks for a repaint after
    /// `wake_after`. A caller that has gone is not an error: the cancel flag stops the thread.
    pub fn send(&self, message: M, wake_after: Duration) {
        let _ = self.sender.send(message);
        (self.waker)(wake_after);
    }

    /// Asks for a repaint after `after`, with nothing to send.
    pub fn wake(&self, after: Duration) {
        (self.waker)(after);
    }
}

/// Starts `body` on a new thread named `name`, with a cancel flag and a channel of
/// `capacity` messages back to the returned [`Task`]; `waker` is called whenever the body
/// sends. The one place the worker layer starts threads.
pub fn spawn_task<M: Send + 'static>(
    name: String,
    waker: Waker,
    capacity: usize,
    body: impl FnOnce(TaskLink<M>) + Send + 'static,
) -> std::io::Result<Task<M>> {
    let cancel = Arc::new(AtomicBool::new(false));
    let (sender, receiver) = sync_channel(capacity.max(1));
    let link = TaskLink {
        cancel: Arc::clone(&cancel),
        sender,
        waker,
    };
    let thread = std::thread::Builder::new()
        .name(name)
        .spawn(move || body(link))?;
    Ok(Task {
        cancel,
        receiver,
        thread: Some(thread),
    })
}

/// Starts `work` on a new thread named `name`, within `time_limit` (and no memory limit), with
/// the returned task's cancel flag; the one answer it returns is the task's one message. For
/// the work that answers once (a hint, a listing of solutions).
pub fn spawn_answer<M: Send + 'static>(
    name: &str,
    waker: Waker,
    time_limit: Option<Duration>,
    work: impl FnOnce(&Limits) -> M + Send + 'static,
) -> std::io::Result<Task<M>> {
    spawn_task(name.to_string(), waker, 1, move |link| {
        let limits = Limits {
            time: time_limit,
            memory_bytes: None,
            cancel: Some(link.cancel.clone()),
        };
        link.send(work(&limits), Duration::ZERO);
    })
}

pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        format!("the solver stopped on an internal error: {text}")
    } else if let Some(text) = panic.downcast_ref::<String>() {
        format!("the solver stopped on an internal error: {text}")
    } else {
        "the solver stopped on an internal error".into()
    }
}
