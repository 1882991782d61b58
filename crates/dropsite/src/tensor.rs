//! Drop Site as numbers: action indices and the observation tensor (layout in
//! `docs/python.md`).
use crate::action::{Action, Target};
use crate::cards::{HAND, VALUES};
use crate::state::Pile;
use crate::view::{DropSiteView, PileView};
use crate::{Config, DropSite};
use engine::tensor::Writer;
use engine::{Seat, Tensor};

/// Features per drop site slot: made, top value (13), values shown (13), sideways,
/// restarted, closed.
const PILE: usize = 1 + 2 * VALUES + 3;

/// Targets per card value: debt, new, then each drop site a card can be played on (one
/// fewer than the limit, since making the last one ends the round).
fn targets(config: &Config) -> usize {
    config.pile_limit() + 1
}

fn counts(section: &mut [f32], cards: &[u8]) {
    for &c in cards {
        if let Some(x) = section.get_mut(c as usize) {
            *x += 1.0;
        }
    }
}

/// One drop site's features, whether read from a view or from the state: there is a site,
/// its top card, the values it shows, and its flags (sideways, restarted, closed).
fn pile_features(
    features: &mut [f32],
    cards: &[u8],
    shows: impl Iterator<Item = u8>,
    [sideways, restarted, closed]: [bool; 3],
) {
    features[0] = 1.0;
    if let Some(&top) = cards.last() {
        features[1 + (top as usize).min(VALUES - 1)] = 1.0;
    }
    for v in shows {
        features[1 + VALUES + (v as usize).min(VALUES - 1)] = 1.0;
    }
    features[PILE - 3] = f32::from(sideways);
    features[PILE - 2] = f32::from(restarted);
    features[PILE - 1] = f32::from(closed);
}

/// A drop site as an observation reads it: the same from a view's site and the state's.
trait SiteSeen {
    fn cards(&self) -> &[u8];
    /// The values it shows for matching at round end.
    fn shows(&self) -> impl Iterator<Item = u8>;
    /// Sideways, restarted, closed.
    fn flags(&self) -> [bool; 3];
}

impl SiteSeen for PileView {
    fn cards(&self) -> &[u8] {
        &self.cards
    }
    fn shows(&self) -> impl Iterator<Item = u8> {
        self.shows.iter().copied()
    }
    fn flags(&self) -> [bool; 3] {
        [self.sideways, self.restarted, self.closed]
    }
}

impl SiteSeen for Pile {
    fn cards(&self) -> &[u8] {
        &self.cards
    }
    fn shows(&self) -> impl Iterator<Item = u8> {
        Pile::shows(self)
    }
    fn flags(&self) -> [bool; 3] {
        [self.sideways, self.restarted, self.closed]
    }
}

/// What an observation is made of, read from a view ([`Tensor::encode`]) or from the
/// state ([`Tensor::observe`]): the viewer's own cards, then the table as all see it.
struct Seen<'a, D, P> {
    /// The viewer's seat, from which seats are counted (0 for a spectator).
    me: usize,
    hand: &'a [u8],
    /// The viewer's own debt, when the table shows it.
    own_debt: &'a [u8],
    /// Cards in each seat's debt.
    debt_sizes: D,
    totals: &'a [i64],
    to_act: Option<Seat>,
    round_first: Seat,
    piles: &'a [P],
    deck_size: usize,
    round: u32,
    /// Cards in all hands.
    in_hands: usize,
}

impl<D: Iterator<Item = usize>, P: SiteSeen> Seen<'_, D, P> {
    fn write(self, config: &Config, out: &mut [f32]) {
        let players = config.players;
        let relative = |s: usize| (s + players - self.me) % players;
        let deck = config.deck.size().max(1) as f32;
        let mut w = Writer::new(out);
        counts(w.section(VALUES), self.hand);
        counts(w.section(VALUES), self.own_debt);
        let debts = w.section(players);
        for (s, n) in self.debt_sizes.enumerate().take(players) {
            debts[relative(s)] = n as f32 / deck;
        }
        let totals = w.section(players);
        for (s, &t) in self.totals.iter().enumerate().take(players) {
            totals[relative(s)] = t as f32 / config.target as f32;
        }
        w.one_hot(players, self.to_act.map(relative));
        w.one_hot(players, Some(relative(self.round_first)));
        for slot in 0..config.pile_limit() {
            let features = w.section(PILE);
            if let Some(pile) = self.piles.get(slot) {
                pile_features(features, pile.cards(), pile.shows(), pile.flags());
            }
        }
        let seen = w.section(VALUES);
        for pile in self.piles {
            counts(seen, pile.cards());
        }
        w.push(self.deck_size as f32 / deck);
        w.push(self.round as f32 / config.max_rounds as f32);
        w.push(self.in_hands as f32 / (HAND * players) as f32);
        w.push(f32::from(self.to_act.is_none()));
    }
}

