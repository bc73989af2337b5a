//! Ricochet Lab: a board editor, visualiser and algorithm debugger for the board game
//! Ricochet Robots.
//!
//! Layers depend one way: [`model`] (board, robots, move rules, file formats) ←
//! [`solver`] (every algorithm, generic over a probe) ← [`worker`] (threads, cancellation,
//! live counters) ← [`app`] (the egui user interface). Beside the app, [`study`] (experiments,
//! bench, accuracy, the board analyser, positions made to order) runs solvers in bulk, and
//! [`print`](mod@print) draws a board for paper (SVG and PNG) from the model alone. The command line is
//! part of the binary, not of this library: it only turns arguments into the configurations
//! defined here.

pub mod app;
pub mod model;
pub mod print;
pub mod solver;
pub mod study;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod worker;

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::{Path, PathBuf};

    /// Every `.rs` file under `dir`, sorted.
    fn source_files(dir: &Path, files: &mut BTreeSet<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                source_files(&path, files);
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                files.insert(path);
            }
        }
    }

    /// The files a source file declares as modules (`mod name;` or a registry line
    /// `mod name { ... }`), resolved the way the compiler resolves them.
    fn declared_modules(file: &Path) -> Vec<PathBuf> {
        let text = std::fs::read_to_string(file).unwrap();
        let stem = file.file_stem().unwrap().to_str().unwrap();
        let parent = file.parent().unwrap();
        let folder = if ["mod", "lib", "main"].contains(&stem) {
            parent.to_path_buf()
        } else {
            parent.join(stem)
        };
        let mut found = Vec::new();
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            let Some(at) = words.iter().position(|word| *word == "mod") else {
                continue;
            };
            let Some(name) = words.get(at + 1) else {
                continue;
            };
            let name = name.trim_end_matches(';');
            found.push(folder.join(format!("{name}.rs")));
            found.push(folder.join(name).join("mod.rs"));
        }
        found
    }

    // A source file that no module declares is never compiled, so a solver file whose
    // registry line was forgotten would go unnoticed by the build: this names it.
    #[test]
    fn every_source_file_is_a_declared_module() {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = BTreeSet::new();
        source_files(&source, &mut files);
        let mut reached = BTreeSet::from([source.join("lib.rs"), source.join("main.rs")]);
        let mut queue: Vec<PathBuf> = reached.iter().cloned().collect();
        while let Some(file) = queue.pop() {
            for module in declared_modules(&file) {
                if files.contains(&module) && reached.insert(module.clone()) {
                    queue.push(module);
                }
            }
        }
        let orphans: Vec<_> = files.difference(&reached).collect();
        assert!(orphans.is_empty(), "files no module declares: {orphans:?}");
    }
}
