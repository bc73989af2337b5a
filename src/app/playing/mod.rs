//! Playing: play mode's game ([`play`]) and its hints ([`hints`]), and a solution played back
//! on the board ([`playback`]).

pub(crate) mod hints;
pub(crate) mod play;
pub(crate) mod playback;
