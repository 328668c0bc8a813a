//! Golden digests: every shipped scenario played by autoplay from 200 seeds (and from
//! fewer seeds with each optional rule, and with random illegal commands mixed in), plus
//! the recorded game scripts, each reduced to the SHA-256 of its save, of its log text
//! and of its refusals, and the dice's final position. The files under `tests/golden/`
//! were recorded before the ruleset-plugin refactor (issue 13): a change that alters a
//! die, a log line or a refusal alters a digest, and this test names the game.
//!
//! Re-record (only for a change meant to alter games, listed in its commit):
//! `BATAILLE_GOLDEN_RECORD=1 cargo test --no-default-features golden`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bataille::engine::dice::Dice;
use bataille::engine::game::Game;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

use crate::common::{RECORDED_SCRIPTS, root, script_seed};

/// Autoplay games per scenario with no option.
const SEEDS: u64 = 200;
/// Autoplay games per scenario and optional rule.
const OPTION_SEEDS: u64 = 20;
/// Games with illegal commands mixed in, per scenario, and their length.
const NOISY_SEEDS: u64 = 30;
const NOISY_LENGTH: usize = 300;

fn sha(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The repository-relative path, so the digests do not depend on where the clone is.
fn relative(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The save of a game with its scenario path made relative (saves hold it absolute).
fn save_text(game: &Game) -> String {
    let mut save = game.save();
    save.scenario = relative(&game.scenario.path);
    let pretty = ron::ser::PrettyConfig::new().depth_limit(2);
    ron::ser::to_string_pretty(&save, pretty).unwrap()
}

fn log_text(game: &Game) -> String {
    let mut text = String::new();
    for line in game.log().lines() {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// One line of digests: save, log, refusals, dice rolled and the generator's position.
fn digest_line(label: &str, game: &Game, refusals: &str) -> String {
    let dice = game.world.resource::<Dice>();
    let refusals = if refusals.is_empty() {
        String::new()
    } else {
        format!(" refusals={}", sha(refusals))
    };
    format!(
        "{label} save={} log={}{refusals} dice={}@{}",
        sha(&save_text(game)),
        sha(&log_text(game)),
        dice.rolled(),
        dice.position()
    )
}

/// An autoplay game, as `bataille autoplay` plays it but with the log text kept.
fn autoplay_game(scenario: &Path, seed: u64, options: &[String]) -> Game {
    let mut game = Game::start(scenario, seed, options).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5EED_A070);
    bataille::autoplay::play_one(&mut game, &mut rng)
        .unwrap_or_else(|e| panic!("{}: {e}", scenario.display()));
    game
}

/// A game of legal and illegal commands, as the trust harness plays it; returns the
/// game and every refusal's text, in order.
fn noisy_game(scenario: &Path, seed: u64) -> (Game, String) {
    let mut game = Game::start(scenario, seed, &[]).unwrap();
    let ruleset = game.ruleset.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x601D);
    let mut refusals = String::new();
    for _ in 0..NOISY_LENGTH {
        if game.is_over() {
            break;
        }
        let cmd = if rng.random_bool(0.6) {
            ruleset.random_command(&mut game.world, &mut rng)
        } else {
            match crate::trust::random_games::noise(&mut rng, &game) {
                Some(c) => c,
                None => continue,
            }
        };
        if let Err(refusal) = game.submit(&cmd) {
            let _ = writeln!(refusals, "{cmd} => {refusal}");
        }
    }
    (game, refusals)
}

fn golden_file(stem: &str) -> PathBuf {
    root().join("tests/golden").join(format!("{stem}.txt"))
}

/// Compares `lines` with the recorded file, or records them.
fn compare_or_record(stem: &str, lines: &[String]) {
    let path = golden_file(stem);
    let mut text = format!(
        "# Golden digests of {stem}: label save=SHA-256 log=SHA-256 [refusals=SHA-256] dice=rolled@position\n"
    );
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    if std::env::var_os("BATAILLE_GOLDEN_RECORD").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let recorded = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (record with BATAILLE_GOLDEN_RECORD=1)",
            path.display()
        )
    });
    let recorded: Vec<&str> = recorded.lines().filter(|l| !l.starts_with('#')).collect();
    let differing: Vec<String> = lines
        .iter()
        .zip(&recorded)
        .filter(|(now, then)| now.as_str() != **then)
        .take(5)
        .map(|(now, then)| format!("  recorded: {then}\n  now:      {now}"))
        .collect();
    assert!(
        differing.is_empty() && lines.len() == recorded.len(),
        "{}: {} games now, {} recorded; first differences:\n{}",
        path.display(),
        lines.len(),
        recorded.len(),
        differing.join("\n")
    );
}

