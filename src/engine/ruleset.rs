//! What the engine asks of a ruleset: its tables and options, the checks of a scenario,
//! filling a world, checking and executing commands, the legal commands autoplay picks
//! from, and what a player interface shows. The engine names no ruleset: the build's
//! registry (`rulesets::REGISTRY`) hands it the one a scenario names.

use std::path::Path;
use std::sync::Arc;

use bevy::ecs::system::{InRef, SystemId};
use bevy::prelude::*;
use rand_chacha::ChaCha8Rng;

use super::command::{Command, Refusal, VerbSpec};
use super::error::LocatedError;
use super::hex::HexCoord;
use super::scenario::{LoadedScenario, ScenarioRules};
use super::view::{
    AttackPreview, CardLine, CounterFace, Decision, MoveOption, PlayerAids, SideMorale,
};

pub trait Ruleset: Send + Sync + 'static {
    /// The id scenarios name in `ruleset:`.
    fn id(&self) -> &'static str;
    /// The name players know, e.g. "A la Charge".
    fn name(&self) -> &'static str;
    /// The text of every table this ruleset read, hashed into saves.
    fn table_texts(&self) -> Vec<&str>;
    /// The terrain names of its terrain table, in id order.
    fn terrain_names(&self) -> Vec<String>;
    /// The optional rules a scenario or the command line may switch on.
    fn options(&self) -> &'static [&'static str];
    /// The verbs this ruleset adds to the script grammar (`march`, `assign`, ...).
    fn verbs(&self) -> &'static [VerbSpec] {
        &[]
    }
    /// Reads the ruleset's own fields and special rules of a scenario
    /// (`LoadedScenario::read_fields`) and checks every part of it that depends on this
    /// ruleset. What it returns is kept as `scenario.rules` for `populate`.
    fn read_scenario(&self, scenario: &LoadedScenario) -> Result<ScenarioRules, LocatedError>;
    /// What the ruleset reads of side `side` of a scenario, in words (`bataille check`):
    /// its army morale level, its map edge and corps, ...
    fn side_summary(&self, _scenario: &LoadedScenario, _side: usize) -> String {
        String::new()
    }
    /// Adds to a world what every game of this ruleset has, whatever its scenario: its
    /// tables, its zone shape, its phase schedules and its command system
    /// (`CommandSystem`). Done once per world (again, it does nothing); the ruleset's
    /// `Plugin` does the same to an `App`'s world.
    fn register(&self, world: &mut World);
    /// Adds this ruleset's components and resources for a scenario to a world the
    /// engine has filled, and enters the first phase.
    fn populate(&self, world: &mut World, scenario: &LoadedScenario);
    /// A random legal command for the side to act (autoplay, fuzzing).
    fn random_command(&self, world: &mut World, rng: &mut ChaCha8Rng) -> Command;
    /// What the rules wait for from a player, when a decision is pending: who, what, the
    /// rule, and every answer to type (the command line's "Waiting for:").
    fn pending_decision(&self, world: &World) -> Option<String> {
        let d = self.decision(world)?;
        let sides = &world.resource::<super::game::ScenarioInfo>().0.file.sides;
        let side = sides.get(d.side.0 as usize).map_or("", |s| s.name.as_str());
        Some(d.instructions(side))
    }
    /// The ruleset's own state for `--state` (a corps' action points, ...), as JSON.
    fn state_json(&self, _world: &World) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// The ruleset's state flags of a unit, for `--state` and the info panel.
    fn unit_flags(&self, world: &World, entity: Entity) -> Vec<String>;

    // What a player interface shows; see `view`. Each reads the same functions that
    // check and resolve commands.

    /// Checks a command without executing it: the refusal `submit` would give.
    fn check(&self, world: &World, command: &Command) -> Result<(), Refusal>;
    /// What the counter of a unit shows.
    fn counter_face(&self, world: &World, entity: Entity) -> CounterFace;
    /// Every factor and state of a unit, for its info panel.
    fn unit_card(&self, world: &World, entity: Entity) -> Vec<CardLine>;
    /// Where a unit may move now, or why it may not move at all.
    fn move_options(&self, world: &World, entity: Entity) -> Result<Vec<MoveOption>, Refusal>;
    /// The hexes a selected unit reaches by some rule other than movement, outlined on
    /// the map: a leader's command radius, a battery's range with a line of fire. None
    /// by default.
    fn unit_area(&self, _world: &World, _entity: Entity) -> Vec<super::hex::HexCoord> {
        Vec::new()
    }
    /// A unit spread over several hexes, drawn as one body of stands; `None` (the
    /// default) for a unit on one hex, drawn as a counter.
    fn unit_body(&self, _world: &World, _entity: Entity) -> Option<super::view::UnitBody> {
        None
    }
    /// The unit with a stand on `hex` that is not placed there (a multi-hex unit's other
    /// stands), so that a click on any stand picks its unit. None by default.
    fn stand_owner(
        &self,
        _world: &World,
        _hex: super::hex::HexCoord,
    ) -> Option<super::units::UnitId> {
        None
    }
    /// Where a group led by its first unit may move together (the hex is the leader's).
    fn group_move_options(
        &self,
        _world: &World,
        _units: &[super::units::UnitId],
    ) -> Result<Vec<MoveOption>, Refusal> {
        Err(Refusal::new(
            "moves",
            format!("{} moves units one at a time", self.name()),
        ))
    }
    /// The groups of `side`'s units that could march together now (`group_move_options`
    /// of each), for the computer opponent's candidates, largest first. None by
    /// default: a ruleset without groups moves units one at a time.
    fn groups(
        &self,
        _world: &World,
        _side: super::units::SideId,
    ) -> Vec<Vec<super::units::UnitId>> {
        Vec::new()
    }
    /// At most `limit` moves of `side`'s units that set up a blow the ruleset's
    /// fights reward (a flank position), for the computer opponent's candidates, best
    /// first: positions random draws seldom reach. None by default.
    fn striking_moves(
        &self,
        _world: &World,
        _side: super::units::SideId,
        _limit: usize,
    ) -> Vec<super::command::Command> {
        Vec::new()
    }
    /// Orders a unit can be given now besides moving and attacking (keep in control,
    /// dismount, ...), each a legal command with its label.
    fn unit_actions(&self, _world: &World, _entity: Entity) -> Vec<super::view::Choice> {
        Vec::new()
    }
    /// Hexes a scenario's special rules mark on the map (a ditch, an objective), with
    /// what, and the side each belongs to now.
    fn marked_hexes(&self, _world: &World) -> Vec<super::view::MarkedHex> {
        Vec::new()
    }
    /// Where the victory conditions stand if the game ended now, for the top bar
    /// (victory points and the level they give); `None` where the morale shown beside
    /// it says it all.
    fn standing(&self, _world: &World) -> Option<super::view::Standing> {
        None
    }
    /// Lines of ruleset state a player keeps in view (action points per corps, ...).
    fn status_lines(&self, _world: &World) -> Vec<String> {
        Vec::new()
    }
    /// The attack command the units in `attackers` make on `target`.
    fn attack_command(&self, world: &World, attackers: &[HexCoord], target: HexCoord) -> Command;
    /// The odds, modifiers and result chances of an attack, or why it is illegal.
    fn attack_preview(&self, world: &World, command: &Command) -> Result<AttackPreview, Refusal>;
    /// The decision the rules wait for, with every legal answer.
    fn decision(&self, world: &World) -> Option<Decision>;
    /// Each side's lost morale against its level.
    fn morale(&self, world: &World) -> Vec<SideMorale>;

    /// The player aids the window shows beside the map: the sequence of play with the
    /// step the game is in, and every table a player consults (results, terrain, unit
    /// values, ...), each with its rule, read from the tables the rules themselves use.
    fn player_aids(&self, world: &World) -> PlayerAids;

    /// What must hold after every command (stacking, steps in range, ...): each
    /// violation in words with its rule. Empty when all is well. The trust harness
    /// checks it after every command of its random games.
    fn invariant_violations(&self, world: &World) -> Vec<String>;
    /// The colour of a side's counters (sRGB): by default the first side red and the
    /// second blue; a ruleset whose sides have colours of their own (Morne Plaine's
    /// orange and blue) gives them.
    fn side_colour(&self, _world: &World, side: super::units::SideId) -> [u8; 3] {
        if side.0 == 0 {
            [184, 46, 38]
        } else {
            [46, 77, 173]
        }
    }
    /// Whether a unit may attack, and be attacked, at most once a phase.
    fn attacks_once_per_phase(&self) -> bool {
        true
    }
    /// The line of sight (of fire) from `from` to `to` under the ruleset's own rule,
    /// with what blocks at each hex: the window's line-of-sight tool. `None` for a
    /// ruleset without one.
    fn sight(
        &self,
        _world: &World,
        _from: super::hex::HexCoord,
        _to: super::hex::HexCoord,
    ) -> Option<super::hex::SightLine> {
        None
    }

    /// Where a unit could attack in its side's next phase, for the threat map
    /// (`threat::ThreatMap`): each hex it could attack a unit on, after the move its
    /// next phase allows it (the ruleset's own movement, zones of control and facing),
    /// with the best odds or dice it would attack a unit standing there now with, or
    /// its own strength where the hex is empty. Read from the functions that check and
    /// resolve its moves and attacks, as if its side's phase had begun; empty for a
    /// unit that could not attack.
    fn threats(
        &self,
        _world: &World,
        _unit: super::units::UnitId,
    ) -> Vec<super::threat::UnitThreat> {
        Vec::new()
    }

    /// How good the position is for `side`, from 0 (lost) to 1 (won): what the
    /// computer opponent scores its playouts with. By default read from the ruleset's
    /// own reports: the outcome and its victory level, `morale` (lost against each
    /// side's level) and `standing` (victory points) (`evaluation::position_value`).
    fn evaluate(&self, world: &World, side: super::units::SideId) -> f64 {
        super::evaluation::position_value(
            world,
            &self.morale(world),
            self.standing(world).as_ref(),
            side,
        )
    }

    /// How much the computer opponent's playouts weigh keeping `side`'s units
    /// together (`evaluation::cohesion`), from 0 to 1, as the candidate leaves them:
    /// for a ruleset whose fights reward a line and its supports more than its
    /// playouts of random play can show. None unless the ruleset says.
    fn cohesion_weight(&self, _world: &World, _side: super::units::SideId) -> f64 {
        0.0
    }

    /// How many times the computer opponent's playouts draw again a random command
    /// that ends the phase, for its own side when that side must attack (the
    /// scenario names the other the winner at the time limit): so that its random play
    /// makes more of its moves before it ends a phase, and the playouts reach the fight
    /// within their horizon. The other side's, and the side that need only last, play
    /// as random play does. None unless the ruleset says.
    fn attacker_end_redraws(&self) -> usize {
        0
    }

    /// The ground a unit crosses, for the computer opponent's nearness term
    /// (`evaluation::contact_balance`): units of one class cross the same ground
    /// (`crosses`). One class for all unless the ruleset says.
    fn ground_class(&self, _world: &World, _unit: Entity) -> u8 {
        0
    }

    /// Whether a unit of ground `class` may ever step from `from` into the next hex
    /// `to` (ground it never enters, a hexside it never crosses), whatever its
    /// movement points: the nearness term counts the hexes to the enemy along the
    /// ground, not across a river. Everywhere on the map unless the ruleset says.
    fn crosses(
        &self,
        _world: &World,
        _class: u8,
        _from: super::hex::HexCoord,
        _to: super::hex::HexCoord,
    ) -> bool {
        true
    }

    /// Draws again, at random, everything `observer` cannot see (hidden units' hexes,
    /// secret choices), among what the rules allow and what `observer` knows: the
    /// computer opponent decides on worlds drawn so, and never on the true one. A
    /// ruleset with no secrets leaves the world as it is.
    fn resample_hidden(
        &self,
        _world: &mut World,
        _observer: super::units::SideId,
        _rng: &mut ChaCha8Rng,
    ) {
    }

    /// Whether anything is hidden from one player now, so that the seat changes hands
    /// behind a screen each time the other side must act. By default: during a set-up
    /// (a `Place` phase, where each side places in secret), or while some unit is
    /// `Hidden` (an ambush). A ruleset with secrets of its own (orders chosen in
    /// secret and revealed together) says when.
    fn hidden_information(&self, world: &World) -> bool {
        let units = world.resource::<super::units::Units>();
        world.resource::<super::game::TurnState>().phase.kind == super::phase::PhaseKind::Place
            || units.ids().any(|id| {
                world
                    .get::<super::units::Hidden>(units.entity(id))
                    .is_some()
            })
    }
}

