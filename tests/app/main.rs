//! The app driven through egui_kittest by its accessible labels, one module per view or job.

mod analyzer;
mod common;
mod compare;
mod debugger;
mod distance_map;
mod editing;
mod engine_layers;
mod engines;
mod experiments;
mod frame_time;
mod graph_layer;
mod hints;
mod hot_cold;
mod layout;
mod layout_tour;
mod live_optimum;
mod looks;
mod new_user;
mod opening;
mod plot_export;
mod search_tree;
mod sharing;
mod solutions_list;
mod solving;
mod stateless_layer;
mod views;
