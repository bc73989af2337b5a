//! Lessons: a puzzle prepared for teaching, with the solvers to run, the debugger's
//! breakpoints, the overlays to show and a page of text with questions, in one readable RON
//! file (see `docs/lessons.md`).
//!
//! ```ron
//! (
//!     lesson: 1,
//!     title: "BFS against IDDFS",
//!     summary: "Memory against revisits on a 6x6 board.",
//!     puzzle: File("../small-6x6.ron"),
//!     solvers: ["bfs", "iddfs"],
//!     debug: true,
//!     breakpoints: [Depth(3), Solution],
//!     overlays: ["search-heat"],
//!     text: r#"
//! # What to look at
//! Solve with bfs, then with iddfs. Which one examines more nodes?
//! "#,
//! )
//! ```
//!
//! A [`LessonFile`] is the file as written; [`Lesson`] is the file resolved against the folder
//! it is in: its puzzle loaded, its solvers and overlays named by their kinds. Every problem
//! found on the way is a [`LessonProblem`] naming the file, the field and what is wrong, so
//! that a teacher fixes them all at once; [`check`] adds the problems only a search finds (a
//! puzzle without a solution, a solver that does not take the puzzle's rules). The format
//! names no part of the app: the app maps each [`LessonOverlay`] and [`LessonBreakpoint`] to
//! its own settings.

pub mod check;
pub mod text;

pub use check::check_file;

use crate::model::formats::{self, FormatError};
use crate::model::{Pos, Puzzle};
use crate::solver::SolverId;
use crate::solver::trace::EventKind;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The lesson format's version this program writes and the newest it reads.
pub const LESSON_FORMAT_VERSION: u32 = 1;

/// The deepest depth limit a lesson may set, as the solver panel allows.
pub const MAX_DEPTH_LIMIT: u32 = 255;

/// The folder of the shipped lessons, inside the shipped `boards/` folder.
pub const SHIPPED_FOLDER: &str = "lessons";

/// A lesson file as written: every field a teacher may give, before anything is checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LessonFile {
    /// The format's version, [`LESSON_FORMAT_VERSION`]; the first field, which is also how a
    /// lesson is told from a puzzle.
    pub lesson: u32,
    /// The lesson's title, as the Lessons menu and the lesson's tab show it.
    pub title: String,
    /// One line saying what the lesson is about, shown when the menu entry is hovered.
    #[serde(default)]
    pub summary: String,
    /// The puzzle the lesson opens on.
    pub puzzle: LessonPuzzle,
    /// Whether the lesson opens in the editor or in play mode.
    #[serde(default)]
    pub mode: LessonMode,
    /// The solvers the lesson uses, by their command-line names; the first is chosen when the
    /// lesson opens, and the tab offers the others in one click.
    #[serde(default)]
    pub solvers: Vec<String>,
    /// The depth limit the solvers that take one search to (`dls`, `iddfs`, ...), from 1 to
    /// [`MAX_DEPTH_LIMIT`]; without it, no depth limit is set.
    #[serde(default)]
    pub depth_limit: Option<u32>,
    /// Whether Solve runs in the debugger (step by step, stopping at the breakpoints).
    #[serde(default)]
    pub debug: bool,
    /// Whether a debugged run pauses on its first event.
    #[serde(default = "pause_at_start_default")]
    pub pause_at_start: bool,
    /// The debugger's breakpoints: those listed are set, every other kind is off.
    #[serde(default)]
    pub breakpoints: Vec<LessonBreakpoint>,
    /// The overlay layers to show, by their names ([`LessonOverlay::name`]): those listed are
    /// on, every other is off.
    #[serde(default)]
    pub overlays: Vec<String>,
    /// Whether the debugger's Predict mode is on: the learner says what comes next before
    /// each step.
    #[serde(default)]
    pub predict: bool,
    /// The page of text: plain text with Markdown's headings (`# `), lists (`- `, `1. `) and
    /// paragraphs separated by blank lines (see [`text::blocks`]).
    pub text: String,
}

fn pause_at_start_default() -> bool {
    true
}

/// Where a lesson's puzzle comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LessonPuzzle {
    /// A puzzle file (`.ron` or Cox `.txt`), relative to the lesson's folder unless absolute.
    File(String),
    /// The puzzle itself, in any format the app pastes: native RON text, a board line
    /// (`ricochet-lab:...`), a game id or Cox text.
    Text(String),
}

/// The mode a lesson opens in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LessonMode {
    /// The editor: the board can be changed (a robot placed, a wall drawn).
    #[default]
    Edit,
    /// Play mode: robots are slid by hand.
    Play,
}

