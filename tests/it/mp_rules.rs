//! Morne Plaine, as far as it is built: its tables and the arithmetic of its combat page,
//! each test named after the rule it checks and the page's worked examples with their
//! numbers.

use bataille::rulesets::common::RulesetTables;
use bataille::rulesets::common::parse_odds;
use bataille::rulesets::morne_plaine::combat::{
    modified_die, morale_check_passes, morale_modifier, odds_column, topography_modifier,
};
use bataille::rulesets::morne_plaine::data::{Cell, Kind, Tables};

fn tables() -> Tables {
    Tables::builtin().expect("the built-in Morne Plaine tables load")
}

/// The built-in tables with one text changed in file `file` (units, crt, terrain,
/// victory, bombardment), parsed.
fn parse_changed(
    file: usize,
    from: &str,
    to: &str,
) -> Result<Tables, bataille::engine::error::LocatedError> {
    use bataille::rulesets::morne_plaine::data::*;
    let mut texts = [
        UNITS_RON,
        CRT_RON,
        TERRAIN_RON,
        VICTORY_RON,
        BOMBARDMENT_RON,
        CHARGE_RON,
    ]
    .map(str::to_string);
    assert!(texts[file].contains(from), "the table has `{from}`");
    texts[file] = texts[file].replace(from, to);
    Tables::parse(<Tables as RulesetTables<6>>::FILES, texts)
}

fn column(attack: i32, defence: i32) -> String {
    let t = tables();
    t.crt.columns[odds_column(&t.crt, attack, defence)].clone()
}

#[test]
fn mp_combat_resolution_10_against_6_is_1_5_to_1_rounded_for_the_defender() {
    // "an attack by 10 points against 6 would become 1.5 – 1"
    assert_eq!(column(10, 6), "1.5-1");
    assert_eq!(column(6, 4), "1.5-1");
    assert_eq!(column(11, 6), "1.5-1");
    assert_eq!(column(12, 6), "2-1");
}

#[test]
fn mp_combat_resolution_6_against_10_is_1_to_2_rounded_for_the_defender() {
    // "an attack by 6 strength points against 10 would become 1 – 2"
    assert_eq!(column(6, 10), "1-2");
    assert_eq!(column(5, 10), "1-2");
    assert_eq!(column(4, 10), "1-3");
    assert_eq!(column(10, 10), "1-1");
}

#[test]
fn mp_combat_resolution_both_examples_hold_without_the_designers_1_1_5_column() {
    // The 1-1.5 column is the designer's: the text's examples do not depend on it.
    let mut t = tables();
    let i = t
        .crt
        .columns
        .iter()
        .position(|c| c == "1-1.5")
        .expect("the column");
    t.crt.columns.remove(i);
    t.crt.ratios.remove(i);
    let col = |a, d| t.crt.columns[odds_column(&t.crt, a, d)].clone();
    assert_eq!(col(10, 6), "1.5-1");
    assert_eq!(col(6, 10), "1-2");
}

#[test]
fn mp_combat_resolution_odds_beyond_8_to_1_and_1_to_8_are_capped() {
    // "Odds greater than 8 – 1 are treated as 8 – 1, and odds of less than 1 – 8 as 1 – 8"
    assert_eq!(column(8, 1), "8-1");
    assert_eq!(column(40, 1), "8-1");
    assert_eq!(column(1, 8), "1-8");
    assert_eq!(column(1, 40), "1-8");
}

#[test]
fn mp_combat_resolution_the_modified_die_is_clamped_to_0_and_7() {
    // "A final result of less than 0 or more than 7 is treated respectively as 0 or 7"
    assert_eq!(modified_die(1, &[-1, -1]), 0);
    assert_eq!(modified_die(6, &[1, 2]), 7);
    assert_eq!(modified_die(3, &[1, -1, 2]), 5);
    let t = tables();
    let c = odds_column(&t.crt, 1, 1);
    assert_eq!(t.crt.cell(c, -4), t.crt.cell(c, 0));
    assert_eq!(t.crt.cell(c, 12), t.crt.cell(c, 7));
}

