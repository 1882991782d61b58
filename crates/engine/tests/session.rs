//! Table moves over a tiny game: taking back moves and resigning.
//!
//! The game, Tally: each seat in turn adds 1 or 2 to its tally (as often as it likes),
//! may `roll` a die and add the roll, and says `done` to pass the turn; after three turns
//! each the highest tally wins. `add` may be taken back; `roll` (random) and `done`
//! (passes to another seat) may not.
use engine::conformance::{self, Options};
use engine::log::{Event, Names};
use engine::prelude::*;
use engine::{
    About, Coded, ConfigError, DynGame, DynState, EngineError, GameRecord, GameRng, IllegalAction,
    Outcome, ParseActionError, ScoreLine, Seat, SeatScore, Session, TableMove, Typed, Viewer,
};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct TallyConfig {
    seats: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Act {
    Add(u8),
    Roll,
    Done,
}

impl fmt::Display for Act {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Act::Add(n) => write!(f, "add {n}"),
            Act::Roll => f.write_str("roll"),
            Act::Done => f.write_str("done"),
        }
    }
}

impl FromStr for Act {
    type Err = ParseActionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let words: Vec<String> = s.split_whitespace().map(str::to_ascii_lowercase).collect();
        match words.join(" ").as_str() {
            "add 1" => Ok(Act::Add(1)),
            "add 2" => Ok(Act::Add(2)),
            "roll" => Ok(Act::Roll),
            "done" => Ok(Act::Done),
            _ => Err(ParseActionError::new(s, "add 1, add 2, roll or done")),
        }
    }
}

engine::serde_as_notation!(Act);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Tally {
    config: TallyConfig,
    tallies: Vec<i64>,
    current: Seat,
    turns: u32,
    adds_this_turn: u32,
    rng: GameRng,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
struct TallyView {
    tallies: Vec<i64>,
    current: Option<Seat>,
}

impl fmt::Display for TallyView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.tallies)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum TallyEvent {
    Did { seat: Seat, action: String },
}

impl Event for TallyEvent {
    fn text(&self, names: &Names) -> String {
        let TallyEvent::Did { seat, action } = self;
        format!("{} did {action}", names.seat(*seat))
    }
}

impl Tally {
    fn over(&self) -> bool {
        self.turns >= 3 * self.tallies.len() as u32
    }
}

impl GameRules for Tally {
    type Config = TallyConfig;
    type Action = Act;
    type View = TallyView;
    type Refusal = TallyRefusal;
    const NAME: &'static str = "tally";
    fn new(config: &TallyConfig, seed: u64) -> Result<Self, ConfigError> {
        let seats = config.seats.unwrap_or(2);
        if !(2..=5).contains(&seats) {
            return Err(ConfigError::new(vec!["2 to 5 seats".into()]));
        }
        Ok(Tally {
            config: config.clone(),
            tallies: vec![0; seats],
            current: 0,
            turns: 0,
            adds_this_turn: 0,
            rng: engine::rng_from_seed(seed),
        })
    }
    fn config(&self) -> &TallyConfig {
        &self.config
    }
    fn seats(&self) -> usize {
        self.tallies.len()
    }
    fn to_act(&self) -> Option<Seat> {
        (!self.over()).then_some(self.current)
    }
    fn legal_actions(&self, out: &mut Vec<Act>) {
        out.clear();
        if !self.over() {
            if self.adds_this_turn < 4 {
                out.extend([Act::Add(1), Act::Add(2)]);
            }
            out.extend([Act::Roll, Act::Done]);
        }
    }
    fn apply(&mut self, action: Act) -> Result<(), IllegalAction<TallyRefusal>> {
        if !self.is_legal(action) {
            return Err(IllegalAction::new(action, TallyRefusal::NotNow));
        }
        match action {
            Act::Add(n) => {
                self.tallies[self.current] += i64::from(n);
                self.adds_this_turn += 1;
            }
            Act::Roll => self.tallies[self.current] += self.rng.random_range(1..=6),
            Act::Done => {
                self.current = (self.current + 1) % self.tallies.len();
                self.turns += 1;
                self.adds_this_turn = 0;
            }
        }
        Ok(())
    }
    fn outcome(&self) -> Option<Outcome> {
        self.over()
            .then(|| Outcome::ranked(self.tallies.clone(), &self.tallies))
    }
    fn view(&self, _viewer: Viewer) -> TallyView {
        TallyView {
            tallies: self.tallies.clone(),
            current: GameRules::to_act(self),
        }
    }
}

