//! The counters, redrawn from the game whenever it or the viewer changes: the side's
//! colour, the troop's symbol from the art catalogue, the name and printed values, the
//! reduced side; a counter with facing turned towards the vertex it faces; a stack
//! fanned so every counter shows; units of stands drawn as one body.

use std::collections::HashMap;

use bevy::prelude::*;

use super::art_assets::Art;
use super::controller::{Interaction, visible_to};
use super::layout::hex_center;
use super::map::side_color;
use super::session::Session;
use super::window::InGame;
use crate::engine::hex::HexCoord;
use crate::engine::phase::PhaseKind;
use crate::engine::units::{Hidden, Leader, Placement, SideId, UnitId, UnitName, Units};
use crate::engine::view::{CounterFace, UnitBody};

#[derive(Component)]
pub struct CounterView;

/// Where each drawn counter is: its centre, half its side and its turn, for the
/// outlines of the selection and of a group.
#[derive(Resource, Default)]
pub struct CounterSpots(pub HashMap<UnitId, (Vec2, f32, f32)>);

/// Half a counter's side, and a leader's.
const COUNTER_HALF: f32 = 24.0;
const LEADER_HALF: f32 = 13.0;
/// How far each counter of a stack is moved from the one above it.
const FAN_STEP: Vec2 = Vec2::new(7.0, 7.0);
/// Half the side of a stand's square in a unit of stands: smaller than a counter, so
/// the joins between stands show.
const STAND_HALF: f32 = 19.0;

/// The turn of a counter facing vertex `v` (CdB 6, CtB 3; 0 = NNE, clockwise): its top
/// edge towards the vertex.
fn vertex_turn(v: u8) -> f32 {
    (-30.0 - 60.0 * f32::from(v)).to_radians()
}

/// The turn of a stand facing hexside `d` (0 = N, clockwise).
fn hexside_turn(d: u8) -> f32 {
    (-60.0 * f32::from(d)).to_radians()
}

/// Dark text on a light side colour, white on a dark one.
fn ink_on(fill: Color) -> Color {
    let c = fill.to_srgba();
    if 0.299 * c.red + 0.587 * c.green + 0.114 * c.blue > 0.62 {
        Color::srgb(0.08, 0.08, 0.08)
    } else {
        Color::WHITE
    }
}

struct Drawn {
    id: UnitId,
    hex: HexCoord,
    side: SideId,
    leader: bool,
    hidden: bool,
    face: CounterFace,
    body: Option<UnitBody>,
    name: String,
}

/// Redraws every counter from the game when it or the viewer changed.
#[allow(clippy::too_many_arguments)]
pub fn redraw_counters(
    mut commands: Commands,
    session: Res<Session>,
    ui: Res<Interaction>,
    art: Option<Res<Art>>,
    old: Query<Entity, With<CounterView>>,
    mut spots: ResMut<CounterSpots>,
    mut drawn: Local<Option<(u64, SideId, bool)>>,
) {
    let Some(art) = art.filter(|a| a.ready) else {
        return;
    };
    let key = (session.revision, ui.viewer, ui.hand_over.is_some());
    if *drawn == Some(key) && !session.is_added() {
        return;
    }
    *drawn = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    spots.0.clear();
    if ui.hand_over.is_some() {
        return;
    }
    let game = &session.game;
    let world = &game.world;
    let units = world.resource::<Units>();
    // Everything is shown once the game is over, and in the replay of a finished game.
    let over = game.turn().phase.kind == PhaseKind::Over
        || session
            .replay
            .as_ref()
            .is_some_and(|r| r.watching.is_none());
    let mut stacks: HashMap<HexCoord, Vec<Drawn>> = HashMap::new();
    for id in units.ids() {
        let e = units.entity(id);
        let Some(Placement::OnMap(hex)) = world.get::<Placement>(e).copied() else {
            continue;
        };
        if !visible_to(world, e, ui.viewer) && !over {
            continue;
        }
        let leader = world.get::<Leader>(e).is_some();
        stacks.entry(hex).or_default().push(Drawn {
            id,
            hex,
            side: world.get::<SideId>(e).copied().unwrap_or_default(),
            leader,
            hidden: world.get::<Hidden>(e).is_some(),
            face: game.ruleset.counter_face(world, e),
            body: (!leader)
                .then(|| game.ruleset.unit_body(world, e))
                .flatten(),
            name: world
                .get::<UnitName>(e)
                .map(|n| n.name.clone())
                .unwrap_or_default(),
        });
    }
    let ruleset = game.ruleset.id();
    for (_, mut stack) in stacks {
        // The front rank on top (CdB 8.1), then in the scenario's order.
        stack.sort_by_key(|d| (d.face.rank, d.id.0));
        let (leaders, counters): (Vec<&Drawn>, Vec<&Drawn>) = stack.iter().partition(|d| d.leader);
        let fanned = counters.iter().filter(|d| d.body.is_none()).count();
        let mut k = 0;
        for d in counters {
            let mut fill = side_color(game, d.side);
            if d.face.reduced {
                fill = fill.mix(&Color::WHITE, 0.45);
            }
            if d.hidden {
                fill = fill.with_alpha(0.55);
            }
            let symbol = art.troop_symbol(ruleset, &d.face.troop);
            let look = Look { fill, symbol };
            if let Some(body) = &d.body {
                draw_body(&mut commands, body, fill, 3.0);
                let place = Place {
                    at: hex_center(d.hex),
                    half: STAND_HALF,
                    turn: body.hexside.map_or(0.0, hexside_turn),
                    z: 3.2,
                };
                spawn_faces(&mut commands, &art, d, look, place);
                spots.0.insert(d.id, (place.at, place.half, place.turn));
                continue;
            }
            // A stack fans out up and right, the top counter lowest and in front.
            let base = hex_center(d.hex) + Vec2::new(3.0, -3.0)
                - FAN_STEP * (fanned.saturating_sub(1) as f32) / 2.0;
            let place = Place {
                at: base + FAN_STEP * k as f32,
                half: COUNTER_HALF,
                turn: d.face.facing.map_or(0.0, vertex_turn),
                z: 3.0 - 0.3 * k as f32,
            };
            k += 1;
            spawn_counter(&mut commands, &art, d, look, place);
            spots.0.insert(d.id, (place.at, place.half, place.turn));
        }
        for (i, d) in leaders.into_iter().enumerate() {
            let look = Look {
                fill: side_color(game, d.side),
                symbol: art.troop_symbol(ruleset, &d.face.troop),
            };
            let place = Place {
                at: hex_center(d.hex) + Vec2::new(-19.0 + 6.0 * i as f32, 14.0 + 6.0 * i as f32),
                half: LEADER_HALF,
                turn: 0.0,
                z: 4.0 + 0.1 * i as f32,
            };
            spawn_counter(&mut commands, &art, d, look, place);
            spots.0.insert(d.id, (place.at, place.half, place.turn));
        }
    }
}