#[test]
fn mp_combat_topography_gives_plus_one_from_above_and_minus_one_from_below() {
    assert_eq!(topography_modifier(1, 0), 1);
    assert_eq!(topography_modifier(0, 1), -1);
    assert_eq!(topography_modifier(2, 2), 0);
}

#[test]
fn mp_combat_morale_difference_adds_one_per_two_points() {
    // "Die roll is increased by 1 point every 2 points of difference"
    assert_eq!(morale_modifier(8, 4), 2);
    assert_eq!(morale_modifier(7, 4), 1);
    assert_eq!(morale_modifier(5, 4), 0);
    assert_eq!(morale_modifier(4, 8), -2);
}

#[test]
fn mp_combat_morale_check_infantry_of_morale_4_passes_on_4() {
    // "An infantry unit has to check its morale which has a value of 4. The result of
    // die roll is 4. This value is equal to the morale value, thus the infantry unit
    // succeeded."
    assert!(morale_check_passes(4, 4));
    assert!(!morale_check_passes(4, 5));
    assert!(morale_check_passes(9, 9));
    assert!(!morale_check_passes(0, 1));
}

#[test]
fn mp_combat_results_the_crt_has_rows_0_to_7_and_cells_as_its_source_note_says() {
    let t = tables();
    assert_eq!(t.crt.cells.len(), 8);
    let one_one = t.crt.columns.iter().position(|c| c == "1-1").unwrap() as i32;
    // The rule the file's source note gives, with s = (column - 1-1 column) + (die - 3).
    let rule = |s: i32| -> &'static str {
        match s {
            ..=-8 => "3*/0",
            -7..=-6 => "2*/0",
            -5 => "2/0",
            -4..=-3 => "1*/0",
            -2 => "1/0*",
            -1 => "1/1",
            0..=1 => "1/1*",
            2 => "0/1*",
            3..=5 => "0/2*",
            _ => "0/3*",
        }
    };
    for die in 0..=7 {
        for c in 0..t.crt.columns.len() {
            let s = (c as i32 - one_one) + (die - 3);
            assert_eq!(
                t.crt.cell(c, die).to_string(),
                rule(s),
                "column {}, die {die}",
                t.crt.columns[c]
            );
        }
    }
    // Better odds and a higher die never hurt the attacker more nor the defender less.
    for die in 0..=7 {
        for c in 1..t.crt.columns.len() {
            let (a, b) = (t.crt.cell(c - 1, die), t.crt.cell(c, die));
            assert!(b.attacker_loss <= a.attacker_loss && b.defender_loss >= a.defender_loss);
        }
    }
}

#[test]
fn mp_tables_odds_headings_and_cells_parse_and_bad_ones_are_refused() {
    assert_eq!(parse_odds("1.5-1"), Some((15, 10)));
    assert_eq!(parse_odds("1-8"), Some((10, 80)));
    assert_eq!(parse_odds("2-3"), None);
    assert_eq!(parse_odds("1.55-1"), None);
    assert_eq!(
        Cell::parse("1*/0").unwrap(),
        Cell {
            attacker_loss: 1,
            attacker_check: true,
            defender_loss: 0,
            defender_check: false
        }
    );
    assert!(Cell::parse("1*").is_err());
    assert!(Cell::parse("x/1").is_err());
    let e = parse_changed(1, "\"2/0\"", "\"2/O\"").unwrap_err();
    assert!(e.message.contains("`2/O` is not a CRT cell"), "{e}");
    assert!(e.line > 1);
    let e = parse_changed(0, "cs: 5, ma: 4, mv: 5", "cs: 5, ma: 4, mv: 10").unwrap_err();
    assert!(e.message.contains("a morale value from 1 to 9"), "{e}");
    let e = parse_changed(
        2,
        "(id: \"clear\",      cost: (1, 1, 1, 1)",
        "(id: \"clear\",      cost: (1, 1, 12, 1)",
    )
    .unwrap_err();
    assert!(
        e.message
            .contains("terrain `clear` needs costs from 1 to 9"),
        "{e}"
    );
    let t = tables();
    assert!(
        t.units
            .types
            .iter()
            .any(|u| u.kind == Kind::Artillery && u.bv.is_some())
    );
    assert!(
        t.unit_type("line_infantry")
            .is_some_and(|u| !u.kind.is_mounted())
    );
}

