//! `ricochet-lab solve`: solves one puzzle and prints the per-depth rows and the answer.

use super::common::{EXIT_INVALID, EXIT_STOPPED, named};
use super::output::{OutputError, outln};
use super::report::{PrintRows, print_report};
use ricochet_lab::model::format_moves;
use ricochet_lab::model::formats;
use ricochet_lab::solver::probe::Profiling;
use ricochet_lab::solver::profile::{MAX_PROFILE_DEPTH, NodeProfile, ProfileEntry};
use ricochet_lab::solver::report_json::ReportJson;
use ricochet_lab::solver::{
    self, Limits, NoProbe, Outcome, Pages, SolverChoice, SolverId, SolverOptions,
};
use std::process::ExitCode;
use std::time::Duration;

/// The arguments of `solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// A .ron file, a .txt Cox file, or a game id.
    source: String,
    /// The solver (see `ricochet-lab solvers`) or a registered engine (see `ricochet-lab
    /// engine list`).
    #[arg(long, default_value = "iddfs")]
    solver: String,
    /// An engine's command line, run once as the solver (see docs/engine-protocol.md).
    #[arg(long, value_name = "\"CMD ARGS\"", conflicts_with = "solver")]
    engine: Option<String>,
    /// An option of the engine (protocol version 2), over any it was registered with;
    /// repeat for several (see `ricochet-lab engine test NAME` for its options).
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = super::engine::option_pair)]
    options: Vec<(String, String)>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECS", value_parser = super::common::seconds, allow_negative_numbers = true)]
    time_limit: Option<Duration>,
    /// Stop a run before the process holds more than this many MiB: the solver's tables
    /// (visited states, queues, transposition table, counted before they grow) get what the
    /// process does not already hold (see docs/command-line.md).
    #[arg(long, value_name = "MIB", default_value_t = 8192)]
    memory_limit: u64,
    /// The deepest search a depth-limited solver tries (dls: 1 to 1000).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
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
    /// With an engine: check what it claims (no solution, none within N moves) against the
    /// built-in `fast`, and compare the length of its answer; a false claim is the engine's
    /// error (exit 4).
    #[arg(long)]
    verify: bool,
    /// List every optimal solution (an optimal solver fixes the length first).
    #[arg(long)]
    all_solutions: bool,
    /// With --all-solutions: list at most this many.
    #[arg(
        long,
        value_name = "N",
        default_value_t = ricochet_lab::solver::analysis::all_solutions::DEFAULT_MAX_SOLUTIONS,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..),
        allow_negative_numbers = true,
        requires = "all_solutions"
    )]
    max_solutions: usize,
    /// Threads for a parallel solver (`fast`) and for the listing of `--all-solutions`; one
    /// per core by default.
    #[arg(long, value_name = "N", value_parser = super::common::thread_count)]
    threads: Option<usize>,
    /// The memory pages `fast` asks for its table: `huge` where the system gives them, or
    /// `small` (4 KiB) only, to measure it without huge pages.
    #[arg(long, value_parser = named::<Pages>(), default_value_t = Pages::Huge)]
    pages: Pages,
    /// Count the nodes under each prefix of 1 to K moves (K from 1 to 4) and print them:
    /// where the search spent its nodes.
    #[arg(
        long,
        value_name = "K",
        value_parser = clap::value_parser!(u8).range(1..=MAX_PROFILE_DEPTH as i64),
        conflicts_with = "all_solutions"
    )]
    profile_depth: Option<u8>,
}

