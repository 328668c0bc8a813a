//! The desktop client (behind the `gui` feature): a window that shows a scenario's
//! map and counters from the engine's own entities. First slice of the client issue:
//! it draws; it does not take input yet. `--screenshot FILE --frames N` renders N
//! frames, saves a screenshot taken inside Bevy and exits.

use std::path::PathBuf;

use bevy::camera::ScalingMode;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

use crate::engine::board::{Board, HexTile};
use crate::engine::game::{init_world, load_scenario};
use crate::engine::hex::HexCoord;
use crate::engine::plugin::EnginePlugin;
use crate::engine::units::{Leader, Placement, SideId, Steps, UnitName};
use crate::rulesets::a_la_charge::AlcUnit;
use crate::rulesets::build_ruleset_board;

/// How the window was asked for on the command line.
#[derive(Resource, Clone, Debug)]
pub struct ClientOptions {
    pub scenario: PathBuf,
    pub seed: u64,
    pub screenshot: Option<PathBuf>,
    pub frames: u32,
}

/// The circumradius of a drawn hex, in world units.
const HEX_RADIUS: f32 = 40.0;

/// The centre of a hex on screen: flat-topped, columns left to right, rows downwards,
/// even columns half a hex lower (the engine's convention).
pub fn hex_center(hex: HexCoord) -> Vec2 {
    let w = HEX_RADIUS * 1.5;
    let h = HEX_RADIUS * 3f32.sqrt();
    let x = (hex.col - 1) as f32 * w;
    let y = -((hex.row - 1) as f32 * h + if hex.col % 2 == 0 { h / 2.0 } else { 0.0 });
    Vec2::new(x, y)
}

fn terrain_color(name: &str) -> Color {
    match name {
        "woods" => Color::srgb(0.36, 0.52, 0.30),
        "hill" => Color::srgb(0.72, 0.62, 0.42),
        "village" => Color::srgb(0.70, 0.55, 0.50),
        "road" => Color::srgb(0.80, 0.76, 0.62),
        _ => Color::srgb(0.80, 0.84, 0.62),
    }
}

fn side_color(side: SideId) -> Color {
    if side.0 == 0 {
        Color::srgb(0.80, 0.25, 0.20)
    } else {
        Color::srgb(0.22, 0.35, 0.75)
    }
}

/// Opens the window on a scenario; returns when it closes.
pub fn run(options: ClientOptions) -> Result<(), String> {
    let (scenario, ruleset) = load_scenario(&options.scenario).map_err(|e| e.to_string())?;
    let board = build_ruleset_board(&*ruleset, &scenario);
    let title = format!("bataille — {} ({})", scenario.file.name, scenario.file.date);
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title,
            resolution: (1280, 800).into(),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(EnginePlugin)
    .insert_resource(ClearColor(Color::srgb(0.12, 0.12, 0.14)))
    .insert_resource(options.clone())
    .add_systems(Startup, (spawn_camera, spawn_map, spawn_counters))
    .add_systems(Update, screenshot_and_exit);
    init_world(app.world_mut(), scenario, ruleset, board, options.seed, &[]);
    app.run();
    Ok(())
}

fn spawn_camera(mut commands: Commands, board: Res<Board>) {
    let last = hex_center(HexCoord::new(board.columns, board.rows));
    let center = Vec2::new(last.x / 2.0, (last.y - HEX_RADIUS) / 2.0);
    commands.spawn((
        Camera2d,
        Projection::from(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin {
                min_width: last.x + 3.0 * HEX_RADIUS,
                min_height: -last.y + 3.5 * HEX_RADIUS,
            },
            ..OrthographicProjection::default_2d()
        }),
        Transform::from_xyz(center.x, center.y, 0.0),
    ));
}

