//! Setting Up the Game: a new game from its options and a random stream.
use crate::cards::*;
use crate::config::{Choice, Config};
use crate::state::*;
use engine::{ConfigError, GameRng, Seat};
use rand::seq::SliceRandom;
use rand::Rng;

impl Distopia {
    /// Sets up a game (Setting Up the Game, steps 1-6).
    pub(crate) fn setup(config: &Config, mut rng: GameRng) -> Result<Distopia, ConfigError> {
        let (collaborator, mission) = config.choices()?;
        // Step 2: deal one character card to each player.
        let mut characters = [Character::Teacher, Character::Collector];
        characters.shuffle(&mut rng);
        // Step 5: the advanced cards, picked or at random.
        let collaborator = match collaborator {
            Choice::Absent => None,
            Choice::Random => Some(Collaborator::all()[rng.random_range(0..4)]),
            Choice::Fixed(c) => Some(c),
        }
        .map(|card| CollaboratorState { card, holder: None });
        let mission = match mission {
            Choice::Absent => None,
            Choice::Random => Some(Mission::all()[rng.random_range(0..4)]),
            Choice::Fixed(m) => Some(m),
        }
        .map(|card| MissionState {
            card,
            claimed_by: None,
        });
        // Steps 3-4: shuffle the 35 cards, deal 2 per district, re-deal on 3+ guards a side.
        let (districts, deck) = loop {
            let mut deck: Vec<Card> = Card::all().collect();
            deck.shuffle(&mut rng);
            let mut districts: [Vec<Card>; DISTRICTS] = Default::default();
            for pass in 0..2 {
                for d in districts.iter_mut() {
                    // A district whose first card is a guard gets no second card.
                    if pass == 1 && d.first().is_some_and(|c| c.is_guard()) {
                        continue;
                    }
                    if let Some(card) = deck.pop() {
                        d.push(card);
                    }
                }
            }
            let guards = |seat: Seat| guards_on_side(&districts, seat);
            if guards(0) < 3 && guards(1) < 3 {
                break (districts, deck);
            }
        };
        // Step 6: fewest guards goes first; a tie is decided at random (D8).
        let (g0, g1) = (guards_on_side(&districts, 0), guards_on_side(&districts, 1));
        let first = match g0.cmp(&g1) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Equal => rng.random_range(0..2),
        };
        let mut game = Distopia {
            config: config.clone(),
            characters,
            districts,
            deck,
            won: Default::default(),
            collaborator,
            mission,
            first,
            current: first,
            phase: Phase::Pick,
            turn: Turn::default(),
            turns: 1,
            rng,
            repeats: Repeats::default(),
            spots: Spots::default(),
        };
        game.locate_cards();
        Ok(game)
    }
}
