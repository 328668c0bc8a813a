//! Charles the Bold's geometry (`charles_the_bold::geometry`): front lines, the sides
//! of a stand, fire arcs, the artillery corridor, away hexes and the line of sight,
//! each on all six facings where facing matters (`ctb_<section>_...`).

use bataille::engine::hex::{HexCoord, VertexFacing};
use bataille::rulesets::charles_the_bold::geometry::{
    Side, SightGround, away_hexes, in_corridor, in_fire_arc, in_front, side_touched, sight,
};

fn h(s: &str) -> HexCoord {
    HexCoord::parse(s).unwrap()
}

fn labels(mut hexes: Vec<HexCoord>) -> Vec<String> {
    hexes.sort();
    hexes.iter().map(|h| h.label()).collect()
}

/// Hexes around 0707 at exactly `d`, for the six facings (the map is big enough for
/// every ring of these tests).
fn ring(at: HexCoord, d: u32) -> Vec<HexCoord> {
    at.within(d)
        .into_iter()
        .filter(|x| x.distance(at) == d)
        .collect()
}

#[test]
fn ctb_3_0_front_line_front_hexes_ahead_flanks_on_the_line_rear_behind() {
    let at = h("0707");
    for f in VertexFacing::all() {
        for x in f.front(at) {
            assert!(in_front(at, f, x), "{} front {x}", f.name());
        }
        for x in f.flank(at).into_iter().chain(f.rear(at)) {
            assert!(!in_front(at, f, x), "{} not in front: {x}", f.name());
        }
        // Half of every ring but the hexes on the line lie in front: 2 of 6 at one hex,
        // 5 of 12 at two (the line through the centre passes through two of them).
        let ahead = |d| {
            ring(at, d)
                .into_iter()
                .filter(|x| in_front(at, f, *x))
                .count()
        };
        assert_eq!((ahead(1), ahead(2), ahead(3)), (2, 5, 8), "{}", f.name());
    }
    // The design's example: 0505 facing E has 0604 and 0605 in front, 0504 and 0506
    // on its flanks, 0404 and 0405 behind.
    let e = VertexFacing::parse("E").unwrap();
    assert_eq!(labels(e.front(h("0505")).to_vec()), ["0604", "0605"]);
    assert!(in_front(h("0505"), e, h("0705")) && !in_front(h("0505"), e, h("0504")));
}

#[test]
fn ctb_10_5_the_side_a_hex_touches_front_flank_rear_on_six_facings() {
    let at = h("0808");
    for f in VertexFacing::all() {
        let count = |side| {
            at.neighbors()
                .into_iter()
                .filter(|n| side_touched(at, f, *n) == Some(side))
                .count()
        };
        assert_eq!(
            (count(Side::Front), count(Side::Flank), count(Side::Rear)),
            (2, 2, 2),
            "{}",
            f.name()
        );
        for n in f.rear(at) {
            assert_eq!(side_touched(at, f, n), Some(Side::Rear));
        }
    }
    assert_eq!(side_touched(at, VertexFacing(0), h("0810")), None);
    // 0505 facing E: 0706 is not next to it; 0506 (south) is its flank.
    let e = VertexFacing::parse("E").unwrap();
    assert_eq!(side_touched(h("0505"), e, h("0506")), Some(Side::Flank));
    assert_eq!(side_touched(h("0505"), e, h("0706")), None);
}

#[test]
fn ctb_6_0_wide_fire_arc_leaves_through_a_front_hex_on_six_facings() {
    let at = h("0808");
    for f in VertexFacing::all() {
        let arc = |d| {
            ring(at, d)
                .into_iter()
                .filter(|x| in_fire_arc(at, f, *x))
                .collect::<Vec<_>>()
        };
        // One hex away: exactly the front hexes.
        assert_eq!(labels(arc(1)), labels(f.front(at).to_vec()), "{}", f.name());
        // Farther: a 120-degree wedge, a third of each ring (2d of 6d hexes), and the
        // hex on each edge where the edge, a line along hexsides, runs through hex
        // centres (at even distances): included, the benefit of the doubt.
        let sizes: Vec<usize> = (1..=5).map(|d| arc(d).len()).collect();
        assert_eq!(sizes, [2, 5, 6, 9, 10], "{}", f.name());
        for x in arc(3) {
            assert!(
                in_front(at, f, x),
                "{} {x} in the arc is in front",
                f.name()
            );
        }
    }
    assert!(!in_fire_arc(at, VertexFacing(0), at), "not at itself");
}

#[test]
fn ctb_6_0_artillery_corridor_two_hexes_wide_on_six_facings() {
    // The design's example: a gun in 0505 facing E.
    let e = VertexFacing::parse("E").unwrap();
    let at = h("0505");
    let corridor: Vec<HexCoord> = at
        .within(4)
        .into_iter()
        .filter(|x| in_corridor(at, e, *x))
        .collect();
    assert_eq!(
        labels(corridor),
        ["0604", "0605", "0705", "0804", "0805", "0905"]
    );
    // Every facing: 2, 1, 2, 1 hexes at one to four hexes, all in the wide arc.
    let at = h("1010");
    for f in VertexFacing::all() {
        let counts: Vec<usize> = (1..=4)
            .map(|d| {
                ring(at, d)
                    .into_iter()
                    .filter(|x| in_corridor(at, f, *x))
                    .inspect(|x| assert!(in_fire_arc(at, f, *x), "{} {x}", f.name()))
                    .count()
            })
            .collect();
        assert_eq!(counts, [2, 1, 2, 1], "{}", f.name());
    }
}

