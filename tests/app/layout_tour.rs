//! The layout tour: the app driven through a scripted series of states (every editor tool,
//! every window and dock tab, every overlay on, long messages, a long move list in play mode,
//! a debugged run 25 moves deep, a long run in progress, a failed engine with its log), at the
//! smallest window the app is laid out for and at the size it opens with. In every state the
//! same invariants hold:
//! - every control lies inside the window, and is cut off only by a scroll area it can be
//!   scrolled into;
//! - the side panels keep their width and the board its origin;
//! - the primary controls (Solve, Cancel, the step buttons, Undo move, New game, the tool
//!   buttons) stay where they were first seen;
//! - every scroll area scrolls.
//!
//! Windows and tabs join the tour by being listed in the app ([`WINDOW_TITLES`],
//! [`dock_tab_titles`]): the tour fails on a listed one it did not visit, and on a window it
//! met that is not listed.

use crate::common::{choose_solver, finished, import, manifest, paused_at, step_until};
use egui::accesskit::Role;
use egui::{Pos2, Rect, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use ricochet_lab::app::RicochetApp;
use ricochet_lab::app::command::{AnimationSubject, Command, Pending, SaveKind};
use ricochet_lab::app::document::draft::Edit;
use ricochet_lab::app::settings::AppState;
use ricochet_lab::app::shell::{WINDOW_TITLES, dock_tab_titles};
use ricochet_lab::solver::SolverId;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

mod outside;
use outside::{disk_stops, engine_stops};

/// The smallest window the app is laid out for (a projector's).
const SMALLEST: [f32; 2] = [1024.0, 700.0];

/// The window the app opens with.
const OPENING: [f32; 2] = [1360.0, 900.0];

/// Where a primary control lives, which names it apart from a control of the same label
/// elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Above the dock's tabs, on every tab.
    Dock,
    /// On the dock's Debugger tab.
    DebuggerTab,
    /// In the left-hand panel.
    Left,
}

/// The controls a user clicks again and again: none may move while it shows.
const PRIMARY: [(&str, Place); 18] = [
    ("Solve", Place::Dock),
    ("Cancel", Place::Dock),
    ("Step back", Place::DebuggerTab),
    ("Step", Place::DebuggerTab),
    ("Step over", Place::DebuggerTab),
    ("Step depth", Place::DebuggerTab),
    ("Continue", Place::DebuggerTab),
    ("Pause", Place::DebuggerTab),
    ("Run to solution", Place::DebuggerTab),
    ("Undo move", Place::Left),
    ("New game", Place::Left),
    ("Walls", Place::Left),
    ("Robots", Place::Left),
    ("Targets", Place::Left),
    ("Active target", Place::Left),
    ("Closed cells", Place::Left),
    ("Move", Place::Left),
    ("Reset robots", Place::Left),
];

/// One widget of the last frame, as egui laid it out.
#[derive(Clone, Debug)]
struct Laid {
    label: Option<String>,
    typ: Option<Role>,
    rect: Rect,
    visible_rect: Rect,
    layer: egui::LayerId,
    control: bool,
    scroll_bar: bool,
}

/// The app on its way through the tour, with what it saw first and what went wrong.
struct Tour {
    harness: Harness<'static, RicochetApp>,
    size: [f32; 2],
    /// The dock tab shown.
    tab: &'static str,
    /// The first place of each primary control, by label and place.
    anchors: BTreeMap<String, (Rect, String)>,
    /// The side panels' widths and the board's origin when first seen.
    frame: Option<(f32, f32, Pos2)>,
    /// The windows and tabs visited.
    visited: BTreeSet<String>,
    /// The windows met in any state.
    met: BTreeSet<String>,
    failures: Vec<String>,
    states: usize,
}

impl Tour {
    fn new(size: [f32; 2], adjust: impl FnOnce(&mut AppState)) -> Tour {
        let puzzle = deck_puzzle();
        let harness = crate::common::harness_on(&puzzle, size, adjust);
        Tour {
            harness,
            size,
            tab: "Run",
            anchors: BTreeMap::new(),
            frame: None,
            visited: BTreeSet::new(),
            met: BTreeSet::new(),
            failures: Vec::new(),
            states: 0,
        }
    }

    fn window(&self) -> Rect {
        Rect::from_min_size(Pos2::ZERO, self.size.into())
    }

    fn fail(&mut self, state: &str, what: String) {
        self.failures
            .push(format!("{}x{} {state}: {what}", self.size[0], self.size[1]));
    }