// ---- contact, step costs and retreats, on a 10x10 board ----

use bataille::engine::board::{Board, HexsideFeature, TerrainId};
use bataille::engine::hex::{HexCoord, Hexside};
use bataille::rulesets::morne_plaine::movement::{contact, step_cost};
use bataille::rulesets::morne_plaine::results::{Retreat, RetreatEdge, retreat_choice};

fn h(label: &str) -> HexCoord {
    HexCoord::parse(label).expect("a hex label")
}

fn board(t: &Tables) -> Board {
    let names = t.terrain_names();
    let mut b = Board::new(10, 10, names);
    let clear = TerrainId(t.terrain_names().iter().position(|n| n == "clear").unwrap() as u8);
    for hex in b.hexes().collect::<Vec<_>>() {
        b.set_terrain(hex, clear);
    }
    b
}

fn set(t: &Tables, b: &mut Board, hex: HexCoord, terrain: &str) {
    let id = t.terrain_names().iter().position(|n| n == terrain).unwrap();
    b.set_terrain(hex, TerrainId(id as u8));
}

fn side(b: &mut Board, a: HexCoord, c: HexCoord, f: HexsideFeature) {
    b.add_hexside_feature(Hexside::between(a, c).expect("adjacent"), f);
}

/// The neighbour of `of` in direction `d` (0 = N, clockwise).
fn dir(of: &str, d: usize) -> HexCoord {
    h(of).neighbors()[d]
}

#[test]
fn mp_movement_contact_is_cut_by_a_river_without_bridge_or_ford_and_by_a_double_slope() {
    let t = tables();
    let mut b = board(&t);
    let (a, n) = (h("0505"), dir("0505", 0));
    assert!(contact(&b, a, n));
    side(&mut b, a, n, HexsideFeature::River);
    assert!(!contact(&b, a, n), "a river cuts contact");
    side(&mut b, a, n, HexsideFeature::Ford);
    assert!(contact(&b, a, n), "a ford crosses it");
    let s = dir("0505", 3);
    b.set_elevation(s, 1);
    assert!(
        contact(&b, a, s),
        "one level is a slope, not a double slope"
    );
    b.set_elevation(s, 2);
    assert!(!contact(&b, a, s), "two levels are a double slope");
    assert!(!contact(&b, a, h("0507")), "not adjacent");
}

#[test]
fn mp_movement_costs_per_kind_roads_and_streams() {
    let t = tables();
    let mut b = board(&t);
    let (a, n, ne) = (h("0505"), dir("0505", 0), dir("0505", 1));
    // Half movement points: clear 1 MP for every kind.
    assert_eq!(step_cost(&b, &t, Kind::Infantry, a, n).unwrap(), 2);
    set(&t, &mut b, n, "woods");
    assert_eq!(step_cost(&b, &t, Kind::Infantry, a, n).unwrap(), 4);
    assert_eq!(step_cost(&b, &t, Kind::Cavalry, a, n).unwrap(), 6);
    // Along a road, half a point whatever the hex (designer's reading of "road 0").
    side(&mut b, a, n, HexsideFeature::Road);
    assert_eq!(step_cost(&b, &t, Kind::Cavalry, a, n).unwrap(), 1);
    // A stream adds 1 MP; a bridge cancels it.
    side(&mut b, a, ne, HexsideFeature::Stream);
    assert_eq!(step_cost(&b, &t, Kind::Infantry, a, ne).unwrap(), 4);
    side(&mut b, a, ne, HexsideFeature::Bridge);
    assert_eq!(step_cost(&b, &t, Kind::Infantry, a, ne).unwrap(), 2);
    // Lakes are impassable; so is a double slope.
    let s = dir("0505", 3);
    set(&t, &mut b, s, "lake");
    let r = step_cost(&b, &t, Kind::Leader, a, s).unwrap_err();
    assert_eq!(r.rule, "MP movement");
    let sw = dir("0505", 4);
    b.set_elevation(sw, 2);
    assert!(
        step_cost(&b, &t, Kind::Infantry, a, sw)
            .unwrap_err()
            .reason
            .contains("not on contact")
    );
}

