//! The window: the app with its two screens (the scenario menu and the game), the
//! command-line options of the client, the in-Bevy screenshot and the frame-time
//! benchmark. Drawing is in `map` and `panels`, input in `camera`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::PresentMode;
use bevy_egui::EguiPlugin;

use super::art::{ArtCatalogue, assets_dir};
use super::art_assets::{Art, ArtPlugin};
use super::controller::{
    ClientSet, ControllerPlugin, Interaction, PlayerInput, parse_input_script,
};
use super::display::{Display, DisplayPlugin};
use super::session::{Session, autosave_path};
use super::settings::{Settings, clamp_scale, settings_path};
use super::{camera, map, panels};
use crate::ai::Player;

/// How the window was asked for on the command line.
#[derive(Resource, Clone, Debug, Default)]
pub struct ClientOptions {
    /// Start this scenario at once instead of showing the menu.
    pub scenario: Option<PathBuf>,
    /// Resume this save at once.
    pub load: Option<PathBuf>,
    /// The dice seed of a new game; from the clock when absent.
    pub seed: Option<u64>,
    /// Save a screenshot taken inside Bevy after `frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
    pub frames: u32,
    /// Run this many frames, print frame-time statistics, exit.
    pub bench_frames: Option<u32>,
    /// Inputs to play into the window, one per frame, before the screenshot
    /// (`controller::parse_input_line`).
    pub input: Option<PathBuf>,
    /// When the process started, for the time to the first interactive frame.
    pub started: Option<Instant>,
    /// Optional rules switched on for a new game (`--option`).
    pub options: Vec<String>,
    /// `--window-size`, `--ui-scale`: over the saved settings.
    pub window_size: Option<(u32, u32)>,
    pub ui_scale: Option<f32>,
    /// `--side SIDE=LEVEL`: who plays each side of the game opened (people when absent).
    pub sides: Vec<String>,
}

impl ClientOptions {
    /// A run that makes a picture or a measure: the same window every time, and the
    /// player's saved settings neither read nor written.
    pub fn unattended(&self) -> bool {
        self.screenshot.is_some() || self.bench_frames.is_some()
    }
}

/// Which screen is shown.
#[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Screen {
    #[default]
    Menu,
    Playing,
}

/// Marks every entity of a game's view, despawned when the game is left.
#[derive(Component)]
pub struct InGame;

/// A new game's seed: the one asked for, else the clock's nanoseconds.
pub fn new_seed(options: &ClientOptions) -> u64 {
    options.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    })
}

