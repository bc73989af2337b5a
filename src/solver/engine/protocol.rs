//! The Ricochet engine protocol (REP), version 1, line by line: every request a driver sends
//! and every answer an engine gives, parsed and formatted, and the puzzle as one `puzzle` line.
//!
//! The page users implement against is `docs/engine-protocol.md`; this module is its exact
//! reading. Parsing never panics: a line that breaks the page is a [`ProtocolError`] that
//! quotes it, and a command word or key the page does not know is skipped, as the page asks,
//! so later versions can add them.

use crate::model::{
    Board, Direction, Goal, Move, Pos, Puzzle, Robot, RobotColor, Rules, Shape, Target, TargetColor,
};
use std::fmt;

/// The highest protocol version this build speaks.
pub const VERSION: u32 = 1;

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
        .map_err(|_| ProtocolError::new(line, format!("{key}={text} is not a whole number")))
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
        "info" => Answer::Info(info_text(line)),
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

fn parse_pos(line: &str, what: &str, text: &str) -> Result<Pos, ProtocolError> {
    let bad = || ProtocolError::new(line, format!("{what} '{}' is not a cell x,y", quote(text)));
    let (x, y) = text.split_once(',').ok_or_else(bad)?;
    Ok(Pos::new(
        x.parse().map_err(|_| bad())?,
        y.parse().map_err(|_| bad())?,
    ))
}

fn format_pos(pos: Pos) -> String {
    format!("{},{}", pos.x, pos.y)
}

fn parse_robots(line: &str, text: &str) -> Result<Vec<(RobotColor, Pos)>, ProtocolError> {
    text.split(';')
        .map(|item| {
            let (letter, cell) = item.split_once('@').ok_or_else(|| {
                ProtocolError::new(line, format!("robot '{}' is not L@x,y", quote(item)))
            })?;
            let color = single_char(letter).and_then(robot_letter).ok_or_else(|| {
                ProtocolError::new(
                    line,
                    format!("'{}' is not a robot letter (R, G, B, Y, K)", quote(letter)),
                )
            })?;
            Ok((color, parse_pos(line, "robot cell", cell)?))
        })
        .collect()
}

/// Where every robot stands, as the page writes it: `R@0,0;B@3,2`.
pub fn format_robots(robots: impl IntoIterator<Item = (RobotColor, Pos)>) -> String {
    robots
        .into_iter()
        .map(|(color, pos)| format!("{}@{}", color.letter(), format_pos(pos)))
        .collect::<Vec<_>>()
        .join(";")
}

fn single_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// The target colour of a letter: a robot letter that has targets, or `*` for any robot.
fn target_color(line: &str, letter: &str) -> Result<TargetColor, ProtocolError> {
    if letter == "*" {
        return Ok(TargetColor::Any);
    }
    single_char(letter)
        .and_then(robot_letter)
        .and_then(TargetColor::for_robot)
        .ok_or_else(|| {
            ProtocolError::new(
                line,
                format!(
                    "'{}' is no target colour (R, G, B, Y, or * for any robot)",
                    quote(letter)
                ),
            )
        })
}

fn target_letter(color: TargetColor) -> char {
    color.robot().map_or('*', RobotColor::letter)
}

fn shape(line: &str, name: &str) -> Result<Shape, ProtocolError> {
    Shape::ALL
        .into_iter()
        .find(|shape| shape.name() == name)
        .ok_or_else(|| {
            ProtocolError::new(
                line,
                format!(
                    "'{}' is no shape (circle, triangle, square, hexagon, vortex)",
                    quote(name)
                ),
            )
        })
}

fn parse_size(line: &str, text: &str) -> Result<(u16, u16), ProtocolError> {
    let bad = || ProtocolError::new(line, format!("size '{}' is not WxH", quote(text)));
    let (w, h) = text.split_once('x').ok_or_else(bad)?;
    Ok((w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?))
}

