//! The checks of Charles the Bold's tables (`data`): ids given once, values in their
//! ranges, the names one table takes from another known there; each fault refused at
//! its file, line and column, citing its section.

use crate::engine::error::{LocatedError, find_field, find_nth};

use super::data::*;

/// Where a fault of a table lies: file `i` of `names`, at `needle`.
pub(super) struct Locate<'a> {
    pub(super) names: [&'a str; 6],
    pub(super) texts: &'a [String; 6],
}

impl Locate<'_> {
    pub(super) fn at(&self, i: usize, needle: &str, msg: String) -> LocatedError {
        LocatedError::at_text(self.names[i], &self.texts[i], needle, 0, msg)
    }

    /// The field `key` of the entry `id: "<id>"` of file `i`, the `nth` such entry
    /// counted from `from` (the line of an army's key, or 1); the entry's id when the
    /// field is not written on its line.
    pub(super) fn field(
        &self,
        i: usize,
        from: usize,
        id: &str,
        key: &str,
        msg: String,
    ) -> LocatedError {
        let text = &self.texts[i];
        let quoted = format!("\"{id}\"");
        let place = text
            .lines()
            .enumerate()
            .skip(from.saturating_sub(1))
            .find(|(_, l)| find_field(l, "id", Some(id), 0).is_some())
            .map(|(n, line)| {
                let col = find_field(line, key, None, 0)
                    .or_else(|| find_nth(line, &quoted, 0))
                    .map_or(1, |(_, c)| c);
                (n + 1, col)
            });
        match place {
            Some((line, column)) => LocatedError::new(self.names[i], text, line, column, msg),
            None => self.at(i, &quoted, msg),
        }
    }
}

/// The first id given twice, if any.
pub(super) fn unique<'a>(mut ids: impl Iterator<Item = &'a String>) -> Option<&'a String> {
    let mut seen = std::collections::HashSet::new();
    ids.find(|id| !seen.insert(id.as_str()))
}

pub(super) fn check_types(loc: &Locate, types: &TypesFile) -> Result<(), LocatedError> {
    if let Some(id) = unique(types.types.iter().map(|t| &t.id)) {
        return Err(loc.at(
            0,
            &format!("\"{id}\""),
            format!("stand type `{id}` is given twice (CtB 15.0)"),
        ));
    }
    for t in &types.types {
        let fault = if !(1..=9).contains(&t.side) {
            Some(("side", "a sideways cost from 1 to 9 MP a hex (CtB 3.6)"))
        } else if !(1..=9).contains(&t.back) {
            Some(("back", "a backwards cost from 1 to 9 MP a hex (CtB 3.7)"))
        } else if let Some(key) = [
            ("lost_vs_foot", t.lost_vs_foot),
            ("lost_max", t.lost_max),
            ("inflicts_max", t.inflicts_max),
        ]
        .iter()
        .find(|(_, c)| c.is_some_and(|c| !(1..=3).contains(&c)))
        .map(|(k, _)| *k)
        {
            Some((key, "melee caps from 1 to 3 SP (CtB 11.1)"))
        } else if t.ranks.is_some_and(|r| r.foot > 3 || r.mounted > 3) {
            Some((
                "ranks",
                "rank bonuses from 0 to 3 dice a rank (CtB 10.4.1, 10.4.2)",
            ))
        } else {
            None
        };
        if let Some((key, what)) = fault {
            return Err(loc.field(
                0,
                1,
                &t.id,
                key,
                format!("stand type `{}` needs {what}", t.id),
            ));
        }
    }
    Ok(())
}

