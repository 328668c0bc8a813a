//! Phase systems tested headless: a game's world is built with its ruleset, a phase is
//! entered, and what that phase's systems did is asserted; and every rules schedule runs
//! on the single-threaded executor.

use bataille::engine::dice::Dice;
use bataille::engine::event::EventKind;
use bataille::engine::game::{Game, TurnState};
use bataille::engine::phase::{
    OnEnterPhase, OnExitPhase, PhaseKind, RulesetPhase, change_phase, on_enter, on_exit,
    rules_schedule,
};
use bataille::engine::units::{Placement, SideId, Units};
use bataille::rulesets::a_la_charge::{AlcFlags, AlcPhase, AlcState, AlcUnit};
use bataille::rulesets::champs_de_bataille::{CdbPhase, CdbState};
use bevy::ecs::schedule::{InternedScheduleLabel, ScheduleLabel, Schedules};
use bevy::prelude::*;

use crate::common::*;

/// AlC 6 and Kalavryai special rule 2: entering the Turkish movement phase of turn 3
/// gives the Turks their movement allowances back, announces the phase, then rolls the
/// treason die, in that order, with nothing else.
#[test]
fn alc_6_entering_the_movement_phase_resets_allowances_announces_it_then_rolls_the_treason() {
    let mut g = kalavryai(5);
    let world = &mut g.world;
    let defection = world
        .resource::<AlcState>()
        .defection
        .clone()
        .expect("Kalavryai has its treason rule");
    let side = defection.roll_side;
    {
        let mut t = world.resource_mut::<TurnState>();
        t.turn = 3;
        t.active = side;
    }
    // Spend every allowance, so that the reset shows.
    let mut q = world.query::<(&SideId, &mut AlcFlags)>();
    for (s, mut f) in q.iter_mut(world) {
        if *s == side {
            f.mp_left = 0;
            f.moved = true;
        }
    }
    let events = world
        .resource::<bataille::engine::event::GameLog>()
        .events
        .len();
    let dice = world.resource::<Dice>().rolled();
    change_phase(world, AlcPhase::Movement);

    assert_eq!(
        AlcPhase::current(world),
        Some(AlcPhase::Movement),
        "the ruleset keeps its own phase"
    );
    let t = world.resource::<TurnState>();
    assert_eq!((t.phase.label, t.phase.rule), ("movement", "AlC 6"));
    assert_eq!(t.phase.kind, PhaseKind::Move);
    let mut q = world.query::<(&SideId, &AlcFlags, &AlcUnit, &Placement)>();
    for (s, f, u, p) in q.iter(world) {
        if *s == side && *p != Placement::Eliminated {
            assert_eq!((f.mp_left, f.moved), (u.mp, false), "AlC 9 allowance");
        }
    }
    let new: Vec<_> =
        world.resource::<bataille::engine::event::GameLog>().events[events..].to_vec();
    assert_eq!(new[0].kind, EventKind::PhaseStarted, "{new:?}");
    assert!(new[0].text.starts_with("Turn 3: "), "{new:?}");
    assert_eq!(new[1].kind, EventKind::DieRolled, "{new:?}");
    assert_eq!(new[1].rule, "AlC Kalavryai special rule 2");
    assert_eq!(
        world.resource::<Dice>().rolled(),
        dice + 1,
        "one die: the treason"
    );
}

/// AlC 6: entering the other side's combat phase clears what was attacked, so that
/// each unit attacks and is attacked once a phase (AlC 12.1).
#[test]
fn alc_6_entering_the_combat_phase_clears_the_attack_flags() {
    let mut g = civitate(1);
    let world = &mut g.world;
    let mut q = world.query::<&mut AlcFlags>();
    for mut f in q.iter_mut(world) {
        f.attacked = true;
        f.was_attacked = true;
    }
    change_phase(world, AlcPhase::Combat);
    let mut q = world.query::<&AlcFlags>();
    assert!(q.iter(world).all(|f| !f.attacked && !f.was_attacked));
    assert_eq!(world.resource::<TurnState>().phase.kind, PhaseKind::Fight);
}

/// CdB 3 and 4.1: entering the action-point step of a sequence announces it and
/// throws a die for each corps of the side to act, each logged with CdB 4.1.
#[test]
fn cdb_3_entering_the_action_point_step_throws_a_die_per_corps() {
    let path = root().join("scenarios/champs_de_bataille/soissons_486.ron");
    let mut g = Game::start(&path, 3, &["scenario_deployment".to_string()]).unwrap();
    let world = &mut g.world;
    let side = world.resource::<CdbState>().sequence;
    let corps = world
        .resource::<CdbState>()
        .corps
        .iter()
        .filter(|c| c.side == side)
        .count();
    let events = world
        .resource::<bataille::engine::event::GameLog>()
        .events
        .len();
    world.resource_mut::<TurnState>().active = side;
    change_phase(world, CdbPhase::Command);
    let new: Vec<_> =
        world.resource::<bataille::engine::event::GameLog>().events[events..].to_vec();
    assert!(
        new[0].text.ends_with(" sequence: action points") && new[0].rule == "CdB 3",
        "{new:?}"
    );
    let dice = new
        .iter()
        .filter(|e| e.kind == EventKind::DieRolled && e.rule == "CdB 4.1")
        .count();
    assert_eq!(dice, corps, "one die per corps of the side to act: {new:?}");
    let st = world.resource::<CdbState>();
    assert!(
        st.corps
            .iter()
            .filter(|c| c.side == side)
            .all(|c| c.die.is_some() || !st.unassigned.is_empty()),
        "each corps has its die, or the regular generals' dice wait to be assigned"
    );
}

