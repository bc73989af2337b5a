//! Merging the results files of an experiment's shards into one that reads like a single run.
//!
//! Every file must describe its study (see [`super::description`]); the files must describe
//! one study, be its shards of one count, each there once and all there, and hold only rows
//! that study deals and judges: each configuration's rows in its shard, dealt from its seed,
//! naming its game, judged against its baseline row, and none missing.

use super::description::{StudyDescription, board_fingerprint};
use super::record::{Record, Results, Status};
use super::runner::{BoardSource, config_seed, deal};
use super::shard::Shard;
use crate::model::formats::game_id;
use std::collections::{BTreeMap, BTreeSet};

/// Why shard files cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// A file does not say which study it holds.
    #[error(
        "{file} has no study description on its first line (it was written by an older \
         version, or edited): its shard and study cannot be checked"
    )]
    NoDescription {
        /// The file.
        file: String,
    },
    /// A file's description names a shard that does not read.
    #[error("{file}: {why}")]
    BadShard {
        /// The file.
        file: String,
        /// What is wrong.
        why: String,
    },
    /// Two files describe different studies.
    #[error(
        "{file} and {first} are not shards of one study: {differences} ({first}'s against \
         {file}'s)"
    )]
    OtherStudy {
        /// The file that differs.
        file: String,
        /// The first file.
        first: String,
        /// What differs.
        differences: String,
    },
    /// Two files cut the configurations into different numbers of shards.
    #[error("{file} is shard {found} but {first} is shard {expected}: the shard counts differ")]
    ShardCount {
        /// The file that differs.
        file: String,
        /// Its shard.
        found: String,
        /// The first file.
        first: String,
        /// The first file's shard.
        expected: String,
    },
    /// Two files hold the same shard.
    #[error("shard {shard} is in both {first} and {second}: shards must not overlap")]
    ShardTwice {
        /// The shard.
        shard: String,
        /// The file it was first seen in.
        first: String,
        /// The file it was seen in again.
        second: String,
    },
    /// Some shards are not among the files.
    #[error("the shards {missing} of the study are missing: merge every shard at once")]
    MissingShards {
        /// The missing shards, such as `2/4, 4/4`.
        missing: String,
    },
    /// A file holds the same run twice.
    #[error("{file}: configuration {config} has two rows of {solver}; a run is written once")]
    Repeated {
        /// The file.
        file: String,
        /// The configuration.
        config: u64,
        /// The solver.
        solver: String,
    },
    /// A row no run of the described study writes.
    #[error("{file}: the row of configuration {config} and {solver} cannot be: {why}")]
    Impossible {
        /// The file.
        file: String,
        /// The configuration.
        config: u64,
        /// The solver.
        solver: String,
        /// What is wrong with it.
        why: String,
    },
    /// A configuration lacks the rows of some solvers (a shard cut off mid-way).
    #[error("{file}: configuration {config} lacks rows of {missing}; finish it with --resume")]
    Incomplete {
        /// The file.
        file: String,
        /// The configuration.
        config: u64,
        /// The solvers without a row.
        missing: String,
    },
    /// A shard lacks whole configurations (it was stopped and not resumed).
    #[error(
        "{file}: shard {shard} lacks {count} of its configurations (the first is {first}); \
         finish it with --resume"
    )]
    Unfinished {
        /// The file.
        file: String,
        /// Its shard.
        shard: String,
        /// How many configurations have no rows.
        count: usize,
        /// The first of them.
        first: u64,
    },
}