impl Present for Tally {
    type Event = TallyEvent;
    fn about() -> About {
        About {
            players: engine::Players { min: 2, max: 2 },
            title: "Tally".into(),
            summary: "a test game".into(),
            options: Vec::new(),
            components: serde_json::Value::Null,
        }
    }
    fn rules() -> engine::Rules {
        engine::Rules {
            title: "How to play Tally".into(),
            sections: vec![engine::Section::new(
                "The game",
                vec![engine::Block::text("Each seat adds to the tally in turn.")],
            )],
        }
    }
    fn events(before: &Self, action: Act, _after: &Self, _viewer: Viewer) -> Vec<TallyEvent> {
        vec![TallyEvent::Did {
            seat: before.current,
            action: action.to_string(),
        }]
    }
    fn standing(&self) -> Option<Vec<SeatScore>> {
        Some(
            self.tallies
                .iter()
                .map(|&t| SeatScore::new(vec![ScoreLine::new("tally", t)]))
                .collect(),
        )
    }
}

impl Search for Tally {
    fn determinize<R: rand::Rng + ?Sized>(&self, _seat: Seat, rng: &mut R) -> Self {
        let mut game = self.clone();
        game.rng = engine::rng_from_seed(rng.random());
        game
    }
    fn may_take_back(&self, action: Act) -> bool {
        matches!(action, Act::Add(_))
    }
}

impl Formats for Tally {
    fn validate(&self) -> Result<(), Vec<String>> {
        Ok(())
    }
}

/// A move typed at the table: read once ([`Session::parse`]), then played; its notation
/// back.
trait Enter {
    fn enter(&mut self, text: &str) -> Result<String, EngineError>;
}

impl Enter for Session {
    fn enter(&mut self, text: &str) -> Result<String, EngineError> {
        let mv = self.parse(text)?;
        self.play(&mv)?;
        Ok(mv.to_string())
    }
}

/// Tally's one rule: an action not allowed now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TallyRefusal {
    NotNow,
}

impl fmt::Display for TallyRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not now")
    }
}

impl Coded for TallyRefusal {
    fn code(&self) -> &'static str {
        "tally/not_now"
    }
}

fn session(seats: usize, seed: u64) -> Session {
    let game = Tally::new(&TallyConfig { seats: Some(seats) }, seed).expect("a valid config");
    Session::new(Box::new(game))
}

/// Everything about a session that an error must leave alone.
fn snapshot(s: &Session) -> (serde_json::Value, Option<Seat>, Vec<Seat>, Option<Seat>) {
    (s.state().state_json(), s.to_act(), s.resigned(), s.undoer())
}

/// The error `f` gives, checking that it changed nothing.
fn refused(
    s: &mut Session,
    f: impl FnOnce(&mut Session) -> Result<(), EngineError>,
) -> EngineError {
    let before = snapshot(s);
    let error = f(s).expect_err("refused");
    assert_eq!(snapshot(s), before, "a refusal changed the session");
    error
}

/// The fine code of the refusal `f` gives, checking that it changed nothing.
fn refusal(
    s: &mut Session,
    f: impl FnOnce(&mut Session) -> Result<(), EngineError>,
) -> Option<&'static str> {
    refused(s, f).refusal()
}

#[test]
fn the_harness_passes_and_checks_take_backs() {
    let summary = conformance::run::<Tally>(&TallyConfig { seats: Some(3) }, &Options::default());
    assert!(summary.take_backs_checked > 0);
}

#[test]
fn undo_restores_the_state_before_and_repeats_within_the_turn() {
    let mut s = session(2, 1);
    let start = s.state().state_json();
    s.enter("add 1").unwrap();
    let after_one = s.state().state_json();
    assert_eq!(s.enter("ADD  2").unwrap(), "add 2");
    assert_eq!(s.undoer(), Some(0));
    s.undo(0).unwrap();
    assert_eq!(s.state().state_json(), after_one);
    assert_eq!(s.enter("undo").unwrap(), "undo");
    assert_eq!(s.state().state_json(), start);
    assert_eq!(s.undoer(), None);
    assert_eq!(refusal(&mut s, |s| s.undo(0)), Some("table/all_taken_back"));
}

#[test]
fn another_seat_hears_the_same_refusal_whether_or_not_the_move_may_be_taken_back() {
    // Seat 1's add may be taken back, its roll may not: seat 2 must not learn which.
    let mut takeable = session(2, 3);
    takeable.enter("add 1").unwrap();
    let mut rolled = session(2, 3);
    rolled.enter("roll").unwrap();
    assert_eq!(takeable.undoer(), Some(0));
    assert_eq!(rolled.undoer(), None);
    let a = refused(&mut takeable, |s| s.undo(1));
    let b = refused(&mut rolled, |s| s.undo(1));
    assert_eq!(a, b);
    assert_eq!(a.refusal(), Some("table/not_last_mover"));
    // The words say who may take back what.
    assert!(a.to_string().contains("seat 1 moved last"), "{a}");
}