/// Opens the window; returns when it closes.
pub fn run(mut options: ClientOptions) -> Result<(), String> {
    options.started.get_or_insert_with(Instant::now);
    let scripted = match &options.input {
        Some(path) => parse_input_script(path)?,
        None => Vec::new(),
    };
    // A game asked for on the command line is loaded before the window opens, so a
    // bad file is an error message and exit status 1, not a window.
    let session = if let Some(save) = &options.load {
        Some(Session::load(save, Some(autosave_path())).map_err(|e| e.to_string())?)
    } else if let Some(path) = &options.scenario {
        Some(
            Session::start(
                path,
                new_seed(&options),
                &options.options,
                Some(autosave_path()),
            )
            .map_err(|e| e.to_string())?,
        )
    } else {
        None
    };
    let session = match session {
        Some(mut s) if !options.sides.is_empty() => {
            s.players =
                crate::ai::players_from_args(&s.game.scenario, &options.sides, Player::Human)?;
            Some(s)
        }
        other => other,
    };
    let title = match &session {
        Some(s) => format!(
            "bataille — {} ({})",
            s.game.scenario.file.name, s.game.scenario.file.date
        ),
        None => "bataille".to_string(),
    };
    let assets = assets_dir()
        .ok_or("no assets/ folder with art.ron beside the program or in the working directory")?;
    let catalogue = ArtCatalogue::load(&assets).map_err(|e| e.to_string())?;
    // An unattended run (screenshot, benchmark) is the same every time: the player's
    // settings are neither read nor written.
    let (mut settings, settings_file) = if options.unattended() {
        (Settings::default(), None)
    } else {
        let path = settings_path();
        match Settings::load(&path) {
            Ok(s) => (s, Some(path)),
            Err(e) => {
                eprintln!(
                    "bataille: {e}\n(the window opens with the default settings and leaves the file as it is until a setting changes)"
                );
                (Settings::default(), Some(path))
            }
        }
    };
    if let Some(size) = options.window_size {
        settings.window = size;
    }
    if let Some(scale) = options.ui_scale {
        settings.ui_scale = clamp_scale(scale);
    }
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title,
                    resolution: settings.window.into(),
                    resizable: true,
                    present_mode: if options.bench_frames.is_some() {
                        PresentMode::AutoNoVsync
                    } else {
                        PresentMode::AutoVsync
                    },
                    ..default()
                }),
                ..default()
            })
            .set(AssetPlugin {
                file_path: assets.to_string_lossy().into_owned(),
                meta_check: bevy::asset::AssetMetaCheck::Never,
                ..default()
            }),
    )
    .add_plugins(EguiPlugin::default())
    .add_plugins(ArtPlugin {
        catalogue,
        dir: assets.clone(),
    })
    .add_plugins(DisplayPlugin)
    .insert_resource(Display::new(settings, settings_file))
    .add_plugins(bevy_ecs_tilemap::TilemapPlugin)
    .add_plugins(ControllerPlugin)
    .init_state::<Screen>()
    .insert_resource(ClearColor(Color::srgb(0.12, 0.12, 0.14)))
    .insert_resource(options.clone())
    .init_resource::<FrameStats>()
    .insert_resource(ScriptedInput(scripted.into()))
    .add_plugins((camera::CameraPlugin, map::MapPlugin, panels::PanelsPlugin))
    .add_systems(OnExit(Screen::Playing), leave_game)
    .add_systems(
        Update,
        play_scripted_input
            .in_set(ClientSet::Input)
            .run_if(in_state(Screen::Playing)),
    )
    .add_systems(First, frame_start)
    .add_systems(
        Last,
        (frame_end, screenshot_and_exit, bench_and_exit).chain(),
    );
    if let Some(session) = session {
        app.insert_resource(session).insert_state(Screen::Playing);
    }
    if options.bench_frames.is_some() {
        // Measured, the main world's systems all run on the main thread, so its CPU
        // clock holds all of their work (multi-threaded, they would be spread over
        // the task pool and the main thread's clock would hold only part of it).
        let mut schedules = app.world_mut().resource_mut::<Schedules>();
        for (_, schedule) in schedules.iter_mut() {
            schedule.set_executor(bevy::ecs::schedule::SingleThreadedExecutor::new());
        }
    }
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => Err(format!("the window stopped on an error (code {code})")),
    }
}

/// The inputs of `--input`, still to play.
#[derive(Resource, Default)]
struct ScriptedInput(std::collections::VecDeque<PlayerInput>);

/// Plays one scripted input per frame once the map is up (from the third frame).
fn play_scripted_input(
    mut script: ResMut<ScriptedInput>,
    mut frame: Local<u32>,
    mut input: MessageWriter<PlayerInput>,
) {
    *frame += 1;
    if *frame < 3 {
        return;
    }
    if let Some(next) = script.0.pop_front() {
        input.write(next);
    }
}

fn leave_game(mut commands: Commands, view: Query<Entity, With<InGame>>) {
    for e in &view {
        commands.entity(e).despawn();
    }
    commands.remove_resource::<Session>();
    commands.remove_resource::<map::MapDrawn>();
    commands.insert_resource(Interaction::new());
}

/// Per frame: the main world's work from First to Last (wall time), the CPU time the
/// main thread spent in the whole frame, the CPU time of the whole process (every
/// thread: the render thread, and under Xvfb the software rasteriser), and the wall
/// time between frames.
#[derive(Resource, Default)]
struct FrameStats {
    frame_began: Option<Instant>,
    last_frame: Option<Instant>,
    /// The main thread's and the process's CPU clocks at the last frame's start.
    last_cpu: Option<(Duration, Duration)>,
    cpu: Vec<Duration>,
    main_thread: Vec<Duration>,
    process: Vec<Duration>,
    wall: Vec<Duration>,
    frames: u32,
    interactive_reported: bool,
}

