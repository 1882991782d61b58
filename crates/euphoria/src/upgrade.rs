//! Old records and states, brought up to today's format once, at load, so that the rules
//! hold no branches for them.
//!
//! Euphoria's formats:
//! - 1: every record and state written before format 2 (a file that names no format is
//!   format 1). Those written before issue 16 differ from today's: their configs name no
//!   `trading` (the rule of the time was one offer a turn of at most 4 items) and made
//!   their players' decisions the old way (`legacy_actions`: a payment only one set of
//!   goods can make paid good by good, a new-worker offer answered by a bare `use KEY`),
//!   their offers were written `offer 1` (seat counted from 0), and their state files
//!   name variants in CamelCase (`"Reserve"`, `{"TradeBuild": ..}`) and a recruit's
//!   trigger as a bare number. Today's format-1 configs write `legacy_actions: false`.
//! - 2: today's. No `legacy_actions`; a config that names no `trading` plays the rulebook's.
//!
//! The step from 1 to 2:
//! - the config: a config written in full before issue 16 (its six options, no `trading`,
//!   no `offers_per_turn`) gets `trading: one_offer_before_placing`, the rule it was
//!   played under (still a variant players may choose); `legacy_actions` goes;
//! - a record's actions: `offer N` becomes `offer pN+1`; a record whose config asked for
//!   the old decisions is replayed under today's rules from its seed, and each decision
//!   today's rules make by themselves is dropped (a recorded `pay` they refuse, since they
//!   made that payment; an `undo` taking back such a `pay` goes with it), a bare `use KEY`
//!   answering a new-worker offer becomes `use KEY-new`;
//! - a state: its config as a record's; CamelCase variant names become today's snake_case
//!   ones; a bare-number trigger of a pending ability becomes the typed trigger it meant.
//!
//! The records made then reach the same end after the step (tests/fixtures/*.end.json,
//! checked by tests/compat.rs).

use crate::action::Action;
use crate::cards::{Good, Recruit};
use crate::config::Config;
use crate::state::{Die, Euphoria, Trigger};
use engine::{AnyAction, Formats, GameRecord, GameRules, Move, Session, TableMove};
use serde_json::Value;

/// The format records and states are written in now ([`engine::Formats::FORMAT`]).
pub(crate) const FORMAT: u32 = 2;

/// The variant names state files held before issue 16 (each is today's name in
/// CamelCase): die places, dilemma states, star targets, boons, steps, factions, goods,
/// classes of goods and penalties.
const CAMEL_NAMES: &[&str] = &[
    "Reserve",
    "Ready",
    "Board",
    "Unresolved",
    "Rebelled",
    "Conformed",
    "Territory",
    "Market",
    "Good",
    "Morale",
    "LessKnowledge",
    "ChooseUp",
    "ChooseDown",
    "FinishSetup",
    "Pay",
    "PaySet",
    "Bump",
    "Benefit",
    "TunnelTake",
    "ChooseResource",
    "StarChoice",
    "Advance",
    "Markets",
    "MarketStars",
    "AfterPlacement",
    "Doubles",
    "Retrieve",
    "DilemmaPay",
    "DilemmaChoice",
    "DilemmaKeep",
    "Discard",
    "Lose",
    "TradePartner",
    "TradeBuild",
    "TradeAnswer",
    "EndTurn",
    "BumpRoll",
    "BumpHooks",
    "SpaceHooks",
    "Hook",
    "Ask",
    "Choose",
    "Shed",
    "RetrieveRoll",
    "Euphorian",
    "Subterran",
    "Wastelander",
    "Icarite",
    "Energy",
    "Water",
    "Food",
    "Bliss",
    "Gold",
    "Stone",
    "Clay",
    "Book",
    "Glasses",
    "Game",
    "Bear",
    "Balloon",
    "Bat",
    "AnyCommodity",
    "NonBlissCommodity",
    "AnyResource",
    "AnyArtifact",
    "NoNewWorkers",
    "NoSelfBump",
    "NoPair",
    "NoForeignBuiltMarket",
    "NoDoubles",
    "NoSharedConstruction",
    "NoAbilities",
    "CostlyRetrieval",
    "NoIcarus",
    "KnowledgePerStar",
    "NoTierBonus",
    "OneWorkerPerArea",
    "RollLoss",
];

