//! The puzzle page: one self-contained HTML file that plays a puzzle in any browser, from a
//! file or any static host, with no network.
//!
//! The page ([`page_html`]) holds the puzzle as its native RON text, its optimum and one
//! optimal solution (computed by the caller with the program's own solver, never in the
//! page), and both robot palettes; its script draws the board as SVG in cell units (crisp at
//! any size), moves the robots by the same rules as [`crate::model::moves`] (the page's
//! browser test compares every resting cell with the program's), and replays the solution.
//!
//! A link made by [`share_fragment`] carries another puzzle in the page's fragment: the board
//! line of [`crate::model::formats::board_line`] and, optionally, its optimum and solution.
//! The page plays that puzzle instead of its own. A fragment never reaches a server, so a page
//! on a static host learns nothing of what it is asked to play.
//!
//! The template is `page.html` beside this file; a Content-Security-Policy of
//! `default-src 'none'` in it forbids every load, so the page cannot reach the network even
//! by mistake.

use super::Rgb;
use super::colors::{RobotPalette, letter_rgb};
use crate::model::formats::{FormatError, board_line, native};
use crate::model::moves::Move;
use crate::model::{Puzzle, RobotColor, TargetColor};
use serde_json::{Map, Value, json};

/// The page's template; the puzzle's data replaces [`PLACEHOLDER`].
const TEMPLATE: &str = include_str!("page.html");

/// Where the puzzle's data goes in the template.
const PLACEHOLDER: &str = "/*PUZZLE*/";

/// The answer a page reveals on request: the optimum and one solution of that length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageAnswer {
    /// One optimal solution; its length is the optimum.
    pub moves: Vec<Move>,
}

/// The page for `puzzle`, titled `name`, showing `answer` on request (the page offers no
/// answer without one), in `palette` until the reader changes it.
pub fn page_html(
    puzzle: &Puzzle,
    name: &str,
    answer: Option<&PageAnswer>,
    palette: RobotPalette,
) -> String {
    let data = json!({
        "name": name,
        "ron": native::write(puzzle),
        "optimum": answer.map(|a| a.moves.len()),
        "solution": answer.map(|a| a.moves.iter().map(Move::to_string).collect::<Vec<_>>()),
        "palette": palette.name(),
        "palettes": palettes(false),
        "letters": palettes(true),
    });
    // `<` never appears raw in the script element, so no text in the data can close it.
    let text = data.to_string().replace('<', "\\u003c");
    TEMPLATE.replacen(PLACEHOLDER, &text, 1)
}

/// For each palette by its name, a colour per colour name (`Red` ... `Yellow`, `Any` for the
/// vortex and `Silver`): the fills, or with `letters` the letters drawn on them.
fn palettes(letters: bool) -> Value {
    let mut all = Map::new();
    for palette in RobotPalette::ALL {
        let mut table = Map::new();
        let mut put = |name: String, fill: Rgb| {
            let shown = if letters { letter_rgb(fill) } else { fill };
            table.insert(name, Value::from(shown.hex()));
        };
        for color in TargetColor::ALL {
            put(format!("{color:?}"), palette.target_rgb(color));
        }
        put("Silver".to_string(), palette.rgb(RobotColor::Silver));
        all.insert(palette.name().to_string(), Value::Object(table));
    }
    Value::Object(all)
}

/// The fragment (from `#`) of a link that makes a page play `puzzle`: its board line, and
/// when given its `name` and `answer`.
pub fn share_fragment(
    puzzle: &Puzzle,
    name: Option<&str>,
    answer: Option<&PageAnswer>,
) -> Result<String, FormatError> {
    let mut fragment = format!("#puzzle={}", board_line::write(puzzle)?);
    if let Some(name) = name {
        fragment.push_str("&name=");
        fragment.push_str(&percent_encoded(name));
    }
    if let Some(answer) = answer {
        let moves: Vec<String> = answer.moves.iter().map(Move::to_string).collect();
        fragment.push_str(&format!(
            "&best={}&solution={}",
            moves.len(),
            moves.join(",")
        ));
    }
    Ok(fragment)
}

/// Text as a URL's query value: every byte but the unreserved ones as `%XX`.
fn percent_encoded(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::moves::parse_moves;
    use crate::model::samples;

    #[test]
    fn the_page_holds_its_puzzle_and_answer_and_names_no_address() {
        let puzzle = samples::fogleman_22();
        let answer = PageAnswer {
            moves: parse_moves("RS, BW").unwrap(),
        };
        let page = page_html(
            &puzzle,
            "a </script> name",
            Some(&answer),
            RobotPalette::Classic,
        );
        assert!(!page.contains(PLACEHOLDER));
        assert!(page.contains("\"optimum\":2"), "the optimum is embedded");
        assert!(page.contains("[\"RS\",\"BW\"]"), "the solution is embedded");
        // The name's `</script>` cannot end the data early.
        assert_eq!(page.matches("</script>").count(), 2);
        for address in ["http:", "https:", "//cdn", "src=", "href=", "url("] {
            assert!(!page.contains(address), "the page names {address}");
        }
    }

    #[test]
    fn a_fragment_carries_the_board_line_and_the_answer() {
        let puzzle = samples::fogleman_22();
        let answer = PageAnswer {
            moves: parse_moves("RS, BW").unwrap(),
        };
        let fragment = share_fragment(&puzzle, Some("Hard one"), Some(&answer)).unwrap();
        let line = fragment
            .strip_prefix("#puzzle=")
            .and_then(|rest| rest.split('&').next())
            .unwrap();
        assert_eq!(board_line::parse(line).unwrap(), puzzle);
        assert!(fragment.ends_with("&name=Hard%20one&best=2&solution=RS,BW"));
    }
}
