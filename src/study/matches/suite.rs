//! Puzzle suites: one puzzle a line, as chess's EPD is one position a line, so that a set of
//! puzzles with known answers can be kept, shared and run (`ricochet-lab match`).
//!
//! ```text
//! # The reference puzzles. Lines beginning with # and empty lines are skipped.
//! 7650+42+E2302B12+C9 ; id g1 ; optimum 9 ; note found by generate
//! puzzle size=4x3 walls=d1139002c446 closed=- robots=R@0,0;B@3,2 goal=R@3,0 targets=- rules=- ; id page ; optimum 1
//! ```
//!
//! A line is fields separated by ` ; ` (a semicolon between spaces): first the puzzle, as a game id or as the engine
//! protocol's `puzzle` line (its `id=` is not needed and is ignored), then `id WORD` (unique in
//! the suite; the line number when left out), `optimum N` (`optimum none` for a puzzle with no
//! solution; no optimum when it is not known) and any number of `note TEXT`.

use crate::model::Puzzle;
use crate::model::formats::game_id;
use crate::solver::engine::protocol::{self, Request};
use std::path::Path;

/// What a suite says of a puzzle's shortest solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Optimum {
    /// Its shortest solution has this many moves.
    Moves(u32),
    /// It has no solution.
    Unsolvable,
    /// The suite does not say.
    Unknown,
}

/// One puzzle of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// Its line in the file, from 1.
    pub line: usize,
    /// Its id, unique in the suite.
    pub id: String,
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Its known optimum.
    pub optimum: Optimum,
    /// The notes, in order.
    pub notes: Vec<String>,
}

/// A suite line that does not parse: where and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{origin}:{line}: {problem}")]
pub struct SuiteError {
    /// The file (or `-`).
    pub origin: String,
    /// The line, from 1; 0 for what is wrong with the whole suite.
    pub line: usize,
    /// What is wrong.
    pub problem: SuiteProblem,
}

/// What is wrong with a suite or one of its lines.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SuiteProblem {
    /// The file could not be read; the operating system's reason.
    #[error("the suite could not be read: {0}")]
    Unreadable(String),
    /// No line holds a puzzle.
    #[error("the suite holds no puzzle")]
    Empty,
    /// More than [`MAX_SUITE_PUZZLES`] lines hold puzzles.
    #[error("a suite holds at most {MAX_SUITE_PUZZLES} puzzles")]
    TooManyPuzzles,
    /// Two lines give the same id.
    #[error("the id '{id}' was given on line {first} already")]
    DuplicateId {
        /// The id.
        id: String,
        /// The line that gave it first.
        first: usize,
    },
    /// The `id` field is empty or more than one word.
    #[error("the id is one word, not '{0}'")]
    BadId(String),
    /// The `optimum` field is neither a move count nor `none`.
    #[error("optimum '{0}' is not a move count or 'none'")]
    BadOptimum(String),
    /// A field other than `id`, `optimum` or `note`.
    #[error("the field '{0}' is not id, optimum or note (fields are separated by ' ; ')")]
    UnknownField(String),
    /// The puzzle is a protocol `puzzle` line that does not parse; the protocol's reason.
    #[error("the puzzle line: {0}")]
    PuzzleLine(String),
    /// The puzzle is a game id that does not parse; the format's reason.
    #[error("the game id: {0}")]
    GameId(String),
    /// The puzzle field is neither a game id nor a protocol `puzzle` line.
    #[error(
        "'{}' is neither a game id (such as 7650+42+E2302B12+C9) nor a puzzle line",
        protocol::quote(.0)
    )]
    NotAPuzzle(String),
}

/// The most puzzles a suite may hold: a match keeps a line of figures per puzzle and solver.
pub const MAX_SUITE_PUZZLES: usize = 1_000_000;

/// Reads a suite file.
pub fn load_suite(path: &Path) -> Result<Vec<SuiteEntry>, SuiteError> {
    let origin = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| SuiteError {
        origin: origin.clone(),
        line: 0,
        problem: SuiteProblem::Unreadable(error.to_string()),
    })?;
    parse_suite(&text, &origin)
}

/// Reads a suite's text; `origin` names it in errors.
pub fn parse_suite(text: &str, origin: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut ids = std::collections::HashMap::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let error = |problem: SuiteProblem| SuiteError {
            origin: origin.to_string(),
            line,
            problem,
        };
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let entry = parse_line(trimmed, line).map_err(error)?;
        if let Some(first) = ids.insert(entry.id.clone(), line) {
            return Err(error(SuiteProblem::DuplicateId {
                id: entry.id,
                first,
            }));
        }
        if entries.len() == MAX_SUITE_PUZZLES {
            return Err(error(SuiteProblem::TooManyPuzzles));
        }
        entries.push(entry);
    }
    if entries.is_empty() {
        return Err(SuiteError {
            origin: origin.to_string(),
            line: 0,
            problem: SuiteProblem::Empty,
        });
    }
    Ok(entries)
}

