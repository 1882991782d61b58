//! Trading during your turn (spec 1.9, 5.10): an offer to one player, built item by
//! item, which that player accepts or declines. Under the rulebook ([`Trading::Rulebook`])
//! offers may be made before, between and after the turn's placements, of any goods in
//! any amounts, as many as `offers_per_turn` allows; the rule before issue 16
//! ([`Trading::OneOfferBeforePlacing`]) stays for the games made with it.

use crate::action::Action;
use crate::cards::{Good, GOODS};
use crate::config::Trading;
use crate::refusal::Refusal;
use crate::state::{Euphoria, Offer, Step};

/// Most items in one offer under [`Trading::OneOfferBeforePlacing`].
pub const OLD_OFFER_ITEMS: u32 = 4;

impl Euphoria {
    /// Why the current player may not start trading now.
    pub fn check_trade(&self) -> Result<(), Refusal> {
        let bound = match self.config.trading {
            Trading::Rulebook => self.config.offers_per_turn,
            Trading::OneOfferBeforePlacing => Some(1),
        };
        match bound {
            Some(b) if u32::from(self.turn.offers) >= b => Err(Refusal::OfferLimit(b)),
            _ => Ok(()),
        }
    }

    /// Starts trading: a partner is chosen next.
    pub(crate) fn open_trade(&mut self) {
        self.turn.offers = self.turn.offers.saturating_add(1);
        self.stack.push(Step::TradePartner);
    }

    /// Why the current player may not open an offer to `to`.
    pub fn check_offer(&self, to: u8) -> Result<(), Refusal> {
        if to as usize >= self.n() {
            return Err(Refusal::NoSuchSeat(to));
        }
        if to == self.current {
            return Err(Refusal::SelfTrade);
        }
        Ok(())
    }

    /// Opens an offer to `to`.
    pub(crate) fn open_offer(&mut self, to: u8) {
        self.stack.pop();
        self.stack.push(Step::TradeBuild(Offer {
            partner: to,
            give: [0; 13],
            ask: [0; 13],
        }));
    }

    /// Why `item` (give or ask) may not be added to `offer`.
    pub fn check_offer_item(&self, offer: &Offer, item: Action) -> Result<(), Refusal> {
        self.check_offer_item_in(&Offering::new(self, offer), item)
    }

    /// [`Euphoria::check_offer_item`] with what does not depend on the item worked out
    /// once (the legal sweep asks it for every good, given and asked).
    pub(crate) fn check_offer_item_in(&self, ctx: &Offering, item: Action) -> Result<(), Refusal> {
        let offer = &ctx.offer;
        if self.config.trading == Trading::OneOfferBeforePlacing && offer.items() >= OLD_OFFER_ITEMS
        {
            return Err(Refusal::OfferItems);
        }
        match item {
            Action::Give(g) | Action::Ask(g)
                if offer.give[g.index()] == u8::MAX || offer.ask[g.index()] == u8::MAX =>
            {
                Err(Refusal::GoodMax)
            }
            Action::Give(g) => {
                if offer.ask[g.index()] > 0 {
                    return Err(Refusal::AlreadyAsked(g));
                }
                if ctx.mine[g.index()] <= offer.give[g.index()] as u32 {
                    return Err(if offer.give[g.index()] == 0 {
                        Refusal::NothingToGive {
                            good: g,
                            more: false,
                        }
                    } else {
                        Refusal::NothingToGive {
                            good: g,
                            more: true,
                        }
                    });
                }
                Ok(())
            }
            Action::Ask(g) => {
                if offer.give[g.index()] > 0 {
                    return Err(Refusal::AlreadyGiven(g));
                }
                // Their card kinds are secret: only the hand size limits what you ask.
                if g.is_artifact() {
                    if ctx.their_hand <= ctx.asked_cards {
                        return Err(Refusal::PartnerCards {
                            partner: offer.partner,
                        });
                    }
                } else if ctx.theirs[g.index()] <= offer.ask[g.index()] as u32 {
                    return Err(Refusal::PartnerLacks {
                        partner: offer.partner,
                        good: g,
                        more: offer.ask[g.index()] > 0,
                    });
                }
                Ok(())
            }
            _ => Err(Refusal::NotOfferItem),
        }
    }

    /// Adds one item to the offer being built.
    pub(crate) fn add_offer_item(&mut self, item: Action) {
        if let Some(Step::TradeBuild(o)) = self.stack.last_mut() {
            match item {
                Action::Give(g) => o.give[g.index()] += 1,
                Action::Ask(g) => o.ask[g.index()] += 1,
                _ => {}
            }
        }
    }

    /// Why the partner may not accept `offer`.
    pub fn check_accept(&self, offer: &Offer) -> Result<(), Refusal> {
        let them = &self.players[offer.partner as usize];
        for g in Good::ALL {
            if them.count(g) < offer.ask[g.index()] as u32 {
                return Err(Refusal::LacksAsked(g));
            }
        }
        Ok(())
    }

    /// The goods change hands at once.
    pub(crate) fn accept_offer(&mut self) {
        let Some(Step::TradeAnswer(o)) = self.stack.pop() else {
            return;
        };
        let me = self.current as usize;
        let them = o.partner as usize;
        for g in Good::ALL {
            let give = o.give[g.index()] as u32;
            let ask = o.ask[g.index()] as u32;
            self.players[me].remove(g, give);
            self.players[them].add(g, give);
            self.players[them].remove(g, ask);
            self.players[me].add(g, ask);
        }
    }
}

impl Euphoria {
    /// Whether the turn owner stops after the last placement to trade or `end` the turn
    /// (the rulebook's trading, while an offer is still allowed).
    pub fn may_trade_after_placing(&self) -> bool {
        self.config.trading == Trading::Rulebook && self.check_trade().is_ok()
    }
}

/// What an offer's item checks need, worked out once per offer: the goods of both sides
/// and the artifact cards asked so far.
pub(crate) struct Offering {
    offer: Offer,
    /// The active player's goods, by [`Good::index`].
    mine: [u32; GOODS],
    /// The partner's goods, by [`Good::index`].
    theirs: [u32; GOODS],
    /// The partner's hand size.
    their_hand: u32,
    /// Artifact cards the offer asks for.
    asked_cards: u32,
}

impl Offering {
    /// Whether the offer may take `item` (give or ask), for an offer not already full
    /// under the old rule: [`Euphoria::check_offer_item_in`] as a yes or no.
    pub(crate) fn takes(&self, item: Action) -> bool {
        let (Action::Give(g) | Action::Ask(g)) = item else {
            return false;
        };
        let i = g.index();
        let (give, ask) = (self.offer.give[i], self.offer.ask[i]);
        if give == u8::MAX || ask == u8::MAX {
            return false;
        }
        match item {
            Action::Give(_) => ask == 0 && self.mine[i] > u32::from(give),
            _ if give > 0 => false,
            _ if g.is_artifact() => self.their_hand > self.asked_cards,
            _ => self.theirs[i] > u32::from(ask),
        }
    }

    pub(crate) fn new(g: &Euphoria, offer: &Offer) -> Offering {
        let me = &g.players[g.current as usize];
        let them = &g.players[offer.partner as usize];
        Offering {
            offer: *offer,
            mine: std::array::from_fn(|i| me.count(Good::ALL[i])),
            theirs: std::array::from_fn(|i| them.count(Good::ALL[i])),
            their_hand: them.hand_size(),
            asked_cards: Good::ARTIFACT_KINDS
                .iter()
                .map(|k| offer.ask[k.index()] as u32)
                .sum(),
        }
    }
}