impl Tensor for DropSite {
    fn num_distinct_actions(config: &Config) -> usize {
        VALUES * targets(config)
    }

    fn action_index(config: &Config, action: Action) -> Option<usize> {
        let t = targets(config);
        let target = match action.target {
            Target::Debt => 0,
            Target::New => 1,
            Target::Site(i) => 2 + i as usize,
        };
        ((action.card as usize) < VALUES && target < t).then_some(action.card as usize * t + target)
    }

    fn index_action(config: &Config, index: usize) -> Option<Action> {
        let t = targets(config);
        let card = u8::try_from(index / t)
            .ok()
            .filter(|&c| (c as usize) < VALUES)?;
        Some(match index % t {
            0 => Action::debt(card),
            1 => Action::new_site(card),
            site => Action::on(card, site - 2),
        })
    }

    fn observation_len(config: &Config) -> usize {
        2 * VALUES + 4 * config.players + PILE * config.pile_limit() + VALUES + 4
    }

    fn encode(config: &Config, view: &DropSiteView, out: &mut [f32]) {
        let seen = Seen {
            // Seats are counted from the viewer: entry 0 is the viewer (seat 0 for a
            // spectator).
            me: view.viewer.seat().unwrap_or(0),
            hand: view.hand.as_deref().unwrap_or_default(),
            own_debt: view.own_debt.as_deref().unwrap_or_default(),
            debt_sizes: view.debt_sizes.iter().copied(),
            totals: &view.totals,
            to_act: view.to_act,
            round_first: view.round_first,
            piles: &view.piles,
            deck_size: view.deck_size,
            round: view.round,
            in_hands: view.hand_sizes.iter().sum(),
        };
        seen.write(config, out);
    }

    /// The same numbers as `encode` of the viewer's view (the tensor check holds them
    /// equal), read from the state: the view copies every scored round, so an
    /// observation built through it cost more the longer a game ran.
    fn observe(&self, viewer: engine::Viewer, out: &mut [f32]) {
        let config = &self.config;
        let seat = viewer.seat().filter(|&s| s < config.players);
        let seen = Seen {
            me: viewer.seat().unwrap_or(0),
            hand: seat.map_or(&[], |s| &self.hands[s]),
            own_debt: seat
                .filter(|_| config.open_debt)
                .map_or(&[][..], |s| &self.debts[s]),
            debt_sizes: self.debts.iter().map(Vec::len),
            totals: &self.totals,
            to_act: self.to_act,
            round_first: self.round_first,
            piles: &self.piles,
            deck_size: self.deck.len(),
            round: self.round,
            in_hands: self.hands.iter().map(Vec::len).sum(),
        };
        seen.write(config, out);
    }

    fn max_game_length(config: &Config) -> Option<usize> {
        // Every action but a round's last draws a card, and a round deals five a seat and
        // flips one before play.
        Some(config.max_rounds as usize * config.deck.size().saturating_sub(HAND * config.players))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::Viewer;

    #[test]
    fn indices_cover_every_action_once() {
        for players in 2..=4 {
            let config = Config {
                players,
                ..Config::default()
            };
            let n = DropSite::num_distinct_actions(&config);
            for i in 0..n {
                let a = DropSite::index_action(&config, i).expect("in range");
                assert_eq!(DropSite::action_index(&config, a), Some(i), "{a}");
            }
            assert_eq!(DropSite::index_action(&config, n), None);
            // A site the table can never have at play time has no index.
            let past = Action::on(5, config.pile_limit() - 1);
            assert_eq!(DropSite::action_index(&config, past), None);
        }
    }

    #[test]
    fn the_viewer_comes_first() {
        let config = Config::default();
        let game = <DropSite as engine::GameRules>::new(&config, 3).expect("valid");
        let mut a = vec![0.0; DropSite::observation_len(&config)];
        let mut b = a.clone();
        game.observe(Viewer::Seat(0), &mut a);
        game.observe(Viewer::Seat(1), &mut b);
        // Seat 0 is to act: first in its own to-act section, second in seat 1's.
        let to_act = 2 * VALUES + 2 * config.players;
        assert_eq!(&a[to_act..to_act + 2], &[1.0, 0.0]);
        assert_eq!(&b[to_act..to_act + 2], &[0.0, 1.0]);
        assert_eq!(a[..VALUES].iter().sum::<f32>(), HAND as f32);
    }
}
