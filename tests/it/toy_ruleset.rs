//! A ruleset written in the test crate, against the engine's public API alone: its own
//! phases with their systems, a verb of its own in the script grammar, and a field of
//! its own in the scenario schema. That it builds and plays here is the proof that a
//! ruleset needs no change to `engine/` (issue 13, item 6).

use std::path::Path;
use std::sync::Arc;

use bataille::engine::command::{Command, ParseError, Refusal, RulesetCommand, VerbSpec, Words};
use bataille::engine::error::LocatedError;
use bataille::engine::event::EventKind;
use bataille::engine::game::{Game, ScenarioInfo, TurnState};
use bataille::engine::phase::{
    PhaseKind, PhaseView, RulesetPhase, change_phase, enter_phase, on_enter,
};
use bataille::engine::ruleset::{CommandSystem, Ruleset, RulesetEntry};
use bataille::engine::scenario::{LoadedScenario, NoSpecialRule, RulesetFields, ScenarioRules};
use bataille::engine::units::SideId;
use bataille::engine::view::{
    AttackPreview, CardLine, CounterFace, Decision, MoveOption, SideMorale,
};
use bataille::rulesets::common::log;
use bataille::{side_fields, unit_fields};
use bevy::ecs::system::InRef;
use bevy::prelude::*;
use rand_chacha::ChaCha8Rng;

side_fields! {
    /// The toy's own field of a side: what its army shouts.
    struct ToySide {
        #[serde(default)]
        war_cry: String,
    }
}

unit_fields! {
    struct ToyUnit {}
}

type ToyScenario = RulesetFields<ToySide, ToyUnit, NoSpecialRule>;

/// The toy's sequence of play: each side musters (shouts), then marches (ends).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum ToyPhase {
    Muster,
    March,
}

impl RulesetPhase for ToyPhase {
    const ALL: &'static [Self] = &[ToyPhase::Muster, ToyPhase::March];

    fn view(self) -> PhaseView {
        match self {
            ToyPhase::Muster => PhaseView {
                label: "muster",
                rule: "Toy 1",
                kind: PhaseKind::Decide,
            },
            ToyPhase::March => PhaseView {
                label: "march",
                rule: "Toy 2",
                kind: PhaseKind::Move,
            },
        }
    }

    fn current(world: &World) -> Option<Self> {
        world.get_resource::<ToyState>().map(|s| s.phase)
    }

    fn set_current(world: &mut World, phase: Self) {
        world.resource_mut::<ToyState>().phase = phase;
    }
}

#[derive(Resource)]
struct ToyState {
    phase: ToyPhase,
    /// How many musters have begun: the entry system of `Muster` counts them.
    musters: u32,
}

/// The toy's verb: `shout`, which the engine's grammar does not have.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Shout;

impl std::fmt::Display for Shout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("shout")
    }
}

fn parse_shout(w: &Words) -> Result<Command, ParseError> {
    w.at_most(0, "no word")?;
    Ok(Command::Ruleset(RulesetCommand::new(Shout)))
}

const TOY_VERBS: &[VerbSpec] = &[VerbSpec {
    verbs: &["shout"],
    parse: parse_shout,
}];

/// Entering a muster: counted, and announced with the side that musters.
fn muster_begins(world: &mut World) {
    world.resource_mut::<ToyState>().musters += 1;
    let side = world.resource::<TurnState>().active;
    log(world, EventKind::PhaseStarted, "Toy 1", |w| {
        format!(
            "{} musters",
            w.resource::<ScenarioInfo>().0.file.sides[side.0 as usize].name
        )
    });
}

fn check(world: &World, command: &Command) -> Result<ToyPhase, Refusal> {
    let phase = world.resource::<ToyState>().phase;
    match (phase, command) {
        (ToyPhase::Muster, Command::Ruleset(r)) if r.get::<Shout>().is_some() => {
            Ok(ToyPhase::March)
        }
        (ToyPhase::March, Command::EndPhase) => Ok(ToyPhase::Muster),
        (ToyPhase::Muster, _) => Err(Refusal::new("Toy 1", "a muster ends with `shout`")),
        (ToyPhase::March, _) => Err(Refusal::new("Toy 2", "a march ends with `end`")),
    }
}

fn submit_toy(InRef(command): InRef<Command>, world: &mut World) -> Result<(), Refusal> {
    let next = check(world, command)?;
    let side = world.resource::<TurnState>().active;
    if next == ToyPhase::March {
        let cry = world
            .resource::<ScenarioInfo>()
            .0
            .rules::<ToyScenario>()
            .sides[side.0 as usize]
            .war_cry
            .clone();
        log(world, EventKind::Special, "Toy 1", |_| cry);
    } else {
        world.resource_mut::<TurnState>().active = side.other();
    }
    change_phase(world, next);
    Ok(())
}

