//! How good a position looks for a seat, for bots that stop searching before the end.
use crate::action::Action;
use crate::cards::{market_threshold, SpaceKind, MARKETS, STARS};
use crate::state::{DieLoc, Euphoria};
use crate::state::{Step, MAX_SEATS};
use engine::{InlineVec, Search, Seat};

/// The value for `seat` of the seats' `progress`: its margin over the best other seat.
pub(crate) fn value_among(progress: &[f64], seat: Seat) -> f64 {
    let best_other = (progress.iter().enumerate())
        .filter(|&(s, _)| s != seat)
        .map(|(_, &p)| p)
        .fold(f64::NEG_INFINITY, f64::max);
    let own = progress.get(seat).copied().unwrap_or(0.0);
    (0.5 + (own - best_other) / 20.0).clamp(0.0, 1.0)
}

impl Euphoria {
    /// Stars placed, plus small credit for what buys the next ones (resources and
    /// artifacts pay for markets and stars, commodities for retrieving, dice are
    /// workers): what [`engine::Search::evaluate`] compares between the seats.
    pub(crate) fn progress(&self, s: Seat) -> f64 {
        let p = &self.players[s];
        let stars = f64::from(STARS - p.stars_left);
        let commodities: u32 = p.supply[..4].iter().map(|&n| n.min(6)).sum();
        let resources: u32 = p.supply[4..].iter().map(|&n| n.min(6)).sum();
        let artifacts = p.hand_size().min(u32::from(p.morale));
        stars
            + 0.03 * f64::from(commodities)
            + 0.08 * f64::from(resources)
            + 0.1 * f64::from(artifacts)
            + 0.2 * p.owned_dice() as f64
            + self.building(s)
    }

    /// Credit for `s`'s workers on the construction sites of markets not yet built: a
    /// quarter of a star for having a hand in the market, plus up to half a star as it
    /// fills, less a fifth of a star for each of its workers there (they wait on the site
    /// until the market is built). Without it a search that looks a turn ahead sees only
    /// what a site costs, never the star, and keeps to the commodity areas for ever
    /// (`easy` games at 4 seats did not end). The variants tried are in docs/bots.md.
    fn building(&self, s: Seat) -> f64 {
        let mut workers = [0u32; MARKETS];
        let mut own = [0u32; MARKETS];
        for (o, p) in self.players.iter().enumerate() {
            for d in &p.dice {
                if let DieLoc::Board(space, _) = *d {
                    if let SpaceKind::Site(m, _) = space.kind() {
                        workers[m % MARKETS] += 1;
                        own[m % MARKETS] += u32::from(o == s);
                    }
                }
            }
        }
        let threshold = market_threshold(self.n()) as f64;
        (0..MARKETS)
            .filter(|&m| own[m] > 0 && !self.markets[m].built)
            .map(|m| {
                0.25 + 0.5 * (f64::from(workers[m]) / threshold).min(1.0) - 0.2 * f64::from(own[m])
            })
            .sum()
    }
}

impl Search for Euphoria {
    fn position_key(&self) -> Option<engine::PositionKey> {
        self.key()
    }
    fn proposal_to(&self, action: Action) -> Option<Seat> {
        match (action, self.stack.last()) {
            (Action::Offer(to), Some(Step::TradePartner)) => Some(to as Seat),
            _ => None,
        }
    }
    fn deal(&self, action: Action) -> engine::Deal {
        use engine::Deal;
        match action {
            a if a.builds_offer() || a == Action::Accept => Deal::Pursue,
            Action::Cancel | Action::Decline if self.in_trade() => Deal::Drop,
            _ => Deal::None,
        }
    }
    fn determinize<R: rand::Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self {
        self.resample(seat, rng)
    }
    fn rounds(&self) -> u32 {
        self.turns / self.n().max(1) as u32 + 1
    }
    fn holdings(&self, seat: Seat, moment: engine::Moment) -> Vec<engine::Holding> {
        self.held(seat, moment)
    }
    fn evaluate(&self, seat: Seat) -> f64 {
        if let Some(o) = self.final_outcome() {
            return o.reward(seat);
        }
        let progress: InlineVec<f64, MAX_SEATS> = (0..self.n()).map(|s| self.progress(s)).collect();
        value_among(&progress, seat)
    }
    /// Each seat's progress is worked out once for all the seats.
    fn evaluate_all(&self, out: &mut Vec<f64>) {
        out.clear();
        if let Some(o) = self.final_outcome() {
            out.extend((0..self.n()).map(|s| o.reward(s)));
            return;
        }
        let progress: InlineVec<f64, MAX_SEATS> = (0..self.n()).map(|s| self.progress(s)).collect();
        out.extend((0..self.n()).map(|s| value_among(&progress, s)));
        debug_assert!((0..self.n()).all(|s| out[s].to_bits() == self.evaluate(s).to_bits()));
    }
    /// Nothing is taken back yet (docs/rulings.md, "Taking back a move"): even a plain
    /// placement's effects were found to depend on what other seats cannot see, so the
    /// default (`false`) stands until each case is pinned down.
    fn may_take_back(&self, action: Action) -> bool {
        self.may_take_back_action(action)
    }
}
