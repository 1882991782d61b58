//! Why the rules refuse an action, one variant per rule, in plain words; and what the game
//! waits for (the [`Prompt`]), which a refusal out of turn names and the view shows.
use crate::cards::{Faction, Good, Recruit, Space, SpaceName};
use crate::rules::trade::OLD_OFFER_ITEMS;
use crate::state::Step;
use engine::ending::plural;
use engine::Coded;
use std::fmt;

/// A rule an action breaks in this position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over: nobody acts.
    GameOver,
    /// The action answers another decision than the one pending.
    NotNow(Prompt),
    // --- setup (5.1)
    /// Only a dealt recruit is kept (the recruit's number).
    NotDealt(Recruit),
    // --- placement (5.3)
    /// No ready die shows the value.
    NoDie(u8),
    /// Doubles: no die of the value rolled as doubles is ready.
    NoDoubledDie(u8),
    /// A doubled worker costs 1 morale, and morale stays at least 1.
    DoubledMorale,
    /// Brian the Viticulturist: a worker in Icarus costs 1 morale.
    BrianMorale,
    /// The Apothecary penalty: no workers in Icarus.
    Apothecary,
    /// The Arena penalty: one own worker per commodity area.
    Arena,
    /// The Plaza penalty: no built market without the player's star.
    Plaza,
    /// The Spa penalty: no bumping one's own worker.
    Spa,
    /// The Lounge penalty: no construction site beside another player's worker.
    Lounge,
    /// A built market's space before its market is built.
    MarketNotBuilt,
    /// A construction site of a market already built.
    MarketBuilt,
    /// Construction sites hold one worker and are not bumped.
    SiteTaken,
    /// A tunnel end opens when its miner reaches the end.
    TunnelClosed(Faction),
    /// A tunnel end is for holders of a face-up recruit of its faction.
    TunnelRecruit(Faction),
    /// An artifact market costs 3 cards or 2 identical ones (no pair under the Courthouse).
    ArtifactCards { courthouse: bool },
    /// The space's cost cannot be paid.
    CannotPay(Space),
    /// A tunnel's mouth gives its resource or an artifact card.
    TunnelGives(Good),
    /// The Sky Lounge gives resources.
    NotResource,
    /// The star's place: the territory is full.
    TerritoryFull(Faction),
    /// The star's place: a built market tile of the faction without the player's star.
    NoStarMarket(Faction),
    // --- payments
    /// The good is not one the rest of the cost accepts.
    NotOwed(Good),
    /// Paying the good would leave the rest of the cost unpayable.
    Unpayable(Good),
    /// An artifact market's payment must stay completable (3 any or 2 identical).
    SetUnpayable,
    /// Jacko the Archivist pays the Ark with one card, after it is paid.
    JackoArk,
    // --- goods held
    /// The player holds no card of the kind.
    NoCard(Good),
    /// The player has none of the good.
    NoGood(Good),
    /// Only the kinds a recruit names are discarded here.
    NotShed(Good),
    // --- retrieval (5.4)
    /// No worker of the player shows the value on the space.
    NoWorker { value: u8, space: Space },
    /// The player's workers showing the value on the space are all picked already.
    NoOtherWorker { value: u8, space: Space },
    /// Only Jefferson the Shock Artist lets a retrieval be paid with energy.
    EnergyNeedsJefferson,
    // --- the turn
    /// A turn is passed only when no placement, retrieval or dilemma is left.
    MainActionLeft,
    // --- the dilemma (5.8)
    /// The dilemma is resolved once.
    DilemmaResolved,
    /// The dilemma costs 1 card of its picture or any 2 artifact cards.
    DilemmaCost(Good),
    /// Without a second card, only the pictured kind pays the dilemma.
    DilemmaPictured(Good),
    /// Only one of the two drawn recruits is kept (the recruit's number).
    NotDrawn(Recruit),
    // --- trading (5.10)
    /// Trades are offered in one's own turn.
    TradeOutOfTurn,
    /// The game's bound on offers per turn.
    OfferLimit(u32),
    /// There is no such seat (counted from 0).
    NoSuchSeat(u8),
    /// A player does not trade with themselves.
    SelfTrade,
    /// An offer holds at most [`OLD_OFFER_ITEMS`] items (the rule before issue 16).
    OfferItems,
    /// An offer holds at most 255 of a good.
    GoodMax,
    /// A good is given or asked, not both.
    AlreadyAsked(Good),
    /// A good is given or asked, not both.
    AlreadyGiven(Good),
    /// The offer gives more of a good than the player has (`more`: some is given already).
    NothingToGive { good: Good, more: bool },
    /// The offer asks more artifact cards than the partner holds.
    PartnerCards { partner: u8 },
    /// The offer asks more of a good than the partner has (`more`: some is asked already).
    PartnerLacks { partner: u8, good: Good, more: bool },
    /// Only goods given or asked build an offer.
    NotOfferItem,
    /// An offer holds at least one item.
    EmptyOffer,
    /// The partner accepts only what they can give.
    LacksAsked(Good),
    // --- recruits (4.5)
    /// Matthew the Cartographer: declining him pays the tunnel's commodity.
    MatthewCommodity,
    /// The recruit's ability cannot be used now (the recruit's number).
    CannotUse(Recruit),
    /// The recruit's offer is answered as `how` says, or declined.
    AnswerWith { recruit: Recruit, how: Answer },
    /// The choice is not among those a recruit offers.
    NotOffered,
}

