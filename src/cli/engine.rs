//! `ricochet-lab engine`: registers external engines (`add`, `list`, `remove`), tries one
//! (`test`), checks one against the built-in solvers (`check`), and serves a built-in solver
//! as an engine (`serve`). Also turns `--solver NAME` and `--engine "CMD ARGS"` into a
//! [`SolverChoice`] for every command that runs a solver.

use super::output::outln;
use ricochet_lab::solver::engine::store::{self, EngineStore};
use ricochet_lab::solver::engine::{self, EngineSpec};
use ricochet_lab::solver::probe::{Event, Probe};
use ricochet_lab::solver::{SolverChoice, SolverId};
use ricochet_lab::study::engine_check::Status;
use std::path::PathBuf;
use std::process::ExitCode;

/// The arguments of `engine`.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    #[command(subcommand)]
    command: EngineCommand,
}

#[derive(clap::Subcommand, Debug)]
enum EngineCommand {
    /// Register an engine under a name: `engine add NAME -- CMD ARGS…`. It then runs
    /// wherever a solver is chosen (`--solver NAME`).
    Add {
        /// The name (letters, digits, '-', '_', '.', beginning with a letter or digit, at
        /// most 40 characters; not a built-in solver's in any case).
        name: String,
        /// The folder the engine runs in.
        #[arg(long, value_name = "FOLDER")]
        dir: Option<PathBuf>,
        /// Replace an engine already registered under the name.
        #[arg(long)]
        force: bool,
        /// An option the engine declares, set each time it starts (protocol version 2);
        /// repeat for several. Checked against its declarations when it starts.
        #[arg(long = "option", value_name = "NAME=VALUE", value_parser = option_pair)]
        options: Vec<(String, String)>,
        /// The command and its arguments, after `--`.
        #[arg(last = true, required = true, num_args = 1..)]
        command: Vec<String>,
    },
    /// List the registered engines.
    List,
    /// Unregister an engine.
    Remove {
        /// Its name.
        name: String,
    },
    /// Start an engine, run the handshake and a one-move puzzle, and say whether it works.
    Test {
        /// A registered engine's name.
        #[arg(required_unless_present = "engine", conflicts_with = "engine")]
        name: Option<String>,
        /// An engine's command line instead of a registered name.
        #[arg(long, value_name = "\"CMD ARGS\"")]
        engine: Option<String>,
    },
    /// Run a fixed set of puzzles and fault probes against an engine, check its answers
    /// against the built-in solvers, print pass or fail for each as it is known, and fail if
    /// any failed.
    Check {
        /// A registered engine's name.
        #[arg(required_unless_present = "engine", conflicts_with = "engine")]
        name: Option<String>,
        /// An engine's command line instead of a registered name.
        #[arg(long, value_name = "\"CMD ARGS\"")]
        engine: Option<String>,
        /// How long the engine may take for each puzzle (its start included), in seconds.
        #[arg(long, value_name = "SECS", value_parser = super::common::seconds, default_value = "60")]
        time_limit: std::time::Duration,
    },
    /// Speak the engine protocol (docs/engine-protocol.md) on standard input and output for
    /// a built-in solver, so other programs can run it as an engine.
    Serve {
        /// The built-in solver.
        #[arg(long, value_parser = super::common::named::<SolverId>(), default_value_t = SolverId::Fast)]
        solver: SolverId,
    },
}

/// The file the registered engines are kept in: `engines.ron` in the app's settings folder,
/// or in the folder `RICOCHET_LAB_CONFIG_DIR` names.
pub(super) fn engines_file() -> anyhow::Result<PathBuf> {
    store::engines_file(eframe::storage_dir(ricochet_lab::app::APP_NAME)).ok_or_else(|| {
        anyhow::anyhow!(
            "there is no settings folder to keep engines in; set {} to a folder",
            store::CONFIG_DIR_VAR
        )
    })
}

/// A `NAME=VALUE` option for an engine: the name spelt as the protocol's keys, the value one
/// word.
pub(super) fn option_pair(text: &str) -> Result<(String, String), String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}' is not NAME=VALUE"))?;
    if !engine::protocol::is_key(name) {
        return Err(format!(
            "'{name}' is no option name: lower-case letters, digits, '_' and '-'"
        ));
    }
    if value.is_empty() || value.contains(char::is_whitespace) {
        return Err(format!(
            "the value of {name} is one word without spaces, not '{value}'"
        ));
    }
    Ok((name.to_string(), value.to_string()))
}

/// `choice` with engine options set over the ones it was registered with; options given to a
/// built-in solver are refused, not ignored.
pub(super) fn with_options(
    choice: SolverChoice,
    options: &[(String, String)],
) -> anyhow::Result<SolverChoice> {
    if options.is_empty() {
        return Ok(choice);
    }
    match choice {
        SolverChoice::Engine(spec) => Ok(SolverChoice::engine(
            spec.as_ref().clone().with_options(options),
        )),
        SolverChoice::BuiltIn(id) => Err(super::output::usage(format!(
            "--option sets an engine's options; '{id}' is a built-in solver"
        ))),
    }
}

