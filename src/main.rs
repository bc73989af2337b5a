//! The `ricochet-lab` binary: the app with no arguments, the command line otherwise.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
