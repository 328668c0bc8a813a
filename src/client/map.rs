//! The map and the counters: terrain tiles drawn with bevy_ecs_tilemap (textures made
//! at start-up, one per terrain of the ruleset), hexside features, labels, the shading
//! of legal moves and choices, zones of control, the hovered path, and counters redrawn
//! from the game whenever it changes.

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

use super::art_assets::Art;
use super::controller::{ClientSet, HoverInfo, Interaction, pending_decision};
use super::counters::{CounterSpots, redraw_counters};
use super::layout::{HEX_RADIUS, hex_center};
use super::map_art::{draw_elevation, draw_hexsides};
use super::session::Session;
use super::window::{InGame, Screen};
use crate::engine::board::Board;
use crate::engine::hex::HexCoord;
use crate::engine::units::{Placement, SideId, UnitId, Units};
use crate::engine::zoc::ZocMap;

pub struct MapPlugin;

impl Plugin for MapPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            spawn_map
                .run_if(in_state(Screen::Playing))
                .run_if(resource_exists::<Session>)
                .run_if(not(resource_exists::<MapDrawn>))
                .run_if(|art: Option<Res<Art>>| art.is_some_and(|a| a.ready)),
        )
        .init_resource::<CounterSpots>()
        .add_systems(
            Update,
            (redraw_counters, shade_hexes, toggle_labels, draw_marks)
                .in_set(ClientSet::View)
                .run_if(in_state(Screen::Playing))
                .run_if(resource_exists::<Session>),
        );
    }
}

/// A side's colour, as its ruleset gives it (red and blue unless the sides have colours
/// of their own).
pub fn side_color(game: &crate::engine::game::Game, side: SideId) -> Color {
    let [r, g, b] = game.ruleset.side_colour(&game.world, side);
    Color::srgb_u8(r, g, b)
}

/// The art's tiles are drawn at twice their size on the map, so they stay sharp when
/// zoomed in: a tile of 160×140 pixels covers a hex of radius 40.
const ART_SCALE: f32 = 0.5;
const TILE_W: f32 = 160.0;
const TILE_H: f32 = 140.0;

/// The tile of a hex: columns left to right from 0, rows counted up from the bottom
/// (bevy_ecs_tilemap's y axis points up).
fn tile_pos(hex: HexCoord, rows: i32) -> TilePos {
    TilePos {
        x: (hex.col - 1) as u32,
        y: (rows - hex.row) as u32,
    }
}

/// The per-hex shading of moves, attackers and choices.
#[derive(Component)]
struct HexShade(HexCoord);

/// The movement points left, written on a reachable hex.
#[derive(Component)]
struct HexNote(HexCoord);

#[derive(Component)]
struct HexLabel;

#[derive(Resource)]
struct ShadeMaterials {
    reach: Handle<ColorMaterial>,
    attacker: Handle<ColorMaterial>,
    choice: Handle<ColorMaterial>,
    zoc: Handle<ColorMaterial>,
    /// The threat map's shades, for 1, 2, 3 and 4 or more enemy units.
    threat: [Handle<ColorMaterial>; 4],
}

/// The map of the game being played is drawn (removed when the game is left).
#[derive(Resource)]
pub struct MapDrawn;

