//! A checked way to build a position for a test, a puzzle or a lesson.
//!
//! ```
//! use distopia::Builder;
//! let mut b = Builder::empty();
//! b.to_act = 1;
//! let game = b.build(7).expect("an empty table with every card in the deck");
//! assert_eq!(game.current(), 1);
//! ```
use crate::cards::*;
use crate::config::Config;
use crate::state::*;
use engine::Seat;

/// An explicit position, for tests and puzzles: `Distopia::from_setup`.
#[derive(Clone, Debug, PartialEq)]
pub struct Builder {
    /// The options the position belongs to.
    pub config: Config,
    /// Seat 0's and seat 1's character.
    pub characters: [Character; 2],
    /// District stacks per ring index, bottom first.
    pub districts: [Vec<Card>; DISTRICTS],
    /// The top cards of the deck, top first. Every card placed nowhere else goes below
    /// them in card order.
    pub deck_top: Vec<Card>,
    /// Each seat's won pile.
    pub won: [Vec<Card>; 2],
    /// The collaborator in play, if any.
    pub collaborator: Option<CollaboratorState>,
    /// The mission in play, if any.
    pub mission: Option<MissionState>,
    /// The seat to pick a district next.
    pub to_act: Seat,
}

impl Builder {
    /// An empty table in the standard game: seat 0 the Teacher, seat 1 the Collector.
    pub fn empty() -> Builder {
        Builder {
            config: Config::default(),
            characters: [Character::Teacher, Character::Collector],
            districts: Default::default(),
            deck_top: Vec::new(),
            won: Default::default(),
            collaborator: None,
            mission: None,
            to_act: 0,
        }
    }
}

impl Builder {
    /// The position, checked like a loaded state.
    ///
    /// # Errors
    /// Every problem with the position (cards missing twice, contraband on a guard, …).
    pub fn build(self, seed: u64) -> Result<Distopia, Vec<String>> {
        Distopia::from_setup(self, seed)
    }
}

impl Distopia {
    /// A game at an explicit position, the `to_act` seat about to pick a district.
    ///
    /// # Errors
    /// Every problem with the position (cards missing twice, contraband on a guard, …).
    pub fn from_setup(setup: Builder, seed: u64) -> Result<Distopia, Vec<String>> {
        let mut placed = [false; CARDS];
        let mut problems = Vec::new();
        let listed = setup
            .districts
            .iter()
            .chain(setup.won.iter())
            .flatten()
            .chain(setup.deck_top.iter());
        for &card in listed {
            match placed.get_mut(card.0 as usize) {
                Some(p) if !*p => *p = true,
                Some(_) => problems.push(format!("card {card} is placed twice")),
                None => problems.push(format!("card id {} does not exist", card.0)),
            }
        }
        if setup.to_act > 1 {
            problems.push(format!("seat {} does not exist", setup.to_act));
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut deck: Vec<Card> = Card::all()
            .filter(|c| !placed[c.0 as usize])
            .rev()
            .collect();
        deck.extend(setup.deck_top.iter().rev());
        let mut game = Distopia {
            config: setup.config,
            characters: setup.characters,
            districts: setup.districts,
            deck,
            won: setup.won,
            collaborator: setup.collaborator,
            mission: setup.mission,
            first: setup.to_act,
            current: setup.to_act,
            phase: Phase::Pick,
            turn: Turn::default(),
            turns: 1,
            rng: engine::rng_from_seed(seed),
            repeats: Repeats::default(),
            spots: Spots::default(),
        };
        game.locate_cards();
        engine::no_problems(game.problems())?;
        Ok(game)
    }
}
