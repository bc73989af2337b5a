//! The Ricochet engine protocol (REP), versions 1 and 2, line by line: every request a driver sends
//! and every answer an engine gives, parsed and formatted, and the puzzle as one `puzzle` line.
//!
//! The page users implement against is `docs/engine-protocol.md`; this module is its exact
//! reading. Parsing never panics: a line that breaks the page is a [`ProtocolError`] that
//! quotes it, and a command word or key the page does not know is skipped, as the page asks,
//! so later versions can add them.

use crate::model::{Direction, Move, Pos, Puzzle, RobotColor};
use std::fmt;

mod identity;
mod puzzle_line;
mod v2;

pub use identity::Identity;
pub use puzzle_line::{format_puzzle, format_robots, format_rules};
use puzzle_line::{parse_puzzle, parse_robots};
pub use v2::{DrawItem, MAX_OPTIONS, OptionDecl, OptionKind, OptionValueError, Rgb, SearchInfo};

/// The highest protocol version this build speaks.
pub const VERSION: u32 = 2;

/// The longest line either side may send, in bytes, without its end of line.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The most characters of an offending line an error quotes.
const QUOTED_CHARS: usize = 160;

/// A line that breaks the protocol: the line (shortened when long) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason} in the line '{line}'")]
pub struct ProtocolError {
    /// The line as received, cut to its first 160 characters.
    pub line: String,
    /// What is wrong with it.
    pub reason: String,
}

impl ProtocolError {
    /// An error about `line`.
    pub fn new(line: &str, reason: impl Into<String>) -> ProtocolError {
        ProtocolError {
            line: quote(line),
            reason: reason.into(),
        }
    }
}

/// A line cut to `QUOTED_CHARS` characters, marked when cut.
pub fn quote(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(QUOTED_CHARS).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// What a driver asks of an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `rep V`: start the handshake, offering versions up to `V`.
    Rep(u32),
    /// `isready`: answer `readyok` at once.
    IsReady,
    /// `puzzle …`: the puzzle the next `go` solves.
    Puzzle(PuzzleRequest),
    /// `go …`: solve the last puzzle.
    Go(Go),
    /// `setoption name=NAME value=VALUE` (version 2): set a declared option before `go`.
    SetOption {
        /// The option's name.
        name: String,
        /// Its value.
        value: String,
    },
    /// `stop`: end the search now and send its result.
    Stop,
    /// `quit`: exit.
    Quit,
}

/// A puzzle and the token its result must repeat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleRequest {
    /// The token the engine repeats in its `result`.
    pub id: String,
    /// The puzzle.
    pub puzzle: Puzzle,
}

/// The limits of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// No solution longer than this many moves is searched; `None`: no limit.
    pub depth: Option<u32>,
    /// At most this many milliseconds of wall time; `None`: no limit.
    pub time_millis: Option<u64>,
    /// Whether node and prune events are asked for.
    pub events: bool,
}

/// What the engine's `row` lines count, from its `id rows=` line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RowKind {
    /// The depth of a breadth-first or depth-limited search.
    #[default]
    Depth,
    /// The bound of an iterative-deepening A*.
    Bound,
    /// Any other level.
    Level,
}

impl RowKind {
    /// The key of the row's first number: `depth`, `bound` or `level`.
    pub fn key(self) -> &'static str {
        match self {
            RowKind::Depth => "depth",
            RowKind::Bound => "bound",
            RowKind::Level => "level",
        }
    }

    /// The column title of a per-depth table: `Depth`, `Bound` or `Level`.
    pub fn title(self) -> &'static str {
        match self {
            RowKind::Depth => "Depth",
            RowKind::Bound => "Bound",
            RowKind::Level => "Level",
        }
    }

    fn from_key(key: &str) -> Option<RowKind> {
        match key {
            "depth" => Some(RowKind::Depth),
            "bound" => Some(RowKind::Bound),
            "level" => Some(RowKind::Level),
            _ => None,
        }
    }
}

