//! The vocabulary the app's rooms speak: each whole-app action is collected as a [`Command`]
//! while the panels are drawn and applied once at the end of the frame (by `shell::apply`),
//! so nothing changes halfway through a layout. The debugger's, the search tree's and the
//! playback's own commands are here too, so that a room can ask for anything by naming this
//! file alone, never another room.

use crate::app::document::draft::{Draft, Edit};
use crate::app::document::mode::Mode;
use crate::model::{Direction, Move, RobotColor};
use crate::solver::engine::store::EngineName;
use crate::solver::trace::EventKind;
use crate::worker::debug::Breakpoints;
use std::path::PathBuf;

/// Whether a draft change starts a new undo step or joins the previous one (a drag stroke).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoStep {
    /// A new step.
    New,
    /// Part of the step already recorded.
    Continue,
}

/// An action that would drop the current board, asked about first when it has unsaved
/// changes.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// Replace the board by a new one; the text names it ("Standard game, seed 4").
    Replace(Box<Draft>, String),
    /// Open a file.
    Open(PathBuf),
    /// Open a trace in the debugger, showing the event with this number.
    OpenTrace {
        /// The trace file.
        path: PathBuf,
        /// The event to show, from 0.
        at: u64,
    },
    /// Import a game id or Cox text.
    Import(String),
    /// Close the app.
    Quit,
}

/// A whole-app action, collected while the panels are drawn and applied once per frame.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Change the board (an undoable edit).
    Edit {
        /// The change.
        edit: Edit,
        /// New undo step or part of the last.
        step: UndoStep,
    },
    /// Undo the last edit.
    Undo,
    /// Redo.
    Redo,
    /// Switch between editing and playing.
    SetMode(Mode),
    /// Do something that drops the board, asking first if it has unsaved changes.
    Guarded(Pending),
    /// The answer to the unsaved-changes question.
    ResolvePending(Resolution),
    /// The answer to the question Save asks when the board's file changed on disk.
    ResolveChangedOnDisk(DiskChoice),
    /// Show the New board window.
    ShowNewWindow,
    /// Show the Add engine window.
    ShowAddEngine,
    /// An engine was registered under this name: choose it.
    EngineAdded(EngineName),
    /// Unregister the engine of this name.
    RemoveEngine(EngineName),
    /// Show the engine of this name in the engine window, to change its command or options.
    EditEngine(EngineName),
    /// Open a file through the system's dialog (or the in-app window without one).
    OpenDialog,
    /// Show the in-app Open window with the boards list.
    ShowOpenWindow,
    /// Show the Import window.
    ShowImportWindow,
    /// Show the Help window.
    ShowHelp,
    /// Show the Help window, or hide it when it shows.
    ToggleHelp,
    /// Save to the board's file (asking where when it has none).
    Save,
    /// Ask where to save (or export).
    SaveAs(SaveKind),
    /// Save (or export) to a path.
    SaveTo(PathBuf, SaveKind),
    /// Copy the board's game id to the clipboard.
    CopyGameId,
    /// Copy the whole puzzle to the clipboard as one line of text (its board line).
    CopyBoard,
    /// Play mode: select a robot.
    SelectRobot(RobotColor),
    /// Play mode: slide the selected robot.
    MoveRobot(Direction),
    /// Play mode: take the last move back.
    UndoMove,
    /// Play mode: put the robots back.
    ResetPlay,
    /// Play mode: deal new robots and a new target on this board.
    NewGame,
    /// Deal a new game without asking, the moves played dropped (the answer to New game's
    /// question).
    DealNewGame,
    /// Keep the game in play (the other answer to New game's question).
    KeepPlaying,
    /// Play mode: show the next hint level for the current position.
    Hint,
    /// List every optimal solution of the last run.
    ListSolutions,
    /// Stop listing them.
    StopListing,
    /// Play back the listed solution with this index.
    PlayListedSolution(usize),
    /// Show where these first moves of the run lead, on the board (the node chart's blocks).
    ShowPrefix(Vec<crate::model::Move>),
    /// Start the chosen solver.
    Solve,
    /// Cancel the running solve.
    Cancel,
    /// Stop computing the hint.
    CancelHint,
    /// Stop what runs at the user's request: the hint being computed and the solve (Escape).
    CancelRunning,
    /// Step or play the solution.
    Playback(PlaybackControl),
    /// Forget the plot history.
    ClearPlots,
    /// Show a note in the status line.
    Message(String),
    /// Show an error in the status line.
    Error(String),
    /// A debugger action.
    Debug(DebugCommand),
    /// Compare the editor's incrementally updated slide graph with a fresh build.
    CheckGraph,
    /// Show or hide the Experiments window.
    ToggleExperiments,
    /// Show or hide the Analyse board window.
    ToggleAnalyzer,
    /// Show or hide the Compare runs window.
    ToggleCompare,
    /// Show or hide the Matches window.
    ToggleMatches,
    /// Show the Export animation window.
    ExportAnimation(AnimationSubject),
    /// Close the lesson shown in the Lesson tab (the board and settings stay as they are).
    CloseLesson,
}

