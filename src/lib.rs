//! Ricochet Lab: a board editor, visualiser and algorithm debugger for the board game
//! Ricochet Robots.
//!
//! Layers depend one way: [`model`] (board, robots, move rules, file formats) ←
//! [`solver`] (every algorithm, generic over a probe) ← [`worker`] (threads, cancellation,
//! live counters) ← [`app`] (the egui user interface). Beside the app, [`study`] (experiments,
//! bench, accuracy, the board analyser, positions made to order) runs solvers in bulk, and
//! [`print`](mod@print) draws a board for paper (SVG and PNG) from the model alone. The command line is
//! part of the binary, not of this library: it only turns arguments into the configurations
//! defined here.

pub mod app;
pub mod model;
pub mod print;
pub mod solver;
pub mod study;
pub mod worker;