struct ToyRuleset;

impl Ruleset for ToyRuleset {
    fn id(&self) -> &'static str {
        "toy"
    }
    fn name(&self) -> &'static str {
        "Toy"
    }
    fn table_texts(&self) -> Vec<&str> {
        Vec::new()
    }
    fn terrain_names(&self) -> Vec<String> {
        vec!["clear".into()]
    }
    fn options(&self) -> &'static [&'static str] {
        &[]
    }
    fn verbs(&self) -> &'static [VerbSpec] {
        TOY_VERBS
    }
    fn read_scenario(&self, scenario: &LoadedScenario) -> Result<ScenarioRules, LocatedError> {
        let own: ToyScenario = scenario.read_fields()?;
        if let Some(i) = own.sides.iter().position(|s| s.war_cry.is_empty()) {
            return Err(scenario.field_error(
                "id",
                Some(&scenario.file.sides[i].id),
                0,
                "a side of the toy needs a `war_cry` (Toy 1)",
            ));
        }
        Ok(ScenarioRules(Arc::new(own)))
    }
    fn register(&self, world: &mut World) {
        if world.contains_resource::<CommandSystem>() {
            return;
        }
        on_enter(world, ToyPhase::Muster, muster_begins);
        let submit = world.register_system(submit_toy);
        world.insert_resource(CommandSystem(submit));
    }
    fn populate(&self, world: &mut World, _scenario: &LoadedScenario) {
        world.insert_resource(ToyState {
            phase: ToyPhase::Muster,
            musters: 0,
        });
        enter_phase(world, ToyPhase::Muster);
    }
    fn random_command(&self, world: &mut World, _rng: &mut ChaCha8Rng) -> Command {
        match world.resource::<ToyState>().phase {
            ToyPhase::Muster => Command::Ruleset(RulesetCommand::new(Shout)),
            ToyPhase::March => Command::EndPhase,
        }
    }
    fn pending_decision(&self, _world: &World) -> Option<String> {
        None
    }
    fn unit_flags(&self, _world: &World, _entity: Entity) -> Vec<String> {
        Vec::new()
    }
    fn check(&self, world: &World, command: &Command) -> Result<(), Refusal> {
        check(world, command).map(|_| ())
    }
    fn counter_face(&self, _world: &World, _entity: Entity) -> CounterFace {
        CounterFace {
            symbol: "B".into(),
            values: String::new(),
            reduced: false,
            facing: None,
            rank: 0,
            troop: "B".into(),
        }
    }
    fn unit_card(&self, _world: &World, _entity: Entity) -> Vec<CardLine> {
        Vec::new()
    }
    fn move_options(&self, _world: &World, _entity: Entity) -> Result<Vec<MoveOption>, Refusal> {
        Err(Refusal::new("Toy 2", "bands do not move"))
    }
    fn attack_command(
        &self,
        _world: &World,
        _attackers: &[bataille::engine::hex::HexCoord],
        _target: bataille::engine::hex::HexCoord,
    ) -> Command {
        Command::EndPhase
    }
    fn attack_preview(&self, _world: &World, _command: &Command) -> Result<AttackPreview, Refusal> {
        Err(Refusal::new("Toy 2", "bands do not fight"))
    }
    fn decision(&self, _world: &World) -> Option<Decision> {
        None
    }
    fn morale(&self, _world: &World) -> Vec<SideMorale> {
        Vec::new()
    }
    fn invariant_violations(&self, _world: &World) -> Vec<String> {
        Vec::new()
    }
    /// The toy has no tables and one phase: no aids to show.
    fn player_aids(&self, _world: &World) -> bataille::engine::view::PlayerAids {
        bataille::engine::view::PlayerAids::default()
    }
    /// The toy musters in secret: the other player looks away until the war cry.
    fn hidden_information(&self, world: &World) -> bool {
        world.resource::<ToyState>().phase == ToyPhase::Muster
    }
}

const TOY_REGISTRY: &[RulesetEntry] = &[RulesetEntry {
    id: "toy",
    verbs: TOY_VERBS,
    load: |_| Ok(Arc::new(ToyRuleset) as Arc<dyn Ruleset>),
}];

const TOY_SCENARIO: &str = "tests/fixtures/toy/muster.ron";

fn toy_game() -> Game {
    Game::start_with(TOY_REGISTRY, Path::new(TOY_SCENARIO), 1, &[]).expect("the toy scenario loads")
}

