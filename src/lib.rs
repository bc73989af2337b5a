//! Ricochet Lab: a board editor, visualiser and algorithm debugger for the board game
//! Ricochet Robots.
//!
//! # Layers
//!
//! Each layer uses only the layers on the rows above its own, never one on its own row or
//! below (the `no_layer_imports_a_layer_above_it` test reads every `crate::` path of every
//! file and names the file and line of any that breaks this):
//!
//! ```text
//! 0   model
//! 1   solver      print           (print draws from the model alone)
//! 2   study       lesson          (study draws its charts through print)
//! 3   worker
//! 4   app
//! 5   cli                         (the binary, beside this library)
//! ```
//!
//! `testing` stands outside the rows: the tests of every layer use it, and it uses the model
//! and the solver.
//!
//! - [`model`]: boards, robots, targets, the move rules, random deals and every file format
//!   (native RON, DriftingDroids game ids, Kevin Cox's text), with saving by write-then-rename.
//! - [`solver`]: every algorithm behind one API ([`solver::run`]), generic over a
//!   [`Probe`](solver::Probe) that sees what a search does and can stop it; every claimed answer
//!   is replayed on the board before it is returned. The analyses built on solvers (every
//!   optimal solution, hints, exact distances) are in [`solver::analysis`]. A solver may run
//!   scoped threads of its own, joined before it returns; it never imports egui or clap.
//! - [`study`]: solvers in bulk: the thesis' experiments, the bench, the accuracy study, the
//!   board analyser and positions made to order.
//! - [`lesson`]: lessons: a puzzle, its solvers, breakpoints, overlays and a page of text in
//!   one file, read, resolved and checked (a lesson's puzzle is searched to prove it has a
//!   solution); the app maps what a lesson names to its own settings.
//! - [`worker`]: every thread the app starts: a solve, a debugged solve, a listing, an
//!   analysis, each on a named thread with a cancel flag, live counters and a bounded channel.
//!   It runs studies as well as solvers (the analyser window runs [`study::analyze`]), which is
//!   why it comes after the study layer.
//! - [`app`]: the egui user interface; it reads results only through the worker and the
//!   revision-tagged store of derived results (`app::derived`).
//! - [`print`](mod@print): a board drawn for paper (SVG and PNG), animations of a solution or
//!   of a search's nodes (GIF, animated PNG, PNG frames), and any plot as a chart drawn from
//!   plain numbers, from the model alone (a search's nodes come to it as cells, moves and
//!   words); the worker's export thread (`worker::export`) reads traces and writes through
//!   it, and the studies draw their charts with it.
//! - The command line (`src/cli`, in the binary, not this library) only turns arguments into
//!   the configurations defined here and prints what comes back; clap stays there.
//! - `testing` (tests only, and the `testing` feature): the boards and runs the tests share.
//!
//! Within a layer the same rule holds between files: no files import each other, directly or
//! round a loop of any length (the `no_import_cycle_between_module_files` test names the files
//! of any loop), so a part that two files share lives in a third below both. A file may read
//! its own ancestors' shared parts. In the app the rule holds between its rooms too (each
//! folder and top-level file of `src/app`): `no_import_cycle_between_the_apps_rooms` checks
//! that a room names only rooms on the floors below it (see the [`app`] module's floors).
//!
//! # Where to add things
//!
//! - **A solver**: a file under `src/solver/` with a crate-private unit type implementing
//!   `solver::registry::Algorithm` (its [`SolverKind`](solver::SolverKind) entry and its
//!   search), and one line `mod name { Variant => Type }` in the `solvers!` list of
//!   `src/solver/mod.rs`. The command line, the app's solver list, the bench and the
//!   cross-checks against BFS pick it up from [`SolverId::ALL`](solver::SolverId::ALL). A type
//!   never registered fails the dead-code lint; a file never declared fails the
//!   `every_source_file_is_a_declared_module` test. A solver that shows its own data on the
//!   board defines its events (`solver::SolverEvent`) and its part of the search picture (any
//!   `Clone + PartialEq + Debug` type, taken with `SearchPicture::part_mut`) in its own
//!   file; the core picture names no solver (the `the_picture_names_no_solver` test).
//! - **An overlay**: a file under `src/app/overlays/layers/` with a type implementing
//!   `OverlayLayer`, its `mod` line and one line in `LAYERS` in
//!   `src/app/overlays/layers.rs`. A layer never listed fails the dead-code lint (the layers'
//!   types are private to that module); a file never declared fails the
//!   `every_layer_file_is_declared_and_listed` test.
//! - **A view of the dock**: a variant of `DockTab` in `src/app/shell/mod.rs` and its place in
//!   `DockTab::ALL`, which draws the tab buttons (the compiler names the `match`es to fill, a
//!   const check the place, and the dead-code lint a tab left out of `ALL`), and the view's own
//!   file in its room under `src/app/`.
//! - **A result derived from the board**: a slot in `DerivedResults` in
//!   `src/app/derived.rs`, so that an edit drops it with the others.
//! - **An action in the app**: a variant of `Command` in `src/app/command.rs`, sent by the
//!   room's panel and applied once per frame in `src/app/shell/apply.rs`.
//! - **A command**: a variant of `Command` in `src/cli/mod.rs` and its file in `src/cli/`,
//!   calling into the library; long commands use the shared Ctrl-C handler and output path.

