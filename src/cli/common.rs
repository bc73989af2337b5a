//! What every command shares: exit codes, the parsers of limits and thread counts, the one
//! Ctrl-C handler, JSON lines, memory budgets, and how files are (not) overwritten.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use ricochet_lab::model::Puzzle;
use ricochet_lab::solver::Stop;

/// Exit code for a run stopped by a limit or cancelled.
pub(super) const EXIT_STOPPED: u8 = 3;
/// Exit code for a claimed solution that failed its replay.
pub(super) const EXIT_INVALID: u8 = 4;

/// A stop's name in output and JSON.
pub(super) fn stop_name(stop: Stop) -> &'static str {
    match stop {
        Stop::Cancelled => "cancelled",
        Stop::TimeLimit => "time-limit",
        Stop::MemoryLimit => "memory-limit",
    }
}

/// The puzzle with the rule options given on the command line added to its own.
pub(super) fn with_rules(puzzle: Puzzle, ricochet: bool, no_rebound: bool) -> Puzzle {
    let mut rules = puzzle.rules();
    rules.ricochet |= ricochet;
    rules.no_rebound |= no_rebound;
    puzzle.with_rules(rules)
}

/// Every time option (`--time-limit`, `--solve-limit`) is read by this one parser, so each
/// command validates its limits the same way and before any work: a positive, finite number of
/// seconds that a [`Duration`] holds. Zero, negative, non-finite and unreadable values are
/// refused with the reason; a value past what a duration counts (about 1.8e19 seconds) is
/// refused as such. A limit that fits a duration but not the system clock (from about 9.2e18
/// seconds) is no limit: the search sets no deadline it cannot reach.
pub(super) fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if value.is_nan() || value <= 0.0 {
        return Err(format!("{text} is not a positive number of seconds"));
    }
    match Duration::try_from_secs_f64(value) {
        Ok(duration) if !duration.is_zero() => Ok(duration),
        Ok(_) => Err(format!("{text} seconds rounds to no time at all")),
        Err(_) => Err(format!(
            "{text} seconds is longer than a clock counts (at most {} seconds); leave the \
             option out for no limit",
            Duration::MAX.as_secs()
        )),
    }
}

/// The most threads a command starts per core: more only adds switching and memory.
pub(super) const THREADS_PER_CORE: usize = 4;

/// Every `--threads` option is read by this one parser: at least 1 (no work is done by no
/// threads) and at most [`THREADS_PER_CORE`] per core of this machine, so a typing slip cannot
/// start thousands of threads that swamp it and delay its answer to Ctrl-C.
pub(super) fn thread_count(text: &str) -> Result<usize, String> {
    let count: usize = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of threads"))?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most = THREADS_PER_CORE * cores;
    match count {
        0 => Err("must be at least 1".into()),
        n if n > most => Err(format!(
            "{n} is more than {most} ({THREADS_PER_CORE} for each of the {cores} cores here)"
        )),
        n => Ok(n),
    }
}

/// The flag Ctrl-C (SIGINT) or SIGTERM sets, shared by every command: searches poll it and
/// stop at their next check, and each command then prints what finished and exits with the
/// code of a stopped run. A second signal ends the process at once, in case a search does not
/// come back. The handler is installed once per process (the signal crate allows no more), on
/// the first call.
pub(super) fn cancel_on_signal() -> anyhow::Result<Arc<AtomicBool>> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    if let Some(flag) = FLAG.get() {
        return Ok(Arc::clone(flag));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&cancel);
    // ctrlc runs this on its own signal-waiting thread, which only sets the flag.
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    })
    .map_err(|error| anyhow::anyhow!("cannot catch Ctrl-C: {error}"))?;
    Ok(Arc::clone(FLAG.get_or_init(|| cancel)))
}

/// One JSON object as a line of text, its keys in sorted order at every level (as every
/// command has printed them): the object goes through `serde_json::Value`, whose maps are
/// sorted.
pub(super) fn json_line(object: &impl serde::Serialize) -> anyhow::Result<String> {
    Ok(serde_json::to_value(object)?.to_string())
}

