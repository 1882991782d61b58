//! The full state of a game of Drop Site. Serialized, it is the position format.
use crate::cards::VALUES;
use crate::Config;
use engine::{GameRng, Seat, Viewer};
use serde::{Deserialize, Serialize};

/// One drop site: a face-up pile in the middle of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct Pile {
    /// The cards, bottom first.
    pub cards: Vec<u8>,
    /// A zero turned it sideways; a new site may be started on top (rulebook, Zeros).
    pub sideways: bool,
    /// A new site has been started on top of the sideways zero.
    pub restarted: bool,
    /// Holds two zeros: nothing more may be played on it (ruling S7).
    pub closed: bool,
}

impl Pile {
    /// A new drop site made with `card`; a zero makes it sideways at once (ruling S5).
    pub fn start(card: u8) -> Pile {
        let mut cards = Vec::with_capacity(8);
        cards.push(card);
        Pile {
            cards,
            sideways: card == 0,
            restarted: false,
            closed: false,
        }
    }

    /// The top card.
    pub fn top(&self) -> u8 {
        self.cards.last().copied().unwrap_or(0)
    }

    /// Whether `card` may be played here: strictly lower than the top (S9), anything to
    /// start a new site on a sideways zero, nothing on a closed pile.
    #[inline]
    pub fn accepts(&self, card: u8) -> bool {
        !self.closed && ((self.sideways && !self.restarted) || card < self.top())
    }

    /// Puts `card` on the pile (the caller checked [`Pile::accepts`]).
    pub fn play(&mut self, card: u8) {
        if self.sideways && !self.restarted {
            self.restarted = true;
            self.closed = card == 0;
        } else if card == 0 {
            if self.sideways {
                self.closed = true;
            } else {
                self.sideways = true;
            }
        }
        self.cards.push(card);
    }

    /// The values this pile shows for matching (ruling S4): its top; a sideways pile shows
    /// its zero and, once a new site is started on it, that site's top as well.
    pub fn shows(&self) -> impl Iterator<Item = u8> {
        let zero = self.sideways.then_some(0);
        let top = (!self.sideways || self.restarted).then(|| self.top());
        zero.into_iter().chain(top)
    }
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundEnd {
    /// The 5th/6th/7th drop site was made.
    PileLimit,
    /// The last card of the deck was drawn (Note 3).
    DeckEmpty,
}

/// A scored round, public once revealed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    pub round: u32,
    pub ended_by: RoundEnd,
    /// The values each drop site showed.
    pub shown: Vec<Vec<u8>>,
    /// Each seat's revealed debt.
    pub debts: Vec<Vec<u8>>,
    pub scores: Vec<i64>,
}

/// A game of Drop Site: rounds until someone reaches the target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DropSite {
    pub(crate) config: Config,
    pub(crate) rng: GameRng,
    /// The round being played, from 1.
    pub(crate) round: u32,
    /// Who started this round (ruling S13).
    pub(crate) round_first: Seat,
    /// `None` once the game is over.
    pub(crate) to_act: Option<Seat>,
    /// Face down; cards are drawn from the end.
    pub(crate) deck: Vec<u8>,
    /// Each hand, kept in value order.
    pub(crate) hands: Vec<Vec<u8>>,
    pub(crate) debts: Vec<Vec<u8>>,
    pub(crate) piles: Vec<Pile>,
    pub(crate) totals: Vec<i64>,
    pub(crate) history: Vec<RoundResult>,
}

impl DropSite {
    /// The points a card of value `card` scores.
    pub fn points(&self, card: u8) -> i64 {
        self.config.deck.points(card)
    }
    pub fn round(&self) -> u32 {
        self.round
    }
    pub fn round_first(&self) -> Seat {
        self.round_first
    }
    pub fn hand(&self, seat: Seat) -> &[u8] {
        &self.hands[seat]
    }
    pub fn debt(&self, seat: Seat) -> &[u8] {
        &self.debts[seat]
    }
    pub fn piles(&self) -> &[Pile] {
        &self.piles
    }
    pub fn deck_len(&self) -> usize {
        self.deck.len()
    }
    pub fn totals(&self) -> &[i64] {
        &self.totals
    }
    pub fn history(&self) -> &[RoundResult] {
        &self.history
    }

