//! The command line: `solve`, `solvers`, `show`, `convert`, `random`, and the app when no
//! subcommand is given.

use crate::model::formats::{self, FormatError};
use crate::model::{Puzzle, format_moves, text, tiles};
use crate::solver::{self, Limits, NoProbe, Optimality, Outcome, Probe, Report, SolverOptions};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Exit code for a run stopped by a limit or cancelled.
const EXIT_STOPPED: u8 = 3;
/// Exit code for a solver answer that failed its replay.
const EXIT_INVALID: u8 = 4;

#[derive(Parser, Debug)]
#[command(
    name = "ricochet-lab",
    version,
    about = "Board editor, visualiser and algorithm debugger for Ricochet Robots",
    long_about = "With no subcommand, opens the app. Every command that takes a puzzle accepts \
                  a .ron file, a .txt file in Kevin Cox's format, or a DriftingDroids game id \
                  such as 7650+42+E2302B12+C9."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a puzzle and print the per-depth statistics and the solution.
    Solve {
        /// A .ron file, a .txt Cox file, or a game id.
        source: String,
        /// The solver's name (see `ricochet-lab solvers`).
        #[arg(long, default_value = "iddfs")]
        solver: String,
        /// Stop after this many seconds.
        #[arg(long, value_name = "SECS")]
        time_limit: Option<f64>,
        /// Stop when the solver's tables exceed this many MiB.
        #[arg(long, value_name = "MIB", default_value_t = 8192)]
        memory_limit: u64,
        /// The deepest search a depth-limited solver tries.
        #[arg(long, value_name = "N")]
        depth_limit: Option<u32>,
        /// Apply the ricochet rule (no solutions of zero or one move).
        #[arg(long)]
        ricochet: bool,
        /// Apply the no-rebound rule (a robot may not move straight back).
        #[arg(long)]
        no_rebound: bool,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
        /// List every optimal solution (an optimal solver fixes the length first).
        #[arg(long)]
        all_solutions: bool,
        /// With --all-solutions: list at most this many.
        #[arg(long, value_name = "N", default_value_t = crate::solver::all_solutions::DEFAULT_MAX_SOLUTIONS, requires = "all_solutions")]
        max_solutions: usize,
    },
    /// Give a hint: the optimal move count, then which robots move, the first move, the
    /// whole solution.
    Hint(crate::commands::HintArgs),
    /// Print the exact distance map: for every robot and cell, the fewest moves (any robot may
    /// move) after which the robot stands there.
    Distances(crate::commands::DistancesArgs),
    /// Analyse a board: solve every target with many seeded random robot deals and print the
    /// distribution of optimal lengths, each target's difficulty and the hardest positions.
    Analyze(crate::commands::AnalyzeArgs),
    /// List the solvers with their descriptions.
    Solvers,
    /// Draw a puzzle as text.
    Show {
        /// A .ron file, a .txt Cox file, or a game id.
        source: String,
    },
    /// Convert a puzzle between formats, chosen by the output's extension (.ron, .txt), or
    /// print its game id when the output is `-`.
    Convert {
        /// A .ron file, a .txt Cox file, or a game id.
        input: String,
        /// A .ron or .txt path, or `-` for the game id on standard output.
        output: String,
    },
    /// Run every chosen solver on many seeded configurations, write the results to CSV and
    /// print the thesis' tables (distribution, hit rates, times per required move count).
    Experiment(crate::experiment::command::ExperimentArgs),
    /// Deal a random standard game from the real tiles.
    Random {
        /// The seed; the same seed deals the same game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The number of robots (red, green, blue, yellow, then silver).
        #[arg(long, default_value_t = 4)]
        robots: usize,
        /// Save the game to this .ron or .txt file instead of printing it.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Measure how often a solver finds the optimum on random standard games, by optimal move
    /// count, against an optimal baseline.
    Accuracy(crate::accuracy::AccuracyArgs),
    /// Open the app on a view and save a screenshot of it as PNG (needs a display; use
    /// xvfb-run on a machine without one).
    Screenshot {
        /// The view: the name of a picture in screenshots/ without `.png` (editor, solving,
        /// debug-paused, experiments, ...); an unknown name lists them all.
        view: String,
        /// The PNG file to write.
        file: PathBuf,
        /// For the experiments views: show the rows of this results CSV (as written by
        /// `experiment`) instead of running a fresh 300-configuration experiment.
        #[arg(long, value_name = "CSV")]
        results: Option<PathBuf>,
    },
    /// Time solvers on the reference puzzles and 1,000 seeded random games.
    Bench(crate::bench::BenchArgs),
}