/// Brings a record written in format `from` up to [`FORMAT`] (see the module docs).
/// Returns the index in the old record of each action kept.
pub(crate) fn upgrade_record(from: u32, record: &mut GameRecord) -> Result<Vec<usize>, String> {
    let kept_all = (0..record.actions.len()).collect();
    if from >= 2 {
        return Ok(kept_all);
    }
    let old_decisions = upgrade_config(&mut record.config);
    for action in &mut record.actions {
        if let Some(offer) = seat_offer(action) {
            *action = offer;
        }
    }
    if !old_decisions {
        return Ok(kept_all);
    }
    // The game as it was played: payments good by good, each `use` as today's rules
    // name it.
    record.config["legacy_actions"] = true.into();
    let (as_played, end) = replay_today(record, false)?;
    // Today's decisions, kept when they reach the very same position.
    let mut today = record.clone();
    today.config["legacy_actions"] = false.into();
    if let Ok((upgraded, same)) = replay_today(&today, true) {
        if same == end {
            record.config = today.config;
            record.actions = (upgraded.iter()).map(|(_, a)| a.clone()).collect();
            return Ok(upgraded.into_iter().map(|(i, _)| i).collect());
        }
    }
    record.actions = (as_played.iter()).map(|(_, a)| a.clone()).collect();
    Ok(as_played.into_iter().map(|(i, _)| i).collect())
}

/// Replays `record` under today's rules, rewriting each bare `use KEY` that answers a
/// new-worker offer to `use KEY-new` and, with `drop_pays`, dropping each `pay` today's
/// rules refuse because they made that payment themselves (and each `undo` of one). The
/// actions kept (with their index in `record`), and the position reached, config aside.
fn replay_today(
    record: &GameRecord,
    drop_pays: bool,
) -> Result<(Vec<(usize, String)>, Euphoria), String> {
    let config: Config = serde_json::from_value(record.config.clone())
        .map_err(|e| format!("its config does not read: {e}"))?;
    let game = Euphoria::new(&config, record.seed).map_err(|e| e.to_string())?;
    let mut session = Session::new(Box::new(game));
    let mut kept = Vec::with_capacity(record.actions.len());
    // For each game action still standing, whether it is kept: an `undo` of a dropped
    // one is dropped too.
    let mut played: Vec<bool> = Vec::new();
    for (index, text) in record.actions.iter().enumerate() {
        let fails = |e: &dyn std::fmt::Display| format!("action {index} (`{text}`): {e}");
        // The stored notation, read once.
        let mv = session.parse(text).map_err(|e| fails(&e))?;
        let table_move = matches!(mv, Move::Table(_));
        let undo = mv == Move::Table(TableMove::Undo);
        if undo && played.last() == Some(&false) {
            played.pop();
            continue;
        }
        let action = match session.play(&mv) {
            Ok(()) => text.clone(),
            Err(refused) => match mv.action().and_then(AnyAction::get::<Action>) {
                Some(Action::Pay(_)) if drop_pays => {
                    played.push(false);
                    continue;
                }
                Some(Action::Use(id)) => {
                    let new = Move::game(Action::UseNew(id));
                    session.play(&new).map_err(|_| fails(&refused))?;
                    new.to_string()
                }
                _ => return Err(fails(&refused)),
            },
        };
        if undo {
            played.pop();
        } else if !table_move {
            played.push(true);
        }
        kept.push((index, action));
    }
    let mut end = (session.state().as_any().downcast_ref::<Euphoria>())
        .cloned()
        .ok_or("the replay holds no game of Euphoria")?;
    end.config = Config::default();
    Ok((kept, end))
}