    /// Every widget of the last frame, in the layers a person sees (tooltips aside).
    fn laid(&self) -> Vec<Laid> {
        self.harness.ctx.viewport(|viewport| {
            let widgets = &viewport.this_pass.widgets;
            let mut laid = Vec::new();
            for (layer, rects) in widgets.layers() {
                if matches!(layer.order, egui::Order::Tooltip | egui::Order::Debug) {
                    continue;
                }
                for widget in rects {
                    if !widget.visible || widget.rect.area() <= 0.0 {
                        continue;
                    }
                    let info = widgets.info(widget.id);
                    let typ = info.map(|info| info.role);
                    let control = matches!(
                        typ,
                        Some(
                            Role::Button
                                | Role::CheckBox
                                | Role::RadioButton
                                | Role::ComboBox
                                | Role::TextInput
                                | Role::MultilineTextInput
                                | Role::Slider
                                | Role::SpinButton
                                | Role::DisclosureTriangle
                                | Role::Link
                        )
                    );
                    laid.push(Laid {
                        label: info.and_then(|info| info.label.clone()),
                        typ,
                        rect: widget.rect,
                        visible_rect: widget.interact_rect,
                        layer: *layer,
                        control,
                        scroll_bar: typ == Some(Role::ScrollBar),
                    });
                }
            }
            laid
        })
    }

    /// The vertical scroll bars of the last frame that have something to scroll: named
    /// widgets left of them that reach past their ends.
    fn scroll_bars(laid: &[Laid]) -> Vec<(egui::LayerId, Rect)> {
        laid.iter()
            .filter(|w| w.scroll_bar && w.rect.height() > w.rect.width())
            .filter(|bar| {
                laid.iter().any(|w| {
                    w.layer == bar.layer
                        && w.label.is_some()
                        && Tour::beside(w.rect, bar.rect)
                        && (w.rect.top() < bar.rect.top() - 1.0
                            || w.rect.bottom() > bar.rect.bottom() + 1.0)
                })
            })
            .map(|w| (w.layer, w.rect))
            .collect()
    }

    /// Whether a widget lies in the column left of a scroll bar.
    fn beside(widget: Rect, bar: Rect) -> bool {
        widget.right() <= bar.right() + 0.5 && widget.left() >= bar.left() - 600.0
    }

    /// Checks every invariant in the state the app is in.
    fn check(&mut self, state: &str) {
        self.harness.run_ok();
        self.states += 1;
        let window = self.window().expand(0.5);
        let laid = self.laid();
        let bars = Tour::scroll_bars(&laid);
        let mut problems = Vec::new();
        for widget in &laid {
            let name = widget
                .label
                .clone()
                .unwrap_or_else(|| format!("{:?}", widget.typ));
            let text = widget.control || widget.typ == Some(Role::Label);
            if !text {
                continue;
            }
            // Nothing scrolls sideways: whatever reaches past the window's sides is lost.
            if widget.rect.left() < window.left() || widget.rect.right() > window.right() {
                problems.push(format!(
                    "{name:?} at {:?} reaches out of the window",
                    widget.rect
                ));
                continue;
            }
            if !widget.control {
                continue;
            }
            let cut = widget.visible_rect.area() + 1.0 < widget.rect.area()
                || widget.rect.bottom() > window.bottom();
            // A control cut off is fine inside a scroll area, which brings it into view.
            let scrolled = bars.iter().any(|(layer, bar)| {
                *layer == widget.layer
                    && Tour::beside(widget.rect, *bar)
                    && (widget.visible_rect.area() <= 0.0
                        || (widget.visible_rect.top() >= bar.top() - 1.0
                            && widget.visible_rect.bottom() <= bar.bottom() + 1.0))
            });
            if cut && !scrolled {
                problems.push(format!(
                    "{name:?} at {:?} is cut off (shown: {:?}) with no scroll area",
                    widget.rect, widget.visible_rect
                ));
            }
        }
        for problem in problems {
            self.fail(state, problem);
        }
        self.check_frame(state);
        self.check_primary(state, &laid);
        for node in self.harness.query_all_by_role(Role::Window) {
            if let Some(title) = node.accesskit_node().label() {
                self.met.insert(title.to_string());
            }
        }
    }

    /// The side panels keep their width and the board its origin.
    fn check_frame(&mut self, state: &str) {
        let panels = self.harness.state().panel_rects();
        let board = self.harness.get_by_label("Board").rect().min;
        let now = (panels.tools.width(), panels.dock.width(), board);
        match self.frame {
            None => self.frame = Some(now),
            Some(first) if first != now => self.fail(
                state,
                format!("the left panel, dock and board origin went from {first:?} to {now:?}"),
            ),
            Some(_) => {}
        }
    }

