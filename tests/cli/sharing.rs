//! Boards that travel and solutions to share: `convert --format dd-dump/line`, puzzles given
//! as a dump or a line, and `export --animate` / `--frames`.

use crate::common::run as lab;

#[test]
fn convert_prints_a_dump_and_a_line_that_read_back_as_the_board() {
    let (code, dump, err) = lab(&[
        "convert",
        "boards/hansel-24.ron",
        "-",
        "--format",
        "dd-dump",
    ]);
    assert_eq!(code, 0, "{err}");
    let dump = dump.trim();
    assert!(dump.starts_with("!DriftingDroids_game!"), "{dump}");
    let (code, id, err) = lab(&["convert", dump, "-"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(id.trim(), "0765+42+2E21BD0F+93");
    let (code, line, err) = lab(&["convert", "boards/small-6x6.ron", "-", "--format", "line"]);
    assert_eq!(code, 0, "{err}");
    let dir = tempfile::tempdir().unwrap();
    let back = dir.path().join("back.ron");
    let (code, _, err) = lab(&["convert", line.trim(), back.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let original =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/boards/small-6x6.ron"))
            .unwrap();
    assert_eq!(std::fs::read_to_string(&back).unwrap(), original);
}

#[test]
fn a_corrupt_dump_is_a_clear_error_and_writes_nothing() {
    let (_, dump, _) = lab(&[
        "convert",
        "boards/hansel-24.ron",
        "-",
        "--format",
        "dd-dump",
    ]);
    let dump = dump.trim();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.ron");
    let cut = &dump[..dump.len() / 2];
    let (code, _, err) = lab(&["convert", cut, out.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("DriftingDroids dump"), "{err}");
    assert!(!out.exists());
    // One character changed: the check sum no longer matches.
    let at = dump.len() - 5;
    let replacement = if &dump[at..=at] == "A" { "B" } else { "A" };
    let changed = format!("{}{replacement}{}", &dump[..at], &dump[at + 1..]);
    let (code, _, err) = lab(&["convert", &changed, out.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains("check sum"), "{err}");
    assert!(!out.exists());
}

#[test]
fn a_puzzle_with_rules_has_no_dump_and_the_error_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let ruled = dir.path().join("ruled.ron");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/boards/hardest-25.ron"
    ))
    .unwrap()
    .replace("ricochet: false", "ricochet: true");
    std::fs::write(&ruled, text).unwrap();
    let (code, out, err) = lab(&[
        "convert",
        ruled.to_str().unwrap(),
        "-",
        "--format",
        "dd-dump",
    ]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("carries no rules"), "{err}");
    // The line keeps the rules.
    let (code, line, err) = lab(&["convert", ruled.to_str().unwrap(), "-", "--format", "line"]);
    assert_eq!(code, 0, "{err}");
    let back = dir.path().join("back.ron");
    lab(&["convert", line.trim(), back.to_str().unwrap()]);
    assert!(
        std::fs::read_to_string(back)
            .unwrap()
            .contains("ricochet: true")
    );
}

#[test]
fn export_animate_writes_a_gif_of_one_frame_per_position() {
    let dir = tempfile::tempdir().unwrap();
    let gif = dir.path().join("solution.gif");
    let (code, out, err) = lab(&[
        "export",
        "boards/small-6x6.ron",
        gif.to_str().unwrap(),
        "--animate",
        "--side-px",
        "240",
        "--delay-ms",
        "300",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("moves"), "{out}");
    let before = &out[..out.find(" moves: ").unwrap_or_else(|| panic!("{out}"))];
    let moves: usize = before.rsplit(' ').next().unwrap().parse().unwrap();
    let bytes = std::fs::read(&gif).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
    // The logical screen is the asked side, and there is one image per position.
    assert_eq!(u16::from_le_bytes([bytes[6], bytes[7]]), 240);
    let images = count_gif_images(&bytes);
    assert_eq!(images, moves + 1, "{out}");
}

/// The number of image descriptors in a GIF, walked block by block.
fn count_gif_images(bytes: &[u8]) -> usize {
    let flags = bytes[10];
    let mut at = 13;
    if flags & 0x80 != 0 {
        at += 3 << ((flags & 7) + 1);
    }
    let skip_sub_blocks = |mut at: usize| {
        while bytes[at] != 0 {
            at += usize::from(bytes[at]) + 1;
        }
        at + 1
    };
    let mut images = 0;
    loop {
        match bytes[at] {
            0x21 => at = skip_sub_blocks(at + 2),
            0x2C => {
                images += 1;
                let local = bytes[at + 9];
                at += 10;
                if local & 0x80 != 0 {
                    at += 3 << ((local & 7) + 1);
                }
                at = skip_sub_blocks(at + 1);
            }
            0x3B => return images,
            other => panic!("unexpected block 0x{other:02X} at {at}"),
        }
    }
}

#[test]
fn export_frames_and_apng_take_given_moves_and_refuse_wrong_ones() {
    let dir = tempfile::tempdir().unwrap();
    let frames = dir.path().join("frames");
    let (code, _, err) = lab(&[
        "export",
        "boards/small-6x6.ron",
        frames.to_str().unwrap(),
        "--frames",
        "--side-px",
        "120",
    ]);
    assert_eq!(code, 0, "{err}");
    let mut names: Vec<String> = std::fs::read_dir(&frames)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.len() >= 2, "{names:?}");
    assert_eq!(names[0], "frame-00.png");
    let first = image::open(frames.join(&names[0])).unwrap();
    assert_eq!(first.width().max(first.height()), 120);
    // A folder that holds files is not written over without --force.
    let (code, _, err) = lab(&[
        "export",
        "boards/small-6x6.ron",
        frames.to_str().unwrap(),
        "--frames",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("--force"), "{err}");
    // Moves that do not solve the puzzle are refused, and nothing is written.
    let apng = dir.path().join("wrong.png");
    let (code, _, err) = lab(&[
        "export",
        "boards/small-6x6.ron",
        apng.to_str().unwrap(),
        "--animate",
        "--moves",
        "GE",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("do not solve"), "{err}");
    assert!(!apng.exists());
}

#[test]
fn an_animation_into_a_missing_folder_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let gif = dir.path().join("no-such-folder").join("solution.gif");
    let (code, _, err) = lab(&[
        "export",
        "boards/small-6x6.ron",
        gif.to_str().unwrap(),
        "--animate",
        "--side-px",
        "100",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("no-such-folder"), "{err}");
}
