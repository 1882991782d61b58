//! The conformance harness every game crate runs in its tests.
//!
//! It plays seeded random games and checks at every step what must hold for any game:
//! the state validates, clones and serde round trips are identical, legal actions are
//! non-empty until the end, unique in notation, parse back, and are all accepted; a
//! refused action leaves the state identical and its refusal has a stable code
//! `<game name>/<snake_case>` ([`crate::Coded`]); views are deterministic and unchanged by
//! determinizing for the viewer (so a view shows nothing that determinization resamples);
//! the game ends within a step cap; the outcome is well formed; and the record replays
//! to the identical final state. Each move's events tell no viewer more than it may know:
//! they stay the same when what the viewer cannot see is resampled before and after the
//! move, and when the move is swapped for another with the same public part that leaves
//! the viewer's view the same. Taking back ([`Search::may_take_back`]) leaks nothing either:
//! the answer for every legal action stays the same when what the seat to act cannot see
//! is resampled; an action that may be taken back shows no other seat anything new (its
//! view afterwards is the same when what it could not see before is resampled) and is
//! undone by a [`crate::Session`] to the identical state; and records where some of those
//! actions were made and taken back (`undo`) replay to the same final state. The position
//! key ([`Search::position_key`]), what an action means for trading ([`Search::proposal_to`],
//! [`Search::deal`]) and how it is described to the seat to act ([`Present::describe`]: a
//! label in words, never empty) stay the same when what the seat to act cannot see is
//! resampled. The end explains itself ([`Present::ending`]): no explanation before the end;
//! at the end, each seat's lines add up to its score in the outcome; and a game stopped
//! (every fourth deep step) by everyone but the seat to act resigning explains that too,
//! with the scores the board shows ([`Present::standing`], unchanged by resampling what is
//! hidden). Every text a person reads is plain words
//! ([`crate::ending::words_problem`]: no notation in backticks, no seat counted from 0, no
//! "1 points"): each viewer's log lines, every refusal's reason, every move's label, each
//! view as the terminal draws it and every string of its JSON, and the ending.
use crate::log::{Event, Names};
use crate::{rng_from_seed, Game, GameRecord, Viewer};
use rand::seq::IndexedRandom;
use rand::Rng;
use std::collections::HashSet;

/// How many games to play and how hard to look.
#[derive(Clone, Debug)]
pub struct Options {
    pub games: u64,
    pub first_seed: u64,
    /// A game still running after this many actions is a failure.
    pub max_steps: usize,
    /// Run the costly checks (every legal action applied, serde, determinize) on every
    /// `deep_every`-th step; 1 checks every step.
    pub deep_every: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            games: 20,
            first_seed: 0,
            max_steps: 100_000,
            deep_every: 1,
        }
    }
}

/// What the harness saw, for tests that want to assert on coverage.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub games: u64,
    pub steps: u64,
    pub refusals_checked: u64,
    /// Moves whose events were checked for every viewer.
    pub events_checked: u64,
    /// Actions that may be taken back, applied and undone through a session.
    pub take_backs_checked: u64,
}

/// Plays `options.games` random games and panics with the seed, step and reason at the
/// first broken invariant.
pub fn run<G: Game>(config: &G::Config, options: &Options) -> Summary {
    let mut summary = Summary::default();
    for seed in options.first_seed..options.first_seed + options.games {
        if let Err(e) = check_game::<G>(config, seed, options, &mut summary) {
            panic!(
                "{} conformance failed (config {config:?}, seed {seed}): {e}",
                G::NAME
            );
        }
        summary.games += 1;
    }
    summary
}

/// Plays the one random game `seed` under the harness, for tools that check many games
/// and report rather than panic (`tabletop soak`): what it checked, or the first broken
/// invariant with its step, in words.
///
/// # Errors
/// The first broken invariant.
pub fn check<G: Game>(config: &G::Config, seed: u64, options: &Options) -> Result<Summary, String> {
    let mut summary = Summary::default();
    check_game::<G>(config, seed, options, &mut summary)?;
    summary.games = 1;
    Ok(summary)
}

