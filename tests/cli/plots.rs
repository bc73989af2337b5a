//! `bench --plot` and `match --plot`: their charts written as SVG or PNG by the extension, and a
//! name of neither refused before anything runs.

use crate::common::run_in;
use std::path::Path;

/// Runs the program in `dir` with the words of `command`, drawing into `plot` there.
fn plotted(dir: &Path, command: &str, plot: &str) -> (i32, String, String) {
    let mut words: Vec<&str> = command.split_whitespace().collect();
    words.extend(["--plot", plot]);
    run_in(dir, &words)
}

/// The picture `name` in `dir`: an SVG holding each of `texts` as a line (the SVG writer puts
/// a text element's content on a line of its own), or a PNG.
fn picture_with(dir: &Path, name: &str, texts: &[&str]) -> String {
    let bytes = std::fs::read(dir.join(name)).unwrap();
    if name.ends_with(".png") {
        assert_eq!(&bytes[1..4], b"PNG", "{name}");
        return String::new();
    }
    let svg = String::from_utf8(bytes).unwrap();
    assert!(
        svg.starts_with("<svg"),
        "{name}: {}",
        &svg[..60.min(svg.len())]
    );
    for text in texts {
        assert!(svg.contains(&format!("\n{text}\n")), "{text} in {name}");
    }
    svg
}

#[test]
fn bench_plots_each_solvers_time_per_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let boards = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards");
    let command = format!(
        "bench --solvers bfs,iddfs --puzzles small-6x6,five-robots --boards {}",
        boards.display()
    );
    for name in ["bench.svg", "bench.png"] {
        let (code, out, err) = plotted(dir.path(), &command, name);
        assert_eq!(code, 0, "{out}{err}");
        // The tables still go to standard output, the note to standard error.
        assert!(out.contains("| small-6x6 | bfs |"), "{out}");
        assert!(
            err.contains(&format!("wrote the time plot to {name}")),
            "{err}"
        );
        let texts = ["small-6x6", "five-robots", "bfs", "iddfs", "puzzle", "time"];
        picture_with(dir.path(), name, &texts);
    }
}

#[test]
fn match_plots_the_ratio_and_its_interval_as_the_match_went() {
    let dir = tempfile::tempdir().unwrap();
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("boards/suites/length-05.suite");
    let text = std::fs::read_to_string(suite).unwrap();
    let six: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(6)
        .collect();
    std::fs::write(dir.path().join("six.suite"), six.join("\n") + "\n").unwrap();
    for name in ["ratio.svg", "ratio.png"] {
        let command = "match --solvers bfs,iddfs --suite six.suite";
        let (code, out, err) = plotted(dir.path(), command, name);
        assert_eq!(code, 0, "{out}{err}");
        assert!(
            err.contains(&format!("wrote the ratio plot to {name}")),
            "{err}"
        );
        let texts = ["iddfs / bfs", "puzzles timed by both", "time ratio"];
        let svg = picture_with(dir.path(), name, &texts);
        // The interval's two dashed bounds and the line at 1, in an SVG.
        assert!(name.ends_with(".png") || svg.matches("stroke-dasharray").count() >= 3);
    }
}

#[test]
fn a_plot_name_of_no_picture_format_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let commands = [
        ("bench --solvers bfs", "times.pdf"),
        ("match --solvers bfs,iddfs --suite none.suite", "ratio.txt"),
    ];
    for (command, name) in commands {
        let (code, out, err) = plotted(dir.path(), command, name);
        assert_eq!(code, 1, "{command}: {out}{err}");
        assert!(
            err.contains(name) && err.contains(".svg"),
            "{command}: {err}"
        );
        assert!(out.is_empty(), "{command}: {out}");
        assert!(!dir.path().join(name).exists());
    }
}
