//! The usage tour: the app used as a designer, a player and a student would use it, at the
//! smallest window the app is laid out for and at the size it opens with, with texts and
//! lists that grow as they do in use: a target combo whose text changes width, seeds that gain
//! a digit, a play move list of 30 moves with hints and hot/cold, a debugged run stepped
//! through every dock tab, the Compare and Export windows.
//!
//! Where the layout tour checks fixed scenes, this one records the rectangle of every labelled
//! control in every frame and fails when one moves, is cut at its side, or leaves the window
//! while the window's size, the mode, the dock tab and the windows open stay the same: a
//! control that slides while its neighbour's text grows is one a pointer misses.

use crate::common::{manifest, paused_at, step_until};
use egui::accesskit::Role;
use egui::{Pos2, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use ricochet_lab::app::RicochetApp;
use ricochet_lab::app::command::{AnimationSubject, Command};
use ricochet_lab::app::document::draft::Edit;
use ricochet_lab::app::document::mode::Mode;
use ricochet_lab::app::shell::dock_tab_titles;
use ricochet_lab::model::Goal;
use ricochet_lab::solver::SolverId;
use std::collections::BTreeMap;
use std::time::Duration;

/// The smallest window the app is laid out for, and the one it opens with.
const SIZES: [[f32; 2]; 2] = [[1024.0, 700.0], [1360.0, 900.0]];

/// The roles a user clicks, types into or drags.
const CONTROL_ROLES: [Role; 9] = [
    Role::Button,
    Role::CheckBox,
    Role::RadioButton,
    Role::ComboBox,
    Role::TextInput,
    Role::MultilineTextInput,
    Role::Slider,
    Role::SpinButton,
    Role::Link,
];

/// One labelled control of a frame.
struct Control {
    /// Role, label and how many controls of that role and label came before it.
    key: String,
    rect: Rect,
    shown: Rect,
}

/// The app on its way through the tour, with where each control was first seen in each scene.
struct Usage {
    harness: Harness<'static, RicochetApp>,
    size: [f32; 2],
    tab: &'static str,
    /// The first place of each control, by scene and control, with the step that saw it.
    places: BTreeMap<(String, String), (Rect, String)>,
    failures: Vec<String>,
    frames: usize,
}

impl Usage {
    fn new(size: [f32; 2]) -> Usage {
        let text = std::fs::read_to_string(manifest("boards/real-21.ron")).unwrap();
        let puzzle = ricochet_lab::model::formats::native::parse(&text).unwrap();
        let harness = crate::common::harness_on(&puzzle, size, |state| {
            state.solver.solver = SolverId::Dls.into();
            state.solver.use_depth_limit = true;
            state.solver.depth_limit = 30;
            state.debug.start_paused = true;
        });
        Usage {
            harness,
            size,
            tab: "Run",
            places: BTreeMap::new(),
            failures: Vec::new(),
            frames: 0,
        }
    }

    /// What stays the same while no control may move: the mode, the dock tab and the
    /// windows open.
    fn scene(&self) -> String {
        let mode = self.harness.state().mode();
        let mut windows: Vec<String> = self
            .harness
            .query_all_by_role(Role::Window)
            .filter_map(|node| node.accesskit_node().label().map(|l| l.to_string()))
            .collect();
        windows.sort();
        format!("{mode:?}, {} tab, windows {windows:?}", self.tab)
    }

    /// Every labelled control of the last frame, from the accessibility tree (egui keeps its
    /// own widget descriptions only in debug builds, and the tests run in release), with the
    /// part of it its panel shows when no window is open over the panels.
    fn controls(&self) -> Vec<Control> {
        let panels = self.harness.state().panel_rects();
        let windows_open = self
            .harness
            .query_all_by_role(Role::Window)
            .next()
            .is_some();
        let whole = Rect::from_min_size(Pos2::ZERO, self.size.into());
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut controls = Vec::new();
        for role in CONTROL_ROLES {
            for node in self.harness.query_all_by_role(role) {
                let Some(label) = node.accesskit_node().label().filter(|l| !l.is_empty()) else {
                    continue;
                };
                let rect = node.rect();
                if rect.area() <= 0.0 {
                    continue;
                }
                let name = format!("{role:?} {label:?}");
                let count = seen.entry(name.clone()).or_default();
                *count += 1;
                // The panel a control sits in is all of it that shows: nothing scrolls
                // sideways.
                let within = |panel: Rect| panel.contains(rect.center());
                let panel = if windows_open {
                    whole
                } else if within(panels.tools) {
                    panels.tools
                } else if within(panels.dock) {
                    panels.dock
                } else {
                    whole
                };
                controls.push(Control {
                    key: format!("{name} #{count}"),
                    rect,
                    shown: rect.intersect(Rect::from_x_y_ranges(panel.x_range(), rect.y_range())),
                });
            }
        }
        controls
    }

    fn fail(&mut self, step: &str, what: String) {
        let size = format!("{}x{}", self.size[0], self.size[1]);
        self.failures.push(format!("{size} {step}: {what}"));
    }

    /// Checks the frame shown: every control inside the window, whole across, and where it
    /// was first seen in this scene.
    fn frame(&mut self, step: &str) {
        self.frames += 1;
        let scene = self.scene();
        let window = Rect::from_min_size(Pos2::ZERO, self.size.into()).expand(0.5);
        for control in self.controls() {
            let Control { key, rect, shown } = control;
            // Sideways only: a panel's scroll area may hold a control below the window's edge.
            if rect.left() < window.left() || rect.right() > window.right() {
                self.fail(step, format!("{key} at {rect:?} leaves the window"));
                continue;
            }
            // Nothing scrolls sideways: a control cut at its side is cut for good.
            if shown.width() + 0.5 < rect.width() {
                self.fail(
                    step,
                    format!("{key} at {rect:?} is cut at its side ({shown:?})"),
                );
            }
            match self.places.get(&(scene.clone(), key.clone())) {
                None => {
                    self.places
                        .insert((scene.clone(), key), (rect, step.to_string()));
                }
                Some((first, seen)) if !same_place(*first, rect) => {
                    let what = format!("{key} moved from {first:?} ({seen}) to {rect:?}");
                    self.fail(step, what);
                }
                Some(_) => {}
            }
        }
    }

    /// Runs frames until the app is quiet, then checks the frame.
    fn settle(&mut self, step: &str) {
        self.harness.run_ok();
        self.frame(step);
    }

    fn key(&mut self, key: egui::Key, step: &str) {
        self.harness.key_press(key);
        self.settle(step);
    }

    fn command(&mut self, command: Command, step: &str) {
        self.harness.state_mut().apply_command(command);
        self.settle(step);
    }

    /// Clicks the button of that label (a tool's, where the same label names its box too),
    /// or the one control that has it.
    fn click(&mut self, label: &str, step: &str) {
        match self.harness.query_by_role_and_label(Role::Button, label) {
            Some(button) => button.click(),
            None => self.harness.get_by_label(label).click(),
        }
        self.settle(step);
    }

    fn tab(&mut self, title: &'static str) {
        self.harness
            .get_by_role_and_label(Role::Button, title)
            .click();
        self.tab = title;
        self.settle(&format!("the {title} tab"));
    }

    fn finish(self) {
        assert!(
            self.frames > 100,
            "the tour checked only {} frames",
            self.frames
        );
        assert!(
            self.failures.is_empty(),
            "{} controls moved or were cut:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}

/// Whether two rectangles are one place, to a rounding's half point.
fn same_place(a: Rect, b: Rect) -> bool {
    (a.min - b.min).length() <= 0.5 && (a.max - b.max).length() <= 0.5
}

/// A designer: the Active target combo through targets of every name length, seeds growing
/// by a digit, robots dealt, a target printed and the targets cleared.
fn designing(usage: &mut Usage) {
    usage.frame("the editor");
    for tool in ["Active target", "Targets", "Robots", "Walls"] {
        usage.click(tool, &format!("the {tool} tool"));
    }
    usage.click("Active target", "the Active target tool again");
    let targets: Vec<Goal> = usage
        .harness
        .state()
        .draft()
        .board
        .targets()
        .iter()
        .map(|t| Goal {
            pos: t.pos,
            color: t.color,
        })
        .collect();
    for (at, goal) in targets.iter().enumerate() {
        usage.command(
            Command::edit(Edit::SetGoal(*goal)),
            &format!("active target {at}"),
        );
    }
    // The seeds start at 1: ten deals give them a second digit.
    for deal in 0..10 {
        usage.click("Random standard board", &format!("board deal {deal}"));
        usage.click("Random robots", &format!("robots deal {deal}"));
        usage.click("Random target", &format!("target deal {deal}"));
    }
    usage.command(Command::edit(Edit::ClearTargets), "the targets cleared");
    usage.command(Command::Undo, "the targets back");
}

/// A player: 30 moves with hot/cold on, hints asked for on the way, every move taken back.
fn playing(usage: &mut Usage) {
    usage.key(egui::Key::P, "play mode");
    assert_eq!(usage.harness.state().mode(), Mode::Play);
    let robots = [egui::Key::R, egui::Key::G, egui::Key::B, egui::Key::Y];
    let arrows = [
        egui::Key::ArrowUp,
        egui::Key::ArrowRight,
        egui::Key::ArrowDown,
        egui::Key::ArrowLeft,
    ];
    let mut tries = 0;
    while usage.harness.state().play().map_or(0, |p| p.moves().len()) < 30 {
        tries += 1;
        assert!(tries < 200, "30 moves could not be made");
        usage.harness.key_press(robots[(tries / 4) % 4]);
        usage.key(
            arrows[(tries * 3 + tries / 7) % 4],
            &format!("key press {tries}"),
        );
        if tries % 9 == 0 {
            usage.key(egui::Key::H, &format!("a hint after key press {tries}"));
            step_until(&mut usage.harness, Duration::from_secs(60), |app| {
                !app.hint_computing()
            });
            usage.frame(&format!("the hint after key press {tries}"));
        }
    }
    // Hot/cold's line has had its say on the way: wait for it to catch up once.
    step_until(&mut usage.harness, Duration::from_secs(60), |app| {
        !matches!(app.hot_cold(), Some(ricochet_lab::app::HotCold::Working))
    });
    usage.frame("hot/cold caught up after 30 moves");
    for more in 0..3 {
        usage.key(egui::Key::H, &format!("hint level {more}"));
        step_until(&mut usage.harness, Duration::from_secs(60), |app| {
            !app.hint_computing()
        });
        usage.frame(&format!("hint level {more} shown"));
    }
    for undo in 0..30 {
        usage.key(egui::Key::U, &format!("move {undo} taken back"));
    }
    usage.key(egui::Key::E, "back to the editor");
}

/// A student: a depth-limited search debugged, stepped, and looked at from every dock tab.
fn debugging(usage: &mut Usage) {
    usage.tab("Debugger");
    usage.click("Debug mode", "Debug mode on");
    usage.click("Solve", "a debugged solve");
    step_until(&mut usage.harness, Duration::from_secs(20), |app| {
        app.debugger().is_some_and(|d| d.is_paused())
    });
    usage.frame("the debugged run paused");
    let mut events = usage
        .harness
        .state()
        .debugger()
        .map_or(0, |d| d.frame().view.events);
    for step in 0..40 {
        events += 1;
        usage.harness.key_press(egui::Key::F11);
        step_until(&mut usage.harness, Duration::from_secs(20), |app| {
            paused_at(app, events)
        });
        usage.frame(&format!("debugger step {step}"));
    }
    for title in dock_tab_titles() {
        usage.tab(title);
        usage.frame(&format!("the {title} tab, paused"));
    }
    usage.tab("Debugger");
    usage.command(Command::ToggleCompare, "the Compare window");
    usage.command(Command::ToggleCompare, "the Compare window closed");
    usage.command(
        Command::ExportAnimation(AnimationSubject::SearchUpTo(events.saturating_sub(1))),
        "the Export animation window",
    );
    usage.key(egui::Key::Escape, "the Export animation window closed");
    usage.click("Cancel", "the debugged run cancelled");
    step_until(
        &mut usage.harness,
        Duration::from_secs(20),
        crate::common::finished,
    );
    usage.frame("the debugged run ended");
    usage.click("Debug mode", "Debug mode off");
}

fn usage_tour(size: [f32; 2]) {
    let mut usage = Usage::new(size);
    designing(&mut usage);
    playing(&mut usage);
    debugging(&mut usage);
    usage.finish();
}

#[test]
fn usage_tour_at_1024x700() {
    usage_tour(SIZES[0]);
}

#[test]
fn usage_tour_at_1360x900() {
    usage_tour(SIZES[1]);
}

/// Problem: in Play, Ctrl+Z undid the last New game's deal and threw the moves away. It takes
/// back a move, never a deal; Ctrl+Y plays the move again.
#[test]
fn ctrl_z_in_play_takes_back_a_move_and_keeps_the_deal() {
    let text = std::fs::read_to_string(manifest("boards/real-21.ron")).unwrap();
    let puzzle = ricochet_lab::model::formats::native::parse(&text).unwrap();
    let mut harness = crate::common::harness_on(&puzzle, SIZES[0], |_| {});
    harness.key_press(egui::Key::P);
    harness.run_ok();
    harness.key_press(egui::Key::N);
    harness.run_ok();
    harness.key_press(egui::Key::N);
    harness.run_ok();
    let dealt = harness.state().draft().clone();
    let start = harness.state().play().expect("a game").position();
    // A move of the selected robot, whichever way it can go.
    crate::common::first_move(&mut harness);
    assert_eq!(harness.state().play().map(|p| p.moves().len()), Some(1));
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.run_ok();
    let app = harness.state();
    assert_eq!(app.draft(), &dealt, "the deal is kept");
    assert_eq!(
        app.play().map(|p| p.moves().len()),
        Some(0),
        "the move is taken back"
    );
    assert_eq!(app.play().map(|p| p.position()), Some(start));
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    harness.run_ok();
    assert_eq!(
        harness.state().play().map(|p| p.moves().len()),
        Some(1),
        "Ctrl+Y plays it again"
    );
    // New game now asks before the move is lost.
    harness.key_press(egui::Key::N);
    harness.run_ok();
    assert_eq!(
        harness.state().draft(),
        &dealt,
        "nothing dealt before the answer"
    );
    harness.get_by_label("Keep playing").click();
    harness.run_ok();
    assert_eq!(harness.state().play().map(|p| p.moves().len()), Some(1));
    harness.key_press(egui::Key::N);
    harness.run_ok();
    harness.get_by_label("Deal a new game").click();
    harness.run_ok();
    assert_ne!(harness.state().draft(), &dealt, "a new deal once asked for");
    assert_eq!(harness.state().play().map(|p| p.moves().len()), Some(0));
}