fn parse_puzzle(line: &str, tokens: &[&str]) -> Result<PuzzleRequest, ProtocolError> {
    let pairs = pairs(tokens);
    let id = required(line, &pairs, "id")?;
    let (width, height) = parse_size(line, required(line, &pairs, "size")?)?;
    let model = |error: crate::model::ModelError| ProtocolError::new(line, error.to_string());
    let mut board = Board::new(width, height).map_err(model)?;
    let walls = required(line, &pairs, "walls")?;
    let cells = usize::from(width) * usize::from(height);
    if walls.len() != cells || !walls.is_ascii() {
        return Err(ProtocolError::new(
            line,
            format!(
                "walls= has {} characters; a {width}x{height} board needs {cells} hexadecimal digits",
                walls.chars().count()
            ),
        ));
    }
    for (index, digit) in walls.chars().enumerate() {
        let mask = digit.to_digit(16).ok_or_else(|| {
            ProtocolError::new(
                line,
                format!("walls= holds '{digit}', not a hexadecimal digit"),
            )
        })?;
        // The index is below width * height, both at most 64, so the cell fits in u16.
        let pos = board.pos(index as u16);
        for dir in Direction::ALL {
            if mask & u32::from(dir.bit()) != 0 {
                // A side walled on one cell only is walled on both: the page says a driver
                // sets both, and reading it kindly keeps a slip from changing the board.
                board.set_wall(pos, dir, true).map_err(model)?;
            }
        }
    }
    if let Some(closed) = value(&pairs, "closed")
        && closed != "-"
    {
        for cell in closed.split(';') {
            board
                .set_closed(parse_pos(line, "closed cell", cell)?, true)
                .map_err(model)?;
        }
    }
    if let Some(targets) = value(&pairs, "targets")
        && targets != "-"
    {
        for item in targets.split(';') {
            let bad =
                || ProtocolError::new(line, format!("target '{}' is not L:shape@x,y", quote(item)));
            let (letter, rest) = item.split_once(':').ok_or_else(bad)?;
            let (name, cell) = rest.split_once('@').ok_or_else(bad)?;
            board
                .set_target(Target {
                    pos: parse_pos(line, "target cell", cell)?,
                    color: target_color(line, letter)?,
                    shape: shape(line, name)?,
                })
                .map_err(model)?;
        }
    }
    let robots = parse_robots(line, required(line, &pairs, "robots")?)?
        .into_iter()
        .map(|(color, pos)| Robot { color, pos })
        .collect();
    let goal_text = required(line, &pairs, "goal")?;
    let (letter, cell) = goal_text.split_once('@').ok_or_else(|| {
        ProtocolError::new(line, format!("goal '{}' is not L@x,y", quote(goal_text)))
    })?;
    let goal = Goal {
        pos: parse_pos(line, "goal cell", cell)?,
        color: target_color(line, letter)?,
    };
    let mut rules = Rules::default();
    if let Some(options) = value(&pairs, "rules")
        && options != "-"
    {
        for option in options.split(',') {
            match option {
                "ricochet" => rules.ricochet = true,
                "no-rebound" => rules.no_rebound = true,
                // A rule this build does not know changes what counts as a solution, so it
                // cannot be skipped the way an unknown key is.
                other => {
                    return Err(ProtocolError::new(
                        line,
                        format!(
                            "'{}' is no rule option (ricochet, no-rebound)",
                            quote(other)
                        ),
                    ));
                }
            }
        }
    }
    let puzzle = Puzzle::new(board, robots, goal, rules).map_err(model)?;
    Ok(PuzzleRequest {
        id: id.to_string(),
        puzzle,
    })
}

/// The rule options as the page lists them: `-`, `ricochet`, `no-rebound` or both.
pub fn format_rules(rules: Rules) -> String {
    let mut options = Vec::new();
    if rules.ricochet {
        options.push("ricochet".to_string());
    }
    if rules.no_rebound {
        options.push("no-rebound".to_string());
    }
    list(options, ",")
}

