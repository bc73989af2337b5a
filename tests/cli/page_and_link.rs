//! The puzzle page and its links from the command line: `export ... page.html` writes one
//! self-contained file, `share` prints a link whose fragment holds the puzzle, and
//! `--version` names the commit.

use super::common::run;
use ricochet_lab::model::formats::board_line;
use ricochet_lab::testing::board;

#[test]
fn version_names_the_version_and_the_commit() {
    let (code, out, err) = run(&["--version"]);
    assert_eq!(code, 0, "{err}");
    let line = out.trim();
    let rest = line
        .strip_prefix(&format!(
            "ricochet-lab {} (commit ",
            env!("CARGO_PKG_VERSION")
        ))
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{line}"));
    assert!(
        rest == "unknown" || (rest.len() >= 7 && rest.chars().all(|c| c.is_ascii_hexdigit())),
        "{line}"
    );
}

#[test]
fn a_page_is_one_file_that_names_no_address() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    let page = page.to_str().unwrap();
    let (code, out, err) = run(&["export", "boards/small-6x6.ron", page]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with(&format!("wrote {page} (")), "{out}");
    let html = std::fs::read_to_string(page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("\"name\":\"small-6x6\""));
    assert!(html.contains("\"optimum\":"));
    for address in ["http:", "https:", "src=", "href=", "@import", "url("] {
        assert!(!html.contains(address), "the page names {address}");
    }
    // Without a solution the page offers none; an existing page is not replaced.
    let (code, _, err) = run(&["export", "boards/small-6x6.ron", page, "--no-solution"]);
    assert_ne!(code, 0);
    assert!(err.contains("--force"), "{err}");
    let (code, out, err) = run(&[
        "export",
        "boards/small-6x6.ron",
        page,
        "--no-solution",
        "--force",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("no solution"), "{out}");
    assert!(
        std::fs::read_to_string(page)
            .unwrap()
            .contains("\"optimum\":null")
    );
}

#[test]
fn share_prints_a_link_whose_fragment_holds_the_puzzle() {
    let (code, out, err) = run(&[
        "share",
        "boards/small-6x6.ron",
        "--page",
        "https://example.org/p.html",
    ]);
    assert_eq!(code, 0, "{err}");
    let link = out.trim();
    let fragment = link
        .strip_prefix("https://example.org/p.html#puzzle=")
        .unwrap_or_else(|| panic!("{link}"));
    let line = fragment.split('&').next().unwrap();
    assert_eq!(board_line::parse(line).unwrap(), board("small-6x6.ron"));
    assert!(link.contains("&name=small-6x6"), "{link}");
    assert!(!link.contains("best="), "{link}");

    let (code, out, err) = run(&["share", "boards/hardest-25.ron", "--with-solution"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("page.html#puzzle=ricochet-lab:1:"), "{out}");
    let solution = out.trim().split("&solution=").nth(1).unwrap();
    assert_eq!(solution.split(',').count(), 25, "{out}");
    assert!(out.contains("&best=25&"), "{out}");
}