#[test]
fn a_ruleset_outside_the_crate_plays_its_own_phases_verb_and_scenario_field() {
    let mut g = toy_game();
    assert_eq!(g.turn().phase.label, "muster");
    assert_eq!(g.turn().phase.rule, "Toy 1");
    assert_eq!(
        g.world.resource::<ToyState>().musters,
        1,
        "entering the first muster ran its system"
    );
    assert_eq!(
        g.events_of(EventKind::PhaseStarted),
        vec!["Blue musters (Toy 1)".to_string()]
    );

    // Its verb is in the grammar of its games, and nowhere else.
    let shout = g.parse_line("shout").expect("parses").expect("a command");
    assert_eq!(shout.to_string(), "shout");
    assert!(
        bataille::rulesets::parse_line("shout").is_err(),
        "this build's grammar has no `shout`"
    );
    let refusal = g
        .submit(&Command::EndPhase)
        .expect_err("a muster ends with a shout");
    assert_eq!(refusal.rule, "Toy 1");

    g.submit(&shout).expect("shout in a muster");
    assert_eq!(g.turn().phase.label, "march");
    assert_eq!(g.turn().phase.kind, PhaseKind::Move);
    let said = g.events_of(EventKind::Special);
    assert_eq!(
        said,
        vec!["Forward, Blue! (Toy 1)".to_string()],
        "the war cry is the scenario's field"
    );

    g.submit_line("end").expect("end the march");
    assert_eq!(g.turn().active, SideId(1));
    assert_eq!(g.world.resource::<ToyState>().musters, 2);
    assert_eq!(
        g.events_of(EventKind::PhaseStarted)
            .last()
            .map(String::as_str),
        Some("Red musters (Toy 1)")
    );
    g.submit_line("shout").expect("Red shouts");
    assert!(
        g.events_of(EventKind::Special)
            .contains(&"Hold, Red! (Toy 1)".to_string())
    );

    // A save replays through the same registry to the same game.
    let text = g.save_text();
    let replayed =
        Game::load_save_text_with(TOY_REGISTRY, Path::new("toy.sav"), text).expect("replays");
    assert_eq!(replayed.turn().phase.label, "march");
    assert_eq!(
        replayed.events_of(EventKind::Special),
        g.events_of(EventKind::Special)
    );
}

#[test]
fn the_toy_refuses_a_field_it_does_not_add_to_the_schema_at_its_place() {
    let text = std::fs::read_to_string(TOY_SCENARIO)
        .expect("fixture")
        .replace(
            "war_cry: \"Hold, Red!\"",
            "war_cry: \"Hold, Red!\", morale_level: 3",
        );
    let e = bataille::engine::game::load_scenario_text(TOY_REGISTRY, Path::new(TOY_SCENARIO), text)
        .err()
        .expect("refused");
    assert_eq!(e.line, 11, "{e}");
    assert!(e.message.contains("`morale_level` in `ToySide`"), "{e}");
    let missing = std::fs::read_to_string(TOY_SCENARIO)
        .expect("fixture")
        .replace(", war_cry: \"Hold, Red!\"", "");
    let e =
        bataille::engine::game::load_scenario_text(TOY_REGISTRY, Path::new(TOY_SCENARIO), missing)
            .err()
            .expect("refused");
    assert!(e.message.contains("needs a `war_cry` (Toy 1)"), "{e}");
    assert_eq!(e.line, 11, "{e}");
}

/// Whether the seat changes hands behind a screen is the ruleset's to say: the toy's
/// secret muster, with no unit hidden and no set-up phase, hides; its march does not.
/// The rulesets that keep the default hide in a set-up and while a unit is hidden.
#[test]
fn a_ruleset_says_when_something_is_hidden_from_one_player() {
    let mut g = toy_game();
    // A muster is a `Decide` phase with no unit hidden: the default would hide
    // nothing.
    assert_eq!(g.turn().phase.kind, PhaseKind::Decide);
    assert!(g.ruleset.hidden_information(&g.world), "a secret muster");
    g.submit_line("shout").expect("shout in a muster");
    assert_eq!(g.turn().phase.kind, PhaseKind::Move);
    assert!(!g.ruleset.hidden_information(&g.world), "the march is seen");
    // The default: Civitate hides nothing; Kalavryai hides its ambush once placed.
    let civitate = crate::common::civitate(1);
    assert!(!civitate.ruleset.hidden_information(&civitate.world));
    let kalavryai = crate::common::kalavryai(7);
    assert!(kalavryai.ruleset.hidden_information(&kalavryai.world));
}
