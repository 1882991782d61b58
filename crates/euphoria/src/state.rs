//! The full game state: board, players, decks, and the stack of pending steps.

use crate::cards::{Faction, Good, GoodClass, Space, ARTIFACTS, DICE, MARKETS, SUPPLY};
use crate::config::Config;
use engine::{GameRng, Seat};
use serde::{Deserialize, Serialize};

/// Where one worker die is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DieLoc {
    /// Not yet gained (or lost to the knowledge check): beside the board.
    #[serde(alias = "Reserve")]
    Reserve,
    /// Available in front of its owner, showing a value.
    #[serde(alias = "Ready")]
    Ready(u8),
    /// On an action space, showing a value.
    #[serde(alias = "Board")]
    Board(Space, u8),
}

impl DieLoc {
    /// The value shown, for a die in play.
    pub fn value(self) -> Option<u8> {
        match self {
            DieLoc::Reserve => None,
            DieLoc::Ready(v) | DieLoc::Board(_, v) => Some(v),
        }
    }
}

/// A recruit card a player holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldRecruit {
    /// Recruit number 1..=48.
    pub id: u8,
    /// Face up (active).
    pub up: bool,
    /// Carries one of its owner's stars (tier 4).
    pub star: bool,
}

/// How a player's dilemma stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DilemmaState {
    #[serde(alias = "Unresolved")]
    Unresolved,
    /// Resolved by drawing recruits.
    #[serde(alias = "Rebelled")]
    Rebelled,
    /// Resolved by placing a star on the card.
    #[serde(alias = "Conformed")]
    Conformed,
}

/// One player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub dice: [DieLoc; DICE],
    pub knowledge: u8,
    pub morale: u8,
    /// Commodities and resources, indexed by [`Good::index`] (0..7).
    pub supply: [u32; SUPPLY],
    /// Artifact cards in hand, counted by kind (0..6).
    pub hand: [u8; ARTIFACTS],
    pub stars_left: u8,
    pub recruits: Vec<HeldRecruit>,
    /// The four recruits dealt at setup, until the choice is made.
    pub dealt: Vec<u8>,
    /// Dilemma card index 0..6.
    pub dilemma: u8,
    pub dilemma_state: DilemmaState,
}

impl Player {
    /// Total artifact cards in hand.
    pub fn hand_size(&self) -> u32 {
        self.hand.iter().map(|&c| c as u32).sum()
    }

    /// How many of `g` the player holds.
    pub fn count(&self, g: Good) -> u32 {
        match g.artifact_index() {
            Some(a) => self.hand[a] as u32,
            None => self.supply[g.index()],
        }
    }

    /// Adds `n` of `g`.
    pub fn add(&mut self, g: Good, n: u32) {
        match g.artifact_index() {
            Some(a) => self.hand[a] += n as u8,
            None => self.supply[g.index()] += n,
        }
    }

    /// Removes `n` of `g` (the caller checked it is held).
    pub fn remove(&mut self, g: Good, n: u32) {
        match g.artifact_index() {
            Some(a) => self.hand[a] = self.hand[a].saturating_sub(n as u8),
            None => self.supply[g.index()] = self.supply[g.index()].saturating_sub(n),
        }
    }

    /// How many goods of a class the player holds.
    pub fn class_count(&self, c: GoodClass) -> u32 {
        Good::ALL
            .iter()
            .filter(|g| c.accepts(**g))
            .map(|g| self.count(*g))
            .sum()
    }

    /// Dice the player owns (available or on the board).
    pub fn owned_dice(&self) -> usize {
        self.dice
            .iter()
            .filter(|d| !matches!(d, DieLoc::Reserve))
            .count()
    }

    /// Whether the player has a face-up recruit of `f`.
    pub fn has_active(&self, f: Faction) -> bool {
        self.recruits
            .iter()
            .any(|r| r.up && crate::cards::recruit(r.id).faction == f)
    }
}

/// One of the six market slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Market {
    /// Tile index 0..18 (hidden while not built).
    pub tile: u8,
    pub built: bool,
    /// Bitmask of seats with a star on the tile.
    pub stars: u8,
}

/// Where a star goes when a space offers a choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StarTarget {
    #[serde(alias = "Territory")]
    Territory,
    #[serde(alias = "Market")]
    Market(u8),
}

/// The artifact-market payment in progress ("3 any or 2 identical").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetPayment {
    pub first: Option<Good>,
    pub paid: u8,
    /// Courthouse penalty: a pair does not complete the payment.
    pub need_three: bool,
    /// Jacko the Archivist (2nd ed.) at the Ark: one card may complete the payment.
    pub single: bool,
}

