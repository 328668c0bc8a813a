//! The window's settings and player aids input, headless: `settings.ron` (size and UI
//! scale) read, written and refused with its place; the input lines `help`, `aids`,
//! `minimap` and `ui-scale`; the aids and help answer behind the hand-over screen,
//! which still refuses the map.

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;

use bataille::client::controller::{
    ControllerPlugin, Interaction, PlayerInput, UiScaleChange, parse_input_line,
};
use bataille::client::session::Session;
use bataille::client::settings::{Settings, UI_SCALE_MAX, UI_SCALE_MIN};

use crate::common::*;

#[test]
fn settings_are_written_and_read_back_and_default_when_absent() {
    let dir = scratch("settings_round_trip");
    let path = dir.join("settings.ron");
    assert_eq!(Settings::load(&path).unwrap(), Settings::default());
    let s = Settings {
        window: (1920, 1080),
        ui_scale: 1.75,
    };
    s.save(&path).unwrap();
    assert_eq!(Settings::load(&path).unwrap(), s);
}

#[test]
fn a_malformed_settings_file_is_refused_with_its_place_and_left_alone() {
    let dir = scratch("settings_malformed");
    let path = dir.join("settings.ron");
    let text = "(\n    window: (1920, 1080),\n    ui_scale: \"big\",\n)\n";
    std::fs::write(&path, text).unwrap();
    let err = Settings::load(&path).unwrap_err().to_string();
    assert!(err.contains("settings.ron:3:"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "nothing is lost"
    );
    std::fs::write(&path, "(window: (1920, 1080), ui_scale: 9.0)").unwrap();
    let err = Settings::load(&path).unwrap_err().to_string();
    assert!(
        err.contains("settings.ron:1:24") && err.contains("ui_scale 9"),
        "{err}"
    );
    std::fs::write(&path, "(window: (100, 80))").unwrap();
    let err = Settings::load(&path).unwrap_err().to_string();
    assert!(err.contains("too small"), "{err}");
}

#[test]
fn the_ui_scale_steps_by_a_quarter_within_its_limits() {
    let mut s = Settings::default();
    assert_eq!(s.stepped_scale(true), 1.25);
    assert_eq!(s.stepped_scale(false), 0.75);
    s.ui_scale = UI_SCALE_MAX;
    assert_eq!(s.stepped_scale(true), UI_SCALE_MAX);
    s.ui_scale = UI_SCALE_MIN;
    assert_eq!(s.stepped_scale(false), UI_SCALE_MIN);
}

#[test]
fn aids_help_minimap_and_ui_scale_input_lines_parse_and_locate_errors() {
    assert_eq!(
        parse_input_line("help").unwrap(),
        Some(PlayerInput::ToggleHelp)
    );
    assert_eq!(
        parse_input_line("aids").unwrap(),
        Some(PlayerInput::ToggleAids)
    );
    assert_eq!(
        parse_input_line("aids 2").unwrap(),
        Some(PlayerInput::AidPage(2))
    );
    assert_eq!(
        parse_input_line("minimap").unwrap(),
        Some(PlayerInput::ToggleMinimap)
    );
    assert_eq!(
        parse_input_line("ui-scale 2").unwrap(),
        Some(PlayerInput::UiScale(UiScaleChange::Set(2.0)))
    );
    assert_eq!(
        parse_input_line("ui-scale +").unwrap(),
        Some(PlayerInput::UiScale(UiScaleChange::Larger))
    );
    let err = parse_input_line("ui-scale 7").unwrap_err();
    assert_eq!(err.column, 10, "{}", err.message);
    assert!(err.message.contains("found `7`"), "{}", err.message);
    let err = parse_input_line("aids many").unwrap_err();
    assert_eq!(err.column, 6, "{}", err.message);
}

#[test]
fn aids_and_help_answer_behind_the_hand_over_screen_which_still_guards_the_map() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, ControllerPlugin))
        .insert_resource(Session::new(kalavryai(3), None));
    app.update();
    let ui = |app: &App| {
        let i = app.world().resource::<Interaction>();
        (
            i.hand_over.is_some(),
            i.show_help,
            i.aid_page,
            i.show_minimap,
        )
    };
    assert_eq!(ui(&app), (true, false, None, true));
    for input in [
        PlayerInput::ToggleHelp,
        PlayerInput::AidPage(1),
        PlayerInput::ToggleMinimap,
    ] {
        app.world_mut().write_message(input);
        app.update();
    }
    assert_eq!(ui(&app), (true, true, Some(1), false));
    // A map input behind the screen is still refused.
    app.world_mut().write_message(PlayerInput::ToggleZoc);
    app.update();
    let i = app.world().resource::<Interaction>();
    assert!(!i.show_zoc && i.unheeded, "{}", i.status);
    app.world_mut().write_message(PlayerInput::ToggleAids);
    app.update();
    assert_eq!(ui(&app).2, None);
}