fn check_game<G: Game>(
    config: &G::Config,
    seed: u64,
    options: &Options,
    summary: &mut Summary,
) -> Result<(), String> {
    let mut game = G::new(config, seed).map_err(|e| format!("new: {e}"))?;
    let mut record = GameRecord::start::<G>(config, seed);
    let mut rng = rng_from_seed(seed ^ 0xC0FF_EE00);
    let mut legal = Vec::new();
    let mut seen: Vec<G::Action> = Vec::new();
    let mut seen_set: HashSet<G::Action> = HashSet::new();
    for step in 0.. {
        let at = |e: String| format!("step {step}: {e}");
        game.validate()
            .map_err(|p| at(format!("invalid state: {}", p.join("; "))))?;
        let deep = step % options.deep_every.max(1) == 0;
        if deep {
            check_copies(&game).map_err(at)?;
            check_views(&game, &mut rng).map_err(at)?;
        }
        let Some(_seat) = game.to_act() else {
            if game.outcome().is_none() {
                return Err(at("no seat to act but no outcome".into()));
            }
            game.legal_actions(&mut legal);
            if !legal.is_empty() {
                return Err(at("the game is over but actions are offered".into()));
            }
            break;
        };
        if game.outcome().is_some() {
            return Err(at("an outcome while a seat is still to act".into()));
        }
        if game.ending(&Names::default()).is_some() {
            return Err(at("an ending while a seat is still to act".into()));
        }
        if deep && step % 4 == 0 {
            check_resign(&game).map_err(at)?;
        }
        if step >= options.max_steps {
            return Err(at(format!(
                "the game did not end within {} actions",
                options.max_steps
            )));
        }
        game.legal_actions(&mut legal);
        check_legal(&game, &legal, deep).map_err(at)?;
        // A refused action must leave the state exactly as it was.
        for candidate in seen.iter().rev().filter(|a| !legal.contains(a)).take(2) {
            let before = game.clone();
            match game.apply(*candidate) {
                Ok(()) => {
                    return Err(at(format!(
                        "`{candidate}` was accepted but is not in the legal list"
                    )))
                }
                Err(e) => {
                    words(&e.reason.to_string())
                        .map_err(|p| at(format!("refusing `{candidate}`: {p}")))?;
                    // Every refusal has a stable code in the game's namespace.
                    if !crate::is_code(e.code(), G::NAME) {
                        return Err(at(format!(
                            "refusing `{candidate}`: the code `{}` is not `{}/<snake_case>`",
                            e.code(),
                            G::NAME
                        )));
                    }
                }
            }
            if game != before {
                return Err(at(format!("refusing `{candidate}` changed the state")));
            }
            summary.refusals_checked += 1;
        }
        let action = *legal
            .choose(&mut rng)
            .ok_or_else(|| at("no legal action".into()))?;
        if deep {
            summary.take_backs_checked += check_take_backs(&game, &legal, &mut rng).map_err(at)?;
            // Now and then the chosen action is made and taken back first, in the record
            // too.
            if game.may_take_back(action) && rng.random_bool(0.3) {
                record.actions.push(action.to_string());
                record.actions.push(crate::TableMove::Undo.to_string());
            }
        }
        let before = deep.then(|| game.clone());
        game.apply(action)
            .map_err(|e| at(format!("a legal action was refused: {e}")))?;
        if let Some(before) = before {
            check_events(&before, action, &game, &legal, &mut rng)
                .map_err(|e| at(format!("`{action}`: {e}")))?;
            summary.events_checked += 1;
        }
        record.actions.push(action.to_string());
        if seen_set.insert(action) {
            seen.push(action);
        }
        summary.steps += 1;
    }
    let outcome = game.outcome().ok_or("finished without an outcome")?;
    outcome.check(game.seats())?;
    check_ending(&game, &outcome)?;
    let replayed: G = crate::replay(&record).map_err(|e| format!("replay: {e}"))?;
    if replayed != game {
        return Err("replaying the record gives a different final state".into());
    }
    let start = G::new(config, seed).map_err(|e| format!("new: {e}"))?;
    let session = crate::Session::replay(Box::new(start), &record.actions)
        .map_err(|e| format!("session replay: {e}"))?;
    if session.state().state_json() != crate::DynState::state_json(&game) {
        return Err("replaying the record in a session gives a different final state".into());
    }
    Ok(())
}

