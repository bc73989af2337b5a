//! Experiments: the thesis' study of every solver over thousands of game configurations,
//! reproducible from a seed, streamed to CSV and summarised in its tables.
//!
//! This layer runs solvers on worker threads (a rayon pool); the model and solver layers
//! below it stay single-threaded.

pub mod command;
pub mod record;
pub mod runner;
pub mod stats;

pub use record::{Record, Status};
pub use runner::{BoardSource, ExperimentConfig};
pub use stats::{Summary, summarize};