/// One finished depth, bound or level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// The depth, bound or level.
    pub depth: u32,
    /// The nodes it took.
    pub nodes: u64,
    /// The engine's own time for it, in milliseconds.
    pub time_millis: Option<u64>,
    /// Further counters, by name, in the order sent.
    pub counters: Vec<(String, u64)>,
}

/// A search event: a position reached, or a position cut.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeEvent {
    /// The moves from the start.
    pub path: Vec<Move>,
    /// Every robot's cell.
    pub robots: Vec<(RobotColor, Pos)>,
    /// Optional numbers (`bound=7`, `h=3`), in the order sent.
    pub numbers: Vec<(String, i64)>,
}

/// The search cut a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PruneEvent {
    /// The moves that lead to it.
    pub path: Vec<Move>,
    /// Why, in one word (`bound`, `seen`, `rebound`, …).
    pub reason: String,
    /// Optional numbers, in the order sent.
    pub numbers: Vec<(String, i64)>,
}

/// How a search ended, as the engine says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A solution (no moves when the goal is already reached).
    Solved(Vec<Move>),
    /// No solution exists at any length.
    Unsolvable,
    /// No solution of this many moves or fewer exists.
    NoneWithin(u32),
    /// The engine stopped without an answer; the text says why.
    GaveUp(String),
}

/// The final answer to one `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultLine {
    /// The puzzle's token, repeated.
    pub id: String,
    /// The answer.
    pub verdict: Verdict,
}

/// What an engine tells its driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `id KEY=VALUE…`: facts about the engine (each pair in the order sent).
    Id(Vec<(String, String)>),
    /// `repok V`: the handshake's end, with the version the engine speaks.
    RepOk(u32),
    /// `readyok`.
    ReadyOk,
    /// `row …`: a finished depth.
    Row(Row),
    /// `node …`: a position reached.
    Node(NodeEvent),
    /// `prune …`: a position cut.
    Prune(PruneEvent),
    /// `info string TEXT`: free text.
    Info(String),
    /// `option …` (version 2): an option the engine declares in its handshake.
    Option(OptionDecl),
    /// `info KEY=VALUE…` (version 2): what the search is doing.
    Search(SearchInfo),
    /// `draw …` (version 2): a change to the layer the engine paints on the board.
    Draw(DrawItem),
    /// A malformed `info`, `option` or `draw` line: ignored, with one line in the engine's
    /// log, since it harms no answer.
    Ignored(ProtocolError),
    /// `result …`: the answer.
    Result(ResultLine),
}

/// Splits a line into its command word and the tokens after it; `None` for an empty line.
/// A `\r` before the end of line is dropped.
fn words(line: &str) -> Option<(&str, Vec<&str>)> {
    let line = line.strip_suffix('\n').unwrap_or(line);
    let line = line.strip_suffix('\r').unwrap_or(line);
    let mut tokens = line.split([' ', '\t']).filter(|t| !t.is_empty());
    let command = tokens.next()?;
    Some((command, tokens.collect()))
}

/// The `key=value` tokens among `tokens`, in order; tokens without `=` are left out.
fn pairs<'a>(tokens: &[&'a str]) -> Vec<(&'a str, &'a str)> {
    tokens
        .iter()
        .filter_map(|token| token.split_once('='))
        .collect()
}

/// The value of `key`, the last one when given twice.
fn value<'a>(pairs: &[(&'a str, &'a str)], key: &str) -> Option<&'a str> {
    pairs.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

fn number<T: std::str::FromStr>(line: &str, key: &str, text: &str) -> Result<T, ProtocolError> {
    text.parse()
        .map_err(|_| ProtocolError::new(line, not_a_number(key, text)))
}

/// Why `key=text` is not the whole number it should be: a number too large for its place
/// (`depth=99999999999999999999`) is said to be so, anything else is not a whole number.
pub(crate) fn not_a_number(key: &str, text: &str) -> String {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        let which = if text.starts_with('-') {
            "small"
        } else {
            "large"
        };
        return format!("{key}={text} is too {which}");
    }
    format!("{key}={} is not a whole number", quote(text))
}

