//! The game targets: action text, state files and card data, generic over [`Game`].
use crate::check::{self, ensure};
use crate::{hash, pick};
use engine::prelude::*;
use engine::{
    load_state, load_state_file, DynGame, DynState, GameRecord, StateError, StateFile, Typed,
    Viewer,
};
use serde_json::{json, Value};

/// A game the targets know how to set up: a table's options from two bytes of input,
/// spread over the options the game offers.
pub trait Fuzzed: Game {
    /// The options (as JSON, the form tables and files give them) picked by `a` and `b`.
    fn options(a: u8, b: u8) -> Value;
    /// How many random moves the card-data target plays from the start.
    const CARD_MOVES: usize;
}

fn bit(b: u8, n: u8) -> bool {
    b & (1 << n) != 0
}

impl Fuzzed for dropsite::DropSite {
    fn options(a: u8, b: u8) -> Value {
        let players = 2 + usize::from(a % 3);
        json!({
            "players": players,
            "target": if bit(a, 3) { 50 } else { 100 },
            "open_debt": bit(a, 4),
            "random_first": bit(a, 5),
            "first_player": usize::from(b) % players,
            "max_rounds": 1 + u32::from(b >> 4),
        })
    }
    const CARD_MOVES: usize = 160;
}

impl Fuzzed for distopia::Distopia {
    fn options(a: u8, b: u8) -> Value {
        const BORDERS: [&str; 4] = ["meadow", "city", "coast", "mountain"];
        const COLLABORATORS: [Option<&str>; 6] = [
            None,
            Some("none"),
            Some("spy-pets"),
            Some("shelf-raider"),
            Some("rebel-robot"),
            Some("grandma"),
        ];
        const MISSIONS: [Option<&str>; 6] = [
            None,
            Some("none"),
            Some("catastrophe"),
            Some("save-a-sibling"),
            Some("police-sting"),
            Some("curfew"),
        ];
        let advanced = bit(a, 2);
        json!({
            "border": BORDERS[usize::from(a % 4)],
            "advanced": advanced,
            "collaborator": if advanced { COLLABORATORS[usize::from(b % 6)] } else { None },
            "mission": if advanced { MISSIONS[usize::from((b / 6) % 6)] } else { None },
        })
    }
    const CARD_MOVES: usize = 120;
}

impl Fuzzed for euphoria::Euphoria {
    fn options(a: u8, b: u8) -> Value {
        json!({
            "players": 2 + usize::from(a % 5),
            "edition": if bit(a, 3) { "v1" } else { "v2" },
            "knowledge_check": if bit(a, 4) { "on_roll_only" } else { "continuous" },
            "doubles_cost_morale": bit(a, 5),
            "starting_recruit_discards": if bit(a, 6) { "discard" } else { "return_to_deck" },
            "tunnel_end_requires_faction": !bit(a, 7),
            "trading": if bit(b, 0) { "one_offer_before_placing" } else { "rulebook" },
            "offers_per_turn": if bit(b, 1) { Value::Null } else { json!(1 + (b >> 2) % 3) },
        })
    }
    const CARD_MOVES: usize = 60;
}

/// The config `options` give, which must be one the game takes.
fn config<G: Fuzzed>(options: &Value) -> G::Config {
    match Typed::<G>::config(options) {
        Ok(config) => config,
        Err(e) => panic!(
            "{}: the harness's own options {options} are refused: {e}",
            G::NAME
        ),
    }
}

/// A game after `moves` seeded random moves from a new one (fewer if it ends first).
pub fn reached<G: Fuzzed>(config: &G::Config, seed: u64, moves: usize) -> G {
    let mut game = match G::new(config, seed) {
        Ok(game) => game,
        Err(e) => panic!("{}: a valid config makes no game: {e}", G::NAME),
    };
    let mut legal = Vec::new();
    for step in 0..moves {
        if game.to_act().is_none() {
            break;
        }
        game.legal_actions(&mut legal);
        ensure(!legal.is_empty(), &game, || "no legal action".into());
        let action = legal[pick(seed, step as u64, legal.len())];
        let applied = game.apply(action);
        ensure(applied.is_ok(), &game, || {
            format!("a random legal `{action}` is refused")
        });
    }
    game
}