/// Each rule's stable code, `euphoria/<rule>` (docs/http-api.md lists them): an API, so a
/// code keeps its meaning once given.
impl Coded for Refusal {
    fn code(&self) -> &'static str {
        match self {
            Refusal::GameOver => "euphoria/game_over",
            Refusal::NotNow(..) => "euphoria/not_now",
            Refusal::NotDealt(..) => "euphoria/not_dealt",
            Refusal::NoDie(..) => "euphoria/no_die",
            Refusal::NoDoubledDie(..) => "euphoria/no_doubled_die",
            Refusal::DoubledMorale => "euphoria/doubled_morale",
            Refusal::BrianMorale => "euphoria/brian_morale",
            Refusal::Apothecary => "euphoria/apothecary_penalty",
            Refusal::Arena => "euphoria/arena_penalty",
            Refusal::Plaza => "euphoria/plaza_penalty",
            Refusal::Spa => "euphoria/spa_penalty",
            Refusal::Lounge => "euphoria/lounge_penalty",
            Refusal::MarketNotBuilt => "euphoria/market_not_built",
            Refusal::MarketBuilt => "euphoria/market_built",
            Refusal::SiteTaken => "euphoria/site_taken",
            Refusal::TunnelClosed(..) => "euphoria/tunnel_closed",
            Refusal::TunnelRecruit(..) => "euphoria/tunnel_recruit",
            Refusal::ArtifactCards { .. } => "euphoria/artifact_cards",
            Refusal::CannotPay(..) => "euphoria/cannot_pay",
            Refusal::TunnelGives(..) => "euphoria/tunnel_gives",
            Refusal::NotResource => "euphoria/not_resource",
            Refusal::TerritoryFull(..) => "euphoria/territory_full",
            Refusal::NoStarMarket(..) => "euphoria/no_star_market",
            Refusal::NotOwed(..) => "euphoria/not_owed",
            Refusal::Unpayable(..) => "euphoria/unpayable",
            Refusal::SetUnpayable => "euphoria/set_unpayable",
            Refusal::JackoArk => "euphoria/jacko_ark",
            Refusal::NoCard(..) => "euphoria/no_card",
            Refusal::NoGood(..) => "euphoria/no_good",
            Refusal::NotShed(..) => "euphoria/not_shed",
            Refusal::NoWorker { .. } => "euphoria/no_worker",
            Refusal::NoOtherWorker { .. } => "euphoria/no_other_worker",
            Refusal::EnergyNeedsJefferson => "euphoria/energy_needs_jefferson",
            Refusal::MainActionLeft => "euphoria/main_action_left",
            Refusal::DilemmaResolved => "euphoria/dilemma_resolved",
            Refusal::DilemmaCost(..) => "euphoria/dilemma_cost",
            Refusal::DilemmaPictured(..) => "euphoria/dilemma_pictured",
            Refusal::NotDrawn(..) => "euphoria/not_drawn",
            Refusal::TradeOutOfTurn => "euphoria/trade_out_of_turn",
            Refusal::OfferLimit(..) => "euphoria/offer_limit",
            Refusal::NoSuchSeat(..) => "euphoria/no_such_seat",
            Refusal::SelfTrade => "euphoria/self_trade",
            Refusal::OfferItems => "euphoria/offer_items",
            Refusal::GoodMax => "euphoria/good_max",
            Refusal::AlreadyAsked(..) => "euphoria/already_asked",
            Refusal::AlreadyGiven(..) => "euphoria/already_given",
            Refusal::NothingToGive { .. } => "euphoria/nothing_to_give",
            Refusal::PartnerCards { .. } => "euphoria/partner_cards",
            Refusal::PartnerLacks { .. } => "euphoria/partner_lacks",
            Refusal::NotOfferItem => "euphoria/not_offer_item",
            Refusal::EmptyOffer => "euphoria/empty_offer",
            Refusal::LacksAsked(..) => "euphoria/lacks_asked",
            Refusal::MatthewCommodity => "euphoria/matthew_commodity",
            Refusal::CannotUse(..) => "euphoria/cannot_use",
            Refusal::AnswerWith { .. } => "euphoria/answer_with",
            Refusal::NotOffered => "euphoria/not_offered",
        }
    }
}