fn spawn_map(
    mut commands: Commands,
    board: Res<Board>,
    tiles: Query<&HexTile>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<ColorMaterial>>,
) {
    // RegularPolygon has a vertex on top; turned by 30° it is flat-topped.
    let hex_mesh = meshes.add(RegularPolygon::new(HEX_RADIUS - 1.5, 6));
    let turn = Quat::from_rotation_z(std::f32::consts::FRAC_PI_6);
    let label_font = TextFont {
        font_size: FontSize::Px(10.0),
        ..default()
    };
    for tile in &tiles {
        let at = hex_center(tile.hex);
        let name = board.terrain_name(tile.hex);
        commands.spawn((
            Mesh2d(hex_mesh.clone()),
            MeshMaterial2d(materials.add(terrain_color(name))),
            Transform::from_xyz(at.x, at.y, 0.0).with_rotation(turn),
        ));
        commands.spawn((
            Text2d::new(tile.hex.label()),
            label_font.clone(),
            TextColor(Color::srgba(0.0, 0.0, 0.0, 0.55)),
            Transform::from_xyz(at.x, at.y + HEX_RADIUS * 0.62, 1.0),
        ));
    }
}

/// What a counter shows of a unit.
type CounterQuery<'w, 's> = Query<
    'w,
    's,
    (
        &'static UnitName,
        &'static SideId,
        &'static Placement,
        &'static Steps,
        Option<&'static AlcUnit>,
        Has<Leader>,
    ),
>;

fn spawn_counters(mut commands: Commands, units: CounterQuery) {
    let name_font = TextFont {
        font_size: FontSize::Px(9.0),
        ..default()
    };
    let value_font = TextFont {
        font_size: FontSize::Px(13.0),
        ..default()
    };
    for (name, side, placement, steps, values, leader) in &units {
        let Placement::OnMap(hex) = placement else {
            continue;
        };
        let at = hex_center(*hex);
        // A leader sits at the upper left of his unit's counter, smaller.
        let (size, offset, z) = if leader {
            (24.0, Vec2::new(-16.0, 12.0), 4.0)
        } else {
            (44.0, Vec2::ZERO, 2.0)
        };
        let pos = at + offset;
        let fill = if steps.is_reduced() {
            side_color(*side).mix(&Color::WHITE, 0.45)
        } else {
            side_color(*side)
        };
        commands.spawn((
            Sprite::from_color(Color::BLACK, Vec2::splat(size + 2.0)),
            Transform::from_xyz(pos.x, pos.y, z - 0.1),
        ));
        commands.spawn((
            Sprite::from_color(fill, Vec2::splat(size)),
            Transform::from_xyz(pos.x, pos.y, z),
        ));
        let short: String = name.name.chars().take(if leader { 3 } else { 9 }).collect();
        commands.spawn((
            Text2d::new(short),
            name_font.clone(),
            TextColor(Color::WHITE),
            Transform::from_xyz(pos.x, pos.y + size * 0.28, z + 0.1),
        ));
        if let Some(v) = values {
            let rating = if steps.is_reduced() {
                v.ratings[1]
            } else {
                v.ratings[0]
            };
            let text = if leader {
                format!("+{rating}")
            } else if v.range > 0 {
                format!("{rating}-{} r{}", v.mp, v.range)
            } else {
                format!("{rating}-{}", v.mp)
            };
            commands.spawn((
                Text2d::new(text),
                value_font.clone(),
                TextColor(Color::WHITE),
                Transform::from_xyz(pos.x, pos.y - size * 0.18, z + 0.1),
            ));
        }
    }
}

/// With `--screenshot FILE --frames N`: after N frames, a screenshot from inside Bevy;
/// once it is on disk (or 300 frames later), exit.
fn screenshot_and_exit(
    mut commands: Commands,
    options: Res<ClientOptions>,
    mut frame: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(path) = &options.screenshot else {
        return;
    };
    *frame += 1;
    if *frame == options.frames.max(1) {
        let _ = std::fs::remove_file(path);
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path.clone()));
    }
    if *frame > options.frames.max(1) && (path.exists() || *frame > options.frames + 300) {
        exit.write(AppExit::Success);
    }
}
