//! Experiments beyond one machine: disjoint shards of the configurations, and merging their
//! results files into one that reads like a single run.
//!
//! Shard `I/N` runs configurations `i` with `i % N == I - 1`. Interleaving rather than cutting
//! into blocks spreads the hard configurations over all shards, so they finish together.

use super::record::{Record, Status};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

/// The `I`-th of `N` disjoint slices of an experiment's configurations (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// The whole experiment: one shard of one.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Shard `index` of `count`; `None` unless `1 <= index <= count`.
    pub fn new(index: u64, count: u64) -> Option<Shard> {
        (index >= 1 && index <= count).then_some(Shard { index, count })
    }

    /// Whether configuration `config` belongs to this shard.
    pub fn contains(&self, config: u64) -> bool {
        config % self.count == self.index - 1
    }

    /// This shard's configurations among the first `configs`, in order.
    pub fn configs(&self, configs: u64) -> impl Iterator<Item = u64> + use<> {
        (self.index - 1..configs).step_by(usize::try_from(self.count).unwrap_or(usize::MAX))
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("'{text}' is not a shard I/N with 1 <= I <= N, such as 2/8");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index = index.trim().parse().map_err(|_| bad())?;
        let count = count.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).ok_or_else(bad)
    }
}

/// Why shard files cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
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
    /// A row no run writes.
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
    /// Two files hold rows of the same configuration.
    #[error("configuration {config} is in both {first} and {second}: shards must not overlap")]
    Overlap {
        /// The configuration.
        config: u64,
        /// The file it was first seen in.
        first: String,
        /// The file it was seen in again.
        second: String,
    },
    /// The files come from experiments with different seeds.
    #[error(
        "{file} was dealt from experiment seed {found}, but {first} from seed {expected}: \
         these are not shards of one experiment"
    )]
    SeedMismatch {
        /// The file that differs.
        file: String,
        /// Its seed.
        found: u64,
        /// The first file.
        first: String,
        /// The first file's seed.
        expected: u64,
    },
    /// The files ran different solvers.
    #[error(
        "{file} ran the solvers {found}, but {first} ran {expected}: \
         these are not shards of one experiment"
    )]
    SolverMismatch {
        /// The file that differs.
        file: String,
        /// Its solvers.
        found: String,
        /// The first file.
        first: String,
        /// The first file's solvers.
        expected: String,
    },
    /// A configuration's rows name different solvers than the rest (a shard cut off mid-way).
    #[error("{file}: configuration {config} lacks rows of {missing}")]
    Incomplete {
        /// The file.
        file: String,
        /// The configuration.
        config: u64,
        /// The solvers without a row.
        missing: String,
    },
}

/// The experiment seed a row was dealt from (see [`super::runner::config_seed`]).
fn experiment_seed(record: &Record) -> u64 {
    record.config_seed.wrapping_sub(record.config) / super::runner::SEED_STRIDE
}

