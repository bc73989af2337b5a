//! Running an experiment: start, pause, resume and cancel it as a task of the worker layer,
//! take its rows as they come, and keep the statistics up to date.

use super::*;
use crate::app::run::engines::EngineListError;
use crate::study::experiment::runner::ConfigError;
use anyhow::anyhow;

/// Why a running experiment is being stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// Keep the rows and offer Resume.
    Pause,
    /// Keep the rows and stop.
    Cancel,
}

/// What the experiment task sends to the window.
pub(super) enum RunMessage {
    /// A finished run.
    Row(Record),
    /// The end, or why it stopped.
    Finished(anyhow::Result<()>),
}

/// An experiment under way on its task.
pub(super) struct ActiveRun {
    task: Task<RunMessage>,
    started: Instant,
    /// Finished runs (inside the experiment) when this run started.
    done_at_start: u64,
    pub(super) stopping: Option<Stop>,
}

impl ExperimentsView {
    /// Takes the rows the experiment task has sent and notices its end. Called once per
    /// frame, also while the window is closed, so that a run keeps its rows flowing.
    pub(in crate::app) fn drain(&mut self) {
        let mut finished = None;
        if let Some(run) = &mut self.run {
            let drained = run.task.drain(|message| match message {
                RunMessage::Row(record) => {
                    self.records.push(record);
                    false
                }
                RunMessage::Finished(result) => {
                    finished = Some(result);
                    true
                }
            });
            if drained == Drained::Lost {
                finished = Some(Err(anyhow!("its thread ended without finishing")));
            }
        }
        if let Some(result) = finished
            && let Some(mut run) = self.run.take()
        {
            if !run.task.join() {
                self.error("The experiment thread stopped unexpectedly; the finished rows are kept in the output file.");
            }
            self.resummarise();
            let output = self
                .output
                .as_ref()
                .map_or_else(String::new, |p| p.display().to_string());
            let rows = self.records.len();
            match (result, run.stopping) {
                (Err(message), _) => self.error(format!("The experiment stopped: {message}")),
                (Ok(()), Some(Stop::Pause)) => {
                    self.paused = true;
                    self.note(format!(
                        "Paused with {rows} finished rows in {output}; Resume continues it."
                    ));
                }
                (Ok(()), Some(Stop::Cancel)) => self.note(format!(
                    "Cancelled; the {rows} finished rows are kept in {output}."
                )),
                (Ok(()), None) => self.note(format!("Finished: {rows} rows in {output}.")),
            }
        }
        let stale = self.records.len() != self.summarised_rows;
        let due = self
            .summarised_at
            .is_none_or(|at| at.elapsed() >= SUMMARY_INTERVAL);
        if stale && (due || self.run.is_none()) {
            self.resummarise();
        }
    }

    pub(super) fn resummarise(&mut self) {
        self.summary = summarize(&self.records);
        self.summarised_rows = self.records.len();
        self.summarised_at = Some(Instant::now());
    }

    /// Runs (or, with `resume`, continues) the experiment the settings describe.
    pub(in crate::app) fn start(
        &mut self,
        settings: &ExperimentSettings,
        current_board: Option<&Puzzle>,
        engines: &EngineList,
        waker: Waker,
        resume: bool,
    ) {
        if self.run.is_some() {
            self.error("An experiment is already running.");
            return;
        }
        match self.try_start(settings, current_board, engines, waker, resume) {
            Ok(()) => {
                self.paused = false;
                self.note(if resume {
                    "Resumed the experiment."
                } else {
                    "Started the experiment."
                });
            }
            Err(message) => self.error(message.to_string()),
        }
    }

    pub(super) fn try_start(
        &mut self,
        settings: &ExperimentSettings,
        current_board: Option<&Puzzle>,
        engines: &EngineList,
        waker: Waker,
        resume: bool,
    ) -> anyhow::Result<()> {
        let config = settings_config(settings, current_board, &|pick| engines.resolve(pick))?;
        let output = PathBuf::from(settings.out_path.trim());
        if output.as_os_str().is_empty() {
            anyhow::bail!("Choose an output CSV file first.");
        }
        // The default output lies in the user's folder, which may not exist yet.
        if let Some(parent) = output.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .map_err(|e| anyhow!("The folder {} could not be made: {e}", parent.display()))?;
        }
        let runner::OpenedResults { writer, records } =
            match runner::open_results(&output, resume, &config) {
                Ok(opened) => opened,
                Err(error @ runner::OpenError::Exists { .. }) => {
                    anyhow::bail!(
                        "{error}: choose another output file, or press Resume to continue it."
                    );
                }
                Err(error) => return Err(error.into()),
            };
        let done = record::done_runs(&records);
        let done_at_start = done.keys().filter(|(c, _)| *c < config.configs).count() as u64;