    /// A position built from explicit parts, for tests, puzzles and analysis: the deck is
    /// drawn from its end. The result is validated like a loaded state.
    ///
    /// # Errors
    /// Every invariant the position breaks (cards not conserved, a bad pile, ...).
    pub fn from_parts(
        config: Config,
        to_act: Seat,
        hands: Vec<Vec<u8>>,
        debts: Vec<Vec<u8>>,
        piles: Vec<Pile>,
        deck: Vec<u8>,
    ) -> Result<DropSite, Vec<String>> {
        config.validate().map_err(|e| e.problems)?;
        let players = config.players;
        let mut game = DropSite {
            rng: engine::rng_from_seed(0),
            round: 1,
            round_first: to_act,
            to_act: Some(to_act),
            deck,
            hands: hands
                .into_iter()
                .map(|mut h| {
                    h.sort_unstable();
                    h
                })
                .collect(),
            debts,
            piles,
            totals: vec![0; players],
            history: Vec::new(),
            config,
        };
        engine::Formats::validate(&game)?;
        game.round_first = to_act;
        Ok(game)
    }

    /// How many cards of each value the state holds, wherever they are.
    pub(crate) fn census(&self) -> [usize; VALUES] {
        let mut counts = [0usize; VALUES];
        let all = self
            .deck
            .iter()
            .chain(self.hands.iter().flatten())
            .chain(self.debts.iter().flatten())
            .chain(self.piles.iter().flat_map(|p| p.cards.iter()));
        for &c in all {
            if let Some(n) = counts.get_mut(c as usize) {
                *n += 1;
            }
        }
        counts
    }

    /// The sole leader at or above the target, or after the last round allowed, if there
    /// is one (rulings S14, S19).
    pub(crate) fn leader(&self) -> Option<Seat> {
        let best = *self.totals.iter().max()?;
        let leaders = self.totals.iter().filter(|&&t| t == best).count();
        let over =
            best >= self.config.target || self.history.len() as u32 >= self.config.max_rounds;
        (over && leaders == 1)
            .then(|| self.totals.iter().position(|&t| t == best))
            .flatten()
    }

    /// The winner, once the game is over (what every seat's view shows).
    pub(crate) fn winner(&self) -> Option<Seat> {
        self.to_act.is_none().then(|| self.leader()).flatten()
    }

    /// Whether `viewer` is the seat to act and sees the card it banks: its own debt is
    /// open to it under `open_debt`, and face down to it otherwise (ruling S11).
    pub(crate) fn sees_own_bank(&self, viewer: Viewer) -> bool {
        self.config.open_debt && self.to_act.is_some() && viewer.seat() == self.to_act
    }
}

/// The position key (see [`engine::PositionKey`]). Every action draws a card, so each is a
/// turn of its own: the turn is told by the round and the cards left in the deck, and the
/// position is what the seat to act sees (its hand, the sites, how many debt cards each
/// seat has, the scores).
impl DropSite {
    pub(crate) fn key(&self) -> Option<engine::PositionKey> {
        use std::hash::Hash;
        let me = self.to_act?;
        let mut h = engine::KeyHasher::default();
        (me, &self.hands[me], &self.piles, &self.totals).hash(&mut h);
        for d in &self.debts {
            d.len().hash(&mut h);
        }
        Some(engine::PositionKey {
            turn: u64::from(self.round) << 32 | (u64::from(u32::MAX) - self.deck.len() as u64),
            owner: me,
            position: h.finish(),
        })
    }
}
