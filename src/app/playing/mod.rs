//! Playing: play mode's game ([`play`]) and its hints ([`hints`]), and a solution played back
//! on the board ([`playback`]), which `export_animation` writes as an animation to share.

pub(super) mod export_animation;
pub(super) mod hints;
pub(super) mod hot_cold;
pub(super) mod play;
pub(super) mod playback;