/// What the Export animation window is opened on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnimationSubject {
    /// The solution played back.
    Solution,
    /// The debugged search's nodes, in a stretch of events ending at this one.
    SearchUpTo(u64),
}

impl Command {
    /// An edit that is its own undo step.
    pub fn edit(edit: Edit) -> Command {
        Command::Edit {
            edit,
            step: UndoStep::New,
        }
    }
}

/// What a save writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveKind {
    /// The native RON format.
    Native,
    /// Kevin Cox's text format.
    Cox,
    /// A picture of the board for print: SVG, or PNG when the name ends in `.png`.
    Image,
    /// The debugged run's trace: every event of its search (see `docs/trace-format.md`).
    Trace,
}

impl SaveKind {
    /// The file extension.
    pub(in crate::app) fn extension(self) -> &'static str {
        match self {
            SaveKind::Native => "ron",
            SaveKind::Cox => "txt",
            SaveKind::Image => "svg",
            SaveKind::Trace => "rltrace",
        }
    }

    /// The title of the window or dialog that asks where to write.
    pub(in crate::app) fn title(self) -> &'static str {
        match self {
            SaveKind::Native => "Save board as",
            SaveKind::Cox => "Export as Cox text",
            SaveKind::Image => "Export board image",
            SaveKind::Trace => "Save the search trace",
        }
    }
}

/// What to do when Save finds the board's file changed on disk since it was opened or saved
/// here (another window or program wrote it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiskChoice {
    /// Open the file as it is on disk, dropping the changes made here.
    Reload,
    /// Save over it, dropping the changes made there.
    Overwrite,
    /// Save to another file.
    SaveAs,
    /// Do nothing yet.
    Cancel,
}

/// The answer to the unsaved-changes question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// Save, then go on.
    Save,
    /// Go on without saving.
    Discard,
    /// Do not go on.
    Cancel,
}

/// A debugger action, applied once per frame.
#[derive(Clone, Debug, PartialEq)]
pub enum DebugCommand {
    /// One event forward (in the recording first, when scrubbed back).
    Step,
    /// To the next node at the current depth or shallower.
    StepOver,
    /// To the end of the current depth.
    StepDepth,
    /// Run until a breakpoint.
    Continue,
    /// Stop at the next event.
    Pause,
    /// Run until a solution.
    ToSolution,
    /// Animated play at the settings' speed.
    Play,
    /// One recorded event back.
    StepBack,
    /// Show this recorded event (timeline slider).
    Scrub(u64),
    /// Back to the latest event.
    Latest,
    /// Send the settings' breakpoints to the run (with the stop-at-state choice).
    Breakpoints(Breakpoints),
    /// Show the event with this number (from 0) of the recording.
    GoTo(u64),
    /// Show the next (`true`) or previous recorded event of a kind after or before the one
    /// shown.
    FindKind(EventKind, bool),
    /// Show the start of this depth or bound.
    IterationStart(u32),
    /// Show the first node of the recording whose robots stand where the shown node's do.
    FirstVisit,
    /// A change to the search tree tab.
    Tree(TreeCommand),
    /// A guess at the next step (Predict mode): step to the next node and judge it.
    Predict(Guess),
}

/// What the learner thinks comes next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Guess {
    /// The search examines the child of the node shown by this move.
    Move(Move),
    /// The search backs up: no move below the node shown is examined next.
    Back,
    /// The search examines the open list's entry generated at this event.
    Entry(u64),
}

/// A change to the tree tab, applied with the debugger's commands.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeCommand {
    /// Read the tree's roots (again, for a run that went on).
    Load,
    /// Open or close the node whose node event has this number, reading its children the
    /// first time.
    Toggle(u64),
    /// Select the node with this event number and show it on the board and the timeline.
    Select(u64),
}

/// What the playback controls ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaybackControl {
    /// Back to the start.
    First,
    /// One move back.
    Back,
    /// One move forward.
    Forward,
    /// To the end.
    Last,
    /// Play or pause.
    PlayPause,
    /// Stop showing the solution.
    Close,
}