pub mod app;
pub mod lesson;
pub mod model;
pub mod print;
pub mod solver;
pub mod study;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod worker;

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
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

    /// Every Rust file of the sources, the tests and the examples.
    fn project_sources() -> BTreeSet<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = BTreeSet::new();
        for folder in ["src", "tests", "examples"] {
            source_files(&root.join(folder), &mut files);
        }
        files
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

    /// The module path of a source file under `source`: `src/solver/fast/node.rs` is
    /// `solver::fast::node`, `src/app/overlays/mod.rs` is `app::overlays`.
    fn module_path(source: &Path, file: &Path) -> Vec<String> {
        let relative = file.strip_prefix(source).unwrap().with_extension("");
        let mut path: Vec<String> = relative
            .components()
            .map(|part| part.as_os_str().to_str().unwrap().to_string())
            .collect();
        if path
            .last()
            .is_some_and(|last| ["mod", "lib", "main"].contains(&last.as_str()))
        {
            path.pop();
        }
        path
    }

    /// The paths a file names through `crate::` or `super::` outside comments and its test
    /// module, as module paths from the crate root; a group `a::{b::C, d}` gives `a::b::C` and
    /// `a::d`.
    fn named_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
        let code: String = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap()
            .lines()
            .map(|line| line.split("//").next().unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        let is_path_char = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
        let mut paths = Vec::new();
        let mut rest = code.as_str();
        while let Some(at) = rest.find(['c', 's']) {
            let tail = &rest[at..];
            let preceded_by_word = rest[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
            let (mut base, after) = if !preceded_by_word && tail.starts_with("crate::") {
                (Vec::new(), &tail["crate::".len()..])
            } else if !preceded_by_word && tail.starts_with("super::") {
                let mut base = module[..module.len().saturating_sub(1)].to_vec();
                let mut after = &tail["super::".len()..];
                while let Some(next) = after.strip_prefix("super::") {
                    base.pop();
                    after = next;
                }
                (base, after)
            } else {
                rest = &rest[at + 1..];
                continue;
            };
            let end = after
                .find(|c: char| !is_path_char(c))
                .unwrap_or(after.len());
            base.extend(
                after[..end]
                    .split("::")
                    .filter(|part| !part.is_empty())
                    .map(str::to_string),
            );
            if after[end..].starts_with('{') {
                let group = &after[end + 1..];
                let close = group.find('}').unwrap_or(group.len());
                for item in group[..close].split(',') {
                    let mut item_path = base.clone();
                    item_path.extend(
                        item.trim()
                            .trim_start_matches('{')
                            .split("::")
                            .map(|part| part.trim().to_string())
                            .filter(|part| !part.is_empty()),
                    );
                    paths.push(item_path);
                }
            }
            paths.push(base);
            rest = &after[end..];
        }
        paths
    }

    /// The modules a file declares as its children (`mod name;`, `pub mod name;`, or a
    /// registry line `mod name { ... }`), by name.
    fn child_names(text: &str) -> Vec<String> {
        text.lines()
            .filter_map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                let at = words.iter().position(|word| *word == "mod")?;
                let name = words.get(at + 1)?.trim_end_matches(';');
                Some(name.to_string())
            })
            .collect()
    }

    /// The import graph between module files: an edge from a file to each other file whose
    /// module it names, through `crate::` or `super::`, or (from a parent) through a child's
    /// name. A file naming one of its own ancestors is not an edge: a child reads the parts
    /// its parent shares, and the parent is the child's outside, not a neighbour.
    fn import_graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = BTreeSet::new();
        source_files(&source, &mut files);
        let modules: BTreeSet<Vec<String>> = files
            .iter()
            .map(|file| module_path(&source, file))
            .collect();
        let mut graph = BTreeMap::new();
        for file in &files {
            let module = module_path(&source, file);
            let text = std::fs::read_to_string(file).unwrap();
            let mut paths = named_paths(&text, &module);
            let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
            for child in child_names(code) {
                let named = code.match_indices(&format!("{child}::")).any(|(at, _)| {
                    !code[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                        || code[..at].ends_with("self::")
                });
                if named {
                    let mut path = module.clone();
                    path.push(child);
                    paths.push(path);
                }
            }
            let mut targets = BTreeSet::new();
            for path in paths {
                let target = (1..=path.len())
                    .rev()
                    .map(|length| path[..length].to_vec())
                    .find(|prefix| modules.contains(prefix));
                if let Some(target) = target
                    && !module.starts_with(&target)
                {
                    targets.insert(target);
                }
            }
            graph.insert(module, targets);
        }
        graph
    }

    /// The strongly connected components of a graph with more than one node (Tarjan's
    /// algorithm), each sorted, in a deterministic order.
    fn cycles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<Vec<String>>> {
        struct Search<'a> {
            graph: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
            index: BTreeMap<&'a Vec<String>, usize>,
            low: BTreeMap<&'a Vec<String>, usize>,
            stack: Vec<&'a Vec<String>>,
            components: Vec<Vec<Vec<String>>>,
        }
        impl<'a> Search<'a> {
            fn visit(&mut self, node: &'a Vec<String>) {
                let number = self.index.len();
                self.index.insert(node, number);
                self.low.insert(node, number);
                self.stack.push(node);
                for next in self.graph.get(node).into_iter().flatten() {
                    if !self.index.contains_key(next) {
                        self.visit(next);
                        let low = self.low[node].min(self.low[next]);
                        self.low.insert(node, low);
                    } else if self.stack.contains(&next) {
                        let low = self.low[node].min(self.index[next]);
                        self.low.insert(node, low);
                    }
                }
                if self.low[node] == self.index[node] {
                    let at = self.stack.iter().rposition(|entry| *entry == node).unwrap();
                    let mut component: Vec<Vec<String>> = self.stack.drain(at..).cloned().collect();
                    if component.len() > 1 {
                        component.sort();
                        self.components.push(component);
                    }
                }
            }
        }
        let mut search = Search {
            graph,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            components: Vec::new(),
        };
        for node in graph.keys() {
            if !search.index.contains_key(node) {
                search.visit(node);
            }
        }
        search.components.sort();
        search.components
    }

    /// Each loop of a graph as "{a, b} through a -> b; b -> a", its modules' paths joined by
    /// `::`, for a test's failure message.
    fn described_cycles(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
        cycles(graph)
            .iter()
            .map(|component| {
                let names: Vec<String> = component.iter().map(|module| module.join("::")).collect();
                let edges: Vec<String> = component
                    .iter()
                    .flat_map(|from| {
                        graph[from]
                            .iter()
                            .filter(|to| component.contains(to))
                            .map(move |to| format!("{} -> {}", from.join("::"), to.join("::")))
                    })
                    .collect();
                format!("{{{}}} through {}", names.join(", "), edges.join("; "))
            })
            .collect()
    }

    /// The import graph between the app's rooms: each folder and each top-level file of
    /// `src/app` is one room (its `mod.rs`, the app itself, is the house around them), and an
    /// import between two files of one room is no edge.
    fn room_graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
        let room = |module: &[String]| -> Option<Vec<String>> {
            (module.len() >= 2 && module[0] == "app").then(|| module[..2].to_vec())
        };
        let mut rooms: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for (from, targets) in import_graph() {
            let Some(from_room) = room(&from) else {
                continue;
            };
            let entry = rooms.entry(from_room.clone()).or_default();
            for to_room in targets.iter().filter_map(|to| room(to)) {
                if to_room != from_room {
                    entry.insert(to_room);
                }
            }
        }
        rooms
    }

    // Rooms of the app that import each other cannot be read alone, however the files inside
    // them are arranged: a room names only the rooms below it (the vocabulary in
    // `app::command`, the board's paint in `app::board_paint`, ...), and what names every
    // room (the persisted settings, the derived results, the shell) sits on top.
    #[test]
    fn no_import_cycle_between_the_apps_rooms() {
        let graph = room_graph();
        assert!(
            graph.len() >= 15,
            "the app's rooms were not found: {:?}",
            graph.keys()
        );
        let found = described_cycles(&graph);
        assert!(found.is_empty(), "import cycles between rooms: {found:#?}");
    }

    // A room takes its own state and the parts of the app it is handed, and sends commands;
    // only the top floor (the app itself, its queries and derived results, its settings,
    // the shell and the launch) reaches into the whole app. A room that wrote
    // `impl RicochetApp` would reach every other room's state unseen by the import test,
    // since the app is every room's ancestor.
    #[test]
    fn no_room_reaches_into_the_whole_app() {
        let app = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app");
        let top_floor = [
            "mod.rs",
            "queries.rs",
            "derived.rs",
            "launch.rs",
            "settings",
            "shell",
        ];
        let mut rooms = 0;
        let mut reaching = Vec::new();
        for entry in std::fs::read_dir(&app).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            if top_floor.contains(&name.as_str()) {
                continue;
            }
            rooms += 1;
            let mut files = BTreeSet::new();
            if path.is_dir() {
                source_files(&path, &mut files);
            } else {
                files.insert(path);
            }
            for file in files {
                let text = std::fs::read_to_string(&file).unwrap();
                for (number, line) in text.lines().enumerate() {
                    let code = line.split("//").next().unwrap_or("");
                    if code.contains("RicochetApp") {
                        reaching.push(format!(
                            "{}:{}: {}",
                            file.display(),
                            number + 1,
                            line.trim()
                        ));
                    }
                }
            }
        }
        assert!(
            rooms >= 15,
            "the app's rooms were not found in {}",
            app.display()
        );
        assert!(
            reaching.is_empty(),
            "rooms naming the whole app: {reaching:#?}"
        );
    }

    /// Every function in `text` with the line it starts on and how many lines it spans, from
    /// its signature to the closing brace at its own indent.
    fn function_lengths(text: &str) -> Vec<(String, usize, usize)> {
        let lines: Vec<&str> = text.lines().collect();
        let mut found = Vec::new();
        for (start, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let indent = line.len() - trimmed.len();
            let signature = trimmed
                .strip_prefix("pub ")
                .or_else(|| trimmed.strip_prefix("pub(crate) "))
                .or_else(|| trimmed.strip_prefix("pub(super) "))
                .or_else(|| trimmed.strip_prefix("pub(in crate::app) "))
                .unwrap_or(trimmed);
            let signature = signature.strip_prefix("const ").unwrap_or(signature);
            let Some(rest) = signature.strip_prefix("fn ") else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            // A declaration without a body (a trait's required method) ends in `;` first.
            let Some(open) = (start..lines.len()).find(|&i| {
                let l = lines[i].trim_end();
                l.ends_with('{') || l.ends_with(';')
            }) else {
                continue;
            };
            if lines[open].trim_end().ends_with(';') {
                continue;
            }
            let closing = " ".repeat(indent) + "}";
            let end = (open + 1..lines.len())
                .find(|&i| lines[i].starts_with(&closing) && lines[i].len() == closing.len())
                .unwrap_or(open);
            found.push((name, start + 1, end - start + 1));
        }
        found
    }

    // A function a reader can hold in mind: none, tests and examples included, is over 150
    // lines.
    #[test]
    fn no_function_is_over_150_lines() {
        let files = project_sources();
        let mut counted = 0;
        let mut long = Vec::new();
        for file in &files {
            let text = std::fs::read_to_string(file).unwrap();
            for (name, line, length) in function_lengths(&text) {
                counted += 1;
                if length > 150 {
                    long.push(format!(
                        "{}:{line}: {name} ({length} lines)",
                        file.display()
                    ));
                }
            }
        }
        assert!(counted > 1_000, "only {counted} functions were found");
        assert!(long.is_empty(), "functions over 150 lines: {long:#?}");
    }

    // The length counter itself: a body ends at the brace at its own indent, a declaration
    // without a body is not counted.
    #[test]
    fn function_lengths_run_from_signature_to_closing_brace() {
        let text = "fn one() {\n    let x = 1;\n}\n\ntrait T {\n    fn bare(&self);\n    fn two(&self) {\n        {\n        }\n    }\n}\n";
        assert_eq!(
            function_lengths(text),
            vec![("one".to_string(), 1, 3), ("two".to_string(), 7, 4)]
        );
    }

    // Files that import each other, directly or round a longer loop, are one concern in
    // several places: a change to any can break the others, and none can be read alone.
    // Shared parts belong in a file below all of them.
    #[test]
    fn no_import_cycle_between_module_files() {
        let graph = import_graph();
        let found = described_cycles(&graph);
        assert!(found.is_empty(), "import cycles: {found:#?}");
    }

    // A file a reader can hold in mind: none of the sources or tests is over 700 lines.
    #[test]
    fn no_source_file_is_over_700_lines() {
        let files = project_sources();
        let long: Vec<String> = files
            .iter()
            .filter_map(|file| {
                let lines = std::fs::read_to_string(file).unwrap().lines().count();
                (lines > 700).then(|| format!("{} ({lines} lines)", file.display()))
            })
            .collect();
        assert!(long.is_empty(), "files over 700 lines: {long:#?}");
    }

    /// The layers of the map in this file's docs, each with its row: a layer may name only
    /// layers of an earlier row. The command line is the last row, in the binary: no file of
    /// the library can name it.
    const LAYERS: [(&str, u8); 8] = [
        ("model", 0),
        ("solver", 1),
        ("print", 1),
        ("study", 2),
        ("lesson", 2),
        ("worker", 3),
        ("app", 4),
        ("cli", 5),
    ];

    /// Where `text` (the file `name` of layer `layer`) names a layer it may not: each as
    /// `file:line names crate::other`. Comments are skipped; `testing` may be named by any
    /// layer's tests.
    fn layer_breaches(name: &str, layer: &str, text: &str) -> Vec<String> {
        let row = |layer: &str| LAYERS.iter().find(|(l, _)| *l == layer).map(|(_, r)| *r);
        let own = row(layer).unwrap();
        let mut found = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap();
            for (at, _) in code.match_indices("crate::") {
                let before = code[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                    continue;
                }
                let named: String = code[at + "crate::".len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if let Some(other) = row(&named)
                    && named != layer
                    && other >= own
                {
                    found.push(format!("{name}:{} names crate::{named}", number + 1));
                }
            }
        }
        found
    }

    // The map of the layers in the crate's docs is the code's: no file of a layer names a
    // layer on its own row or below it.
    #[test]
    fn no_layer_imports_a_layer_above_it() {
        let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut breaches = Vec::new();
        for (layer, _) in LAYERS {
            let mut files = BTreeSet::new();
            if source.join(layer).is_dir() {
                source_files(&source.join(layer), &mut files);
            }
            files.extend(
                [source.join(format!("{layer}.rs"))]
                    .into_iter()
                    .filter(|f| f.is_file()),
            );
            for file in files {
                let name = file.strip_prefix(&source).unwrap().display().to_string();
                let text = std::fs::read_to_string(&file).unwrap();
                breaches.extend(layer_breaches(&format!("src/{name}"), layer, &text));
            }
        }
        assert!(
            breaches.is_empty(),
            "layers named from below: {breaches:#?}"
        );
        // The test itself: a print file naming the solver is named with its line.
        assert_eq!(
            layer_breaches(
                "src/print/x.rs",
                "print",
                "use crate::model::Move;\nuse crate::solver::PruneReason;\n// crate::app in a comment\n"
            ),
            ["src/print/x.rs:2 names crate::solver"]
        );
    }

    // The cycle finder itself: a loop of three is named whole, a chain is not a loop.
    #[test]
    fn the_cycle_finder_names_every_file_of_a_loop() {
        let node = |name: &str| vec![name.to_string()];
        let graph = BTreeMap::from([
            (node("a"), BTreeSet::from([node("b")])),
            (node("b"), BTreeSet::from([node("c")])),
            (node("c"), BTreeSet::from([node("a"), node("d")])),
            (node("d"), BTreeSet::new()),
        ]);
        assert_eq!(cycles(&graph), vec![vec![node("a"), node("b"), node("c")]]);
        let chain = BTreeMap::from([
            (node("a"), BTreeSet::from([node("b")])),
            (node("b"), BTreeSet::new()),
        ]);
        assert!(cycles(&chain).is_empty());
    }
}