/// The ruleset a game is played with.
#[derive(Resource, Clone)]
pub struct ActiveRuleset(pub Arc<dyn Ruleset>);

/// The system a ruleset registers to check a command against its rules and, when legal,
/// execute it (a refused command changes nothing, not even the dice). `submit` runs it.
#[derive(Resource, Clone, Copy)]
pub struct CommandSystem(pub SystemId<InRef<'static, Command>, Result<(), Refusal>>);

/// One ruleset this build enforces: the id scenarios name, and how to load it with
/// its tables for a scenario (from `rulesets/<id>/` beside or above it when present).
#[derive(Clone, Copy)]
pub struct RulesetEntry {
    pub id: &'static str,
    /// The verbs it adds to the one script grammar.
    pub verbs: &'static [VerbSpec],
    pub load: fn(&Path) -> Result<Arc<dyn Ruleset>, LocatedError>,
}

/// Loads the ruleset `id` from a registry, for the scenario at `scenario_path`.
pub fn load_ruleset(
    registry: &[RulesetEntry],
    id: &str,
    scenario_path: &Path,
) -> Result<Arc<dyn Ruleset>, String> {
    match registry.iter().find(|r| r.id == id) {
        Some(entry) => (entry.load)(scenario_path).map_err(|e| e.to_string()),
        None => Err(format!(
            "unknown ruleset `{id}` (this build enforces: {})",
            registry.iter().map(|r| r.id).collect::<Vec<_>>().join(", ")
        )),
    }
}