/// Merges the results files of a study's shards, given with their names, into the rows of
/// one run of the whole study, sorted by configuration and solver, with that run's
/// description. Refuses anything a single run could not have written (see the module docs).
pub fn merge(files: &[(String, Results)]) -> Result<(StudyDescription, Vec<Record>), MergeError> {
    let mut study: Option<(&str, StudyDescription, Shard)> = None;
    let mut shard_files: BTreeMap<u64, &str> = BTreeMap::new();
    let mut merged = Vec::new();
    for (name, results) in files {
        let description = results
            .description
            .as_ref()
            .ok_or_else(|| MergeError::NoDescription { file: name.clone() })?;
        let shard = description.shard().map_err(|error| MergeError::BadShard {
            file: name.clone(),
            why: error.to_string(),
        })?;
        let whole = description.with_shard(Shard::WHOLE);
        match &study {
            None => study = Some((name, whole.clone(), shard)),
            Some((first, expected, first_shard)) => {
                let differences = expected.differences(&whole);
                if !differences.is_empty() {
                    return Err(MergeError::OtherStudy {
                        file: name.clone(),
                        first: first.to_string(),
                        differences: differences.join(", "),
                    });
                }
                if shard.count() != first_shard.count() {
                    return Err(MergeError::ShardCount {
                        file: name.clone(),
                        found: shard.to_string(),
                        first: first.to_string(),
                        expected: first_shard.to_string(),
                    });
                }
            }
        }
        if let Some(first) = shard_files.insert(shard.index(), name) {
            return Err(MergeError::ShardTwice {
                shard: shard.to_string(),
                first: first.to_string(),
                second: name.clone(),
            });
        }
        check_rows(name, description, shard, &results.records)?;
        merged.extend(results.records.iter().cloned());
    }
    let Some((_, whole, shard)) = study else {
        return Err(MergeError::MissingShards {
            missing: "all".into(),
        });
    };
    let missing: Vec<String> = (1..=shard.count())
        .filter(|index| !shard_files.contains_key(index))
        .map(|index| format!("{index}/{}", shard.count()))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::MissingShards {
            missing: missing.join(", "),
        });
    }
    merged.sort_by(|a, b| (a.config, &a.solver).cmp(&(b.config, &b.solver)));
    Ok((whole, merged))
}

/// Checks the rows of one shard's file against the study it describes.
fn check_rows(
    file: &str,
    description: &StudyDescription,
    shard: Shard,
    records: &[Record],
) -> Result<(), MergeError> {
    let order = description.run_order();
    let mut by_config: BTreeMap<u64, Vec<&Record>> = BTreeMap::new();
    for record in records {
        let impossible = |why: String| MergeError::Impossible {
            file: file.to_string(),
            config: record.config,
            solver: record.solver.clone(),
            why,
        };
        let rows = by_config.entry(record.config).or_default();
        if rows.iter().any(|r| r.solver == record.solver) {
            return Err(MergeError::Repeated {
                file: file.to_string(),
                config: record.config,
                solver: record.solver.clone(),
            });
        }
        rows.push(record);
        if let Some(why) = impossible_row(record) {
            return Err(impossible(why));
        }
        if record.config >= description.configs || !shard.contains(record.config) {
            return Err(impossible(format!(
                "the configuration is not in shard {shard} of {} configurations",
                description.configs
            )));
        }
        if !order.contains(&record.solver) {
            return Err(impossible(format!(
                "the study does not run {} (it runs {})",
                record.solver,
                order.join(",")
            )));
        }
        let seed = config_seed(description.seed, record.config);
        if record.config_seed != seed {
            return Err(impossible(format!(
                "it was dealt from seed {}, but the study deals it from {seed}",
                record.config_seed
            )));
        }
    }
    let mut unfinished = shard
        .configs(description.configs)
        .filter(|config| !by_config.contains_key(config));
    if let Some(first) = unfinished.next() {
        return Err(MergeError::Unfinished {
            file: file.to_string(),
            shard: shard.to_string(),
            count: 1 + unfinished.count(),
            first,
        });
    }
    for (config, rows) in &by_config {
        let present: BTreeSet<&str> = rows.iter().map(|r| r.solver.as_str()).collect();
        let missing: Vec<&str> = order
            .iter()
            .map(String::as_str)
            .filter(|solver| !present.contains(solver))
            .collect();
        if !missing.is_empty() {
            return Err(MergeError::Incomplete {
                file: file.to_string(),
                config: *config,
                missing: missing.join(","),
            });
        }
        check_configuration(file, description, *config, rows)?;
    }
    Ok(())
}

