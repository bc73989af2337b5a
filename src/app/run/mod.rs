//! The run: the solver panel at the top of the dock (`solver_panel`) and what the Run tab and
//! the plots panel show of a solve: the per-depth table (`depth_table`), the icicle chart
//! ([`icicle`]), the list of every optimal solution (`solutions_list`) and the live plots
//! (`plots`).

pub(crate) mod depth_table;
pub(crate) mod engines;
pub mod icicle;
pub(crate) mod plots;
pub(crate) mod solutions_list;
pub(crate) mod solver_panel;