/// The `puzzle` line of a puzzle, with its id token.
pub fn format_puzzle(id: &str, puzzle: &Puzzle) -> String {
    let board = puzzle.board();
    let walls: String = (0..board.cell_count())
        .map(|cell| {
            // Cells number at most 64 * 64, and a mask is below 16: both conversions hold.
            let mask = board.wall_mask(cell as u16);
            char::from_digit(u32::from(mask & 0xf), 16).unwrap_or('0')
        })
        .collect();
    let closed = list(
        board.closed_cells().into_iter().map(format_pos).collect(),
        ";",
    );
    let targets = list(
        board
            .targets()
            .iter()
            .map(|t| {
                format!(
                    "{}:{}@{}",
                    target_letter(t.color),
                    t.shape.name(),
                    format_pos(t.pos)
                )
            })
            .collect(),
        ";",
    );
    let goal = puzzle.goal();
    format!(
        "puzzle id={id} size={}x{} walls={walls} closed={closed} robots={} goal={}@{} targets={targets} rules={}",
        board.width(),
        board.height(),
        format_robots(puzzle.robots().iter().map(|r| (r.color, r.pos))),
        target_letter(goal.color),
        format_pos(goal.pos),
        format_rules(puzzle.rules()),
    )
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

/// What an engine says about itself in its handshake's `id` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// `name=`, with `_` read as a space.
    pub name: Option<String>,
    /// `author=`, with `_` read as a space.
    pub author: Option<String>,
    /// `version=`.
    pub version: Option<String>,
    /// `rows=`: what its rows count.
    pub rows: RowKind,
    /// `optimal=yes`: its solutions are claimed shortest.
    pub optimal: bool,
    /// `events=yes`: it can send node and prune events.
    pub events: bool,
    /// `rules=`: the rule options it supports.
    pub ricochet: bool,
    /// `rules=`: whether it supports no-rebound.
    pub no_rebound: bool,
}

