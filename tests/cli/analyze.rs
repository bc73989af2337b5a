//! The board analyser is deterministic for a seed whatever the number of threads, its figures
//! add up, and the hardest positions it names reopen with the same optimum.

use ricochet_lab::model::formats::{game_id, load_source};
use ricochet_lab::model::random::random_puzzle;
use ricochet_lab::model::tiles::random_game;
use ricochet_lab::solver::{self, Limits, NoProbe, Outcome, SolverOptions};
use ricochet_lab::study::analyze::{AnalyzeConfig, analyze, deal_position};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn config(deals: u32, seed: u64, threads: usize) -> AnalyzeConfig {
    AnalyzeConfig {
        deals,
        seed,
        threads,
        solve_time: Duration::from_secs(60),
        memory_limit: 512 << 20,
    }
}

fn summary(
    puzzle: &ricochet_lab::model::Puzzle,
    config: &AnalyzeConfig,
) -> Vec<(usize, u32, Option<u32>, Vec<u16>)> {
    let cancel = Arc::new(AtomicBool::new(false));
    let mut seen = 0;
    let analysis = analyze(puzzle, config, &cancel, |_| seen += 1).unwrap();
    assert_eq!(seen, analysis.results.len());
    assert!(!analysis.cancelled);
    analysis
        .results
        .iter()
        .map(|r| (r.target, r.deal, r.moves, r.puzzle.robot_cells()))
        .collect()
}

#[test]
fn analysis_is_deterministic_for_a_seed_on_any_number_of_threads() {
    let puzzle = random_puzzle(8, 8, 3, 5, 7).unwrap();
    let one = summary(&puzzle, &config(6, 42, 1));
    let two = summary(&puzzle, &config(6, 42, 2));
    assert_eq!(one, two);
    let other = summary(&puzzle, &config(6, 43, 2));
    assert_ne!(one, other, "another seed deals other robots");
    // Deals are what deal_position gives, by target and deal.
    let (target, deal, _, cells) = &one[3];
    assert_eq!(
        &deal_position(&puzzle, 42, *target, *deal)
            .unwrap()
            .robot_cells(),
        cells
    );
}

#[test]
fn figures_add_up_and_hardest_positions_reopen_by_game_id() {
    let (puzzle, _) = random_game(5, 4).unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let analysis = analyze(&puzzle, &config(2, 1, 2), &cancel, |_| {}).unwrap();
    let targets = puzzle.board().targets().len();
    assert_eq!(analysis.results.len(), targets * 2);
    let distribution = analysis.distribution();
    assert_eq!(distribution.values().sum::<u64>(), analysis.solved());
    let per_target = analysis.per_target();
    assert_eq!(per_target.len(), targets);
    assert_eq!(
        per_target.iter().map(|t| t.solved).sum::<u64>(),
        analysis.solved()
    );
    let hardest = analysis.hardest(3);
    assert_eq!(hardest.len(), 3);
    assert!(hardest.windows(2).all(|w| w[0].moves >= w[1].moves));
    assert_eq!(hardest[0].moves, distribution.keys().next_back().copied());
    for position in hardest {
        let id = game_id::write(&position.puzzle).unwrap();
        let reopened = load_source(&id).unwrap();
        let report = solver::run(
            "iddfs",
            &reopened,
            &SolverOptions::default(),
            &Limits::default(),
            &mut NoProbe,
        )
        .unwrap();
        match report.outcome {
            Outcome::Solved { moves } => assert_eq!(Some(moves.len() as u32), position.moves),
            other => panic!("{id}: {other:?}"),
        }
    }
}

#[test]
fn a_cancelled_analysis_stops_and_says_so() {
    let (puzzle, _) = random_game(5, 4).unwrap();
    let cancel = Arc::new(AtomicBool::new(true));
    let analysis = analyze(&puzzle, &config(5, 1, 2), &cancel, |_| {}).unwrap();
    assert!(analysis.cancelled);
    assert!(analysis.results.is_empty());
}
