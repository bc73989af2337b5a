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
struct PrefixSlot {
    level: usize,
    index: usize,
}

/// Counts a depth-first search's nodes into a [`NodeProfile`] while touching the profile only
/// at nodes no deeper than its depth: there are few of those, and a search spends nearly all
/// its nodes below them.
///
/// In depth-first order every node deeper than the profile comes after its ancestor at the
/// profile's depth and before any other node that shallow, so such a node needs no counting
/// of its own: when the next shallow node comes, or the search ends, the tally adds to the
/// ancestor's prefix every node the search counted since that ancestor. The solver counts its
/// nodes anyway; the tally reads that count. Until then a live view of the profile lacks the
/// nodes of the subtree under way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrefixTally {
    /// The prefix of profile depth the search is under, once a node that deep was counted.
    under: Option<PrefixSlot>,
    /// The solver's node count when that node was counted: its later nodes are the subtree's.
    since: u64,
}

impl PrefixTally {
    /// Counts the node a search has just counted as its `nodes`th (the search's own count,
    /// this node included), reached by a path of `length` moves whose `i`th move has the code
    /// `code(i)` (see [`move_code`]). A node deeper than the profile is left to the next
    /// [`flush`](Self::flush), once an ancestor at the profile's depth was counted.
    #[inline(always)]
    pub fn count(
        &mut self,
        profile: &mut NodeProfile,
        nodes: u64,
        length: usize,
        code: impl Fn(usize) -> usize,
    ) {
        if length > profile.depth() && self.under.is_some() {
            return;
        }
        self.count_shallow(profile, nodes, length, code);
    }

    /// Counts a node no deeper than the profile, or the first node of a search that starts
    /// deeper (a work unit), after adding the subtree counted since the last such node.
    #[inline(never)]
    fn count_shallow(
        &mut self,
        profile: &mut NodeProfile,
        nodes: u64,
        length: usize,
        code: impl Fn(usize) -> usize,
    ) {
        self.flush(profile, nodes - 1);
        let slot = profile.count_indexed(length, code);
        if length >= profile.depth() {
            self.under = slot;
            self.since = nodes;
        }
    }

    /// Adds to the profile the nodes counted under the current prefix since its node, up to
    /// the search's `nodes`th, and forgets the prefix. Call it when the search (an iteration,
    /// a work unit) ends, however it ends, with the search's count then.
    pub fn flush(&mut self, profile: &mut NodeProfile, nodes: u64) {
        if let Some(slot) = self.under.take() {
            profile.counts[slot.level][slot.index] += nodes - self.since;
        }
    }
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
    /// for a root).
    #[inline(always)]
    fn count_indexed(
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
        self.counts[length - 1][index] += 1;
        Some(PrefixSlot {
            level: length - 1,
            index,
        })
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

    /// Walks a tree depth first, as a search would: `choices` says how many children each
    /// node has (cycled through), up to `height` moves below `start`. Calls `visit` with every
    /// node's path of move codes, in visiting order, up to `limit` nodes.
    fn depth_first(
        start: &[usize],
        height: usize,
        choices: &[usize],
        limit: usize,
        visit: &mut impl FnMut(&[usize]),
    ) {
        fn walk(
            path: &mut Vec<usize>,
            height: usize,
            choices: &[usize],
            next: &mut usize,
            limit: usize,
            visited: &mut usize,
            visit: &mut impl FnMut(&[usize]),
        ) {
            if *visited == limit {
                return;
            }
            *visited += 1;
            visit(path);
            if height == 0 {
                return;
            }
            let children = choices[*next % choices.len()];
            *next += 1;
            for child in 0..children {
                path.push((child * 7 + path.len()) % MOVE_CODES);
                walk(path, height - 1, choices, next, limit, visited, visit);
                path.pop();
            }
        }
        let mut path = start.to_vec();
        walk(&mut path, height, choices, &mut 0, limit, &mut 0, visit);
    }

    proptest::proptest! {
        /// Searches of any shape, starting at the root or deeper (a work unit), stopped
        /// anywhere: the tally's profile equals one that counted every node by its path.
        #[test]
        fn a_tally_counts_every_node_as_counting_each_by_its_path_would(
            depth in 1..=3usize,
            start in proptest::collection::vec(0..MOVE_CODES, 0..5),
            height in 0..6usize,
            choices in proptest::collection::vec(0..4usize, 1..8),
            limit in 1..2000usize,
            searches in 1..4usize,
        ) {
            let mut by_path = NodeProfile::new(depth).unwrap();
            let mut tallied = NodeProfile::new(depth).unwrap();
            for search in 0..searches {
                // Each search counts its own nodes from zero, as a solver's iteration does.
                let mut nodes = 0;
                let mut tally = PrefixTally::default();
                let start: Vec<usize> = start.iter().skip(search).copied().collect();
                depth_first(&start, height, &choices, limit, &mut |path| {
                    by_path.count_codes(path.iter().copied());
                    nodes += 1;
                    tally.count(&mut tallied, nodes, path.len(), |i| path[i]);
                });
                tally.flush(&mut tallied, nodes);
            }
            proptest::prop_assert_eq!(tallied, by_path);
        }
    }
}