pub(super) fn check_terrain(
    loc: &Locate,
    terrain: &TerrainFile,
    types: &TypesFile,
) -> Result<(), LocatedError> {
    if terrain.terrain.is_empty() || terrain.terrain.len() > 255 {
        return Err(loc.at(1, "terrain", "1 to 255 terrain types".into()));
    }
    if let Some(id) = unique(terrain.terrain.iter().map(|t| &t.id)) {
        return Err(loc.at(
            1,
            &format!("\"{id}\""),
            format!("terrain `{id}` is given twice"),
        ));
    }
    for t in &terrain.terrain {
        let here = |key: &str, what: String| {
            loc.field(1, 1, &t.id, key, format!("terrain `{}` needs {what}", t.id))
        };
        if t.cost.all().iter().flatten().any(|c| !(1..=9).contains(c)) {
            return Err(here(
                "cost",
                "costs from 1 to 9 MP, or None where impassable".into(),
            ));
        }
        if let Some(bad) = t
            .no_charge
            .iter()
            .find(|k| !types.types.iter().any(|s| &s.id == *k))
        {
            return Err(here(
                "no_charge",
                format!("known stand types in `no_charge`, not `{bad}` (types.ron)"),
            ));
        }
    }
    if terrain.climb.all().iter().any(|c| *c > 9) {
        return Err(loc.at(1, "climb", "climbing costs from 0 to 9 MP".into()));
    }
    if !(1..=9).contains(&terrain.sight_levels) {
        return Err(loc.at(
            1,
            "sight_levels",
            "sight is blocked by a hex 1 to 9 levels above the lower end (R-LOS)".into(),
        ));
    }
    let h = &terrain.hexsides;
    if !(1..=9).contains(&h.stream.cost) || !(1..=9).contains(&h.road) {
        return Err(loc.at(1, "hexsides", "streams and roads cost 1 to 9 MP".into()));
    }
    let fd = &h.field_defence;
    if fd.cost.all().iter().flatten().any(|c| *c > 9) {
        return Err(loc.at(
            1,
            "field_defence",
            "field defences cost 0 to 9 MP more to cross, or None where a class may not cross"
                .into(),
        ));
    }
    if fd.source.trim().is_empty() {
        return Err(loc.at(
            1,
            "field_defence",
            "field defences need a `source:` note (designer's, after the spec's A-T)".into(),
        ));
    }
    Ok(())
}

pub(super) fn check_factors(
    loc: &Locate,
    f: &FactorsFile,
    types: &TypesFile,
) -> Result<(), LocatedError> {
    let fire = &f.fire;
    let penalties = [
        ("move_before", fire.move_before),
        ("move_after", fire.move_after),
        ("rear_rank", fire.rear_rank),
        ("cover", fire.cover),
        ("armour", fire.armour),
        ("disordered", fire.disordered),
        ("disordered", f.melee.disordered),
        ("disordered", f.morale.disordered),
    ];
    for (nth, (key, v)) in penalties.iter().enumerate() {
        if !(-3..=0).contains(v) {
            // The three `disordered` fields are told apart by their order in the file.
            let nth = nth.saturating_sub(5);
            return Err(LocatedError::at_field(
                loc.names[2],
                &loc.texts[2],
                key,
                None,
                if *key == "disordered" { nth } else { 0 },
                format!("`{key}` takes dice away: a figure from -3 to 0, not {v} (CtB 6.0, 7.0)"),
            ));
        }
    }
    if let Some(bad) = fire
        .armour_vs
        .iter()
        .find(|k| !types.types.iter().any(|s| &s.id == *k))
    {
        return Err(loc.at(
            2,
            "armour_vs",
            format!("`armour_vs` names stand types of types.ron, not `{bad}`"),
        ));
    }
    let from_one = fire.ranges.first().is_some_and(|b| b.from == 1);
    let contiguous = fire.ranges.windows(2).all(|w| w[1].from == w[0].to + 1);
    if !from_one || !contiguous || fire.ranges.iter().any(|b| b.to < b.from) {
        return Err(loc.at(
            2,
            "ranges",
            "the fire ranges run from 1 hex up, each band starting after the one before (R-ranges)"
                .into(),
        ));
    }
    let m = &f.melee;
    let caps = [
        ("cap", fire.cap),
        ("art_frontal_cap", fire.art_frontal_cap),
        ("min_dice", m.min_dice),
        ("loser_cap", m.loser_cap),
        ("loser_needs", m.loser_needs),
        ("winner_cap", m.winner_cap),
        ("ongoing_cap", m.ongoing_cap),
        ("hc_flank_cap", m.hc_flank_cap),
        ("impact_after_loss", m.impact_after_loss),
    ];
    if let Some((key, v)) = caps.iter().find(|(_, v)| !(1..=5).contains(v)) {
        return Err(LocatedError::at_field(
            loc.names[2],
            &loc.texts[2],
            key,
            None,
            0,
            format!("`{key}` is a figure from 1 to 5, not {v} (CtB 7.1, 10.2, 10.3, 11.0, 11.1)"),
        ));
    }
    let mo = &f.morale;
    if !(1..=6).contains(&mo.min_adjusted)
        || !(2..=7).contains(&mo.high)
        || !(1..=5).contains(&mo.high_loss)
        || !(0..=3).contains(&mo.general)
    {
        return Err(loc.at(
            2,
            "morale:",
            "the Morale Test needs an adjusted morale of at least 1 to 6, `high` from 2 to 7, `high_loss` from 1 to 5 and a general's bonus from 0 to 3 (CtB 7.0)".into(),
        ));
    }
    Ok(())
}

