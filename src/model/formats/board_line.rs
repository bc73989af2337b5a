//! The board line: any puzzle this program can hold as one line of text, to copy and paste.
//!
//! `ricochet-lab:1:CRC:DATA`, where `1` is the line's version, `DATA` is the puzzle's native
//! RON text (walls, closed cells, targets, robots, goal and rules: everything a `.ron` file
//! keeps) packed with zlib and written in URL-safe base64 without padding, and `CRC` is the
//! CRC-32 of `DATA` in eight hexadecimal digits. White space anywhere is ignored, so a line
//! wrapped by a mail program still reads. A later version of the line gets another number,
//! which older programs refuse by name rather than misread.

use super::{FormatError, native, quote};
use crate::model::puzzle::Puzzle;
use base64::Engine;
use std::io::{Read, Write};

/// What every board line starts with.
pub const PREFIX: &str = "ricochet-lab:";

/// The line version this program writes and the newest it reads.
pub const LINE_VERSION: u32 = 1;

/// The most bytes a line may unpack to (as many as a puzzle file may have).
const MAX_TEXT_BYTES: u64 = super::MAX_INPUT_BYTES;

/// Whether text (after white space) starts like a board line.
pub fn looks_like(text: &str) -> bool {
    text.trim_start().starts_with(PREFIX)
}

fn error(message: impl Into<String>) -> FormatError {
    FormatError::BoardLine {
        message: message.into(),
    }
}

/// Writes a puzzle as one line.
pub fn write(puzzle: &Puzzle) -> Result<String, FormatError> {
    let text = native::write(puzzle);
    let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    let packed = encoder
        .write_all(text.as_bytes())
        .and_then(|()| encoder.finish())
        .map_err(|e| error(format!("could not compress the puzzle: {e}")))?;
    let data = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed);
    let crc = crc32fast::hash(data.as_bytes());
    Ok(format!("{PREFIX}{LINE_VERSION}:{crc:08X}:{data}"))
}

/// Parses a board line.
pub fn parse(text: &str) -> Result<Puzzle, FormatError> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(rest) = compact.strip_prefix(PREFIX) else {
        return Err(error("a board line starts with ricochet-lab:"));
    };
    let fields: Vec<&str> = rest.split(':').collect();
    let [version, crc, data] = fields.as_slice() else {
        return Err(error(
            "a board line is ricochet-lab:VERSION:CRC:DATA; this one has another number of \
             fields (was it copied whole?)",
        ));
    };
    match version.parse::<u32>() {
        Ok(LINE_VERSION) => {}
        Ok(newer) if newer > LINE_VERSION => {
            return Err(error(format!(
                "this line is of version {newer}, made by a newer program; this one reads \
                 version {LINE_VERSION}"
            )));
        }
        _ => {
            return Err(error(format!(
                "the version '{}' is not {LINE_VERSION}",
                quote(version)
            )));
        }
    }
    let expected = (crc.len() == 8)
        .then(|| u32::from_str_radix(crc, 16).ok())
        .flatten()
        .ok_or_else(|| {
            error(format!(
                "the check sum '{}' is not eight hexadecimal digits",
                quote(crc)
            ))
        })?;
    let actual = crc32fast::hash(data.as_bytes());
    if actual != expected {
        return Err(error(format!(
            "the check sum is {expected:08X} but the data's is {actual:08X}: the line was \
             changed or not copied whole"
        )));
    }
    let packed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(data)
        .map_err(|e| error(format!("the data is not URL-safe base64: {e}")))?;
    let mut bytes = Vec::new();
    flate2::read::ZlibDecoder::new(packed.as_slice())
        .take(MAX_TEXT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| error(format!("the data does not unpack: {e}")))?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(error("the data unpacks to more than any puzzle takes"));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| error("the data unpacks to bytes that are not UTF-8 text"))?;
    native::parse(&text).map_err(|inner| error(format!("the puzzle inside: {inner}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Rules;
    use crate::model::formats::game_id;

    #[test]
    fn a_puzzle_with_rules_round_trips_on_one_line() {
        let puzzle = game_id::parse("7650+42+E2302B12+C9")
            .unwrap()
            .with_rules(Rules {
                ricochet: true,
                no_rebound: true,
            });
        let line = write(&puzzle).unwrap();
        assert!(!line.contains(char::is_whitespace), "{line}");
        assert_eq!(parse(&line).unwrap(), puzzle);
        let wrapped = format!("  {}\n  {}\n", &line[..50], &line[50..]);
        assert_eq!(parse(&wrapped).unwrap(), puzzle);
    }

    #[test]
    fn a_bad_line_says_what_is_wrong() {
        let puzzle = game_id::parse("7650+42+E2302B12+C9").unwrap();
        let line = write(&puzzle).unwrap();
        let cases = [
            (line.replacen(":1:", ":2:", 1), "newer program"),
            (line[..line.len() - 4].to_string(), "check sum"),
            (format!("{line}:more"), "number of fields"),
        ];
        for (text, needle) in cases {
            let message = parse(&text).unwrap_err().to_string();
            assert!(message.contains(needle), "{text}: {message}");
        }
    }
}
