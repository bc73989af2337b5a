//! Experiments: the thesis' study of every solver over thousands of game configurations,
//! reproducible from a seed, streamed to CSV and summarised in its tables.
//!
//! [`runner::run`] runs configurations on a rayon pool of `threads` threads (one by default,
//! so timings are not disturbed), joined before it returns.

pub mod charts;
pub mod description;
pub mod merge;
pub mod record;
pub mod runner;
pub mod shard;
pub mod stats;

pub use description::StudyDescription;
pub use merge::MergeError;
pub use record::{Record, Status};
pub use runner::{BoardSource, ConfigError, ExperimentConfig};
pub use shard::Shard;
pub use stats::{Summary, summarize};