/// Loads the puzzle, applies the rule flags, runs the solver and prints its report.
pub fn run(args: SolveArgs) -> anyhow::Result<ExitCode> {
    let puzzle = formats::load(&args.source)?;
    let mut rules = puzzle.rules();
    rules.ricochet |= args.ricochet;
    rules.no_rebound |= args.no_rebound;
    let puzzle = puzzle.with_rules(rules);
    let choice = super::engine::solver_choice(&args.solver, args.engine.as_deref())?;
    let choice = super::engine::with_options(choice, &args.options)?;
    if args.verify && choice.built_in().is_some() {
        return Err(super::output::usage(format!(
            "--verify checks an engine's claims; '{choice}' is a built-in solver"
        )));
    }
    let solver_id = match choice.built_in() {
        Some(id) => id,
        None => return run_engine(&args, &choice, &puzzle),
    };
    match (args.depth_limit, solver_id.kind().deepest_limit) {
        (Some(_), None) => {
            return Err(super::output::usage(format!(
                "the {} solver takes no depth limit; leave out --depth-limit",
                solver_id
            )));
        }
        (Some(limit), Some(deepest)) if limit > deepest => {
            return Err(super::output::usage(format!(
                "--depth-limit {limit} is not in 1..={deepest}, the depths {} searches",
                solver_id
            )));
        }
        _ => {}
    }
    // Only `fast` searches on several threads; a count given to another solver would be
    // ignored without a word.
    if args.threads.is_some() && solver_id != SolverId::Fast && !args.all_solutions {
        return Err(super::output::usage(format!(
            "the {} solver searches on one thread; --threads applies to fast and to the \
             listing of --all-solutions only",
            solver_id
        )));
    }
    let limits = Limits {
        time: args.time_limit,
        memory_bytes: Some(super::common::search_budget(args.memory_limit)?),
        cancel: Some(super::common::cancel_on_signal()?),
    };
    let options = SolverOptions {
        depth_limit: args.depth_limit,
        threads: args.threads,
        pages: args.pages,
    };
    if args.all_solutions {
        return if args.json {
            super::all_solutions::solve_all(
                solver_id,
                &puzzle,
                &options,
                args.max_solutions,
                &limits,
                &mut NoProbe,
                true,
            )
        } else {
            let mut rows = PrintRows::new(solver_id.kind());
            let code = super::all_solutions::solve_all(
                solver_id,
                &puzzle,
                &options,
                args.max_solutions,
                &limits,
                &mut rows,
                false,
            );
            rows.check()?;
            code
        };
    }
    let profile_depth = args.profile_depth.map(usize::from);
    let mut profile = None;
    let (report, row_times) = if args.json {
        // Each row's time and the total are read from one clock.
        match profile_depth {
            None => ricochet_lab::worker::clock::run_clocked(
                solver_id,
                &puzzle,
                &options,
                &limits,
                &mut NoProbe,
            )?,
            Some(depth) => {
                let mut probe = Profiling::new(NoProbe, depth)?;
                let run = ricochet_lab::worker::clock::run_clocked(
                    solver_id, &puzzle, &options, &limits, &mut probe,
                )?;
                profile = Some(probe.profile);
                run
            }
        }
    } else {
        let rows = PrintRows::new(solver_id.kind());
        let report = match profile_depth {
            None => {
                let mut rows = rows;
                let report = solver::run(solver_id, &puzzle, &options, &limits, &mut rows)?;
                rows.check()?;
                report
            }
            Some(depth) => {
                let mut probe = Profiling::new(rows, depth)?;
                let report = solver::run(solver_id, &puzzle, &options, &limits, &mut probe)?;
                probe.inner.check()?;
                profile = Some(probe.profile);
                report
            }
        };
        (report, Vec::new())
    };
    if args.json {
        let mut json = ReportJson::of(&report);
        for (row, at) in json.depths.iter_mut().zip(&row_times) {
            row.millis = Some(at.as_secs_f64() * 1000.0);
        }
        if let Some(profile) = &profile {
            json = json.with_profile(profile);
        }
        outln!("{}", super::common::json_line(&json)?)?;
    } else {
        print_report(&report)?;
        if let Some(profile) = &profile {
            print_profile(profile)?;
        }
    }
    Ok(exit_code(&report.outcome))
}