/// One good still to pay: what the space prints and what the payer's recruits let them
/// pay instead (bitmasks over [`Good::index`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PayUnit {
    /// The goods the space prints for this unit.
    pub printed: u16,
    /// The goods that may pay it (the printed ones and the recruits' substitutes).
    pub accepts: u16,
}

/// A benefit chosen by a recruit's owner (`choose ...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Boon {
    /// One more of a good.
    #[serde(alias = "Good")]
    Good(Good),
    /// Morale +1.
    #[serde(alias = "Morale")]
    Morale,
    /// Knowledge −1.
    #[serde(alias = "LessKnowledge")]
    LessKnowledge,
}

impl Boon {
    /// The bit of this boon in a [`Step::Choose`] menu.
    pub fn bit(self) -> u16 {
        match self {
            Boon::Good(g) => 1 << g.index(),
            Boon::Morale => 1 << 13,
            Boon::LessKnowledge => 1 << 14,
        }
    }

    /// Every boon, in menu order.
    pub fn all() -> impl Iterator<Item = Boon> {
        Good::ALL
            .into_iter()
            .map(Boon::Good)
            .chain([Boon::Morale, Boon::LessKnowledge])
    }
}

/// A trade offer being built or answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    pub partner: u8,
    /// What the active player gives, by good index.
    pub give: [u8; 13],
    /// What the active player asks for, by good index.
    pub ask: [u8; 13],
}

impl Offer {
    /// Items in the offer.
    pub fn items(&self) -> u32 {
        self.give
            .iter()
            .chain(self.ask.iter())
            .map(|&n| n as u32)
            .sum()
    }
}

/// One pending step of the current turn. Decision steps wait for a seat; the others run
/// automatically. The stack's top runs first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Step {
    // --- setup (5.1)
    /// Decision: `seat` keeps one dealt recruit face up.
    #[serde(alias = "ChooseUp")]
    ChooseUp(u8),
    /// Decision: `seat` keeps one dealt recruit face down.
    #[serde(alias = "ChooseDown")]
    ChooseDown(u8),
    /// Auto: return unchosen recruits, roll dice, pick the first player.
    #[serde(alias = "FinishSetup")]
    FinishSetup,
    // --- placement (5.3)
    /// Decision: pay the chosen part of a cost, one good at a time.
    #[serde(alias = "Pay")]
    Pay(Vec<PayUnit>),
    /// Decision: pay an artifact market.
    #[serde(alias = "PaySet")]
    PaySet(SetPayment),
    /// Auto: the worker on `space` other than the placed one is bumped.
    #[serde(alias = "Bump")]
    Bump { seat: u8, die: u8 },
    /// Auto: the benefit of the space.
    #[serde(alias = "Benefit")]
    Benefit(Space),
    /// Decision: tunnel mouth, resource or artifact.
    #[serde(alias = "TunnelTake")]
    TunnelTake(Faction),
    /// Decision: Sky Lounge, `n` resources still to choose.
    #[serde(alias = "ChooseResource")]
    ChooseResource(u8),
    /// Decision: where an artifact-market star goes.
    #[serde(alias = "StarChoice")]
    StarChoice(Faction),
    /// Auto: allegiance +1 (after a star choice).
    #[serde(alias = "Advance")]
    Advance(Faction),
    /// Auto: check market completion.
    #[serde(alias = "Markets")]
    Markets,
    /// Auto: stars for the contributors of a just-completed market. Completion now places
    /// them at once; the step stays so that states saved with it pending still load.
    #[serde(alias = "MarketStars")]
    MarketStars { market: u8, seats: u8 },
    /// Auto: the placement is over; doubles or end of turn.
    #[serde(alias = "AfterPlacement")]
    AfterPlacement,
    /// Decision: place another die of the doubled value, or end the turn.
    #[serde(alias = "Doubles")]
    Doubles,
    /// Decision: the placements are over; trade, or `end` the turn (rulebook trading).
    Finish,
    // --- retrieval (5.4)
    /// Decision: pick more dice to retrieve or choose how to pay.
    #[serde(alias = "Retrieve")]
    Retrieve { dice: u8 },
    // --- dilemma (5.8)
    /// Decision: pay for the dilemma.
    #[serde(alias = "DilemmaPay")]
    DilemmaPay { paid: u8 },
    /// Decision: rebel or conform.
    #[serde(alias = "DilemmaChoice")]
    DilemmaChoice,
    /// Decision: keep one of two drawn recruits.
    #[serde(alias = "DilemmaKeep")]
    DilemmaKeep(Vec<u8>),
    // --- anyone's decisions
    /// Decision for `seat`: discard down to morale.
    #[serde(alias = "Discard")]
    Discard(u8),
    /// Decision for `seat`: lose `n` commodities/resources (roll penalty).
    #[serde(alias = "Lose")]
    Lose { seat: u8, n: u8 },
    // --- trading (5.10)
    /// Decision: the active player chooses a trading partner.
    #[serde(alias = "TradePartner")]
    TradePartner,
    /// Decision: the active player builds an offer.
    #[serde(alias = "TradeBuild")]
    TradeBuild(Offer),
    /// Decision for the partner: accept or decline.
    #[serde(alias = "TradeAnswer")]
    TradeAnswer(Offer),
    /// Auto: the turn is over.
    #[serde(alias = "EndTurn")]
    EndTurn,
    // --- recruits (4.5)
    /// Auto: the bumped die returns and is rolled, unless a recruit already set its value.
    #[serde(alias = "BumpRoll")]
    BumpRoll { seat: u8, die: u8 },
    /// Auto: the placing player's recruits triggered by bumping (spec 5.3 step 4).
    #[serde(alias = "BumpHooks")]
    BumpHooks,
    /// Auto: the placing player's recruits triggered by the space (spec 5.3 step 6).
    #[serde(alias = "SpaceHooks")]
    SpaceHooks(Space),
    /// Auto: one recruit's trigger for `seat` (`arg`: a die, a seat mask or a card kind).
    #[serde(alias = "Hook")]
    Hook { seat: u8, id: u8, arg: u8 },
    /// Decision for `seat`: use recruit `id`'s optional ability or decline.
    #[serde(alias = "Ask")]
    Ask { seat: u8, id: u8, arg: u8 },
    /// Decision for `seat`: choose one boon of `menu` (bits of [`Boon::bit`]).
    #[serde(alias = "Choose")]
    Choose { seat: u8, menu: u16 },
    /// Decision for `seat`: discard `n` artifact cards of the kinds in `mask`.
    #[serde(alias = "Shed")]
    Shed { seat: u8, n: u8, mask: u8 },
    /// Auto: the retrieved dice still on the board (`dice`) return and are rolled.
    #[serde(alias = "RetrieveRoll")]
    RetrieveRoll { dice: u8 },
}

