//! The trace commands that show why a search chose what it did: `trace frontier` (the open
//! list with g, h and f, or a depth-first stack), `trace diff --rule states` (any two
//! algorithms lined up by the positions they reach), and the exports' numbers and reasons in
//! words, in Posthoc's meaning of its events.

use crate::common::run;
use std::collections::BTreeSet;
use std::path::Path;

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// Records `solver`'s search of a shipped board to `path`.
fn record(board: &str, solver: &str, path: &Path) {
    let (code, out, err) = run(&[
        "trace",
        "record",
        &format!("boards/{board}"),
        "--solver",
        solver,
        "-o",
        &shown(path),
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

/// The JSON lines export of a trace.
fn json_lines(path: &Path) -> Vec<serde_json::Value> {
    let (code, out, err) = run(&["trace", "export", &shown(path), "--format", "jsonl"]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn frontier_lists_the_open_list_in_order_and_the_next_is_what_the_search_examines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("astar.trace");
    record("small-6x6.ron", "astar", &path);
    let lines = json_lines(&path);
    let nodes: Vec<&serde_json::Value> = lines.iter().filter(|l| l["kind"] == "node").collect();
    assert!(nodes.len() > 3);
    // Before each node but the root, the frontier's next entry is that node.
    for node in &nodes[1..] {
        let before = node["index"].as_u64().unwrap() - 1;
        let (code, out, err) = run(&[
            "trace",
            "frontier",
            &shown(&path),
            "--at",
            &before.to_string(),
            "--top",
            "5",
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(json["kind"], "open-list");
        let frontier = &json["frontier"];
        let next = &frontier["next"][0];
        assert_eq!(next["cells"], node["cells"], "before event {before}: {out}");
        assert_eq!(next["g"], node["g"]);
        // f = g + h, ascending.
        let entries = frontier["next"].as_array().unwrap();
        let fs: Vec<u64> = entries
            .iter()
            .map(|e| e["g"].as_u64().unwrap() + e["h"].as_u64().unwrap())
            .collect();
        assert!(fs.windows(2).all(|w| w[0] <= w[1]), "{fs:?}");
    }
    // The text form names the order and marks the next entry.
    let at = nodes[2]["index"].as_u64().unwrap().to_string();
    let (code, out, err) = run(&["trace", "frontier", &shown(&path), "--at", &at]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("in the open list"), "{out}");
    assert!(out.contains("lowest f = g + h first"), "{out}");
    assert!(out.contains("\nnext "), "{out}");
}

#[test]
fn frontier_of_a_depth_first_search_is_its_stack_and_bad_events_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("iddfs.trace");
    record("small-6x6.ron", "iddfs", &path);
    let lines = json_lines(&path);
    let deep = lines
        .iter()
        .find(|l| l["kind"] == "node" && l["depth"] == 3)
        .unwrap();
    let at = deep["index"].as_u64().unwrap().to_string();
    let (code, out, err) = run(&["trace", "frontier", &shown(&path), "--at", &at, "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["kind"], "stack");
    let levels = json["stack"]["levels"].as_array().unwrap();
    assert_eq!(levels.len(), 4);
    assert!(json["stack"]["bound"].as_u64().is_some());
    for level in levels {
        assert!(level["h"].as_u64().is_some(), "{level}");
        assert!(!level["legal"].as_array().unwrap().is_empty());
    }
    let (code, out, err) = run(&["trace", "frontier", &shown(&path), "--at", &at]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("a stack of 4 levels, bound"), "{out}");
    assert!(out.contains("left to try"), "{out}");
    let (code, _, err) = run(&["trace", "frontier", &shown(&path), "--at", "99999999"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("there is no event 99999999"), "{err}");
}

#[test]
fn diff_by_states_lines_up_bfs_and_iddfs_at_every_number_of_moves() {
    let dir = tempfile::tempdir().unwrap();
    let (bfs, iddfs, astar) = (
        dir.path().join("bfs.trace"),
        dir.path().join("iddfs.trace"),
        dir.path().join("astar.trace"),
    );
    record("small-6x6.ron", "bfs", &bfs);
    record("small-6x6.ron", "iddfs", &iddfs);
    record("small-6x6.ron", "astar", &astar);
    let (code, out, err) = run(&[
        "trace",
        "diff",
        &shown(&bfs),
        &shown(&iddfs),
        "--rule",
        "states",
        "--json",
    ]);
    assert!(code == 0 || code == 1, "{out}{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let depths = json["depths"].as_array().unwrap();
    assert!(depths.len() >= 4, "{out}");
    for depth in depths {
        let both = depth["both"].as_u64().unwrap();
        let searched_in_both = depth["complete_in_both"].as_bool().unwrap();
        if searched_in_both {
            assert!(both > 0, "{depth}");
        }
        for key in ["only_first", "only_second"] {
            assert!(depth[key].as_u64().is_some(), "{depth}");
        }
    }
    assert_eq!(json["depths"][0]["both"], 1, "the start is in both");
    assert_eq!(json["same"].as_bool().unwrap(), code == 0);
    // The text form reads the same numbers.
    let (_, text, _) = run(&[
        "trace",
        "diff",
        &shown(&bfs),
        &shown(&iddfs),
        "--rule",
        "states",
    ]);
    assert!(
        text.contains("positions first examined at each number of moves"),
        "{text}"
    );
    assert!(text.contains("only first"), "{text}");
    // A* prunes by its estimate: it reaches fewer positions than BFS, and the comparison
    // names one, with its event.
    let (code, out, err) = run(&[
        "trace",
        "diff",
        &shown(&bfs),
        &shown(&astar),
        "--rule",
        "states",
    ]);
    assert!(code == 0 || code == 1, "{out}{err}");
    if code == 1 {
        assert!(out.contains("the first search examines "), "{out}");
        assert!(out.contains("(event "), "{out}");
    }
    // The same run twice is the same by states.
    let again = dir.path().join("again.trace");
    record("small-6x6.ron", "bfs", &again);
    let (code, out, _) = run(&[
        "trace",
        "diff",
        &shown(&bfs),
        &shown(&again),
        "--rule",
        "states",
    ]);
    assert_eq!(code, 0, "{out}");
    // --json is for the states rule.
    let (code, _, err) = run(&["trace", "diff", &shown(&bfs), &shown(&again), "--json"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn two_solvers_whose_first_iterations_are_numbered_apart_are_not_different_at_node_0() {
    let dir = tempfile::tempdir().unwrap();
    let (iddfs, fast) = (
        dir.path().join("iddfs.trace"),
        dir.path().join("fast.trace"),
    );
    record("small-6x6.ron", "iddfs", &iddfs);
    record("small-6x6.ron", "fast", &fast);
    let (_, out, _) = run(&["trace", "diff", &shown(&iddfs), &shown(&fast)]);
    assert!(!out.contains("after 0 equal nodes"), "{out}");
}

#[test]
fn the_python_bfs_engine_is_the_same_search_as_the_built_in_bfs() {
    let dir = tempfile::tempdir().unwrap();
    let (engine, bfs) = (
        dir.path().join("engine.trace"),
        dir.path().join("bfs.trace"),
    );
    let example = format!(
        "python3 {}/examples/engines/bfs.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let (code, out, err) = run(&[
        "trace",
        "record",
        "boards/small-6x6.ron",
        "--engine",
        &example,
        "-o",
        &shown(&engine),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    record("small-6x6.ron", "bfs", &bfs);
    // Node by node the two agree until the built-in search stops at the goal it generates;
    // the engine tests the goal when it examines a node, so it examines one more.
    let (code, out, err) = run(&["trace", "diff", &shown(&engine), &shown(&bfs)]);
    assert!(!out.contains("after 0 equal nodes"), "{out}{err}");
    assert!(
        code == 0 || out.contains("the second search ends here"),
        "{out}{err}"
    );
    // By the positions they reach, they are the same search.
    let (code, out, err) = run(&[
        "trace",
        "diff",
        &shown(&engine),
        &shown(&bfs),
        "--rule",
        "states",
    ]);
    assert_eq!(code, 0, "{out}{err}");
}

#[test]
fn json_lines_give_g_h_f_and_reasons_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("idastar.trace");
    record("small-6x6.ron", "idastar", &path);
    let lines = json_lines(&path);
    let node = lines.iter().find(|l| l["kind"] == "node").unwrap();
    assert_eq!(node["g"], 0);
    assert!(node["h"].as_u64().is_some(), "{node}");
    assert_eq!(node["f"], node["h"]);
    let prune = lines
        .iter()
        .find(|l| l["kind"] == "lower-bound")
        .expect("IDA* cuts nodes by their bound");
    let reason = prune["reason"].as_str().unwrap();
    assert!(reason.starts_with("lower bound "), "{reason}");
    assert!(!reason.contains('{'), "no debug text: {reason}");
    let bfs = dir.path().join("bfs.trace");
    record("small-6x6.ron", "bfs", &bfs);
    let lines = json_lines(&bfs);
    let generated = lines.iter().find(|l| l["kind"] == "generated").unwrap();
    assert_eq!(generated["depth"], 1);
    assert!(generated["h"].is_null());
}

#[test]
fn posthoc_export_generates_expands_and_closes_each_node_once() {
    let dir = tempfile::tempdir().unwrap();
    for solver in ["bfs", "astar", "iddfs"] {
        let path = dir.path().join(format!("{solver}.trace"));
        record("small-6x6.ron", solver, &path);
        let (code, yaml, err) = run(&["trace", "export", &shown(&path), "--format", "posthoc"]);
        assert_eq!(code, 0, "{err}");
        let events: Vec<&str> = yaml
            .lines()
            .filter(|l| l.trim_start().starts_with("- { type:"))
            .collect();
        let kind = |line: &str| {
            line.split("type: ")
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap()
                .trim()
                .to_string()
        };
        let id = |line: &str| {
            line.split(" id: ")
                .nth(1)
                .map(|rest| rest.split([',', ' ', '}']).next().unwrap().to_string())
        };
        assert_eq!(kind(events[0]), "destination", "{solver}");
        assert!(events.iter().any(|l| kind(l) == "source"), "{solver}");
        // Ids are unique: each is generated once, expanded at most once, closed at most once.
        let mut generated = BTreeSet::new();
        let (mut expanded, mut closed) = (BTreeSet::new(), BTreeSet::new());
        for line in &events {
            let (kind, id) = (kind(line), id(line).unwrap());
            let set = match kind.as_str() {
                "generating" => &mut generated,
                "expanding" => {
                    assert!(
                        generated.contains(&id),
                        "{solver}: {id} expanded before generated"
                    );
                    &mut expanded
                }
                "closing" => {
                    assert!(
                        expanded.contains(&id),
                        "{solver}: {id} closed before expanded"
                    );
                    &mut closed
                }
                _ => continue,
            };
            assert!(set.insert(id.clone()), "{solver}: {kind} {id} twice");
        }
        assert_eq!(
            expanded, closed,
            "{solver}: every node expanded is closed once"
        );
        // A root (each iteration's, for an iterative search) has no parent; every other node
        // names one, with g and f.
        let root = events.iter().find(|l| kind(l) == "generating").unwrap();
        assert!(
            root.contains("pId: null") && root.contains(" g: 0,"),
            "{root}"
        );
        for line in events.iter().filter(|l| kind(l) == "generating") {
            assert!(line.contains(" g: ") && line.contains(" f: "), "{line}");
            assert_eq!(
                line.contains("pId: null"),
                line.contains(" g: 0,"),
                "{line}"
            );
        }
        assert!(events.iter().any(|l| kind(l) == "end"), "{solver}");
        if solver == "iddfs" {
            assert!(
                events
                    .iter()
                    .any(|l| kind(l) == "closing" && l.contains("reason: \"")),
                "a depth-first search's prunes close with their reason"
            );
        }
    }
}
