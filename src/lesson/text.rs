//! A lesson's page of text, read as Markdown's simplest parts: headings, list items and
//! paragraphs. Lines of one paragraph are joined, so that a teacher wraps them where they
//! like; a blank line ends a paragraph.

/// One block of a lesson's text, in reading order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextBlock {
    /// A line starting with `#` (any number of them).
    Heading(String),
    /// A paragraph: its lines joined by spaces.
    Paragraph(String),
    /// A list item starting with `- `, `* ` or a number and `. ` (`1. `); its mark is kept
    /// as written (`-` shows as a bullet), and the lines after it up to a blank line, another
    /// item or a heading are joined to it.
    Item {
        /// `•` for an unnumbered item, or the number and its dot (`1.`).
        mark: String,
        /// The item's text.
        text: String,
    },
}

/// The blocks of a lesson's text. Each line is trimmed first, so the text may be indented
/// in its file as the file's other fields are.
pub fn blocks(text: &str) -> Vec<TextBlock> {
    let mut blocks = Vec::new();
    // The block being gathered, which the next plain line continues.
    let mut open: Option<TextBlock> = None;
    for line in text.lines().map(str::trim) {
        if line.is_empty() {
            blocks.extend(open.take());
        } else if let Some(heading) = line.strip_prefix('#') {
            blocks.extend(open.take());
            blocks.push(TextBlock::Heading(
                heading.trim_start_matches('#').trim().to_string(),
            ));
        } else if let Some((mark, rest)) = item_start(line) {
            blocks.extend(open.take());
            open = Some(TextBlock::Item {
                mark,
                text: rest.to_string(),
            });
        } else {
            match &mut open {
                Some(TextBlock::Paragraph(text) | TextBlock::Item { text, .. }) => {
                    text.push(' ');
                    text.push_str(line);
                }
                Some(TextBlock::Heading(_)) | None => {
                    blocks.extend(open.take());
                    open = Some(TextBlock::Paragraph(line.to_string()));
                }
            }
        }
    }
    blocks.extend(open);
    blocks
}

/// The mark and the rest of a line that starts a list item.
fn item_start(line: &str) -> Option<(String, &str)> {
    if let Some(rest) = line.strip_prefix("- ").or_else(|| line.strip_prefix("* ")) {
        return Some(("•".to_string(), rest.trim_start()));
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    let rest = line[digits..].strip_prefix(". ")?;
    (digits > 0).then(|| (format!("{}.", &line[..digits]), rest.trim_start()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_items_and_paragraphs_are_told_apart_and_wrapped_lines_joined() {
        let text = "
            # What to look at
            Solve with bfs,
            then with iddfs.

            1. How many nodes
               does bfs examine?
            2. And iddfs?
            - a bullet
            ## Answers
            Last line";
        assert_eq!(
            blocks(text),
            vec![
                TextBlock::Heading("What to look at".into()),
                TextBlock::Paragraph("Solve with bfs, then with iddfs.".into()),
                TextBlock::Item {
                    mark: "1.".into(),
                    text: "How many nodes does bfs examine?".into()
                },
                TextBlock::Item {
                    mark: "2.".into(),
                    text: "And iddfs?".into()
                },
                TextBlock::Item {
                    mark: "•".into(),
                    text: "a bullet".into()
                },
                TextBlock::Heading("Answers".into()),
                TextBlock::Paragraph("Last line".into()),
            ]
        );
    }

    #[test]
    fn a_number_without_its_dot_and_space_is_plain_text() {
        assert_eq!(
            blocks("22 moves.\n3.5 is not an item"),
            vec![TextBlock::Paragraph("22 moves. 3.5 is not an item".into())]
        );
    }
}
