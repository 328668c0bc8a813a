//! What Champs de Bataille adds to the scenario schema (each side's map edge,
//! aggression and corps; each unit's corps and facing; its special rules) and the
//! checks of a scenario against its tables and rules (CdB 4, 6.1, 8, 11.8, 14).

use serde::Deserialize;

use crate::engine::board::MapEdge;
use crate::engine::error::LocatedError;
use crate::engine::hex::HexCoord;
use crate::engine::scenario::{HexZone, LoadedScenario, RulesetFields, SpecialRuleRefs};
use crate::{side_fields, unit_fields};

use super::data::{Kind, Profile, Tables};
use super::movement;

side_fields! {
    /// CdB's fields of a side.
    pub struct CdbSideFields {
        /// The army's Aggression Rating (CdB 14.3).
        #[serde(default)]
        pub aggression: Option<i32>,
        /// The map edge the side deploys on and flees towards (CdB 11.8, 14.3).
        #[serde(default)]
        pub edge: Option<MapEdge>,
        /// The army's corps, each under a general (CdB 4).
        #[serde(default)]
        pub corps: Vec<CorpsSpec>,
    }
}

unit_fields! {
    /// CdB's fields of a unit.
    pub struct CdbUnitFields {
        /// The corps the unit belongs to (CdB 4).
        #[serde(default)]
        pub corps: Option<String>,
        /// The vertex the unit faces (CdB 6): `NNE`, `E`, `SSE`, `SSW`, `W` or `NNW`.
        #[serde(default)]
        pub facing: Option<String>,
    }
}

/// A corps of an army (CdB 4, 14.1): its general and whether it is an allied corps.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpsSpec {
    pub id: String,
    pub name: String,
    /// The unit id of the corps' general.
    pub general: String,
    /// An allied corps (CdB 4.3): its reliability is tested on its first AP roll.
    #[serde(default)]
    pub allied: bool,
    /// An allied corps of another nationality, which changes sides (CdB 4.3).
    #[serde(default)]
    pub foreign: bool,
}

/// The special rules Champs de Bataille scenarios use.
#[derive(Clone, Debug, Deserialize)]
pub enum CdbSpecialRule {
    /// A unit placed in secret by its owner in a zone before the first turn (CdB 14.3.3).
    HiddenPlacement {
        unit: String,
        zone: HexZone,
        active_from_turn: u32,
        #[serde(default)]
        source: String,
    },
    /// Attacker and defender are found by a die plus each army's aggression (CdB 14.3).
    AttackerByAggression {
        #[serde(default)]
        source: String,
    },
    /// The set-up of CdB 14.3 is played: the attacker's edge roll, baggage, the corps'
    /// placement written in secret, ambushes, and the corps placed in turn in their
    /// zones. The figures are the rule's distances in hexes from the map edges.
    Deployment {
        /// The defender's most numerous corps stands within this many hexes of his edge.
        defender_main_depth: i32,
        /// The attacker's most numerous corps stands within this many hexes of his edge.
        attacker_main_depth: i32,
        /// Units stand more than this many hexes from the left and right edges.
        side_margin: i32,
        /// The other corps stand within this many hexes of their own edge.
        other_depth: i32,
        /// The defender's Psiloi in ambush stand at least this far from the enemy edge.
        psiloi_ambush_from_enemy_edge: i32,
        /// Whether the attacker chooses the edge (14.3.2); `false` keeps the sides'
        /// `edge`s, for a map whose features fix them (the Daras ditch).
        choose_edge: bool,
        #[serde(default)]
        source: String,
    },
    /// Hexes of a ditch: each costs `mp_cost` MP to enter, and units in one subtract
    /// `combat_modifier` from their combat dice (CdB Daras special rule 3).
    Ditch {
        hexes: Vec<HexCoord>,
        mp_cost: i32,
        combat_modifier: i32,
        #[serde(default)]
        source: String,
    },
    /// The units that may fight mounted or on foot change counters (CdB 2.7): before
    /// the first turn only (`in_play: false`), or also in play for 1 PA.
    Dismount {
        units: Vec<String>,
        #[serde(default)]
        in_play: bool,
        #[serde(default)]
        source: String,
    },
    /// Psiloi of `side` may stack with and support units of the `supported` kinds
    /// against the `against` kinds (CdB 8, support table line 6; scenario rules).
    PsiloiSupport {
        side: String,
        supported: Vec<String>,
        against: Vec<String>,
        #[serde(default)]
        source: String,
    },
}

impl SpecialRuleRefs for CdbSpecialRule {
    fn units(&self) -> Vec<&str> {
        match self {
            CdbSpecialRule::HiddenPlacement { unit, .. } => vec![unit],
            CdbSpecialRule::Dismount { units, .. } => units.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        }
    }

    fn sides(&self) -> Vec<(&'static str, &str)> {
        match self {
            CdbSpecialRule::PsiloiSupport { side, .. } => vec![("side", side)],
            _ => Vec::new(),
        }
    }

    fn places_unit(&self) -> Option<&str> {
        match self {
            CdbSpecialRule::HiddenPlacement { unit, .. } => Some(unit),
            _ => None,
        }
    }
}

