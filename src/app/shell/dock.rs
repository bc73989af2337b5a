//! The tabs of the solver dock.

/// Which tab of the solver dock shows below its controls.
///
/// Its buttons are drawn from [`DockTab::ALL`]. A new tab fails to compile until
/// [`title`](DockTab::title), [`place`](DockTab::place) and the dock's `match` name it; the
/// check under `ALL` fails until `ALL` holds it at its place; and a tab left out of `ALL`
/// altogether has no button that makes it, which the dead-code lint (an error under CI's
/// clippy) reports, as the type is private to the crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::app) enum DockTab {
    /// The run's result, rows and playback.
    Run,
    /// The debugger.
    Debugger,
    /// The debugged run's search as a tree.
    Tree,
    /// The overlay layers and their legends.
    Overlays,
    /// The open lesson's page of text, or the lessons to open.
    Lesson,
}

impl DockTab {
    /// Every tab, in the order of its button.
    pub(super) const ALL: [DockTab; 5] = [
        DockTab::Run,
        DockTab::Debugger,
        DockTab::Tree,
        DockTab::Overlays,
        DockTab::Lesson,
    ];

    /// The button's text, which is also its accessible label.
    pub(super) const fn title(self) -> &'static str {
        match self {
            DockTab::Run => "Run",
            DockTab::Debugger => "Debugger",
            DockTab::Tree => "Search tree",
            DockTab::Overlays => "Overlays",
            DockTab::Lesson => "Lesson",
        }
    }

    /// Its place in [`DockTab::ALL`].
    pub(super) const fn place(self) -> usize {
        match self {
            DockTab::Run => 0,
            DockTab::Debugger => 1,
            DockTab::Tree => 2,
            DockTab::Overlays => 3,
            DockTab::Lesson => 4,
        }
    }
}

// Each entry of `ALL` stands at its own place, so no tab is listed twice and the order is the
// one `place` gives.
const _: () = {
    let mut at = 0;
    while at < DockTab::ALL.len() {
        assert!(
            DockTab::ALL[at].place() == at,
            "DockTab::ALL is out of place"
        );
        at += 1;
    }
};

/// The title of every tab of the solver dock, in the order of its button: a new tab is listed
/// by being in `DockTab::ALL`, and the layout tour visits every one.
pub fn dock_tab_titles() -> Vec<&'static str> {
    DockTab::ALL.iter().map(|tab| tab.title()).collect()
}