/// CdB 3: each step of the sequence shows the window and the log its own name, rule
/// and what the player does in it.
#[test]
fn cdb_3_each_phase_has_its_own_name_rule_and_kind() {
    let views: Vec<_> = CdbPhase::ALL.iter().map(|p| p.view()).collect();
    assert_eq!(
        views
            .iter()
            .map(|v| (v.label, v.rule, v.kind))
            .collect::<Vec<_>>(),
        vec![
            ("set-up", "CdB 14.3", PhaseKind::Place),
            ("action points", "CdB 4.1", PhaseKind::Decide),
            ("movement", "CdB 9", PhaseKind::Move),
            ("missile combat", "CdB 10", PhaseKind::Fire),
            ("melee", "CdB 11", PhaseKind::Fight),
        ]
    );
}

#[derive(Resource, Default)]
struct ThreadProbe(Vec<std::thread::ThreadId>);

fn probe(mut seen: ResMut<ThreadProbe>) {
    seen.0.push(std::thread::current().id());
}

/// Every schedule a game's ruleset made runs its systems on the single-threaded
/// executor: a probe system added to each, run many times, always runs on the calling
/// thread (with the `gui` feature, Bevy's default executor is the multi-threaded one,
/// which runs such a system on its task pool's threads).
#[test]
fn every_rules_schedule_runs_on_the_single_threaded_executor() {
    fn labels<P: RulesetPhase>() -> Vec<InternedScheduleLabel> {
        P::ALL
            .iter()
            .flat_map(|p| [OnEnterPhase(*p).intern(), OnExitPhase(*p).intern()])
            .collect()
    }
    /// The probe on entering and leaving every phase, added as a ruleset adds its
    /// phase systems (a schedule the engine knows empty is skipped).
    fn add_probes<P: RulesetPhase>(world: &mut World) {
        for &p in P::ALL {
            on_enter(world, p, probe);
            on_exit(world, p, probe);
        }
    }
    for (scenario, options, labels, probes) in [
        (
            civitate_path(),
            vec![],
            labels::<AlcPhase>(),
            add_probes::<AlcPhase> as fn(&mut World),
        ),
        (
            kalavryai_path(),
            vec![],
            labels::<AlcPhase>(),
            add_probes::<AlcPhase>,
        ),
        (
            root().join("scenarios/champs_de_bataille/daras_530.ron"),
            vec!["scenario_deployment".to_string()],
            labels::<CdbPhase>(),
            add_probes::<CdbPhase>,
        ),
    ] {
        let mut g = Game::start(&scenario, 1, &options).unwrap();
        let world = &mut g.world;
        world.init_resource::<ThreadProbe>();
        // The game's schedules are its ruleset's phase schedules, and only those.
        assert_eq!(
            world.resource::<Schedules>().iter().count(),
            labels.len(),
            "{}",
            scenario.display()
        );
        // A fresh schedule of the same kind, alone, then every schedule of the game
        // with the probe in it, each run several times.
        let mut alone = rules_schedule(ProbeSchedule);
        alone.add_systems(probe);
        for _ in 0..50 {
            alone.run(world);
        }
        probes(world);
        for label in labels {
            for _ in 0..20 {
                world.run_schedule(label);
            }
        }
        let me = std::thread::current().id();
        let seen = &world.resource::<ThreadProbe>().0;
        assert!(seen.len() > 50);
        assert!(
            seen.iter().all(|t| *t == me),
            "a rules system ran on another thread"
        );
        // The game is still whole: the unit index agrees with the placements.
        let units = world.resource::<Units>();
        assert!(units.ids().count() > 0);
    }
}

#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
struct ProbeSchedule;

/// A game is an `App` with the engine's plugin and one ruleset's plugin: the ruleset
/// plugin registers its phase schedules and its command system; a scenario then fills
/// the same world (registering again adds nothing) and commands sent as messages go
/// through the ruleset's command system.
#[test]
fn a_game_is_an_app_with_the_engine_plugin_and_one_ruleset_plugin() {
    use bataille::engine::command::Command;
    use bataille::engine::plugin::{CommandOutcome, EnginePlugin, SubmitCommand};
    use bataille::engine::ruleset::CommandSystem;
    use bataille::rulesets::a_la_charge::AlaChargePlugin;

    let path = civitate_path();
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        EnginePlugin,
        AlaChargePlugin::load(&path).unwrap(),
    ));
    let movement_systems = |app: &App| {
        app.world()
            .resource::<Schedules>()
            .get(OnEnterPhase(AlcPhase::Movement))
            .map(|s| s.systems_len())
    };
    assert!(app.world().contains_resource::<CommandSystem>());
    let before = movement_systems(&app);
    let (scenario, ruleset) = bataille::rulesets::load_scenario(&path).unwrap();
    let board = bataille::engine::game::build_ruleset_board(&*ruleset, &scenario);
    bataille::engine::game::init_world(app.world_mut(), scenario, ruleset, board, 7, &[]);
    assert_eq!(movement_systems(&app), before, "registered once");
    app.world_mut()
        .write_message(SubmitCommand(Command::EndPhase));
    app.update();
    let outcomes: Vec<CommandOutcome> = app
        .world_mut()
        .resource_mut::<Messages<CommandOutcome>>()
        .drain()
        .collect();
    assert_eq!(outcomes.len(), 1);
    assert!(outcomes[0].result.is_ok());
    assert_eq!(
        app.world().resource::<TurnState>().phase.label,
        "combat",
        "AlC 6: the Normans' combat phase follows their movement"
    );
}
