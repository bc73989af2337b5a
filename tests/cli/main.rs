//! The command line run as a user runs it: every command, its output, its exit codes and its edges.

mod analyze;
mod commands;
mod distances;
mod edges;
mod experiment_shards;
mod files_and_exits;
mod hint_cancel;
mod lessons;
mod match_shards;
mod matches;
mod nothing_lost;
mod page_and_link;
mod page_in_browser;
mod plots;
mod sharing;
mod trace;
mod trace_animate;
mod trace_health;
mod trace_learning;
mod webdriver;

#[path = "../common/program.rs"]
mod common;
