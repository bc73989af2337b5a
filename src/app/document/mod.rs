//! The document: the board being edited, the file it belongs to, its name, its undo history
//! and whether it is a valid puzzle. Every change goes through here and moves the revision on,
//! so anything computed from the board (a solver's result, the size fields, the tile choices)
//! can be tagged with the revision it was computed on and shown only while that is current.
//!
//! Below the rooms of the window, with the parts they all share: the board as designed
//! ([`draft`]), the store of every result derived from it (`derived`), whether it is edited
//! or played ([`mode`]) and what the app keeps between runs ([`state`]).

pub mod draft;
pub mod mode;
pub mod state;

use crate::model::{ModelError, Puzzle, tiles};
use draft::{Draft, Edit, EditError, History};
use std::path::{Path, PathBuf};

/// Which revision of which document a thing was computed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Revision {
    /// Counts documents opened (a new board, a file, an import).
    document: u64,
    /// Counts changes within that document (edits, undo, redo).
    edit: u64,
}

impl Revision {
    /// Whether both revisions are of the same document, edited or not.
    pub(super) fn same_document(self, other: Revision) -> bool {
        self.document == other.document
    }

    /// The revision with these counts, for tests that tag results by hand.
    #[cfg(test)]
    pub(super) const fn at(document: u64, edit: u64) -> Revision {
        Revision { document, edit }
    }
}

/// The board being edited and everything that belongs to it.
#[derive(Clone, Debug)]
pub(super) struct Document {
    draft: Draft,
    clean: Draft,
    file: Option<PathBuf>,
    name: Option<String>,
    history: History,
    validity: Result<Puzzle, ModelError>,
    revision: Revision,
}

impl Document {
    /// A document of a board that has no file: `name` says what it is ("The deck's 22-move
    /// puzzle", a game id) and `clean` is the board as it was last saved, when known.
    pub(super) fn new(
        draft: Draft,
        clean: Option<Draft>,
        file: Option<PathBuf>,
        name: Option<String>,
    ) -> Document {
        let validity = draft.to_puzzle();
        Document {
            clean: clean.unwrap_or_else(|| draft.clone()),
            draft,
            file,
            name,
            history: History::default(),
            validity,
            revision: Revision {
                document: 0,
                edit: 0,
            },
        }
    }

    /// Replaces the whole document by another board (opened, imported, new): the history is
    /// cleared and everything derived from the old board is out of date.
    pub(super) fn replace(&mut self, draft: Draft, file: Option<PathBuf>, name: Option<String>) {
        let document = self.revision.document + 1;
        *self = Document::new(draft, None, file, name);
        self.revision = Revision { document, edit: 0 };
    }

    /// The board.
    pub(super) fn draft(&self) -> &Draft {
        &self.draft
    }

    /// The board as it was last opened or saved.
    pub(super) fn clean(&self) -> &Draft {
        &self.clean
    }

    /// The board as a puzzle, or what keeps it from being one.
    pub(super) fn validity(&self) -> &Result<Puzzle, ModelError> {
        &self.validity
    }

    /// The file the board came from or was saved to.
    pub(super) fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The current revision.
    pub(super) fn revision(&self) -> Revision {
        self.revision
    }

    /// The undo history.
    pub(super) fn history(&self) -> &History {
        &self.history
    }

    /// Whether the board has changes not saved to its file.
    pub(super) fn is_dirty(&self) -> bool {
        self.draft != self.clean
    }

    /// What to call the board: its file's name, else the name it was made or imported with,
    /// else its game id when it is a standard game, else "untitled".
    pub(super) fn name(&self) -> String {
        if let Some(file) = &self.file {
            return display_name(file);
        }
        if let Some(name) = &self.name {
            return name.clone();
        }
        self.validity
            .as_ref()
            .ok()
            .and_then(|p| crate::model::formats::game_id::write(p).ok())
            .unwrap_or_else(|| "untitled".to_string())
    }

    /// The name the board was given, when it has no file (kept between runs).
    pub(super) fn given_name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Applies an edit; returns whether the board changed.
    pub(super) fn edit(&mut self, edit: &Edit, new_step: bool) -> Result<bool, EditError> {
        let before = self.draft.clone();
        let changed = draft::apply(&mut self.draft, edit)?;
        if changed {
            if new_step || !self.history.can_undo() {
                self.history.record(before);
            }
            self.changed();
        }
        Ok(changed)
    }

    /// Takes the last edit back; returns whether there was one.
    pub(super) fn undo(&mut self) -> bool {
        match self.history.undo(&self.draft) {
            Some(previous) => {
                self.draft = previous;
                self.changed();
                true
            }
            None => false,
        }
    }

    /// Redoes the last undone edit; returns whether there was one.
    pub(super) fn redo(&mut self) -> bool {
        match self.history.redo(&self.draft) {
            Some(next) => {
                self.draft = next;
                self.changed();
                true
            }
            None => false,
        }
    }

    /// Records that the board was saved to `path`.
    pub(super) fn saved_to(&mut self, path: &Path) {
        self.file = Some(path.to_path_buf());
        self.clean = self.draft.clone();
    }

    fn changed(&mut self) {
        self.validity = self.draft.to_puzzle();
        self.revision.edit += 1;
    }

    /// The size the size fields show for this board.
    pub(super) fn size(&self) -> (u16, u16) {
        (self.draft.board.width(), self.draft.board.height())
    }

    /// The four tiles this board is built from, when it is a standard board.
    pub(super) fn tiles(&self) -> Option<[u8; 4]> {
        tiles::identify_tiles(&self.draft.board)
    }
}

/// A file's name for the status line.
pub(super) fn display_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::samples;

    #[test]
    fn every_change_moves_the_revision_on_and_a_new_board_starts_a_new_document() {
        let mut document = Document::new(
            Draft::from_puzzle(&samples::fogleman_22()),
            None,
            None,
            Some("The deck's 22-move puzzle".into()),
        );
        let start = document.revision();
        assert!(document.edit(&Edit::ClearRobots, true).unwrap());
        assert_ne!(document.revision(), start);
        assert!(document.validity().is_err());
        assert!(document.undo());
        assert!(document.validity().is_ok());
        let edited = document.revision();
        assert_eq!(edited.document, start.document);
        document.replace(Draft::empty(6, 6).unwrap(), None, None);
        assert_eq!(document.revision().document, start.document + 1);
        assert_eq!(document.size(), (6, 6));
        assert_eq!(document.name(), "untitled");
        assert!(!document.history().can_undo());
    }
}
