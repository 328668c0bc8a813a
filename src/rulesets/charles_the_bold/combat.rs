//! Charles the Bold's melee pools as pure functions (CtB 10.1-10.7): a Battle Stand's
//! dice term by term with its section (its front rank's SP, impact, rank dice, uphill,
//! flank and rear, disorder), its supports' half, and the floor of one die. Contacts,
//! the choice of Battle Stands and the throw come with the plugin.

use super::data::{ArmyEntry, MeleeFactors, SpecialUnit, SupportShare};
use super::pool::Pool;

/// The impact factor a stand charges with (CtB 10.3): its list's figure, cut to
/// `impact_after_loss` (1) once it has lost a strength point, unless its Special
/// Units entry keeps more (the Swiss: 2).
pub fn impact_factor(
    entry: &ArmyEntry,
    special: Option<&SpecialUnit>,
    m: &MeleeFactors,
    lost_sp: bool,
) -> u8 {
    if !lost_sp {
        return entry.impact;
    }
    let kept = special
        .and_then(|s| s.keeps_impact)
        .unwrap_or(m.impact_after_loss);
    entry.impact.min(kept)
}

/// What makes a Battle Stand's dice besides its SP (CtB 10.3-10.5, 7.4).
#[derive(Clone, Copy, Debug, Default)]
pub struct MeleeSituation {
    /// The impact it charges with this melee, 0 when it gets none (CtB 10.3).
    pub impact: u8,
    /// Its pike or long-spear rank dice (CtB 10.4.1, 10.4.2: `verdict::rank_bonus`).
    pub rank_dice: u8,
    /// It stands higher than its opponent (CtB 10.4.3).
    pub uphill: bool,
    /// It faces one of its opponent's four flank and rear hexes (CtB 10.5).
    pub on_flank_or_rear: bool,
    /// Heavy cavalry contacting a flank or rear from behind the front line this turn:
    /// +2D6 instead of the +1D6 (CtB 10.5, R-10.5).
    pub hc_flank_contact: bool,
    /// It is disordered (CtB 7.4).
    pub disordered: bool,
}

/// A Battle Stand's own pool (CtB 10.1): its front rank's SP (R-pool) and each factor
/// of `situation` from the table, before supports and the floor.
pub fn stand_pool(m: &MeleeFactors, front_sp: u8, s: MeleeSituation) -> Pool {
    let mut pool = Pool::of_sp(front_sp);
    pool.add(i32::from(s.impact), "impact", "CtB 10.3");
    pool.add(i32::from(s.rank_dice), "ranks behind the front", "CtB 10.4");
    if s.uphill {
        pool.add(i32::from(m.uphill), "uphill", "CtB 10.4.3");
    }
    if s.hc_flank_contact {
        pool.add(
            i32::from(m.hc_flank),
            "heavy cavalry into the flank or rear",
            "CtB 10.5",
        );
    } else if s.on_flank_or_rear {
        pool.add(i32::from(m.flank), "against the flank or rear", "CtB 10.5");
    }
    if s.disordered {
        pool.add(i32::from(m.disordered), "disordered", "CtB 7.4");
    }
    pool
}

/// The dice a supporting stand adds (CtB 10.7): half its own adjusted dice, rounded up.
pub fn support_dice(m: &MeleeFactors, adjusted: u32) -> u32 {
    match m.support {
        SupportShare::HalfUp => adjusted.div_ceil(2),
    }
}

/// The whole pool of a Battle Stand with its supports (CtB 10.7), each support's share
/// a term of its own, `supports` being each one's name and adjusted dice.
pub fn battle_pool(m: &MeleeFactors, own: Pool, supports: &[(&str, u32)]) -> Pool {
    let mut pool = own;
    for (name, adjusted) in supports {
        pool.add(
            support_dice(m, *adjusted) as i32,
            format!("{name} supporting, half of {adjusted}"),
            "CtB 10.7",
        );
    }
    pool
}

/// The dice thrown: the pool, never fewer than `min_dice` (CtB 10.2: at least 1D6).
pub fn melee_dice(m: &MeleeFactors, pool: &Pool) -> u32 {
    pool.dice().max(u32::from(m.min_dice))
}