/// Draws the map once the art is loaded: terrain tiles, elevation shades, hexside art,
/// and the per-hex shading and notes.
fn spawn_map(
    mut commands: Commands,
    session: Res<Session>,
    art: Res<Art>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    commands.insert_resource(MapDrawn);
    let board = session.game.world.resource::<Board>();
    let (cols, rows) = (board.columns, board.rows);
    let textures: Vec<Handle<Image>> = board
        .terrain_names
        .iter()
        .map(|name| art.terrain(name).0)
        .collect();
    let map_size = TilemapSize {
        x: cols as u32,
        y: rows as u32,
    };
    let tile_size = TilemapTileSize {
        x: TILE_W,
        y: TILE_H,
    };
    let grid_size = TilemapGridSize {
        x: HEX_RADIUS * 2.0 / ART_SCALE,
        y: HEX_RADIUS * 3f32.sqrt() / ART_SCALE,
    };
    // Our even columns sit half a hex lower; with the rows counted upwards that is one
    // of bevy_ecs_tilemap's two column systems: take the one whose tile centres match
    // `hex_center` up to one translation for every hex.
    let fits = |system: HexCoordSystem| -> Option<Vec2> {
        let map_type = TilemapType::Hexagon(system);
        let offset_of = |hex: HexCoord| {
            hex_center(hex)
                - ART_SCALE
                    * tile_pos(hex, rows).center_in_world(
                        &map_size,
                        &grid_size,
                        &tile_size,
                        &map_type,
                        &TilemapAnchor::None,
                    )
        };
        let offset = offset_of(HexCoord::new(1, 1));
        board
            .hexes()
            .all(|h| offset_of(h).distance(offset) < 0.01)
            .then_some(offset)
    };
    let (system, offset) = [HexCoordSystem::ColumnOdd, HexCoordSystem::ColumnEven]
        .into_iter()
        .find_map(|s| fits(s).map(|o| (s, o)))
        .unwrap_or((HexCoordSystem::ColumnOdd, Vec2::ZERO));
    let tilemap = commands.spawn(InGame).id();
    let mut storage = TileStorage::empty(map_size);
    for tile in crate::engine::board::tiles(&session.game.world) {
        let pos = tile_pos(tile.hex, rows);
        let terrain = tile.terrain.0 as u32;
        let tile = commands
            .spawn((
                TileBundle {
                    position: pos,
                    tilemap_id: TilemapId(tilemap),
                    texture_index: TileTextureIndex(terrain),
                    ..default()
                },
                InGame,
            ))
            .id();
        storage.set(&pos, tile);
    }
    commands.entity(tilemap).insert(TilemapBundle {
        grid_size,
        size: map_size,
        storage,
        texture: TilemapTexture::Vector(textures),
        tile_size,
        map_type: TilemapType::Hexagon(system),
        anchor: TilemapAnchor::None,
        transform: Transform::from_translation(offset.extend(0.0))
            .with_scale(Vec3::new(ART_SCALE, ART_SCALE, 1.0)),
        ..default()
    });
    draw_elevation(&mut commands, board, &art);
    draw_hexsides(&mut commands, board, &art);

    // Shading and notes, one per hex, shown when needed.
    let shade_mesh = meshes.add(RegularPolygon::new(HEX_RADIUS - 2.0, 6));
    let turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_6);
    let shades = ShadeMaterials {
        reach: materials.add(Color::srgba(1.0, 0.95, 0.3, 0.40)),
        attacker: materials.add(Color::srgba(1.0, 0.55, 0.1, 0.45)),
        choice: materials.add(Color::srgba(0.2, 0.9, 0.95, 0.45)),
        zoc: materials.add(Color::srgba(0.9, 0.1, 0.1, 0.22)),
        threat: [0.18, 0.32, 0.46, 0.60].map(|a| materials.add(Color::srgba(0.55, 0.0, 0.6, a))),
    };
    let label_font = TextFont {
        font: art.font.clone().into(),
        font_size: FontSize::Px(10.0),
        ..default()
    };
    let note_font = TextFont {
        font: art.bold.clone().into(),
        font_size: FontSize::Px(13.0),
        ..default()
    };
    for hex in board.hexes() {
        let at = hex_center(hex);
        commands.spawn((
            Mesh2d(shade_mesh.clone()),
            MeshMaterial2d(shades.reach.clone()),
            Transform::from_xyz(at.x, at.y, 1.5).with_rotation(turn),
            Visibility::Hidden,
            HexShade(hex),
            InGame,
        ));
        commands.spawn((
            Text2d::new(hex.label()),
            label_font.clone(),
            TextColor(Color::srgba(0.0, 0.0, 0.0, 0.6)),
            Transform::from_xyz(at.x, at.y + HEX_RADIUS * 0.66, 1.6),
            HexLabel,
            InGame,
        ));
        commands.spawn((
            Text2d::new(""),
            note_font.clone(),
            TextColor(Color::srgb(0.1, 0.1, 0.1)),
            Transform::from_xyz(at.x + HEX_RADIUS * 0.55, at.y - HEX_RADIUS * 0.55, 6.0),
            HexNote(hex),
            InGame,
        ));
    }
    commands.insert_resource(shades);
}

