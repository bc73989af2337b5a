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
#[error("{origin}:{line}: {reason}")]
pub struct SuiteError {
    /// The file (or `-`).
    pub origin: String,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// The most puzzles a suite may hold: a match keeps a line of figures per puzzle and solver.
pub const MAX_SUITE_PUZZLES: usize = 1_000_000;

/// Reads a suite file.
pub fn load_suite(path: &Path) -> Result<Vec<SuiteEntry>, SuiteError> {
    let origin = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|error| SuiteError {
        origin: origin.clone(),
        line: 0,
        reason: format!("the suite could not be read: {error}"),
    })?;
    parse_suite(&text, &origin)
}

/// Reads a suite's text; `origin` names it in errors.
pub fn parse_suite(text: &str, origin: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut ids = std::collections::HashMap::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let error = |reason: String| SuiteError {
            origin: origin.to_string(),
            line,
            reason,
        };
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let entry = parse_line(trimmed, line).map_err(error)?;
        if let Some(first) = ids.insert(entry.id.clone(), line) {
            return Err(error(format!(
                "the id '{}' was given on line {first} already",
                entry.id
            )));
        }
        if entries.len() == MAX_SUITE_PUZZLES {
            return Err(error(format!(
                "a suite holds at most {MAX_SUITE_PUZZLES} puzzles"
            )));
        }
        entries.push(entry);
    }
    if entries.is_empty() {
        return Err(SuiteError {
            origin: origin.to_string(),
            line: 0,
            reason: "the suite holds no puzzle".into(),
        });
    }
    Ok(entries)
}

/// Reads one line that is not a comment.
fn parse_line(text: &str, line: usize) -> Result<SuiteEntry, String> {
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
                    return Err(format!("the id is one word, not '{value}'"));
                }
                id = Some(value.to_string());
            }
            "optimum" => {
                optimum =
                    match value {
                        "none" => Optimum::Unsolvable,
                        _ => Optimum::Moves(value.parse().map_err(|_| {
                            format!("optimum '{value}' is not a move count or 'none'")
                        })?),
                    }
            }
            "note" => notes.push(value.to_string()),
            "" => {}
            other => {
                return Err(format!(
                    "the field '{other}' is not id, optimum or note (fields are separated by ' ; ')"
                ));
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
fn parse_puzzle(source: &str) -> Result<Puzzle, String> {
    if source.starts_with("puzzle") {
        // The protocol asks for an id; a suite line names its puzzle in its own field.
        let with_id = if source.split_whitespace().any(|t| t.starts_with("id=")) {
            source.to_string()
        } else {
            format!("{source} id=-")
        };
        return match protocol::parse_request(&with_id) {
            Ok(Some(Request::Puzzle(request))) => Ok(request.puzzle),
            Ok(_) => Err("the puzzle line could not be read".into()),
            Err(error) => Err(format!("the puzzle line: {}", error.reason)),
        };
    }
    if game_id::looks_like(source) {
        return game_id::parse(source).map_err(|error| format!("the game id: {error}"));
    }
    Err(format!(
        "'{}' is neither a game id (such as 7650+42+E2302B12+C9) nor a puzzle line",
        protocol::quote(source)
    ))
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
