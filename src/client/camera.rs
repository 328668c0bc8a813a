//! The camera and the raw input of the map: drag or WASD to pan, the wheel to zoom on
//! the cursor, F to fit the map; the cursor turned into a hex and clicks and keys into
//! `PlayerInput` messages (the controller does the rest).

use bevy::input::mouse::AccumulatedMouseScroll;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::{egui_wants_any_keyboard_input, egui_wants_any_pointer_input};

use super::controller::{ClientSet, PlayerInput};
use super::display::Display;
use super::layout::{hex_at, map_bounds};
use super::session::Session;
use super::window::Screen;
use crate::engine::board::Board;
use crate::engine::command::Command;

/// Screen space the panels take, in logical pixels: the map is fitted to the rest.
pub const TOP_BAR: f32 = 58.0;
pub const RIGHT_PANEL: f32 = 370.0;
pub const BOTTOM_PANEL: f32 = 0.0;

/// The space the panels took in the last frame, in logical pixels (the top bar wraps
/// on a narrow window, and both grow with the UI scale); zero before they are drawn.
#[derive(Resource, Default, Clone, Copy)]
pub struct PanelSpace {
    pub top: f32,
    pub right: f32,
}

pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<DragState>()
            .init_resource::<PanelSpace>()
            .init_resource::<FitPending>()
            .init_resource::<FollowedRevision>()
            .add_systems(Startup, spawn_camera)
            .add_systems(OnEnter(Screen::Playing), fit_on_enter)
            .add_systems(
                Update,
                (
                    apply_pending_fit,
                    follow_decision.after(apply_pending_fit),
                    fit_on_request.after(follow_decision),
                    pointer_input.run_if(not(egui_wants_any_pointer_input)),
                    keyboard_input.run_if(not(egui_wants_any_keyboard_input)),
                )
                    .in_set(ClientSet::Input)
                    .run_if(in_state(Screen::Playing))
                    .run_if(resource_exists::<Session>),
            );
    }
}

#[derive(Component)]
pub struct MapCamera;

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, MapCamera));
}

/// The panels' space: as drawn in the last frame, else as they are drawn at the UI
/// scale in force (before the first frame).
pub fn panels(space: &PanelSpace, display: &Option<Res<Display>>) -> PanelSpace {
    let scale = display.as_ref().map_or(1.0, |d| d.settings.ui_scale);
    PanelSpace {
        top: if space.top > 0.0 {
            space.top
        } else {
            TOP_BAR * scale
        },
        right: if space.right > 0.0 {
            space.right
        } else {
            RIGHT_PANEL * scale
        },
    }
}

/// The window's space left to the map by the panels, in logical pixels, and the
/// offset of its centre from the window's.
fn free_area(window: &Window, panels: PanelSpace) -> (Vec2, Vec2) {
    let (right, top) = (panels.right, panels.top);
    let free = Vec2::new(
        (window.width() - right).max(100.0),
        (window.height() - top - BOTTOM_PANEL).max(100.0),
    );
    (free, Vec2::new(right / 2.0, -(BOTTOM_PANEL - top) / 2.0))
}

/// The world centre and half-size of the map area the panels leave, for a camera at
/// `transform` zoomed by `zoom`.
pub fn map_area(
    window: &Window,
    transform: &Transform,
    zoom: f32,
    panels: PanelSpace,
) -> (Vec2, Vec2) {
    let (free, offset) = free_area(window, panels);
    (
        transform.translation.truncate() - offset * zoom,
        free * zoom / 2.0,
    )
}

/// Centres the map in the space the panels leave and zooms it to fit; with `max_scale`
/// the zoom stops there (1.0 keeps counters legible on a tall map).
pub fn fit(
    board: &Board,
    window: &Window,
    transform: &mut Transform,
    projection: &mut Projection,
    max_scale: f32,
    panels: PanelSpace,
) {
    let (min, max) = map_bounds(board.columns, board.rows);
    let (free, offset) = free_area(window, panels);
    let size = max - min;
    let scale = (size.x / free.x).max(size.y / free.y).min(max_scale);
    if let Projection::Orthographic(ortho) = projection {
        ortho.scale = scale;
    }
    // The free area's centre is off the window's centre by half the panels.
    let center = (min + max) / 2.0 + offset * scale;
    transform.translation = center.extend(transform.translation.z);
}

/// Set when a game's view opens: the camera is fitted on the next frame that has a
/// camera and a window (the initial state's `OnEnter` runs before `Startup`).
#[derive(Resource, Default)]
struct FitPending(bool);

fn fit_on_enter(mut pending: ResMut<FitPending>) {
    pending.0 = true;
}

