//! Charles the Bold's melee arithmetic, as pure functions: the extra dice of pike and
//! long-spear ranks (CtB 10.4.1, 10.4.2), who wins a melee and the SP each Battle Stand
//! loses (CtB 11.0-11.3), and how far a winner pursues (CtB 13.0, R-pursuit).

use super::data::{MeleeFactors, PursuitBand, PursuitDice, PursuitKind, SpecialUnit, TypeSpec};
use super::geometry::Side;
use super::morale::sp_loss;

/// Whether a stand is attacked through its front (CtB 10.4): contact on a front hex,
/// or any contact on a stand whose Special Units entry gives it an all-round front
/// while it has not moved this round (the schiltron, designer's).
pub fn attacked_frontally(side: Side, special: Option<&SpecialUnit>, moved: bool) -> bool {
    side == Side::Front || special.is_some_and(|s| s.all_round_unmoved && !moved)
}

/// The extra dice a stand's ranks behind the front give it (CtB 10.4.1 pike: 1D6 a
/// rank against foot, 3D6 against mounted; 10.4.2 long spears: 1D6 and 2D6), only when
/// attacked frontally; other types have none.
pub fn rank_bonus(spec: &TypeSpec, ranks: usize, against_mounted: bool, frontal: bool) -> u8 {
    let Some(bonus) = spec.ranks else { return 0 };
    if !frontal {
        return 0;
    }
    let per_rank = if against_mounted {
        bonus.mounted
    } else {
        bonus.foot
    };
    per_rank * ranks.saturating_sub(1) as u8
}

/// One Battle Stand's side of a melee, as the verdict reads it.
#[derive(Clone, Copy, Debug)]
pub struct Fighter<'a> {
    pub spec: &'a TypeSpec,
    /// Its morale loss (0 when it passed or did not test: CtB 11.3).
    pub morale_loss: u8,
    /// It took a Morale Test (it was hit): a stand disordered before its test loses at
    /// least 1 SP, within every cap (CtB 7.3, R-caps).
    pub tested: bool,
    /// Disordered before this melee's Morale Test (CtB 7.3).
    pub disordered: bool,
    /// Its SP (all ranks): losing as many eliminates it (CtB 11.2).
    pub sp: u8,
    /// Supporting stands add to its dice (CtB 10.7, 11.2).
    pub supported: bool,
    /// Heavy cavalry that charged infantry's flank or rear from behind its front line
    /// this round: it inflicts up to 3 SP if it wins (CtB 11.1).
    pub hc_flank_charge: bool,
    /// Fighting pikes or long spears frontally (CtB 11.1: cavalry may then lose 2).
    pub against_pike_front: bool,
}

/// The outcome of a melee (CtB 11.0-11.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// `loser` (0 or 1) loses: `sp` is what each Battle Stand loses, by side.
    Won { loser: usize, sp: [u8; 2] },
    /// Equal morale losses (none, or one side passing alone): both stay in contact,
    /// each loses at most 1 SP, and an ongoing-melee marker joins them (CtB 11.3).
    Ongoing { sp: [u8; 2] },
}

/// The most SP a fighter may lose in a melee against `other` (CtB 11.1): cavalry
/// against foot 1 (`lost_vs_foot`) unless against pikes or long spears frontally; LC 1
/// (`lost_max`); whatever `other` may inflict at most (Sk 1: `inflicts_max`).
fn loss_cap(me: &Fighter, other: &Fighter) -> u8 {
    let mut cap = u8::MAX;
    if !other.spec.mounted
        && !me.against_pike_front
        && let Some(c) = me.spec.lost_vs_foot
    {
        cap = cap.min(c);
    }
    if let Some(c) = me.spec.lost_max {
        cap = cap.min(c);
    }
    if let Some(c) = other.spec.inflicts_max {
        cap = cap.min(c);
    }
    cap
}

