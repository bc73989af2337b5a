//! The served engine's tests: requests in, answers out, in memory.

use super::*;

#[test]
fn a_served_solver_answers_the_pages_session() {
    let requests = "rep 1\nisready\npuzzle id=p1 size=4x3 walls=d1139002c446 closed=- robots=R@0,0;B@3,2 goal=R@3,0 targets=R:circle@3,0 rules=-\ngo depth=20 events=1\nquit\n";
    let out = serve_text(SolverId::Bfs, requests);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"id name=bfs"), "{out}");
    assert!(lines.contains(&"repok 1"), "{out}");
    assert!(lines.contains(&"readyok"), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("row level=")), "{out}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("node path=- robots=R@0,0;B@3,2")),
        "{out}"
    );
    assert_eq!(lines.last(), Some(&"result id=p1 solved RE"), "{out}");
}

/// Every line a served engine writes begins with a word of the page.
fn assert_every_line_is_an_answer(out: &str) {
    for line in out.lines() {
        assert!(
            matches!(protocol::parse_answer(line), Ok(Some(_))),
            "a line that is no answer: {line:?} in\n{out}"
        );
    }
}

fn serve_bytes(solver: SolverId, requests: &[u8]) -> String {
    let mut out = Vec::new();
    let _ = serve(solver, requests, &mut out);
    String::from_utf8(out).expect("a served engine writes UTF-8 text")
}

#[test]
fn a_line_that_is_not_utf8_is_named_and_the_next_request_answered() {
    let out = serve_bytes(
        SolverId::Bfs,
        b"rep 1\n\xffabc\ninfo string caf\xe9\nisready\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    // The reader answers `isready` itself, so it may come before the handshake's lines.
    assert!(lines.contains(&"readyok"), "{out}");
    assert!(lines.contains(&"repok 1"), "{out}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.starts_with("info string ignored: the line is not UTF-8 text"))
            .count(),
        2,
        "{out}"
    );
    assert_every_line_is_an_answer(&out);
}

#[test]
fn a_malformed_puzzle_clears_the_one_before_and_says_so() {
    let puzzle = protocol::format_puzzle("p1", &crate::testing::small());
    let out = serve_text(
        SolverId::Bfs,
        &format!("rep 1\n{puzzle}\npuzzle id=p2 size=banana\ngo\nquit\n"),
    );
    assert!(
        out.contains("info string puzzle ignored: ") && out.contains("puzzle p1 is cleared"),
        "{out}"
    );
    assert_eq!(
        out.lines().last(),
        Some("result id=- gaveup no puzzle was sent"),
        "{out}"
    );
    assert_every_line_is_an_answer(&out);
}

#[test]
fn a_malformed_go_is_answered_with_gaveup_and_the_reason() {
    let puzzle = protocol::format_puzzle("p1", &crate::testing::small());
    let out = serve_text(
        SolverId::Bfs,
        &format!("rep 1\n{puzzle}\ngo depth=-1\ngo time=abc\nquit\n"),
    );
    let results: Vec<&str> = out.lines().filter(|l| l.starts_with("result")).collect();
    assert_eq!(results.len(), 2, "{out}");
    assert!(
        results[0].starts_with("result id=p1 gaveup malformed go: depth=-1"),
        "{out}"
    );
    assert!(results[1].contains("time=abc"), "{out}");
    assert_every_line_is_an_answer(&out);
}

#[test]
fn a_line_past_one_mebibyte_is_skipped_with_a_word() {
    let mut requests = b"rep 1\ninfo string ".to_vec();
    requests.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
    requests.extend_from_slice(b"\nisready\n");
    let out = serve_bytes(SolverId::Bfs, &requests);
    assert!(out.contains("longer than 1 MiB"), "{out}");
    assert!(out.lines().any(|l| l == "readyok"), "{out}");
    assert!(out.len() < 10_000, "the long line is not echoed whole");
}

#[test]
fn a_depth_limit_below_the_optimum_is_none_within_it() {
    let puzzle = crate::testing::small();
    let requests = format!(
        "rep 1\n{}\ngo depth=3\nquit\n",
        protocol::format_puzzle("q", &puzzle)
    );
    for solver in [SolverId::Bfs, SolverId::Iddfs] {
        let out = serve_text(solver, &requests);
        assert_eq!(
            out.lines().last(),
            Some("result id=q none 3"),
            "{solver}: {out}"
        );
    }
}

// Problem: `rep 2` and `isready` in one write could be answered `readyok` before the `id` and
// `repok` lines, as the reader answered `isready` while the loop still wrote the handshake.
#[test]
fn isready_after_a_handshake_is_answered_after_its_lines() {
    for _ in 0..50 {
        let out = serve_text(SolverId::Fast, "rep 2\nisready\nquit\n");
        let lines: Vec<&str> = out.lines().collect();
        let repok = lines.iter().position(|l| l.starts_with("repok"));
        let readyok = lines.iter().position(|l| *l == "readyok");
        assert!(repok.is_some() && readyok > repok, "{out}");
    }
}