/// The action-text target. Input: two option bytes, a seed byte, a count of random moves
/// to play first, then lines of action text, each parsed and applied in turn.
///
/// At each line: the position passes [`check::position`] (every listed action applies,
/// checked at the first line's position and after the last);
/// the text parses on the typed path exactly when it does on the type-erased one, and a
/// parsed action's notation parses back to it; the action is accepted exactly when it is
/// listed as legal; a refused action leaves the state equal and byte-identical, an
/// accepted one leads to a valid state and is told to every viewer; the type-erased
/// path (`parse_action`, then `apply_any`: the CLI's and the server's) gives the same
/// answer and the same state.
pub fn action_text<G: Fuzzed>(data: &[u8]) {
    let [a, b, seed, moves, rest @ ..] = data else {
        return;
    };
    let config = config::<G>(&G::options(*a, *b));
    let mut game: G = reached(&config, u64::from(*seed), usize::from(moves % 64));
    let text = String::from_utf8_lossy(rest);
    for (i, line) in text.split('\n').take(8).enumerate() {
        // Every listed action applied at the first position and at the last (below): at
        // each one between, the legal list is checked against what is accepted.
        let legal = check::position(&game, i == 0);
        let _ = line.parse::<G::Action>();
        let typed = line.trim().parse::<G::Action>();
        let canonical = DynState::parse_action(&game, line).map(|a| a.to_string());
        ensure(typed.is_ok() == canonical.is_ok(), &game, || {
            format!("`{line}` parses on one path and not on the other: {typed:?} / {canonical:?}")
        });
        let before = game.clone();
        let before_bytes = serde_json::to_vec(&game).unwrap_or_default();
        let mut erased = game.clone();
        let erased_result = DynState::parse_action(&game, line)
            .and_then(|parsed| DynState::apply_any(&mut erased, &parsed));
        let action = match typed {
            Err(e) => {
                ensure(!e.to_string().is_empty(), &game, || {
                    "a silent parse error".into()
                });
                ensure(erased_result.is_err() && erased == before, &game, || {
                    format!(
                        "`{line}` does not parse, but the erased path took it or changed the state"
                    )
                });
                continue;
            }
            Ok(action) => action,
        };
        let notation = action.to_string();
        ensure(notation.parse::<G::Action>() == Ok(action), &game, || {
            format!("`{line}` reads as `{notation}`, which does not parse back to it")
        });
        ensure(
            canonical.as_deref().ok() == Some(notation.as_str()),
            &game,
            || format!("`{line}`: the canonical text is {canonical:?}, the notation `{notation}`"),
        );
        let listed = legal.contains(&action);
        match game.apply(action) {
            Ok(()) => {
                ensure(listed, &before, || {
                    format!("`{notation}` is accepted but not listed as legal")
                });
                if let Err(problems) = game.validate() {
                    ensure(false, &before, || {
                        format!(
                            "`{notation}` leads to an invalid state: {}",
                            problems.join("; ")
                        )
                    });
                }
                check::events(&before, action, &game);
            }
            Err(refusal) => {
                ensure(!listed, &before, || {
                    format!("the listed `{notation}` is refused: {refusal}")
                });
                ensure(!refusal.to_string().is_empty(), &before, || {
                    format!("`{notation}` is refused in no words")
                });
                ensure(game == before, &before, || {
                    format!("refusing `{notation}` changed the state")
                });
                ensure(
                    serde_json::to_vec(&game).unwrap_or_default() == before_bytes,
                    &before,
                    || format!("refusing `{notation}` changed the state's bytes"),
                );
            }
        }
        ensure(
            erased_result.is_ok() == listed && erased == game,
            &before,
            || {
                format!(
                    "the erased apply of `{line}` answers {erased_result:?}, the typed apply {}",
                    if listed { "accepts" } else { "refuses" }
                )
            },
        );
    }
    check::position(&game, true);
}

