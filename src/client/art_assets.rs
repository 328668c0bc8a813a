//! The art in the window: every image and font `assets/art.ron` names, loaded by
//! Bevy's asset server at start-up and watched until loaded; a file that fails to load
//! ends the window with its name (so the screenshot tests fail on a missing asset).

use std::collections::HashMap;

use bevy::asset::LoadState;
use bevy::prelude::*;

use super::art::ArtCatalogue;

/// The catalogue and a handle to everything it names.
#[derive(Resource)]
pub struct Art {
    pub catalogue: ArtCatalogue,
    /// Images by their path in the catalogue.
    images: HashMap<String, Handle<Image>>,
    pub font: Handle<Font>,
    pub bold: Handle<Font>,
    /// Everything is loaded: the map may be drawn and screenshots taken.
    pub ready: bool,
}

impl Art {
    /// The handle of an image the catalogue names (a default handle, drawn as nothing,
    /// for a path it does not name: `ArtCatalogue::load` checked every one).
    pub fn image(&self, path: &str) -> Handle<Image> {
        self.images.get(path).cloned().unwrap_or_default()
    }

    /// The tile of a terrain, and its elevation shade.
    pub fn terrain(&self, name: &str) -> (Handle<Image>, u8) {
        match self.catalogue.terrain(name) {
            Ok(t) => (self.image(&t.tile), t.shade),
            Err(_) => (Handle::default(), 0),
        }
    }

    pub fn hexside(&self, name: &str) -> Handle<Image> {
        self.catalogue
            .hexsides
            .get(name)
            .map(|p| self.image(p))
            .unwrap_or_default()
    }

    pub fn elevation(&self, level: u8) -> Option<Handle<Image>> {
        self.catalogue.elevation(level).map(|p| self.image(p))
    }

    /// The symbol of a troop type of a ruleset, if it has one.
    pub fn troop_symbol(&self, ruleset: &str, troop: &str) -> Option<Handle<Image>> {
        match self.catalogue.troop_symbol(ruleset, troop) {
            Ok(Some(path)) => Some(self.image(path)),
            _ => None,
        }
    }
}

pub struct ArtPlugin {
    pub catalogue: ArtCatalogue,
    /// The assets folder, for the panels' fonts (egui reads font bytes, not assets).
    pub dir: std::path::PathBuf,
}

impl Plugin for ArtPlugin {
    fn build(&self, app: &mut App) {
        let catalogue = self.catalogue.clone();
        app.add_systems(
            Startup,
            move |mut commands: Commands, server: Res<AssetServer>| {
                let mut images = HashMap::new();
                for (_, path) in catalogue.files() {
                    if path.ends_with(".png") {
                        images.insert(path.to_string(), server.load::<Image>(path.to_string()));
                    }
                }
                commands.insert_resource(Art {
                    font: server.load(catalogue.fonts.regular.clone()),
                    bold: server.load(catalogue.fonts.bold.clone()),
                    catalogue: catalogue.clone(),
                    images,
                    ready: false,
                });
            },
        )
        .add_systems(PreUpdate, watch_loading.run_if(resource_exists::<Art>));
        let fonts = [
            self.dir.join(&self.catalogue.fonts.regular),
            self.dir.join(&self.catalogue.fonts.bold),
        ];
        app.add_systems(
            bevy_egui::EguiPrimaryContextPass,
            move |mut contexts: bevy_egui::EguiContexts, mut done: Local<bool>| -> Result {
                if !*done {
                    *done = true;
                    set_panel_fonts(contexts.ctx_mut()?, &fonts);
                }
                Ok(())
            },
        );
    }
}

/// Until everything is loaded: marks the art ready, or ends the app naming the first
/// file that failed.
fn watch_loading(mut art: ResMut<Art>, server: Res<AssetServer>, mut exit: MessageWriter<AppExit>) {
    if art.ready {
        return;
    }
    let fonts = [
        (
            art.catalogue.fonts.regular.clone(),
            art.font.clone().untyped(),
        ),
        (art.catalogue.fonts.bold.clone(), art.bold.clone().untyped()),
    ];
    let images = art
        .images
        .iter()
        .map(|(p, h)| (p.clone(), h.clone().untyped()));
    let mut waiting = false;
    for (path, handle) in fonts.into_iter().chain(images) {
        match server.load_state(&handle) {
            LoadState::Loaded => {}
            LoadState::Failed(err) => {
                eprintln!("bataille: the asset `{path}` failed to load: {err}");
                exit.write(AppExit::error());
                return;
            }
            _ => waiting = true,
        }
    }
    if !waiting {
        art.ready = true;
        println!(
            "art loaded: {} images and 2 fonts from assets/art.ron",
            art.images.len()
        );
    }
}

/// The panels write in the art's font (DejaVu Sans), bold where egui makes text strong;
/// egui's own fonts stay behind it for any glyph it lacks. A font that cannot be read
/// leaves egui's (the window's art check has already named it).
fn set_panel_fonts(ctx: &bevy_egui::egui::Context, files: &[std::path::PathBuf; 2]) {
    use bevy_egui::egui::{FontData, FontDefinitions, FontFamily};
    let mut fonts = FontDefinitions::default();
    let Ok(regular) = std::fs::read(&files[0]) else {
        return;
    };
    fonts.font_data.insert(
        "art".into(),
        std::sync::Arc::new(FontData::from_owned(regular)),
    );
    fonts
        .families
        .entry(FontFamily::Proportional)
        .or_default()
        .insert(0, "art".into());
    if let Ok(bold) = std::fs::read(&files[1]) {
        fonts.font_data.insert(
            "art-bold".into(),
            std::sync::Arc::new(FontData::from_owned(bold)),
        );
        fonts.families.insert(
            FontFamily::Name("bold".into()),
            vec!["art-bold".into(), "art".into()],
        );
    }
    ctx.set_fonts(fonts);
}
