//! Who may initiate a charge (C&M 7.3): shaken troops, troops in column and types that
//! never charge may not; foot archers only with heavy infantry they are in line with,
//! and not after shooting at short range; skirmishers and light cavalry only against
//! unformed troops or an exposed flank or rear; heavy horse archers and lance & bow
//! cavalry not after a front-rank short-range shot; B and C grade troops frontally
//! against formed enemy only with a leader's commitment, or as part of a battle line in
//! which another unit charges.

use super::data::{FormationId, Grade, Initiative, Tables, TroopType};

/// One unit's case for initiating a charge.
#[derive(Clone, Copy, Debug)]
pub struct ChargeCase<'a> {
    pub troop: &'a TroopType,
    pub grade: Grade,
    pub formation: FormationId,
    pub shaken: bool,
    /// In pursuit, or in unauthorised advance from a control test (3.14).
    pub pursuing_or_unauthorised: bool,
    /// The target is unformed, or the charge falls on an exposed flank or rear.
    pub against_unformed_flank_or_rear: bool,
    /// A leader allocated CPs to inspire it.
    pub inspired: bool,
    /// A leader charges with it.
    pub leader_charges_with_it: bool,
    /// A leader is already in combat within bow range.
    pub leader_in_combat_within_bow_range: bool,
    /// It shot in this turn's short-range exchange (6.8).
    pub shot_at_short_range: bool,
    /// ... and from a front rank.
    pub shot_from_front_rank: bool,
    /// It is in a battle line with heavy infantry that charges (foot archers' exception).
    pub with_charging_heavy_infantry: bool,
}

impl<'a> ChargeCase<'a> {
    /// A formed unit in line, unshaken, with no leader and nothing shot.
    pub fn new(troop: &'a TroopType, grade: Grade) -> Self {
        Self {
            troop,
            grade,
            formation: FormationId::Line,
            shaken: false,
            pursuing_or_unauthorised: false,
            against_unformed_flank_or_rear: false,
            inspired: false,
            leader_charges_with_it: false,
            leader_in_combat_within_bow_range: false,
            shot_at_short_range: false,
            shot_from_front_rank: false,
            with_charging_heavy_infantry: false,
        }
    }
}

/// Whether the unit may initiate its charge (7.3); `line_anchor` says another unit of
/// its battle line, eligible on its own, charges with it. A refusal says why.
pub fn may_initiate(tables: &Tables, c: &ChargeCase, line_anchor: bool) -> Result<(), String> {
    let name = &c.troop.name;
    if c.shaken {
        return Err("shaken troops may not initiate a charge (C&M 7.3)".into());
    }
    if !tables.formation(c.formation).may_charge {
        return Err(format!(
            "troops in {:?} may not initiate a charge (C&M 7.3)",
            c.formation
        ));
    }
    let free = c.pursuing_or_unauthorised;
    match c.troop.initiative {
        Initiative::Free => {}
        Initiative::Never | Initiative::NotAlone => {
            return Err(format!("{name} may not initiate a charge (C&M 7.3)"));
        }
        Initiative::WithHeavyInfantry if !c.with_charging_heavy_infantry => {
            return Err(format!(
                "{name} charge only with the heavy infantry of their battle line (C&M 7.3)"
            ));
        }
        Initiative::WithHeavyInfantry if c.shot_at_short_range => {
            return Err(format!(
                "{name} shot in the short-range exchange and may not charge (C&M 7.3)"
            ));
        }
        Initiative::WithHeavyInfantry => {}
        Initiative::UnformedFlankOrRear if !free && !c.against_unformed_flank_or_rear => {
            return Err(format!(
                "{name} charge only unformed troops or an exposed flank or rear unless pursuing (C&M 7.3)"
            ));
        }
        Initiative::UnformedFlankOrRear => {}
        Initiative::NotAfterFrontRankShot if c.shot_from_front_rank => {
            return Err(format!(
                "{name} shot at short range from a front rank this turn and may not initiate a charge (C&M 7.3)"
            ));
        }
        Initiative::NotAfterFrontRankShot => {}
    }
    if free || c.against_unformed_flank_or_rear || line_anchor {
        return Ok(());
    }
    match c.grade {
        Grade::A => Ok(()),
        Grade::B if c.leader_charges_with_it || c.leader_in_combat_within_bow_range => Ok(()),
        Grade::B => Err(
            "B grade troops charge formed enemy frontally only if a leader charges with them or is in combat within bow range, or with a charging battle line (C&M 7.3)"
                .into(),
        ),
        Grade::C if c.inspired => Ok(()),
        Grade::C => Err(
            "C grade troops charge formed enemy frontally only if inspired by a leader, or with a charging battle line (C&M 7.3)"
                .into(),
        ),
    }
}

/// Each unit of a battle line that charges together (7.1, 7.3): a unit may lean on the
/// line only if another unit of it may charge on its own.
pub fn line_may_initiate(tables: &Tables, line: &[ChargeCase]) -> Vec<Result<(), String>> {
    let alone: Vec<bool> = line
        .iter()
        .map(|c| may_initiate(tables, c, false).is_ok())
        .collect();
    line.iter()
        .enumerate()
        .map(|(i, c)| {
            let anchor = alone.iter().enumerate().any(|(j, ok)| j != i && *ok);
            may_initiate(tables, c, anchor)
        })
        .collect()
}
