//! Set-Up: a new game, and each new round (shuffle, deal five each, flip the first site).
use crate::cards::HAND;
use crate::state::{DropSite, Pile};
use crate::Config;
use engine::{rng_from_seed, ConfigError, Seat};
use rand::seq::SliceRandom;
use rand::Rng;

impl DropSite {
    /// Set-Up for a new game.
    pub(crate) fn setup(config: &Config, seed: u64) -> Result<DropSite, ConfigError> {
        config.validate()?;
        let mut rng = rng_from_seed(seed);
        let first = if config.random_first {
            rng.random_range(0..config.players)
        } else {
            config.first_player
        };
        let mut game = DropSite {
            config: config.clone(),
            rng,
            round: 0,
            round_first: first,
            to_act: None,
            deck: Vec::with_capacity(config.deck.size()),
            hands: vec![Vec::with_capacity(HAND); config.players],
            debts: vec![Vec::new(); config.players],
            piles: Vec::with_capacity(config.pile_limit()),
            totals: vec![0; config.players],
            history: Vec::new(),
        };
        game.start_round(first);
        Ok(game)
    }

    /// Set-Up (and "shuffle all the cards and start a new round", S16): shuffle, deal five
    /// each, flip the first drop site.
    pub(crate) fn start_round(&mut self, first: Seat) {
        self.round += 1;
        self.round_first = first;
        self.config.deck.fill(&mut self.deck);
        self.deck.shuffle(&mut self.rng);
        for hand in &mut self.hands {
            hand.clear();
            let at = self.deck.len() - HAND;
            hand.extend(self.deck.drain(at..));
            hand.sort_unstable();
        }
        for debt in &mut self.debts {
            debt.clear();
        }
        self.piles.clear();
        let flip = self.deck.pop().unwrap_or(0);
        self.piles.push(Pile::start(flip));
        self.to_act = Some(first);
    }
}