    /// The primary controls are where they were first seen.
    fn check_primary(&mut self, state: &str, laid: &[Laid]) {
        let (left, dock) = match self.frame {
            Some((left, dock, _)) => (left, self.size[0] - dock),
            None => return,
        };
        for (label, place) in PRIMARY {
            let found = laid.iter().find(|w| {
                w.control
                    && w.label.as_deref() == Some(label)
                    && w.layer.order == egui::Order::Background
                    && match place {
                        Place::Dock | Place::DebuggerTab => w.rect.left() >= dock,
                        Place::Left => w.rect.right() <= left,
                    }
            });
            let Some(widget) = found else { continue };
            let key = match place {
                Place::DebuggerTab => format!("{label} on the {} tab", self.tab),
                _ => format!("{label} ({place:?})"),
            };
            match self.anchors.get(&key) {
                None => {
                    self.anchors.insert(key, (widget.rect, state.to_string()));
                }
                Some((first, seen)) if *first != widget.rect => {
                    let what = format!(
                        "{key} moved from {first:?} (in {seen}) to {:?}",
                        widget.rect
                    );
                    self.fail(state, what);
                }
                Some(_) => {}
            }
        }
    }

    /// Scrolls every scroll area shown to its end and back: each must move its contents.
    fn check_scrolling(&mut self, state: &str) {
        self.harness.run_ok();
        let laid = self.laid();
        let bars = Tour::scroll_bars(&laid);
        for (layer, bar) in bars {
            let inside = |laid: &[Laid]| -> Vec<Rect> {
                laid.iter()
                    .filter(|w| w.layer == layer && w.label.is_some())
                    .filter(|w| Tour::beside(w.rect, bar))
                    .map(|w| w.rect)
                    .collect()
            };
            let before = inside(&laid);
            let at = Pos2::new(bar.left() - 20.0, bar.center().y);
            self.wheel(at, -4000.0);
            let after = inside(&self.laid());
            self.wheel(at, 4000.0);
            if before == after {
                self.fail(
                    state,
                    format!("the scroll area left of {bar:?} does not scroll"),
                );
            }
        }
        self.harness.event(egui::Event::PointerGone);
        self.harness.run_ok();
    }

    fn wheel(&mut self, at: Pos2, dy: f32) {
        self.harness.event(egui::Event::PointerMoved(at));
        self.harness.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: Vec2::new(0.0, dy),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        for _ in 0..30 {
            self.harness.step();
        }
    }

    fn command(&mut self, command: Command) {
        self.harness.state_mut().apply_command(command);
        self.harness.run_ok();
    }

    /// Presses and releases the primary button at a point, without waiting for the app to
    /// settle (a worker may keep it busy).
    fn click_at(&mut self, pos: Pos2) {
        self.harness.event(egui::Event::PointerMoved(pos));
        for pressed in [true, false] {
            self.harness.event(egui::Event::PointerButton {
                pos,
                button: egui::PointerButton::Primary,
                pressed,
                modifiers: egui::Modifiers::NONE,
            });
        }
        self.harness.run_ok();
    }

    fn click(&mut self, label: &str) {
        self.harness.get_by_label(label).click();
        self.harness.run_ok();
    }

    fn tab(&mut self, title: &'static str) {
        self.harness
            .get_by_role_and_label(Role::Button, title)
            .click();
        self.harness.run_ok();
        self.tab = title;
        self.visited.insert(title.to_string());
    }

    /// Every dock tab, checked in turn, ending on `last`.
    fn every_tab(&mut self, state: &str, last: &'static str) {
        for title in dock_tab_titles() {
            self.tab(title);
            self.check(&format!("{state}, {title} tab"));
        }
        self.tab(last);
    }

    /// Opens a window by a command, checks it and closes it with Escape.
    fn visit_window(&mut self, title: &str, open: Command) {
        self.command(open);
        assert!(self.harness.state().any_window_open(), "{title} opens");
        self.visited.insert(title.to_string());
        self.check(&format!("{title} window"));
        self.check_scrolling(&format!("{title} window"));
        self.harness.key_press(egui::Key::Escape);
        self.harness.run_ok();
        assert!(
            !self.harness.state().any_window_open(),
            "Escape closes {title}"
        );
    }