/// Bookkeeping of the current turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Dice (by index) that may still be placed as doubles this turn.
    pub eligible: [bool; DICE],
    /// Dice available at the start of the turn (by index).
    pub at_start: [bool; DICE],
    /// Workers placed this turn.
    pub placed: u8,
    /// Trade offers made this turn.
    pub offers: u8,
    /// The space of the latest placement.
    pub space: Option<Space>,
    /// The index of the die of the latest placement.
    pub die: u8,
    /// The worker the latest placement bumped: (seat, value).
    pub victim: Option<(u8, u8)>,
    /// Brian's bonus already taken for the latest placement.
    pub brian: bool,
    /// Seats (bitmask) that used Geek the Oracle this turn.
    pub geek: u8,
    /// Seats (bitmask) that used Jonathan the Gambler this turn.
    pub gambler: u8,
}

/// The whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Euphoria {
    pub config: Config,
    pub players: Vec<Player>,
    /// Seat whose turn it is.
    pub current: u8,
    pub first_player: u8,
    pub turn: Turn,
    /// Turns played (for statistics).
    pub turns: u32,
    pub stack: Vec<Step>,
    pub setup_done: bool,
    /// Allegiance positions 0..=11 by faction.
    pub allegiance: [u8; 4],
    /// Miner positions 0..=9 (EUP, SUB, WAS).
    pub miners: [u8; 3],
    /// Seats with a star in each territory, in placement order.
    pub territory: [Vec<u8>; 4],
    pub markets: [Market; MARKETS],
    /// Market tiles left in the box (hidden).
    pub box_tiles: Vec<u8>,
    pub artifact_deck: Vec<Good>,
    /// Face up.
    pub artifact_discard: Vec<Good>,
    pub recruit_deck: Vec<u8>,
    /// Face up (discarded from a dilemma draw).
    pub recruit_discard: Vec<u8>,
    /// Out of the game face down (starting discards under the published rule).
    pub recruit_box: Vec<u8>,
    /// Dilemma cards nobody holds (hidden).
    pub dilemma_box: Vec<u8>,
    pub over: bool,
    /// Final roll-off totals per seat, one per round (only tied winners roll).
    pub rolloff: Vec<Vec<u8>>,
    pub rng: GameRng,
}