fn required<'a>(
    line: &str,
    pairs: &[(&'a str, &'a str)],
    key: &str,
) -> Result<&'a str, ProtocolError> {
    value(pairs, key).ok_or_else(|| ProtocolError::new(line, format!("{key}= is missing")))
}

/// Reads a driver's line: `Ok(None)` for an empty line or a command word the page does not
/// know (both are ignored).
pub fn parse_request(line: &str) -> Result<Option<Request>, ProtocolError> {
    let Some((command, tokens)) = words(line) else {
        return Ok(None);
    };
    let request = match command {
        "rep" => {
            let version = tokens
                .first()
                .ok_or_else(|| ProtocolError::new(line, "rep names no version"))?;
            Request::Rep(number(line, "rep", version)?)
        }
        "isready" => Request::IsReady,
        "puzzle" => Request::Puzzle(parse_puzzle(line, &tokens)?),
        "go" => {
            let pairs = pairs(&tokens);
            Request::Go(Go {
                depth: value(&pairs, "depth")
                    .map(|v| number(line, "depth", v))
                    .transpose()?,
                time_millis: value(&pairs, "time")
                    .map(|v| number(line, "time", v))
                    .transpose()?,
                events: value(&pairs, "events").is_some_and(|v| v == "1"),
            })
        }
        "setoption" => {
            let pairs = pairs(&tokens);
            Request::SetOption {
                name: required(line, &pairs, "name")?.to_string(),
                value: required(line, &pairs, "value")?.to_string(),
            }
        }
        "stop" => Request::Stop,
        "quit" => Request::Quit,
        _ => return Ok(None),
    };
    Ok(Some(request))
}

/// Reads an engine's line: `Ok(None)` for an empty line or a command word the page does not
/// know (both are ignored).
pub fn parse_answer(line: &str) -> Result<Option<Answer>, ProtocolError> {
    let Some((command, tokens)) = words(line) else {
        return Ok(None);
    };
    let answer = match command {
        "id" => Answer::Id(
            pairs(&tokens)
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        ),
        "repok" => {
            let version = tokens
                .first()
                .ok_or_else(|| ProtocolError::new(line, "repok names no version"))?;
            Answer::RepOk(number(line, "repok", version)?)
        }
        "readyok" => Answer::ReadyOk,
        "row" => Answer::Row(parse_row(line, &tokens)?),
        "node" => {
            let pairs = pairs(&tokens);
            Answer::Node(NodeEvent {
                path: parse_path(line, required(line, &pairs, "path")?)?,
                robots: parse_robots(line, required(line, &pairs, "robots")?)?,
                numbers: event_numbers(&pairs, &["path", "robots"]),
            })
        }
        "prune" => {
            let pairs = pairs(&tokens);
            Answer::Prune(PruneEvent {
                path: parse_path(line, required(line, &pairs, "path")?)?,
                reason: required(line, &pairs, "reason")?.to_string(),
                numbers: event_numbers(&pairs, &["path", "reason"]),
            })
        }
        "info" if tokens.first() == Some(&"string") || tokens.is_empty() => {
            Answer::Info(info_text(line))
        }
        "info" => match v2::parse_search_info(line, &tokens) {
            Ok(info) => Answer::Search(info),
            Err(error) => Answer::Ignored(error),
        },
        "option" => match v2::parse_option(line, &tokens) {
            Ok(option) => Answer::Option(option),
            Err(error) => Answer::Ignored(error),
        },
        "draw" => match v2::parse_draw(line, &tokens) {
            Ok(item) => Answer::Draw(item),
            Err(error) => Answer::Ignored(error),
        },
        "result" => Answer::Result(parse_result(line, &tokens)?),
        _ => return Ok(None),
    };
    Ok(Some(answer))
}