    /// The end of the tour: every listed window and tab visited, every window met listed,
    /// and no invariant broken.
    fn finish(self) {
        let listed: BTreeSet<String> = WINDOW_TITLES
            .iter()
            .chain(dock_tab_titles().iter())
            .map(|t| t.to_string())
            .collect();
        let unvisited: Vec<&String> = listed.difference(&self.visited).collect();
        assert!(unvisited.is_empty(), "the tour never visits {unvisited:?}");
        let unlisted: Vec<&String> = self
            .met
            .iter()
            .filter(|title| !WINDOW_TITLES.contains(&title.as_str()))
            .collect();
        assert!(
            unlisted.is_empty(),
            "windows not in WINDOW_TITLES: {unlisted:?}"
        );
        assert!(
            self.states > 40,
            "the tour checked only {} states",
            self.states
        );
        assert!(
            self.failures.is_empty(),
            "{} broken invariants:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}

fn deck_puzzle() -> ricochet_lab::model::Puzzle {
    let text = std::fs::read_to_string(manifest("boards/real-21.ron")).unwrap();
    ricochet_lab::model::formats::native::parse(&text).unwrap()
}

/// The editor: every tool, every window, every dock tab, every overlay on.
fn editor_stops(tour: &mut Tour) {
    tour.check("start");
    for tool in [
        "Robots",
        "Targets",
        "Active target",
        "Closed cells",
        "Move",
        "Walls",
    ] {
        tour.harness
            .get_by_role_and_label(Role::Button, tool)
            .click();
        tour.check(&format!("{tool} tool"));
    }
    tour.check_scrolling("editor");
    for (title, open) in [
        ("Open a board", Command::ShowOpenWindow),
        ("Save board as", Command::SaveAs(SaveKind::Native)),
        ("Export as Cox text", Command::SaveAs(SaveKind::Cox)),
        ("Export board image", Command::SaveAs(SaveKind::Image)),
        ("Import a game id or Cox text", Command::ShowImportWindow),
        ("New board", Command::ShowNewWindow),
        ("Help", Command::ToggleHelp),
        ("Experiments", Command::ToggleExperiments),
        ("Analyse board", Command::ToggleAnalyzer),
        ("Compare runs", Command::ToggleCompare),
        ("Matches", Command::ToggleMatches),
        ("Add engine", Command::ShowAddEngine),
    ] {
        tour.visit_window(title, open);
    }
    // The unsaved-changes question, before a quit.
    tour.command(Command::edit(Edit::ClearRobots));
    tour.visit_window("Unsaved changes", Command::Guarded(Pending::Quit));
    tour.command(Command::Undo);
    // A long error in the status line, naming a long path.
    let long = format!("/{}/missing.ron", "a-folder-with-a-long-name".repeat(8));
    tour.command(Command::Guarded(Pending::Open(PathBuf::from(long))));
    tour.check("a long error in the status line");
    tour.every_tab("nothing run", "Overlays");
    // Every overlay on, then the graph checked: its message is long.
    // The switches of the Overlays tab, below its button (not the solver's limits above).
    let tab_row = tour
        .harness
        .get_by_role_and_label(Role::Button, "Overlays")
        .rect()
        .bottom();
    loop {
        let off = tour
            .harness
            .query_all_by_role(Role::CheckBox)
            .filter(|node| node.rect().left() >= tour.size[0] * 0.6)
            .filter(|node| node.rect().top() > tab_row)
            .find(|node| node.accesskit_node().toggled() == Some(egui::accesskit::Toggled::False))
            .map(|node| node.rect().center());
        let Some(at) = off else { break };
        tour.click_at(at);
    }
    tour.check("every overlay on");
    if tour.harness.query_by_label("Check graph").is_some() {
        tour.click("Check graph");
        tour.check("the graph checked");
    }
    tour.command(Command::edit(Edit::PlaceRobot {
        color: ricochet_lab::model::RobotColor::Red,
        pos: ricochet_lab::model::Pos::new(3, 3),
    }));
    tour.check("a robot placed with every overlay on");
    tour.check_scrolling("every overlay on");
    tour.command(Command::Undo);
    tour.tab("Run");
}

/// Play mode: a long move list, then Undo move clicked where it was.
fn play_stops(tour: &mut Tour) {
    tour.command(Command::SetMode(
        ricochet_lab::app::document::mode::Mode::Play,
    ));
    tour.check("play mode");
    let start = tour.harness.state().draft().clone();
    let keys = [
        egui::Key::ArrowUp,
        egui::Key::ArrowRight,
        egui::Key::ArrowDown,
        egui::Key::ArrowLeft,
    ];
    for (at, robot) in [egui::Key::R, egui::Key::G, egui::Key::B, egui::Key::Y]
        .iter()
        .cycle()
        .take(12)
        .enumerate()
    {
        tour.harness.key_press(*robot);
        tour.harness.key_press(keys[at % 4]);
        tour.harness.key_press(keys[(at + 1) % 4]);
        tour.harness.run_ok();
        tour.check(&format!("play mode after {} key presses", 2 * at + 2));
    }
    let moves = tour.harness.state().play().map_or(0, |p| p.moves().len());
    assert!(moves >= 10, "only {moves} moves were made");
    // New game with moves played asks first; Escape keeps the game.
    tour.visit_window("New game", Command::NewGame);
    assert_eq!(
        tour.harness.state().play().map(|p| p.moves().len()),
        Some(moves),
        "Escape on New game's question kept the game"
    );
    // Clicks at the place Undo move was first seen take the moves back, one each.
    let undo = tour.harness.get_by_label("Undo move").rect().center();
    for _ in 0..moves {
        tour.click_at(undo);
    }
    let after = tour.harness.state().draft().clone();
    assert_eq!(after, start, "clicks on Undo move dealt no new game");
    assert_eq!(
        tour.harness.state().play().map(|p| p.moves().len()),
        Some(0)
    );
    tour.check("play mode, every move undone");
    tour.command(Command::SetMode(
        ricochet_lab::app::document::mode::Mode::Edit,
    ));
}

/// A depth-limited search, debugged and stepped until the node shown is 25 moves deep.
fn debug_stops(tour: &mut Tour) {
    tour.tab("Debugger");
    tour.click("Debug mode");
    assert!(
        tour.harness.state().app_state().debug.enabled,
        "Debug mode is on"
    );
    tour.click("Solve");
    let app = tour.harness.state();
    assert!(
        app.debugger().is_some(),
        "a debugged run starts: {:?} {:?}",
        app.status_message(),
        app.run_summary()
    );
    step_until(&mut tour.harness, Duration::from_secs(20), |app| {
        app.debugger().is_some_and(|d| d.is_paused())
    });
    tour.check("a debugged run paused");
    let mut events = tour
        .harness
        .state()
        .debugger()
        .map_or(0, |d| d.frame().view.events);
    while tour
        .harness
        .state()
        .debugger()
        .map_or(0, |d| d.shown_view().path.len())
        < 25
    {
        events += 1;
        tour.harness.key_press(egui::Key::F11);
        step_until(&mut tour.harness, Duration::from_secs(20), |app| {
            paused_at(app, events)
        });
        assert!(events < 800, "the search never went 25 moves deep");
    }
    tour.every_tab("a debugged run 25 moves deep", "Debugger");
    tour.check_scrolling("a debugged run 25 moves deep");
    tour.visit_window("Save the search trace", Command::SaveAs(SaveKind::Trace));
    tour.visit_window(
        "Export animation",
        Command::ExportAnimation(AnimationSubject::SearchUpTo(events.saturating_sub(1))),
    );
    tour.click("Cancel");
    step_until(&mut tour.harness, Duration::from_secs(20), finished);
    tour.check("the debugged run cancelled");
    tour.click("Debug mode");
}

/// A long IDDFS run in progress, then cancelled.
fn long_run_stops(tour: &mut Tour) {
    tour.tab("Run");
    import(&mut tour.harness, crate::common::HARD_GAME);
    choose_solver(&mut tour.harness, "iddfs");
    tour.check("iddfs chosen");
    tour.click("Solve");
    step_until(&mut tour.harness, Duration::from_secs(60), |app| {
        app.run_summary()
            .is_some_and(|r| r.running && r.rows.len() >= 14)
    });
    tour.every_tab("a long run in progress", "Run");
    tour.check_scrolling("a long run in progress");
    tour.click("Cancel");
    step_until(&mut tour.harness, Duration::from_secs(20), finished);
    tour.check("the long run cancelled");
}

/// A file changed on disk behind the app's back, then Save.
fn layout_tour(size: [f32; 2]) {
    let mut tour = Tour::new(size, |state| {
        state.solver.solver = SolverId::Dls.into();
        state.solver.use_depth_limit = true;
        state.solver.depth_limit = 30;
        state.debug.start_paused = true;
    });
    let folder = tempfile::tempdir().unwrap();
    editor_stops(&mut tour);
    play_stops(&mut tour);
    debug_stops(&mut tour);
    engine_stops(&mut tour, folder.path());
    disk_stops(&mut tour, folder.path());
    long_run_stops(&mut tour);
    tour.finish();
}

#[test]
fn layout_tour_at_1024x700() {
    layout_tour(SMALLEST);
}

#[test]
fn layout_tour_at_1360x900() {
    layout_tour(OPENING);
}
