//! The command line: `solve`, `solvers`, `show`, `convert`, `experiment`, `random`,
//! `accuracy`, `screenshot`, `bench`, `hint`, `distances`, `analyze`, `export`, `engine`,
//! `trace`, `generate`, `match`, `lesson`, `install-desktop`, `share`, and the app (on a puzzle when one is given) when no
//! subcommand is given. A test keeps this list, and the guide's table of commands
//! (`docs/command-line.md`), in step with the commands clap knows.
//!
//! This module only parses arguments: each command's file turns its clap arguments into the
//! library's plain configuration and calls the library. Nothing in the library imports it.

mod accuracy;
mod all_solutions;
mod analyze;
mod analyze_report;
mod bench;
mod common;
mod convert;
mod desktop;
mod distances;
mod engine;
mod experiment;
mod export;
mod generate;
mod hint;
mod lesson;
mod matches;
mod open;
mod output;
mod random;
mod report;
mod screenshot;
mod share;
mod show;
mod solve;
mod solvers;
mod trace;
mod trace_animate;
mod trace_diff;
mod trace_frontier;
mod trace_open;
mod trace_posthoc;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// What `--version` prints after the program's name: the version from Cargo.toml and the
/// commit it was built from (`unknown` when built without git, as from a source tarball).
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("RICOCHET_LAB_COMMIT"),
    ")"
);

#[derive(Parser, Debug)]
#[command(
    name = "ricochet-lab",
    version = VERSION,
    about = "Board editor, visualiser and algorithm debugger for Ricochet Robots",
    long_about = "With no subcommand, opens the app, on PUZZLE when one is given. Every command \
                  that takes a puzzle accepts a .ron file, a .txt file in Kevin Cox's format, or \
                  a DriftingDroids game id such as 7650+42+E2302B12+C9.",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Open the app on this puzzle: a .ron file, a .txt file in Kevin Cox's format, or a game
    /// id.
    #[arg(value_name = "PUZZLE")]
    puzzle: Option<String>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a puzzle and print the per-depth statistics and the solution.
    Solve(solve::SolveArgs),
    /// List the solvers with their descriptions.
    Solvers,
    /// Draw a puzzle as text.
    Show(show::ShowArgs),
    /// Convert a puzzle between formats, chosen by the output's extension (.ron, .txt) or by
    /// --format (ron, cox, game-id, dd-dump, line); `-` prints it (a game id by default).
    Convert(convert::ConvertArgs),
    /// Run every chosen solver on many seeded configurations, write the results to CSV and
    /// print the thesis' tables (distribution, hit rates, times per required move count).
    Experiment(experiment::ExperimentArgs),
    /// Deal a random standard game from the real tiles.
    Random(random::RandomArgs),
    /// Measure how often a solver finds the optimum on random standard games, by optimal move
    /// count, against an optimal baseline.
    Accuracy(accuracy::AccuracyArgs),
    /// Open the app on a view and save a screenshot of it as PNG (needs a display; use
    /// xvfb-run on a machine without one).
    Screenshot(screenshot::ScreenshotArgs),
    /// Time solvers on the reference puzzles and 1,000 seeded random games.
    Bench(bench::BenchArgs),
    /// Give a hint: the optimal move count, then which robots move, the first move, the
    /// whole solution.
    Hint(hint::HintArgs),
    /// Print the exact distance map: for every robot and cell, the fewest moves (any robot may
    /// move) after which the robot stands there.
    Distances(distances::DistancesArgs),
    /// Analyse a board: solve every target with many seeded random robot deals and print the
    /// distribution of optimal lengths, each target's difficulty and the hardest positions.
    Analyze(analyze::AnalyzeArgs),
    /// Draw a puzzle's board for print, as SVG (vector) or PNG: walls, the centre block,
    /// targets, the active target and the robots.
    Export(export::ExportArgs),
    /// Register, list, remove, test and check external engines (solvers in any language that
    /// speak docs/engine-protocol.md), or serve a built-in solver as one.
    Engine(engine::EngineArgs),
    /// Record a whole search to a trace file, show what a trace holds, export it (JSON
    /// lines, Posthoc) or compare two traces to the first event at which they differ.
    Trace(trace::TraceArgs),
    /// Find positions on a board whose optimum is exactly N moves: seeded random deals climb
    /// towards that length (move a robot or change the target, keep what gets no farther).
    Generate(generate::GenerateArgs),
    /// Run two or more solvers or engines over a puzzle suite, checking every answer against
    /// the suite's optimum, and compare their times with a confidence interval.
    Match(matches::MatchArgs),
    /// Check lesson files: a puzzle prepared for teaching with its solvers, breakpoints,
    /// overlays and a page of text (see docs/lessons.md); every problem is named.
    Lesson(lesson::LessonArgs),
    /// Install the desktop entry, the puzzle file type and the icon for the current user, so
    /// that a launcher finds the app and a double-click on a .ron puzzle opens it.
    InstallDesktop(desktop::InstallDesktopArgs),
    /// Print a link to the puzzle page that plays a puzzle: its fragment holds the puzzle's
    /// board line, and with --with-solution its optimum and an optimal solution.
    Share(share::ShareArgs),
}