/// What fitting the map to the view reads and moves.
#[derive(bevy::ecs::system::SystemParam)]
struct MapFit<'w, 's> {
    session: Res<'w, Session>,
    display: Option<Res<'w, Display>>,
    space: Res<'w, PanelSpace>,
    window: Single<'w, 's, &'static Window, With<PrimaryWindow>>,
    camera: Single<'w, 's, (&'static mut Transform, &'static mut Projection), With<MapCamera>>,
}

impl MapFit<'_, '_> {
    /// The whole map in the space the panels leave, zoomed out no further than
    /// `max_scale`.
    fn fit(&mut self, max_scale: f32) {
        let board = self.session.game.world.resource::<Board>();
        let panels = panels(&self.space, &self.display);
        let (transform, projection) = &mut *self.camera;
        fit(
            board,
            &self.window,
            transform,
            projection,
            max_scale,
            panels,
        );
    }
}

fn apply_pending_fit(mut pending: ResMut<FitPending>, mut view: MapFit) {
    if !pending.0 {
        return;
    }
    pending.0 = false;
    view.fit(1.0);
}

/// F or the input line `fit`: the whole map in the space the panels leave.
fn fit_on_request(mut inputs: MessageReader<PlayerInput>, mut view: MapFit) {
    if inputs.read().any(|i| *i == PlayerInput::FitMap) {
        view.fit(f32::MAX);
    }
}

/// The game revision whose decision the camera last looked at.
#[derive(Resource, Default)]
struct FollowedRevision(Option<u64>);

/// When the rules wait for a hex to be chosen (a placement in the set-up, a recoil)
/// and none of the hexes offered is in view, the camera pans to them: the player
/// never has to hunt for where to click.
fn follow_decision(
    session: Res<Session>,
    mut followed: ResMut<FollowedRevision>,
    display: Option<Res<Display>>,
    space: Res<PanelSpace>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Single<(&mut Transform, &Projection), With<MapCamera>>,
) {
    if followed.0 == Some(session.revision) {
        return;
    }
    followed.0 = Some(session.revision);
    let Some(decision) = super::controller::pending_decision(&session) else {
        return;
    };
    let points: Vec<Vec2> = decision
        .choices
        .iter()
        .filter_map(|c| c.hex)
        .map(super::layout::hex_center)
        .collect();
    if points.is_empty() {
        return;
    }
    let (transform, projection) = &mut *camera;
    let scale = match projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    // The map area left by the panels, in world units around the camera.
    let (view_center, half) = map_area(&window, transform, scale, panels(&space, &display));
    let offset = transform.translation.truncate() - view_center;
    let in_view = points.iter().any(|p| {
        let d = (*p - view_center).abs();
        d.x < half.x && d.y < half.y
    });
    if in_view {
        return;
    }
    // Centred on the hexes offered, but no further than the map's own edges.
    let centroid = points.iter().copied().sum::<Vec2>() / points.len() as f32;
    let board = session.game.world.resource::<Board>();
    let (min, max) = map_bounds(board.columns, board.rows);
    let clamp = |v: f32, lo: f32, hi: f32| {
        if lo <= hi {
            v.clamp(lo, hi)
        } else {
            (lo + hi) / 2.0
        }
    };
    let view = Vec2::new(
        clamp(centroid.x, min.x + half.x, max.x - half.x),
        clamp(centroid.y, min.y + half.y, max.y - half.y),
    );
    let center = view + offset;
    transform.translation = center.extend(transform.translation.z);
}

#[derive(Resource, Default)]
struct DragState {
    /// Where a press began, in window pixels, and whether it has turned into a drag.
    pressed_at: Option<Vec2>,
    dragging: bool,
    last: Option<Vec2>,
    hovered: Option<Option<crate::engine::hex::HexCoord>>,
}