/// Runs an external engine on the puzzle and prints its rows and answer as for a built-in
/// solver. Options that only built-in solvers take are refused, not ignored.
fn run_engine(
    args: &SolveArgs,
    choice: &SolverChoice,
    puzzle: &ricochet_lab::model::Puzzle,
) -> anyhow::Result<ExitCode> {
    if args.all_solutions || args.profile_depth.is_some() || args.threads.is_some() {
        anyhow::bail!(
            "--all-solutions, --profile-depth and --threads apply to the built-in solvers only, \
             not to the engine '{choice}'"
        );
    }
    let limits = Limits {
        time: args.time_limit,
        memory_bytes: None,
        cancel: Some(super::common::cancel_on_signal()?),
    };
    let options = SolverOptions {
        depth_limit: args.depth_limit,
        ..SolverOptions::default()
    };
    let report = if args.json {
        let (report, row_times) = ricochet_lab::worker::clock::run_clocked(
            choice,
            puzzle,
            &options,
            &limits,
            &mut NoProbe,
        )?;
        let mut json = ReportJson::of(&report);
        for (row, at) in json.depths.iter_mut().zip(&row_times) {
            row.millis = Some(at.as_secs_f64() * 1000.0);
        }
        outln!("{}", super::common::json_line(&json)?)?;
        report
    } else {
        // The same clock as `--json` and the app: it starts before the engine's process, so
        // the time printed counts its start-up and handshake, as a user waits for them.
        let mut rows = super::engine::EngineRows::new(choice.columns());
        let (report, _) =
            ricochet_lab::worker::clock::run_clocked(choice, puzzle, &options, &limits, &mut rows)?;
        rows.check()?;
        print_report(&report)?;
        if !args.verify
            && let Some(claim) = unverified_claim(&report.outcome)
        {
            outln!("  {claim}")?;
        }
        report
    };
    if args.verify {
        return verify(choice, puzzle, &report.outcome, args.json);
    }
    Ok(exit_code(&report.outcome))
}

/// `1 move`, `3 moves`.
fn count_moves(n: usize) -> String {
    if n == 1 {
        "1 move".into()
    } else {
        format!("{n} moves")
    }
}

/// What an engine's answer claims beyond what the replay checked, labelled as its claim.
fn unverified_claim(outcome: &Outcome) -> Option<&'static str> {
    match outcome {
        Outcome::Unsolvable { .. } => Some("the engine says so; not verified (--verify checks it)"),
        Outcome::Solved { .. } => Some(
            "the moves were replayed on the board; their number is the engine's (--verify compares it)",
        ),
        _ => None,
    }
}