fn toggle_labels(ui: Res<Interaction>, mut labels: Query<&mut Visibility, With<HexLabel>>) {
    if !ui.is_changed() {
        return;
    }
    let shown = if ui.show_labels {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    for mut v in &mut labels {
        v.set_if_neq(shown);
    }
}

/// Shades the selected unit's moves (with the MP left), the chosen attackers, the
/// hexes a decision can be answered by, and when asked the threat map (darker where
/// more enemy units could attack, with their number) and enemy zones of control.
fn shade_hexes(
    session: Res<Session>,
    ui: Res<Interaction>,
    shades: Option<Res<ShadeMaterials>>,
    mut hexes: Query<(
        &HexShade,
        &mut MeshMaterial2d<ColorMaterial>,
        &mut Visibility,
    )>,
    mut notes: Query<(&HexNote, &mut Text2d)>,
) {
    let Some(shades) = shades else {
        return;
    };
    if !ui.is_changed() && !session.is_changed() {
        return;
    }
    let world = &session.game.world;
    let board = world.resource::<Board>();
    let zoc = world.resource::<ZocMap>();
    let enemy = SideId(1 - ui.viewer.0.min(1));
    let choices: Vec<HexCoord> = pending_decision(&session)
        .map(|d| d.choices.iter().filter_map(|c| c.hex).collect())
        .unwrap_or_default();
    let hidden = ui.hand_over.is_some();
    for (HexShade(hex), mut material, mut vis) in &mut hexes {
        let shade = if hidden {
            None
        } else if choices.contains(hex) {
            Some(&shades.choice)
        } else if ui.attackers.contains(hex) {
            Some(&shades.attacker)
        } else if ui.moves.iter().any(|m| m.hex == *hex) {
            Some(&shades.reach)
        } else if let Some(n) = ui
            .threats
            .as_ref()
            .map(|t| t.count(*hex))
            .filter(|n| *n > 0)
        {
            Some(&shades.threat[n.min(4) - 1])
        } else if ui.show_zoc && board.index(*hex).is_some_and(|i| zoc.covered_at(enemy, i)) {
            Some(&shades.zoc)
        } else {
            None
        };
        match shade {
            Some(m) => {
                if material.0 != *m {
                    material.0 = m.clone();
                }
                vis.set_if_neq(Visibility::Inherited);
            }
            None => {
                vis.set_if_neq(Visibility::Hidden);
            }
        }
    }
    for (HexNote(hex), mut text) in &mut notes {
        let threats = ui.threats.as_ref().map_or(0, |t| t.count(*hex));
        let note = match ui.moves.iter().find(|m| m.hex == *hex) {
            _ if hidden => String::new(),
            Some(m) => m.mp_text(m.left),
            None if threats > 0 => threats.to_string(),
            None => String::new(),
        };
        if text.0 != note {
            text.0 = note;
        }
    }
}

/// Gizmos: the hovered path, the selected unit's outline, the hovered hex.
fn draw_marks(
    session: Res<Session>,
    ui: Res<Interaction>,
    spots: Res<CounterSpots>,
    mut gizmos: Gizmos,
) {
    if ui.hand_over.is_some() {
        return;
    }
    let corners = |at: Vec2, r: f32| -> Vec<Vec2> {
        (0..=6)
            .map(|i| {
                let a = std::f32::consts::FRAC_PI_3 * i as f32;
                at + Vec2::new(a.cos(), a.sin()) * r
            })
            .collect()
    };
    if let Some(hex) = ui.hover {
        let color = match &ui.hover_info {
            HoverInfo::Illegal(_) => Color::srgb(0.9, 0.1, 0.1),
            HoverInfo::Attack(_) => Color::srgb(1.0, 0.5, 0.0),
            _ => Color::srgba(1.0, 1.0, 1.0, 0.8),
        };
        gizmos.linestrip_2d(corners(hex_center(hex), HEX_RADIUS - 1.0), color);
    }
    // The line-of-sight tool: the line, green when clear, red when blocked; each hex
    // that stops it outlined in red, other hexes it crosses in grey.
    if let Some(from) = ui.sight_from {
        gizmos.linestrip_2d(
            corners(hex_center(from), HEX_RADIUS - 3.0),
            Color::srgb(1.0, 1.0, 0.3),
        );
    }
    if let Some(line) = &ui.sight {
        let colour = if line.clear {
            Color::srgb(0.2, 0.95, 0.3)
        } else {
            Color::srgb(0.95, 0.15, 0.15)
        };
        gizmos.line_2d(hex_center(line.from), hex_center(line.to), colour);
        for step in &line.steps {
            let stop = step.stops();
            for (hex, why) in std::iter::once((step.hex, &step.blocks))
                .chain(step.beside.iter().map(|(h, w)| (*h, w)))
            {
                let c = if stop && why.is_some() {
                    Color::srgb(0.95, 0.15, 0.15)
                } else {
                    Color::srgba(0.8, 0.8, 0.8, 0.7)
                };
                gizmos.linestrip_2d(corners(hex_center(hex), HEX_RADIUS - 5.0), c);
            }
        }
        gizmos.linestrip_2d(corners(hex_center(line.to), HEX_RADIUS - 3.0), colour);
    }
    // What the selected unit reaches otherwise: a leader's command, a battery's range.
    for hex in &ui.area {
        gizmos.linestrip_2d(
            corners(hex_center(*hex), HEX_RADIUS - 10.0),
            Color::srgba(0.2, 0.9, 1.0, 0.9),
        );
    }
    // The supports the rules found for the previewed attack: the attack's in orange
    // like the hovered target's outline, the defence's in violet.
    if let HoverInfo::Attack(preview) = &ui.hover_info {
        for (hexes, color) in [
            (&preview.attack_supports, Color::srgb(1.0, 0.5, 0.0)),
            (&preview.defence_supports, Color::srgb(0.75, 0.35, 1.0)),
        ] {
            for hex in hexes {
                gizmos.linestrip_2d(corners(hex_center(*hex), HEX_RADIUS - 4.0), color);
            }
        }
    }
    if let HoverInfo::Move(m) = &ui.hover_info
        && let Some(id) = ui.selected
    {
        let world = &session.game.world;
        let e = world.resource::<Units>().entity(id);
        let start = world.get::<Placement>(e).and_then(|p| p.hex());
        let mut points: Vec<Vec2> = start
            .into_iter()
            .chain(m.path.iter().copied())
            .map(hex_center)
            .collect();
        if points.len() == 1 {
            points.push(points[0]);
        }
        gizmos.linestrip_2d(points.clone(), Color::srgb(1.0, 1.0, 1.0));
        if let Some(last) = points.last() {
            gizmos.circle_2d(Isometry2d::from_translation(*last), 6.0, Color::WHITE);
        }
    }
    // Hexes the scenario's special rules mark (a ditch, an objective): an inner
    // outline, brown, or in the colour of the side it belongs to (an objective's
    // holder), doubled so that it reads as a side's at a glance.
    for marked in session.game.ruleset.marked_hexes(&session.game.world) {
        let centre = hex_center(marked.hex);
        match marked.side {
            Some(side) => {
                let colour = side_color(&session.game, side);
                gizmos.linestrip_2d(corners(centre, HEX_RADIUS - 6.0), colour);
                gizmos.linestrip_2d(corners(centre, HEX_RADIUS - 9.0), colour);
            }
            None => gizmos.linestrip_2d(
                corners(centre, HEX_RADIUS - 7.0),
                Color::srgb(0.45, 0.25, 0.08),
            ),
        }
    }
    // The members of a group about to move together (CdB 5).
    for id in ui.group.iter().skip(1) {
        let world = &session.game.world;
        let e = world.resource::<Units>().entity(*id);
        if let Some(hex) = world.get::<Placement>(e).and_then(|p| p.hex()) {
            outline(&mut gizmos, &spots, *id, hex, Color::srgb(0.3, 1.0, 0.9));
        }
    }
    if let Some(id) = ui.selected {
        let world = &session.game.world;
        let e = world.resource::<Units>().entity(id);
        if let Some(hex) = world.get::<Placement>(e).and_then(|p| p.hex()) {
            outline(&mut gizmos, &spots, id, hex, Color::srgb(1.0, 1.0, 0.2));
        }
    }
}

/// A square around a unit's counter, turned with it; around its hex's usual spot when
/// the counter is not drawn (yet).
fn outline(gizmos: &mut Gizmos, spots: &CounterSpots, id: UnitId, hex: HexCoord, color: Color) {
    let (at, half, turn) =
        spots
            .0
            .get(&id)
            .copied()
            .unwrap_or((hex_center(hex) + Vec2::new(3.0, -3.0), 24.0, 0.0));
    gizmos.rect_2d(
        Isometry2d::new(at, Rot2::radians(turn)),
        Vec2::splat(half * 2.0 + 6.0),
        color,
    );
}