/// The retreat of an infantry unit from 0505 on a clear board.
fn retreat_of(edge: RetreatEdge, attacker: HexCoord, causer: HexCoord) -> Retreat {
    Retreat {
        from: h("0505"),
        kind: Kind::Infantry,
        edge,
        attacker,
        causer,
    }
}

fn choose(t: &Tables, b: &Board, r: &Retreat, occupied: &[HexCoord]) -> Option<HexCoord> {
    retreat_choice(
        b,
        t,
        r,
        |x| occupied.contains(&x) || x == r.attacker || x == r.causer,
        |_| false,
    )
}

#[test]
fn mp_combat_retreat_priority_1_a_village_first_then_2_a_wood() {
    let t = tables();
    let mut b = board(&t);
    let n = dir("0505", 0);
    let r = retreat_of(RetreatEdge::North, n, n);
    // Attacked from the north: a wood next to the attacker, a village next to it too.
    set(&t, &mut b, dir("0505", 1), "woods");
    assert_eq!(
        choose(&t, &b, &r, &[]),
        Some(dir("0505", 1)),
        "priority 2: the wood"
    );
    set(&t, &mut b, dir("0505", 5), "village");
    assert_eq!(
        choose(&t, &b, &r, &[]),
        Some(dir("0505", 5)),
        "priority 1: the village"
    );
}

#[test]
fn mp_combat_retreat_priority_3_away_from_the_attacker_before_avoiding_a_stream() {
    let t = tables();
    let mut b = board(&t);
    let n = dir("0505", 0);
    let r = retreat_of(RetreatEdge::North, n, n);
    // The hex opposite is held; the two southern hexes are across streams, the two
    // northern ones next to the attacker: away from the attacker wins (3 before 5).
    let (se, sw) = (dir("0505", 2), dir("0505", 4));
    side(&mut b, h("0505"), se, HexsideFeature::Stream);
    side(&mut b, h("0505"), sw, HexsideFeature::Stream);
    let got = choose(&t, &b, &r, &[dir("0505", 3)]).unwrap();
    assert!(got == se || got == sw, "{got}");
}

#[test]
fn mp_combat_retreat_priority_4_directly_opposite_before_the_own_edge() {
    let t = tables();
    let b = board(&t);
    let n = dir("0505", 0);
    // Orange retreats north, but the hex directly opposite the attacker (south) comes
    // first.
    let r = retreat_of(RetreatEdge::North, n, n);
    assert_eq!(choose(&t, &b, &r, &[]), Some(dir("0505", 3)));
}

#[test]
fn mp_combat_retreat_priority_5_not_across_a_stream() {
    let t = tables();
    let mut b = board(&t);
    let n = dir("0505", 0);
    let r = retreat_of(RetreatEdge::North, n, n);
    // South held; SE and SW tie on 3 and 4; the stream on SW sends it SE, which the
    // label alone would not.
    side(&mut b, h("0505"), dir("0505", 4), HexsideFeature::Stream);
    assert_eq!(choose(&t, &b, &r, &[dir("0505", 3)]), Some(dir("0505", 2)));
}