/// Taking back: the answers leak nothing, and what may be taken back is, exactly.
/// Returns how many actions that may be taken back were checked.
fn check_take_backs<G: Game>(
    game: &G,
    legal: &[G::Action],
    rng: &mut impl Rng,
) -> Result<u64, String> {
    let Some(seat) = game.to_act() else {
        return Ok(0);
    };
    let takeable: Vec<G::Action> = legal
        .iter()
        .copied()
        .filter(|&a| game.may_take_back(a))
        .collect();
    let other = game.determinize(seat, rng);
    for &action in legal {
        if other.may_take_back(action) != takeable.contains(&action) {
            return Err(format!(
                "whether `{action}` may be taken back changes when what seat {seat} cannot see is resampled (a leak)"
            ));
        }
    }
    let before_json = crate::DynState::state_json(game);
    for &action in &takeable {
        let mut after = game.clone();
        after
            .apply(action)
            .map_err(|e| format!("`{action}` may be taken back but is refused: {e}"))?;
        // Nothing new shown to another seat: its view afterwards does not depend on what
        // it could not see before.
        for viewer in (0..game.seats()).filter(|&s| s != seat) {
            let mut alt = game.determinize(viewer, rng);
            if alt.apply(action).is_ok()
                && alt.view(Viewer::Seat(viewer)) != after.view(Viewer::Seat(viewer))
            {
                return Err(format!(
                    "`{action}` may be taken back, but seat {viewer}'s view after it depends on what that seat could not see (it reveals or draws something)"
                ));
            }
        }
        let mut session = crate::Session::new(Box::new(game.clone()));
        let text = action.to_string();
        session
            .play(&crate::Move::game(action))
            .map_err(|e| format!("a session refuses `{text}`: {e}"))?;
        if session.undoer() != Some(seat) {
            return Err(format!(
                "after `{text}`, which may be taken back, seat {seat} may not undo"
            ));
        }
        session
            .undo(seat)
            .map_err(|e| format!("undoing `{text}`: {e}"))?;
        if session.state().state_json() != before_json {
            return Err(format!("undoing `{text}` does not restore the state"));
        }
    }
    Ok(takeable.len() as u64)
}

fn check_copies<G: Game>(game: &G) -> Result<(), String> {
    if &game.clone() != game {
        return Err("a clone differs from the original".into());
    }
    let json = serde_json::to_string(game).map_err(|e| format!("serialize: {e}"))?;
    let back: G = serde_json::from_str(&json).map_err(|e| format!("deserialize: {e}"))?;
    if &back != game {
        return Err("the serde round trip changed the state".into());
    }
    Ok(())
}

fn check_legal<G: Game>(game: &G, legal: &[G::Action], deep: bool) -> Result<(), String> {
    if legal.is_empty() {
        return Err("a seat is to act but there is no legal action".into());
    }
    let mut texts = HashSet::new();
    for &action in legal {
        let text = action.to_string();
        let parsed: G::Action = text
            .parse()
            .map_err(|e| format!("`{text}` does not parse back: {e}"))?;
        if parsed != action {
            return Err(format!("`{text}` parses to a different action"));
        }
        if !texts.insert(text.clone()) {
            return Err(format!("`{text}` is offered twice"));
        }
        if !game.is_legal(action) {
            return Err(format!(
                "is_legal disagrees with the legal list on `{text}`"
            ));
        }
        if deep {
            let mut copy = game.clone();
            copy.apply(action)
                .map_err(|e| format!("`{text}` is listed but refused: {e}"))?;
        }
    }
    Ok(())
}

