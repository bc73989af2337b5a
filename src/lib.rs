//! Ricochet Lab: a board editor, visualiser and algorithm debugger for the board game
//! Ricochet Robots.
//!
//! Layers depend one way: [`model`] (board, robots, move rules, file formats) ←
//! [`solver`] (every algorithm, generic over a probe) ← the worker and the [`app`].
//! The [`cli`] gives the same engine headless.

pub mod accuracy;
pub mod analyze;
pub mod app;
pub mod bench;
pub mod cli;
pub mod commands;
pub mod experiment;
pub mod model;
pub mod solver;
pub mod worker;
