//! Where a search spent its nodes: counts of nodes per move prefix.
//!
//! A [`NodeProfile`] counts every node a solver examines under the first few moves of the
//! path that reached it (its prefix, at most [`MAX_PROFILE_DEPTH`] moves). A solver reports
//! nodes to it only when its probe says [`Probe::PROFILES`](super::Probe::PROFILES), a constant, so a run whose probe
//! does not profile compiles to the same code as before. [`Profiling`](super::probe::Profiling)
//! adds a profile to any probe.
//!
//! Each node is counted once, under its own prefix when it is shallower than the profile's
//! depth and under the prefix of that depth otherwise; [`NodeProfile::entries`] then adds each
//! prefix's counts into its shorter prefixes, so an entry holds its whole subtree.

use crate::model::{Direction, Move, RobotColor};

/// The deepest prefix a profile counts. Four moves make 20⁴ = 160,000 prefixes of five
/// robots, a table of about a megabyte: deeper would cost more memory per search thread than
/// a chart can show.
pub const MAX_PROFILE_DEPTH: usize = 4;

/// The distinct moves: five robots times four directions.
const MOVE_CODES: usize = RobotColor::ALL.len() * Direction::ALL.len();

/// A move as a number below `MOVE_CODES`: robot colour index times four plus direction
/// index.
#[inline(always)]
pub fn move_code(robot: RobotColor, dir: Direction) -> usize {
    robot.index() * Direction::ALL.len() + dir.index()
}

/// The move a code stands for.
fn code_move(code: usize) -> Move {
    let directions = Direction::ALL.len();
    Move::new(
        RobotColor::ALL[code / directions],
        Direction::ALL[code % directions],
    )
}

/// A profile depth out of range, named for the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the profile depth must be between 1 and {MAX_PROFILE_DEPTH} moves, not {0}")]
pub struct ProfileDepthError(pub usize);

/// One prefix and the nodes of its subtree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileEntry {
    /// The first moves of the paths counted, from the root.
    pub prefix: Vec<Move>,
    /// The nodes examined under this prefix over the whole run (every iteration).
    pub nodes: u64,
}

/// Where a prefix's nodes are counted in a [`NodeProfile`] of the same depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrefixSlot {
    level: usize,
    index: usize,
}

/// Node counts per move prefix of up to a fixed depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeProfile {
    /// `counts[n]` holds, for each prefix of `n + 1` moves (its moves' codes as the digits of
    /// a number in base [`MOVE_CODES`], first move most significant), the nodes counted at
    /// exactly that prefix: nodes `n + 1` moves deep, or deeper for the last level.
    counts: Vec<Vec<u64>>,
    /// The roots counted: nodes reached by no move (one per iteration of a deepening search).
    roots: u64,
}

impl NodeProfile {
    /// An empty profile of prefixes of 1 to `depth` moves; `depth` must be in
    /// 1..=[`MAX_PROFILE_DEPTH`].
    pub fn new(depth: usize) -> Result<NodeProfile, ProfileDepthError> {
        if !(1..=MAX_PROFILE_DEPTH).contains(&depth) {
            return Err(ProfileDepthError(depth));
        }
        let counts = (1..=depth)
            .map(|length| vec![0; MOVE_CODES.pow(length as u32)])
            .collect();
        Ok(NodeProfile { counts, roots: 0 })
    }

    /// A profile of the same depth with no nodes counted (for another search thread).
    pub fn emptied(&self) -> NodeProfile {
        NodeProfile {
            counts: self
                .counts
                .iter()
                .map(|level| vec![0; level.len()])
                .collect(),
            roots: 0,
        }
    }

    /// The longest prefix counted.
    pub fn depth(&self) -> usize {
        self.counts.len()
    }

    /// Counts one node reached by the moves `path` yields, as move codes (see [`move_code`]),
    /// from the root; only the first [`depth`](Self::depth) are read. A root (an empty path)
    /// has no prefix and is counted apart, in [`roots`](Self::roots).
    #[inline(always)]
    pub fn count_codes(&mut self, path: impl IntoIterator<Item = usize>) {
        let mut index = 0;
        let mut length = 0;
        for code in path.into_iter().take(self.counts.len()) {
            index = index * MOVE_CODES + code;
            length += 1;
        }
        if length > 0 {
            self.counts[length - 1][index] += 1;
        } else {
            self.roots += 1;
        }
    }

    /// Counts one node reached by a path of `length` moves whose `i`th move has the code
    /// `code(i)` (see [`count_codes`](Self::count_codes)): only the codes of the first
    /// [`depth`](Self::depth) moves are asked for. Returns where the node was counted (`None`
    /// for a root), so that a solver which knows the next nodes share its first moves can
    /// count them with [`count_at`](Self::count_at) without reading the path again.
    #[inline(always)]
    pub fn count_indexed(
        &mut self,
        length: usize,
        code: impl Fn(usize) -> usize,
    ) -> Option<PrefixSlot> {
        let length = length.min(self.counts.len());
        if length == 0 {
            self.roots += 1;
            return None;
        }
        let mut index = 0;
        for i in 0..length {
            index = index * MOVE_CODES + code(i);
        }
        let slot = PrefixSlot {
            level: length - 1,
            index,
        };
        self.count_at(slot);
        Some(slot)
    }