#[test]
fn undo_is_refused_after_a_roll_another_seats_move_or_the_end() {
    let mut s = session(2, 2);
    s.enter("add 1").unwrap();
    s.enter("roll").unwrap();
    assert_eq!(refusal(&mut s, |s| s.undo(0)), Some("table/irreversible"));
    // An add after the roll may be taken back, but only down to the roll.
    s.enter("add 2").unwrap();
    s.undo(0).unwrap();
    refused(&mut s, |s| s.undo(0));
    s.enter("add 1").unwrap();
    s.enter("done").unwrap();
    assert_eq!(refusal(&mut s, |s| s.undo(0)), Some("table/irreversible"));
    s.enter("add 1").unwrap();
    assert_eq!(refusal(&mut s, |s| s.undo(0)), Some("table/not_last_mover"));
    assert_eq!(refusal(&mut s, |s| s.undo(7)), Some("table/no_such_seat"));
    s.undo(1).unwrap();
    // Play to the end: nothing can be taken back then.
    while s.to_act().is_some() {
        s.enter("add 1").unwrap();
        s.enter("done").unwrap();
    }
    let why = refused(&mut s, |s| s.enter("undo").map(|_| ()));
    assert_eq!(why.code(), "action/illegal");
    assert_eq!(why.refusal(), Some("table/game_over"));
}

#[test]
fn resigning_at_two_seats_ends_with_the_other_first() {
    let mut s = session(2, 3);
    s.enter("add 2").unwrap();
    assert_eq!(s.enter("Resign 1").unwrap(), "resign 1");
    assert_eq!(s.to_act(), None);
    let o = s.outcome().expect("over");
    assert_eq!(o.places, vec![1, 0]);
    assert!(o.check(2).is_ok());
    refused(&mut s, |s| s.resign(1));
    refused(&mut s, |s| s.enter("add 1").map(|_| ()));
    refused(&mut s, |s| s.enter("undo").map(|_| ()));
}

#[test]
fn a_resignation_explains_itself_with_the_scores_the_board_shows() {
    let mut s = session(2, 3);
    s.enter("add 2").unwrap();
    s.enter("add 1").unwrap();
    assert_eq!(
        s.ending(&Names::default()),
        None,
        "no ending before the end"
    );
    s.enter("resign 1").unwrap();
    let o = s.outcome().expect("over");
    // The board showed 3 and 0: the end says the same, not 0 and 0.
    assert_eq!(o.scores, vec![3, 0]);
    let names = Names::default().with_names(vec!["Ann".into(), "Bob".into()]);
    let ending = s.ending(&names).expect("over");
    assert_eq!(
        ending.why,
        "Ann resigned, so Bob won: the only one left in the game"
    );
    assert_eq!(ending.totals(), o.scores);
    assert_eq!(ending.seats[0].lines, vec![ScoreLine::new("tally", 3)]);
    assert_eq!(ending.check(&o), Ok(()));
    let mine = s.ending(&Names::for_viewer(Viewer::Seat(1))).expect("over");
    assert_eq!(
        mine.why,
        "seat 1 resigned, so you won: the only one left in the game"
    );
}

#[test]
fn a_resignation_before_a_natural_end_is_added_to_why() {
    let mut s = session(3, 4);
    s.resign(2).unwrap();
    while let Some(seat) = s.to_act() {
        s.enter(if seat == 0 { "add 2" } else { "add 1" }).unwrap();
        s.enter("done").unwrap();
    }
    let o = s.outcome().expect("over");
    let ending = s.ending(&Names::default()).expect("over");
    assert_eq!(ending.check(&o), Ok(()));
    assert_eq!(
        ending.why,
        "the game is over; seat 3 resigned before the end and so placed below everyone still playing"
    );
}

#[test]
fn resigning_at_more_seats_plays_on_and_ranks_the_resigned_last() {
    let mut s = session(4, 4);
    s.resign(1).unwrap();
    assert_eq!(
        refusal(&mut s, |s| s.resign(1)),
        Some("table/already_resigned")
    );
    refused(&mut s, |s| s.resign(4));
    s.enter("resign 4").unwrap();
    assert!(s.is_resigned(3) && !s.is_resigned(0));
    assert_eq!(s.resigned(), vec![1, 3]);
    assert_eq!(s.outcome(), None);
    // The game goes on; the resigned seat is still asked (someone moves for it), and
    // its moves cannot be taken back.
    let mut moves = 0;
    while let Some(seat) = s.to_act() {
        let add = if seat == 0 { "add 2" } else { "add 1" };
        s.enter(add).unwrap();
        assert_eq!(s.undoer(), (!s.is_resigned(seat)).then_some(seat));
        s.enter("done").unwrap();
        moves += 1;
    }
    assert!(moves > 4);
    let o = s.outcome().expect("over");
    assert!(o.check(4).is_ok());
    // Seat 1 added most; seat 3 next; then seat 4 (resigned later), then seat 2.
    assert_eq!(o.places, vec![0, 3, 1, 2]);
    assert_eq!(o.scores, vec![6, 3, 3, 3]);
}

