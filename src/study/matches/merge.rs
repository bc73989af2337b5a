//! Merging the results files of a match's shards into one that reads like a single run.
//!
//! The files must hold one match (one suite, by its hash, and the same solvers), be its
//! shards of one count, each there once and all there, each finished, and hold only runs of
//! their own shard's puzzles, each once. The merged file has the header of a whole match and
//! the records in the match's order, so the report made from it (its ratio and interval
//! computed on all the rows) is the one a single run would give, times aside.

use super::order::run_order;
use super::run::{Header, MatchError, parse_results, suite_hash};
use super::{MatchRecord, SuiteEntry};
use crate::model::formats::{FormatError, Overwrite, open_regular, save_atomic_with};
use crate::study::experiment::Shard;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Reads the shard files `inputs` of a match over `suite`, checks them (see the module's
/// docs) and writes the merged results to `out`, which must not exist yet. Returns the
/// merged records and the solvers' names, in order.
pub fn merge_shards(
    suite: &[SuiteEntry],
    inputs: &[PathBuf],
    out: &Path,
) -> Result<(Vec<String>, Vec<MatchRecord>), MatchError> {
    let bad = |path: &Path, reason: String| MatchError::Results {
        path: path.to_path_buf(),
        reason,
    };
    let hash = suite_hash(suite);
    let order = run_order(suite);
    // Each puzzle's place in the match's order, which says which shard runs it.
    let place: HashMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(position, &index)| (suite[index].id.as_str(), position))
        .collect();
    let mut first: Option<(PathBuf, Header)> = None;
    let mut shards: BTreeMap<u64, PathBuf> = BTreeMap::new();
    let mut count = 0;
    let mut merged: Vec<MatchRecord> = Vec::new();
    for path in inputs {
        let io = |error| MatchError::Io {
            path: path.clone(),
            error,
        };
        let mut bytes = Vec::new();
        let file = open_regular(path, std::fs::OpenOptions::new().read(true)).map_err(io)?;
        std::io::Read::read_to_end(&mut &file, &mut bytes).map_err(io)?;
        let (_, header, records) = parse_results(path, &bytes)?;
        if header.suite != hash {
            return Err(bad(
                path,
                "it holds the results of another suite (its puzzles differ)".into(),
            ));
        }
        let Some(shard) = header.shard.as_deref() else {
            return Err(bad(
                path,
                "it holds a whole match, not a shard (run with --shard I/N)".into(),
            ));
        };
        let shard: Shard =
            shard
                .parse()
                .map_err(|error: crate::study::experiment::shard::ShardError| {
                    bad(path, error.to_string())
                })?;
        match &first {
            None => {
                count = shard.count();
                first = Some((path.clone(), header.clone()));
            }
            Some((first_path, first_header)) => {
                if header.solvers != first_header.solvers {
                    return Err(bad(
                        path,
                        format!(
                            "it holds a match of {}, but {} one of {}",
                            header.solvers.join(","),
                            first_path.display(),
                            first_header.solvers.join(",")
                        ),
                    ));
                }
                if shard.count() != count {
                    return Err(bad(
                        path,
                        format!(
                            "it is shard {shard} but {} is one of {count}: the shard counts differ",
                            first_path.display()
                        ),
                    ));
                }
            }
        }
        if let Some(other) = shards.insert(shard.index(), path.clone()) {
            return Err(bad(
                path,
                format!(
                    "shard {shard} is in {} too: shards must not overlap",
                    other.display()
                ),
            ));
        }
        check_shard(path, shard, &header.solvers, &records, &order, &place)?;
        merged.extend(records);
    }
    let Some((_, header)) = first else {
        return Ok((Vec::new(), Vec::new()));
    };
    let missing: Vec<String> = (1..=count)
        .filter(|i| !shards.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(bad(
            out,
            format!(
                "the shards {} of the match are missing: merge every shard at once",
                missing.join(", ")
            ),
        ));
    }
    let solver_place = |name: &str| header.solvers.iter().position(|s| s == name);
    merged.sort_by_key(|r| {
        (
            place.get(r.puzzle.as_str()).copied(),
            solver_place(&r.solver),
        )
    });
    let whole = Header {
        shard: None,
        ..header.clone()
    };
    let mut text = serde_json::to_string(&whole).map_err(|e| bad(out, e.to_string()))?;
    text.push('\n');
    for record in &merged {
        text.push_str(&serde_json::to_string(record).map_err(|e| bad(out, e.to_string()))?);
        text.push('\n');
    }
    save_atomic_with(out, &text, Overwrite::Refuse).map_err(|error| match error {
        FormatError::Io { error, .. } => MatchError::Io {
            path: out.to_path_buf(),
            error,
        },
        other => bad(out, other.to_string()),
    })?;
    Ok((header.solvers, merged))
}

/// Checks that one shard's records are its puzzles' runs by its solvers, each once, and all
/// of them.
fn check_shard(
    path: &Path,
    shard: Shard,
    solvers: &[String],
    records: &[MatchRecord],
    order: &[usize],
    place: &HashMap<&str, usize>,
) -> Result<(), MatchError> {
    let bad = |reason: String| MatchError::Results {
        path: path.to_path_buf(),
        reason,
    };
    let mut seen: HashSet<(&str, &str)> = HashSet::new();
    for record in records {
        let Some(&position) = place.get(record.puzzle.as_str()) else {
            return Err(bad(format!(
                "it holds puzzle '{}', which the suite lacks",
                record.puzzle
            )));
        };
        if !shard.contains(position as u64) {
            return Err(bad(format!(
                "it holds puzzle '{}', which shard {shard} does not run",
                record.puzzle
            )));
        }
        if !solvers.contains(&record.solver) {
            return Err(bad(format!(
                "it holds a run of '{}', which its header does not name",
                record.solver
            )));
        }
        if !seen.insert((&record.puzzle, &record.solver)) {
            return Err(bad(format!(
                "it holds puzzle '{}' by {} twice; a run is written once",
                record.puzzle, record.solver
            )));
        }
    }
    let expected = order
        .iter()
        .enumerate()
        .filter(|(position, _)| shard.contains(*position as u64))
        .count()
        * solvers.len();
    if seen.len() < expected {
        return Err(bad(format!(
            "shard {shard} is unfinished: {} of its {expected} runs; finish it with --resume",
            seen.len()
        )));
    }
    Ok(())
}
