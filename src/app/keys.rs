//! Every key the app answers to, as one table of [`egui::KeyboardShortcut`]s. The same table
//! feeds input handling (each frame), the Help window and the hints on menus and buttons, so
//! a key can never do one thing and be described as another.

use crate::app::command::DebugCommand;
use crate::app::command::PlaybackControl;
use crate::app::command::{AnimationSubject, Command, Pending, SaveKind};
use crate::app::document::mode::Mode;
use crate::model::{Direction, RobotColor};
use egui::{Key, KeyboardShortcut, Modifiers};

/// When a key is live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    /// Always.
    Always,
    /// In play mode only.
    Play,
    /// While there is a debugged run.
    Debugger,
    /// While a solution is shown for playback.
    Playback,
}

/// What a key does.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::app) enum Action {
    /// Undo the last edit.
    Undo,
    /// Redo.
    Redo,
    /// Show the New board window.
    New,
    /// Open a board.
    Open,
    /// Save.
    Save,
    /// Save as.
    SaveAs,
    /// Copy the board as one line of text.
    CopyBoard,
    /// Paste a board in any format read here.
    PasteBoard,
    /// Show or hide the Experiments window.
    Experiments,
    /// Show or hide the Analyse board window.
    Analyze,
    /// Show or hide the Compare runs window.
    Compare,
    /// Editor mode.
    EditMode,
    /// Play mode.
    PlayMode,
    /// Start the chosen solver.
    Solve,
    /// Cancel the hint being computed and the running solve.
    Cancel,
    /// Select a robot.
    Select(RobotColor),
    /// Slide the selected robot.
    Slide(Direction),
    /// Take the last move back.
    UndoMove,
    /// Deal a new game on this board.
    NewGame,
    /// Show the next hint level for the current position.
    Hint,
    /// A debugger step.
    Debug(DebugCommand),
    /// Continue or pause the debugged run.
    DebugContinueOrPause,
    /// A solution playback control.
    Playback(PlaybackControl),
    /// Export the solution played back as an animation.
    ExportAnimation,
    /// The Help window.
    Help,
    /// Close the app (asking first when there are unsaved changes).
    Quit,
}

/// One row of the table.
#[derive(Clone, Debug)]
struct KeyBinding {
    /// The key and its modifiers.
    shortcut: KeyboardShortcut,
    /// When it is live.
    scope: Scope,
    /// What it does.
    action: Action,
    /// What the Help window says it does; rows with the same text are listed together.
    help: &'static str,
}

const fn key(modifiers: Modifiers, key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(modifiers, key)
}

const CTRL: Modifiers = Modifiers::COMMAND;
const CTRL_SHIFT: Modifiers = Modifiers {
    shift: true,
    ..Modifiers::COMMAND
};
const NONE: Modifiers = Modifiers::NONE;

/// Every key, in the order the Help window lists them (an action before its reverse: Undo
/// before Redo, a step forward before a step back). [`handle`] tries them in another order.
fn bindings() -> Vec<KeyBinding> {
    let mut rows = general_rows();
    rows.extend(play_rows());
    rows.extend(debugger_and_playback_rows());
    rows
}

/// One row of the table.
fn row(shortcut: KeyboardShortcut, scope: Scope, action: Action, help: &'static str) -> KeyBinding {
    KeyBinding {
        shortcut,
        scope,
        action,
        help,
    }
}

/// The keys that are live everywhere: edits, files, windows, modes, Solve and Escape.
fn general_rows() -> Vec<KeyBinding> {
    use Action as A;
    use Scope::Always;
    vec![
        row(
            key(CTRL, Key::Z),
            Always,
            A::Undo,
            "Undo the last edit (in Play: take the last move back)",
        ),
        row(
            key(CTRL_SHIFT, Key::Z),
            Always,
            A::Redo,
            "Redo (in Play: the move taken back)",
        ),
        row(
            key(CTRL, Key::Y),
            Always,
            A::Redo,
            "Redo (in Play: the move taken back)",
        ),
        row(key(CTRL, Key::N), Always, A::New, "New board"),
        row(key(CTRL, Key::O), Always, A::Open, "Open a board"),
        row(key(CTRL_SHIFT, Key::S), Always, A::SaveAs, "Save as"),
        row(key(CTRL, Key::S), Always, A::Save, "Save"),
        row(
            key(CTRL, Key::Q),
            Always,
            A::Quit,
            "Quit (asking first when there are unsaved changes)",
        ),
        row(
            key(CTRL_SHIFT, Key::C),
            Always,
            A::CopyBoard,
            "Copy the board as one line of text",
        ),
        row(
            key(CTRL_SHIFT, Key::V),
            Always,
            A::PasteBoard,
            "Paste a board (Ctrl+V over the board pastes the clipboard at once)",
        ),
        row(
            key(CTRL, Key::E),
            Always,
            A::Experiments,
            "The Experiments window",
        ),
        row(
            key(CTRL_SHIFT, Key::A),
            Always,
            A::Analyze,
            "The Analyse board window",
        ),
        row(
            key(CTRL_SHIFT, Key::D),
            Always,
            A::Compare,
            "The Compare runs window",
        ),
        row(key(NONE, Key::E), Always, A::EditMode, "Editor mode"),
        row(key(NONE, Key::P), Always, A::PlayMode, "Play mode"),
        row(
            key(NONE, Key::S),
            Always,
            A::Solve,
            "Solve (in play mode, from the current position)",
        ),
        row(
            key(NONE, Key::Escape),
            Always,
            A::Cancel,
            "Close the window on top, or cancel the hint and the solve under way",
        ),
    ]
}