#[allow(clippy::too_many_arguments)]
fn pointer_input(
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Single<
        (&Camera, &GlobalTransform, &mut Transform, &mut Projection),
        With<MapCamera>,
    >,
    buttons: Res<ButtonInput<MouseButton>>,
    keys: Res<ButtonInput<KeyCode>>,
    scroll: Res<AccumulatedMouseScroll>,
    session: Res<Session>,
    mut drag: ResMut<DragState>,
    mut input: MessageWriter<PlayerInput>,
) {
    let Some(cursor) = window.cursor_position() else {
        return;
    };
    let (cam, global, transform, projection) = &mut *camera;
    let scale = match &**projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    let board = session.game.world.resource::<Board>();
    // Zoom on the cursor: the world point under it stays under it.
    if scroll.delta.y != 0.0
        && let Ok(before) = cam.viewport_to_world_2d(global, cursor)
        && let Projection::Orthographic(ortho) = &mut **projection
    {
        let factor = (1.0 - scroll.delta.y * 0.1).clamp(0.5, 2.0);
        let new_scale = (ortho.scale * factor).clamp(0.2, 4.0);
        let ratio = new_scale / ortho.scale;
        ortho.scale = new_scale;
        let t = transform.translation.truncate();
        let moved = before + (t - before) * ratio;
        transform.translation = moved.extend(transform.translation.z);
        return;
    }
    let any_pressed =
        buttons.any_pressed([MouseButton::Left, MouseButton::Middle, MouseButton::Right]);
    if buttons.any_just_pressed([MouseButton::Left, MouseButton::Middle, MouseButton::Right]) {
        drag.pressed_at = Some(cursor);
        drag.dragging = false;
        drag.last = Some(cursor);
    }
    if any_pressed && let (Some(start), Some(last)) = (drag.pressed_at, drag.last) {
        if cursor.distance(start) > 5.0 {
            drag.dragging = true;
        }
        if drag.dragging {
            let delta = cursor - last;
            transform.translation.x -= delta.x * scale;
            transform.translation.y += delta.y * scale;
        }
        drag.last = Some(cursor);
    }
    let Ok(point) = cam.viewport_to_world_2d(global, cursor) else {
        return;
    };
    let hex = hex_at(point, board.columns, board.rows);
    if drag.hovered != Some(hex) {
        drag.hovered = Some(hex);
        input.write(PlayerInput::Hover(hex));
    }
    let released_click = |b: MouseButton| buttons.just_released(b);
    if !drag.dragging {
        if released_click(MouseButton::Left)
            && let Some(hex) = hex
        {
            if keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]) {
                input.write(PlayerInput::GroupClick(hex));
            } else {
                input.write(PlayerInput::Click(hex));
            }
        }
        if released_click(MouseButton::Right) {
            input.write(PlayerInput::Cancel);
        }
    }
    if !any_pressed {
        drag.pressed_at = None;
        drag.dragging = false;
    }
}

fn keyboard_input(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    session: Res<Session>,
    mut camera: Single<(&mut Transform, &mut Projection), With<MapCamera>>,
    mut input: MessageWriter<PlayerInput>,
) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let (transform, projection) = &mut *camera;
    if ctrl {
        if keys.just_pressed(KeyCode::KeyZ) && !shift {
            input.write(PlayerInput::Undo);
        }
        if keys.just_pressed(KeyCode::KeyY) || (keys.just_pressed(KeyCode::KeyZ) && shift) {
            input.write(PlayerInput::Redo);
        }
        if keys.just_pressed(KeyCode::KeyS) {
            input.write(PlayerInput::Save);
        }
        return;
    }
    let scale = match &**projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    let mut pan = Vec2::ZERO;
    if keys.any_pressed([KeyCode::KeyW, KeyCode::ArrowUp]) {
        pan.y += 1.0;
    }
    if keys.any_pressed([KeyCode::KeyS, KeyCode::ArrowDown]) {
        pan.y -= 1.0;
    }
    if keys.any_pressed([KeyCode::KeyA, KeyCode::ArrowLeft]) {
        pan.x -= 1.0;
    }
    if keys.any_pressed([KeyCode::KeyD, KeyCode::ArrowRight]) {
        pan.x += 1.0;
    }
    if pan != Vec2::ZERO {
        let step = pan.normalize() * 600.0 * scale * time.delta_secs();
        transform.translation += step.extend(0.0);
    }
    // The map's keys, each one input.
    let single_keys = [
        (KeyCode::KeyF, PlayerInput::FitMap),
        (KeyCode::KeyE, PlayerInput::Submit(Command::EndPhase)),
        (KeyCode::KeyZ, PlayerInput::ToggleZoc),
        (KeyCode::KeyL, PlayerInput::ToggleLabels),
        (KeyCode::KeyV, PlayerInput::ToggleSight),
        (KeyCode::KeyT, PlayerInput::ToggleThreats),
        (KeyCode::F1, PlayerInput::ToggleHelp),
        (KeyCode::F2, PlayerInput::ToggleAids),
        (KeyCode::KeyM, PlayerInput::ToggleMinimap),
    ];
    for (key, action) in single_keys {
        if keys.just_pressed(key) {
            input.write(action);
        }
    }
    if keys.just_pressed(KeyCode::Escape) {
        input.write(PlayerInput::Cancel);
    }
    // The replay view: , and . step back and forth, Home and End go to either end.
    if let Some(view) = &session.replay {
        use crate::client::controller::ReplayInput;
        let replay = |r: ReplayInput| PlayerInput::Replay(r);
        if keys.just_pressed(KeyCode::Comma) {
            input.write(replay(ReplayInput::Step(-1)));
        }
        if keys.just_pressed(KeyCode::Period) {
            input.write(replay(ReplayInput::Step(1)));
        }
        if keys.just_pressed(KeyCode::Home) {
            input.write(replay(ReplayInput::Seek(0)));
        }
        if keys.just_pressed(KeyCode::End) {
            input.write(replay(ReplayInput::Seek(view.commands.len())));
        }
    }
}
