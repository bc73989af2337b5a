//! Every solver against the reference puzzles, against each other and against its limits.

#[path = "../common/program.rs"]
mod common;

mod all_solutions;
mod every_solver;
mod fast_solver;
mod hints;
mod optimal_cross_check;
mod profile;
mod reference_puzzles;
mod solver_cross_check;
mod solver_limits;
mod thesis_solvers;
mod traces;
