//! Ricochet Lab: a board editor, visualiser and algorithm debugger for the board game
//! Ricochet Robots.
//!
//! Layers depend one way: [`model`] (board, robots, move rules, file formats) ←
//! [`solver`] (every algorithm, generic over a probe) ← [`worker`] (threads, cancellation,
//! live counters) ← [`app`] (the egui user interface). Beside the app, [`study`] (experiments,
//! bench, accuracy, the board analyser) runs solvers in bulk. The command line is part of the binary, not of this
//! library: it only turns arguments into the configurations defined here.

pub mod app;
pub mod model;
pub mod print;
pub mod solver;
pub mod study;
pub mod worker;