#[test]
fn ctb_12_0_away_hexes_rise_in_distance_from_the_attacker() {
    // Beaten from 0605 (south-east of it), a stand in 0505 steps to the three hexes
    // farther from it: north, north-west and south-west.
    let away = away_hexes(h("0505"), h("0605"));
    assert_eq!(labels(away), ["0404", "0405", "0504"]);
    for a in away_hexes(h("0505"), h("0605")) {
        assert!(a.distance(h("0605")) == 2);
    }
    // Two hexes off (a pursuer's hex), fewer rise.
    assert!(
        away_hexes(h("0505"), h("0705"))
            .iter()
            .all(|x| x.distance(h("0705")) == 3)
    );
}

/// T4's ground: the plain up to column 04, a hillside in column 05, the hilltop in
/// columns 06-07; woods in 0303; a stand in 0305.
fn t4_ground()
-> SightGround<impl Fn(HexCoord) -> i8, impl Fn(HexCoord) -> bool, impl Fn(HexCoord) -> bool> {
    SightGround {
        elevation: |x: HexCoord| match x.col {
            5 => 1,
            6 | 7 => 2,
            _ => 0,
        },
        screens: |x: HexCoord| x == HexCoord::new(3, 3),
        occupied: |x: HexCoord| x == HexCoord::new(3, 5),
        sight_levels: 2,
    }
}

#[test]
fn ctb_6_0_sight_one_hex_into_a_hilltop() {
    let g = t4_ground();
    // T4: from the plain at 0405 the crossbow sees the bills at 0605, the first hilltop
    // hex, not the longbows at 0705 behind it; from the hillside at 0505 both.
    assert!(sight(&g, h("0405"), h("0605"), false));
    assert!(!sight(&g, h("0405"), h("0705"), false));
    assert!(sight(&g, h("0505"), h("0605"), false));
    assert!(sight(&g, h("0505"), h("0705"), false));
    // Symmetric: the longbows on the hilltop do not see 0405 either, even overhead
    // (archers shoot over stands, not over ground).
    assert!(!sight(&g, h("0705"), h("0405"), true));
}

#[test]
fn ctb_6_0_sight_into_woods_not_through_and_stands_block_but_not_for_archers() {
    let g = t4_ground();
    // Woods in 0303: seen into, not through (the line 0103-0503 runs through the
    // centres of 0203, 0303 and 0403).
    assert!(sight(&g, h("0103"), h("0303"), false));
    assert!(!sight(&g, h("0103"), h("0503"), false));
    // A stand in 0305 blocks 0105 -> 0505, except for overhead fire.
    assert!(!sight(&g, h("0105"), h("0505"), false));
    assert!(sight(&g, h("0105"), h("0505"), true));
    // Along a hexside one blocking hex is not enough: 0105 -> 0305 runs between 0204
    // and 0205, and a stand in 0205 alone does not block it.
    let t4 = t4_ground();
    let stand_0205 = SightGround {
        elevation: t4.elevation,
        screens: t4.screens,
        occupied: |x: HexCoord| x == HexCoord::new(2, 5),
        sight_levels: 2,
    };
    assert!(sight(&stand_0205, h("0105"), h("0305"), false));
}

/// The window's reach of a stand (CtB 3.0-3.10) is searched incrementally (`reach`); it
/// must give exactly the options, paths, costs and commands of the search that checks
/// each path as a command (`move_options_by_checks`): every unit of Falkirk and
/// Grandson, at every fourth position of random games.
#[test]
fn ctb_3_0_fast_reach_matches_the_rules_own_checks() {
    use bataille::engine::units::{UnitId, Units};
    use bataille::rulesets::charles_the_bold::view::move_options_by_checks;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    let mut compared = 0;
    for scenario in ["falkirk_1298.ron", "grandson_1476.ron"] {
        let path = crate::common::root()
            .join("scenarios/charles_the_bold")
            .join(scenario);
        for seed in 1..=3u64 {
            let mut g = bataille::engine::game::Game::start(&path, seed, &[]).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            for n in 0..600 {
                if g.is_over() {
                    break;
                }
                if n % 4 == 0 {
                    let units = g.world.resource::<Units>().len();
                    for i in 0..units {
                        let e = bataille::rulesets::common::entity(&g.world, UnitId(i as u16));
                        let fast = g.ruleset.move_options(&g.world, e).unwrap();
                        let slow = move_options_by_checks(&g.world, e).unwrap();
                        assert_eq!(fast, slow, "{scenario} seed {seed}, command {n}, unit {i}");
                        compared += usize::from(!fast.is_empty());
                    }
                }
                let c = g.ruleset.clone().random_command(&mut g.world, &mut rng);
                g.submit(&c).unwrap();
            }
        }
    }
    eprintln!("compared {compared}");
    assert!(compared > 200, "only {compared} stands with moves compared");
}