        let task = {
            let config = config.clone();
            spawn_task(
                "experiment-runner".into(),
                waker,
                EXPERIMENT_CHANNEL,
                move |link| run_task(config, done, writer, link),
            )
            .map_err(|e| anyhow!("The experiment thread could not be started: {e}"))?
        };
        self.total_runs = config.configs * config.run_order().len() as u64;
        self.records = records;
        self.resummarise();
        self.config = Some(config);
        self.output = Some(output);
        self.selection = None;
        self.run = Some(ActiveRun {
            task,
            started: Instant::now(),
            done_at_start,
            stopping: None,
        });
        Ok(())
    }

    /// Stops the running experiment: the runs under way are cancelled and not recorded (a
    /// resumed experiment runs them again), every finished row is kept; `Stop::Pause` offers
    /// Resume afterwards.
    pub(super) fn stop(&mut self, why: Stop) {
        if let Some(run) = &mut self.run {
            run.stopping.get_or_insert(why);
            run.task.cancel();
        }
    }

    /// Pauses the running experiment.
    pub(super) fn pause(&mut self) {
        self.stop(Stop::Pause);
    }

    /// Cancels the running experiment.
    pub(super) fn cancel(&mut self) {
        self.stop(Stop::Cancel);
    }

    /// Finished runs of the experiment and its total, and the estimated time left.
    pub(super) fn progress(&self) -> Option<(u64, u64, Option<Duration>)> {
        let configs = self.config.as_ref()?.configs;
        let done = self.records.iter().filter(|r| r.config < configs).count() as u64;
        let eta = self.run.as_ref().and_then(|run| {
            series::eta(
                run.started.elapsed(),
                done.saturating_sub(run.done_at_start),
                self.total_runs.saturating_sub(done),
            )
        });
        Some((done, self.total_runs, eta))
    }
}

/// The task's body: runs the experiment, writing and sending each row as it comes.
pub(super) fn run_task(
    config: ExperimentConfig,
    done: std::collections::BTreeMap<(u64, String), Record>,
    mut writer: ResultsWriter,
    link: TaskLink<RunMessage>,
) {
    let mut write_error = None;
    let cancel = Arc::clone(&link.cancel);
    let result = runner::run(&config, &done, &cancel, |record| {
        if write_error.is_none()
            && let Err(error) = writer.append(&record)
        {
            write_error = Some(anyhow::Error::from(error));
            cancel.store(true, Ordering::Relaxed);
        }
        // The window may be gone when the app closes mid-run; the row is in the file anyway.
        link.send(RunMessage::Row(record), Duration::from_millis(50));
    });
    let result = match write_error {
        Some(error) => Err(error),
        None => result.map_err(anyhow::Error::from),
    };
    link.send(RunMessage::Finished(result), Duration::ZERO);
}

/// Why the Experiments window's inputs describe no experiment.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// Configurations on the current board, which is not a valid puzzle.
    #[error("The current board is not a valid puzzle, so configurations cannot be dealt on it.")]
    NoBoard,
    /// No solver is chosen.
    #[error("Choose at least one solver to compare.")]
    NoSolver,
    /// No configuration is asked for.
    #[error("Choose at least one configuration.")]
    NoConfiguration,
    /// The time limit is zero, negative or not a number.
    #[error("The time limit must be a positive number of seconds.")]
    TimeLimit,
    /// A chosen solver is neither built in nor a registered engine.
    #[error(transparent)]
    Solver(#[from] EngineListError),
    /// The baseline is not a built-in solver.
    #[error("The baseline '{0}' is not a built-in optimal solver.")]
    Baseline(SolverPick),
    /// The experiment's own checks refused it.
    #[error("The experiment cannot start: {0}.")]
    Invalid(Box<ConfigError>),
}

/// The experiment the settings describe, checked the way the command line checks it; each
/// chosen solver is looked up by `resolve` (built-in solvers and registered engines).
pub fn settings_config(
    settings: &ExperimentSettings,
    current_board: Option<&Puzzle>,
    resolve: &dyn Fn(&SolverPick) -> Result<SolverChoice, EngineListError>,
) -> Result<ExperimentConfig, SettingsError> {
    let board = if settings.fixed_board {
        let puzzle = current_board.ok_or(SettingsError::NoBoard)?;
        BoardSource::Fixed(Box::new(puzzle.clone()))
    } else {
        BoardSource::Standard
    };
    if settings.solvers.is_empty() {
        return Err(SettingsError::NoSolver);
    }
    if settings.configs == 0 {
        return Err(SettingsError::NoConfiguration);
    }
    let time_limit = Duration::try_from_secs_f64(settings.time_limit_secs)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or(SettingsError::TimeLimit)?;
    let solvers = settings
        .solvers
        .iter()
        .map(resolve)
        .collect::<Result<Vec<_>, _>>()?;
    let baseline = settings
        .baseline
        .built_in()
        .ok_or_else(|| SettingsError::Baseline(settings.baseline.clone()))?;
    let config = ExperimentConfig {
        board,
        configs: settings.configs,
        seed: settings.seed,
        robots: settings.robots,
        solvers,
        baseline,
        options: SolverOptions::default(),
        time_limit,
        memory_limit: (settings.memory_limit_mib as usize).saturating_mul(1 << 20),
        threads: settings.threads.max(1),
        shard: crate::study::experiment::Shard::WHOLE,
    };
    config
        .validate()
        .map_err(|error| SettingsError::Invalid(Box::new(error)))?;
    Ok(config)
}
