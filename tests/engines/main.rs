//! External engines: the driver against engines that break the protocol, the built-in solvers
//! served as engines, and the Python example engine.

mod endings;
mod faults;
mod fuzz;
mod options;
mod python_example;
mod serve;
mod studies;

/// Helpers the engine tests share.
mod common {
    use std::path::Path;
    use std::process::Command;

    /// The program under test.
    pub const LAB: &str = env!("CARGO_BIN_EXE_ricochet-lab");

    /// Runs the program from the source folder with its engines kept in `config` (never the
    /// user's own list): exit code, standard output, standard error.
    pub fn lab_in(config: &Path, args: &[&str]) -> (i32, String, String) {
        let out = Command::new(LAB)
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("RICOCHET_LAB_CONFIG_DIR", config)
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}