#[test]
fn mp_combat_retreat_priority_6_away_from_the_unit_causing_it_when_the_attacker_retreats() {
    let t = tables();
    let b = board(&t);
    // The attacker in 0505 fails its check; the defender (south) causes the retreat.
    // North, directly opposite, is held; of the rest, those next to the defender lose,
    // although blue's own edge (south) would prefer them.
    let s = dir("0505", 3);
    let r = retreat_of(RetreatEdge::South, h("0505"), s);
    let got = choose(&t, &b, &r, &[dir("0505", 0)]).unwrap();
    assert!(!got.is_adjacent(s), "{got}");
    assert!(got == dir("0505", 1) || got == dir("0505", 5), "{got}");
}

#[test]
fn mp_combat_retreat_priority_7_nearest_the_own_edge_before_away_from_the_attacker() {
    let t = tables();
    let b = board(&t);
    // Bombarded from 0502, three hexes north: no neighbour is next to it; orange goes
    // north, towards the artillery, because the edge comes before the distance.
    let art = h("0502");
    let r = retreat_of(RetreatEdge::North, art, art);
    assert_eq!(choose(&t, &b, &r, &[]), Some(dir("0505", 0)));
    // Blue goes south.
    let r = retreat_of(RetreatEdge::South, art, art);
    assert_eq!(choose(&t, &b, &r, &[]), Some(dir("0505", 3)));
}

#[test]
fn mp_combat_retreat_priority_8_farthest_from_the_attacker_then_the_label() {
    let t = tables();
    let b = board(&t);
    // Bombarded from the south-west (0208); orange, north held: NE and NW are equally
    // far north, and NE is farther from the battery (the label alone would give NW).
    let art = h("0208");
    let r = retreat_of(RetreatEdge::North, art, art);
    assert_eq!(choose(&t, &b, &r, &[dir("0505", 0)]), Some(dir("0505", 1)));
}

#[test]
fn mp_combat_retreat_none_free_eliminates_and_rivers_and_impassable_hexes_do_not_count() {
    let t = tables();
    let mut b = board(&t);
    let n = dir("0505", 0);
    let r = retreat_of(RetreatEdge::North, n, n);
    let all: Vec<HexCoord> = h("0505").neighbors().to_vec();
    assert_eq!(choose(&t, &b, &r, &all), None, "no free hex: eliminated");
    // Only the south is free, but a river without a bridge cuts it off; then a lake.
    let s = dir("0505", 3);
    let others: Vec<HexCoord> = all.iter().copied().filter(|x| *x != s).collect();
    assert_eq!(choose(&t, &b, &r, &others), Some(s));
    side(&mut b, h("0505"), s, HexsideFeature::River);
    assert_eq!(choose(&t, &b, &r, &others), None);
    let mut b = board(&t);
    set(&t, &mut b, s, "lake");
    assert_eq!(choose(&t, &b, &r, &others), None);
    // A fort under enemy control is no retreat either.
    let b = board(&t);
    assert_eq!(
        retreat_choice(&b, &t, &r, |x| others.contains(&x) || x == n, |x| x == s),
        None
    );
}

use bataille::rulesets::morne_plaine::results::{AdvanceHex, advance_allowed};

fn ground(defence: i8) -> AdvanceHex {
    AdvanceHex {
        defence,
        level: 0,
        objective: false,
        fort: false,
    }
}