#[test]
fn resigning_clears_what_may_be_taken_back() {
    let mut s = session(3, 5);
    s.enter("add 1").unwrap();
    s.resign(2).unwrap();
    assert_eq!(refusal(&mut s, |s| s.undo(0)), Some("table/resigned_since"));
}

#[test]
fn table_moves_parse_loosely_and_print_canonically() {
    for (text, mv) in [
        ("undo", TableMove::Undo),
        ("  UNDO ", TableMove::Undo),
        ("RESIGN 2", TableMove::Resign(1)),
        ("resign   1", TableMove::Resign(0)),
    ] {
        let parsed: TableMove = text.parse().unwrap();
        assert_eq!(parsed, mv);
        assert_eq!(parsed.to_string().parse::<TableMove>().unwrap(), mv);
    }
    assert_eq!(TableMove::Resign(1).to_string(), "resign 2");
    assert_eq!(TableMove::Undo.to_string(), "undo");
    for bad in ["resign 0", "resign x", "resign", "undo 2", "resign 1 2", ""] {
        let e = bad.parse::<TableMove>().expect_err(bad);
        assert!(e.to_string().contains("counted from 1"), "{e}");
    }
    let mut s = session(2, 6);
    let why = refused(&mut s, |s| s.enter("resign 0").map(|_| ()));
    assert_eq!(why.code(), "action/malformed");
    assert!(why.to_string().contains("cannot read `resign 0`"), "{why}");
}

#[test]
fn a_record_with_table_moves_replays_typed_and_as_a_session() {
    let config = TallyConfig { seats: Some(3) };
    let mut record = GameRecord::start::<Tally>(&config, 9);
    record.actions = ["add 1", "add 2", "undo", "roll", "add 1", "undo", "done"]
        .iter()
        .chain(&[
            "add 2", "resign 1", "done", "add 1", "undo", "add 2", "done",
        ])
        .map(|s| s.to_string())
        .collect();
    let typed: Tally = engine::replay(&record).unwrap();
    let session = Typed::<Tally>::default().replay_session(&record).unwrap();
    assert_eq!(session.state().state_json(), DynState::state_json(&typed));
    assert_eq!(session.resigned(), vec![0]);
    assert_eq!(typed.tallies[1], 2);
    assert_eq!(typed.tallies[2], 2);
    let dynamic = Typed::<Tally>::default().replay(&record).unwrap();
    assert_eq!(dynamic.state_json(), session.state().state_json());

    // Without the undos and the resignation, the same game.
    let mut plain = record.clone();
    plain.actions = ["add 1", "roll", "done", "add 2", "done", "add 2", "done"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(engine::replay::<Tally>(&plain).unwrap(), typed);

    // The log tells the table moves to everyone alike.
    let names = Names::for_viewer(Viewer::Seat(0));
    let log = Typed::<Tally>::default()
        .log(&record, Viewer::Seat(0), &names, 2)
        .unwrap();
    assert_eq!(log[0].index, 2);
    assert_eq!(log[0].seat, 0);
    assert_eq!(log[0].events[0].text, "you took back a move");
    assert_eq!(log[0].events[0].data["kind"], "took_back");
    assert_eq!(log[0].events[0].data["seat"], 0);
    let resign = &log[8 - 2];
    assert_eq!(resign.events[0].text, "you resigned");
    assert_eq!(resign.events[0].data["kind"], "resigned");

    // An undo where nothing may be taken back does not replay.
    let mut bad = record.clone();
    bad.actions.insert(4, "undo".into());
    let e = engine::replay::<Tally>(&bad).expect_err("refused");
    assert_eq!(e.index, 4);
}

#[test]
fn the_last_resignation_is_told_as_a_win() {
    let mut record = GameRecord::start::<Tally>(&TallyConfig { seats: Some(2) }, 1);
    record.actions = vec!["add 1".into(), "resign 2".into()];
    let names = Names::for_viewer(Viewer::Spectator);
    let log = Typed::<Tally>::default()
        .log(&record, Viewer::Spectator, &names, 0)
        .unwrap();
    let texts: Vec<&str> = log[1].events.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "seat 2 resigned",
            "the game is over: seat 1 won, everyone else resigned"
        ]
    );
}