/// The registered engines.
pub(super) fn load_store() -> anyhow::Result<EngineStore> {
    Ok(EngineStore::load(&engines_file()?)?)
}

/// The solver a command runs: `--engine "CMD ARGS"` when given, else `--solver NAME` (a
/// built-in solver or a registered engine). An unknown name is an error listing every
/// known one.
pub(super) fn solver_choice(name: &str, engine: Option<&str>) -> anyhow::Result<SolverChoice> {
    if let Some(command_line) = engine {
        return Ok(SolverChoice::engine(
            EngineSpec::ad_hoc(command_line).map_err(anyhow::Error::msg)?,
        ));
    }
    resolve_name(name)
}

/// The solvers a study compares: each name a built-in solver or a registered engine, `all`
/// for every built-in solver, then one engine per `--engine "CMD ARGS"`, in that order.
pub(super) fn solver_choices(
    names: &[String],
    engines: &[String],
) -> anyhow::Result<Vec<SolverChoice>> {
    let mut choices = Vec::new();
    for name in names.iter().map(|name| name.trim()) {
        if name == "all" {
            choices.extend(SolverId::ALL.map(SolverChoice::BuiltIn));
        } else {
            choices.push(resolve_name(name)?);
        }
    }
    for command_line in engines {
        choices.push(solver_choice("", Some(command_line))?);
    }
    // A solver named twice would be timed twice under one name.
    let mut seen = std::collections::HashSet::new();
    choices.retain(|choice| seen.insert(choice.clone()));
    Ok(choices)
}

/// A built-in solver or a registered engine by name.
pub(super) fn resolve_name(name: &str) -> anyhow::Result<SolverChoice> {
    if let Some(id) = SolverId::from_name(name) {
        return Ok(SolverChoice::BuiltIn(id));
    }
    // The store is read only for a name that is no built-in solver, so that a broken engines
    // file never gets in the way of the built-in ones.
    let store = load_store()?;
    match store.get(name) {
        Some(spec) => Ok(SolverChoice::engine(spec.clone())),
        None => {
            let built_in: Vec<&str> = SolverId::ALL.iter().map(|id| id.name()).collect();
            let engines = store.names();
            // A name that is neither is a usage error (exit 2), as clap's own refusals are.
            Err(super::output::usage(format!(
                "invalid value '{name}' for '--solver': there is no solver or engine called \
                 '{name}'; the solvers are {}{}",
                built_in.join(", "),
                if engines.is_empty() {
                    "; no engine is registered".to_string()
                } else {
                    format!("; the registered engines are {}", engines.join(", "))
                }
            )))
        }
    }
}

fn spec_of(name: Option<&str>, engine: Option<&str>) -> anyhow::Result<EngineSpec> {
    match (engine, name) {
        (Some(command_line), _) => EngineSpec::ad_hoc(command_line).map_err(anyhow::Error::msg),
        (None, Some(name)) => Ok(load_store()?.find(name)?.clone()),
        (None, None) => anyhow::bail!("name an engine, or give --engine \"CMD ARGS\""),
    }
}

