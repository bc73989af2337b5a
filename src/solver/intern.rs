//! Text kept for the life of the program: the names of engines and of their counters and
//! prune reasons, which the solver layer's reports and events hold as `&'static str`.
//!
//! Both an engine's answers and a trace file's events bring such names from outside the
//! program, so the table bounds what it keeps: each distinct text once, at most
//! [`MAX_INTERNED`] of them and [`MAX_INTERNED_BYTES`] in all, and a name from outside is cut
//! to [`NAME_CHARS`] characters ([`intern_name`]) before it is kept.

use std::sync::Mutex;

/// The most distinct texts [`intern`] keeps.
pub const MAX_INTERNED: usize = 4096;

/// The most bytes [`intern`] keeps in all: past it, a new text is kept as `"other"`.
pub const MAX_INTERNED_BYTES: usize = 1024 * 1024;

/// The longest counter name or prune reason from outside the program that is kept
/// ([`intern_name`]); longer ones are cut.
pub const NAME_CHARS: usize = 32;

/// The texts kept so far and their bytes.
struct Kept {
    texts: Vec<&'static str>,
    bytes: usize,
}

static KEPT: Mutex<Kept> = Mutex::new(Kept {
    texts: Vec::new(),
    bytes: 0,
});

/// `text`, kept for the life of the program. Each distinct text is kept once; once
/// [`MAX_INTERNED`] texts or [`MAX_INTERNED_BYTES`] bytes are kept, a new one is `"other"`, so
/// a source that invents new names cannot grow the program without bound.
pub fn intern(text: &str) -> &'static str {
    // The table only grows by whole entries, consistent after any panic that left it locked.
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(found) = kept.texts.iter().find(|k| **k == text) {
        return found;
    }
    if kept.texts.len() >= MAX_INTERNED || kept.bytes + text.len() > MAX_INTERNED_BYTES {
        return "other";
    }
    let leaked: &'static str = Box::leak(text.to_string().into_boxed_str());
    kept.texts.push(leaked);
    kept.bytes += leaked.len();
    leaked
}

/// A name from outside the program (an engine's counter or prune reason, one read from a
/// trace), cut to [`NAME_CHARS`] characters and kept as [`intern`] keeps it.
pub fn intern_name(text: &str) -> &'static str {
    match text.char_indices().nth(NAME_CHARS) {
        Some((cut, _)) => intern(&text[..cut]),
        None => intern(text),
    }
}

/// The bytes of every text kept so far: what the table costs.
pub fn interned_bytes() -> usize {
    KEPT.lock().unwrap_or_else(|e| e.into_inner()).bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_name_is_kept_cut_to_its_bound() {
        let long = "é".repeat(10_000);
        let kept = intern_name(&long);
        assert_eq!(kept.chars().count(), NAME_CHARS);
        assert!(long.starts_with(kept));
        assert!(std::ptr::eq(kept, intern_name(&long)), "kept once");
    }

    #[test]
    fn a_text_past_the_table_s_bytes_is_other() {
        assert_eq!(intern(&"x".repeat(MAX_INTERNED_BYTES + 1)), "other");
        assert!(interned_bytes() <= MAX_INTERNED_BYTES);
    }
}
