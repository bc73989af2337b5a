//! Experiments beyond one machine: disjoint shards of the configurations (their results files
//! are merged by [`super::merge`]).
//!
//! Shard `I/N` runs configurations `i` with `i % N == I - 1`. Interleaving rather than cutting
//! into blocks spreads the hard configurations over all shards, so they finish together.

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

    /// Which slice this is, from 1.
    pub fn index(&self) -> u64 {
        self.index
    }

    /// How many slices the configurations are cut into.
    pub fn count(&self) -> u64 {
        self.count
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

/// Text that is not a shard.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a shard I/N with 1 <= I <= N, such as 2/8")]
pub struct ShardError(pub String);

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let bad = || ShardError(text.to_string());
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index = index.trim().parse().map_err(|_| bad())?;
        let count = count.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).ok_or_else(bad)
    }
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
}