/// Checks that the rows of one configuration name the game the study deals for it and were
/// all judged against its baseline row.
fn check_configuration(
    file: &str,
    description: &StudyDescription,
    config: u64,
    rows: &[&Record],
) -> Result<(), MergeError> {
    let impossible = |record: &Record, why: String| MergeError::Impossible {
        file: file.to_string(),
        config,
        solver: record.solver.clone(),
        why,
    };
    // The baseline's own judgement fixes the required move count: its move count when it
    // solved the configuration, none otherwise.
    let required = rows
        .iter()
        .find(|r| r.solver == description.baseline)
        .and_then(|baseline| (baseline.status == Status::Optimal).then_some(baseline.found_moves))
        .flatten();
    for record in rows {
        if record.required_moves != required {
            return Err(impossible(
                record,
                format!(
                    "it requires {} moves, but the baseline {} found {}",
                    moves(record.required_moves),
                    description.baseline,
                    moves(required)
                ),
            ));
        }
        if let Some(why) = foreign_game(description, config, &record.puzzle) {
            return Err(impossible(record, why));
        }
    }
    Ok(())
}

/// Why a row's game id is not the one its configuration deals, if it is not. On standard
/// boards the game is dealt again from the configuration's seed; on a fixed board the id's
/// board must be the study's (by fingerprint) and its robots and target the ones dealt on it.
/// A fixed board without a game id (one not made of the real tiles) leaves rows without one.
fn foreign_game(description: &StudyDescription, config: u64, puzzle: &str) -> Option<String> {
    let board = if description.board == "standard" {
        BoardSource::Standard
    } else if puzzle.is_empty() {
        return None;
    } else {
        let Ok(named) = game_id::parse(puzzle) else {
            return Some(format!("its game id {puzzle} does not read"));
        };
        let fingerprint = format!("fixed {}", board_fingerprint(named.board()));
        if fingerprint != description.board {
            return Some(format!(
                "its game {puzzle} is on another board than the study's"
            ));
        }
        BoardSource::Fixed(Box::new(named))
    };
    let dealt = deal(&board, description.seed, config, description.robots)
        .ok()
        .and_then(|puzzle| game_id::write(&puzzle).ok())
        .unwrap_or_default();
    (dealt != puzzle).then(|| {
        format!(
            "its game is {}, but the study deals {} for it",
            shown(puzzle),
            shown(&dealt)
        )
    })
}

/// A game id for a message, or "none".
fn shown(puzzle: &str) -> &str {
    if puzzle.is_empty() { "none" } else { puzzle }
}

/// Why a row cannot have come from any run, if it cannot: a negative or unreadable time, or a
/// status its move counts contradict.
fn impossible_row(record: &Record) -> Option<String> {
    if !(record.millis >= 0.0 && record.millis.is_finite()) {
        return Some(format!("its time is {} ms", record.millis));
    }
    let (required, found) = (record.required_moves, record.found_moves);
    match record.status {
        Status::Optimal if found.is_none() || found != required => Some(format!(
            "it is optimal with {} moves found and {} required",
            moves(found),
            moves(required)
        )),
        Status::Suboptimal if !matches!((found, required), (Some(f), Some(r)) if f > r) => {
            Some(format!(
                "it is suboptimal with {} moves found and {} required",
                moves(found),
                moves(required)
            ))
        }
        _ => None,
    }
}