/// How a recruit's offer is answered (for [`Refusal::AnswerWith`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `set V`: a die's value.
    Set,
    /// `discard KIND`: an artifact card.
    Discard,
    /// `use KEY-new`: the ability, for the new worker.
    UseNew,
    /// `use KEY`: the ability.
    Use,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match *self {
            GameOver => f.write_str("the game is over"),
            NotNow(prompt) => write!(f, "not now: {prompt}"),
            NotDealt(r) => write!(
                f,
                "recruit {} is not among the cards dealt to you",
                r.number()
            ),
            NoDie(v) => write!(f, "you have no available die showing {v}"),
            NoDoubledDie(v) => write!(
                f,
                "no die showing {v} that was doubled at the start of the turn is available"
            ),
            DoubledMorale => f.write_str("a doubled worker costs 1 morale and your morale is 1"),
            BrianMorale => {
                f.write_str("with Brian a worker in Icarus costs 1 morale and your morale is 1")
            }
            Apothecary => f.write_str("the Apothecary penalty forbids placing workers in Icarus"),
            Arena => f.write_str(
                "the Arena penalty allows only one of your workers in each commodity area",
            ),
            Plaza => f.write_str("the Plaza penalty forbids built markets without your star"),
            Spa => f.write_str("the Spa penalty forbids bumping your own worker"),
            Lounge => {
                f.write_str("the Lounge penalty forbids building beside another player's worker")
            }
            MarketNotBuilt => f.write_str("this market is not built yet"),
            MarketBuilt => {
                f.write_str("this market is already built; its construction sites are closed")
            }
            SiteTaken => {
                f.write_str("this construction site is taken (workers there cannot be bumped)")
            }
            TunnelClosed(x) => write!(
                f,
                "the {} tunnel end is closed until its miner reaches the end",
                x.adjective()
            ),
            TunnelRecruit(x) => write!(
                f,
                "only players with a face-up {a} recruit may use the {a} tunnel end",
                a = x.adjective()
            ),
            ArtifactCards { courthouse: true } => {
                f.write_str("you need 3 artifact cards (the Courthouse penalty forbids a pair)")
            }
            ArtifactCards { courthouse: false } => {
                f.write_str("you need 3 artifact cards or 2 identical ones")
            }
            CannotPay(space) => write!(f, "you cannot pay the cost of the {}", SpaceName(space)),
            TunnelGives(g) => write!(f, "this tunnel gives {g} or an artifact"),
            NotResource => f.write_str("choose gold, stone or clay"),
            TerritoryFull(x) => write!(f, "the territory of {} is full", x.region()),
            NoStarMarket(x) => write!(
                f,
                "the star may go on a built {} market tile without your star",
                x.adjective()
            ),
            NotOwed(g) => write!(f, "{g} is not part of what is left to pay"),
            Unpayable(g) => write!(f, "paying {g} would leave the rest of the cost unpayable"),
            SetUnpayable => f.write_str(
                "that card would leave the payment impossible to complete (3 any or 2 identical)",
            ),
            JackoArk => f.write_str("Jacko lets one card pay the Ark, after it is paid"),
            NoCard(g) => write!(f, "you hold no {g} card"),
            NoGood(g) => write!(f, "you have no {g}"),
            NotShed(g) => write!(f, "you cannot discard a {g} card here"),
            NoWorker { value, space } => {
                write!(
                    f,
                    "you have no worker showing {value} on the {}",
                    SpaceName(space)
                )
            }
            NoOtherWorker { value, space } => write!(
                f,
                "you have no other worker showing {value} on the {} to pick",
                SpaceName(space)
            ),
            EnergyNeedsJefferson => {
                f.write_str("only Jefferson the Shock Artist lets you retrieve with energy")
            }
            MainActionLeft => f.write_str("you can still place, retrieve or resolve your dilemma"),
            DilemmaResolved => f.write_str("your dilemma is already resolved"),
            DilemmaCost(g) => write!(f, "the dilemma costs 1 {g} card or any 2 artifact cards"),
            DilemmaPictured(g) => write!(
                f,
                "without a second card only the pictured {g} pays the dilemma"
            ),
            NotDrawn(r) => write!(f, "recruit {} is not one of the two you drew", r.number()),
            TradeOutOfTurn => f.write_str("you may offer a trade only in your own turn"),
            OfferLimit(b) => write!(
                f,
                "at most {b} offer{} per turn in this game",
                if b == 1 { "" } else { "s" }
            ),
            NoSuchSeat(s) => write!(f, "there is no seat {}", s as usize + 1),
            SelfTrade => f.write_str("you cannot trade with yourself"),
            OfferItems => write!(f, "an offer holds at most {OLD_OFFER_ITEMS} items"),
            GoodMax => write!(f, "an offer holds at most {} of a good", u8::MAX),
            AlreadyAsked(g) => write!(f, "you already ask for {g}"),
            AlreadyGiven(g) => write!(f, "you already give {g}"),
            NothingToGive { good, more: false } => write!(f, "you have no {good} to give"),
            NothingToGive { good, more: true } => {
                write!(f, "you do not have another {good} to give")
            }
            PartnerCards { partner } => write!(
                f,
                "seat {} does not hold that many artifact cards",
                partner as usize + 1
            ),
            PartnerLacks {
                partner,
                good,
                more,
            } => write!(
                f,
                "seat {} does not have {} {good}",
                partner as usize + 1,
                if more { "another" } else { "any" }
            ),
            NotOfferItem => f.write_str("not an offer item"),
            EmptyOffer => f.write_str("an offer needs at least one item"),
            LacksAsked(g) => write!(f, "you do not have the {g} asked for"),
            MatthewCommodity => f.write_str(
                "without Matthew you must pay the tunnel's commodity, and you have none",
            ),
            CannotUse(r) => write!(f, "{} cannot be used now", r.name()),
            AnswerWith { recruit: r, how } => {
                let name = r.name();
                match how {
                    Answer::Set => write!(f, "answer {name}: choose a value, or decline"),
                    Answer::Discard => {
                        write!(f, "answer {name}: choose what to discard, or decline")
                    }
                    Answer::UseNew => {
                        write!(f, "answer {name}: use the newer ability, or decline")
                    }
                    Answer::Use => write!(f, "answer {name}: use the ability, or decline"),
                }
            }
            NotOffered => f.write_str("that is not one of the choices offered"),
        }
    }
}