/// Brings a state written in format `from` up to [`FORMAT`] (see the module docs).
pub(crate) fn upgrade_state(from: u32, state: &mut Value) -> Result<(), String> {
    if from >= 2 {
        return Ok(());
    }
    rename_camel(state);
    if let Some(config) = state.get_mut("config") {
        upgrade_config(config);
    }
    let Some(stack) = state.get_mut("stack").and_then(Value::as_array_mut) else {
        return Ok(());
    };
    for step in stack {
        let Some(fields) = step.as_object_mut().and_then(|step| {
            let key = ["hook", "ask"]
                .into_iter()
                .find(|k| step.contains_key(*k))?;
            step.get_mut(key)?.as_object_mut()
        }) else {
            continue;
        };
        let Some(n) = fields.get("arg").and_then(Value::as_u64) else {
            continue;
        };
        let id: Recruit = match fields
            .get("id")
            .map(|id| serde_json::from_value(id.clone()))
        {
            Some(Ok(id)) => id,
            _ => continue,
        };
        let trigger = u8::try_from(n)
            .ok()
            .and_then(|n| typed(id, n))
            .ok_or_else(|| {
                format!(
                    "a pending ability of {} names {n}, which is no die or card",
                    id.name()
                )
            })?;
        fields.insert(
            "arg".into(),
            serde_json::to_value(trigger).map_err(|e| e.to_string())?,
        );
    }
    Ok(())
}

/// Brings a config's JSON up to format 2: the trading rule of its time for a config
/// written in full before issue 16, which also gets `legacy_actions: true` (the
/// decisions of its time; a record's step may take it back). Whether it asked for the
/// decisions of games made before issue 16 (it said so, or it was written then).
fn upgrade_config(config: &mut Value) -> bool {
    let Some(fields) = config.as_object_mut() else {
        return false;
    };
    let written_before_trading = !fields.contains_key("trading")
        && !fields.contains_key("offers_per_turn")
        && [
            "players",
            "edition",
            "knowledge_check",
            "tunnel_end_requires_faction",
            "doubles_cost_morale",
            "starting_recruit_discards",
        ]
        .iter()
        .all(|k| fields.contains_key(*k));
    if written_before_trading {
        fields.insert("trading".into(), "one_offer_before_placing".into());
    }
    match fields.get("legacy_actions") {
        Some(old) => old == &Value::Bool(true),
        None if written_before_trading => {
            fields.insert("legacy_actions".into(), true.into());
            true
        }
        None => false,
    }
}

/// `offer pN+1` for the old notation `offer N` (a seat counted from 0).
fn seat_offer(text: &str) -> Option<String> {
    let mut words = text.split_whitespace();
    let (head, seat, rest) = (words.next()?, words.next()?, words.next());
    if !head.eq_ignore_ascii_case("offer") || rest.is_some() {
        return None;
    }
    let seat: u8 = seat.parse().ok()?;
    Some(format!("offer p{}", u32::from(seat) + 1))
}

/// Today's snake_case names for the CamelCase ones of [`CAMEL_NAMES`], wherever they
/// stand: as a string (a unit variant) or as the one key of an object (a variant with
/// data).
fn rename_camel(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Some(new) = snake(s) {
                *s = new;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(rename_camel),
        Value::Object(fields) => {
            let renamed = (fields.len() == 1)
                .then(|| {
                    fields
                        .keys()
                        .next()
                        .and_then(|k| Some((k.clone(), snake(k)?)))
                })
                .flatten();
            if let Some((old, new)) = renamed {
                if let Some(inner) = fields.remove(&old) {
                    fields.insert(new, inner);
                }
            }
            fields.values_mut().for_each(rename_camel);
        }
        _ => {}
    }
}

/// `pay_set` for `PaySet`, when the name is one of [`CAMEL_NAMES`].
fn snake(name: &str) -> Option<String> {
    if !CAMEL_NAMES.contains(&name) {
        return None;
    }
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    Some(out)
}

