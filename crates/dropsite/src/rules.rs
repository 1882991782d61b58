//! The rules of Drop Site, each named after the rulebook section it comes from.
use crate::action::{Action, Target};
use crate::cards::{Deck, HAND, UNMATCHED, VALUES};
use crate::state::{DropSite, Pile, RoundEnd, RoundResult};
use crate::Config;
use engine::{rng_from_seed, ConfigError, IllegalAction, Seat};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

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
    fn start_round(&mut self, first: Seat) {
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

    /// To Play: every distinct card value in hand, onto the debt, onto a new site, or onto
    /// each drop site that takes it. Sorted by card value.
    pub(crate) fn legal(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(seat) = self.to_act else { return };
        let mut last = u8::MAX;
        for &card in &self.hands[seat] {
            if card == last {
                continue;
            }
            last = card;
            out.push(Action::debt(card));
            out.push(Action::new_site(card));
            for (i, pile) in self.piles.iter().enumerate() {
                if pile.accepts(card) {
                    out.push(Action::on(card, i));
                }
            }
        }
    }

    /// Why `action` is refused now, if it is.
    pub(crate) fn refusal(&self, action: Action) -> Option<String> {
        let Some(seat) = self.to_act else {
            return Some("the game is over".into());
        };
        if !self.hands[seat].contains(&action.card) {
            // Seats are counted from 1 wherever a person reads them.
            return Some(format!("seat {} holds no {}", seat + 1, action.card));
        }
        match action.target {
            // "You MUST EITHER play a card on a drop site OR on your DEBT"; a new site takes
            // any number and is always possible (S3, S18).
            Target::Debt | Target::New => None,
            Target::Site(i) => {
                let Some(pile) = self.piles.get(i as usize) else {
                    return Some(format!(
                        "there is no drop site {} (there are {})",
                        i as usize + 1,
                        self.piles.len()
                    ));
                };
                if pile.closed {
                    Some(format!(
                        "drop site {} holds two zeros: no more cards may be played on it",
                        i + 1
                    ))
                } else if pile.accepts(action.card) {
                    None
                } else {
                    Some(format!("a card played on a drop site must be lower than its top card, and {} is not lower than {}", action.card, pile.top()))
                }
            }
        }
    }

    /// Applies a checked action.
    pub(crate) fn play(&mut self, action: Action) -> Result<(), IllegalAction> {
        if let Some(reason) = self.refusal(action) {
            return Err(IllegalAction::new(action, reason));
        }
        let Some(seat) = self.to_act else {
            return Err(IllegalAction::new(action, "the game is over"));
        };
        let hand = &mut self.hands[seat];
        if let Some(at) = hand.iter().position(|&c| c == action.card) {
            hand.remove(at);
        }
        match action.target {
            Target::Debt => self.debts[seat].push(action.card),
            Target::Site(i) => self.piles[i as usize].play(action.card),
            Target::New => {
                self.piles.push(Pile::start(action.card));
                // Round End: the 5th/6th/7th drop site ends the round at once, before the
                // player draws (S10). A site restarted on a sideways zero is no new pile (S6).
                if self.piles.len() == self.config.pile_limit() {
                    self.end_round(RoundEnd::PileLimit);
                    return Ok(());
                }
            }
        }
        // Draw back to five; Note 3: drawing the deck's last card ends the round at once.
        if let Some(card) = self.deck.pop() {
            let hand = &mut self.hands[seat];
            let at = hand.partition_point(|&c| c < card);
            hand.insert(at, card);
        }
        if self.deck.is_empty() {
            self.end_round(RoundEnd::DeckEmpty);
        } else {
            self.to_act = Some((seat + 1) % self.config.players);
        }
        Ok(())
    }

    /// Scoring, then either the end of the game (You Win, S14) or the next round with the
    /// first player one seat on (S13).
    fn end_round(&mut self, ended_by: RoundEnd) {
        let scores = score_round(&self.config.deck, &self.piles, &self.debts);
        for (total, s) in self.totals.iter_mut().zip(&scores) {
            *total += s;
        }
        self.history.push(RoundResult {
            round: self.round,
            ended_by,
            shown: self.piles.iter().map(|p| p.shows().collect()).collect(),
            debts: self.debts.clone(),
            scores,
        });
        if self.leader().is_some() {
            self.to_act = None;
        } else {
            self.start_round((self.round_first + 1) % self.config.players);
        }
    }

    /// Everything `seat` cannot see, shuffled back into the same places (S11: nobody sees
    /// a debt during the round, unless `open_debt` shows the owner their own).
    pub(crate) fn resample<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> DropSite {
        let mut game = self.clone();
        let mut unseen: Vec<u8> = game.deck.clone();
        for s in 0..game.config.players {
            if s != seat {
                unseen.extend_from_slice(&game.hands[s]);
            }
            if s != seat || !game.config.open_debt {
                unseen.extend_from_slice(&game.debts[s]);
            }
        }
        // Sorted first so the sample depends only on what `seat` sees, not on where the
        // hidden cards happen to lie.
        unseen.sort_unstable();
        unseen.shuffle(rng);
        let mut rest = unseen.into_iter();
        let mut refill = |slot: &mut Vec<u8>| {
            for c in slot.iter_mut() {
                *c = rest.next().unwrap_or(0);
            }
        };
        refill(&mut game.deck);
        for s in 0..game.config.players {
            if s != seat {
                refill(&mut game.hands[s]);
                game.hands[s].sort_unstable();
            }
            if s != seat || !game.config.open_debt {
                refill(&mut game.debts[s]);
            }
        }
        game.rng = engine::GameRng::seed_from_u64(rng.next_u64());
        game
    }
}

/// Scoring: each debt card scores its points once for every shown value it matches
/// (Note 1, S17), and -2 if it matches none.
pub fn score_round(deck: &Deck, piles: &[Pile], debts: &[Vec<u8>]) -> Vec<i64> {
    score_counts(deck, piles.iter().flat_map(Pile::shows), debts)
}

/// [`score_round`] from the values each drop site showed (as in a [`RoundResult`]).
pub fn score_shown(deck: &Deck, shown: &[Vec<u8>], debts: &[Vec<u8>]) -> Vec<i64> {
    score_counts(deck, shown.iter().flatten().copied(), debts)
}

fn score_counts(
    deck: &Deck,
    shown_values: impl Iterator<Item = u8>,
    debts: &[Vec<u8>],
) -> Vec<i64> {
    let mut shown = [0i64; VALUES];
    for v in shown_values {
        if let Some(n) = shown.get_mut(v as usize) {
            *n += 1;
        }
    }
    debts
        .iter()
        .map(|debt| {
            debt.iter()
                .map(|&c| match shown.get(c as usize) {
                    Some(&n) if n > 0 => deck.points(c) * n,
                    _ => UNMATCHED,
                })
                .sum()
        })
        .collect()
}
