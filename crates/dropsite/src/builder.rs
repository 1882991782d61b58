//! A checked way to build a position for a test, a puzzle or a lesson.
//!
//! ```
//! use dropsite::Builder;
//! let game = Builder::new(2)
//!     .hand(0, &[1, 2, 3, 4, 5])
//!     .hand(1, &[6, 7, 8, 9, 10])
//!     .pile(&[12, 11])
//!     .deck_top(&[0])
//!     .build()
//!     .expect("a position that keeps every rule");
//! assert_eq!(game.piles()[0].top(), 11);
//! ```
use crate::state::{DropSite, Pile};
use crate::Config;
use engine::Seat;

/// A position given by its parts; [`Builder::build`] checks it like a loaded state. The
/// cards not placed anywhere form the deck, under the cards given by [`Builder::deck_top`].
#[derive(Clone, Debug)]
pub struct Builder {
    config: Config,
    to_act: Seat,
    hands: Vec<Vec<u8>>,
    debts: Vec<Vec<u8>>,
    piles: Vec<Vec<u8>>,
    deck_top: Vec<u8>,
    /// What a setter could not do (a seat the table does not have).
    problems: Vec<String>,
}

impl Builder {
    /// An empty table of `players` with the standard options; seat 1 is to act.
    pub fn new(players: usize) -> Builder {
        Builder::with_config(Config {
            players,
            ..Config::default()
        })
    }

    /// An empty table with these options.
    pub fn with_config(config: Config) -> Builder {
        let players = config.players;
        Builder {
            config,
            to_act: 0,
            hands: vec![Vec::new(); players],
            debts: vec![Vec::new(); players],
            piles: Vec::new(),
            deck_top: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// The seat to act (counted from 0).
    pub fn to_act(mut self, seat: Seat) -> Builder {
        self.to_act = seat;
        self
    }

    /// The hand of `seat`.
    pub fn hand(mut self, seat: Seat, cards: &[u8]) -> Builder {
        match self.hands.get_mut(seat) {
            Some(h) => *h = cards.to_vec(),
            None => self.no_seat(seat, "hand"),
        }
        self
    }

    /// The debt of `seat`.
    pub fn debt(mut self, seat: Seat, cards: &[u8]) -> Builder {
        match self.debts.get_mut(seat) {
            Some(d) => *d = cards.to_vec(),
            None => self.no_seat(seat, "debt"),
        }
        self
    }

    /// One more drop site, its cards bottom first, played in that order.
    pub fn pile(mut self, cards: &[u8]) -> Builder {
        self.piles.push(cards.to_vec());
        self
    }

    /// The next cards the deck gives, the last one first.
    pub fn deck_top(mut self, cards: &[u8]) -> Builder {
        self.deck_top = cards.to_vec();
        self
    }

    fn no_seat(&mut self, seat: Seat, what: &str) {
        self.problems.push(format!(
            "a {what} for seat {}, at a table of {}",
            seat + 1,
            self.config.players
        ));
    }

    /// The position, checked.
    ///
    /// # Errors
    /// Every rule the position breaks: a seat out of range, a pile that could not have
    /// been played, more copies of a card than the deck has, and whatever
    /// [`engine::Formats::validate`] finds.
    pub fn build(self) -> Result<DropSite, Vec<String>> {
        let mut problems = self.problems.clone();
        if self.to_act >= self.config.players {
            problems.push(format!(
                "seat {} is to act at a table of {}",
                self.to_act + 1,
                self.config.players
            ));
        }
        let mut piles = Vec::with_capacity(self.piles.len());
        for (i, cards) in self.piles.iter().enumerate() {
            let Some((&first, rest)) = cards.split_first() else {
                problems.push(format!("drop site {} has no card", i + 1));
                continue;
            };
            let mut pile = Pile::start(first);
            for &c in rest {
                if !pile.accepts(c) {
                    problems.push(format!(
                        "drop site {} {cards:?}: {c} cannot be played on it",
                        i + 1
                    ));
                    break;
                }
                pile.play(c);
            }
            piles.push(pile);
        }
        let mut left = Vec::with_capacity(self.config.deck.size());
        self.config.deck.fill(&mut left);
        let placed = self
            .hands
            .iter()
            .chain(&self.debts)
            .chain(&self.piles)
            .flatten()
            .chain(&self.deck_top);
        for &c in placed {
            match left.iter().position(|&x| x == c) {
                Some(at) => {
                    left.remove(at);
                }
                None => problems.push(format!(
                    "more {c}s than the deck's {}",
                    self.config.deck.copies(c)
                )),
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        left.extend_from_slice(&self.deck_top);
        DropSite::from_parts(
            self.config,
            self.to_act,
            self.hands,
            self.debts,
            piles,
            left,
        )
    }
}