fn check_views<G: Game>(game: &G, rng: &mut impl Rng) -> Result<(), String> {
    let spectator = game.view(Viewer::Spectator);
    if spectator != game.view(Viewer::Spectator) {
        return Err("the spectator view is not deterministic".into());
    }
    serde_json::to_string(&spectator).map_err(|e| format!("view serialize: {e}"))?;
    view_words(&spectator).map_err(|p| format!("the spectator view: {p}"))?;
    for seat in 0..game.seats() {
        let view = game.view(Viewer::Seat(seat));
        view_words(&view).map_err(|p| format!("seat {}'s view: {p}", seat + 1))?;
        let other = game.determinize(seat, rng);
        other
            .validate()
            .map_err(|p| format!("determinized for seat {seat}: invalid: {}", p.join("; ")))?;
        if other.view(Viewer::Seat(seat)) != view {
            return Err(format!("seat {seat}'s view changes when what it cannot see is resampled (a leak, or a bad determinize)"));
        }
        if other.view(Viewer::Spectator) != spectator {
            return Err(format!(
                "the spectator view changes when seat {seat}'s unknowns are resampled"
            ));
        }
        if other.to_act() != game.to_act() {
            return Err("determinizing changed whose turn it is".into());
        }
        if game.to_act() == Some(seat) {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            game.legal_actions(&mut a);
            other.legal_actions(&mut b);
            if a != b {
                return Err(format!(
                    "seat {seat}'s legal actions change under determinization"
                ));
            }
            if other.position_key() != game.position_key() {
                return Err(format!(
                    "the position key changes when what seat {seat} cannot see is resampled"
                ));
            }
            for &action in &a {
                if other.proposal_to(action) != game.proposal_to(action)
                    || other.deal(action) != game.deal(action)
                {
                    return Err(format!(
                        "whether {action} proposes or trades changes when what seat {seat} cannot see is resampled"
                    ));
                }
                let text = game.describe(action);
                if text.label.trim().is_empty() {
                    return Err(format!("`{action}` is described without words"));
                }
                words(&text.label).map_err(|p| format!("`{action}`'s label: {p}"))?;
                if other.describe(action) != text {
                    return Err(format!(
                        "how `{action}` is described changes when what seat {seat} cannot see is resampled (a leak)"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The end explained: it adds up to the outcome, for every viewer's names.
fn check_ending<G: Game>(game: &G, outcome: &crate::Outcome) -> Result<(), String> {
    for viewer in viewers(game.seats()) {
        let ending = game
            .ending(&Names::for_viewer(viewer))
            .ok_or("finished without an ending (why it ended and the scores)")?;
        ending
            .check(outcome)
            .map_err(|p| format!("the ending for {viewer:?}: {}", p.join("; ")))?;
    }
    Ok(())
}

/// Everyone but the seat to act resigns now: the session ends, and its explanation adds
/// up to its outcome, with the scores the board shows ([`Present::standing`], which must
/// add up and tell nothing hidden).
fn check_resign<G: Game>(game: &G) -> Result<(), String> {
    if let Some(standing) = game.standing() {
        if standing.len() != game.seats() {
            return Err(format!(
                "the standing scores {} seats of {}",
                standing.len(),
                game.seats()
            ));
        }
        for (seat, score) in standing.iter().enumerate() {
            let sum: i64 = score.lines.iter().map(|l| l.points).sum();
            if sum != score.total {
                return Err(format!(
                    "seat {}'s standing lines add up to {sum}, its total is {}",
                    seat + 1,
                    score.total
                ));
            }
        }
        let mut rng = rng_from_seed(7);
        for seat in 0..game.seats() {
            if game.determinize(seat, &mut rng).standing().as_ref() != Some(&standing) {
                return Err(format!(
                    "the standing changes when what seat {} cannot see is resampled (a leak)",
                    seat + 1
                ));
            }
        }
    }
    let Some(stays) = game.to_act() else {
        return Ok(());
    };
    let mut session = crate::Session::new(Box::new(game.clone()));
    for seat in (0..game.seats()).filter(|&s| s != stays) {
        session
            .resign(seat)
            .map_err(|e| format!("resign {}: {e}", seat + 1))?;
    }
    let outcome = session
        .outcome()
        .ok_or("everyone else resigned but the session has no outcome")?;
    outcome.check(game.seats())?;
    if outcome.places[stays] != 0 {
        return Err("the seat left after everyone else resigned did not win".into());
    }
    let ending = session
        .ending(&Names::default())
        .ok_or("everyone else resigned but the session has no ending")?;
    ending
        .check(&outcome)
        .map_err(|p| format!("the ending after resignations: {}", p.join("; ")))?;
    if !ending.why.contains("resigned") {
        return Err(format!(
            "the ending after resignations does not say so: {:?}",
            ending.why
        ));
    }
    Ok(())
}

/// A text people read must be plain words ([`crate::ending::words_problem`]).
fn words(text: &str) -> Result<(), String> {
    match crate::ending::words_problem(text) {
        Some(problem) => Err(problem),
        None => Ok(()),
    }
}

/// Every text a view carries, as the terminal draws it and as the API sends it (each
/// string of its JSON), is plain words.
fn view_words<V: serde::Serialize + std::fmt::Display>(view: &V) -> Result<(), String> {
    fn strings(value: &serde_json::Value) -> Result<(), String> {
        match value {
            serde_json::Value::String(text) => words(text),
            serde_json::Value::Array(items) => items.iter().try_for_each(strings),
            serde_json::Value::Object(fields) => fields.values().try_for_each(strings),
            _ => Ok(()),
        }
    }
    let json = serde_json::to_value(view).map_err(|e| format!("view serialize: {e}"))?;
    strings(&json)?;
    view.to_string()
        .lines()
        .try_for_each(words)
        .map_err(|p| format!("as the terminal draws it: {p}"))
}

fn viewers(seats: usize) -> impl Iterator<Item = Viewer> {
    (0..seats)
        .map(Viewer::Seat)
        .chain(std::iter::once(Viewer::Spectator))
}

/// The events of one move, for every viewer: well formed, and unchanged by anything the
/// viewer cannot know.
fn check_events<G: Game>(
    before: &G,
    action: G::Action,
    after: &G,
    legal: &[G::Action],
    rng: &mut impl Rng,
) -> Result<(), String> {
    let others: Vec<(G::Action, G)> = legal
        .iter()
        .filter(|&&o| o != action)
        .filter_map(|&o| {
            let mut alt = before.clone();
            alt.apply(o).ok().map(|()| (o, alt))
        })
        .collect();
    for viewer in viewers(before.seats()) {
        let events = G::events(before, action, after, viewer);
        let names = Names::for_viewer(viewer);
        for event in &events {
            serde_json::to_value(event).map_err(|e| format!("event serialize: {e}"))?;
            let text = event.text(&names);
            if text.trim().is_empty() || text.contains('\n') {
                return Err(format!(
                    "{viewer:?} gets an event text that is not one line: {text:?}"
                ));
            }
            words(&text).map_err(|p| format!("{viewer:?}'s log: {p}"))?;
        }
        if before.to_act().is_some() && events.is_empty() {
            return Err(format!("{viewer:?} is told nothing of the move"));
        }
        // Resampling what the viewer cannot see (a spectator sees less than any seat).
        let seat = viewer.seat().unwrap_or(0);
        let (b, a) = (before.determinize(seat, rng), after.determinize(seat, rng));
        if G::events(&b, action, &a, viewer) != events {
            return Err(format!(
                "{viewer:?}'s events change when what it cannot see is resampled (a leak)"
            ));
        }
        // Another move with the same public part that leaves the viewer's view the same
        // must read the same.
        let seen = after.view(viewer);
        let public = before.public_action(action, viewer);
        for (other, alt) in &others {
            if before.public_action(*other, viewer) == public
                && alt.view(viewer) == seen
                && G::events(before, *other, alt, viewer) != events
            {
                return Err(format!(
                    "{viewer:?} cannot tell `{action}` from `{other}` by its view, but their events differ (a leak)"
                ));
            }
        }
    }
    Ok(())
}