/// Checks an engine's answer against `fast`: a claim of no solution (at all, or within N
/// moves) that `fast` disproves is the engine's error (exit 4); an answer longer than the
/// shortest is said so. Prints the verdict (on standard error with `--json`).
fn verify(
    choice: &SolverChoice,
    puzzle: &ricochet_lab::model::Puzzle,
    outcome: &Outcome,
    json: bool,
) -> anyhow::Result<ExitCode> {
    let say = |line: String| -> Result<(), OutputError> {
        if json {
            eprintln!("{line}");
            Ok(())
        } else {
            outln!("{line}")
        }
    };
    let checked = matches!(outcome, Outcome::Unsolvable { .. } | Outcome::Solved { .. });
    if !checked {
        return Ok(exit_code(outcome));
    }
    let limits = Limits {
        time: None,
        memory_bytes: None,
        cancel: Some(super::common::cancel_on_signal()?),
    };
    let reference = solver::run(
        SolverId::Fast,
        puzzle,
        &SolverOptions::default(),
        &limits,
        &mut NoProbe,
    )
    .map_err(|error| {
        anyhow::anyhow!("the claim could not be verified: fast did not run: {error}")
    })?;
    let best = match reference.outcome {
        Outcome::Solved { moves } => Some(moves),
        Outcome::Unsolvable { within: None } => None,
        other => anyhow::bail!(
            "the claim could not be verified: fast ended {}",
            other.name()
        ),
    };
    let false_claim = match (outcome, &best) {
        (Outcome::Unsolvable { within: None }, Some(best)) => Some(format!(
            "it said no solution exists, but fast solves it in {}: {}",
            count_moves(best.len()),
            format_moves(best)
        )),
        (Outcome::Unsolvable { within: Some(n) }, Some(best)) if best.len() <= *n as usize => {
            Some(format!(
                "it said no solution within {n} moves exists, but fast solves it in {}: {}",
                count_moves(best.len()),
                format_moves(best)
            ))
        }
        (Outcome::Solved { .. }, None) => {
            Some("it gave a solution, but fast proves there is none".to_string())
        }
        // A longer answer is a false claim only from an engine that said its answers are
        // shortest; from any other it is an answer, said so below.
        (Outcome::Solved { moves }, Some(best))
            if moves.len() > best.len() && ricochet_lab::solver::engine::claims_optimal(choice) =>
        {
            Some(format!(
                "it says its solutions are shortest (id optimal=yes), but its {} are beaten \
                 by fast's {}: {}",
                count_moves(moves.len()),
                count_moves(best.len()),
                format_moves(best)
            ))
        }
        _ => None,
    };
    if let Some(claim) = false_claim {
        eprintln!("error: engine '{choice}' made a false claim: {claim}");
        return Ok(ExitCode::from(EXIT_INVALID));
    }
    match (outcome, &best) {
        (Outcome::Solved { moves }, Some(best)) if moves.len() > best.len() => say(format!(
            "verified by fast: a solution, but not a shortest one: fast solves it in {}",
            count_moves(best.len())
        ))?,
        (Outcome::Solved { .. }, _) => say("verified by fast: a shortest solution".into())?,
        _ => say("verified by fast: the claim holds".into())?,
    }
    Ok(exit_code(outcome))
}

/// How many of a prefix's longer prefixes the text table shows, the largest first.
const PROFILE_CHILDREN_SHOWN: usize = 3;

/// Prints the node profile as a short table: every first move with its nodes and share of
/// all counted nodes, and below each its few largest longer prefixes.
fn print_profile(profile: &NodeProfile) -> Result<(), OutputError> {
    let entries = profile.entries();
    let total: u64 = entries
        .iter()
        .filter(|e| e.prefix.len() == 1)
        .map(|e| e.nodes)
        .sum();
    outln!("Nodes per first moves ({total} below the root):")?;
    print_profile_level(&entries, &[], total)
}

/// Prints the entries one move longer than `prefix` (all of them at the first level, the
/// largest few below), each followed by its own.
fn print_profile_level(
    entries: &[ProfileEntry],
    prefix: &[ricochet_lab::model::Move],
    total: u64,
) -> Result<(), OutputError> {
    let mut children: Vec<&ProfileEntry> = entries
        .iter()
        .filter(|e| e.prefix.len() == prefix.len() + 1 && e.prefix.starts_with(prefix))
        .collect();
    let hidden = if prefix.is_empty() {
        0
    } else {
        // Largest first; the sort is stable, so equal counts keep the tree order.
        children.sort_by_key(|child| std::cmp::Reverse(child.nodes));
        let hidden = children.len().saturating_sub(PROFILE_CHILDREN_SHOWN);
        children.truncate(PROFILE_CHILDREN_SHOWN);
        hidden
    };
    let indent = "  ".repeat(prefix.len() + 1);
    for child in children {
        let share = if total == 0 {
            0.0
        } else {
            child.nodes as f64 * 100.0 / total as f64
        };
        outln!(
            "{indent}{:<12} {:>14} {share:>6.2}%",
            format_moves(&child.prefix),
            child.nodes
        )?;
        print_profile_level(entries, &child.prefix, total)?;
    }
    if hidden > 0 {
        outln!("{indent}... {hidden} more")?;
    }
    Ok(())
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