/// The text of an `info string TEXT` line: everything after `string` and the white space
/// that follows it, spaces inside kept; empty for an `info` without `string`.
fn info_text(line: &str) -> String {
    let line = line.strip_suffix('\n').unwrap_or(line);
    let line = line.strip_suffix('\r').unwrap_or(line);
    let rest = line.trim_start_matches([' ', '\t']);
    let rest = rest.strip_prefix("info").unwrap_or(rest);
    let rest = rest.trim_start_matches([' ', '\t']);
    match rest.strip_prefix("string") {
        Some(text) if text.is_empty() || text.starts_with([' ', '\t']) => {
            text.trim_start_matches([' ', '\t']).to_string()
        }
        _ => String::new(),
    }
}

fn parse_row(line: &str, tokens: &[&str]) -> Result<Row, ProtocolError> {
    let pairs = pairs(tokens);
    let (key, depth) = pairs
        .iter()
        .rev()
        .find(|(k, _)| RowKind::from_key(k).is_some())
        .ok_or_else(|| ProtocolError::new(line, "the row has no depth=, bound= or level="))?;
    let depth = number(line, key, depth)?;
    let nodes = number(line, "nodes", required(line, &pairs, "nodes")?)?;
    let time_millis = value(&pairs, "time")
        .map(|v| number(line, "time", v))
        .transpose()?;
    let mut counters: Vec<(String, u64)> = Vec::new();
    for (name, text) in &pairs {
        if RowKind::from_key(name).is_some() || ["nodes", "time"].contains(name) {
            continue;
        }
        // A key whose value is no whole number is an unknown key, which the page ignores.
        if let Ok(count) = text.parse::<u64>()
            && is_key(name)
        {
            match counters.iter_mut().find(|(known, _)| known == name) {
                Some(slot) => slot.1 = count,
                None => counters.push((name.to_string(), count)),
            }
        }
    }
    Ok(Row {
        depth,
        nodes,
        time_millis,
        counters,
    })
}

/// Whether a key is spelt as the page allows: lower-case letters, digits, `_` and `-`.
pub fn is_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

fn event_numbers(pairs: &[(&str, &str)], known: &[&str]) -> Vec<(String, i64)> {
    pairs
        .iter()
        .filter(|(k, _)| !known.contains(k) && is_key(k))
        .filter_map(|(k, v)| v.parse().ok().map(|n| (k.to_string(), n)))
        .collect()
}

fn parse_result(line: &str, tokens: &[&str]) -> Result<ResultLine, ProtocolError> {
    let Some(id) = tokens.first().and_then(|t| t.strip_prefix("id=")) else {
        return Err(ProtocolError::new(
            line,
            "the result does not begin with id=",
        ));
    };
    let verdict = match tokens.get(1).copied() {
        Some("solved") => Verdict::Solved(
            tokens[2..]
                .iter()
                .map(|token| parse_move(line, token))
                .collect::<Result<_, _>>()?,
        ),
        Some("unsolvable") => Verdict::Unsolvable,
        Some("none") => {
            let within = tokens
                .get(2)
                .ok_or_else(|| ProtocolError::new(line, "none names no move count"))?;
            Verdict::NoneWithin(number(line, "none", within)?)
        }
        Some("gaveup") => Verdict::GaveUp(tokens[2..].join(" ")),
        Some(other) => {
            return Err(ProtocolError::new(
                line,
                format!(
                    "'{}' is not solved, unsolvable, none or gaveup",
                    quote(other)
                ),
            ));
        }
        None => return Err(ProtocolError::new(line, "the result gives no answer")),
    };
    Ok(ResultLine {
        id: id.to_string(),
        verdict,
    })
}

fn parse_move(line: &str, token: &str) -> Result<Move, ProtocolError> {
    let mut chars = token.chars();
    let (Some(robot), Some(dir), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(ProtocolError::new(
            line,
            format!("'{}' is not a move such as RE", quote(token)),
        ));
    };
    match (robot_letter(robot), direction_letter(dir)) {
        (Some(robot), Some(dir)) => Ok(Move::new(robot, dir)),
        _ => Err(ProtocolError::new(
            line,
            format!(
                "'{}' is not a move: a robot letter (R, G, B, Y, K) and a direction (N, E, S, W)",
                quote(token)
            ),
        )),
    }
}