/// Runs the program: the app without arguments, a command otherwise.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        return match crate::app::run_native() {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("error: the window could not be opened: {error}");
                ExitCode::FAILURE
            }
        };
    };
    match run(command) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Solve {
            source,
            solver,
            time_limit,
            memory_limit,
            depth_limit,
            ricochet,
            no_rebound,
            json,
            all_solutions,
            max_solutions,
        } => {
            let puzzle = load(&source)?;
            let mut rules = puzzle.rules();
            rules.ricochet |= ricochet;
            rules.no_rebound |= no_rebound;
            let puzzle = puzzle.with_rules(rules);
            let limits = Limits {
                time: time_limit
                    .map(|s| {
                        Duration::try_from_secs_f64(s).map_err(|_| {
                            anyhow::anyhow!("--time-limit must be a positive number of seconds")
                        })
                    })
                    .transpose()?,
                memory_bytes: Some((memory_limit as usize).saturating_mul(1 << 20)),
                cancel: None,
            };
            let options = SolverOptions { depth_limit };
            if all_solutions {
                return if json {
                    crate::commands::solve_all(
                        &solver,
                        &puzzle,
                        &options,
                        max_solutions,
                        &limits,
                        &mut NoProbe,
                        true,
                    )
                } else {
                    let kind = solver::kind(&solver)
                        .ok_or_else(|| solver::SolveError::UnknownSolver(solver.clone()))?;
                    crate::commands::solve_all(
                        &solver,
                        &puzzle,
                        &options,
                        max_solutions,
                        &limits,
                        &mut PrintRows { kind },
                        false,
                    )
                };
            }
            let report = if json {
                solver::run(&solver, &puzzle, &options, &limits, &mut NoProbe)?
            } else {
                let kind = solver::kind(&solver)
                    .ok_or_else(|| solver::SolveError::UnknownSolver(solver.clone()))?;
                let mut probe = PrintRows { kind };
                solver::run(&solver, &puzzle, &options, &limits, &mut probe)?
            };
            if json {
                println!("{}", report_json(&report));
            } else {
                print_report(&report);
            }
            Ok(exit_code(&report.outcome))
        }
        Command::Hint(args) => crate::commands::hint(&args),
        Command::Distances(args) => crate::commands::distances(&args),
        Command::Analyze(args) => crate::commands::analyze(&args),
        Command::Solvers => {
            for kind in solver::SOLVERS {
                let optimal = match kind.optimality {
                    Optimality::Guaranteed => "optimal",
                    Optimality::NotGuaranteed => "optimal: not guaranteed",
                };
                println!("{:<16} {} ({optimal})", kind.name, kind.description);
                println!("{:<16} from: {}", "", kind.source);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Show { source } => {
            let puzzle = load(&source)?;
            print!("{}", text::draw(&puzzle));
            if let Ok(id) = formats::game_id::write(&puzzle) {
                println!("game id: {id}");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Convert { input, output } => {
            let puzzle = load(&input)?;
            if output == "-" {
                println!("{}", formats::game_id::write(&puzzle)?);
            } else {
                formats::save_puzzle(&puzzle, Path::new(&output))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Experiment(args) => crate::experiment::command::run(args),
        Command::Random { seed, robots, out } => {
            let (puzzle, _) = tiles::random_game(seed, robots)?;
            match out {
                Some(path) => formats::save_puzzle(&puzzle, &path)?,
                None => {
                    print!("{}", text::draw(&puzzle));
                    if let Ok(id) = formats::game_id::write(&puzzle) {
                        println!("game id: {id}");
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Accuracy(args) => crate::accuracy::command(&args),
        Command::Screenshot {
            view,
            file,
            results,
        } => {
            let view: crate::app::screenshot::View = view.parse().map_err(anyhow::Error::msg)?;
            crate::app::screenshot::run(view, &file, results.as_deref())
                .map_err(anyhow::Error::msg)?;
            println!("wrote {}", file.display());
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench(args) => crate::bench::run(&args),
    }
}

/// Loads a puzzle from a file path or game id, with the source named in any error.
pub fn load(source: &str) -> anyhow::Result<Puzzle> {
    formats::load_source(source).map_err(|e| match e {
        FormatError::Io { .. } | FormatError::UnknownFormat(_) | FormatError::GameId { .. } => {
            anyhow::anyhow!(e)
        }
        other => anyhow::anyhow!("{source}: {other}"),
    })
}

/// Prints each finished depth as the deck does, with the solver's column names.
struct PrintRows {
    kind: &'static solver::SolverKind,
}

impl Probe for PrintRows {
    fn depth_finished(&mut self, stats: &solver::DepthStats) {
        println!("{}", solver::format_depth_line(&self.kind.columns, stats));
    }
}

/// Prints a solve's outcome: the solution and its move count, or why there is none.
pub fn print_report(report: &Report) {
    let millis = report.elapsed.as_secs_f64() * 1000.0;
    match &report.outcome {
        Outcome::Solved { moves } => {
            println!("{}", format_moves(moves));
            println!("{} moves in {millis:.1} ms", moves.len());
        }
        Outcome::Unsolvable { within: Some(n) } => {
            println!("no solution within {n} moves ({millis:.1} ms)")
        }
        Outcome::Unsolvable { within: None } => println!("no solution exists ({millis:.1} ms)"),
        Outcome::NotFound => println!(
            "no solution found ({millis:.1} ms); this solver is not exhaustive, so one may exist"
        ),
        Outcome::Cancelled => println!("cancelled after {millis:.1} ms"),
        Outcome::TimeLimit => println!("time limit reached after {millis:.1} ms"),
        Outcome::MemoryLimit => println!(
            "memory limit reached after {millis:.1} ms ({} MiB in tables)",
            report.peak_memory >> 20
        ),
        Outcome::Invalid { claimed, error } => {
            println!("{}", format_moves(claimed));
            println!("claimed {} moves, {error} ({millis:.1} ms)", claimed.len());
        }
    }
}

/// The JSON object `solve --json` prints.
pub fn report_json(report: &Report) -> serde_json::Value {
    let solution: Vec<String> = match &report.outcome {
        Outcome::Solved { moves } => moves.iter().map(ToString::to_string).collect(),
        Outcome::Invalid { claimed, .. } => claimed.iter().map(ToString::to_string).collect(),
        _ => Vec::new(),
    };
    let depths: Vec<serde_json::Value> = report
        .depths
        .iter()
        .map(|d| {
            let mut row = serde_json::json!({
                "depth": d.depth,
                "nodes": d.nodes,
                "inner": d.inner,
                "hits": d.hits,
            });
            for (name, value) in &d.extra {
                row[*name] = serde_json::json!(value);
            }
            row
        })
        .collect();
    let mut value = serde_json::json!({
        "solver": report.solver,
        "outcome": report.outcome.name(),
        "moves": report.outcome.move_count(),
        "solution": solution,
        "depths": depths,
        "millis": report.elapsed.as_secs_f64() * 1000.0,
        "nodes": report.nodes,
        "peak_memory_bytes": report.peak_memory,
    });
    if let Outcome::Invalid { error, .. } = &report.outcome {
        value["replay_error"] = serde_json::json!(error.to_string());
    }
    if let Outcome::Unsolvable { within } = &report.outcome {
        value["within"] = serde_json::json!(within);
    }
    value
}

fn exit_code(outcome: &Outcome) -> ExitCode {
    match outcome {
        Outcome::Solved { .. } | Outcome::Unsolvable { .. } | Outcome::NotFound => {
            ExitCode::SUCCESS
        }
        Outcome::Cancelled | Outcome::TimeLimit | Outcome::MemoryLimit => {
            ExitCode::from(EXIT_STOPPED)
        }
        Outcome::Invalid { .. } => ExitCode::from(EXIT_INVALID),
    }
}