#[test]
fn mp_combat_advance_is_refused_to_artillery_and_from_better_ground_and_taken_by_rank() {
    let (clear, wood_inf, wood_mounted, marsh) = (ground(0), ground(2), ground(0), ground(-1));
    // "Artillery may never move after combat."
    assert!(advance_allowed(Kind::Artillery, &clear, &clear, false).is_err());
    // Equal or better rank: taken.
    assert!(advance_allowed(Kind::Infantry, &clear, &clear, false).is_ok());
    assert!(advance_allowed(Kind::Infantry, &clear, &wood_inf, false).is_ok());
    assert!(advance_allowed(Kind::Infantry, &marsh, &clear, false).is_ok());
    // Infantry does not leave a wood (rank 2) for clear (0); cavalry, for which woods
    // rank 0, does.
    let r = advance_allowed(Kind::Infantry, &wood_inf, &clear, false).unwrap_err();
    assert!(r.contains("rank 2 for one of rank 0"), "{r}");
    assert!(advance_allowed(Kind::Cavalry, &wood_mounted, &clear, false).is_ok());
    assert!(advance_allowed(Kind::Infantry, &clear, &marsh, false).is_err());
}

#[test]
fn mp_combat_advance_a_hill_ranks_1_objectives_hold_and_mounted_units_keep_a_fort() {
    // The higher hex ranks as a hill (1): clear ground below it ranks 0.
    let hill = AdvanceHex {
        level: 1,
        ..ground(0)
    };
    assert!(advance_allowed(Kind::Infantry, &hill, &ground(0), false).is_err());
    assert!(advance_allowed(Kind::Infantry, &ground(0), &hill, false).is_ok());
    // Leaving an objective hex is refused, unless the hex entered is one too.
    let objective = AdvanceHex {
        objective: true,
        ..ground(0)
    };
    let r = advance_allowed(Kind::Cavalry, &objective, &ground(0), false).unwrap_err();
    assert!(r.contains("objective"), "{r}");
    assert!(advance_allowed(Kind::Cavalry, &objective, &objective, false).is_ok());
    // Mounted units never leave a fort; infantry leaves it only for a fort.
    let fort = AdvanceHex {
        fort: true,
        ..ground(3)
    };
    assert!(advance_allowed(Kind::Cavalry, &fort, &fort, false).is_err());
    assert!(advance_allowed(Kind::Infantry, &fort, &ground(0), false).is_err());
    assert!(advance_allowed(Kind::Infantry, &fort, &fort, false).is_ok());
    // A demoralised unit does not advance into an enemy zone.
    assert!(advance_allowed(Kind::Infantry, &ground(0), &ground(0), true).is_err());
}

#[test]
fn mp_victory_levels_by_vp_difference_draw_minor_tactical_major_total() {
    use bataille::engine::scenario::VictoryLevel::*;
    use bataille::rulesets::morne_plaine::victory::level_for;
    let t = tables();
    let levels: Vec<_> = (0..=6).map(|d| level_for(&t.victory, d)).collect();
    assert_eq!(
        levels,
        vec![
            None,
            Some(Minor),
            Some(Tactical),
            Some(Major),
            Some(Total),
            Some(Total),
            Some(Total)
        ]
    );
    let e = parse_changed(
        3,
        "(difference: 2, level: Tactical)",
        "(difference: 2, level: Minor)",
    )
    .unwrap_err();
    assert!(e.message.contains("victory levels rise"), "{e}");
}

