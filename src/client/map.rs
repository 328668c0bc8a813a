//! The map and the counters: terrain tiles drawn with bevy_ecs_tilemap (textures made
//! at start-up, one per terrain of the ruleset), hexside features, labels, the shading
//! of legal moves and choices, zones of control, the hovered path, and counters redrawn
//! from the game whenever it changes.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_ecs_tilemap::prelude::*;

use super::controller::{ClientSet, HoverInfo, Interaction, pending_decision, visible_to};
use super::layout::{HEX_RADIUS, hex_center};
use super::session::Session;
use super::window::{InGame, Screen};
use crate::engine::board::{Board, HexsideFeature};
use crate::engine::hex::HexCoord;
use crate::engine::phase::PhaseKind;
use crate::engine::units::{Hidden, Leader, Placement, SideId, UnitName, Units};
use crate::engine::view::UnitBody;
use crate::engine::zoc::ZocMap;

pub struct MapPlugin;

impl Plugin for MapPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnEnter(Screen::Playing), spawn_map)
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

/// A terrain's base colour and the pattern drawn on it.
fn terrain_look(name: &str) -> ([u8; 3], Pattern) {
    match name {
        "woods" | "forest" => ([92, 132, 74], Pattern::Trees),
        "hill" | "hills" => ([196, 170, 116], Pattern::Contour),
        "village" | "town" => ([206, 200, 150], Pattern::Houses),
        "road" => ([206, 200, 150], Pattern::Road),
        "marsh" => ([150, 170, 140], Pattern::Reeds),
        _ => ([206, 212, 150], Pattern::Plain),
    }
}

#[derive(Clone, Copy)]
enum Pattern {
    Plain,
    Trees,
    Contour,
    Houses,
    Road,
    Reeds,
}

const TILE_W: u32 = 80;
const TILE_H: u32 = 70;

