//! What version 2 of the protocol adds: the options an engine declares in its handshake and
//! the driver sets with `setoption`, the `info` line's standard keys while a search runs, and
//! the `draw` lines with which an engine paints a layer of its own on the board.

use super::{ProtocolError, is_key, pairs, parse_path, quote, value};
use crate::model::{Move, Pos};
use std::fmt;

/// The most options one engine may declare; later declarations are ignored.
pub const MAX_OPTIONS: usize = 64;

/// The most choices one `combo` option may offer.
const MAX_CHOICES: usize = 64;

/// An option an engine declares: `option name=NAME type=TYPE default=V [min=N max=N]
/// [choices=A,B,…]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// Its name, a key as the page spells keys.
    pub name: String,
    /// Its type, default and bounds.
    pub kind: OptionKind,
}

/// An option's type, with its default and the values it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A whole number from `min` to `max`.
    Spin {
        /// The value the engine uses when none is set.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `true` or `false`.
    Check {
        /// The value the engine uses when none is set.
        default: bool,
    },
    /// One of a list of words.
    Combo {
        /// The value the engine uses when none is set.
        default: String,
        /// Every value it takes.
        choices: Vec<String>,
    },
    /// Any word without white space.
    Text {
        /// The value the engine uses when none is set.
        default: String,
    },
}

impl OptionDecl {
    /// The type's word: `spin`, `check`, `combo` or `string`.
    pub fn type_word(&self) -> &'static str {
        match self.kind {
            OptionKind::Spin { .. } => "spin",
            OptionKind::Check { .. } => "check",
            OptionKind::Combo { .. } => "combo",
            OptionKind::Text { .. } => "string",
        }
    }

    /// The default as the page writes values.
    pub fn default_value(&self) -> String {
        match &self.kind {
            OptionKind::Spin { default, .. } => default.to_string(),
            OptionKind::Check { default } => default.to_string(),
            OptionKind::Combo { default, .. } | OptionKind::Text { default } => default.clone(),
        }
    }

    /// What values it takes, in words: `1 to 64`, `true or false`, `one of a, b`, `a word`.
    pub fn range_text(&self) -> String {
        match &self.kind {
            OptionKind::Spin { min, max, .. } => format!("{min} to {max}"),
            OptionKind::Check { .. } => "true or false".into(),
            OptionKind::Combo { choices, .. } => format!("one of {}", choices.join(", ")),
            OptionKind::Text { .. } => "a word without spaces".into(),
        }
    }

    /// Checks `value` against the declaration and returns it as the engine is sent it; the
    /// error says what the option takes.
    pub fn check_value(&self, value: &str) -> Result<String, OptionValueError> {
        let option = self.name.clone();
        let given = value.to_string();
        match &self.kind {
            OptionKind::Spin { min, max, .. } => match value.parse::<i64>() {
                Ok(n) if (*min..=*max).contains(&n) => Ok(n.to_string()),
                _ => Err(OptionValueError::NotANumberInRange {
                    option,
                    value: given,
                    min: *min,
                    max: *max,
                }),
            },
            OptionKind::Check { .. } => match value {
                "true" | "yes" | "1" | "on" => Ok("true".into()),
                "false" | "no" | "0" | "off" => Ok("false".into()),
                _ => Err(OptionValueError::NotTrueOrFalse {
                    option,
                    value: given,
                }),
            },
            OptionKind::Combo { choices, .. } => {
                if choices.iter().any(|c| c == value) {
                    Ok(given)
                } else {
                    Err(OptionValueError::NotAChoice {
                        option,
                        value: given,
                        choices: choices.clone(),
                    })
                }
            }
            OptionKind::Text { .. } => {
                if value.is_empty() || value.contains(char::is_whitespace) {
                    Err(OptionValueError::NotAWord {
                        option,
                        value: given,
                    })
                } else {
                    Ok(given)
                }
            }
        }
    }
}

