//! The minimap, for a map larger than the view: the whole map in its terrain's colours
//! (each tile's average colour, read from the art), the counters the viewer sees, and
//! the view's outline; a click or drag on it moves the view there. M shows or hides it.

use std::collections::HashMap;

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};

use super::art_assets::Art;
use super::camera::{MapCamera, PanelSpace, map_area, panels};
use super::controller::Interaction;
use super::counters::CounterSpots;
use super::display::Display;
use super::layout::{HEX_RADIUS, hex_center, map_bounds};
use super::session::Session;
use crate::engine::board::Board;
use crate::engine::units::{SideId, Units};

/// The minimap's width in points; its height follows the map's shape.
const WIDTH: f32 = 220.0;
const MAX_HEIGHT: f32 = 180.0;

/// The average colour of each terrain's tile, read once its image is loaded.
#[derive(Default)]
pub struct TerrainColours(HashMap<String, egui::Color32>);

fn average_colour(image: &Image) -> Option<egui::Color32> {
    let data = image.data.as_ref()?;
    let (mut sum, mut n) = ([0u64; 3], 0u64);
    for px in data.chunks_exact(4) {
        if px[3] > 200 {
            for i in 0..3 {
                sum[i] += px[i] as u64;
            }
            n += 1;
        }
    }
    (n > 0).then(|| {
        egui::Color32::from_rgb((sum[0] / n) as u8, (sum[1] / n) as u8, (sum[2] / n) as u8)
    })
}

#[allow(clippy::too_many_arguments)]
pub fn minimap(
    mut contexts: EguiContexts,
    session: Res<Session>,
    ui_state: Res<Interaction>,
    art: Option<Res<Art>>,
    images: Res<Assets<Image>>,
    spots: Res<CounterSpots>,
    display: Option<Res<Display>>,
    space: Res<PanelSpace>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut camera: Single<(&mut Transform, &Projection), With<MapCamera>>,
    mut colours: Local<TerrainColours>,
) -> Result {
    let Some(art) = art.filter(|a| a.ready) else {
        return Ok(());
    };
    if !ui_state.show_minimap || ui_state.hand_over.is_some() {
        return Ok(());
    }
    let world = &session.game.world;
    let board = world.resource::<Board>();
    let (transform, projection) = &mut *camera;
    let zoom = match projection {
        Projection::Orthographic(o) => o.scale,
        _ => 1.0,
    };
    let (view_centre, view_half) = map_area(&window, transform, zoom, panels(&space, &display));
    let (min, max) = map_bounds(board.columns, board.rows);
    // Only for a map the view does not hold whole (within the half hex of margin
    // `map_bounds` leaves around it).
    let slack = HEX_RADIUS / 2.0;
    if view_centre.x - view_half.x <= min.x + slack
        && view_centre.x + view_half.x >= max.x - slack
        && view_centre.y - view_half.y <= min.y + slack
        && view_centre.y + view_half.y >= max.y - slack
    {
        return Ok(());
    }
    for name in &board.terrain_names {
        if !colours.0.contains_key(name)
            && let Some(c) = images.get(&art.terrain(name).0).and_then(average_colour)
        {
            colours.0.insert(name.clone(), c);
        }
    }
    let size = max - min;
    let k = (WIDTH / size.x).min(MAX_HEIGHT / size.y);
    let ctx = contexts.ctx_mut()?;
    let units = world.resource::<Units>();
    let mut jump: Option<Vec2> = None;
    egui::Area::new("minimap".into())
        .order(egui::Order::Background)
        .anchor(egui::Align2::LEFT_BOTTOM, egui::vec2(8.0, -8.0))
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                let (rect, response) = ui.allocate_exact_size(
                    egui::vec2(size.x * k, size.y * k),
                    egui::Sense::click_and_drag(),
                );
                let to_screen = |p: Vec2| {
                    egui::pos2(
                        rect.left() + (p.x - min.x) * k,
                        rect.top() + (max.y - p.y) * k,
                    )
                };
                let painter = ui.painter_at(rect);
                for hex in board.hexes() {
                    let c = colours
                        .0
                        .get(board.terrain_name(hex))
                        .copied()
                        .unwrap_or(egui::Color32::from_rgb(200, 200, 160));
                    let shade = board.elevation(hex).clamp(0, 3) as u8 * 18;
                    let c = egui::Color32::from_rgb(
                        c.r().saturating_sub(shade),
                        c.g().saturating_sub(shade),
                        c.b().saturating_sub(shade),
                    );
                    let centre = hex_center(hex);
                    let corners: Vec<egui::Pos2> = (0..6)
                        .map(|i| {
                            let a = (60.0 * i as f32).to_radians();
                            to_screen(centre + Vec2::new(a.cos(), a.sin()) * (HEX_RADIUS + 0.5))
                        })
                        .collect();
                    painter.add(egui::Shape::convex_polygon(corners, c, egui::Stroke::NONE));
                }
                // The counters the map draws for this viewer: nothing hidden shows.
                for (id, (at, _, _)) in &spots.0 {
                    let side = world
                        .get::<SideId>(units.entity(*id))
                        .copied()
                        .unwrap_or_default();
                    let [r, g, b] = session.game.ruleset.side_colour(world, side);
                    painter.rect_filled(
                        egui::Rect::from_center_size(to_screen(*at), egui::vec2(4.0, 4.0)),
                        0.0,
                        egui::Color32::from_rgb(r, g, b),
                    );
                }
                let view = egui::Rect::from_two_pos(
                    to_screen(view_centre - view_half),
                    to_screen(view_centre + view_half),
                );
                painter.rect_stroke(
                    view.intersect(rect),
                    0.0,
                    egui::Stroke::new(1.5, egui::Color32::WHITE),
                    egui::StrokeKind::Inside,
                );
                if (response.clicked() || response.dragged())
                    && let Some(p) = response.interact_pointer_pos()
                {
                    jump = Some(Vec2::new(
                        min.x + (p.x - rect.left()) / k,
                        max.y - (p.y - rect.top()) / k,
                    ));
                }
            });
        });
    if let Some(target) = jump {
        // Moves the camera so the map area's centre comes to the point clicked.
        let shift = target - view_centre;
        transform.translation += shift.extend(0.0);
    }
    Ok(())
}
