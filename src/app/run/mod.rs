//! The run: the solver panel at the top of the dock (`solver_panel`) and what the Run tab and
//! the plots panel show of a solve: the per-depth table (`depth_table`), the icicle chart
//! ([`icicle`]), an engine's live figures (`engine_live`), the list of every optimal solution (`solutions_list`) and the live plots
//! (`plots`), each with its export as SVG or PNG (`plot_export`).

mod depth_table;
mod engine_live;
mod engine_options;
pub(super) mod engine_window;
pub(super) mod engines;
pub mod icicle;
pub(super) mod plot_export;
pub(super) mod plots;
pub(super) mod solutions_list;
pub(super) mod solver_panel;