/// A counter's colour and symbol.
struct Look {
    fill: Color,
    symbol: Option<Handle<Image>>,
}

/// Where a counter is drawn: its centre, half its side, its turn and its depth.
#[derive(Clone, Copy)]
struct Place {
    at: Vec2,
    half: f32,
    turn: f32,
    z: f32,
}

/// The counter's root, turned with it: its parts are its children.
fn spawn_root(commands: &mut Commands, place: Place) -> Entity {
    commands
        .spawn((
            Transform::from_xyz(place.at.x, place.at.y, place.z)
                .with_rotation(Quat::from_rotation_z(place.turn)),
            Visibility::default(),
            CounterView,
            InGame,
        ))
        .id()
}

fn add_child(commands: &mut Commands, parent: Entity, bundle: impl Bundle) {
    let child = commands.spawn((bundle, CounterView)).id();
    commands.entity(parent).add_child(child);
}

/// The troop symbol, tinted with the counter's ink.
fn add_symbol(
    commands: &mut Commands,
    parent: Entity,
    image: Handle<Image>,
    size: Vec2,
    y: f32,
    ink: Color,
) {
    add_child(
        commands,
        parent,
        (
            Sprite {
                image,
                custom_size: Some(size),
                color: ink,
                ..default()
            },
            Transform::from_xyz(0.0, y, 0.1),
        ),
    );
}

/// A line of the counter's text at height `y`.
#[allow(clippy::too_many_arguments)]
fn add_text(
    commands: &mut Commands,
    parent: Entity,
    art: &Art,
    text: String,
    size: f32,
    y: f32,
    bold: bool,
    ink: Color,
) {
    add_child(
        commands,
        parent,
        (
            Text2d::new(text),
            TextFont {
                font: if bold { &art.bold } else { &art.font }.into(),
                font_size: bevy::text::FontSize::Px(size),
                ..default()
            },
            TextColor(ink),
            Transform::from_xyz(0.0, y, 0.2),
        ),
    );
}

