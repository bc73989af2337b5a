//! Editing: the editor's tools and what clicks and drags on the board do while designing
//! ([`editor`]), the choices kept between runs ([`settings`]), and the New board window
//! ([`new_board`]). The board being designed and its history are the document's
//! ([`crate::app::document`]).

pub(super) mod editor;
pub(super) mod live_optimum;
pub(super) mod new_board;
mod settings;