/// A value an option refuses; the message names the option, its type and what it takes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionValueError {
    /// A `spin` option was given something other than a whole number from `min` to `max`.
    #[error("{} is no value of the option {option} (spin, {min} to {max})", quote(.value))]
    NotANumberInRange {
        /// The option's name.
        option: String,
        /// The value given.
        value: String,
        /// The least value it takes.
        min: i64,
        /// The greatest value it takes.
        max: i64,
    },
    /// A `check` option was given something other than true or false (or their synonyms).
    #[error("{} is no value of the option {option} (check, true or false)", quote(.value))]
    NotTrueOrFalse {
        /// The option's name.
        option: String,
        /// The value given.
        value: String,
    },
    /// A `combo` option was given a word that is not one of its choices.
    #[error(
        "{} is no value of the option {option} (combo, one of {})",
        quote(.value),
        .choices.join(", ")
    )]
    NotAChoice {
        /// The option's name.
        option: String,
        /// The value given.
        value: String,
        /// The words it takes.
        choices: Vec<String>,
    },
    /// A `string` option was given nothing, or words with white space between them.
    #[error("{} is no value of the option {option} (string, a word without spaces)", quote(.value))]
    NotAWord {
        /// The option's name.
        option: String,
        /// The value given.
        value: String,
    },
}

impl fmt::Display for OptionDecl {
    /// The declaration's `option` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "option name={} type={} default={}",
            self.name,
            self.type_word(),
            self.default_value()
        )?;
        match &self.kind {
            OptionKind::Spin { min, max, .. } => write!(f, " min={min} max={max}"),
            OptionKind::Combo { choices, .. } => write!(f, " choices={}", choices.join(",")),
            OptionKind::Check { .. } | OptionKind::Text { .. } => Ok(()),
        }
    }
}

/// Reads an `option` line's tokens.
pub(super) fn parse_option(line: &str, tokens: &[&str]) -> Result<OptionDecl, ProtocolError> {
    let pairs = pairs(tokens);
    let get = |key: &str| {
        value(&pairs, key).ok_or_else(|| ProtocolError::new(line, format!("{key}= is missing")))
    };
    let name = get("name")?;
    if !is_key(name) || name.len() > 32 {
        return Err(ProtocolError::new(
            line,
            "an option's name is 1 to 32 lower-case letters, digits, _ and -",
        ));
    }
    let default = get("default")?;
    let whole = |key: &str, text: &str| {
        text.parse::<i64>()
            .map_err(|_| ProtocolError::new(line, super::not_a_number(key, text)))
    };
    let kind = match get("type")? {
        "spin" => {
            let (default, min, max) = (
                whole("default", default)?,
                whole("min", get("min")?)?,
                whole("max", get("max")?)?,
            );
            if !(min <= default && default <= max) {
                return Err(ProtocolError::new(
                    line,
                    "a spin option needs min <= default <= max",
                ));
            }
            OptionKind::Spin { default, min, max }
        }
        "check" => OptionKind::Check {
            default: match default {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(ProtocolError::new(
                        line,
                        "a check option's default is true or false",
                    ));
                }
            },
        },
        "combo" => {
            let choices: Vec<String> = get("choices")?
                .split(',')
                .filter(|c| !c.is_empty())
                .take(MAX_CHOICES)
                .map(str::to_string)
                .collect();
            if !choices.iter().any(|c| c == default) {
                return Err(ProtocolError::new(
                    line,
                    "a combo option's default is not among its choices",
                ));
            }
            OptionKind::Combo {
                default: default.to_string(),
                choices,
            }
        }
        "string" => OptionKind::Text {
            default: default.to_string(),
        },
        other => {
            return Err(ProtocolError::new(
                line,
                format!("type={} is not spin, check, combo or string", quote(other)),
            ));
        }
    };
    Ok(OptionDecl {
        name: name.to_string(),
        kind,
    })
}