/// A counter: shadow, edge, face, the troop symbol, the name above it and the values
/// below; leaders small with a gold edge; a front band when it faces a vertex.
fn spawn_counter(commands: &mut Commands, art: &Art, d: &Drawn, look: Look, place: Place) {
    let half = place.half;
    let edge = if d.leader {
        Color::srgb(0.95, 0.80, 0.25)
    } else {
        Color::srgb(0.06, 0.06, 0.06)
    };
    let parent = spawn_root(commands, place);
    let square = |color: Color, size: Vec2, x: f32, y: f32, z: f32| {
        (
            Sprite::from_color(color, size),
            Transform::from_xyz(x, y, z),
        )
    };
    add_child(
        commands,
        parent,
        square(
            Color::srgba(0.0, 0.0, 0.0, 0.35),
            Vec2::splat(half * 2.0 + 2.0),
            2.5,
            -2.5,
            -0.3,
        ),
    );
    add_child(
        commands,
        parent,
        square(edge, Vec2::splat(half * 2.0 + 3.0), 0.0, 0.0, -0.2),
    );
    add_child(
        commands,
        parent,
        square(look.fill, Vec2::splat(half * 2.0), 0.0, 0.0, -0.1),
    );
    if d.face.facing.is_some() {
        // The front edge, a bright band: the counter faces the vertex beyond it.
        add_child(
            commands,
            parent,
            square(
                Color::srgb(1.0, 0.85, 0.1),
                Vec2::new(half * 2.0, 4.0),
                0.0,
                half + 1.0,
                0.05,
            ),
        );
    }
    if d.face.reduced {
        // The reduced side: a white band along the bottom.
        add_child(
            commands,
            parent,
            square(
                Color::srgba(1.0, 1.0, 1.0, 0.9),
                Vec2::new(half * 2.0, 4.0),
                0.0,
                -half + 2.0,
                0.05,
            ),
        );
    }
    let ink = ink_on(look.fill);
    if let Some(image) = look.symbol {
        let (size, y) = if d.leader {
            (Vec2::new(21.0, 14.0), 3.0)
        } else {
            (Vec2::new(30.0, 20.0), 3.0)
        };
        add_symbol(commands, parent, image, size, y, ink);
    }
    if d.leader {
        add_text(
            commands,
            parent,
            art,
            d.face.values.clone(),
            8.0,
            -8.0,
            true,
            ink,
        );
    } else {
        let mut name: String = d.name.chars().take(12).collect();
        if d.hidden {
            name = format!("hidden: {name}");
        }
        add_text(commands, parent, art, name, 7.0, 17.5, false, ink);
        add_text(
            commands,
            parent,
            art,
            d.face.values.clone(),
            12.0,
            -15.0,
            true,
            ink,
        );
    }
}

/// The symbol, type and formation, and values of a unit of stands, on its first stand.
fn spawn_faces(commands: &mut Commands, art: &Art, d: &Drawn, look: Look, place: Place) {
    let ink = ink_on(look.fill);
    let parent = spawn_root(commands, place);
    if let Some(image) = look.symbol {
        add_symbol(commands, parent, image, Vec2::new(24.0, 16.0), 4.0, ink);
    }
    let formation = d
        .body
        .as_ref()
        .map_or(String::new(), |b| b.formation.clone());
    let half = place.half;
    add_text(
        commands,
        parent,
        art,
        format!("{} {formation}", d.face.symbol),
        6.5,
        half - 6.0,
        true,
        ink,
    );
    add_text(
        commands,
        parent,
        art,
        d.face.values.clone(),
        9.0,
        -half + 7.0,
        true,
        ink,
    );
}

/// Draws a unit of stands: a join between each two stands that touch, a square on each
/// stand turned to the hexside it faces, and a bar along that side.
fn draw_body(commands: &mut Commands, body: &UnitBody, fill: Color, z: f32) {
    let border = Color::srgb(0.06, 0.06, 0.06);
    let mut spawn = |sprite: Sprite, transform: Transform| {
        commands.spawn((sprite, transform, CounterView, InGame));
    };
    for (i, a) in body.stands.iter().enumerate() {
        for b in body.stands[i + 1..].iter().filter(|b| a.is_adjacent(**b)) {
            let (pa, pb) = (hex_center(*a), hex_center(*b));
            let mid = (pa + pb) / 2.0;
            let angle = Quat::from_rotation_z((pb - pa).y.atan2((pb - pa).x));
            spawn(
                Sprite::from_color(border, Vec2::new(pa.distance(pb), 18.0)),
                Transform::from_xyz(mid.x, mid.y, z - 0.15).with_rotation(angle),
            );
            spawn(
                Sprite::from_color(fill, Vec2::new(pa.distance(pb), 14.0)),
                Transform::from_xyz(mid.x, mid.y, z - 0.12).with_rotation(angle),
            );
        }
    }
    let turn = Quat::from_rotation_z(body.hexside.map_or(0.0, hexside_turn));
    for h in &body.stands {
        let c = hex_center(*h);
        spawn(
            Sprite::from_color(border, Vec2::splat(STAND_HALF * 2.0 + 3.0)),
            Transform::from_xyz(c.x, c.y, z - 0.1).with_rotation(turn),
        );
        spawn(
            Sprite::from_color(fill, Vec2::splat(STAND_HALF * 2.0)),
            Transform::from_xyz(c.x, c.y, z).with_rotation(turn),
        );
        if body.hexside.is_some() {
            // The front of the stand, towards the hexside it faces.
            let front = turn * Vec3::new(0.0, STAND_HALF + 1.0, 0.0);
            spawn(
                Sprite::from_color(
                    Color::srgb(1.0, 0.85, 0.1),
                    Vec2::new(STAND_HALF * 2.0, 4.0),
                ),
                Transform::from_xyz(c.x + front.x, c.y + front.y, z + 0.05).with_rotation(turn),
            );
        }
    }
}