#[test]
fn mp_combat_supports_are_found_by_the_game_for_both_sides() {
    use bataille::engine::units::SideId;
    use bataille::rulesets::morne_plaine::combat::{Standing, supports};
    let t = tables();
    let mut b = board(&t);
    let unit = |hex: &str, side: u8| Standing {
        hex: h(hex),
        side: SideId(side),
        demoralised: false,
        victorious: false,
    };
    // The attacker in 0505 (side 0) attacks the defender north of it (side 1). Its
    // friend north-east of it touches both; the defender's friend south of the attacker
    // touches the attacker only; another friend stands far away.
    let (att, def) = (h("0505"), dir("0505", 0));
    let friend_next_to_defender = dir("0505", 1);
    let far_friend = h("0909");
    let defender_friend = dir("0505", 3);
    let mut units = vec![
        unit("0505", 0),
        Standing {
            hex: def,
            ..unit("0505", 1)
        },
        Standing {
            hex: friend_next_to_defender,
            ..unit("0505", 0)
        },
        Standing {
            hex: far_friend,
            ..unit("0505", 0)
        },
        Standing {
            hex: defender_friend,
            ..unit("0505", 1)
        },
    ];
    let (off, def_sup) = supports(&b, &units, 0, 1);
    assert_eq!(
        off,
        vec![2],
        "on contact with the defender; the far one does not support"
    );
    assert_eq!(def_sup, vec![4], "on contact with the attacker");
    // Another enemy on contact with the offensive supporter: it no longer supports ...
    let other_enemy = friend_next_to_defender.neighbors()[2];
    assert!(!other_enemy.is_adjacent(att) && other_enemy != def);
    units.push(Standing {
        hex: other_enemy,
        ..unit("0505", 1)
    });
    assert!(
        supports(&b, &units, 0, 1).0.is_empty(),
        "on contact with another enemy"
    );
    // ... unless it is victorious ...
    units[2].victorious = true;
    assert_eq!(supports(&b, &units, 0, 1).0, vec![2]);
    // ... and never when demoralised.
    units[2].demoralised = true;
    assert!(supports(&b, &units, 0, 1).0.is_empty());
    // A river without a bridge between it and the defender: no contact, no support.
    units[2].demoralised = false;
    units[2].victorious = false;
    units.pop();
    side(&mut b, friend_next_to_defender, def, HexsideFeature::River);
    assert!(supports(&b, &units, 0, 1).0.is_empty());
}

#[test]
fn mp_bombardment_table_reads_strength_and_die_and_refuses_a_bad_cell() {
    use bataille::rulesets::morne_plaine::data::FireResult;
    let t = tables();
    let b = &t.bombardment;
    // Strength 0 never hurts; the strongest fire on a 6 takes a point and a check.
    assert_eq!(b.result(0, 6), FireResult::default());
    assert_eq!(
        b.result(8, 6),
        FireResult {
            loss: 1,
            check: true
        }
    );
    // Strengths beyond the table's columns are read at its ends.
    assert_eq!(b.result(20, 6), b.result(8, 6));
    assert_eq!(b.result(-3, 1), b.result(0, 1));
    // A higher die never gives less: no smaller loss, and no lost check at equal loss.
    for s in 0..=8 {
        for d in 1..6u8 {
            let (x, y) = (b.result(s, d), b.result(s, d + 1));
            assert!(y.loss > x.loss || (y.loss == x.loss && (y.check || !x.check)));
        }
    }
    let e = parse_changed(4, "\"0*\", \"1\"]", "\"0*\", \"x\"]").unwrap_err();
    assert!(e.message.contains("`x` is not a bombardment result"), "{e}");
}

#[test]
fn mp_bombardment_fire_strength_falls_with_range_and_good_ground() {
    use bataille::rulesets::morne_plaine::bombardment::{Firer, fire_strength};
    let battery = |bv, distance| Firer { bv, distance };
    // BV 4 at 1 hex fires 4, at 3 hexes 2; two batteries add up.
    assert_eq!(fire_strength(&[battery(4, 1)], 0, false), 4);
    assert_eq!(fire_strength(&[battery(4, 3)], 0, false), 2);
    assert_eq!(fire_strength(&[battery(4, 1), battery(3, 2)], 0, false), 6);
    // Beyond its reach a battery adds nothing, never less than nothing.
    assert_eq!(fire_strength(&[battery(2, 5), battery(4, 1)], 0, false), 4);
    // A wood (2 for infantry) shelters; a marsh (-1) exposes; sodden ground takes 1.
    assert_eq!(fire_strength(&[battery(4, 1)], 2, false), 2);
    assert_eq!(fire_strength(&[battery(4, 1)], -1, false), 5);
    assert_eq!(fire_strength(&[battery(4, 1)], 0, true), 3);
}
