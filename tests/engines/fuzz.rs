//! Fuzzed protocol lines, valid and malformed, UTF-8 or not: into `engine serve` (each
//! request answered, nothing else said, no silent exit) and into the driver from an engine
//! replaying them (a report or a clear error for each search, within its time limit plus the
//! grace). The suite runs a short version; `RICOCHET_FUZZ_LINES=100000` runs the long one.

use ricochet_lab::model::Puzzle;
use ricochet_lab::solver::engine::{Engine, EngineSpec, protocol, serve, test_puzzle};
use ricochet_lab::solver::{Event, Limits, Probe, SolverId, SolverOptions};
use std::path::Path;
use std::time::{Duration, Instant};

/// How many fuzzed lines a test sends: `RICOCHET_FUZZ_LINES`, or `short` in the suite.
fn fuzz_lines(short: usize) -> usize {
    std::env::var("RICOCHET_FUZZ_LINES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(short)
}

/// A small deterministic generator (xorshift64*), so that a failure can be replayed.
struct Fuzz(u64);

impl Fuzz {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One line from `templates`, often mutated: bytes changed (to any byte, so often not
    /// UTF-8), inserted, cut out, or the line cut short; now and then pure noise. Never an end
    /// of line or a NUL inside.
    fn line(&mut self, templates: &[String]) -> Vec<u8> {
        let mut line = if self.below(12) == 0 {
            (0..self.below(40)).map(|_| self.next() as u8).collect()
        } else {
            templates[self.below(templates.len())].clone().into_bytes()
        };
        for _ in 0..self.below(4) {
            let at = if line.is_empty() {
                0
            } else {
                self.below(line.len())
            };
            match self.below(5) {
                0 if !line.is_empty() => line[at] = self.next() as u8,
                1 => line.insert(at, self.next() as u8),
                2 if !line.is_empty() => {
                    let end = (at + 1 + self.below(8)).min(line.len());
                    line.drain(at..end);
                }
                3 => line.truncate(at),
                _ => {
                    let digits = self.next().to_string();
                    line.splice(at..at, digits.bytes().take(1 + self.below(20)));
                }
            }
        }
        for byte in &mut line {
            if *byte == b'\n' || *byte == 0 {
                *byte = b'x';
            }
        }
        line
    }
}

fn request_templates(puzzle: &Puzzle) -> Vec<String> {
    [
        "rep 1",
        "isready",
        "go",
        "go depth=3",
        "go depth=-1",
        "go time=50 events=1",
        "go depth=2 time=abc",
        "stop",
        "frobnicate widgets=3",
        "info string café",
    ]
    .iter()
    .map(|t| t.to_string())
    .chain([
        protocol::format_puzzle("p1", puzzle),
        protocol::format_puzzle("p2", &ricochet_lab::testing::small()),
    ])
    .collect()
}

/// The first word of a line as `engine serve` reads it.
fn command(line: &str) -> &str {
    line.split([' ', '\t'])
        .find(|w| !w.is_empty())
        .unwrap_or("")
}

#[test]
fn fuzzed_requests_never_silence_engine_serve() {
    let puzzle = test_puzzle();
    let templates = request_templates(&puzzle);
    let mut fuzz = Fuzz(0x5EED_0001);
    let total = fuzz_lines(2_000);
    let mut sent = 0;
    while sent < total {
        let batch: Vec<Vec<u8>> = (0..50).map(|_| fuzz.line(&templates)).collect();
        sent += batch.len();
        // What the batch asks for, up to a `quit` (after which nothing is answered).
        let mut ready_asked = 0;
        let mut go_asked = 0;
        let mut input = b"rep 1\n".to_vec();
        for line in &batch {
            input.extend_from_slice(line);
            input.push(b'\n');
            let text = String::from_utf8_lossy(line);
            let text = text.strip_suffix('\r').unwrap_or(&text);
            let valid = std::str::from_utf8(line).is_ok();
            match (valid, protocol::parse_request(text)) {
                (true, Ok(Some(protocol::Request::Quit))) => break,
                (true, Ok(Some(protocol::Request::IsReady))) => ready_asked += 1,
                (_, Ok(Some(protocol::Request::Go(_)))) | (_, Err(_)) if command(text) == "go" => {
                    go_asked += 1
                }
                _ => {}
            }
        }
        input.extend_from_slice(b"isready\n");
        ready_asked += 1;
        let (sender, receiver) = std::sync::mpsc::channel();
        let request_bytes = input.clone();
        std::thread::spawn(move || {
            let mut out = Vec::new();
            let result = serve::serve(SolverId::Bfs, request_bytes.as_slice(), &mut out);
            let _ = sender.send((result.is_ok(), out));
        });
        let shown = String::from_utf8_lossy(&input).into_owned();
        let Ok((ok, out)) = receiver.recv_timeout(Duration::from_secs(20)) else {
            panic!("engine serve hung (or panicked) on:\n{shown}");
        };
        assert!(ok, "engine serve failed on:\n{shown}");
        let out = String::from_utf8(out).expect("engine serve writes UTF-8 text");
        for line in out.lines() {
            assert!(
                matches!(protocol::parse_answer(line), Ok(Some(_))),
                "a line that is no answer: {line:?}, to:\n{shown}"
            );
        }
        let count = |word: &str| out.lines().filter(|l| command(l) == word).count();
        assert_eq!(
            count("readyok"),
            ready_asked,
            "isready unanswered:\n{shown}\n---\n{out}"
        );
        assert_eq!(
            count("result"),
            go_asked,
            "go unanswered:\n{shown}\n---\n{out}"
        );
    }
}

fn answer_templates() -> Vec<String> {
    [
        "row depth=1 nodes=4 time=0",
        "row level=2 nodes=9 inner=3 hits=1",
        "row depth=x nodes=1",
        "node path=- robots=R@0,0;B@3,2",
        "node path=RE robots=R@3,0;B@3,2 h=2",
        "node path=RE,BN robots=R@3,0",
        "prune path=RE reason=bound bound=3 remaining=2",
        "prune path=- reason=seen",
        "info string searching",
        "info string caf\u{e9}",
        "id name=other",
        "readyok",
        "result id=p9 solved RE",
        "result id=p1 unsolvable",
        "result id=p1 none 3",
        "frobnicate 3",
    ]
    .iter()
    .map(|t| t.to_string())
    .collect()
}

/// Asks for events, so that node and prune lines are read as such.
struct Events;

impl Probe for Events {
    fn wants_events(&self) -> bool {
        true
    }

    fn event(&mut self, event: impl FnOnce() -> Event) {
        drop(event());
    }
}

fn replay_engine(batches: &[Vec<Vec<u8>>], folder: &Path, start: usize) -> EngineSpec {
    let file = folder.join(format!("batches-{start}"));
    let mut bytes = Vec::new();
    for batch in batches {
        for line in batch {
            bytes.extend_from_slice(line);
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(b"\0\n");
    }
    std::fs::write(&file, bytes).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/replay_engine.py");
    EngineSpec {
        name: "replay".into(),
        command: vec![
            "python3".into(),
            script.display().to_string(),
            file.display().to_string(),
        ],
        dir: None,
        options: Vec::new(),
    }
}

#[test]
fn fuzzed_engine_output_gives_the_driver_a_report_or_a_clear_error() {
    let folder = tempfile::tempdir().unwrap();
    let templates = answer_templates();
    let mut fuzz = Fuzz(0x5EED_0002);
    let batches: Vec<Vec<Vec<u8>>> = (0..fuzz_lines(400).div_ceil(20))
        .map(|_| (0..20).map(|_| fuzz.line(&templates)).collect())
        .collect();
    let limits = Limits {
        time: Some(Duration::from_secs(2)),
        ..Limits::default()
    };
    let puzzle = test_puzzle();
    let mut index = 0;
    let (mut errors, mut reports) = (0, 0);
    while index < batches.len() {
        let spec = replay_engine(&batches[index..], folder.path(), index);
        let mut engine = Engine::start(&spec).expect("the replay engine starts");
        while index < batches.len() {
            let started = Instant::now();
            let result = engine.solve(&puzzle, &SolverOptions::default(), &limits, &mut Events);
            let took = started.elapsed();
            assert!(
                took < Duration::from_secs(4),
                "batch {index} took {took:?}: {:?}",
                batches[index]
            );
            index += 1;
            match result {
                Ok(_) => reports += 1,
                Err(error) => {
                    let text = error.to_string();
                    assert!(text.starts_with("engine 'replay': "), "{text}");
                    errors += 1;
                    break;
                }
            }
        }
        engine.kill();
    }
    assert_eq!(reports + errors, batches.len());
}