/// Who wins a melee and what each Battle Stand loses (CtB 11.0), with the caps of
/// `factors.ron`: the greater morale loss loses; the loser at most `loser_cap` SP (2),
/// and that many only with a morale loss of `loser_needs` (2) or more, up to
/// `hc_flank_cap` (3) against heavy cavalry's flank charge (CtB 11.1); the winner at
/// most `winner_cap` (1); equal losses are an ongoing melee, `ongoing_cap` (1) each
/// (CtB 11.3); every type's cap of CtB 11.1 applies, and within them a stand disordered
/// before its test loses at least 1 (CtB 7.3), which does not change who wins. A
/// Battle Stand fighting alone that its losses, that SP included, would eliminate loses
/// whatever the morale losses (CtB 11.2).
pub fn melee_verdict(m: &MeleeFactors, f: [Fighter; 2]) -> Verdict {
    let cap = [loss_cap(&f[0], &f[1]), loss_cap(&f[1], &f[0])];
    // The SP a side loses under `limit` (7.3's SP only for a stand that tested).
    let lost = |i: usize, limit: u8| {
        sp_loss(
            f[i].morale_loss,
            limit.min(cap[i]),
            f[i].disordered && f[i].tested,
        )
        .sp
    };
    let ongoing = || Verdict::Ongoing {
        sp: [0, 1].map(|i| lost(i, m.ongoing_cap)),
    };
    let won = |loser: usize| {
        let winner = 1 - loser;
        let mut limit = if f[winner].hc_flank_charge {
            m.hc_flank_cap
        } else {
            m.loser_cap
        };
        if f[loser].morale_loss < m.loser_needs {
            limit = limit.min(m.loser_cap.saturating_sub(1));
        }
        let mut sp = [0; 2];
        sp[loser] = lost(loser, limit).max(1);
        sp[winner] = lost(winner, m.winner_cap);
        Verdict::Won { loser, sp }
    };
    let verdict = match f[0].morale_loss.cmp(&f[1].morale_loss) {
        std::cmp::Ordering::Equal => ongoing(),
        std::cmp::Ordering::Greater => won(0),
        std::cmp::Ordering::Less => won(1),
    };
    // CtB 11.2: a lone Battle Stand its losses eliminate loses the melee.
    let sp = match verdict {
        Verdict::Won { sp, .. } | Verdict::Ongoing { sp } => sp,
    };
    let doomed: Vec<usize> = (0..2)
        .filter(|&i| sp[i] >= f[i].sp && !f[i].supported)
        .collect();
    match (verdict, doomed.as_slice()) {
        (Verdict::Won { loser, .. }, [i]) if *i != loser => won(*i),
        (Verdict::Ongoing { .. }, [i]) => won(*i),
        _ => verdict,
    }
}

/// How many hexes a winning Battle Stand pursues on `die` (CtB 13.0, R-pursuit):
/// impetuous stands and cavalry by the cavalry bands (1 none, 2-3 1H, 4-5 2H, 6 3H),
/// other foot by the foot bands (4-6 1H), never for stands that do not pursue; never
/// farther than its normal move (`normal_move`, its first-move MP). Whether the stand
/// may pursue at all (a Battle Stand that won, impetuous or with a positive impact
/// factor, not foot after cavalry: CtB 13.0) is the caller's to decide.
pub fn pursuit_distance(
    dice: &PursuitDice,
    kind: PursuitKind,
    impetuous: bool,
    die: u8,
    normal_move: u32,
) -> u32 {
    let bands: &[PursuitBand] = match (kind, impetuous) {
        (PursuitKind::Never, _) => return 0,
        (PursuitKind::Cavalry, _) | (_, true) => &dice.cavalry,
        (PursuitKind::Foot, false) => &dice.foot,
    };
    bands
        .iter()
        .find(|b| (b.faces.0..=b.faces.1).contains(&die))
        .map_or(0, |b| b.hexes)
        .min(normal_move)
}

/// Whether the winning Battle Stand pursues (CtB 13.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pursuit {
    /// Impetuous stands must try: the die decides how far.
    Must,
    /// A stand with a positive impact factor may choose to try.
    May,
    /// It does not pursue.
    Never,
}

/// Whether `winner` (its type, list entry and current impact factor) pursues the
/// beaten `loser` (its type) (CtB 13.0): never a type that does not pursue, never foot
/// after cavalry (nor into MC or HC, which the caller checks along the path); an
/// impetuous stand must, whatever its impact; another may with a positive impact
/// factor. Only the Battle Stand pursues, never a support: the caller's.
pub fn pursuit(winner: &TypeSpec, winner_impetuous: bool, impact: u8, loser: &TypeSpec) -> Pursuit {
    // Only Combat Stands pursue (CtB 13.0): light cavalry, shot, skirmishers and guns
    // never do.
    if winner.role == super::data::Role::Support
        || winner.pursuit == PursuitKind::Never
        || (!winner.mounted && loser.mounted)
    {
        return Pursuit::Never;
    }
    if winner_impetuous {
        Pursuit::Must
    } else if impact > 0 {
        Pursuit::May
    } else {
        Pursuit::Never
    }
}
