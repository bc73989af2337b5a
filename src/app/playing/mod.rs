//! Playing: play mode's game ([`play`]) and its hints ([`hints`]), and a solution played back
//! on the board ([`playback`]).

pub(super) mod hints;
pub(super) mod hot_cold;
pub(super) mod play;
pub(super) mod playback;
