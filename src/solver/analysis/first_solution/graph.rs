//! The graph of every optimal solution: each state on one, with the moves from it that stay on
//! one, gathered by one exhaustive search; and the first solution in the listing's order,
//! read from it.

use crate::model::puzzle::MAX_ROBOTS;
use crate::model::{Move, Puzzle};
use crate::solver::fast::solution_graph::{GraphNode, Place, SolutionGraph};
use rustc_hash::FxHashMap;

/// The first solution in the listing's order among the graph's: the fewest robots moved,
/// then the fewest robot changes, then move by move.
pub(super) fn first_in_order(graph: &SolutionGraph, puzzle: &Puzzle) -> Option<Vec<Move>> {
    let n = puzzle.robots().len();
    let index = |mv: &Move| puzzle.robot_index(mv.robot).unwrap_or(0);
    // The states from the goal up, so each state's successors come before it.
    let mut order: Vec<(&(Place, u32), &GraphNode)> = graph.nodes.iter().collect();
    order.sort_unstable_by_key(|((place, left), _)| (*left, *place));
    let position: FxHashMap<(Place, u32), usize> = order
        .iter()
        .enumerate()
        .map(|(i, (state, _))| (**state, i))
        .collect();
    let root = *position.get(&(graph.root, graph.depth))?;
    // For each set of robots: the fewest changes of a solution from each state that moves
    // only robots of the set, after each robot (index `n`: none yet).
    const NONE: u32 = u32::MAX;
    let fewest_of = |set: u32| -> Vec<[u32; MAX_ROBOTS + 1]> {
        let mut fewest = vec![[NONE; MAX_ROBOTS + 1]; order.len()];
        for (i, (_, node)) in order.iter().enumerate() {
            if node.left == 0 {
                fewest[i] = [0; MAX_ROBOTS + 1];
                continue;
            }
            for (mv, next) in &node.edges {
                let r = index(mv);
                let Some(&j) = position.get(&(*next, node.left - 1)) else {
                    continue;
                };
                if set & (1 << r) == 0 || fewest[j][r] == NONE {
                    continue;
                }
                for last in 0..=n {
                    let change = u32::from(last != n && last != r);
                    fewest[i][last] = fewest[i][last].min(fewest[j][r] + change);
                }
            }
        }
        fewest
    };
    let mut best: Option<(u32, Vec<Move>)> = None;
    for size in 0..=n as u32 {
        for set in (0..1u32 << n).filter(|set| set.count_ones() == size) {
            let fewest = fewest_of(set);
            let changes = fewest[root][n];
            if changes == NONE || best.as_ref().is_some_and(|(c, _)| changes > *c) {
                continue;
            }
            // Move by move: the first move that keeps the fewest changes reachable.
            let mut path = Vec::new();
            let (mut at, mut last) = (root, n);
            while order[at].1.left > 0 {
                let need = fewest[at][last];
                let step = order[at]
                    .1
                    .edges
                    .iter()
                    .filter_map(|(mv, next)| {
                        let r = index(mv);
                        let j = *position.get(&(*next, order[at].1.left - 1))?;
                        let change = u32::from(last != n && last != r);
                        (set & (1 << r) != 0
                            && fewest[j][r] != NONE
                            && fewest[j][r] + change == need)
                            .then_some((*mv, j, r))
                    })
                    .min();
                let (mv, j, r) = step?;
                path.push(mv);
                at = j;
                last = r;
            }
            if best
                .as_ref()
                .is_none_or(|(c, p)| changes < *c || (changes == *c && path < *p))
            {
                best = Some((changes, path));
            }
        }
        if best.is_some() {
            break;
        }
    }
    best.map(|(_, path)| path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Rules;
    use crate::model::random::random_puzzle;
    use crate::solver::analysis::all_solutions::list_optimal;
    use crate::solver::fast::gather::solution_graph;
    use crate::solver::fast::table::Table;
    use crate::solver::{Limits, NoProbe, Outcome, Search, SolverOptions};

    /// Every path of the graph from its start to a goal, in the listing's order.
    fn paths(graph: &SolutionGraph) -> Vec<Vec<Move>> {
        fn walk(
            graph: &SolutionGraph,
            at: (Place, u32),
            path: &mut Vec<Move>,
            out: &mut Vec<Vec<Move>>,
        ) {
            let node = &graph.nodes[&at];
            if at.1 == 0 {
                out.push(path.clone());
                return;
            }
            for (mv, next) in &node.edges {
                path.push(*mv);
                walk(graph, (*next, at.1 - 1), path, out);
                path.pop();
            }
        }
        let mut out = Vec::new();
        let root = (graph.root, graph.depth);
        if graph.nodes.contains_key(&root) {
            walk(graph, root, &mut Vec::new(), &mut out);
        }
        crate::solver::analysis::all_solutions::sort_solutions(&mut out);
        out
    }

    /// On random small boards with one to five robots, under each rule, the graph holds
    /// exactly the optimal solutions the listing finds, each once, and the first solution
    /// read from it is the listing's first: on one to three threads, from a fresh table or
    /// from the solve's.
    #[test]
    fn the_graph_holds_exactly_the_listed_solutions() {
        let mut compared = 0;
        let mut many = 0;
        for seed in 0..400u64 {
            let side = |k: u64| 3 + ((seed * 7 + k) % 6) as u16;
            let robots = 1 + (seed % 5) as usize;
            let Ok(puzzle) = random_puzzle(side(1), side(4), robots, 2 + (seed % 4) as usize, seed)
            else {
                continue;
            };
            let rules = Rules {
                ricochet: seed % 3 == 0,
                no_rebound: seed % 4 == 1,
            };
            let puzzle = puzzle.with_rules(rules);
            let limits = Limits::default();
            let (report, mut retired) = crate::solver::run_keeping_memory(
                "fast",
                &puzzle,
                &SolverOptions::default(),
                &limits,
                &mut NoProbe,
            )
            .unwrap();
            // Every other board starts from the solve's table, the others from none.
            let solve_table = retired.take::<Table>().filter(|_| seed % 2 == 1);
            let Outcome::Solved { moves } = report.outcome else {
                continue;
            };
            let depth = moves.len() as u32;
            let listing = list_optimal(&puzzle, depth, 20_000, Some(1), &limits, &mut NoProbe);
            if !listing.complete || listing.solutions.is_empty() {
                continue;
            }
            let mut probe = NoProbe;
            let mut search = Search::new(&mut probe, &limits);
            let threads = 1 + (seed % 3) as usize;
            let graph = solution_graph(&puzzle, depth, threads, solve_table, &mut search).unwrap();
            assert_eq!(
                paths(&graph),
                listing.solutions,
                "seed {seed} {rules:?}, {threads} threads"
            );
            assert_eq!(
                first_in_order(&graph, &puzzle).as_ref(),
                listing.solutions.first(),
                "seed {seed}"
            );
            compared += 1;
            many += usize::from(listing.solutions.len() > 20);
        }
        assert!(
            compared > 300 && many >= 15,
            "{compared} compared, {many} with many"
        );
    }
}