/// A move count for a message.
fn moves(count: Option<u32>) -> String {
    count.map_or_else(|| "no".to_string(), |n| n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A study of four configurations on a fixed board without game ids, run by iddfs (the
    /// baseline) and bfs, in `count` shards.
    fn description(shard: Shard) -> StudyDescription {
        StudyDescription {
            board: "fixed 0123456789abcdef".into(),
            configs: 4,
            ..StudyDescription::for_tests()
        }
        .with_shard(shard)
    }

    fn shard_file(name: &str, index: u64, count: u64) -> (String, Results) {
        let shard = Shard::new(index, count).unwrap();
        let description = description(shard);
        let records = shard
            .configs(description.configs)
            .flat_map(|config| {
                ["bfs", "iddfs"]
                    .map(|solver| Record::optimal_for_tests(config, description.seed, solver))
            })
            .collect();
        (
            name.to_string(),
            Results {
                description: Some(description),
                records,
            },
        )
    }

    #[test]
    fn every_shard_of_one_study_merges_into_the_whole() {
        let (whole, rows) = merge(&[shard_file("b.csv", 2, 2), shard_file("a.csv", 1, 2)]).unwrap();
        assert_eq!(whole, description(Shard::WHOLE));
        assert_eq!(
            rows.iter()
                .map(|r| (r.config, r.solver.as_str()))
                .collect::<Vec<_>>(),
            [0, 1, 2, 3]
                .iter()
                .flat_map(|&c| [(c, "bfs"), (c, "iddfs")])
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn missing_repeated_or_foreign_shards_are_refused_by_name() {
        let error = merge(&[shard_file("a.csv", 1, 3)]).unwrap_err();
        assert_eq!(
            error,
            MergeError::MissingShards {
                missing: "2/3, 3/3".into()
            }
        );
        assert!(matches!(
            merge(&[shard_file("a.csv", 1, 2), shard_file("b.csv", 1, 2)]),
            Err(MergeError::ShardTwice { .. })
        ));
        assert!(matches!(
            merge(&[shard_file("a.csv", 1, 2), shard_file("b.csv", 2, 3)]),
            Err(MergeError::ShardCount { .. })
        ));
        let mut other = shard_file("b.csv", 2, 2);
        if let Some(description) = &mut other.1.description {
            description.robots = 3;
            description.time_limit_secs = 10.0;
        }
        let error = merge(&[shard_file("a.csv", 1, 2), other]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "b.csv and a.csv are not shards of one study: robots 4 against 3, time limit 40 s \
             against 10 s (a.csv's against b.csv's)"
        );
        let mut bare = shard_file("a.csv", 1, 1);
        bare.1.description = None;
        assert!(matches!(
            merge(&[bare]),
            Err(MergeError::NoDescription { .. })
        ));
    }

    #[test]
    fn rows_the_described_study_cannot_write_are_refused() {
        let broken = |change: &dyn Fn(&mut Vec<Record>)| {
            let mut file = shard_file("a.csv", 1, 1);
            change(&mut file.1.records);
            merge(&[file]).unwrap_err()
        };
        // Required 999, found 999, "optimal": the baseline found 3.
        let error = broken(&|rows| {
            rows[0].required_moves = Some(999);
            rows[0].found_moves = Some(999);
        });
        assert!(
            error
                .to_string()
                .contains("requires 999 moves, but the baseline"),
            "{error}"
        );
        let error = broken(&|rows| rows[0].required_moves = Some(999));
        assert!(
            error
                .to_string()
                .contains("optimal with 3 moves found and 999")
        );
        let error = broken(&|rows| rows.retain(|r| r.config != 2));
        assert_eq!(
            error.to_string(),
            "a.csv: shard 1/1 lacks 1 of its configurations (the first is 2); finish it with \
             --resume"
        );
        assert!(matches!(
            broken(&|rows| rows[1].config_seed += 1),
            MergeError::Impossible { .. }
        ));
        assert!(matches!(
            broken(&|rows| rows[1].solver = "astar".into()),
            MergeError::Impossible { .. }
        ));
        assert!(matches!(
            broken(&|rows| rows.retain(|r| !(r.config == 1 && r.solver == "bfs"))),
            MergeError::Incomplete { config: 1, .. }
        ));
    }

    #[test]
    fn a_game_id_of_another_configuration_is_refused() {
        let description = StudyDescription {
            configs: 2,
            ..StudyDescription::for_tests()
        };
        let dealt = |config| {
            let puzzle = deal(&BoardSource::Standard, description.seed, config, 4).unwrap();
            game_id::write(&puzzle).unwrap()
        };
        assert_eq!(foreign_game(&description, 0, &dealt(0)), None);
        let why = foreign_game(&description, 0, &dealt(1)).unwrap();
        assert!(why.contains("but the study deals"), "{why}");
        // On a fixed board the id must be on that board, with the robots dealt on it.
        let (puzzle, _) = crate::model::tiles::random_game(5, 4).unwrap();
        let fixed = StudyDescription {
            board: format!("fixed {}", board_fingerprint(puzzle.board())),
            ..description.clone()
        };
        let on_board = |config| {
            let board = BoardSource::Fixed(Box::new(puzzle.clone()));
            game_id::write(&deal(&board, fixed.seed, config, 4).unwrap()).unwrap()
        };
        assert_eq!(foreign_game(&fixed, 1, &on_board(1)), None);
        assert!(foreign_game(&fixed, 1, &on_board(0)).is_some());
        assert!(
            foreign_game(&fixed, 0, &dealt(0))
                .unwrap()
                .contains("another board")
        );
    }
}
