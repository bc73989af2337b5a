//! `ricochet-lab lesson check`: validates lesson files (see docs/lessons.md) and names every
//! problem, so that a teacher fixes them all in one go.

use super::output::outln;
use ricochet_lab::lesson::{self, Lesson};
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `lesson`.
#[derive(clap::Args, Debug)]
pub struct LessonArgs {
    #[command(subcommand)]
    command: LessonCommand,
}

#[derive(clap::Subcommand, Debug)]
enum LessonCommand {
    /// Check lesson files: their puzzle loads and has a solution, their solvers, overlays and
    /// breakpoints exist and fit the board, their text is there. Prints each problem as
    /// `FILE: FIELD: what is wrong`; exit 0 when every lesson is valid, 1 otherwise.
    Check(CheckArgs),
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// The lesson files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Runs `lesson`.
pub fn run(args: LessonArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        LessonCommand::Check(args) => check(&args),
    }
}

fn check(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let mut invalid = 0;
    let mut problems = 0;
    for path in &args.files {
        let found = lesson::check_file(path);
        if found.is_empty() {
            // The check resolved it: loading it again only to name its title costs little.
            let title = Lesson::load(path)
                .map(|lesson| lesson.title().to_string())
                .unwrap_or_default();
            outln!("{}: valid: {title}", path.display())?;
        } else {
            invalid += 1;
            problems += found.len();
            for problem in found {
                outln!("{problem}")?;
            }
        }
    }
    let count = args.files.len();
    if invalid == 0 {
        outln!("{count} of {count} lessons valid")?;
        Ok(ExitCode::SUCCESS)
    } else {
        let plural = if problems == 1 { "" } else { "s" };
        outln!(
            "{} of {count} lessons valid; {problems} problem{plural}",
            count - invalid
        )?;
        Ok(ExitCode::from(1))
    }
}
