//! The rules of Drop Site, each named after the rulebook section it comes from.
use crate::action::{Action, Target};
use crate::cards::{Deck, UNMATCHED, VALUES};
use crate::config::Config;
use crate::refusal::Refusal;
use crate::state::{DropSite, Pile, RoundEnd, RoundResult};
use crate::view::DropSiteView;
use engine::{ConfigError, GameRules, IllegalAction, Outcome, Seat, Viewer};

impl DropSite {
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

    /// Whether `action` is legal now: the rule that refuses it, if one does.
    pub(crate) fn legality(&self, action: Action) -> Result<(), Refusal> {
        let Some(seat) = self.to_act else {
            return Err(Refusal::GameOver);
        };
        if !self.hands[seat].contains(&action.card) {
            return Err(Refusal::NotHeld {
                seat,
                card: action.card,
            });
        }
        match action.target {
            // "You MUST EITHER play a card on a drop site OR on your DEBT"; a new site takes
            // any number and is always possible (S3, S18).
            Target::Debt | Target::New => Ok(()),
            Target::Site(i) => {
                let site = i as usize;
                let Some(pile) = self.piles.get(site) else {
                    return Err(Refusal::NoSuchSite {
                        site,
                        sites: self.piles.len(),
                    });
                };
                if pile.closed {
                    Err(Refusal::SiteClosed { site })
                } else if pile.accepts(action.card) {
                    Ok(())
                } else {
                    Err(Refusal::NotLower {
                        card: action.card,
                        top: pile.top(),
                    })
                }
            }
        }
    }

    /// Applies `action` once it is checked; refused, nothing changes.
    pub(crate) fn play(&mut self, action: Action) -> Result<(), IllegalAction<Refusal>> {
        self.legality(action)
            .map_err(|reason| IllegalAction::new(action, reason))?;
        let Some(seat) = self.to_act else {
            return Err(IllegalAction::new(action, Refusal::GameOver));
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

impl GameRules for DropSite {
    type Config = Config;
    type Action = Action;
    type View = DropSiteView;
    type Refusal = Refusal;
    const NAME: &'static str = "dropsite";
    fn new(config: &Config, seed: u64) -> Result<Self, ConfigError> {
        DropSite::setup(config, seed)
    }
    fn config(&self) -> &Config {
        &self.config
    }
    fn seats(&self) -> usize {
        self.config.players
    }
    fn to_act(&self) -> Option<Seat> {
        self.to_act
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal(out);
    }
    fn is_legal(&self, action: Action) -> bool {
        self.legality(action).is_ok()
    }
    fn apply(&mut self, action: Action) -> Result<(), IllegalAction<Refusal>> {
        self.play(action)
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.to_act.is_some() {
            return None;
        }
        Some(Outcome::ranked(self.totals.clone(), &self.totals))
    }
    fn view(&self, viewer: Viewer) -> DropSiteView {
        self.make_view(viewer)
    }
}