impl Identity {
    /// Adds the facts of one `id` line; unknown keys and values are skipped.
    pub fn add(&mut self, pairs: &[(String, String)]) {
        for (key, value) in pairs {
            match key.as_str() {
                "name" => self.name = Some(value.replace('_', " ")),
                "author" => self.author = Some(value.replace('_', " ")),
                "version" => self.version = Some(value.clone()),
                "rows" => self.rows = RowKind::from_key(value).unwrap_or(self.rows),
                "optimal" => self.optimal = value == "yes",
                "events" => self.events = value == "yes",
                "rules" => {
                    for option in value.split(',') {
                        match option {
                            "ricochet" => self.ricochet = true,
                            "no-rebound" => self.no_rebound = true,
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The `id` lines that say these facts, in the page's order.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let spaced = |text: &str| text.replace([' ', '\t'], "_");
        if let Some(name) = &self.name {
            lines.push(format!("id name={}", spaced(name)));
        }
        if let Some(author) = &self.author {
            lines.push(format!("id author={}", spaced(author)));
        }
        if let Some(version) = &self.version {
            lines.push(format!("id version={}", spaced(version)));
        }
        lines.push(format!("id rows={}", self.rows.key()));
        lines.push(format!(
            "id optimal={}",
            if self.optimal { "yes" } else { "no" }
        ));
        if self.events {
            lines.push("id events=yes".to_string());
        }
        let mut rules = Vec::new();
        if self.ricochet {
            rules.push("ricochet");
        }
        if self.no_rebound {
            rules.push("no-rebound");
        }
        if !rules.is_empty() {
            lines.push(format!("id rules={}", rules.join(",")));
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;
    use proptest::prelude::*;

    /// The page's example puzzle, as its line reads.
    const PAGE_PUZZLE: &str = "puzzle id=p1 size=4x3 walls=d1139002c446 closed=- robots=R@0,0;B@3,2 goal=R@3,0 targets=R:circle@3,0 rules=-";

    #[test]
    fn the_pages_example_puzzle_reads_and_is_solved_by_one_move_east() {
        let Some(Request::Puzzle(request)) = parse_request(PAGE_PUZZLE).unwrap() else {
            panic!("not a puzzle");
        };
        assert_eq!(request.id, "p1");
        let puzzle = &request.puzzle;
        assert_eq!((puzzle.board().width(), puzzle.board().height()), (4, 3));
        assert_eq!(puzzle.robots().len(), 2);
        let east = Move::new(RobotColor::Red, Direction::East);
        assert!(puzzle.replay(&[east]).is_ok());
        // The wall under the red robot: south of 0,0.
        assert!(puzzle.board().has_wall(0, Direction::South));
        assert_eq!(format_puzzle("p1", puzzle), PAGE_PUZZLE);
    }

    #[test]
    fn the_pages_answers_read_as_the_page_says() {
        let lines = [
            "id name=bfs-python",
            "repok 1",
            "readyok",
            "node path=- robots=R@0,0;B@3,2",
            "row depth=1 nodes=4 time=0",
            "info string found at depth 1",
            "result id=p1 solved RE",
        ];
        for line in lines {
            let answer = parse_answer(line).unwrap().unwrap();
            assert_eq!(answer.to_string(), line);
        }
        let row = parse_answer("row bound=7 nodes=10 pruned=120 table=5512 note=x\r\n")
            .unwrap()
            .unwrap();
        assert_eq!(
            row,
            Answer::Row(Row {
                depth: 7,
                nodes: 10,
                time_millis: None,
                counters: vec![("pruned".into(), 120), ("table".into(), 5512)],
            })
        );
        assert_eq!(
            parse_answer("result id=x none 12").unwrap(),
            Some(Answer::Result(ResultLine {
                id: "x".into(),
                verdict: Verdict::NoneWithin(12)
            }))
        );
        assert_eq!(
            parse_answer("result   id=x\tgaveup out of  time").unwrap(),
            Some(Answer::Result(ResultLine {
                id: "x".into(),
                verdict: Verdict::GaveUp("out of time".into())
            }))
        );
        assert_eq!(
            parse_answer("info   string  two  spaces").unwrap(),
            Some(Answer::Info("two  spaces".into()))
        );
    }

    #[test]
    fn unknown_words_and_empty_lines_are_skipped_and_bad_lines_name_the_problem() {
        assert_eq!(parse_answer("").unwrap(), None);
        assert_eq!(parse_answer("  \r\n").unwrap(), None);
        assert_eq!(parse_answer("bestmove e2e4").unwrap(), None);
        assert_eq!(parse_request("ucinewgame").unwrap(), None);
        let error = parse_answer("result id=p1 solved RE XQ").unwrap_err();
        assert!(error.to_string().contains("'XQ' is not a move"), "{error}");
        let error = parse_answer("row depth=x nodes=1").unwrap_err();
        assert!(error.to_string().contains("depth=x"), "{error}");
        let error = parse_request(&PAGE_PUZZLE.replace("R@0,0", "R@9,0")).unwrap_err();
        assert!(error.to_string().contains("off the 4x3 board"), "{error}");
        let error = parse_request(&PAGE_PUZZLE.replace("rules=-", "rules=diagonal")).unwrap_err();
        assert!(error.to_string().contains("diagonal"), "{error}");
    }

    #[test]
    fn go_and_requests_round_trip() {
        for line in [
            "rep 1",
            "isready",
            "go",
            "go depth=3 time=10 events=1",
            "stop",
            "quit",
        ] {
            assert_eq!(parse_request(line).unwrap().unwrap().to_string(), line);
        }
    }

    #[test]
    fn the_reference_puzzles_round_trip_with_their_targets_and_closed_cells() {
        for puzzle in [
            samples::fogleman_22(),
            crate::testing::board("hardest-25.ron"),
        ] {
            let line = format_puzzle("x", &puzzle);
            let Some(Request::Puzzle(back)) = parse_request(&line).unwrap() else {
                panic!("not a puzzle");
            };
            assert_eq!(back.puzzle, puzzle);
        }
    }

    #[test]
    fn an_identity_reads_back_from_its_lines() {
        let identity = Identity {
            name: Some("my engine".into()),
            author: Some("Jane Doe".into()),
            version: Some("0.3".into()),
            rows: RowKind::Bound,
            optimal: true,
            events: true,
            ricochet: true,
            no_rebound: true,
        };
        let mut back = Identity::default();
        for line in identity.lines() {
            let Some(Answer::Id(pairs)) = parse_answer(&line).unwrap() else {
                panic!("not an id line");
            };
            back.add(&pairs);
        }
        assert_eq!(back, identity);
    }

    /// Any puzzle the model allows: sizes 1 to 64, walls, closed cells, targets, 1 to 5
    /// robots, a robot's goal or the vortex, and either rule.
    fn any_puzzle() -> impl Strategy<Value = Puzzle> {
        (
            1u16..=64,
            1u16..=64,
            any::<u64>(),
            1usize..=5,
            any::<(bool, bool, bool)>(),
        )
            .prop_map(
                |(width, height, seed, robot_count, (vortex, ricochet, no_rebound))| {
                    use rand::{Rng, SeedableRng};
                    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
                    let mut board = Board::new(width, height).unwrap();
                    let cells = usize::from(width) * usize::from(height);
                    for _ in 0..cells / 3 {
                        let pos = Pos::new(rng.random_range(0..width), rng.random_range(0..height));
                        let dir = Direction::ALL[rng.random_range(0..4)];
                        board.set_wall(pos, dir, true).unwrap();
                    }
                    let mut free: Vec<Pos> = (0..height)
                        .flat_map(|y| (0..width).map(move |x| Pos::new(x, y)))
                        .collect();
                    // Shuffled by swaps from the seeded generator.
                    for i in (1..free.len()).rev() {
                        free.swap(i, rng.random_range(0..=i));
                    }
                    let robot_count = robot_count.min(free.len());
                    let robots: Vec<Robot> = RobotColor::ALL[..robot_count]
                        .iter()
                        .zip(free.drain(..robot_count))
                        .map(|(&color, pos)| Robot { color, pos })
                        .collect();
                    let goal_pos = robots[0].pos;
                    let goal = Goal {
                        pos: goal_pos,
                        color: if vortex {
                            TargetColor::Any
                        } else {
                            TargetColor::Red
                        },
                    };
                    for (i, pos) in free.iter().enumerate().take(cells / 5) {
                        if i % 2 == 0 {
                            board.set_closed(*pos, true).unwrap();
                        } else {
                            let color = TargetColor::ALL[i % 4];
                            let shape = Shape::ALL[i % 4];
                            board
                                .set_target(Target {
                                    pos: *pos,
                                    color,
                                    shape,
                                })
                                .unwrap();
                        }
                    }
                    board
                        .set_target(Target {
                            pos: goal_pos,
                            color: goal.color,
                            shape: if vortex { Shape::Vortex } else { Shape::Circle },
                        })
                        .unwrap();
                    Puzzle::new(
                        board,
                        robots,
                        goal,
                        Rules {
                            ricochet,
                            no_rebound,
                        },
                    )
                    .unwrap()
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn every_puzzle_the_model_allows_round_trips_through_its_line(puzzle in any_puzzle()) {
            let line = format_puzzle("t-1", &puzzle);
            prop_assert!(!line.contains('\n'));
            let Some(Request::Puzzle(back)) = parse_request(&line).unwrap() else {
                panic!("not a puzzle");
            };
            prop_assert_eq!(back.id, "t-1");
            prop_assert_eq!(back.puzzle, puzzle);
        }

        #[test]
        fn no_line_makes_the_parsers_panic(line in "\\PC{0,200}") {
            let _ = parse_answer(&line);
            let _ = parse_request(&line);
        }

        #[test]
        fn no_line_of_protocol_words_makes_the_parsers_panic(
            words in proptest::collection::vec(
                prop_oneof![
                    Just("rep".to_string()), Just("puzzle".to_string()), Just("go".to_string()),
                    Just("row".to_string()), Just("node".to_string()), Just("prune".to_string()),
                    Just("result".to_string()), Just("solved".to_string()), Just("none".to_string()),
                    Just("id=".to_string()), Just("info".to_string()), Just("string".to_string()),
                    "[a-z]{1,6}=[-0-9a-zA-Z,;@:*x]{0,12}",
                    "[RGBYKNESW*@,;:x0-9-]{0,8}",
                ],
                0..12,
            )
        ) {
            let line = words.join(" ");
            let _ = parse_answer(&line);
            let _ = parse_request(&line);
        }

        #[test]
        fn every_answer_reads_back_as_it_was_written(
            depth in any::<u32>(), nodes in any::<u64>(), time in proptest::option::of(any::<u64>()),
            counters in proptest::collection::vec(("[a-z][a-z0-9_]{0,8}", any::<u64>()), 0..4),
        ) {
            let mut counters: Vec<(String, u64)> = counters;
            counters.retain(|(name, _)| !["depth", "bound", "level", "nodes", "time"].contains(&name.as_str()));
            counters.sort();
            counters.dedup_by(|a, b| a.0 == b.0);
            let row = Answer::Row(Row { depth, nodes, time_millis: time, counters });
            prop_assert_eq!(parse_answer(&row.to_string()).unwrap(), Some(row));
        }
    }
}