/// A breakpoint of the debugger, as a lesson sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LessonBreakpoint {
    /// Stop when the search reaches this depth.
    Depth(u32),
    /// Stop when the active robot enters the cell at this column and row.
    Cell(u16, u16),
    /// Stop when a solution is found.
    Solution,
    /// Stop on a prune of this kind.
    Prune(LessonPrune),
    /// Stop when a new depth, bound or level starts.
    NewDepth,
    /// Hold the cell breakpoint to these depths (the shallowest, then the deepest).
    Depths(u32, u32),
}

impl LessonBreakpoint {
    /// The breakpoint's kind in words, for problems that name two of one kind.
    pub fn kind_name(self) -> &'static str {
        match self {
            LessonBreakpoint::Depth(_) => "Depth",
            LessonBreakpoint::Cell(..) => "Cell",
            LessonBreakpoint::Solution => "Solution",
            LessonBreakpoint::Prune(_) => "Prune",
            LessonBreakpoint::NewDepth => "NewDepth",
            LessonBreakpoint::Depths(..) => "Depths",
        }
    }
}

/// The kinds of prune a lesson can stop on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LessonPrune {
    /// A node at the depth limit.
    DepthLimit,
    /// A node cut by its lower bound (the minimum-move table).
    LowerBound,
    /// A node cut by the transposition table.
    TableHit,
    /// A node visited before.
    Visited,
    /// A node cut for a solver's own reason.
    OtherPrune,
}

impl LessonPrune {
    /// The event kind the debugger stops on.
    pub fn event_kind(self) -> EventKind {
        match self {
            LessonPrune::DepthLimit => EventKind::DepthLimit,
            LessonPrune::LowerBound => EventKind::LowerBound,
            LessonPrune::TableHit => EventKind::TableHit,
            LessonPrune::Visited => EventKind::Visited,
            LessonPrune::OtherPrune => EventKind::OtherPrune,
        }
    }
}

/// An overlay layer a lesson can turn on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LessonOverlay {
    /// The minimum-move map.
    MinMoves,
    /// How often the search put the active robot on each cell.
    SearchHeat,
    /// The slide graph's edges of the hovered cell, and those the last edit changed.
    GraphEdges,
    /// The slide graph's edges of every cell.
    GraphEdgesAllCells,
    /// The stateless solver's final states.
    Stateless,
    /// The stateless solver's final and intermediate states.
    StatelessIntermediates,
    /// The last solution's moves as arrows.
    SolutionPath,
    /// The exact distance map.
    ExactDistances,
}

impl LessonOverlay {
    /// Every overlay, in the order the lesson page lists them.
    pub const ALL: [LessonOverlay; 8] = [
        LessonOverlay::MinMoves,
        LessonOverlay::SearchHeat,
        LessonOverlay::GraphEdges,
        LessonOverlay::GraphEdgesAllCells,
        LessonOverlay::Stateless,
        LessonOverlay::StatelessIntermediates,
        LessonOverlay::SolutionPath,
        LessonOverlay::ExactDistances,
    ];

    /// Its name in a lesson file.
    pub fn name(self) -> &'static str {
        match self {
            LessonOverlay::MinMoves => "min-moves",
            LessonOverlay::SearchHeat => "search-heat",
            LessonOverlay::GraphEdges => "graph-edges",
            LessonOverlay::GraphEdgesAllCells => "graph-edges-all-cells",
            LessonOverlay::Stateless => "stateless",
            LessonOverlay::StatelessIntermediates => "stateless-intermediates",
            LessonOverlay::SolutionPath => "solution-path",
            LessonOverlay::ExactDistances => "exact-distances",
        }
    }

    /// The overlay of a name, as [`LessonOverlay::name`] spells it.
    pub fn from_name(name: &str) -> Option<LessonOverlay> {
        LessonOverlay::ALL.into_iter().find(|o| o.name() == name)
    }
}

/// One thing wrong with a lesson: the file, the field (or the place in the file) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonProblem {
    /// The lesson file.
    pub file: PathBuf,
    /// The field the problem is in (`solvers`, `breakpoints`), or the line and column of a
    /// syntax error.
    pub field: String,
    /// What is wrong, as a sentence without its full stop.
    pub message: String,
}

impl fmt::Display for LessonProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: {}",
            self.file.display(),
            self.field,
            self.message
        )
    }
}

/// Why a lesson could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum LessonError {
    /// The file could not be read.
    #[error(transparent)]
    Read(#[from] FormatError),
    /// The file was read, and these are wrong with it (at least one).
    #[error("{}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Problems {
        /// Every problem found.
        problems: Vec<LessonProblem>,
    },
}

/// A lesson resolved and checked: what the app sets when it opens it.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// The file as written.
    pub file: LessonFile,
    /// Where it was read from (`None` for a lesson made in memory).
    pub path: Option<PathBuf>,
    /// The puzzle, loaded.
    pub puzzle: Puzzle,
    /// The solvers, in the file's order.
    pub solvers: Vec<SolverId>,
    /// The overlays to show.
    pub overlays: Vec<LessonOverlay>,
}