/// The typed trigger a bare number `n` of recruit `id` meant: a die for Amanda and Julia,
/// a seat mask for Ray, a seat for Ben, an artifact index for the Gambler, 1 for
/// Sheppard's and Pete's new worker, 10 + the die for Chase's; nothing for the others
/// (nor for another number of those three).
/// `None` for a die or card that does not exist (never wrapped round).
fn typed(id: Recruit, n: u8) -> Option<Trigger> {
    let die = |n: u8| Die::new(usize::from(n));
    Some(match id {
        Recruit::Amanda | Recruit::Julia => Trigger::Die(die(n)?),
        Recruit::Ray => Trigger::Builders(n),
        Recruit::Ben => Trigger::Roller(n),
        Recruit::Gambler => Trigger::Drawn(*Good::ARTIFACT_KINDS.get(usize::from(n))?),
        Recruit::Sheppard | Recruit::Pete if n == 1 => Trigger::NewWorker(die(0)?),
        Recruit::Chase if n >= 10 => Trigger::NewWorker(die(n - 10)?),
        _ => Trigger::Plain,
    })
}

impl Formats for Euphoria {
    const FORMAT: u32 = FORMAT;
    fn upgrade_record(from: u32, record: &mut engine::GameRecord) -> Result<Vec<usize>, String> {
        upgrade_record(from, record)
    }
    fn upgrade_state(from: u32, state: &mut serde_json::Value) -> Result<(), String> {
        upgrade_state(from, state)
    }
    fn validate(&self) -> Result<(), Vec<String>> {
        engine::no_problems(self.problems())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_names_become_todays() {
        let mut v = serde_json::json!({
            "dice": [{"Board": [5, 3]}, "Reserve", {"Ready": 2}],
            "stack": [{"PaySet": {"first": "Glasses"}}, "RetrieveRoll"],
            "players": 3,
        });
        rename_camel(&mut v);
        assert_eq!(
            v,
            serde_json::json!({
                "dice": [{"board": [5, 3]}, "reserve", {"ready": 2}],
                "stack": [{"pay_set": {"first": "glasses"}}, "retrieve_roll"],
                "players": 3,
            })
        );
    }

    #[test]
    fn a_config_of_before_issue_16_keeps_its_trading_rule() {
        let mut old = serde_json::json!({
            "doubles_cost_morale": false, "edition": "v2", "knowledge_check": "continuous",
            "players": 3, "starting_recruit_discards": "return_to_deck",
            "tunnel_end_requires_faction": true
        });
        assert!(upgrade_config(&mut old));
        assert_eq!(old["trading"], "one_offer_before_placing");
        assert_eq!(old["legacy_actions"], true);
        let mut today = serde_json::to_value(Config::default()).expect("json");
        let before = today.clone();
        assert!(!upgrade_config(&mut today));
        assert_eq!(today, before);
        let mut partial = serde_json::json!({"players": 2});
        assert!(!upgrade_config(&mut partial));
        assert_eq!(partial, serde_json::json!({"players": 2}));
    }

    #[test]
    fn old_offers_name_the_seat_from_1() {
        assert_eq!(seat_offer("offer 1").as_deref(), Some("offer p2"));
        assert_eq!(seat_offer("offer 0").as_deref(), Some("offer p1"));
        assert_eq!(seat_offer("offer p2"), None);
        assert_eq!(seat_offer("offer"), None);
    }

    #[test]
    fn bare_triggers_are_typed_or_refused() {
        assert_eq!(typed(Recruit::Amanda, 2), Die::new(2).map(Trigger::Die));
        assert_eq!(typed(Recruit::Amanda, 9), None);
        assert_eq!(
            typed(Recruit::Chase, 13),
            Die::new(3).map(Trigger::NewWorker)
        );
        assert_eq!(typed(Recruit::Pete, 1), Die::new(0).map(Trigger::NewWorker));
        assert_eq!(typed(Recruit::Pete, 2), Some(Trigger::Plain));
        assert_eq!(typed(Recruit::Ray, 5), Some(Trigger::Builders(5)));
    }
}