/// What a search is doing, from an `info` line with the standard keys (any of them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// `depth=`: the depth, bound or level it searches now.
    pub depth: Option<u32>,
    /// `nodes=`: the nodes expanded so far, in all.
    pub nodes: Option<u64>,
    /// `nps=`: nodes per second.
    pub nps: Option<u64>,
    /// `table=`: how full its table is, in thousandths (0 to 1000).
    pub table: Option<u32>,
    /// `line=`: the current best or principal line.
    pub line: Option<Vec<Move>>,
}

impl SearchInfo {
    /// The figures in words for a progress line: `depth 7 · 1234567 nodes · 812k nodes/s ·
    /// table 35.0% · line RE BN`.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if let Some(depth) = self.depth {
            parts.push(format!("depth {depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("{nodes} nodes"));
        }
        if let Some(nps) = self.nps {
            parts.push(match nps {
                0..10_000 => format!("{nps} nodes/s"),
                10_000..10_000_000 => format!("{}k nodes/s", nps / 1000),
                _ => format!("{}M nodes/s", nps / 1_000_000),
            });
        }
        if let Some(table) = self.table {
            parts.push(format!("table {:.1}%", f64::from(table) / 10.0));
        }
        if let Some(line) = &self.line {
            let moves: Vec<String> = line.iter().map(Move::to_string).collect();
            parts.push(format!("line {}", moves.join(" ")));
        }
        parts.join(" · ")
    }

    /// Whether no key was given.
    pub fn is_empty(&self) -> bool {
        *self == SearchInfo::default()
    }
}

impl fmt::Display for SearchInfo {
    /// The `info` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        if let Some(depth) = self.depth {
            write!(f, " depth={depth}")?;
        }
        if let Some(nodes) = self.nodes {
            write!(f, " nodes={nodes}")?;
        }
        if let Some(nps) = self.nps {
            write!(f, " nps={nps}")?;
        }
        if let Some(table) = self.table {
            write!(f, " table={table}")?;
        }
        if let Some(line) = &self.line {
            write!(f, " line={}", super::format_path(line))?;
        }
        Ok(())
    }
}

/// Reads an `info` line with standard keys; unknown keys are skipped, a known key with a
/// value that is no number (or no line of moves) is an error.
pub(super) fn parse_search_info(line: &str, tokens: &[&str]) -> Result<SearchInfo, ProtocolError> {
    let pairs = pairs(tokens);
    let number = |key: &str| -> Result<Option<u64>, ProtocolError> {
        value(&pairs, key)
            .map(|text| {
                text.parse::<u64>()
                    .map_err(|_| ProtocolError::new(line, super::not_a_number(key, text)))
            })
            .transpose()
    };
    let narrow = |key: &str, n: Option<u64>, most: u64| -> Result<Option<u32>, ProtocolError> {
        match n {
            Some(n) if n > most => Err(ProtocolError::new(
                line,
                format!("{key}={n} is above {most}"),
            )),
            // At most `most`, which is below u32::MAX: the conversion cannot fail.
            Some(n) => Ok(Some(u32::try_from(n).unwrap_or(u32::MAX))),
            None => Ok(None),
        }
    };
    Ok(SearchInfo {
        depth: narrow("depth", number("depth")?, 100_000)?,
        nodes: number("nodes")?,
        nps: number("nps")?,
        table: narrow("table", number("table")?, 1000)?,
        line: value(&pairs, "line")
            .map(|text| parse_path(line, text))
            .transpose()?,
    })
}

pub use crate::solver::drawing::{DrawItem, Rgb};

/// The longest label or legend kept, in characters.
const DRAW_TEXT_CHARS: usize = 80;

fn parse_pos(line: &str, key: &str, text: &str) -> Result<Pos, ProtocolError> {
    let bad = || ProtocolError::new(line, format!("{key}={} is not a cell x,y", quote(text)));
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    let x: u16 = x.parse().map_err(|_| bad())?;
    let y: u16 = y.parse().map_err(|_| bad())?;
    if x >= 64 || y >= 64 {
        return Err(bad());
    }
    Ok(Pos::new(x, y))
}