/// Every digest of one scenario: 200 autoplay seeds, each optional rule, noisy games.
fn scenario_digests(ruleset: &str, file: &str) {
    let scenario = root().join("scenarios").join(ruleset).join(file);
    let stem = file.trim_end_matches(".ron");
    let options: Vec<String> = Game::start(&scenario, 1, &[])
        .unwrap()
        .ruleset
        .options()
        .iter()
        .map(|o| o.to_string())
        .collect();
    let mut lines = Vec::new();
    for seed in 1..=SEEDS {
        let game = autoplay_game(&scenario, seed, &[]);
        lines.push(digest_line(&format!("autoplay {seed}"), &game, ""));
    }
    for option in &options {
        for seed in 1..=OPTION_SEEDS {
            let game = autoplay_game(&scenario, seed, std::slice::from_ref(option));
            lines.push(digest_line(&format!("autoplay+{option} {seed}"), &game, ""));
        }
    }
    for seed in 1..=NOISY_SEEDS {
        let (game, refusals) = noisy_game(&scenario, seed);
        lines.push(digest_line(&format!("noisy {seed}"), &game, &refusals));
    }
    compare_or_record(stem, &lines);
}

#[test]
fn golden_civitate_1053_games_are_unchanged() {
    scenario_digests("a_la_charge", "civitate_1053.ron");
}

#[test]
fn golden_kalavryai_1078_games_are_unchanged() {
    scenario_digests("a_la_charge", "kalavryai_1078.ron");
}

#[test]
fn golden_soissons_486_games_are_unchanged() {
    scenario_digests("champs_de_bataille", "soissons_486.ron");
}

#[test]
fn golden_poitiers_732_games_are_unchanged() {
    scenario_digests("champs_de_bataille", "poitiers_732.ron");
}

#[test]
fn golden_daras_530_games_are_unchanged() {
    scenario_digests("champs_de_bataille", "daras_530.ron");
}

#[test]
fn golden_casilinum_554_games_are_unchanged() {
    scenario_digests("champs_de_bataille", "casilinum_554.ron");
}

/// The recorded game scripts (scenario, seed, options, script), played to their end.
#[test]
fn golden_quatre_bras_1815_games_are_unchanged() {
    scenario_digests("morne_plaine", "quatre_bras_1815.ron");
}

#[test]
fn golden_waterloo_1815_games_are_unchanged() {
    scenario_digests("morne_plaine", "waterloo_1815.ron");
}

/// Charles the Bold's digests are re-recorded, in the commit that says so, while its
/// rules are still being completed (issue 15).
#[test]
fn golden_falkirk_1298_games_are_unchanged() {
    scenario_digests("charles_the_bold", "falkirk_1298.ron");
}

#[test]
fn golden_grandson_1476_games_are_unchanged() {
    scenario_digests("charles_the_bold", "grandson_1476.ron");
}

#[test]
fn golden_recorded_scripts_are_unchanged() {
    // Each script names the seed it was recorded with in its header (`--seed N`).
    let scripts = RECORDED_SCRIPTS;
    let mut lines = Vec::new();
    for (scenario, options, script) in scripts {
        let options: Vec<String> = options.iter().map(|o| o.to_string()).collect();
        let text = std::fs::read_to_string(root().join("scripts").join(script)).unwrap();
        let seed = script_seed(&text);
        let mut game =
            Game::start(&root().join("scenarios").join(scenario), seed, &options).unwrap();
        game.run_script(&text)
            .unwrap_or_else(|f| panic!("{script}: {f}"));
        let state = serde_json::to_string(&game.state_json()["units"]).unwrap();
        lines.push(format!(
            "{} units={}",
            digest_line(script, &game, ""),
            sha(&state)
        ));
    }
    compare_or_record("scripts", &lines);
}

/// Charge & mêlée's digests were first recorded when the ruleset was registered (issue
/// 16); the commits that complete its rules re-record them and say so.
#[test]
fn golden_maldon_991_games_are_unchanged() {
    scenario_digests("charge_and_melee", "maldon_991.ron");
}

#[test]
fn golden_hastings_1066_games_are_unchanged() {
    scenario_digests("charge_and_melee", "hastings_1066.ron");
}