/// Play mode's keys: robots, slides, undo, a new game and hints.
fn play_rows() -> Vec<KeyBinding> {
    use Action as A;
    use Scope::Play;
    let mut rows = Vec::new();
    for (color, k) in [
        (RobotColor::Red, Key::R),
        (RobotColor::Green, Key::G),
        (RobotColor::Blue, Key::B),
        (RobotColor::Yellow, Key::Y),
        (RobotColor::Silver, Key::K),
    ] {
        rows.push(row(
            key(NONE, k),
            Play,
            A::Select(color),
            "Play mode: select the red, green, blue, yellow or silver robot",
        ));
    }
    for (k, dir) in [
        (Key::ArrowUp, Direction::North),
        (Key::ArrowRight, Direction::East),
        (Key::ArrowDown, Direction::South),
        (Key::ArrowLeft, Direction::West),
    ] {
        rows.push(row(
            key(NONE, k),
            Play,
            A::Slide(dir),
            "Play mode: slide the selected robot",
        ));
    }
    rows.extend([
        row(
            key(NONE, Key::U),
            Play,
            A::UndoMove,
            "Play mode: undo the last move",
        ),
        row(
            key(NONE, Key::N),
            Play,
            A::NewGame,
            "Play mode: deal a new game (new robots and target) on this board",
        ),
        row(
            key(NONE, Key::H),
            Play,
            A::Hint,
            "Play mode: a hint for the current position; again for more",
        ),
    ]);
    rows
}

/// The debugger's keys, the solution playback's, and Help.
fn debugger_and_playback_rows() -> Vec<KeyBinding> {
    use Action as A;
    use Scope::{Always, Debugger, Playback};
    vec![
        row(
            key(NONE, Key::F11),
            Debugger,
            A::Debug(DebugCommand::Step),
            "Debugger: one event forward",
        ),
        row(
            key(Modifiers::SHIFT, Key::F11),
            Debugger,
            A::Debug(DebugCommand::StepBack),
            "Debugger: one recorded event back",
        ),
        row(
            key(NONE, Key::F10),
            Debugger,
            A::Debug(DebugCommand::StepOver),
            "Debugger: step over (to the next node at this depth or shallower)",
        ),
        row(
            key(NONE, Key::F9),
            Debugger,
            A::Debug(DebugCommand::StepDepth),
            "Debugger: step to the end of this depth",
        ),
        row(
            key(NONE, Key::F8),
            Debugger,
            A::Debug(DebugCommand::ToSolution),
            "Debugger: run to the solution",
        ),
        row(
            key(NONE, Key::F7),
            Debugger,
            A::Debug(DebugCommand::Play),
            "Debugger: animated play",
        ),
        row(
            key(NONE, Key::F5),
            Debugger,
            A::DebugContinueOrPause,
            "Debugger: continue to a breakpoint, or pause",
        ),
        row(
            key(NONE, Key::Space),
            Playback,
            A::Playback(PlaybackControl::PlayPause),
            "Solution: play or pause",
        ),
        row(
            key(NONE, Key::Comma),
            Playback,
            A::Playback(PlaybackControl::Back),
            "Solution: one move back",
        ),
        row(
            key(NONE, Key::Period),
            Playback,
            A::Playback(PlaybackControl::Forward),
            "Solution: one move forward",
        ),
        row(
            key(NONE, Key::Home),
            Playback,
            A::Playback(PlaybackControl::First),
            "Solution: first position",
        ),
        row(
            key(NONE, Key::End),
            Playback,
            A::Playback(PlaybackControl::Last),
            "Solution: final position",
        ),
        row(
            key(CTRL_SHIFT, Key::E),
            Playback,
            A::ExportAnimation,
            "Solution: export it as an animation",
        ),
        row(
            key(NONE, Key::F1),
            Always,
            A::Help,
            "Show or hide this help",
        ),
    ]
}

