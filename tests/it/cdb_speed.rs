//! Champs de Bataille's fast searches held to the rules' own checks: the window's move
//! options of a unit and of a group, found step by step (`view::move_options`,
//! `view::group_move_options`), against the search that checks every path as a command
//! from its start (`march_reference`), at positions of random games of every scenario.

use bataille::engine::game::Game;
use bataille::engine::units::{UnitId, Units};
use bataille::rulesets::champs_de_bataille::march_reference::{
    group_move_options_by_checks, move_options_by_checks,
};
use bataille::rulesets::champs_de_bataille::{CdbPhase, CdbState};
use bataille::rulesets::common::{entity, hex_of, side_of};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// A unit and its friends of the same side beside it, as a group to try.
fn group_of(g: &Game, u: UnitId) -> Vec<UnitId> {
    let w = &g.world;
    let Some(at) = hex_of(w, u) else {
        return vec![u];
    };
    let mut group = vec![u];
    let n = w.resource::<Units>().len();
    for i in 0..n {
        let x = UnitId(i as u16);
        if x != u
            && side_of(w, x) == side_of(w, u)
            && hex_of(w, x).is_some_and(|h| h.is_adjacent(at))
        {
            group.push(x);
        }
    }
    group
}

#[test]
fn cdb_9_fast_move_options_match_the_rules_own_checks() {
    let mut compared = 0;
    let mut groups = 0;
    for scenario in [
        "soissons_486.ron",
        "poitiers_732.ron",
        "daras_530.ron",
        "casilinum_554.ron",
    ] {
        let path = crate::common::root()
            .join("scenarios/champs_de_bataille")
            .join(scenario);
        let seed = 3;
        let mut g = Game::start(&path, seed, &["scenario_deployment".to_string()]).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut positions = 0;
        for n in 0..900 {
            if g.is_over() || positions >= 12 {
                break;
            }
            let movement = g.world.resource::<CdbState>().step == CdbPhase::Movement;
            if movement && n % 5 == 0 {
                positions += 1;
                let units = g.world.resource::<Units>().len();
                for i in 0..units {
                    let u = UnitId(i as u16);
                    let e = entity(&g.world, u);
                    let fast = g.ruleset.move_options(&g.world, e);
                    let slow = move_options_by_checks(&g.world, e);
                    assert_eq!(fast, slow, "{scenario}, command {n}, unit {i}");
                    compared += usize::from(fast.is_ok_and(|o| !o.is_empty()));
                    let group = group_of(&g, u);
                    if group.len() > 1 {
                        let fast = g.ruleset.group_move_options(&g.world, &group);
                        let slow = group_move_options_by_checks(&g.world, &group);
                        assert_eq!(fast, slow, "{scenario}, command {n}, group of {i}");
                        groups += usize::from(fast.is_ok_and(|o| !o.is_empty()));
                    }
                }
            }
            let c = g.ruleset.clone().random_command(&mut g.world, &mut rng);
            g.submit(&c).unwrap();
        }
    }
    eprintln!("compared {compared} units and {groups} groups with moves");
    assert!(compared > 200, "only {compared} units with moves compared");
    assert!(groups > 20, "only {groups} groups with moves compared");
}