/// Reads one line that is not a comment.
fn parse_line(text: &str, line: usize) -> Result<SuiteEntry, SuiteProblem> {
    // A `;` alone between spaces separates fields; the puzzle line's own `;` (between robots)
    // never stands alone.
    let mut fields: Vec<String> = vec![String::new()];
    for token in text.split_whitespace() {
        if token == ";" {
            fields.push(String::new());
        } else if let Some(field) = fields.last_mut() {
            if !field.is_empty() {
                field.push(' ');
            }
            field.push_str(token);
        }
    }
    let mut fields = fields.into_iter();
    // The list starts with one field, so there is a first.
    let source = fields.next().unwrap_or_default();
    let puzzle = parse_puzzle(&source)?;
    let mut id = None;
    let mut optimum = Optimum::Unknown;
    let mut notes = Vec::new();
    for field in fields {
        let (key, value) = field.split_once(' ').unwrap_or((field.as_str(), ""));
        let value = value.trim();
        match key {
            "id" => {
                if value.is_empty() || value.contains(char::is_whitespace) {
                    return Err(SuiteProblem::BadId(value.to_string()));
                }
                id = Some(value.to_string());
            }
            "optimum" => {
                optimum = match value {
                    "none" => Optimum::Unsolvable,
                    _ => Optimum::Moves(
                        value
                            .parse()
                            .map_err(|_| SuiteProblem::BadOptimum(value.to_string()))?,
                    ),
                }
            }
            "note" => notes.push(value.to_string()),
            "" => {}
            other => {
                return Err(SuiteProblem::UnknownField(other.to_string()));
            }
        }
    }
    Ok(SuiteEntry {
        line,
        id: id.unwrap_or_else(|| format!("line{line}")),
        puzzle,
        optimum,
        notes,
    })
}

/// A puzzle as a game id or a protocol `puzzle` line.
fn parse_puzzle(source: &str) -> Result<Puzzle, SuiteProblem> {
    if source.starts_with("puzzle") {
        // The protocol asks for an id; a suite line names its puzzle in its own field.
        let with_id = if source.split_whitespace().any(|t| t.starts_with("id=")) {
            source.to_string()
        } else {
            format!("{source} id=-")
        };
        return match protocol::parse_request(&with_id) {
            Ok(Some(Request::Puzzle(request))) => Ok(request.puzzle),
            // A line starting with `puzzle` is read as a puzzle request or refused, so this is
            // only reached if the protocol reads it as something else.
            Ok(_) => Err(SuiteProblem::PuzzleLine("it is no puzzle request".into())),
            Err(error) => Err(SuiteProblem::PuzzleLine(error.reason)),
        };
    }
    if game_id::looks_like(source) {
        return game_id::parse(source).map_err(|error| SuiteProblem::GameId(error.to_string()));
    }
    Err(SuiteProblem::NotAPuzzle(source.to_string()))
}

/// A suite line for a puzzle: its game id when it has one (a standard board without rules),
/// its protocol puzzle line otherwise.
pub fn suite_line(id: &str, puzzle: &Puzzle, optimum: Optimum, notes: &[String]) -> String {
    let source = match game_id::write(puzzle) {
        Ok(game) => game,
        Err(_) => {
            let line = protocol::format_puzzle("-", puzzle);
            line.split(' ')
                .filter(|token| !token.starts_with("id="))
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    let mut text = format!("{source} ; id {id}");
    match optimum {
        Optimum::Moves(n) => text.push_str(&format!(" ; optimum {n}")),
        Optimum::Unsolvable => text.push_str(" ; optimum none"),
        Optimum::Unknown => {}
    }
    for note in notes {
        text.push_str(&format!(" ; note {}", note.replace(';', ",")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "puzzle size=4x3 walls=d1139002c446 closed=- robots=R@0,0;B@3,2 goal=R@3,0 targets=- rules=-";

    #[test]
    fn lines_give_puzzles_ids_optima_and_notes() {
        let text = format!(
            "# a comment\n\n{PAGE} ; id page ; optimum 1 ; note the page's example\n{PAGE} ; optimum none\n{PAGE}\n"
        );
        let suite = parse_suite(&text, "t.suite").unwrap();
        assert_eq!(suite.len(), 3);
        assert_eq!(suite[0].id, "page");
        assert_eq!(suite[0].optimum, Optimum::Moves(1));
        assert_eq!(suite[0].notes, vec!["the page's example"]);
        assert_eq!(suite[1].id, "line4");
        assert_eq!(suite[1].optimum, Optimum::Unsolvable);
        assert_eq!(suite[2].optimum, Optimum::Unknown);
        // A line written for a puzzle reads back as it.
        let line = suite_line("x", &suite[0].puzzle, Optimum::Moves(1), &[]);
        let again = parse_suite(&line, "t").unwrap();
        assert_eq!(again[0].puzzle, suite[0].puzzle);
    }

    #[test]
    fn a_bad_line_is_named_with_its_number_and_why() {
        let cases = [
            (format!("{PAGE} ; optimum many"), "optimum 'many'"),
            (format!("{PAGE} ; depth 3"), "the field 'depth'"),
            ("banana ; id b".to_string(), "neither a game id"),
            ("puzzle size=4x3 ; id b".to_string(), "the puzzle line"),
            (
                format!("{PAGE} ; id a\n{PAGE} ; id a"),
                "given on line 2 already",
            ),
        ];
        for (text, expected) in cases {
            let text = format!("# head\n{text}");
            let error = parse_suite(&text, "bad.suite").unwrap_err();
            assert!(error.to_string().starts_with("bad.suite:"), "{error}");
            assert!(error.to_string().contains(expected), "{error}");
            assert!(error.line >= 2, "{error}");
        }
        assert!(parse_suite("# nothing\n", "e").is_err());
    }
}