/// A `--memory-limit` in MiB as bytes; zero is refused as a usage error (no search fits in no
/// memory).
pub(super) fn mebibytes(value: u64) -> anyhow::Result<usize> {
    if value == 0 {
        return Err(super::output::usage("--memory-limit 0 is not in 1.. MiB"));
    }
    Ok(usize::try_from(value)
        .unwrap_or(usize::MAX)
        .saturating_mul(1 << 20))
}

/// The bytes a search run alone in this process may give its tables under a `--memory-limit`
/// of `mib` MiB: the limit less what the process already holds before the search (its code,
/// libraries, the puzzle and the tables solvers precompute, read as its resident memory where
/// the system reports it), so that the process as a whole stays within the limit. A limit the
/// process already passes is refused. Where the resident memory cannot be read, the whole
/// limit goes to the tables.
pub(super) fn search_budget(mib: u64) -> anyhow::Result<usize> {
    let limit = mebibytes(mib)?;
    let held = resident_bytes().map_or(0, |bytes| bytes + LATER_BYTES);
    if held >= limit {
        return Err(super::output::usage(format!(
            "--memory-limit {mib} MiB is less than the {} MiB this program holds before it \
             searches",
            held.div_ceil(1 << 20)
        )));
    }
    Ok(limit - held)
}

/// What a search command comes to hold beside its tables after [`search_budget`] looks: the
/// code first run during the search and the printing, the allocator's spare room and the
/// output's text.
pub(super) const LATER_BYTES: usize = 2 << 20;

/// The memory this process holds now (its resident set), where the system reports it.
#[cfg(target_os = "linux")]
fn resident_bytes() -> Option<usize> {
    // The second field of statm is the resident set, in pages.
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = text.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages.saturating_mul(usize::try_from(page).ok()?))
}

/// The memory this process holds now, where the system reports it (not here).
#[cfg(not(target_os = "linux"))]
fn resident_bytes() -> Option<usize> {
    None
}

/// How a command that writes a file treats an existing one: replaced only with `--force`.
pub(super) fn overwrite(force: bool) -> ricochet_lab::model::formats::Overwrite {
    if force {
        ricochet_lab::model::formats::Overwrite::Allow
    } else {
        ricochet_lab::model::formats::Overwrite::Refuse
    }
}

/// A save error, with the way out when the file exists.
pub(super) fn save_error(error: ricochet_lab::model::formats::FormatError) -> anyhow::Error {
    match error {
        ricochet_lab::model::formats::FormatError::Exists { .. } => {
            anyhow::anyhow!("{error}; give --force to replace it")
        }
        other => other.into(),
    }
}

/// A library type the command line names by its spelling: every value and each one's name.
/// The library offers these without clap; [`named`] adapts them for clap here.
pub(super) trait Named: Copy + Send + Sync + 'static {
    /// Every value, in the order help lists them.
    fn all() -> &'static [Self];
    /// The value's name on the command line.
    fn name(self) -> &'static str;
}

impl Named for ricochet_lab::solver::SolverId {
    fn all() -> &'static [Self] {
        &ricochet_lab::solver::SolverId::ALL
    }

    fn name(self) -> &'static str {
        ricochet_lab::solver::SolverId::name(self)
    }
}

impl Named for ricochet_lab::solver::Pages {
    fn all() -> &'static [Self] {
        &ricochet_lab::solver::Pages::ALL
    }

    fn name(self) -> &'static str {
        ricochet_lab::solver::Pages::name(self)
    }
}

impl Named for ricochet_lab::study::bench::Suite {
    fn all() -> &'static [Self] {
        &ricochet_lab::study::bench::Suite::ALL
    }

    fn name(self) -> &'static str {
        ricochet_lab::study::bench::Suite::name(self)
    }
}

/// clap's value parser for a [`Named`] type: help lists every name, and any other word is
/// refused with that list, as clap's own enums are.
pub(super) fn named<T: Named + Clone>() -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(T::all().iter().map(|value| value.name())).map(
        |name| {
            T::all()
                .iter()
                .copied()
                .find(|value| value.name() == name)
                .expect("the parser accepts only the names of these values")
        },
    )
}

/// The spinner of long work with no known total (listing every optimal solution): a spinner,
/// the time elapsed and the command's own message. Like the bar, it draws only on a terminal.
pub(super) fn progress_spinner() -> indicatif::ProgressBar {
    let spinner = indicatif::ProgressBar::new_spinner();
    // A fixed template: it always parses, and the plain spinner is only a fallback.
    spinner.set_style(
        indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
    );
    spinner
}