impl Lesson {
    /// Reads and resolves the lesson file at `path`; every problem found is named.
    pub fn load(path: &Path) -> Result<Lesson, LessonError> {
        let text = formats::read_text(path)?;
        Lesson::parse(&text, path).map_err(|problems| LessonError::Problems { problems })
    }

    /// Parses and resolves a lesson's text read from `path` (which names the problems and
    /// is where a puzzle's relative path starts).
    pub fn parse(text: &str, path: &Path) -> Result<Lesson, Vec<LessonProblem>> {
        let file = parse_file(text, path).map_err(|problem| vec![problem])?;
        Lesson::resolve(file, path)
    }

    /// Resolves a lesson file read from `path`: loads its puzzle and names its solvers and
    /// overlays, collecting every problem.
    pub fn resolve(file: LessonFile, path: &Path) -> Result<Lesson, Vec<LessonProblem>> {
        let mut problems = Vec::new();
        let mut problem = |field: &str, message: String| {
            problems.push(LessonProblem {
                file: path.to_path_buf(),
                field: field.to_string(),
                message,
            });
        };
        if file.lesson != LESSON_FORMAT_VERSION {
            problem(
                "lesson",
                format!(
                    "format version {} is not one this program reads (it reads {LESSON_FORMAT_VERSION})",
                    file.lesson
                ),
            );
        }
        if file.title.trim().is_empty() {
            problem("title", "the title is empty".to_string());
        }
        if file.text.trim().is_empty() {
            problem(
                "text",
                "the text is empty: a lesson needs its page of text".to_string(),
            );
        }
        let puzzle = match load_puzzle(&file.puzzle, path) {
            Ok(puzzle) => Some(puzzle),
            Err(message) => {
                problem("puzzle", message);
                None
            }
        };
        let solvers = resolve_solvers(&file.solvers, &mut problem);
        if let Some(limit) = file.depth_limit
            && !(1..=MAX_DEPTH_LIMIT).contains(&limit)
        {
            problem(
                "depth_limit",
                format!("{limit} is not a depth limit: it runs from 1 to {MAX_DEPTH_LIMIT}"),
            );
        }
        let overlays = resolve_overlays(&file.overlays, &mut problem);
        check_breakpoints(&file.breakpoints, puzzle.as_ref(), &mut problem);
        match puzzle {
            Some(puzzle) if problems.is_empty() => Ok(Lesson {
                file,
                path: Some(path.to_path_buf()),
                puzzle,
                solvers,
                overlays,
            }),
            _ => Err(problems),
        }
    }

    /// The lesson's title.
    pub fn title(&self) -> &str {
        &self.file.title
    }
}

/// Parses a lesson file's text; a syntax error names its line and column.
pub fn parse_file(text: &str, path: &Path) -> Result<LessonFile, LessonProblem> {
    ron_options()
        .from_str::<LessonFile>(text)
        .map_err(|error| LessonProblem {
            file: path.to_path_buf(),
            field: format!(
                "line {}, column {}",
                error.span.start.line, error.span.start.col
            ),
            message: error.code.to_string(),
        })
}

/// Writes a lesson file as RON, its text as a multi-line string (what [`parse_file`] reads
/// back as the same file).
pub fn write_file(file: &LessonFile) -> Result<String, ron::Error> {
    let config = ron::ser::PrettyConfig::new()
        .escape_strings(false)
        .struct_names(false);
    ron_options().to_string_pretty(file, config)
}

/// RON as lessons are written: an optional value is given as it is (`depth_limit: 5`), or as
/// `Some(5)`.
fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Whether `text` is a lesson rather than a puzzle: RON whose first field is `lesson`.
pub fn is_lesson_text(text: &str) -> bool {
    let mut rest = text.trim_start_matches('\u{feff}');
    let mut opened = false;
    loop {
        rest = rest.trim_start();
        if let Some(comment) = rest.strip_prefix("//") {
            rest = comment.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(comment) = rest.strip_prefix("/*") {
            rest = comment.split_once("*/").map_or("", |(_, after)| after);
        } else if !opened && let Some(inside) = rest.strip_prefix('(') {
            opened = true;
            rest = inside;
        } else {
            break;
        }
    }
    opened
        && rest
            .strip_prefix("lesson")
            .is_some_and(|after| after.trim_start().starts_with(':'))
}

/// Whether the file at `path` holds a lesson (read by content, whatever its name); a file
/// that cannot be read is not one.
pub fn is_lesson_file(path: &Path) -> bool {
    // A lesson is a small text file: its first kilobytes tell.
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut start = Vec::new();
    if file.take(4096).read_to_end(&mut start).is_err() {
        return false;
    }
    is_lesson_text(&String::from_utf8_lossy(&start))
}

/// A shipped lesson, as the Lessons menu lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonEntry {
    /// The lesson file.
    pub path: PathBuf,
    /// Its title (the file's name when it does not read).
    pub title: String,
    /// Its summary (empty when it does not read).
    pub summary: String,
}

