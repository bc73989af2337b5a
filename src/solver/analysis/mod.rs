//! Analyses built on the solvers rather than algorithms of their own: every optimal solution
//! of a position, hints drawn from them, and exact distances from every placement.

pub mod all_solutions;
pub mod distances;
pub mod first_solution;
pub mod hints;