/// The one progress bar of every long command: a bar, the count of `unit` done out of the
/// total, the time elapsed and the time left, and the command's own message.
pub(super) fn progress_bar(total: u64, unit: &str) -> indicatif::ProgressBar {
    let template = format!(
        "{{bar:40}} {{pos}}/{{len}} {unit}  {{elapsed_precise}} elapsed, ETA {{eta_precise}}  {{msg}}"
    );
    let bar = indicatif::ProgressBar::new(total);
    // The template is fixed above apart from the unit's words, so it always parses; the plain
    // bar is only a fallback.
    bar.set_style(
        indicatif::ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Makes a write past the file-size limit (`ulimit -f`) fail with an error instead of ending
/// the process. The system's default for the signal such a write raises (SIGXFSZ) is to end
/// the process at once, with no message and its temporary files left behind; ignored, the
/// write fails with "File too large", which every writer reports with the file's name after
/// removing what it had begun. Set first thing, whatever the parent process left it at.
#[cfg(target_os = "linux")]
pub(super) fn fail_writes_past_the_file_size_limit() {
    // SAFETY: setting a signal to be ignored installs no handler, so no code of ours runs in
    // a signal context; no other thread has started yet.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Elsewhere the signal keeps the system's default.
#[cfg(not(target_os = "linux"))]
pub(super) fn fail_writes_past_the_file_size_limit() {}

/// Checks, before any work, a folder a command will write numbered positions into
/// (`{prefix}-{rank:02}-{moves}-moves.ron`, ranks 1 to `ranks`): a path that is not a folder is
/// refused, and so is a folder that already holds a file of one of those ranks (an earlier
/// run's), since its length is not known until the work is done, unless `force` allows
/// replacing them. A missing folder is made when the files are written.
pub(super) fn check_out_dir(
    dir: &std::path::Path,
    prefix: &str,
    ranks: usize,
    force: bool,
) -> anyhow::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::NotADirectory => {
            anyhow::bail!("{} is not a folder", dir.display())
        }
        Err(error) => anyhow::bail!("cannot read the folder {}: {error}", dir.display()),
    };
    if force {
        return Ok(());
    }
    let mut taken: Vec<String> = entries
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| ranked_name(name, prefix).is_some_and(|rank| (1..=ranks).contains(&rank)))
        .collect();
    taken.sort();
    if let Some(first) = taken.first() {
        anyhow::bail!(
            "{} already holds {first}{} of an earlier run; give --force to replace them, or \
             choose another folder",
            dir.display(),
            match taken.len() {
                1 => String::new(),
                n => format!(" and {} more positions", n - 1),
            }
        );
    }
    Ok(())
}

/// The numbered positions a command writes into a folder (see [`check_out_dir`]): the folder
/// is made on the first save; when the command fails, what it wrote goes again (and the
/// folder, if it made it), and when it succeeds with `--force`, the positions of an earlier
/// run it did not replace go, so that the folder holds this run's positions only.
pub(super) struct RankedOutput<'a> {
    dir: &'a std::path::Path,
    prefix: &'static str,
    force: bool,
    /// Whether this run made the folder.
    made_dir: bool,
    /// The files this run wrote.
    written: Vec<std::path::PathBuf>,
    /// Whether the run finished: nothing is undone then.
    finished: bool,
}

impl<'a> RankedOutput<'a> {
    /// Positions named `{prefix}-{rank:02}-{moves}-moves.ron` in `dir`.
    pub(super) fn new(dir: &'a std::path::Path, prefix: &'static str, force: bool) -> Self {
        RankedOutput {
            dir,
            prefix,
            force,
            made_dir: false,
            written: Vec::new(),
            finished: false,
        }
    }

