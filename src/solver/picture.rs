//! What the overlays draw of a search after some event: the parts every solver shares (the
//! heat map of the nodes examined, the active robot it counts, the number of events drawn)
//! and each solver's own part. It is the sum of the events so far; each solver's own events
//! draw themselves into it ([`SolverEvent::draw`](super::SolverEvent::draw)) and every event
//! is added by [`Event::draw`](super::Event::draw), so whoever keeps a picture needs no
//! knowledge of any solver.
//!
//! A solver that shows more than the heat map defines its own part in its own module: a type
//! that derives `Clone, Debug, Default, PartialEq` (so it is a [`SolverPicture`]), which its
//! events' `draw` fills through [`SearchPicture::part_mut`] and its overlay reads through
//! [`SearchPicture::part`]. This file is not edited for it; a test checks that it names no
//! solver.

use crate::model::Cell;
use std::any::{Any, TypeId};
use std::fmt;

/// One solver's own part of a [`SearchPicture`]: cloned and compared with the picture, so a
/// step back in the debugger finds it as it was. Every type that is `Clone + PartialEq +
/// Debug + Send + Sync` and `'static` is one; a solver derives those and never implements
/// this by hand.
pub trait SolverPicture: Any + Send + Sync + fmt::Debug {
    /// A copy of the part, boxed.
    fn clone_box(&self) -> Box<dyn SolverPicture>;

    /// Whether `other` is a part of the same type with the same value.
    fn eq_dyn(&self, other: &dyn SolverPicture) -> bool;

    /// The part, to be read as its own type.
    fn as_any(&self) -> &dyn Any;

    /// The part, to be changed as its own type.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + Clone + PartialEq + fmt::Debug + Send + Sync> SolverPicture for T {
    fn clone_box(&self) -> Box<dyn SolverPicture> {
        Box::new(self.clone())
    }

    fn eq_dyn(&self, other: &dyn SolverPicture) -> bool {
        other
            .as_any()
            .downcast_ref::<T>()
            .is_some_and(|other| self == other)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// The solvers' own parts of a picture, at most one of each type, in the order first drawn.
#[derive(Default)]
struct Parts(Vec<Box<dyn SolverPicture>>);

impl Parts {
    /// The part of type `T`, if some event drew one.
    fn get<T: 'static>(&self) -> Option<&T> {
        self.0
            .iter()
            .find_map(|part| (**part).as_any().downcast_ref::<T>())
    }

    /// The part of type `T`, added empty when no event drew one yet.
    fn get_or_default<T: SolverPicture + Default>(&mut self) -> &mut T {
        let at = match self.position(TypeId::of::<T>()) {
            Some(at) => at,
            None => {
                self.0.push(Box::new(T::default()));
                self.0.len() - 1
            }
        };
        (*self.0[at])
            .as_any_mut()
            .downcast_mut::<T>()
            .expect("the part found by its type is of that type")
    }

    /// Where the part of the type `id` is.
    fn position(&self, id: TypeId) -> Option<usize> {
        self.0
            .iter()
            .position(|part| (**part).as_any().type_id() == id)
    }
}

impl Clone for Parts {
    fn clone(&self) -> Parts {
        Parts(self.0.iter().map(|part| part.clone_box()).collect())
    }
}

impl fmt::Debug for Parts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.0).finish()
    }
}

impl PartialEq for Parts {
    /// Equal when both hold the same parts by value, whatever order they were drawn in.
    fn eq(&self, other: &Parts) -> bool {
        self.0.len() == other.0.len()
            && self.0.iter().all(|part| {
                other
                    .position((**part).as_any().type_id())
                    .is_some_and(|at| part.eq_dyn(&*other.0[at]))
            })
    }
}

/// What the overlays draw of a search after some event. A recorded event's picture is rebuilt
/// by applying the events up to it to the picture before the oldest one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchPicture {
    /// How often the active robot stood on each cell among the nodes examined.
    pub heat: Vec<u32>,
    /// The robot whose cells the heat map counts (`None`: every robot's).
    active: Option<usize>,
    /// How many events were drawn, so a part can tell whether its last change was made by the
    /// event just before.
    events: u64,
    /// Each solver's own part.
    parts: Parts,
}

impl SearchPicture {
    /// The picture before the first event of a search on a board of `cells` cells, counting
    /// the `active` robot's cells in the heat map (every robot's when `None`).
    pub fn new(cells: usize, active: Option<usize>) -> SearchPicture {
        SearchPicture {
            heat: vec![0; cells],
            active,
            ..SearchPicture::default()
        }
    }

    /// Counts a node whose robots stand on `cells` in the heat map: the active robot's cell,
    /// or every robot's when no robot is active.
    pub fn count_node(&mut self, cells: &[Cell]) {
        match self.active {
            Some(active) => {
                if let Some(&cell) = cells.get(active) {
                    bump(&mut self.heat, cell);
                }
            }
            None => {
                for &cell in cells {
                    bump(&mut self.heat, cell);
                }
            }
        }
    }

