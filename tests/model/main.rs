//! The file formats: round trips, saving, and the fuzzed loaders.

mod formats;
mod fuzz_loaders;
mod fuzz_trace;
mod saving;
mod sharing;
