//! What is laid over the terrain tiles: the elevation shade of each raised hex, the
//! slope hachures where the ground falls from one hex to the next, and the hexside art
//! (rivers, streams, fords, bridges, roads, field defences), each a sprite of the art
//! catalogue placed on its hexside.

use bevy::prelude::*;

use super::art_assets::Art;
use super::layout::{HEX_RADIUS, hex_center};
use super::window::InGame;
use crate::engine::board::{Board, HexsideFeature};
use crate::engine::hex::HexCoord;

/// The art is drawn at twice its size (see `map::ART_SCALE`): a sprite of `w`×`h`
/// pixels covers `w/2`×`h/2` world units.
fn world_size(pixels: (f32, f32)) -> Vec2 {
    Vec2::new(pixels.0, pixels.1) * 0.5
}

fn sprite(image: Handle<Image>, size: Vec2) -> Sprite {
    Sprite {
        image,
        custom_size: Some(size),
        ..default()
    }
}

/// The rotation that turns an image's up (+y) towards `dir`.
fn up_towards(dir: Vec2) -> Quat {
    Quat::from_rotation_z(dir.y.atan2(dir.x) - std::f32::consts::FRAC_PI_2)
}

/// The rotation that lays an image's x axis along `dir`.
fn along(dir: Vec2) -> Quat {
    Quat::from_rotation_z(dir.y.atan2(dir.x))
}

/// Each hex's elevation shade: its level on the map plus its terrain's own shade (a
/// terrain that is a hill).
pub fn draw_elevation(commands: &mut Commands, board: &Board, art: &Art) {
    let size = world_size((160.0, 140.0));
    for hex in board.hexes() {
        let level = shown_level(board, art, hex).max(0) as u8;
        if level == 0 {
            continue;
        }
        if let Some(image) = art.elevation(level) {
            let at = hex_center(hex);
            commands.spawn((
                sprite(image, size),
                Transform::from_xyz(at.x, at.y, 0.5),
                InGame,
            ));
        }
    }
}

/// The height a hex is shaded for: its level on the map plus its terrain's own shade.
fn shown_level(board: &Board, art: &Art, hex: HexCoord) -> i32 {
    let own = art.terrain(board.terrain_name(hex)).1;
    board.elevation(hex) as i32 + own as i32
}

/// Every hexside's art, each side once.
pub fn draw_hexsides(commands: &mut Commands, board: &Board, art: &Art) {
    let mut put = |image: Handle<Image>, pixels: (f32, f32), at: Vec2, rotation: Quat, z: f32| {
        commands.spawn((
            sprite(image, world_size(pixels)),
            Transform::from_translation(at.extend(z)).with_rotation(rotation),
            InGame,
        ));
    };
    for hex in board.hexes() {
        for dir in 0..6 {
            let other = hex.neighbor(dir);
            let on_map = board.contains(other);
            // Each side once: from the hex with the smaller label.
            if on_map && other < hex {
                continue;
            }
            let f = board.hexside_dir(hex, dir);
            let a = hex_center(hex);
            let b = hex_center(other);
            let mid = (a + b) / 2.0;
            let across = (b - a).normalize_or_zero();
            let side = along(across.perp());
            if on_map {
                // The ground falls from one hex to the other: the slope's line lies
                // on the side (the image's centre line), its hachures hang into the
                // lower hex.
                let (ha, hb) = (shown_level(board, art, hex), shown_level(board, art, other));
                if ha != hb {
                    let down = if ha > hb { across } else { -across };
                    put(
                        art.hexside("slope"),
                        (80.0, 20.0),
                        mid,
                        up_towards(-down),
                        0.8,
                    );
                }
            }
            if f.has(HexsideFeature::Road) && on_map {
                put(art.hexside("road"), (150.0, 20.0), mid, along(across), 0.9);
            }
            if f.has(HexsideFeature::River) {
                put(art.hexside("river"), (100.0, 28.0), mid, side, 1.0);
            } else if f.has(HexsideFeature::Stream) {
                put(art.hexside("stream"), (96.0, 16.0), mid, side, 1.0);
            }
            if f.has(HexsideFeature::Ford) {
                put(art.hexside("ford"), (56.0, 30.0), mid, along(across), 1.1);
            }
            if f.has(HexsideFeature::Bridge) {
                put(art.hexside("bridge"), (60.0, 34.0), mid, along(across), 1.1);
            }
            if f.has(HexsideFeature::FieldDefence) {
                // The stakes point out of the defended hex, at the attacker; a work
                // that defends neither side is drawn facing away from this hex.
                let out = if board.hexside(other, hex).defended() && !f.defended() {
                    -across
                } else {
                    across
                };
                put(
                    art.hexside("field_defence"),
                    (84.0, 28.0),
                    mid - out * (HEX_RADIUS * 0.08),
                    up_towards(out),
                    1.2,
                );
            }
        }
    }
}
