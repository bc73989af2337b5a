//! Lessons in the app: the Help menu's list of the shipped lessons and the dock's Lesson tab,
//! which shows the open lesson's page of text beside the board with its solvers one click
//! away. Opening a lesson (setting the board, the solver, the breakpoints and the overlays it
//! names) is the shell's, since it reaches into every room; this room holds what is shown.

use crate::app::command::{Command, Pending};
use crate::app::theme;
use crate::lesson::text::{TextBlock, blocks};
use crate::lesson::{Lesson, LessonEntry};
use crate::solver::SolverPick;

/// What the lessons' parts of the window keep.
#[derive(Debug, Default)]
pub(in crate::app) struct LessonState {
    /// The shipped lessons, read once when the app starts.
    pub(in crate::app) shipped: Vec<LessonEntry>,
    /// The lesson open in the Lesson tab.
    pub(in crate::app) open: Option<Lesson>,
    /// Whether the open lesson asks for the debugger's Predict mode.
    pub(in crate::app) predict: bool,
}

impl LessonState {
    /// The shipped lessons in `boards` (the shipped boards' folder), none open.
    pub(in crate::app) fn from_boards(boards: Option<&std::path::Path>) -> LessonState {
        LessonState {
            shipped: boards
                .map(|boards| {
                    crate::lesson::lessons_in(&boards.join(crate::lesson::SHIPPED_FOLDER))
                })
                .unwrap_or_default(),
            open: None,
            predict: false,
        }
    }
}

/// The Help menu's Lessons submenu: each shipped lesson in one click (its summary on hover),
/// and a lesson file of one's own through File > Open.
pub(in crate::app) fn lessons_menu_ui(
    ui: &mut egui::Ui,
    shipped: &[LessonEntry],
    commands: &mut Vec<Command>,
) {
    ui.menu_button("Lessons", |ui| {
        if shipped.is_empty() {
            ui.label("No lessons were found beside the program (boards/lessons/).");
        }
        for entry in shipped {
            let mut button = ui.button(entry.title.as_str());
            if !entry.summary.is_empty() {
                button = button.on_hover_text(entry.summary.as_str());
            }
            if button.clicked() {
                commands.push(Command::Guarded(Pending::Open(entry.path.clone())));
                ui.close();
            }
        }
        ui.separator();
        if ui.button("Open a lesson file...").clicked() {
            commands.push(Command::OpenDialog);
            ui.close();
        }
    });
}

/// The dock's Lesson tab: the open lesson's title, its solvers (a click chooses one), and its
/// page of text; without a lesson, the shipped lessons to open.
pub(in crate::app) fn lesson_tab_ui(
    ui: &mut egui::Ui,
    state: &LessonState,
    solver: &mut SolverPick,
    commands: &mut Vec<Command>,
) {
    let Some(lesson) = &state.open else {
        no_lesson_ui(ui, &state.shipped, commands);
        return;
    };
    ui.heading(lesson.title());
    ui.horizontal_wrapped(|ui| {
        if !lesson.solvers.is_empty() {
            ui.label("Solvers:");
            for id in &lesson.solvers {
                let pick = SolverPick::BuiltIn(*id);
                let chosen = *solver == pick;
                if ui
                    .selectable_label(chosen, id.name())
                    .on_hover_text(format!("Choose {} in the solver panel", id.name()))
                    .clicked()
                {
                    *solver = pick;
                }
            }
            ui.separator();
        }
        if let Some(path) = &lesson.path
            && ui
                .button("Start again")
                .on_hover_text("Open the lesson again as it was prepared")
                .clicked()
        {
            commands.push(Command::Guarded(Pending::Open(path.clone())));
        }
        if ui.button("Close lesson").clicked() {
            commands.push(Command::CloseLesson);
        }
    });
    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt("lesson-text")
        .auto_shrink([false, false])
        .show(ui, |ui| text_ui(ui, &lesson.file.text));
}

/// The shipped lessons as buttons, when no lesson is open.
fn no_lesson_ui(ui: &mut egui::Ui, shipped: &[LessonEntry], commands: &mut Vec<Command>) {
    ui.label(
        "No lesson is open. A lesson opens a puzzle with its solvers, breakpoints and overlays \
         set, and its questions here. Open one of these, or a lesson file of your own with \
         File > Open:",
    );
    ui.add_space(4.0);
    egui::ScrollArea::vertical()
        .id_salt("lesson-list")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for entry in shipped {
                let mut button = ui.button(entry.title.as_str());
                if !entry.summary.is_empty() {
                    button = button.on_hover_text(entry.summary.as_str());
                }
                if button.clicked() {
                    commands.push(Command::Guarded(Pending::Open(entry.path.clone())));
                }
            }
        });
}

/// A lesson's page of text: headings, list items and wrapped paragraphs.
fn text_ui(ui: &mut egui::Ui, text: &str) {
    let palette = theme::palette(ui.visuals().dark_mode);
    for block in blocks(text) {
        match block {
            TextBlock::Heading(heading) => {
                ui.add_space(6.0);
                ui.label(egui::RichText::new(heading).strong().size(15.0));
            }
            TextBlock::Paragraph(paragraph) => {
                ui.add(egui::Label::new(paragraph).wrap());
                ui.add_space(4.0);
            }
            TextBlock::Item { mark, text } => {
                ui.horizontal_top(|ui| {
                    ui.label(egui::RichText::new(mark).color(palette.muted));
                    ui.add(egui::Label::new(text).wrap());
                });
            }
        }
    }
}