/// What the game waits for: the decision on top of the pending steps, in words addressed
/// to the seat that decides (the pages and the board text name that seat before them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// The start of a turn.
    Turn,
    KeepUp,
    KeepDown,
    Pay,
    PaySet,
    TunnelTake,
    /// The Sky Lounge: resources still to choose.
    ChooseResource(u8),
    StarChoice,
    Doubles,
    Finish,
    Retrieve,
    DilemmaPay,
    DilemmaChoice,
    DilemmaKeep,
    /// A seat discards down to its morale.
    Discard(u8),
    /// A seat loses goods to a roll penalty.
    Lose {
        seat: u8,
        n: u8,
    },
    TradePartner,
    TradeBuild,
    /// The partner answers the offer.
    TradeAnswer(u8),
    /// A seat may use a recruit's ability.
    Ask {
        seat: u8,
        recruit: Recruit,
    },
    /// A seat chooses a recruit's reward.
    Choose(u8),
    /// A seat discards artifact cards.
    Shed {
        seat: u8,
        n: u8,
    },
    /// Steps that run by themselves.
    Resolving,
}

impl Prompt {
    /// What the step on top (`None`: the start of a turn) waits for.
    pub fn of(top: Option<&Step>) -> Prompt {
        match top {
            None => Prompt::Turn,
            Some(Step::ChooseUp(_)) => Prompt::KeepUp,
            Some(Step::ChooseDown(_)) => Prompt::KeepDown,
            Some(Step::Pay(_)) => Prompt::Pay,
            Some(Step::PaySet(_)) => Prompt::PaySet,
            Some(Step::TunnelTake(_)) => Prompt::TunnelTake,
            Some(Step::ChooseResource(n)) => Prompt::ChooseResource(*n),
            Some(Step::StarChoice(_)) => Prompt::StarChoice,
            Some(Step::Doubles) => Prompt::Doubles,
            Some(Step::Finish) => Prompt::Finish,
            Some(Step::Retrieve { .. }) => Prompt::Retrieve,
            Some(Step::DilemmaPay { .. }) => Prompt::DilemmaPay,
            Some(Step::DilemmaChoice) => Prompt::DilemmaChoice,
            Some(Step::DilemmaKeep(_)) => Prompt::DilemmaKeep,
            Some(Step::Discard(s)) => Prompt::Discard(*s),
            Some(Step::Lose { seat, n }) => Prompt::Lose { seat: *seat, n: *n },
            Some(Step::TradePartner) => Prompt::TradePartner,
            Some(Step::TradeBuild(_)) => Prompt::TradeBuild,
            Some(Step::TradeAnswer(o)) => Prompt::TradeAnswer(o.partner),
            Some(Step::Ask { seat, id, .. }) => Prompt::Ask {
                seat: *seat,
                recruit: *id,
            },
            Some(Step::Choose { seat, .. }) => Prompt::Choose(*seat),
            Some(Step::Shed { seat, n, .. }) => Prompt::Shed { seat: *seat, n: *n },
            Some(_) => Prompt::Resolving,
        }
    }
}