/// Merges the rows of shard files, given with their names, into the rows of one run, sorted by
/// configuration and solver. Refuses files whose configurations overlap, that come from
/// different experiment seeds or solver lists, or that hold a configuration with rows of only
/// some solvers.
pub fn merge(files: &[(String, Vec<Record>)]) -> Result<Vec<Record>, MergeError> {
    let mut owner: BTreeMap<u64, &str> = BTreeMap::new();
    let mut reference: Option<(&str, u64, BTreeSet<&str>)> = None;
    let mut merged = Vec::new();
    for (name, records) in files {
        let solvers: BTreeSet<&str> = records.iter().map(|r| r.solver.as_str()).collect();
        let mut by_config: BTreeMap<u64, BTreeSet<&str>> = BTreeMap::new();
        for record in records {
            let new = by_config
                .entry(record.config)
                .or_default()
                .insert(&record.solver);
            if !new {
                return Err(MergeError::Repeated {
                    file: name.clone(),
                    config: record.config,
                    solver: record.solver.clone(),
                });
            }
            if let Some(why) = impossible(record) {
                return Err(MergeError::Impossible {
                    file: name.clone(),
                    config: record.config,
                    solver: record.solver.clone(),
                    why,
                });
            }
        }
        for (config, present) in &by_config {
            if present != &solvers {
                let missing: Vec<&str> = solvers.difference(present).copied().collect();
                return Err(MergeError::Incomplete {
                    file: name.clone(),
                    config: *config,
                    missing: missing.join(","),
                });
            }
        }
        if let Some(first) = records.first() {
            let seed = experiment_seed(first);
            match &reference {
                None => reference = Some((name, seed, solvers.clone())),
                Some((first_name, expected, expected_solvers)) => {
                    if seed != *expected {
                        return Err(MergeError::SeedMismatch {
                            file: name.clone(),
                            found: seed,
                            first: first_name.to_string(),
                            expected: *expected,
                        });
                    }
                    if &solvers != expected_solvers {
                        let list =
                            |s: &BTreeSet<&str>| s.iter().copied().collect::<Vec<_>>().join(",");
                        return Err(MergeError::SolverMismatch {
                            file: name.clone(),
                            found: list(&solvers),
                            first: first_name.to_string(),
                            expected: list(expected_solvers),
                        });
                    }
                }
            }
            if let Some(other) = records.iter().find(|r| experiment_seed(r) != seed) {
                return Err(MergeError::SeedMismatch {
                    file: name.clone(),
                    found: experiment_seed(other),
                    first: name.clone(),
                    expected: seed,
                });
            }
        }
        for config in by_config.keys() {
            if let Some(first) = owner.insert(*config, name) {
                return Err(MergeError::Overlap {
                    config: *config,
                    first: first.to_string(),
                    second: name.clone(),
                });
            }
        }
        merged.extend(records.iter().cloned());
    }
    merged.sort_by(|a, b| (a.config, &a.solver).cmp(&(b.config, &b.solver)));
    Ok(merged)
}

/// Why a row cannot have come from a run, if it cannot: a negative or unreadable time, or a
/// status its move counts contradict.
fn impossible(record: &Record) -> Option<String> {
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

    #[test]
    fn shards_are_disjoint_and_cover_every_configuration() {
        let shards: Vec<Shard> = (1..=4).map(|i| Shard::new(i, 4).unwrap()).collect();
        let mut seen: Vec<u64> = shards.iter().flat_map(|s| s.configs(10)).collect();
        seen.sort();
        assert_eq!(seen, (0..10).collect::<Vec<_>>());
        for shard in &shards {
            assert!(shard.configs(10).all(|c| shard.contains(c)));
        }
        assert_eq!("2/4".parse::<Shard>(), Ok(shards[1]));
        assert!("0/4".parse::<Shard>().is_err());
        assert!("5/4".parse::<Shard>().is_err());
        assert!("two".parse::<Shard>().is_err());
        assert_eq!(Shard::WHOLE.configs(3).collect::<Vec<_>>(), vec![0, 1, 2]);
    }

    fn row(config: u64, seed: u64, solver: &str) -> Record {
        Record::optimal_for_tests(config, seed, solver)
    }

    #[test]
    fn overlapping_or_foreign_shards_are_refused() {
        let a = (
            "a.csv".to_string(),
            vec![row(0, 1, "bfs"), row(2, 1, "bfs")],
        );
        let b = (
            "b.csv".to_string(),
            vec![row(1, 1, "bfs"), row(3, 1, "bfs")],
        );
        let merged = merge(&[b.clone(), a.clone()]).unwrap();
        assert_eq!(
            merged.iter().map(|r| r.config).collect::<Vec<_>>(),
            vec![0, 1, 2, 3]
        );
        let overlap = ("c.csv".to_string(), vec![row(2, 1, "bfs")]);
        assert!(matches!(
            merge(&[a.clone(), overlap]),
            Err(MergeError::Overlap { config: 2, .. })
        ));
        let other_seed = ("d.csv".to_string(), vec![row(1, 2, "bfs")]);
        assert!(matches!(
            merge(&[a.clone(), other_seed]),
            Err(MergeError::SeedMismatch { found: 2, .. })
        ));
        let other_solver = ("e.csv".to_string(), vec![row(1, 1, "iddfs")]);
        assert!(matches!(
            merge(&[a.clone(), other_solver]),
            Err(MergeError::SolverMismatch { .. })
        ));
        let cut = (
            "f.csv".to_string(),
            vec![row(1, 1, "bfs"), row(1, 1, "iddfs"), row(3, 1, "bfs")],
        );
        assert!(matches!(
            merge(&[cut]),
            Err(MergeError::Incomplete { config: 3, .. })
        ));
    }
}
