//! The robots' colours and the letters that tell them apart without colour.
//!
//! Two palettes: the game's own colours and the Okabe–Ito colours, which stay apart for the
//! common colour vision deficiencies (red–green above all). The chosen palette is a display
//! preference the whole program shares, as a theme is: the app sets it from its settings and
//! the command line from `--palette`, and every board drawn afterwards (in the window, printed
//! or animated) takes it. Robots and targets carry their colour's letter in every palette, so
//! no pair is told apart by colour alone.

use super::{Anchor, Item, Point, Rgb, Role};
use crate::model::{RobotColor, TargetColor};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU8, Ordering};

/// A set of robot colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RobotPalette {
    /// The game's colours: red, green, blue, yellow and silver.
    #[default]
    Classic,
    /// Okabe and Ito's colours for readers with a colour vision deficiency: vermillion, bluish
    /// green, blue, yellow, and a light grey for silver, whose closest pair stays far apart
    /// under simulated deuteranopia and protanopia.
    OkabeIto,
}

impl RobotPalette {
    /// Every palette, in the order menus list them.
    pub const ALL: [RobotPalette; 2] = [RobotPalette::Classic, RobotPalette::OkabeIto];

    /// The palette's name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            RobotPalette::Classic => "classic",
            RobotPalette::OkabeIto => "okabe-ito",
        }
    }

    /// The palette named `name` on the command line.
    pub fn from_name(name: &str) -> Option<RobotPalette> {
        RobotPalette::ALL.into_iter().find(|p| p.name() == name)
    }

    /// A robot's body colour in this palette.
    pub const fn rgb(self, color: RobotColor) -> Rgb {
        match (self, color) {
            (RobotPalette::Classic, RobotColor::Red) => Rgb(214, 48, 49),
            (RobotPalette::Classic, RobotColor::Green) => Rgb(46, 160, 67),
            (RobotPalette::Classic, RobotColor::Blue) => Rgb(41, 98, 214),
            (RobotPalette::Classic, RobotColor::Yellow) => Rgb(235, 180, 0),
            (RobotPalette::Classic, RobotColor::Silver) => Rgb(150, 155, 165),
            (RobotPalette::OkabeIto, RobotColor::Red) => Rgb(213, 94, 0),
            (RobotPalette::OkabeIto, RobotColor::Green) => Rgb(0, 158, 115),
            (RobotPalette::OkabeIto, RobotColor::Blue) => Rgb(0, 114, 178),
            (RobotPalette::OkabeIto, RobotColor::Yellow) => Rgb(240, 228, 66),
            (RobotPalette::OkabeIto, RobotColor::Silver) => Rgb(215, 215, 215),
        }
    }

    /// A target's colour in this palette; the vortex's own colour (for a vortex drawn without
    /// its four quarters) is purple in the game's colours and reddish purple in Okabe–Ito's.
    pub const fn target_rgb(self, color: TargetColor) -> Rgb {
        match (color.robot(), self) {
            (Some(robot), _) => self.rgb(robot),
            (None, RobotPalette::Classic) => Rgb(140, 80, 200),
            (None, RobotPalette::OkabeIto) => Rgb(204, 121, 167),
        }
    }
}

/// The palette every drawing takes, as [`RobotPalette`]'s position in [`RobotPalette::ALL`].
static CURRENT: AtomicU8 = AtomicU8::new(0);

/// Chooses the palette every board drawn from now on takes.
pub fn set_robot_palette(palette: RobotPalette) {
    let index = RobotPalette::ALL
        .iter()
        .position(|p| *p == palette)
        .unwrap_or(0);
    // One byte that nothing else depends on: no ordering with other memory is needed.
    CURRENT.store(index as u8, Ordering::Relaxed);
}

/// The palette chosen with [`set_robot_palette`] (the game's colours until one is chosen).
pub fn robot_palette() -> RobotPalette {
    RobotPalette::ALL
        .get(usize::from(CURRENT.load(Ordering::Relaxed)))
        .copied()
        .unwrap_or_default()
}

/// A robot's body colour in the chosen palette: the one table of robot colours, read by the
/// prints and by the app's theme alike.
pub fn robot_rgb(color: RobotColor) -> Rgb {
    robot_palette().rgb(color)
}

/// A target's colour in the chosen palette.
pub fn target_rgb(color: TargetColor) -> Rgb {
    robot_palette().target_rgb(color)
}

/// Black or white, whichever reads better on `fill`: the colour of a letter drawn on a robot
/// or a target, by the relative luminance contrast ratios are made of.
pub fn letter_rgb(fill: Rgb) -> Rgb {
    let linear = |channel: u8| {
        let c = f32::from(channel) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * linear(fill.0) + 0.7152 * linear(fill.1) + 0.0722 * linear(fill.2);
    // White and black give the same contrast ratio at a luminance of 0.179.
    if luminance < 0.179 {
        Rgb(255, 255, 255)
    } else {
        Rgb(0, 0, 0)
    }
}

/// The letter a target shows: its robot's letter, none for the vortex (its four colours are
/// its mark, and any robot takes it).
pub fn target_letter(color: TargetColor) -> Option<char> {
    color.robot().map(RobotColor::letter)
}

/// A colour's letter centred on a robot or a target of colour `fill`: a capital `size`
/// millimetres high (its em square), in black or white by [`letter_rgb`].
pub fn letter(center: Point, size: f32, letter: char, fill: Rgb) -> Item {
    Item::Text {
        role: Role::Letter,
        // A capital stands about 0.7 of its em above the baseline: half of that below the
        // centre puts the letter's middle on the centre.
        at: Point {
            x: center.x,
            y: center.y + size * 0.35,
        },
        text: letter.to_string(),
        size,
        color: letter_rgb(fill),
        anchor: Anchor::Middle,
        upwards: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_names_read_back() {
        for palette in RobotPalette::ALL {
            assert_eq!(RobotPalette::from_name(palette.name()), Some(palette));
        }
        assert_eq!(RobotPalette::from_name("sepia"), None);
    }

    #[test]
    fn letters_are_white_on_dark_robots_and_black_on_light_ones() {
        let classic = RobotPalette::Classic;
        assert_eq!(
            letter_rgb(classic.rgb(RobotColor::Blue)),
            Rgb(255, 255, 255)
        );
        assert_eq!(letter_rgb(classic.rgb(RobotColor::Yellow)), Rgb(0, 0, 0));
        assert_eq!(target_letter(TargetColor::Any), None);
        assert_eq!(target_letter(TargetColor::Green), Some('G'));
    }
}