/// The lessons in `folder`, by file name: every `.ron` file holding a lesson.
pub fn lessons_in(folder: &Path) -> Vec<LessonEntry> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "ron"))
        .filter(|path| is_lesson_file(path))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let parsed = formats::read_text(&path)
                .ok()
                .and_then(|text| parse_file(&text, &path).ok());
            let (title, summary) = match parsed {
                Some(file) => (file.title, file.summary),
                None => (formats::quote(&path.display().to_string()), String::new()),
            };
            LessonEntry {
                path,
                title,
                summary,
            }
        })
        .collect()
}

/// Loads a lesson's puzzle; the error is a sentence naming the file or text.
fn load_puzzle(puzzle: &LessonPuzzle, lesson: &Path) -> Result<Puzzle, String> {
    match puzzle {
        LessonPuzzle::File(name) => {
            let named = Path::new(name);
            let path = if named.is_absolute() {
                named.to_path_buf()
            } else {
                lesson.parent().unwrap_or(Path::new("")).join(named)
            };
            let format = formats::Format::of_path(&path).unwrap_or(formats::Format::Native);
            formats::load_file(&path, format).map_err(|error| {
                let error = error.to_string();
                let shown = path.display().to_string();
                if error.starts_with(&shown) {
                    format!("the puzzle file does not load: {error}")
                } else {
                    format!("the puzzle file {shown} does not load: {error}")
                }
            })
        }
        LessonPuzzle::Text(text) => formats::parse_any(text)
            .map_err(|error| format!("the puzzle text does not load: {error}")),
    }
}

/// The solvers of a lesson by their names; an unknown or repeated name is a problem.
fn resolve_solvers(names: &[String], problem: &mut impl FnMut(&str, String)) -> Vec<SolverId> {
    let mut solvers = Vec::new();
    for name in names {
        match SolverId::from_name(name) {
            Some(id) if solvers.contains(&id) => {
                problem("solvers", format!("{name} is listed twice"));
            }
            Some(id) => solvers.push(id),
            None => problem(
                "solvers",
                format!(
                    "unknown solver {}; the solvers are {}",
                    formats::quote(name),
                    SolverId::ALL.map(SolverId::name).join(", ")
                ),
            ),
        }
    }
    solvers
}

/// The overlays of a lesson by their names; an unknown or repeated name is a problem.
fn resolve_overlays(
    names: &[String],
    problem: &mut impl FnMut(&str, String),
) -> Vec<LessonOverlay> {
    let mut overlays = Vec::new();
    for name in names {
        match LessonOverlay::from_name(name) {
            Some(overlay) if overlays.contains(&overlay) => {
                problem("overlays", format!("{name} is listed twice"));
            }
            Some(overlay) => overlays.push(overlay),
            None => problem(
                "overlays",
                format!(
                    "unknown overlay {}; the overlays are {}",
                    formats::quote(name),
                    LessonOverlay::ALL.map(LessonOverlay::name).join(", ")
                ),
            ),
        }
    }
    overlays
}

/// The debugger holds one breakpoint of each kind: a kind given twice, a cell off the board
/// and a range of depths upside down are problems.
fn check_breakpoints(
    breakpoints: &[LessonBreakpoint],
    puzzle: Option<&Puzzle>,
    problem: &mut impl FnMut(&str, String),
) {
    let mut kinds: Vec<&str> = Vec::new();
    for breakpoint in breakpoints {
        let kind = breakpoint.kind_name();
        if kinds.contains(&kind) {
            problem(
                "breakpoints",
                format!("two {kind} breakpoints: the debugger holds one of each kind"),
            );
        }
        kinds.push(kind);
        match *breakpoint {
            LessonBreakpoint::Cell(x, y) => {
                if let Some(puzzle) = puzzle {
                    let board = puzzle.board();
                    if !board.contains(Pos::new(x, y)) {
                        problem(
                            "breakpoints",
                            format!(
                                "Cell({x}, {y}) is off the {}x{} board",
                                board.width(),
                                board.height()
                            ),
                        );
                    }
                }
            }
            LessonBreakpoint::Depths(low, high) if low > high => problem(
                "breakpoints",
                format!("Depths({low}, {high}): the shallowest depth comes first"),
            ),
            LessonBreakpoint::Depth(_)
            | LessonBreakpoint::Solution
            | LessonBreakpoint::Prune(_)
            | LessonBreakpoint::NewDepth
            | LessonBreakpoint::Depths(..) => {}
        }
    }
}

#[cfg(test)]
mod tests;