impl Euphoria {
    /// Number of seats.
    pub fn n(&self) -> usize {
        self.players.len()
    }

    /// Seats in order starting from the current one.
    pub fn order_from_current(&self) -> Vec<Seat> {
        let n = self.n();
        (0..n).map(|k| (self.current as usize + k) % n).collect()
    }
}

/// Building fixed positions (for tests and tools). These bypass the rules: they are
/// setters, not moves.
impl Euphoria {
    /// A game past setup: every seat kept its first dealt recruit face up and its second
    /// face down; then `seat` is to start a turn with an empty board.
    pub fn started(config: &Config, seed: u64) -> Result<Euphoria, engine::ConfigError> {
        let mut g = Euphoria::setup(config, seed)?;
        while let Some(Step::ChooseUp(s)) | Some(Step::ChooseDown(s)) = g.stack.last().cloned() {
            let seat = s as usize;
            let r = g.players[seat].dealt[0];
            let up = matches!(g.stack.last(), Some(Step::ChooseUp(_)));
            g.players[seat].dealt.remove(0);
            g.players[seat].recruits.push(HeldRecruit {
                id: r,
                up,
                star: false,
            });
            g.stack.pop();
        }
        g.run();
        Ok(g)
    }

    /// Makes it the start of `seat`'s turn, with no pending step.
    pub fn set_turn(&mut self, seat: Seat) {
        self.stack.clear();
        self.current = seat as u8;
        self.start_turn();
    }

    /// Sets the dice of `seat` (missing entries are reserve), then restarts the turn
    /// bookkeeping if `seat` is to play.
    pub fn set_dice(&mut self, seat: Seat, dice: &[DieLoc]) {
        for i in 0..DICE {
            self.players[seat].dice[i] = dice.get(i).copied().unwrap_or(DieLoc::Reserve);
        }
        if seat == self.current as usize && self.stack.is_empty() {
            self.start_turn();
        }
    }

    /// Sets how many of `g` the seat holds. Artifact cards come from (or go back to) the
    /// deck and discards, so the 36 cards stay conserved.
    pub fn set_good(&mut self, seat: Seat, g: Good, n: u32) {
        if !g.is_artifact() {
            self.players[seat].supply[g.index()] = n;
            return;
        }
        while self.players[seat].count(g) > n {
            self.players[seat].remove(g, 1);
            self.artifact_discard.push(g);
        }
        while self.players[seat].count(g) < n {
            if let Some(pos) = self.artifact_deck.iter().position(|&c| c == g) {
                self.artifact_deck.remove(pos);
            } else if let Some(pos) = self.artifact_discard.iter().position(|&c| c == g) {
                self.artifact_discard.remove(pos);
            } else {
                return;
            }
            self.players[seat].add(g, 1);
        }
    }

    /// Gives `seat` exactly these recruits (number, face up), returning its previous ones
    /// to the deck and taking these from wherever they were.
    pub fn set_recruits(&mut self, seat: Seat, recruits: &[(u8, bool)]) {
        let old = std::mem::take(&mut self.players[seat].recruits);
        self.recruit_deck.extend(old.iter().map(|r| r.id));
        for &(id, up) in recruits {
            self.recruit_deck.retain(|&x| x != id);
            self.recruit_discard.retain(|&x| x != id);
            self.recruit_box.retain(|&x| x != id);
            for p in self.players.iter_mut() {
                p.recruits.retain(|r| r.id != id);
                p.dealt.retain(|&x| x != id);
            }
            self.players[seat].recruits.push(HeldRecruit {
                id,
                up,
                star: false,
            });
        }
    }

    /// Puts market tile `tile` on slot `m` (swapping with wherever it was).
    pub fn set_tile(&mut self, m: usize, tile: u8) {
        let old = self.markets[m].tile;
        if let Some(k) = (0..MARKETS).find(|&k| self.markets[k].tile == tile) {
            self.markets[k].tile = old;
        } else if let Some(b) = self.box_tiles.iter_mut().find(|t| **t == tile) {
            *b = old;
        }
        self.markets[m].tile = tile;
    }

    /// Builds market `m` with tile `tile` and stars of `seats` on it (stars taken from
    /// their supplies).
    pub fn set_built(&mut self, m: usize, tile: u8, seats: &[Seat]) {
        self.set_tile(m, tile);
        self.markets[m].built = true;
        for &s in seats {
            if self.markets[m].stars & (1 << s) == 0 {
                self.markets[m].stars |= 1 << s;
                self.players[s].stars_left -= 1;
            }
        }
    }
}