fn parse_color(line: &str, text: Option<&str>) -> Result<Option<Rgb>, ProtocolError> {
    let Some(text) = text else {
        return Ok(None);
    };
    let text = text.strip_prefix('#').unwrap_or(text);
    let bad = || {
        ProtocolError::new(
            line,
            format!("color={} is not six hexadecimal digits", quote(text)),
        )
    };
    if text.len() != 6 || !text.is_ascii() {
        return Err(bad());
    }
    let byte = |i: usize| u8::from_str_radix(&text[i..i + 2], 16).map_err(|_| bad());
    Ok(Some([byte(0)?, byte(2)?, byte(4)?]))
}

fn draw_text(text: &str) -> String {
    text.replace('_', " ")
        .chars()
        .take(DRAW_TEXT_CHARS)
        .collect()
}

/// Reads a `draw` line's tokens.
pub(super) fn parse_draw(line: &str, tokens: &[&str]) -> Result<DrawItem, ProtocolError> {
    if tokens.first() == Some(&"clear") {
        return Ok(DrawItem::Clear);
    }
    let pairs = pairs(tokens);
    let color = parse_color(line, value(&pairs, "color"))?;
    if let Some(cell) = value(&pairs, "cell") {
        let value = value(&pairs, "value")
            .map(|v| {
                v.parse::<i64>()
                    .map_err(|_| ProtocolError::new(line, super::not_a_number("value", v)))
            })
            .transpose()?;
        if value.is_none() && color.is_none() {
            return Err(ProtocolError::new(
                line,
                "a cell is drawn with value=, color= or both",
            ));
        }
        return Ok(DrawItem::Cell {
            pos: parse_pos(line, "cell", cell)?,
            value,
            color,
        });
    }
    if let Some(arrow) = value(&pairs, "arrow") {
        let (from, to) = arrow.split_once(':').ok_or_else(|| {
            ProtocolError::new(line, format!("arrow={} is not x,y:x,y", quote(arrow)))
        })?;
        return Ok(DrawItem::Arrow {
            from: parse_pos(line, "arrow", from)?,
            to: parse_pos(line, "arrow", to)?,
            color,
        });
    }
    if let Some(cell) = value(&pairs, "label") {
        let text =
            value(&pairs, "text").ok_or_else(|| ProtocolError::new(line, "a label needs text="))?;
        return Ok(DrawItem::Label {
            pos: parse_pos(line, "label", cell)?,
            text: draw_text(text),
        });
    }
    if let Some(text) = value(&pairs, "legend") {
        return Ok(DrawItem::Legend(draw_text(text)));
    }
    Err(ProtocolError::new(
        line,
        "a draw line is clear, cell=, arrow=, label= or legend=",
    ))
}

fn hex(color: &Option<Rgb>) -> String {
    match color {
        Some([r, g, b]) => format!(" color={r:02x}{g:02x}{b:02x}"),
        None => String::new(),
    }
}

impl fmt::Display for DrawItem {
    /// The `draw` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let spaced = |text: &str| text.replace([' ', '\t'], "_");
        match self {
            DrawItem::Clear => f.write_str("draw clear"),
            DrawItem::Cell { pos, value, color } => {
                write!(f, "draw cell={},{}", pos.x, pos.y)?;
                if let Some(value) = value {
                    write!(f, " value={value}")?;
                }
                f.write_str(&hex(color))
            }
            DrawItem::Arrow { from, to, color } => write!(
                f,
                "draw arrow={},{}:{},{}{}",
                from.x,
                from.y,
                to.x,
                to.y,
                hex(color)
            ),
            DrawItem::Label { pos, text } => {
                write!(f, "draw label={},{} text={}", pos.x, pos.y, spaced(text))
            }
            DrawItem::Legend(text) => write!(f, "draw legend={}", spaced(text)),
        }
    }
}