/// What Champs de Bataille reads of a scenario besides the shared fields.
pub type CdbScenario = RulesetFields<CdbSideFields, CdbUnitFields, CdbSpecialRule>;

pub(super) fn stack_pair_allowed(
    a: &Profile,
    b: &Profile,
    psiloi: &[(String, Vec<Kind>)],
    side: &str,
) -> bool {
    use Kind::*;
    match (a.kind, b.kind) {
        (Cv, Cv) | (Bd, Bd) | (Wb, Wb) | (Bw, Bw) | (Ps, Ps) => true,
        (Sp, Sp) => a.quality == b.quality,
        (Sp | Bd | Pk | Ax, Ps) | (Ps, Sp | Bd | Pk | Ax) => {
            let supported = if a.kind == Ps { b.kind } else { a.kind };
            psiloi
                .iter()
                .any(|(s, k)| s == side && k.contains(&supported))
        }
        _ => false,
    }
}

/// Reads CdB's fields of a scenario and checks the parts that depend on its tables and
/// rules: special rules, corps and their generals, edges, facings, stacking (CdB 4, 6.1,
/// 8, 11.8, 14).
pub fn read_scenario(
    tables: &Tables,
    scenario: &LoadedScenario,
) -> Result<CdbScenario, LocatedError> {
    let own: CdbScenario = scenario.read_fields()?;
    crate::rulesets::common::require_time_limit(scenario, "Champs de Bataille", "CdB 13")?;
    crate::rulesets::common::refuse_field_defences(
        scenario,
        "Champs de Bataille",
        "its fortifications are hexes (a terrain with `fortification: true`, CdB 11.6), and a scenario's ditch is its `Ditch` special rule",
    )?;
    let file = &scenario.file;
    let mut psiloi = Vec::new();
    for r in &own.special_rules {
        match r {
            CdbSpecialRule::PsiloiSupport {
                side,
                supported,
                against,
                ..
            } => {
                if scenario.side_index(side).is_none() {
                    return Err(scenario.error_at(
                        "PsiloiSupport",
                        0,
                        format!(
                            "PsiloiSupport names side `{side}`, which the scenario does not have"
                        ),
                    ));
                }
                let mut kinds = Vec::new();
                for k in supported.iter().chain(against) {
                    let Some(kind) = Kind::parse(k) else {
                        return Err(scenario.error_at(&format!("\"{k}\""), 0, format!("`{k}` is not a unit kind of CdB 2.4 (Kn Cv LH El Sp Pk Bd Ax Bw Ps Wb Hd Bag)")));
                    };
                    if supported.contains(k) {
                        kinds.push(kind);
                    }
                }
                psiloi.push((side.clone(), kinds));
            }
            CdbSpecialRule::Ditch { hexes, .. } => {
                for h in hexes {
                    if h.col < 1 || h.row < 1 || h.col > file.map.columns || h.row > file.map.rows {
                        return Err(scenario.error_at(
                            &format!("\"{h}\""),
                            0,
                            format!("ditch hex {h} is off the map"),
                        ));
                    }
                }
            }
            CdbSpecialRule::HiddenPlacement { unit, zone, .. } => {
                crate::rulesets::common::check_hidden_placement(scenario, unit, zone)?;
            }
            CdbSpecialRule::Dismount { units, .. } => {
                for u in units {
                    let spec = file
                        .units
                        .iter()
                        .find(|x| &x.id == u)
                        .expect("checked by the engine");
                    let other = tables
                        .counter(&spec.unit_type)
                        .and_then(|c| c.other_state.clone());
                    if other.is_none() {
                        return Err(scenario.error_at(&format!("\"{u}\""), 0, format!("`{u}` may dismount, but its counter `{}` has no `other_state` in units.ron (CdB 2.7)", spec.unit_type)));
                    }
                }
            }
            CdbSpecialRule::AttackerByAggression { .. } => {
                if own.sides.iter().any(|s| s.aggression.is_none()) {
                    return Err(scenario.error_at(
                        "AttackerByAggression",
                        0,
                        "AttackerByAggression needs an `aggression` on every side (CdB 14.3)"
                            .to_string(),
                    ));
                }
            }
            CdbSpecialRule::Deployment {
                defender_main_depth,
                attacker_main_depth,
                side_margin,
                other_depth,
                psiloi_ambush_from_enemy_edge,
                ..
            } => {
                let half = file.map.columns.max(file.map.rows);
                for (field, v, least) in [
                    ("defender_main_depth", defender_main_depth, 1),
                    ("attacker_main_depth", attacker_main_depth, 1),
                    ("side_margin", side_margin, 0),
                    ("other_depth", other_depth, 1),
                    (
                        "psiloi_ambush_from_enemy_edge",
                        psiloi_ambush_from_enemy_edge,
                        1,
                    ),
                ] {
                    if *v < least || *v > half {
                        return Err(scenario.error_at(
                            field,
                            0,
                            format!("Deployment `{field}` is {v}: it must be from {least} to {half} hexes (CdB 14.3)"),
                        ));
                    }
                }
            }
        }
    }
    for (side, own_side) in file.sides.iter().zip(&own.sides) {
        if own_side.corps.is_empty() {
            return Err(scenario.field_error(
                "id",
                Some(&side.id),
                0,
                format!(
                    "side `{}` has no corps: every army has 2 to 4 (CdB 4, 14.1)",
                    side.id
                ),
            ));
        }
        if own_side.edge.is_none() {
            return Err(scenario.field_error("id", Some(&side.id), 0, format!("side `{}` needs an `edge` (West, East, North or South): its map edge (CdB 11.8, 14.3)", side.id)));
        }
        for c in &own_side.corps {
            let general = file
                .units
                .iter()
                .zip(&own.units)
                .find(|(u, _)| u.id == c.general);
            match general {
                Some((g, own_g))
                    if g.side == side.id && own_g.corps.as_deref() == Some(c.id.as_str()) => {}
                Some(_) => {
                    return Err(scenario.field_error(
                        "general",
                        Some(&c.general),
                        0,
                        format!(
                            "general `{}` of corps `{}` must be a unit of side `{}` in that corps",
                            c.general, c.id, side.id
                        ),
                    ));
                }
                None => {
                    return Err(scenario.field_error(
                        "general",
                        Some(&c.general),
                        0,
                        format!(
                            "general `{}` of corps `{}` is not in the unit list",
                            c.general, c.id
                        ),
                    ));
                }
            }
            if own
                .sides
                .iter()
                .flat_map(|s| &s.corps)
                .filter(|o| o.id == c.id)
                .count()
                > 1
            {
                return Err(scenario.field_error(
                    "id",
                    Some(&c.id),
                    0,
                    format!("corps id `{}` is used twice", c.id),
                ));
            }
        }
        if let Some(cinc) = &side.commander
            && !own_side.corps.iter().any(|c| &c.general == cinc)
        {
            return Err(scenario.field_error("commander", Some(cinc), 0, format!("the Commander-in-Chief `{cinc}` must be the general of one of side `{}`'s corps (CdB 4)", side.id)));
        }
    }
    let mut at_hex: std::collections::BTreeMap<HexCoord, Vec<usize>> = Default::default();
    for (i, (u, own_unit)) in file.units.iter().zip(&own.units).enumerate() {
        let Some(c) = tables.counter(&u.unit_type) else {
            return Err(scenario.unit_error(
                &u.id,
                Some("type"),
                format!(
                    "`{}` is not a counter type of rulesets/champs_de_bataille/units.ron",
                    u.unit_type
                ),
            ));
        };
        let _ = c;
        let side = file.sides.iter().position(|s| s.id == u.side);
        let Some(corps) = &own_unit.corps else {
            return Err(scenario.unit_error(
                &u.id,
                None,
                format!("unit `{}` needs a `corps` (CdB 4)", u.id),
            ));
        };
        if !side.is_some_and(|s| own.sides[s].corps.iter().any(|c| &c.id == corps)) {
            return Err(scenario.unit_error(
                &u.id,
                Some("corps"),
                format!("`{corps}` is not a corps of side `{}`", u.side),
            ));
        }
        match &own_unit.facing {
            None => {
                return Err(scenario.unit_error(
                    &u.id,
                    None,
                    format!(
                        "unit `{}` needs a `facing`: NNE, E, SSE, SSW, W or NNW (CdB 6.1)",
                        u.id
                    ),
                ));
            }
            Some(f) if movement::parse_facing(f).is_none() => {
                return Err(scenario.unit_error(&u.id, Some("facing"), format!("`{f}` is not a facing: write NNE, E, SSE, SSW, W or NNW (the vertex faced, CdB 6.1)")));
            }
            _ => {}
        }
        if u.reduced {
            return Err(scenario.unit_error(
                &u.id,
                Some("reduced"),
                "CdB counters have one side: `reduced` does not apply".to_string(),
            ));
        }
        if let Some(h) = u.hex {
            at_hex.entry(h).or_default().push(i);
        }
    }
    for (h, list) in &at_hex {
        if list.len() > 2 {
            let u = &file.units[list[2]];
            return Err(scenario.unit_error(
                &u.id,
                Some("hex"),
                format!("three units on {h}: stacking is limited to two counters (CdB 8)"),
            ));
        }
        if let [a, b] = list[..] {
            let (ua, ub) = (&file.units[a], &file.units[b]);
            let pa = tables.profile(tables.counter(&ua.unit_type).expect("checked"));
            let pb = tables.profile(tables.counter(&ub.unit_type).expect("checked"));
            let (oa, ob) = (&own.units[a], &own.units[b]);
            let same = ua.side == ub.side && oa.corps == ob.corps && oa.facing == ob.facing;
            if !same || !stack_pair_allowed(&pa, &pb, &psiloi, &ua.side) {
                return Err(scenario.unit_error(&ub.id, Some("hex"), format!("`{}` and `{}` on {h} may not stack: only the pairs of the ranks-of-support table, of one corps and one facing (CdB 8)", ua.id, ub.id)));
            }
        }
    }
    Ok(own)
}
