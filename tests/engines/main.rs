//! External engines: the driver against engines that break the protocol, the built-in solvers
//! served as engines, and the Python example engine.

mod faults;
mod python_example;
mod serve;
mod studies;