/// Runs an `engine` subcommand.
pub fn run(args: EngineArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        EngineCommand::Add {
            name,
            dir,
            force,
            options,
            command,
        } => {
            let file = engines_file()?;
            if let Some(dir) = &dir
                && !dir.is_dir()
            {
                anyhow::bail!("the engine's folder {} is not a folder", dir.display());
            }
            let dir = dir.map(|dir| std::fs::canonicalize(&dir).unwrap_or(dir));
            store::check_name(&name)?;
            let program = store::check_program(&command, dir.as_deref())?;
            let spec = EngineSpec {
                name,
                command,
                dir,
                options,
            };
            // Options are checked against the engine's own declarations now, by its handshake,
            // which sends them only when each is declared and its value in range: a value
            // out of range is refused here, not at the first solve.
            if !spec.options.is_empty() {
                let engine =
                    ricochet_lab::solver::engine::Engine::start(&spec).map_err(|error| {
                        anyhow::anyhow!("engine '{}' not registered: {error}", spec.name)
                    })?;
                engine.quit();
            }
            let line = spec.command_line();
            let name = spec.name.clone();
            let options = spec.options_text();
            let replaced = EngineStore::change(&file, |store| store.add(spec, force))?;
            let verb = if replaced.is_some() {
                "replaced"
            } else {
                "registered"
            };
            outln!("{verb} engine '{name}': {line}")?;
            outln!("  its program: {}", program.display())?;
            if !options.is_empty() {
                outln!("  its options: {options}")?;
            }
            outln!("  kept in {}", file.display())?;
        }
        EngineCommand::List => {
            let store = load_store()?;
            if store.engines().is_empty() {
                outln!("no engine is registered (ricochet-lab engine add NAME -- CMD ARGS...)")?;
            }
            for spec in store.engines() {
                let dir = spec
                    .dir
                    .as_ref()
                    .map(|d| format!(" (in {})", d.display()))
                    .unwrap_or_default();
                let options = if spec.options.is_empty() {
                    String::new()
                } else {
                    format!(" [options: {}]", spec.options_text())
                };
                outln!("{:<16} {}{dir}{options}", spec.name, spec.command_line())?;
            }
        }
        EngineCommand::Remove { name } => {
            EngineStore::change(&engines_file()?, |store| store.remove(&name))?;
            outln!("removed engine '{name}'")?;
        }
        EngineCommand::Test { name, engine } => {
            let spec = spec_of(name.as_deref(), engine.as_deref())?;
            let verdict = engine::test_engine(&spec);
            for step in &verdict.steps {
                outln!("{step}")?;
            }
            if !verdict.works {
                for line in &verdict.stderr {
                    outln!("  stderr: {line}")?;
                }
                outln!("engine '{}' does not work", spec.name)?;
                return Ok(ExitCode::FAILURE);
            }
            outln!("engine '{}' works", spec.name)?;
        }
        EngineCommand::Check {
            name,
            engine,
            time_limit,
        } => {
            let spec = spec_of(name.as_deref(), engine.as_deref())?;
            let cancel = super::common::cancel_on_signal()?;
            let mut failed = 0;
            let mut skipped = 0;
            let mut printed: Result<(), super::output::OutputError> = Ok(());
            // Each check is printed as soon as it is known: a slow engine shows its progress.
            let items = ricochet_lab::study::engine_check::check_streaming(
                &spec,
                &cancel,
                time_limit,
                &mut |item| {
                    let mark = match item.status {
                        Status::Pass => "pass",
                        Status::Skip => "skip",
                        Status::Fail => "FAIL",
                    };
                    if printed.is_ok() {
                        printed = outln!("{mark}  {:<34} {}", item.name, item.detail);
                    }
                    failed += usize::from(item.status == Status::Fail);
                    skipped += usize::from(item.status == Status::Skip);
                },
            );
            printed?;
            let skipped_note = if skipped > 0 {
                format!(" ({skipped} skipped: they do not apply to it)")
            } else {
                String::new()
            };
            outln!(
                "{} of {} checks passed for engine '{}'{skipped_note}",
                items.len() - failed - skipped,
                items.len() - skipped,
                spec.name
            )?;
            if failed > 0 {
                return Ok(ExitCode::FAILURE);
            }
        }
        EngineCommand::Serve { solver } => {
            let input = std::io::BufReader::new(std::io::stdin());
            engine::serve::serve(solver, input, std::io::stdout())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The probe of an engine's run in the CLI: its rows printed as a built-in solver's, its
/// `info string` lines printed as its words (`engine says: …`), and its search figures (`info
/// depth=… nodes=…`) on one progress line on standard error, rewritten in place, when that
/// is a terminal.
pub(super) struct EngineRows {
    rows: super::report::PrintRows,
    live: bool,
    shown: bool,
    /// The first failed write of an engine's words.
    failure: Option<super::output::OutputError>,
}

impl EngineRows {
    /// Rows with these columns (the engine's).
    pub(super) fn new(columns: ricochet_lab::solver::Columns) -> EngineRows {
        use std::io::IsTerminal;
        EngineRows {
            rows: super::report::PrintRows::with_columns(columns),
            live: std::io::stderr().is_terminal(),
            shown: false,
            failure: None,
        }
    }

    /// Clears the progress line, so that what follows starts on a clean line.
    fn clear_progress(&mut self) {
        if self.shown {
            eprint!("\r\x1b[K");
            self.shown = false;
        }
    }

    /// Ends the progress line and returns the first failed write, if any.
    pub(super) fn check(&mut self) -> Result<(), super::output::OutputError> {
        self.clear_progress();
        self.rows.check()?;
        self.failure.take().map_or(Ok(()), Err)
    }
}

impl Probe for EngineRows {
    fn depth_finished(&mut self, stats: &ricochet_lab::solver::DepthStats) {
        self.clear_progress();
        self.rows.depth_finished(stats);
    }

    fn event(&mut self, event: impl FnOnce() -> Event) {
        let Event::Solver(payload) = event() else {
            return;
        };
        if let Some(info) = payload.downcast_ref::<engine::EngineInfo>() {
            self.clear_progress();
            if self.failure.is_none()
                && let Err(error) = outln!("  engine says: {}", info.text)
            {
                self.failure = Some(error);
            }
        } else if let Some(search) = payload.downcast_ref::<engine::EngineSearch>()
            && self.live
        {
            eprint!("\r\x1b[K  {}", search.info.summary());
            self.shown = true;
        }
    }

    fn should_stop(&mut self) -> bool {
        self.failure.is_some() || self.rows.should_stop()
    }
}
