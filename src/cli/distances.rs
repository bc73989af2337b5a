//! `ricochet-lab distances`: the exact distance map of every robot, as grids or JSON.

use super::common::{EXIT_STOPPED, stop_name, with_rules};
use super::output::{out, outln};
use ricochet_lab::model::formats;
use ricochet_lab::model::{Puzzle, RobotColor};
use ricochet_lab::solver::analysis::distances::{self, DistanceMap};
use ricochet_lab::solver::{Limits, NoProbe};
use serde::Serialize;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `distances`.
#[derive(clap::Args, Debug)]
pub struct DistancesArgs {
    /// A .ron file, a .txt Cox file, or a game id.
    pub source: String,
    /// Only this robot (R, G, B, Y or K); every robot when not given.
    #[arg(long, value_name = "R")]
    pub robot: Option<char>,
    /// Search every position up to this many moves.
    #[arg(long, value_name = "D", default_value_t = distances::DEFAULT_MAX_DEPTH)]
    pub max_depth: u32,
    /// Stop after this many seconds (the finished depths are kept).
    #[arg(long, value_name = "SECS", value_parser = super::common::seconds, allow_negative_numbers = true)]
    pub time_limit: Option<Duration>,
    /// Stop before the process holds more than this many MiB (the finished depths are
    /// kept): the visited set and levels, counted before they grow, get what the process does
    /// not already hold (see docs/command-line.md).
    #[arg(long, value_name = "MIB", default_value_t = 4096)]
    pub memory_limit: u64,
    /// Apply the no-rebound rule (a robot may not move straight back).
    #[arg(long)]
    pub no_rebound: bool,
    /// Print one JSON object instead of grids.
    #[arg(long)]
    pub json: bool,
}

/// Runs `distances`.
pub fn run(args: &DistancesArgs) -> anyhow::Result<ExitCode> {
    let puzzle = with_rules(formats::load(&args.source)?, false, args.no_rebound);
    let only = match args.robot {
        None => None,
        Some(letter) => {
            let color = RobotColor::from_letter(letter).ok_or_else(|| {
                super::output::usage(format!(
                    "--robot {letter}: not a robot letter (R, G, B, Y, K)"
                ))
            })?;
            if puzzle.robot_index(color).is_none() {
                return Err(super::output::usage(format!(
                    "--robot {letter}: the puzzle has no {color} robot"
                )));
            }
            Some(color)
        }
    };
    let limits = Limits {
        time: args.time_limit,
        memory_bytes: Some(super::common::search_budget(args.memory_limit)?),
        cancel: Some(super::common::cancel_on_signal()?),
    };
    let map = distances::distance_map(&puzzle, args.max_depth, &limits, &mut NoProbe);
    if args.json {
        outln!(
            "{}",
            super::common::json_line(&distances_json(&puzzle, &map, only))?
        )?;
    } else {
        out!("{}", distances_text(&puzzle, &map, only))?;
    }
    Ok(if map.stopped.is_some() {
        ExitCode::from(EXIT_STOPPED)
    } else {
        ExitCode::SUCCESS
    })
}

/// The JSON object `distances --json` prints: per robot, rows of exact distances and of rook
/// bounds (`null` where none), and the cells where they differ.
#[derive(Serialize)]
struct DistancesJson {
    width: u16,
    height: u16,
    depth: u32,
    exhausted: bool,
    states: u64,
    millis: f64,
    peak_memory_bytes: usize,
    levels: Vec<LevelJson>,
    robots: Vec<RobotDistancesJson>,
    /// Why the search stopped early (stopped searches only).
    #[serde(skip_serializing_if = "Option::is_none")]
    stopped: Option<&'static str>,
}

/// One finished level of the search.
#[derive(Serialize)]
struct LevelJson {
    depth: u32,
    expanded: u64,
    generated: u64,
    seen: u64,
}

/// One robot's map.
#[derive(Serialize)]
struct RobotDistancesJson {
    robot: String,
    distances: Vec<Vec<Option<u32>>>,
    lower_bound: Vec<Vec<Option<u32>>>,
    needs_helpers: Vec<[u16; 2]>,
}

fn distances_json(puzzle: &Puzzle, map: &DistanceMap, only: Option<RobotColor>) -> DistancesJson {
    let width = usize::from(map.width);
    let robots = map
        .robots
        .iter()
        .filter(|r| only.is_none_or(|c| c == r.color))
        .map(|robot| {
            let rows = |values: &[Option<u32>]| -> Vec<Vec<Option<u32>>> {
                values.chunks(width).map(<[_]>::to_vec).collect()
            };
            let helpers: Vec<[u16; 2]> = (0..robot.exact.len())
                .filter(|&c| robot.needs_helpers(c as u16, map.depth))
                .map(|c| {
                    let pos = puzzle.board().pos(c as u16);
                    [pos.x, pos.y]
                })
                .collect();
            RobotDistancesJson {
                robot: robot.color.letter().to_string(),
                distances: rows(&robot.exact),
                lower_bound: rows(&robot.lower_bound),
                needs_helpers: helpers,
            }
        })
        .collect();
    DistancesJson {
        width: map.width,
        height: map.height,
        depth: map.depth,
        exhausted: map.exhausted,
        states: map.states,
        millis: map.elapsed.as_secs_f64() * 1000.0,
        peak_memory_bytes: map.peak_memory,
        levels: map
            .levels
            .iter()
            .map(|l| LevelJson {
                depth: l.depth,
                expanded: l.nodes,
                generated: l.inner,
                seen: l.hits,
            })
            .collect(),
        robots,
        stopped: map.stopped.map(stop_name),
    }
}

/// The text `distances` prints: a grid per robot, where each cell shows its exact distance
/// (`.` not reached, `#` closed, `*` after the number where it exceeds the rook bound).
pub fn distances_text(puzzle: &Puzzle, map: &DistanceMap, only: Option<RobotColor>) -> String {
    use std::fmt::Write;
    let board = puzzle.board();
    let mut out = String::new();
    let reach = if map.exhausted {
        format!("every reachable position (all within {} moves)", map.depth)
    } else {
        format!("every position within {} moves", map.depth)
    };
    let _ = writeln!(
        out,
        "{reach}: {} states in {:.1} ms",
        map.states,
        map.elapsed.as_secs_f64() * 1000.0
    );
    if let Some(stop) = map.stopped {
        let _ = writeln!(out, "stopped early: {}", stop_name(stop));
    }
    for robot in map
        .robots
        .iter()
        .filter(|r| only.is_none_or(|c| c == r.color))
    {
        let _ = writeln!(
            out,
            "\n{} robot ({}): fewest moves to each cell; * more than the rook bound (needs helpers)",
            robot.color,
            robot.color.letter()
        );
        for y in 0..map.height {
            for x in 0..map.width {
                let cell = board.cell(ricochet_lab::model::Pos::new(x, y));
                let text = if board.is_closed(cell) {
                    " #".to_string()
                } else {
                    match robot.exact[usize::from(cell)] {
                        Some(d) => format!("{d:>2}"),
                        None => " .".to_string(),
                    }
                };
                let mark = if robot.needs_helpers(cell, map.depth) {
                    '*'
                } else {
                    ' '
                };
                let _ = write!(out, "{text}{mark}");
            }
            out.push('\n');
        }
    }
    out
}