/// Runs the program: the app without arguments, a command otherwise.
pub fn main() -> ExitCode {
    common::fail_writes_past_the_file_size_limit();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return output::clap_exit(&error),
    };
    let Some(command) = cli.command else {
        let commands: Vec<String> = Cli::command()
            .get_subcommands()
            .map(|command| command.get_name().to_string())
            .collect();
        return open::run(cli.puzzle, &commands);
    };
    let code = output::exit_code(run(command));
    // An engine let go of after a cancel is still being given its grace: the program does
    // not wait for it, and leaves none behind.
    ricochet_lab::solver::engine::process::kill_processes_being_ended();
    code
}

fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Solve(args) => solve::run(args),
        Command::Solvers => solvers::run(),
        Command::Show(args) => show::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Experiment(args) => experiment::run(args),
        Command::Random(args) => random::run(args),
        Command::Accuracy(args) => accuracy::run(args),
        Command::Screenshot(args) => screenshot::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Hint(args) => hint::run(&args),
        Command::Distances(args) => distances::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Export(args) => export::run(args),
        Command::Generate(args) => generate::run(&args),
        Command::Match(args) => matches::run(args),
        Command::Lesson(args) => lesson::run(args),
        Command::Engine(args) => engine::run(args),
        Command::Trace(args) => trace::run(args),
        Command::InstallDesktop(args) => desktop::run(&args),
        Command::Share(args) => share::run(&args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command clap knows, in the order `--help` lists them.
    fn command_names() -> Vec<String> {
        Cli::command()
            .get_subcommands()
            .map(|command| command.get_name().to_string())
            .collect()
    }

    #[test]
    fn the_module_docs_name_every_command_in_the_order_help_lists_them() {
        let docs: String = include_str!("mod.rs")
            .lines()
            .map_while(|line| line.strip_prefix("//!"))
            .take_while(|line| !line.trim().is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let (list, _) = docs
            .split_once("and the app")
            .expect("the module docs list the commands, then the app");
        let named: Vec<String> = list
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        assert_eq!(named, command_names());
    }

    #[test]
    fn the_manual_page_describes_every_command() {
        let page = include_str!("../../packaging/ricochet-lab.1");
        for name in command_names() {
            assert!(
                page.contains(&format!(".B {name}\n")),
                "packaging/ricochet-lab.1 does not describe `{name}`"
            );
        }
    }

    #[test]
    fn the_guides_table_has_a_row_for_every_command() {
        let page = include_str!("../../docs/command-line.md");
        for name in command_names() {
            assert!(
                page.contains(&format!("| `ricochet-lab {name}")),
                "docs/command-line.md has no row for `{name}`"
            );
        }
    }
}
