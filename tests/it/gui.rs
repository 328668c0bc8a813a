//! The real window under Xvfb (Mesa's software Vulkan): the menu, Civitate and
//! Quatre-Bras are rendered, screenshotted from inside Bevy, and the images checked not
//! to be blank.
//! `.ci/run` installs Xvfb and Mesa; these tests are built with the `gui` feature.

use std::path::Path;
use std::process::Command;

use crate::common::*;

/// Distinct colours in a PNG, and the share of its pixels in the commonest one.
fn colour_census(path: &Path) -> (usize, f64) {
    let file = std::fs::File::open(path).expect("the screenshot exists");
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let bytes = &buf[..info.buffer_size()];
    let channels = info.color_type.samples();
    let mut counts = std::collections::HashMap::new();
    for px in bytes.chunks(channels) {
        *counts.entry(px[..3].to_vec()).or_insert(0usize) += 1;
    }
    let total = bytes.len() / channels;
    let top = counts.values().copied().max().unwrap_or(0);
    (counts.len(), top as f64 / total.max(1) as f64)
}

fn screenshot(name: &str, args: &[&str]) -> std::path::PathBuf {
    let dir = scratch(name);
    let out = dir.join(format!("{name}.png"));
    let mut cmd = Command::new("xvfb-run");
    cmd.args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_bataille"))
        .args(args)
        .args(["--screenshot", out.to_str().unwrap(), "--frames", "30"])
        .env("BATAILLE_SAVE_DIR", &dir)
        .current_dir(root());
    let result = cmd
        .output()
        .expect("xvfb-run runs (install xvfb, xauth, mesa-vulkan-drivers: .ci/run does)");
    assert!(
        result.status.success(),
        "the window exits cleanly: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    assert!(out.exists(), "the screenshot was written");
    // The picture is of the art: every image and font of assets/art.ron loaded.
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(
        stdout.contains("art loaded: ") && stdout.contains("images and 2 fonts"),
        "the art was loaded before the screenshot: {stdout}"
    );
    out
}

/// Not blank: many colours (a blank or single-colour image has one or two), and the
/// background colour leaves at least `1 - max_share` of the pixels to what is drawn.
fn assert_not_blank(path: &Path, max_share: f64) {
    let (colours, top_share) = colour_census(path);
    assert!(
        colours > 50 && top_share < max_share,
        "{} looks blank: {colours} colours, the commonest covers {:.0}%",
        path.display(),
        top_share * 100.0
    );
}

#[test]
fn gui_menu_screenshot_is_not_blank() {
    let png = screenshot("menu", &[]);
    // The menu is text on a plain background.
    assert_not_blank(&png, 0.995);
}

#[test]
fn gui_civitate_screenshot_with_combat_preview_is_not_blank() {
    let png = screenshot(
        "civitate",
        &[
            "scenarios/a_la_charge/civitate_1053.ron",
            "--seed",
            "7",
            "--input",
            "scripts/window/civitate_combat_preview.txt",
        ],
    );
    assert_not_blank(&png, 0.6);
    // The map takes the middle of the window: terrain colours, not the background.
    let (colours, _) = colour_census(&png);
    assert!(colours > 500, "a drawn map has many colours: {colours}");
}

/// Pixels within a few levels of `rgb`.
fn pixels_near(path: &Path, rgb: [u8; 3]) -> usize {
    let file = std::fs::File::open(path).expect("the screenshot exists");
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let channels = info.color_type.samples();
    buf[..info.buffer_size()]
        .chunks(channels)
        .filter(|px| (0..3).all(|i| (px[i] as i32 - rgb[i] as i32).abs() <= 6))
        .count()
}

#[test]
fn gui_quatre_bras_screenshot_with_combat_preview_shows_orange_and_blue_counters() {
    let png = screenshot(
        "quatre_bras",
        &[
            "scenarios/morne_plaine/quatre_bras_1815.ron",
            "--seed",
            "3",
            "--input",
            "scripts/window/quatre_bras_combat_preview.txt",
        ],
    );
    assert_not_blank(&png, 0.6);
    // Morne Plaine's sides in their own colours (MP generalities): orange for the
    // Anglo-allied counters, blue for the French, each covering some counters' area.
    let (orange, blue) = (
        pixels_near(&png, [214, 110, 20]),
        pixels_near(&png, [40, 70, 170]),
    );
    assert!(
        orange > 2000 && blue > 2000,
        "orange {orange}, blue {blue} pixels"
    );
}

#[test]
fn gui_a_bad_scenario_is_an_error_not_a_window() {
    let result = Command::new(env!("CARGO_BIN_EXE_bataille"))
        .arg("tests/malformed/scenarios/hex_off_map.ron")
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(result.status.code(), Some(1));
    let err = String::from_utf8_lossy(&result.stderr);
    assert!(err.contains("hex_off_map.ron:"), "{err}");
}

/// An image of the art that cannot be read (here a tile that is not a PNG) ends the
/// window with an error naming it: a screenshot is never taken without its art.
#[test]
fn gui_an_asset_that_fails_to_load_is_an_error_naming_it() {
    let dir = scratch("broken_art");
    copy_assets(&dir.join("assets"), "tiles/marsh.png", Some(b"not a png"));
    let out = dir.join("never.png");
    let result = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x800x24"])
        .arg(env!("CARGO_BIN_EXE_bataille"))
        .arg(root().join("scenarios/a_la_charge/civitate_1053.ron"))
        .args(["--screenshot", out.to_str().unwrap(), "--frames", "30"])
        .env("BATAILLE_SAVE_DIR", &dir)
        .current_dir(&dir)
        .output()
        .expect("xvfb-run runs");
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(!result.status.success(), "the window fails: {stderr}");
    assert!(
        stderr.contains("the asset `tiles/marsh.png` failed to load"),
        "{stderr}"
    );
    assert!(!out.exists(), "no screenshot without the art");
}