    /// Saves the position of `rank` (from 1) and returns its path.
    pub(super) fn save(
        &mut self,
        puzzle: &ricochet_lab::model::Puzzle,
        rank: usize,
        moves: u32,
    ) -> anyhow::Result<std::path::PathBuf> {
        use anyhow::Context as _;
        if !self.dir.exists() {
            std::fs::create_dir_all(self.dir)
                .with_context(|| format!("cannot create {}", self.dir.display()))?;
            self.made_dir = true;
        }
        let path = self
            .dir
            .join(format!("{}-{rank:02}-{moves}-moves.ron", self.prefix));
        ricochet_lab::model::formats::save_puzzle_with(puzzle, &path, overwrite(self.force))
            .map_err(save_error)?;
        self.written.push(path.clone());
        Ok(path)
    }

    /// Ends the run: with `--force`, the positions of an earlier run not written now are
    /// removed.
    pub(super) fn finish(mut self) -> anyhow::Result<()> {
        self.finished = true;
        if !self.force {
            return Ok(());
        }
        let Ok(entries) = std::fs::read_dir(self.dir) else {
            return Ok(());
        };
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if ranked_name(&name, self.prefix).is_some() && !self.written.contains(&path) {
                std::fs::remove_file(&path).map_err(|error| {
                    anyhow::anyhow!(
                        "cannot remove {} of an earlier run: {error}",
                        path.display()
                    )
                })?;
            }
        }
        Ok(())
    }
}

impl Drop for RankedOutput<'_> {
    fn drop(&mut self) {
        if self.finished {
            return;
        }
        // The run failed: a partial set of positions would read as a finished run's.
        for path in &self.written {
            let _ = std::fs::remove_file(path);
        }
        if self.made_dir {
            // Only an empty folder is removed: anything else in it is not this run's.
            let _ = std::fs::remove_dir(self.dir);
        }
    }
}

/// The rank of a file named `{prefix}-{rank}-{moves}-moves.ron`, as commands name the
/// positions they write.
fn ranked_name(name: &str, prefix: &str) -> Option<usize> {
    let rest = name.strip_prefix(prefix)?.strip_prefix('-')?;
    let (rank, rest) = rest.split_once('-')?;
    let moves = rest.strip_suffix("-moves.ron")?;
    moves.parse::<u32>().ok()?;
    rank.parse().ok()
}

/// Checks a `--plot FILE` before anything runs: the picture's format comes from its name, so a
/// name that is neither `.svg` nor `.png` is refused at once rather than after the work.
pub(super) fn check_plot_path(path: &std::path::Path) -> anyhow::Result<()> {
    if ricochet_lab::print::ImageFormat::from_path(path).is_none() {
        anyhow::bail!(
            "{}: --plot writes .svg or .png; name the file so",
            path.display()
        );
    }
    Ok(())
}

/// Writes a `--plot` chart and says so on standard error (standard output keeps the report).
pub(super) fn write_plot(
    chart: &ricochet_lab::print::chart::Chart,
    what: &str,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    ricochet_lab::print::chart_drawing::save(chart, path)?;
    eprintln!("wrote the {what} plot to {}", path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_files_are_told_by_prefix_rank_and_moves() {
        assert_eq!(ranked_name("position-01-12-moves.ron", "position"), Some(1));
        assert_eq!(ranked_name("hardest-103-9-moves.ron", "hardest"), Some(103));
        assert_eq!(ranked_name("hardest-01-9-moves.ron", "position"), None);
        assert_eq!(ranked_name("position-01-x-moves.ron", "position"), None);
        assert_eq!(ranked_name("position-01-12-moves.txt", "position"), None);
    }

    #[test]
    fn a_folder_of_an_earlier_run_is_refused_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        check_out_dir(&dir.path().join("new"), "position", 3, false).unwrap();
        std::fs::write(dir.path().join("position-04-7-moves.ron"), "").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "").unwrap();
        check_out_dir(dir.path(), "position", 3, false).unwrap();
        std::fs::write(dir.path().join("position-02-7-moves.ron"), "").unwrap();
        let message = check_out_dir(dir.path(), "position", 3, false)
            .unwrap_err()
            .to_string();
        assert!(message.contains("position-02-7-moves.ron"), "{message}");
        assert!(message.contains("--force"), "{message}");
        check_out_dir(dir.path(), "position", 3, true).unwrap();
        let file = dir.path().join("notes.txt");
        let message = check_out_dir(&file, "position", 3, true)
            .unwrap_err()
            .to_string();
        assert!(message.contains("is not a folder"), "{message}");
    }
}