    /// Counts one more node under a prefix [`count_indexed`](Self::count_indexed) returned.
    #[inline(always)]
    pub fn count_at(&mut self, slot: PrefixSlot) {
        self.counts[slot.level][slot.index] += 1;
    }

    /// Counts one node reached by `path` from the root (see [`count_codes`](Self::count_codes)).
    #[inline(always)]
    pub fn count(&mut self, path: impl IntoIterator<Item = Move>) {
        self.count_codes(path.into_iter().map(|m| move_code(m.robot, m.dir)));
    }

    /// Adds another profile's counts (another search thread's) to these. Levels the other
    /// profile does not have are left as they are.
    pub fn merge(&mut self, other: &NodeProfile) {
        self.roots += other.roots;
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }

    /// The roots counted: nodes reached by no move, one per iteration of a deepening search.
    pub fn roots(&self) -> u64 {
        self.roots
    }

    /// The nodes counted under any prefix: every node but the roots.
    pub fn total(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }

    /// Every prefix with nodes under it, with the nodes of its whole subtree, in tree order:
    /// each prefix before its longer prefixes, moves in colour order (red, green, blue,
    /// yellow, silver) and then direction order (north, east, south, west).
    pub fn entries(&self) -> Vec<ProfileEntry> {
        // Each level's subtree sums: its own counts plus the sums of the level below.
        let mut sums = self.counts.clone();
        for level in (1..sums.len()).rev() {
            let (upper, lower) = sums.split_at_mut(level);
            for (index, &nodes) in lower[0].iter().enumerate() {
                upper[level - 1][index / MOVE_CODES] += nodes;
            }
        }
        let mut entries = Vec::new();
        let mut prefix = Vec::new();
        collect(&sums, 0, 0, &mut prefix, &mut entries);
        entries
    }
}

/// Appends the entries under the prefix numbered `index` at `level` (its children are at
/// `level`), in tree order.
fn collect(
    sums: &[Vec<u64>],
    level: usize,
    index: usize,
    prefix: &mut Vec<Move>,
    entries: &mut Vec<ProfileEntry>,
) {
    let Some(counts) = sums.get(level) else {
        return;
    };
    for code in 0..MOVE_CODES {
        let child = index * MOVE_CODES + code;
        let nodes = counts[child];
        if nodes == 0 {
            continue;
        }
        prefix.push(code_move(code));
        entries.push(ProfileEntry {
            prefix: prefix.clone(),
            nodes,
        });
        collect(sums, level + 1, child, prefix, entries);
        prefix.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direction::*, RobotColor::*};

    #[test]
    fn refuses_depths_out_of_range_by_name() {
        assert_eq!(NodeProfile::new(0), Err(ProfileDepthError(0)));
        let error = NodeProfile::new(5).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the profile depth must be between 1 and 4 moves, not 5"
        );
        assert_eq!(NodeProfile::new(4).unwrap().depth(), 4);
    }

    #[test]
    fn subtrees_add_up_and_come_in_tree_order() {
        let mut profile = NodeProfile::new(2).unwrap();
        let bs = Move::new(Blue, South);
        let rn = Move::new(Red, North);
        let gw = Move::new(Green, West);
        profile.count([]);
        profile.count([bs]);
        profile.count([bs, rn]);
        profile.count([bs, rn, gw]);
        profile.count([rn, gw, bs, rn]);
        profile.count([gw]);
        let entries = profile.entries();
        let listed: Vec<(Vec<Move>, u64)> =
            entries.into_iter().map(|e| (e.prefix, e.nodes)).collect();
        assert_eq!(
            listed,
            vec![
                (vec![rn], 1),
                (vec![rn, gw], 1),
                (vec![gw], 1),
                (vec![bs], 3),
                (vec![bs, rn], 2),
            ]
        );
        assert_eq!(profile.total(), 5);
        assert_eq!(profile.roots(), 1);
    }

    #[test]
    fn merged_profiles_add_their_counts() {
        let mut first = NodeProfile::new(1).unwrap();
        let mut second = NodeProfile::new(1).unwrap();
        first.count([Move::new(Yellow, East)]);
        second.count([Move::new(Yellow, East), Move::new(Silver, West)]);
        second.count([Move::new(Silver, West)]);
        first.merge(&second);
        let nodes: Vec<u64> = first.entries().iter().map(|e| e.nodes).collect();
        assert_eq!(nodes, vec![2, 1]);
    }
}
