//! Every text a reader meets, read the way that reader gets it: random games of every game
//! walked step by step, and at each step the log lines, the board's text, the move labels,
//! refusals, the end screen and a review, for every seat and a spectator, under the
//! names a table gives (a person's name, "seat 2 (medium)", "seat 3"). None may say
//! "you offers" or "Bea picked up Bea's A" (`engine::text::grammar_slips`), and a base
//! game of Distop-IA never speaks of the advanced mode's cards.
use catalog::{with_game, Visit, GAMES};
use engine::prelude::*;
use engine::text::{grammar_slips, Names};
use engine::{DynState, Tensor, Viewer};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// The words a base game of Distop-IA must not show (its advanced mode's cards).
const ADVANCED_WORDS: &[&str] = &["mission", "collaborator", "grandma", "robot", "raid"];

/// What a table calls its players, by seat: given names, bots by level, plain seats.
fn tables(seats: usize) -> Vec<Vec<String>> {
    let people = ["Bea", "Ann", "Kim", "Lou", "Max", "Ned"];
    vec![
        (0..seats).map(|s| people[s].to_string()).collect(),
        (0..seats)
            .map(|s| match s % 2 {
                0 => format!("seat {} (medium)", s + 1),
                _ => format!("seat {}", s + 1),
            })
            .collect(),
    ]
}

/// Every text of one game, read by one reader; the problems found in it.
struct Reader<'a> {
    game: &'static str,
    base_distopia: bool,
    names: Names,
    third_person: &'a [String],
    problems: &'a mut Vec<String>,
}

impl Reader<'_> {
    fn read(&mut self, what: &str, text: &str) {
        for slip in grammar_slips(text, self.third_person) {
            self.problems.push(format!("{} {what}: {slip}", self.game));
        }
        if self.base_distopia {
            let lower = text.to_ascii_lowercase();
            for word in ADVANCED_WORDS {
                if lower.contains(word) {
                    self.problems
                        .push(format!("base distopia {what} speaks of {word}: \"{text}\""));
                }
            }
        }
    }
}

/// Configs to walk: every table size, and each game's variants that change its words.
fn configs(game: &str) -> Vec<serde_json::Value> {
    match game {
        "dropsite" => (2..=4)
            .map(|p| serde_json::json!({ "players": p, "target": 30 }))
            .chain([serde_json::json!({ "players": 3, "target": 30, "open_debt": true })])
            .collect(),
        "distopia" => vec![
            serde_json::json!({}),
            serde_json::json!({ "advanced": true }),
        ],
        _ => [2, 4].map(|p| serde_json::json!({ "players": p })).to_vec(),
    }
}

struct Walk {
    seed: u64,
    problems: Vec<String>,
    texts: usize,
}

impl Visit for &mut Walk {
    type Out = ();
    fn visit<G: Tensor>(self) {
        for config in configs(G::NAME) {
            walk_one::<G>(&config, self);
        }
    }
}

/// `text` read and played on a copy of `state`, as a player typing it would: the error
/// it is refused with.
fn refused_text<G: Game>(state: &G, text: &str) -> Result<(), engine::EngineError> {
    let action = DynState::parse_action(state, text)?;
    DynState::apply_any(&mut state.clone(), &action)
}