/// The state-file target. Input: JSON, a state file (`{"game", "format", "state"}`, as
/// `tabletop new` writes) or a bare state.
///
/// It is refused with a typed [`StateError`] (a refusal for broken rules lists at least
/// one problem, each in words), or it loads: then it validates, passes
/// [`check::position`] (every legal action applies and leads to a valid state),
/// determinizing it for each seat gives a valid state that the seat sees the same, the
/// type-erased calls a loaded state serves (legal moves, views, state JSON) answer, and a
/// few moves along the legal lists keep all of this.
pub fn state_json<G: Fuzzed>(data: &[u8]) {
    let Ok(value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let loaded: Result<G, StateError> = match serde_json::from_value::<StateFile>(value.clone()) {
        Ok(file) => load_state_file::<G>(&file),
        Err(_) => load_state::<G>(&value),
    };
    let mut game = match loaded {
        Err(StateError::Malformed { message, .. }) => {
            assert!(
                !message.is_empty(),
                "{}: a malformed state in no words",
                G::NAME
            );
            return;
        }
        Err(StateError::Invalid { problems, .. }) => {
            assert!(
                !problems.is_empty() && problems.iter().all(|p| !p.trim().is_empty()),
                "{}: an invalid state refused without its problems: {problems:?}",
                G::NAME
            );
            return;
        }
        Ok(game) => game,
    };
    // What the CLI and the server do with a loaded state, through the erased interface.
    let erased = Typed::<G>::default()
        .load_file(&StateFile {
            game: G::NAME.into(),
            format: G::FORMAT,
            state: serde_json::to_value(&game).unwrap_or_default(),
        })
        .unwrap_or_else(|e| panic!("{}: a loaded state does not load again: {e}", G::NAME));
    let _ = (erased.legal(), erased.moves(), erased.state_json());
    for viewer in check::viewers(game.seats()) {
        let _ = (erased.view_json(viewer), erased.view_text(viewer));
    }
    let seed = hash(data);
    for step in 0..4u64 {
        let legal = check::position(&game, true);
        for seat in 0..game.seats() {
            let mut rng = engine::rng_from_seed(seed ^ step);
            let other = game.determinize(seat, &mut rng);
            if let Err(problems) = other.validate() {
                ensure(false, &game, || {
                    format!(
                        "determinized for seat {seat}, the state does not validate: {}",
                        problems.join("; ")
                    )
                });
            }
            ensure(
                other.view(Viewer::Seat(seat)) == game.view(Viewer::Seat(seat)),
                &game,
                || format!("seat {seat}'s view changes when what it cannot see is resampled"),
            );
        }
        if legal.is_empty() {
            break;
        }
        let before = game.clone();
        let action = legal[pick(seed, step, legal.len())];
        if game.apply(action).is_err() {
            ensure(false, &before, || {
                format!("the legal `{action}` is refused")
            });
        }
        check::events(&before, action, &game);
    }
}

/// The card-data target. Input: a card file (`--cards FILE`: a JSON object whose keys
/// join the game's options, docs/cards.md), joined to the default options as the CLI
/// joins it.
///
/// Options the game does not take are refused with a [`engine::ConfigError`] listing at
/// least one problem, on the typed path and the erased one alike (`config/invalid`).
/// Options it takes read back the same from their JSON, and make a game that plays by the
/// rules for a stretch of random moves ([`check::position`] at every step, every legal
/// action applied every eighth step) and replays from its record to the same state.
pub fn card_data<G: Fuzzed>(data: &[u8]) {
    let Ok(Value::Object(cards)) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let erased = Typed::<G>::default();
    let mut options = erased.default_config();
    if let Value::Object(map) = &mut options {
        map.extend(cards);
    }
    let seed = hash(data);
    let made = Typed::<G>::config(&options)
        .and_then(|config| G::new(&config, seed).map(|game| (config, game)));
    let erased_made = erased.new_state(&options, seed);
    let (config, mut game) = match made {
        Err(e) => {
            assert!(
                !e.problems.is_empty() && e.problems.iter().all(|p| !p.trim().is_empty()),
                "{}: options refused without their problems: {e:?}",
                G::NAME
            );
            match erased_made {
                Err(ee) => assert_eq!(ee.code(), "config/invalid", "{}: {ee}", G::NAME),
                Ok(_) => panic!(
                    "{}: the erased path takes options the typed one refuses: {e}",
                    G::NAME
                ),
            }
            return;
        }
        Ok(made) => made,
    };
    assert!(
        erased_made.is_ok(),
        "{}: the erased path refuses options the typed one takes",
        G::NAME
    );
    let written = serde_json::to_value(&config).unwrap_or_default();
    match Typed::<G>::config(&written) {
        Ok(back) => assert!(
            back == config,
            "{}: options {written} read back otherwise",
            G::NAME
        ),
        Err(e) => panic!(
            "{}: written options {written} do not read back: {e}",
            G::NAME
        ),
    }
    let _ = G::about();
    let mut record = GameRecord::start::<G>(&config, seed);
    for step in 0..G::CARD_MOVES {
        let legal = check::position(&game, step % 8 == 0);
        if legal.is_empty() {
            break;
        }
        let before = game.clone();
        let action = legal[pick(seed, step as u64, legal.len())];
        if game.apply(action).is_err() {
            ensure(false, &before, || {
                format!("the legal `{action}` is refused")
            });
        }
        if step % 8 == 0 {
            check::events(&before, action, &game);
        }
        record.actions.push(action.to_string());
    }
    match engine::replay::<G>(&record) {
        Ok(replayed) => ensure(replayed == game, &game, || {
            "the record replays to another state".into()
        }),
        Err(e) => ensure(false, &game, || format!("the record does not replay: {e}")),
    }
}