impl fmt::Display for Prompt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Prompt::Turn => f.write_str(
                "it is the start of a turn: place a worker, retrieve, resolve your dilemma, or trade",
            ),
            Prompt::KeepUp => f.write_str("choose a dealt recruit to keep face up"),
            Prompt::KeepDown => f.write_str("choose a dealt recruit to keep face down"),
            Prompt::Pay => f.write_str("pay the rest of the cost"),
            Prompt::PaySet => f.write_str("pay the artifact market with cards"),
            Prompt::TunnelTake => f.write_str("take the tunnel's resource or an artifact card"),
            Prompt::ChooseResource(n) => write!(
                f,
                "choose {} more",
                plural(i64::from(n), "resource", "resources")
            ),
            Prompt::StarChoice => f.write_str("choose where your star goes"),
            Prompt::Doubles => f.write_str("place another doubled die, trade, or end the turn"),
            Prompt::Finish => f.write_str("your placements are over: trade, or end the turn"),
            Prompt::Retrieve => f.write_str(
                "pick more dice to retrieve, or retrieve them: paying 1 food or 1 bliss gives morale +2; paying nothing costs 1 morale, or 2 once the Cafeteria of Nameless Meat is built for a player without a star on it",
            ),
            Prompt::DilemmaPay => f.write_str("pay for the dilemma with artifact cards"),
            Prompt::DilemmaChoice => {
                f.write_str("rebel (draw recruits) or conform (a star on the card)")
            }
            Prompt::DilemmaKeep => f.write_str("keep one of the drawn recruits"),
            Prompt::Discard(_) => f.write_str("discard artifact cards down to your morale"),
            Prompt::Lose { n, .. } => write!(
                f,
                "lose {} to a roll penalty",
                plural(i64::from(n), "commodity or resource", "commodities or resources")
            ),
            Prompt::TradePartner => f.write_str("choose whom to trade with, or cancel"),
            Prompt::TradeBuild => f.write_str("build the offer: what you give and what you ask"),
            Prompt::TradeAnswer(_) => f.write_str("accept or decline the offer"),
            Prompt::Ask { recruit: r, .. } => {
                write!(f, "you may use {}: {}", r.name(), r.ability())
            }
            Prompt::Choose(_) => f.write_str("choose a recruit's reward"),
            Prompt::Shed { n, .. } => {
                write!(
                    f,
                    "discard {}",
                    plural(i64::from(n), "artifact card", "artifact cards")
                )
            }
            Prompt::Resolving => f.write_str("the game is resolving"),
        }
    }
}