pub(super) fn check_orders(loc: &Locate, o: &OrdersFile) -> Result<(), LocatedError> {
    let t = &o.order_test;
    if [t.a, t.b, t.c].iter().any(|x| !(2..=6).contains(x)) || !(t.a <= t.b && t.b <= t.c) {
        return Err(loc.at(
            3,
            "order_test",
            "the Order Test's thresholds are 2 to 6, A's no higher than B's, B's no higher than C's (CtB 8.1)".into(),
        ));
    }
    if !(1..=3).contains(&o.initiative.dice) {
        return Err(loc.at(
            3,
            "initiative",
            "the initiative is 1 to 3 dice (CtB 1.4)".into(),
        ));
    }
    for (kind, bands) in [("cavalry", &o.pursuit.cavalry), ("foot", &o.pursuit.foot)] {
        let faces_ok = bands
            .iter()
            .all(|b| 1 <= b.faces.0 && b.faces.0 <= b.faces.1 && b.faces.1 <= 6);
        let rising = bands.windows(2).all(|w| w[0].faces.1 < w[1].faces.0);
        if !faces_ok || !rising || bands.iter().any(|b| b.hexes == 0) {
            return Err(loc.at(
                3,
                &format!("{kind}:"),
                format!("the {kind} pursuit bands are faces 1 to 6, rising without overlap, each of at least 1 hex (CtB 13.0)"),
            ));
        }
    }
    if o.retreat_factor == 0 {
        return Err(loc.at(
            3,
            "retreat_factor",
            "the retreat factor is at least 1 (CtB 12.0)".into(),
        ));
    }
    if o.general_move == 0 {
        return Err(loc.at(
            3,
            "general_move",
            "the general's move is at least 1 hex (CtB 2.1)".into(),
        ));
    }
    Ok(())
}

pub(super) fn check_armies(
    loc: &Locate,
    armies: &ArmiesFile,
    types: &TypesFile,
    special: &SpecialFile,
) -> Result<(), LocatedError> {
    if armies.armies.is_empty() {
        return Err(loc.at(4, "armies", "at least one army list (CtB 16.0)".into()));
    }
    for (army, entries) in &armies.armies {
        let from = find_nth(&loc.texts[4], &format!("\"{army}\":"), 0).map_or(1, |p| p.0);
        if let Some(id) = unique(entries.iter().map(|e| &e.id)) {
            return Err(loc.field(
                4,
                from,
                id,
                "id",
                format!("`{id}` is given twice in the {army} list"),
            ));
        }
        for e in entries {
            let spec = types.types.iter().find(|t| t.id == e.kind);
            let fault: Option<(&str, String)> = if spec.is_none() {
                Some((
                    "type",
                    format!("a type of types.ron, not `{}` (CtB 15.0)", e.kind),
                ))
            } else if e.sp.is_empty() || e.sp.len() > 3 {
                Some(("sp", "1 to 3 ranks (CtB 1.2, 7.4)".into()))
            } else if e.sp.iter().any(|s| !(1..=9).contains(s)) {
                Some(("sp", "from 1 to 9 SP in each rank (CtB 1.3)".into()))
            } else if !(e.mp.0 >= e.mp.1 && e.mp.1 >= 1) {
                Some((
                    "mp",
                    "a first move of at least its later moves, and at least 1 MP (CtB 16.0)".into(),
                ))
            } else if e.impact > 5 {
                Some(("impact", "an impact factor from 0 to 5 (CtB 10.3)".into()))
            } else if !(1..=3).contains(&e.bp) {
                Some(("bp", "1 to 3 break points a rank (CtB 14.0)".into()))
            } else if e.fire.is_some() && spec.is_some_and(|s| !s.shoots) {
                let shooters: Vec<&str> = types
                    .types
                    .iter()
                    .filter(|t| t.shoots)
                    .map(|t| t.id.as_str())
                    .collect();
                Some((
                    "fire",
                    format!(
                        "no fire columns: only the types that shoot in types.ron ({}) have them (CtB 6.0, 15.2)",
                        shooters.join(", ")
                    ),
                ))
            } else if e.imp.is_some() && spec.is_some_and(|s| s.role != Role::Combat) {
                Some((
                    "imp",
                    "no impetus: only Combat Stands are impetuous (CtB 9.0)".into(),
                ))
            } else if let Some(s) = e
                .special
                .iter()
                .find(|s| !special.units.iter().any(|u| &u.id == *s))
            {
                Some((
                    "special",
                    format!("special units of special_units.ron, not `{s}` (CtB 6.1)"),
                ))
            } else {
                None
            };
            if let Some((key, what)) = fault {
                return Err(loc.field(
                    4,
                    from,
                    &e.id,
                    key,
                    format!("`{}` of the {army} list needs {what}", e.id),
                ));
            }
        }
    }
    Ok(())
}