    /// Ends one event, which counts it.
    pub fn end_event(&mut self) {
        self.events += 1;
    }

    /// How many events were drawn: while an event draws itself, its own number from 0.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// A solver's own part of the picture, if one of its events drew it.
    pub fn part<T: SolverPicture>(&self) -> Option<&T> {
        self.parts.get::<T>()
    }

    /// A solver's own part of the picture to draw on, added empty by the first event that
    /// asks for it.
    pub fn part_mut<T: SolverPicture + Default>(&mut self) -> &mut T {
        self.parts.get_or_default::<T>()
    }
}

fn bump(heat: &mut [u32], cell: Cell) {
    if let Some(count) = heat.get_mut(usize::from(cell)) {
        *count = count.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Board;
    use crate::solver::{Event, SolverEvent};

    /// A solver's own part, as a solver outside this file defines one.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Marks {
        cells: Vec<Cell>,
    }

    /// A second part, to check that parts of different types live side by side.
    #[derive(Clone, Debug, Default, PartialEq)]
    struct Total(u32);

    /// A solver's own event that marks a cell in its part.
    #[derive(Clone, Debug, PartialEq)]
    struct Mark(Cell);

    impl SolverEvent for Mark {
        fn describe(&self, _board: &Board) -> String {
            format!("mark {}", self.0)
        }

        fn draw(&self, picture: &mut SearchPicture) {
            picture.part_mut::<Marks>().cells.push(self.0);
            picture.part_mut::<Total>().0 += 1;
        }
    }

    #[test]
    fn a_solvers_own_event_draws_its_own_part_which_clones_and_compares_by_value() {
        let mut picture = SearchPicture::new(4, Some(0));
        assert!(picture.part::<Marks>().is_none());
        Event::solver(Mark(2)).draw(&mut picture);
        Event::solver(Mark(3)).draw(&mut picture);
        assert_eq!(picture.part::<Marks>().unwrap().cells, vec![2, 3]);
        assert_eq!(picture.part::<Total>(), Some(&Total(2)));
        assert_eq!(picture.events(), 2);

        let copy = picture.clone();
        assert_eq!(copy, picture);
        assert_eq!(copy.part::<Marks>().unwrap().cells, vec![2, 3]);

        // The same events from the same start give an equal picture, not only a copy.
        let mut again = SearchPicture::new(4, Some(0));
        Event::solver(Mark(2)).draw(&mut again);
        Event::solver(Mark(3)).draw(&mut again);
        assert_eq!(again, picture);

        // A part's value tells pictures apart, with the same number of events drawn.
        let mut other = SearchPicture::new(4, Some(0));
        Event::solver(Mark(2)).draw(&mut other);
        Event::solver(Mark(1)).draw(&mut other);
        assert_ne!(other, picture);

        // A copy changed afterwards no longer equals the original, which is unchanged.
        let mut changed = picture.clone();
        changed.part_mut::<Marks>().cells.clear();
        assert_ne!(changed, picture);
        assert_eq!(picture.part::<Marks>().unwrap().cells, vec![2, 3]);

        // A missing part is a difference too, even an empty one.
        let mut with_empty = SearchPicture::new(4, Some(0));
        with_empty.part_mut::<Marks>();
        assert_ne!(with_empty, SearchPicture::new(4, Some(0)));
    }

    #[test]
    fn parts_compare_equal_whatever_order_they_were_first_drawn_in() {
        let mut first = SearchPicture::default();
        first.part_mut::<Marks>().cells.push(1);
        first.part_mut::<Total>().0 = 5;
        let mut second = SearchPicture::default();
        second.part_mut::<Total>().0 = 5;
        second.part_mut::<Marks>().cells.push(1);
        assert_eq!(first, second);
        second.part_mut::<Total>().0 = 6;
        assert_ne!(first, second);
    }

    #[test]
    fn every_event_is_counted_and_a_node_heats_the_active_robots_cell() {
        let mut picture = SearchPicture::new(4, Some(1));
        let cells = [0, 3];
        Event::Node {
            depth: 0,
            cells: crate::solver::RobotCells::new(&cells),
            path: Vec::new(),
        }
        .draw(&mut picture);
        assert_eq!(picture.heat, vec![0, 0, 0, 1]);
        assert_eq!(picture.events(), 1);
    }

    // The rule of the solver layer: a solver is its own file and a line in the registry, so
    // the core picture names none of the solvers whose parts it holds.
    #[test]
    fn the_picture_names_no_solver() {
        let text = include_str!("picture.rs");
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        let named: Vec<&str> = [
            "slide_graph",
            "graph_solver",
            "stateless",
            "engine",
            "drawing",
        ]
        .into_iter()
        .filter(|name| code.to_lowercase().contains(name))
        .collect();
        assert!(named.is_empty(), "picture.rs names {named:?}");
    }
}