/// A CPU clock of this thread or of the whole process.
fn cpu_clock(clock: libc::clockid_t) -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill; the clock ids are constants.
    let ok = unsafe { libc::clock_gettime(clock, &mut t) } == 0;
    if ok {
        Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
    } else {
        Duration::ZERO
    }
}

/// The frame's first system, on the main thread (`NonSendMarker`), so the thread CPU
/// clock it reads is the main thread's.
fn frame_start(mut stats: ResMut<FrameStats>, _main_thread: bevy::ecs::system::NonSendMarker) {
    let now = Instant::now();
    if let Some(last) = stats.last_frame {
        stats.wall.push(now - last);
    }
    let clocks = (
        cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID),
        cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID),
    );
    if let Some((thread, process)) = stats.last_cpu {
        stats.main_thread.push(clocks.0.saturating_sub(thread));
        stats.process.push(clocks.1.saturating_sub(process));
    }
    stats.last_cpu = Some(clocks);
    stats.last_frame = Some(now);
    stats.frame_began = Some(now);
}

fn frame_end(
    mut stats: ResMut<FrameStats>,
    options: Res<ClientOptions>,
    screen: Res<State<Screen>>,
    map: Option<Res<map::MapDrawn>>,
) {
    if let Some(began) = stats.frame_began {
        let cpu = began.elapsed();
        stats.cpu.push(cpu);
    }
    stats.frames += 1;
    // The first frame after the map is drawn (once its art is loaded) is the first
    // interactive one.
    if *screen.get() == Screen::Playing && !stats.interactive_reported && map.is_some() {
        stats.interactive_reported = true;
        if let Some(started) = options.started
            && options.bench_frames.is_some()
        {
            println!(
                "first interactive frame after {:.0} ms",
                started.elapsed().as_secs_f64() * 1000.0
            );
        }
    }
}

fn median(values: &mut [Duration]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort();
    values[values.len() / 2].as_secs_f64() * 1000.0
}

fn percentile(values: &[Duration], p: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let i = ((values.len() - 1) as f64 * p).round() as usize;
    values[i].as_secs_f64() * 1000.0
}

/// With `--bench-frames N`: after N frames, prints the frame-time statistics and exits.
fn bench_and_exit(
    mut stats: ResMut<FrameStats>,
    options: Res<ClientOptions>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(n) = options.bench_frames else {
        return;
    };
    if stats.frames < n.max(2) {
        return;
    }
    // The first frames build pipelines and the map; skip them.
    let skip = (stats.cpu.len() / 10).min(30);
    let tail = |v: &[Duration]| v[skip.min(v.len())..].to_vec();
    let mut cpu = tail(&stats.cpu);
    let mut wall = tail(&stats.wall);
    let mut main_thread = tail(&stats.main_thread);
    let mut process = tail(&stats.process);
    let cpu_median = median(&mut cpu);
    let wall_median = median(&mut wall);
    let main_median = median(&mut main_thread);
    let process_median = median(&mut process);
    println!(
        "{} frames measured: main thread CPU per frame median {:.3} ms, p90 {:.3} ms, max {:.3} ms; main-world systems (First to Last, wall) median {:.3} ms, p90 {:.3} ms; whole process CPU per frame median {:.3} ms (every thread, with the renderer); wall time per frame median {:.3} ms, p90 {:.3} ms",
        main_thread.len(),
        main_median,
        percentile(&main_thread, 0.9),
        percentile(&main_thread, 1.0),
        cpu_median,
        percentile(&cpu, 0.9),
        process_median,
        wall_median,
        percentile(&wall, 0.9),
    );
    stats.frames = 0;
    exit.write(AppExit::Success);
}

/// With `--screenshot FILE --frames N`: N frames after the art is loaded, a
/// screenshot from inside Bevy; once it is on disk (or 300 frames later), exit.
fn screenshot_and_exit(
    mut commands: Commands,
    options: Res<ClientOptions>,
    art: Option<Res<Art>>,
    mut frame: Local<u32>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(path) = &options.screenshot else {
        return;
    };
    if !art.is_some_and(|a| a.ready) {
        return;
    }
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