fn walk_one<G: Game>(config_json: &serde_json::Value, walk: &mut Walk) {
    let config: G::Config = match serde_json::from_value(config_json.clone()) {
        Ok(c) => c,
        Err(e) => panic!("{} config {config_json}: {e}", G::NAME),
    };
    let base_distopia = G::NAME == "distopia" && config_json.get("advanced").is_none();
    let mut rng = ChaCha8Rng::seed_from_u64(walk.seed);
    let mut game = G::new(&config, walk.seed).expect("the config is valid");
    let seats = game.seats();
    let viewers: Vec<Viewer> = (0..seats)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .collect();
    let tables = tables(seats);
    // Every notation legal at some point of the game: tried where it is not, for refusals.
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut legal = Vec::new();
    let mut steps = 0;
    while let Some(actor) = game.to_act() {
        game.legal_actions(&mut legal);
        let action = legal[rng.random_range(0..legal.len())];
        let before = game.clone();
        game.apply(action).expect("a legal action applies");
        // Reading every step of a long game costs more than it finds: every step early
        // on, then one in seven, and the end.
        steps += 1;
        if steps > 40 && steps % 7 != 0 && game.to_act().is_some() {
            continue;
        }
        for (t, shown) in tables.iter().enumerate() {
            for &viewer in &viewers {
                let names = Names::for_viewer(viewer).with_names(shown.clone());
                let mut problems = Vec::new();
                let mut reader = Reader {
                    game: G::NAME,
                    base_distopia,
                    names: names.clone(),
                    third_person: shown,
                    problems: &mut problems,
                };
                for event in G::events(&before, action, &game, viewer) {
                    reader.read("log", &engine::Event::text(&event, &reader.names));
                    walk.texts += 1;
                }
                // The board names seats by number, whatever the table calls them.
                if t == 0 {
                    reader.read("board", &game.view(viewer).to_string());
                }
                if let Some(ending) = game.ending(&reader.names) {
                    reader.read("end", &ending.why);
                    for line in ending.seats.iter().flat_map(|s| &s.lines) {
                        reader.read("end line", &line.label);
                    }
                }
                walk.texts += 2;
                walk.problems.extend(problems);
            }
        }
        // What the seat that acted was offered and told: its move labels, and what its
        // mistakes would have been answered.
        let labels: Vec<String> = legal.iter().map(|&a| before.describe(a).label).collect();
        let now: BTreeSet<String> = legal.iter().map(ToString::to_string).collect();
        seen.extend(now.iter().cloned());
        let mut refusals = Vec::new();
        for text in seen.iter().filter(|t| !now.contains(*t)).take(12) {
            if let Err(e) = refused_text(&before, text) {
                refusals.push(e.to_string());
            }
        }
        for junk in ["farm", "xyz", "pick Q", "7 on 9"] {
            if let Err(e) = refused_text(&before, junk) {
                refusals.push(e.to_string());
            }
        }
        for shown in &tables {
            let names = Names::for_viewer(Viewer::Seat(actor)).with_names(shown.clone());
            let mut problems = Vec::new();
            let mut reader = Reader {
                game: G::NAME,
                base_distopia,
                names,
                third_person: shown,
                problems: &mut problems,
            };
            for label in &labels {
                reader.read("move label", label);
            }
            for refusal in &refusals {
                reader.read("refusal", refusal);
            }
            walk.texts += labels.len() + refusals.len();
            walk.problems.extend(problems);
        }
    }
}

#[test]
fn every_text_reads_right_for_every_reader_in_random_games_of_every_game() {
    let mut walk = Walk {
        seed: 0,
        problems: Vec::new(),
        texts: 0,
    };
    for seed in [1, 7] {
        walk.seed = seed;
        for game in GAMES {
            with_game(game, &mut walk).expect("a listed game");
        }
    }
    let distinct: BTreeSet<&String> = walk.problems.iter().collect();
    assert!(
        distinct.is_empty(),
        "{} of {} texts read wrong ({} distinct), for example:\n{}",
        walk.problems.len(),
        walk.texts,
        distinct.len(),
        distinct
            .iter()
            .take(40)
            .map(|p| p.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(walk.texts > 100_000, "only {} texts read", walk.texts);
}

#[test]
fn the_walk_finds_the_slips_it_looks_for() {
    let shown = vec!["Bea".to_string(), "seat 2 (medium)".to_string()];
    let mut problems = Vec::new();
    let mut reader = Reader {
        game: "test",
        base_distopia: true,
        names: Names::for_viewer(Viewer::Seat(0)),
        third_person: &shown,
        problems: &mut problems,
    };
    reader.read("log", "you offers a trade to seat 3");
    reader.read("log", "seat 2 (medium) picked up seat 2 (medium)'s D");
    reader.read("end line", "0 mission");
    reader.read("refusal", "expected grandma, robot A-D");
    reader.read("log", "you picked up your district D");
    assert_eq!(problems.len(), 5, "{problems:#?}");
}