/// A shortcut as the user reads it ("Ctrl+Shift+S", "F11").
fn shortcut_text(shortcut: &KeyboardShortcut) -> String {
    // Written out rather than with the platform's symbols, so Help reads the same everywhere.
    let mut parts = Vec::new();
    if shortcut.modifiers.command || shortcut.modifiers.ctrl {
        parts.push("Ctrl".to_string());
    }
    if shortcut.modifiers.alt {
        parts.push("Alt".to_string());
    }
    if shortcut.modifiers.shift {
        parts.push("Shift".to_string());
    }
    parts.push(
        match shortcut.logical_key {
            Key::Comma => ",",
            Key::Period => ".",
            other => other.name(),
        }
        .to_string(),
    );
    parts.join("+")
}

/// The keys of an action, joined ("Ctrl+Shift+Z, Ctrl+Y"), for menu and button hints.
pub(super) fn hint(action: Action) -> String {
    bindings()
        .iter()
        .filter(|b| b.action == action)
        .map(|b| shortcut_text(&b.shortcut))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A button's hover text: what it does, with its key ("Solve (S)").
pub(in crate::app) fn tooltip(what: &str, action: Action) -> String {
    let keys = hint(action);
    if keys.is_empty() {
        what.to_string()
    } else {
        format!("{what} ({keys})")
    }
}

/// The Help window's rows: keys that share a description on one row.
pub fn help_rows() -> Vec<(String, &'static str)> {
    let mut rows: Vec<(String, &'static str)> = Vec::new();
    for binding in bindings() {
        let keys = shortcut_text(&binding.shortcut);
        match rows.iter_mut().find(|(_, help)| *help == binding.help) {
            Some((listed, _)) => {
                listed.push_str(", ");
                listed.push_str(&keys);
            }
            None => rows.push((keys, binding.help)),
        }
    }
    rows
}

/// What is live this frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct KeyContext {
    /// Editing or playing.
    pub(super) mode: Mode,
    /// Whether a debugged run exists, and whether it is paused.
    pub(super) debugger_paused: Option<bool>,
    /// Whether a solution is shown for playback.
    pub(super) playback: bool,
    /// Whether a popup (a combobox's list, a menu) is open: Escape is then left to close it.
    pub(super) popup_open: bool,
}

/// The command an action stands for now (the Experiments key is handled by the shell).
fn command(action: Action, context: KeyContext) -> Option<Command> {
    Some(match action {
        Action::Undo => Command::Undo,
        Action::Redo => Command::Redo,
        Action::New => Command::ShowNewWindow,
        Action::Open => Command::OpenDialog,
        Action::Save => Command::Save,
        Action::SaveAs => Command::SaveAs(SaveKind::Native),
        Action::CopyBoard => Command::CopyBoard,
        Action::PasteBoard => Command::ShowImportWindow,
        Action::Experiments => Command::ToggleExperiments,
        Action::Analyze => Command::ToggleAnalyzer,
        Action::Compare => Command::ToggleCompare,
        Action::EditMode => Command::SetMode(Mode::Edit),
        Action::PlayMode => Command::SetMode(Mode::Play),
        Action::Solve => Command::Solve,
        Action::Cancel => Command::CancelRunning,
        Action::Select(color) => Command::SelectRobot(color),
        Action::Slide(dir) => Command::MoveRobot(dir),
        Action::UndoMove => Command::UndoMove,
        Action::NewGame => Command::NewGame,
        Action::Hint => Command::Hint,
        Action::Debug(debug) => Command::Debug(debug),
        Action::DebugContinueOrPause => Command::Debug(match context.debugger_paused? {
            true => DebugCommand::Continue,
            false => DebugCommand::Pause,
        }),
        Action::Playback(control) => Command::Playback(control),
        Action::ExportAnimation => Command::ExportAnimation(AnimationSubject::Solution),
        Action::Help => Command::ToggleHelp,
        Action::Quit => Command::Guarded(Pending::Quit),
    })
}

/// Consumes this frame's key presses that the table knows and returns their commands.
pub(super) fn handle(input: &mut egui::InputState, context: KeyContext) -> Vec<Command> {
    let mut commands = Vec::new();
    // Rows with more modifiers are tried before the same key with fewer, since
    // [`egui::InputState::consume_shortcut`] ignores an extra Shift: Ctrl+Shift+Z must be
    // taken as Redo before Ctrl+Z can take it as Undo. The sort is stable, so rows keep their
    // order otherwise.
    let mut rows = bindings();
    rows.sort_by_key(|b| std::cmp::Reverse(modifier_count(b.shortcut.modifiers)));
    for binding in rows {
        let live = match binding.scope {
            Scope::Always => true,
            Scope::Play => context.mode == Mode::Play,
            Scope::Debugger => context.debugger_paused.is_some(),
            Scope::Playback => context.playback,
        };
        let closes_popup = context.popup_open
            && binding.shortcut.logical_key == Key::Escape
            && binding.shortcut.modifiers == Modifiers::NONE;
        if live && !closes_popup {
            // Every press counts: under a slow renderer two presses a tenth of a second apart
            // can arrive in one frame, and each is a step the user asked for.
            let presses = input
                .count_and_consume_key(binding.shortcut.modifiers, binding.shortcut.logical_key);
            for _ in 0..presses {
                if let Some(command) = command(binding.action.clone(), context) {
                    commands.push(command);
                }
            }
        }
    }
    commands
}

fn modifier_count(modifiers: Modifiers) -> usize {
    [
        modifiers.alt,
        modifiers.shift,
        modifiers.ctrl || modifiers.command || modifiers.mac_cmd,
    ]
    .into_iter()
    .filter(|&held| held)
    .count()
}

/// Whether the keyboard belongs to a text field this frame, so that shortcuts must wait. Any
/// other focused widget (a button reached with Tab, a checkbox) leaves the shortcuts live.
pub(super) fn typing_in_text_field(ctx: &egui::Context) -> bool {
    ctx.text_edit_focused()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pressed(modifiers: Modifiers, key: Key) -> Vec<Command> {
        let mut input = egui::InputState::default();
        input.events.push(egui::Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers,
        });
        let context = KeyContext {
            mode: Mode::Edit,
            debugger_paused: Some(true),
            playback: false,
            popup_open: false,
        };
        handle(&mut input, context)
    }

    #[test]
    fn help_lists_an_action_before_its_reverse() {
        let rows = help_rows();
        let at = |text: &str| rows.iter().position(|(_, help)| help.starts_with(text));
        assert!(at("Undo") < at("Redo"), "{rows:?}");
        assert!(
            at("Debugger: one event forward") < at("Debugger: one recorded event back"),
            "{rows:?}"
        );
    }

    #[test]
    fn a_key_with_shift_is_not_taken_by_the_same_key_without() {
        assert_eq!(pressed(CTRL_SHIFT, Key::Z), vec![Command::Redo]);
        assert_eq!(pressed(CTRL, Key::Z), vec![Command::Undo]);
        assert_eq!(
            pressed(Modifiers::SHIFT, Key::F11),
            vec![Command::Debug(DebugCommand::StepBack)]
        );
        assert_eq!(
            pressed(NONE, Key::F11),
            vec![Command::Debug(DebugCommand::Step)]
        );
    }

    #[test]
    fn f1_shows_and_hides_help() {
        assert_eq!(pressed(NONE, Key::F1), vec![Command::ToggleHelp]);
    }

    #[test]
    fn ctrl_q_quits_asking_first() {
        assert_eq!(pressed(CTRL, Key::Q), vec![Command::Guarded(Pending::Quit)]);
    }

    #[test]
    fn every_shortcut_is_bound_once_per_scope() {
        let rows = bindings();
        for (i, a) in rows.iter().enumerate() {
            for b in &rows[i + 1..] {
                assert!(
                    !(a.shortcut == b.shortcut && a.scope == b.scope),
                    "{} is bound twice",
                    shortcut_text(&a.shortcut)
                );
            }
        }
    }

    #[test]
    fn hints_name_the_keys_of_an_action() {
        assert_eq!(hint(Action::Solve), "S");
        assert_eq!(hint(Action::Redo), "Ctrl+Shift+Z, Ctrl+Y");
        assert_eq!(tooltip("Solve", Action::Solve), "Solve (S)");
        let help = help_rows();
        assert!(help.iter().any(|(keys, _)| keys == "R, G, B, Y, K"));
    }
}