/// An upper-case robot letter only: the page spells robots so.
fn robot_letter(letter: char) -> Option<RobotColor> {
    RobotColor::ALL.into_iter().find(|c| c.letter() == letter)
}

fn direction_letter(letter: char) -> Option<Direction> {
    Direction::ALL.into_iter().find(|d| d.letter() == letter)
}

fn parse_path(line: &str, text: &str) -> Result<Vec<Move>, ProtocolError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|token| parse_move(line, token))
        .collect()
}

/// A `-` for an empty list, the items joined by `separator` otherwise.
fn list(items: Vec<String>, separator: &str) -> String {
    if items.is_empty() {
        "-".to_string()
    } else {
        items.join(separator)
    }
}

/// A path as the page writes it: moves joined by commas, `-` for none.
pub fn format_path(path: &[Move]) -> String {
    list(path.iter().map(Move::to_string).collect(), ",")
}

impl fmt::Display for Request {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Request::Rep(version) => write!(f, "rep {version}"),
            Request::IsReady => f.write_str("isready"),
            Request::Puzzle(request) => f.write_str(&format_puzzle(&request.id, &request.puzzle)),
            Request::Go(go) => {
                f.write_str("go")?;
                if let Some(depth) = go.depth {
                    write!(f, " depth={depth}")?;
                }
                if let Some(time) = go.time_millis {
                    write!(f, " time={time}")?;
                }
                if go.events {
                    f.write_str(" events=1")?;
                }
                Ok(())
            }
            Request::SetOption { name, value } => {
                write!(f, "setoption name={name} value={value}")
            }
            Request::Stop => f.write_str("stop"),
            Request::Quit => f.write_str("quit"),
        }
    }
}

fn write_numbers<T: fmt::Display>(
    f: &mut fmt::Formatter<'_>,
    numbers: &[(String, T)],
) -> fmt::Result {
    for (name, value) in numbers {
        write!(f, " {name}={value}")?;
    }
    Ok(())
}

/// Formats a row with the row key the engine declared.
pub fn format_row(kind: RowKind, row: &Row) -> String {
    let mut line = format!("row {}={} nodes={}", kind.key(), row.depth, row.nodes);
    if let Some(time) = row.time_millis {
        line.push_str(&format!(" time={time}"));
    }
    for (name, value) in &row.counters {
        line.push_str(&format!(" {name}={value}"));
    }
    line
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Id(pairs) => {
                f.write_str("id")?;
                for (key, value) in pairs {
                    write!(f, " {key}={value}")?;
                }
                Ok(())
            }
            Answer::RepOk(version) => write!(f, "repok {version}"),
            Answer::ReadyOk => f.write_str("readyok"),
            Answer::Row(row) => f.write_str(&format_row(RowKind::Depth, row)),
            Answer::Node(node) => {
                write!(
                    f,
                    "node path={} robots={}",
                    format_path(&node.path),
                    format_robots(node.robots.iter().copied())
                )?;
                write_numbers(f, &node.numbers)
            }
            Answer::Prune(prune) => {
                write!(
                    f,
                    "prune path={} reason={}",
                    format_path(&prune.path),
                    prune.reason
                )?;
                write_numbers(f, &prune.numbers)
            }
            Answer::Info(text) => write!(f, "info string {text}"),
            Answer::Option(option) => write!(f, "{option}"),
            Answer::Search(info) => write!(f, "{info}"),
            Answer::Draw(item) => write!(f, "{item}"),
            Answer::Ignored(error) => f.write_str(&error.line),
            Answer::Result(result) => {
                write!(f, "result id={} ", result.id)?;
                match &result.verdict {
                    Verdict::Solved(moves) => {
                        f.write_str("solved")?;
                        for mv in moves {
                            write!(f, " {mv}")?;
                        }
                        Ok(())
                    }
                    Verdict::Unsolvable => f.write_str("unsolvable"),
                    Verdict::NoneWithin(n) => write!(f, "none {n}"),
                    Verdict::GaveUp(text) if text.is_empty() => f.write_str("gaveup"),
                    Verdict::GaveUp(text) => write!(f, "gaveup {text}"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
