//! Playing: play mode's game ([`play`]) and its hints ([`hints`]), and a solution played back
//! on the board ([`playback`]).

pub mod hints;
pub mod play;
pub mod playback;
