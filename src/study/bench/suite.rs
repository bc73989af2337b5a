//! The bench's suites: the reference puzzles and the seeded random games.

use super::*;

/// The reference suite: every `.ron` file in `dir` by file name, then the hard game ids that
/// are not the same puzzle as one of the files.
pub fn reference_puzzles(dir: &Path) -> anyhow::Result<Vec<(String, Puzzle)>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the boards folder {}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    let mut puzzles = Vec::new();
    for path in files {
        let puzzle = formats::load_source(&path.to_string_lossy())
            .with_context(|| format!("cannot load {}", path.display()))?;
        let name = path.file_stem().map_or_else(
            || path.display().to_string(),
            |s| s.to_string_lossy().into_owned(),
        );
        puzzles.push((name, puzzle));
    }
    for id in REFERENCE_GAME_IDS {
        let puzzle = game_id::parse(id).with_context(|| format!("game id {id}"))?;
        if !puzzles.iter().any(|(_, p)| *p == puzzle) {
            puzzles.push((id.to_string(), puzzle));
        }
    }
    Ok(puzzles)
}

/// The random suite: standard games for seeds 1 to 1,000 with four robots.
pub fn random_puzzles() -> anyhow::Result<Vec<(String, Puzzle)>> {
    RANDOM_SEEDS
        .map(|seed| {
            let (puzzle, _) = random_game(seed, 4)?;
            Ok((format!("seed {seed}"), puzzle))
        })
        .collect()
}
