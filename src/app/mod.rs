//! The desktop app.

use crate::model::{Direction, Pos, Puzzle, RobotColor, samples};
use egui::{Color32, Pos2, Rect, Stroke, Vec2};

/// Opens the app window and runs it until it is closed.
pub fn run_native() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Ricochet Lab")
            .with_inner_size([1100.0, 800.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Ricochet Lab",
        options,
        Box::new(|_cc| Ok(Box::new(RicochetApp::default()))),
    )
}

/// The app's state.
pub struct RicochetApp {
    puzzle: Puzzle,
}

impl Default for RicochetApp {
    fn default() -> Self {
        RicochetApp {
            puzzle: samples::fogleman_22(),
        }
    }
}

impl eframe::App for RicochetApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::CentralPanel::default().show(ui, |ui| {
            board_ui(ui, &self.puzzle);
        });
    }
}

fn robot_color(color: RobotColor) -> Color32 {
    match color {
        RobotColor::Red => Color32::from_rgb(220, 50, 47),
        RobotColor::Green => Color32::from_rgb(60, 170, 60),
        RobotColor::Blue => Color32::from_rgb(38, 110, 210),
        RobotColor::Yellow => Color32::from_rgb(230, 190, 20),
        RobotColor::Silver => Color32::from_rgb(170, 170, 180),
    }
}

fn board_ui(ui: &mut egui::Ui, puzzle: &Puzzle) {
    let board = puzzle.board();
    let available = ui.available_size();
    let cell =
        (available.x / f32::from(board.width())).min(available.y / f32::from(board.height()));
    let size = Vec2::new(
        cell * f32::from(board.width()),
        cell * f32::from(board.height()),
    );
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let cell_rect = |pos: Pos| {
        Rect::from_min_size(
            rect.min + Vec2::new(f32::from(pos.x) * cell, f32::from(pos.y) * cell),
            Vec2::splat(cell),
        )
    };
    painter.rect_filled(rect, 0.0, Color32::from_gray(235));
    for index in 0..board.cell_count() as u16 {
        let pos = board.pos(index);
        let r = cell_rect(pos);
        if board.is_closed(index) {
            painter.rect_filled(r, 0.0, Color32::from_gray(90));
        }
        painter.rect_stroke(
            r,
            0.0,
            Stroke::new(0.5, Color32::from_gray(200)),
            egui::StrokeKind::Inside,
        );
        let wall = Stroke::new((cell * 0.08).max(2.0), Color32::from_gray(30));
        for dir in Direction::ALL {
            if board.has_wall(index, dir) {
                let (a, b) = match dir {
                    Direction::North => (r.left_top(), r.right_top()),
                    Direction::East => (r.right_top(), r.right_bottom()),
                    Direction::South => (r.left_bottom(), r.right_bottom()),
                    Direction::West => (r.left_top(), r.left_bottom()),
                };
                painter.line_segment([a, b], wall);
            }
        }
    }
    let goal = cell_rect(puzzle.goal().pos);
    painter.rect_filled(
        goal.shrink(cell * 0.15),
        2.0,
        Color32::from_rgb(120, 120, 220),
    );
    for robot in puzzle.robots() {
        let r = cell_rect(robot.pos);
        painter.circle_filled(r.center(), cell * 0.35, robot_color(robot.color));
    }
    let _ = Pos2::ZERO;
}
