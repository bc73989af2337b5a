//! The `ricochet-lab` binary: the app with no arguments, the command line otherwise.

fn main() -> std::process::ExitCode {
    ricochet_lab::cli::main()
}