/// One terrain's tile texture: a flat-topped hex with its pattern, transparent outside.
fn terrain_image(name: &str) -> Image {
    let (base, pattern) = terrain_look(name);
    let mut data = vec![0u8; (TILE_W * TILE_H * 4) as usize];
    let r = HEX_RADIUS;
    let half_h = r * 3f32.sqrt() / 2.0;
    let cx = TILE_W as f32 / 2.0;
    let cy = TILE_H as f32 / 2.0;
    for y in 0..TILE_H {
        for x in 0..TILE_W {
            let px = x as f32 + 0.5 - cx;
            let py = y as f32 + 0.5 - cy;
            // Inside a flat-topped hex: |y| ≤ h/2 and the slanted sides.
            let inside = py.abs() <= half_h && px.abs() * 3f32.sqrt() + py.abs() <= r * 3f32.sqrt();
            if !inside {
                continue;
            }
            let edge = half_h - py.abs() < 1.2
                || r * 3f32.sqrt() - (px.abs() * 3f32.sqrt() + py.abs()) < 2.0;
            let mut c = base;
            let darken = |c: [u8; 3], f: f32| c.map(|v| (v as f32 * f) as u8);
            match pattern {
                Pattern::Plain => {}
                Pattern::Trees => {
                    // A lattice of dark round crowns.
                    let gx = (px + 100.0) % 16.0 - 8.0;
                    let gy = (py
                        + 100.0
                        + if ((px + 100.0) / 16.0) as i32 % 2 == 0 {
                            0.0
                        } else {
                            8.0
                        })
                        % 16.0
                        - 8.0;
                    if gx * gx + gy * gy < 22.0 {
                        c = [48, 90, 42];
                    }
                }
                Pattern::Contour => {
                    let d = (px * px + py * py * 1.6).sqrt();
                    if (d - 14.0).abs() < 1.3 || (d - 26.0).abs() < 1.3 {
                        c = darken(base, 0.7);
                    }
                }
                Pattern::Houses => {
                    for (hx, hy) in [(-10.0, -6.0), (6.0, -10.0), (4.0, 6.0), (-8.0, 10.0)] {
                        if (px - hx).abs() < 5.0 && (py - hy).abs() < 4.0 {
                            c = [150, 70, 55];
                        }
                    }
                }
                Pattern::Road => {
                    if py.abs() < 3.0 {
                        c = [150, 120, 80];
                    }
                }
                Pattern::Reeds => {
                    if (px + 100.0) % 9.0 < 1.5 && (py + 100.0) % 12.0 < 6.0 {
                        c = [70, 110, 90];
                    }
                }
            }
            if edge {
                c = darken(c, 0.55);
            }
            let i = ((y * TILE_W + x) * 4) as usize;
            data[i..i + 4].copy_from_slice(&[c[0], c[1], c[2], 255]);
        }
    }
    Image::new(
        Extent3d {
            width: TILE_W,
            height: TILE_H,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

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

#[derive(Component)]
struct CounterView;

#[derive(Resource)]
struct ShadeMaterials {
    reach: Handle<ColorMaterial>,
    attacker: Handle<ColorMaterial>,
    choice: Handle<ColorMaterial>,
    zoc: Handle<ColorMaterial>,
    /// The threat map's shades, for 1, 2, 3 and 4 or more enemy units.
    threat: [Handle<ColorMaterial>; 4],
}

fn spawn_map(
    mut commands: Commands,
    session: Res<Session>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    let board = session.game.world.resource::<Board>();
    let (cols, rows) = (board.columns, board.rows);
    let textures: Vec<Handle<Image>> = board
        .terrain_names
        .iter()
        .map(|name| images.add(terrain_image(name)))
        .collect();
    let map_size = TilemapSize {
        x: cols as u32,
        y: rows as u32,
    };
    let tile_size = TilemapTileSize {
        x: TILE_W as f32,
        y: TILE_H as f32,
    };
    let grid_size = TilemapGridSize {
        x: HEX_RADIUS * 2.0,
        y: HEX_RADIUS * 3f32.sqrt(),
    };
    // Our even columns sit half a hex lower; with the rows counted upwards that is one
    // of bevy_ecs_tilemap's two column systems: take the one whose tile centres match
    // `hex_center` up to one translation for every hex.
    let fits = |system: HexCoordSystem| -> Option<Vec2> {
        let map_type = TilemapType::Hexagon(system);
        let offset_of = |hex: HexCoord| {
            hex_center(hex)
                - tile_pos(hex, rows).center_in_world(
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
        transform: Transform::from_translation(offset.extend(0.0)),
        ..default()
    });

    // Hexside features over the tiles.
    let river = materials.add(Color::srgb(0.20, 0.42, 0.80));
    let stream = materials.add(Color::srgb(0.40, 0.62, 0.90));
    let bridge = materials.add(Color::srgb(0.45, 0.30, 0.15));
    let road = materials.add(Color::srgb(0.60, 0.48, 0.30));
    let defence = materials.add(Color::srgb(0.28, 0.16, 0.06));
    let side_len = HEX_RADIUS;
    for hex in board.hexes() {
        for dir in 0..6 {
            let other = hex.neighbor(dir);
            // Each side once: from the hex with the smaller label.
            if board.contains(other) && other < hex {
                continue;
            }
            let f = board.hexside_dir(hex, dir);
            let a = hex_center(hex);
            let b = hex_center(other);
            let mid = (a + b) / 2.0;
            let along = (b - a).normalize_or_zero().perp();
            let angle = along.y.atan2(along.x);
            let mut bar = |material: &Handle<ColorMaterial>,
                           length: f32,
                           width: f32,
                           at: Vec2,
                           angle: f32,
                           z: f32| {
                commands.spawn((
                    Mesh2d(meshes.add(Rectangle::new(length, width))),
                    MeshMaterial2d(material.clone()),
                    Transform::from_translation(at.extend(z))
                        .with_rotation(Quat::from_rotation_z(angle)),
                    InGame,
                ));
            };
            if f.has(HexsideFeature::River) {
                bar(&river, side_len + 4.0, 7.0, mid, angle, 1.0);
            } else if f.has(HexsideFeature::Stream) {
                bar(&stream, side_len + 2.0, 3.5, mid, angle, 1.0);
            }
            if f.has(HexsideFeature::Bridge) {
                let across = (b - a).y.atan2((b - a).x);
                bar(&bridge, 22.0, 10.0, mid, across, 1.1);
            }
            if f.has(HexsideFeature::Road) && board.contains(other) {
                let across = (b - a).y.atan2((b - a).x);
                bar(&road, a.distance(b), 4.0, mid, across, 0.9);
            }
            if f.has(HexsideFeature::FieldDefence) {
                // A dark brown line just inside the defended hex, with stakes pointing
                // across the side at the outside; centred, without stakes, when no
                // side is the defended one.
                let out = if f.defended() {
                    Some((b - a).normalize_or_zero())
                } else if board.hexside(other, hex).defended() {
                    Some((a - b).normalize_or_zero())
                } else {
                    None
                };
                let n = out.unwrap_or(Vec2::ZERO);
                let line_at = mid - n * 4.0;
                bar(&defence, side_len * 0.9, 3.5, line_at, angle, 1.2);
                if out.is_some() {
                    let u = Vec2::from_angle(angle);
                    let across = n.y.atan2(n.x);
                    for k in [-0.3, -0.1, 0.1, 0.3] {
                        let at = line_at + u * (k * side_len) + n * 4.0;
                        bar(&defence, 8.0, 2.5, at, across, 1.2);
                    }
                }
            }
        }
    }

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
        font_size: FontSize::Px(11.0),
        ..default()
    };
    let note_font = TextFont {
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
fn draw_marks(session: Res<Session>, ui: Res<Interaction>, mut gizmos: Gizmos) {
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
            let (at, half) = counter_spot(hex_center(hex), false);
            gizmos.rect_2d(
                Isometry2d::from_translation(at),
                Vec2::splat(half * 2.0 + 6.0),
                Color::srgb(0.3, 1.0, 0.9),
            );
        }
    }
    if let Some(id) = ui.selected {
        let world = &session.game.world;
        let e = world.resource::<Units>().entity(id);
        if let Some(hex) = world.get::<Placement>(e).and_then(|p| p.hex()) {
            let leader = world.get::<Leader>(e).is_some();
            let (at, half) = counter_spot(hex_center(hex), leader);
            gizmos.rect_2d(
                Isometry2d::from_translation(at),
                Vec2::splat(half * 2.0 + 6.0),
                Color::srgb(1.0, 1.0, 0.2),
            );
        }
    }
}

/// Where a counter sits in its hex and half its size: leaders smaller, upper left.
fn counter_spot(center: Vec2, leader: bool) -> (Vec2, f32) {
    if leader {
        (center + Vec2::new(-19.0, 14.0), 13.0)
    } else {
        (center + Vec2::new(3.0, -3.0), 24.0)
    }
}

/// Half the side of a stand's square in a unit of stands: smaller than a counter, so the
/// joins between stands show.
const STAND_HALF: f32 = 19.0;

/// Draws a unit of stands: a join between each two stands that touch, a square on each
/// stand, and a bar at the hexside each faces.
fn draw_body(
    spawn: &mut impl FnMut((Sprite, Transform)),
    body: &UnitBody,
    fill: Color,
    border: Color,
    z: f32,
) {
    for (i, a) in body.stands.iter().enumerate() {
        for b in body.stands[i + 1..].iter().filter(|b| a.is_adjacent(**b)) {
            let (pa, pb) = (hex_center(*a), hex_center(*b));
            let mid = (pa + pb) / 2.0;
            let angle = (pb - pa).y.atan2((pb - pa).x);
            spawn((
                Sprite::from_color(border, Vec2::new(pa.distance(pb), 18.0)),
                Transform::from_xyz(mid.x, mid.y, z - 0.15)
                    .with_rotation(Quat::from_rotation_z(angle)),
            ));
            spawn((
                Sprite::from_color(fill, Vec2::new(pa.distance(pb), 14.0)),
                Transform::from_xyz(mid.x, mid.y, z - 0.12)
                    .with_rotation(Quat::from_rotation_z(angle)),
            ));
        }
    }
    for h in &body.stands {
        let c = hex_center(*h);
        spawn((
            Sprite::from_color(border, Vec2::splat(STAND_HALF * 2.0 + 3.0)),
            Transform::from_xyz(c.x, c.y, z - 0.1),
        ));
        spawn((
            Sprite::from_color(fill, Vec2::splat(STAND_HALF * 2.0)),
            Transform::from_xyz(c.x, c.y, z),
        ));
        if let Some(d) = body.hexside {
            // Hexside 0 is north, clockwise; the bar lies along the side it faces.
            let angle = (90.0 - 60.0 * f32::from(d)).to_radians();
            let dir = Vec2::new(angle.cos(), angle.sin());
            let spot = c + dir * (STAND_HALF + 5.0);
            spawn((
                Sprite::from_color(Color::srgb(1.0, 0.85, 0.1), Vec2::new(5.0, 22.0)),
                Transform::from_xyz(spot.x, spot.y, z + 0.2)
                    .with_rotation(Quat::from_rotation_z(angle)),
            ));
        }
    }
}

/// Redraws every counter from the game when it or the viewer changed.
fn redraw_counters(
    mut commands: Commands,
    session: Res<Session>,
    ui: Res<Interaction>,
    old: Query<Entity, With<CounterView>>,
    mut drawn: Local<Option<(u64, SideId, bool)>>,
) {
    let key = (session.revision, ui.viewer, ui.hand_over.is_some());
    if *drawn == Some(key) && !session.is_added() {
        return;
    }
    *drawn = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    if ui.hand_over.is_some() {
        return;
    }
    let game = &session.game;
    let world = &game.world;
    let units = world.resource::<Units>();
    let name_font = TextFont {
        font_size: FontSize::Px(8.0),
        ..default()
    };
    let symbol_font = TextFont {
        font_size: FontSize::Px(11.0),
        ..default()
    };
    let value_font = TextFont {
        font_size: FontSize::Px(15.0),
        ..default()
    };
    let mut spawn = |bundle: (Sprite, Transform)| {
        commands.spawn((bundle.0, bundle.1, CounterView, InGame));
    };
    let mut texts: Vec<(String, TextFont, Color, Vec3)> = Vec::new();
    // Everything is shown once the game is over, and in the replay of a finished game.
    let over = game.turn().phase.kind == PhaseKind::Over
        || session
            .replay
            .as_ref()
            .is_some_and(|r| r.watching.is_none());
    for id in units.ids() {
        let e = units.entity(id);
        let Some(Placement::OnMap(hex)) = world.get::<Placement>(e).copied() else {
            continue;
        };
        if !visible_to(world, e, ui.viewer) && !over {
            continue;
        }
        let side = world.get::<SideId>(e).copied().unwrap_or_default();
        let leader = world.get::<Leader>(e).is_some();
        let hidden = world.get::<Hidden>(e).is_some();
        let face = game.ruleset.counter_face(world, e);
        let (mut at, mut half) = counter_spot(hex_center(hex), leader);
        let mut z = if leader { 4.0 } else { 3.0 };
        if face.rank > 0 {
            // The rear rank of a stack shows behind the front one (CdB 8.1).
            at += Vec2::new(7.0, 7.0);
            z -= 1.0;
        }
        let mut fill = side_color(game, side);
        if face.reduced {
            fill = fill.mix(&Color::WHITE, 0.45);
        }
        if hidden {
            fill = fill.with_alpha(0.55);
        }
        let border = if leader {
            Color::srgb(0.95, 0.80, 0.25)
        } else {
            Color::srgb(0.05, 0.05, 0.05)
        };
        let body = (!leader)
            .then(|| game.ruleset.unit_body(world, e))
            .flatten();
        if let Some(body) = &body {
            // A unit of stands: one square a stand, joined where stands touch, so the
            // unit reads as one body; its facing on every stand (C&M, spec B.2 §3).
            half = STAND_HALF;
            at = hex_center(hex);
            draw_body(&mut spawn, body, fill, border, z);
        } else {
            spawn((
                Sprite::from_color(
                    Color::srgba(0.0, 0.0, 0.0, 0.35),
                    Vec2::splat(half * 2.0 + 2.0),
                ),
                Transform::from_xyz(at.x + 3.0, at.y - 3.0, z - 0.2),
            ));
            spawn((
                Sprite::from_color(border, Vec2::splat(half * 2.0 + 3.0)),
                Transform::from_xyz(at.x, at.y, z - 0.1),
            ));
            spawn((
                Sprite::from_color(fill, Vec2::splat(half * 2.0)),
                Transform::from_xyz(at.x, at.y, z),
            ));
            if let Some(v) = face.facing {
                // A bar beyond the counter's edge towards the vertex it faces (CdB 6).
                let angle = (60.0 - 60.0 * v as f32).to_radians();
                let dir = Vec2::new(angle.cos(), angle.sin());
                let spot = at + dir * (half * 1.35 + 3.0);
                spawn((
                    Sprite::from_color(Color::srgb(1.0, 0.85, 0.1), Vec2::new(12.0, 6.0)),
                    Transform::from_xyz(spot.x, spot.y, z + 0.2)
                        .with_rotation(Quat::from_rotation_z(angle)),
                ));
            }
        }
        if face.reduced {
            // A white band across the top: the counter's reduced side.
            spawn((
                Sprite::from_color(Color::srgba(1.0, 1.0, 1.0, 0.9), Vec2::new(half * 2.0, 4.0)),
                Transform::from_xyz(at.x, at.y + half - 2.0, z + 0.05),
            ));
        }
        let name = world
            .get::<UnitName>(e)
            .map(|n| n.name.clone())
            .unwrap_or_default();
        let white = Color::WHITE;
        if leader {
            let short: String = name.chars().take(4).collect();
            texts.push((
                short,
                name_font.clone(),
                white,
                Vec3::new(at.x, at.y + 5.0, z + 0.1),
            ));
            texts.push((
                face.values.clone(),
                symbol_font.clone(),
                white,
                Vec3::new(at.x, at.y - 5.0, z + 0.1),
            ));
        } else {
            let short: String = name.chars().take(10).collect();
            let symbol = match &body {
                Some(b) => format!("{} {}", face.symbol, b.formation),
                None => face.symbol.clone(),
            };
            texts.push((
                symbol,
                symbol_font.clone(),
                white,
                Vec3::new(at.x, at.y + 13.0, z + 0.1),
            ));
            texts.push((
                short,
                name_font.clone(),
                white,
                Vec3::new(at.x, at.y + 1.0, z + 0.1),
            ));
            texts.push((
                face.values.clone(),
                value_font.clone(),
                white,
                Vec3::new(at.x, at.y - 13.0, z + 0.1),
            ));
            if hidden {
                texts.push((
                    "hidden".into(),
                    name_font.clone(),
                    Color::srgb(1.0, 1.0, 0.6),
                    Vec3::new(at.x, at.y + half + 6.0, z + 0.1),
                ));
            }
        }
    }
    for (text, font, color, pos) in texts {
        commands.spawn((
            Text2d::new(text),
            font,
            TextColor(color),
            Transform::from_translation(pos),
            CounterView,
            InGame,
        ));
    }
}
