//! Each legal move told for the seat to act: a label in words for this position (the
//! cost of a space, the morale a retrieval gives or takes, the recruit an ability
//! belongs to), the die it takes (`die:3`) and the place it goes (`sp:gen`, `ret:gen:3`),
//! in the keys the table page gives its parts.
use crate::action::{Action, RetrievePay};
use crate::cards::{Cost, Faction, Good, Penalty, Recruit, SpaceKind, MARKET_TILES};
use crate::events::EuphoriaEvent;
use crate::rules::placement::{commodity_reward, AreaEffect};
use crate::state::{Boon, Euphoria, StarTarget, Step};
use crate::{cards, config, guide};
use engine::{MoveText, Present, Viewer};

impl Euphoria {
    /// What a client shows for `action`, worked out only from what the seat to act sees.
    pub(crate) fn move_text(&self, action: Action) -> MoveText {
        match action {
            Action::Place { value, space } => MoveText::place(
                format!(
                    "Place your {value} on {}: {}, for {}",
                    self.space_title(space),
                    self.cost_words(space),
                    self.gains_words(value, space)
                ),
                Some(format!("die:{value}")),
                Some(format!("sp:{}", space.code())),
            ),
            Action::Retrieve { value, space } => MoveText::place(
                format!(
                    "Pick your {value} on {} to retrieve",
                    self.space_title(space)
                ),
                None,
                Some(format!("ret:{}:{value}", space.code())),
            ),
            Action::FinishRetrieve(pay) => MoveText::words(self.retrieval_words(pay)),
            other => MoveText::words(self.words(other)),
        }
    }

    /// What placing a die showing `value` on `space` gives the seat to act: for a
    /// commodity area, worked out from the dice already there; elsewhere as printed.
    fn gains_words(&self, value: u8, space: crate::Space) -> String {
        let SpaceKind::Area(f) = space.kind() else {
            return space.gives(&self.config.rewards);
        };
        let seat = self.current as usize;
        let total = self.occupants(space).map(|o| u32::from(o.2)).sum::<u32>() + u32::from(value);
        let (amount, effect) = commodity_reward(total, &self.config.rewards);
        let amount = amount + u32::from(self.tier_bonus(seat, f, 1));
        let effect = match effect {
            AreaEffect::Allegiance => format!("{} allegiance +1", f.name()),
            AreaEffect::KnowledgeDown => "knowledge -1".into(),
            AreaEffect::KnowledgeUp => "knowledge +1".into(),
        };
        format!(
            "{amount} {} and {effect} (the dice there would total {total})",
            f.commodity()
        )
    }

    /// A space's name, a built market by its tile.
    fn space_title(&self, space: crate::Space) -> String {
        match space.kind() {
            SpaceKind::Built(m) => format!(
                "the {} ({})",
                MARKET_TILES[usize::from(self.markets[m].tile)].name,
                space.name()
            ),
            _ => format!("the {}", space.name()),
        }
    }

    /// What placing on `space` costs the seat to act.
    fn cost_words(&self, space: crate::Space) -> String {
        let seat = self.current as usize;
        match space.kind() {
            SpaceKind::ArtifactMarket(_) if self.penalized(seat, Penalty::NoPair) => format!(
                "pay 3 artifact cards (the {} penalty forbids a pair)",
                penalty_tile(Penalty::NoPair)
            ),
            SpaceKind::ArtifactMarket(_) => "pay 3 artifact cards, or 2 identical ones".into(),
            _ => {
                let cost = self.cost_of(space);
                if cost == Cost::FREE {
                    "free".into()
                } else {
                    format!("pay {}", cost.text())
                }
            }
        }
    }

    /// The morale (and knowledge) a retrieval paid with `pay` gives or takes, as
    /// [`Euphoria::retrieval_morale`] works it out.
    fn retrieval_words(&self, pay: RetrievePay) -> String {
        let seat = self.current as usize;
        let morale = self.retrieval_morale(seat, pay);
        let change = signed(morale);
        let why = match pay {
            RetrievePay::Free if morale == 0 => {
                " (Yordy: your last two workers come back free)".to_string()
            }
            RetrievePay::Free if morale == -2 => format!(
                " (the {} is built and you have no star on it: its penalty makes a free \
                 retrieval cost 2)",
                penalty_tile(Penalty::CostlyRetrieval)
            ),
            _ => String::new(),
        };
        let held = self.players[seat].morale as i32;
        let capped = match held + morale {
            m if m < 1 => " (morale cannot go below 1)",
            m if m > 6 => " (morale cannot go above 6)",
            _ => "",
        };
        match pay {
            RetrievePay::Food => format!("Retrieve, paying 1 food: morale {change}{capped}"),
            RetrievePay::Bliss => format!("Retrieve, paying 1 bliss: morale {change}{capped}"),
            RetrievePay::Energy => format!(
                "Retrieve, paying 1 energy ({}): knowledge −1, morale {change}{capped}",
                Recruit::Jefferson.name()
            ),
            RetrievePay::Free if morale == 0 => format!("Retrieve for free: morale unchanged{why}"),
            RetrievePay::Free => format!("Retrieve for free: morale {change}{why}{capped}"),
        }
    }

    /// Every other move, in words.
    fn words(&self, action: Action) -> String {
        let name = Recruit::name;
        match action {
            Action::KeepUp(r) => format!("Keep {} face up", name(r)),
            Action::KeepDown(r) => format!("Keep {} face down", name(r)),
            Action::Keep(r) => format!("Keep {}", name(r)),
            Action::Pay(g) => format!("Pay 1 {}", good_words(g)),
            Action::Take(g) => format!("Take 1 {g}"),
            Action::Draw => "Draw an artifact card".into(),
            Action::Star(StarTarget::Territory) => match self.star_faction() {
                Some(f) => format!("Put your star in the {} territory", f.region()),
                None => "Put your star in the territory".into(),
            },
            Action::Star(StarTarget::Market(m)) => {
                let tile = MARKET_TILES[usize::from(self.markets[usize::from(m)].tile)].name;
                format!("Put your star on the {tile}: its penalty no longer applies to you")
            }
            Action::End => "Place no more workers this turn".into(),
            Action::Discard(g) => format!("Discard a {g} card"),
            Action::Lose(g) => format!("Lose 1 {g}"),
            Action::Dilemma => "Resolve your ethical dilemma".into(),
            Action::Rebel => "Rebel: draw 2 recruits and keep 1".into(),
            Action::Conform => "Conform: put a star on your dilemma card".into(),
            Action::Trade => "Propose a trade".into(),
            // Seats are counted from 1 wherever a person reads them.
            Action::Offer(s) => format!("Trade with seat {}", u32::from(s) + 1),
            Action::Give(g) => format!("Offer 1 {}", good_words(g)),
            Action::Ask(g) => format!("Ask for 1 {}", good_words(g)),
            Action::Propose => "Send the offer".into(),
            Action::Cancel => "Cancel the offer".into(),
            Action::Accept => "Accept the trade".into(),
            Action::Decline => match self.stack.last() {
                Some(Step::Ask { id, .. }) => format!("Do not use {}", name(*id)),
                _ => "Decline the trade".into(),
            },
            Action::Pass => "Pass: nothing else is possible".into(),
            Action::Use(id) | Action::UseNew(id) => {
                format!("Use {}: {}", id.name(), id.ability())
            }
            Action::Set(v) => match self.stack.last() {
                Some(Step::Ask { id, .. }) => format!("{}: the die shows {v}", name(*id)),
                _ => format!("The die shows {v}"),
            },
            Action::Choose(Boon::Good(g)) => format!("Take 1 {g}"),
            Action::Choose(Boon::Morale) => "Morale +1".into(),
            Action::Choose(Boon::LessKnowledge) => "Knowledge −1".into(),
            Action::Place { .. } | Action::Retrieve { .. } | Action::FinishRetrieve(_) => {
                action.to_string()
            }
        }
    }

    /// The faction whose star is owed, when a star choice is pending.
    fn star_faction(&self) -> Option<Faction> {
        match self.stack.last() {
            Some(Step::StarChoice(f)) => Some(*f),
            _ => None,
        }
    }
}

/// A good as a person reads it: an artifact is a card.
fn good_words(g: Good) -> String {
    if g.is_artifact() {
        format!("{g} card")
    } else {
        g.to_string()
    }
}

/// The name of the market tile that carries `penalty`.
fn penalty_tile(penalty: Penalty) -> &'static str {
    MARKET_TILES
        .iter()
        .find(|t| t.penalty == penalty)
        .map_or("market", |t| t.name)
}

fn signed(n: i32) -> String {
    if n > 0 {
        format!("+{n}")
    } else if n < 0 {
        format!("−{}", -n)
    } else {
        "0".into()
    }
}

impl Present for Euphoria {
    type Event = EuphoriaEvent;
    fn about() -> engine::About {
        engine::About {
            players: engine::Players { min: 2, max: 6 },
            title: "Euphoria".into(),
            summary:
                "Place worker dice, dig tunnels, build markets and place your stars. 2-6 players."
                    .into(),
            options: config::options(),
            components: serde_json::to_value(cards::card_data()).unwrap_or_default(),
        }
    }
    fn rules() -> engine::Rules {
        guide::rules()
    }
    /// The lessons (`lessons/*.json`, the format of `engine::lesson`, docs/lessons.md).
    fn lessons() -> &'static [&'static str] {
        &[
            include_str!("../lessons/basics.json"),
            include_str!("../lessons/bumping.json"),
            include_str!("../lessons/knowledge.json"),
            include_str!("../lessons/recruits.json"),
            include_str!("../lessons/markets.json"),
            include_str!("../lessons/tunnels.json"),
            include_str!("../lessons/artifacts.json"),
            include_str!("../lessons/allegiance.json"),
            include_str!("../lessons/dilemma.json"),
            include_str!("../lessons/trading.json"),
            include_str!("../lessons/stars.json"),
        ]
    }
    fn ending(&self, names: &engine::Names) -> Option<engine::Ending> {
        self.explain_end(names)
    }
    fn standing(&self) -> Option<Vec<engine::SeatScore>> {
        Some(self.star_lines())
    }
    fn public_action(&self, action: Action, viewer: Viewer) -> String {
        // Which recruit a seat keeps is its own secret (face-up ones show once setup ends).
        match action {
            Action::KeepUp(_) | Action::KeepDown(_) | Action::Keep(_)
                if viewer.seat() != self.actor() =>
            {
                "keep a recruit".into()
            }
            _ => action.to_string(),
        }
    }
    fn events(before: &Self, action: Action, after: &Self, viewer: Viewer) -> Vec<EuphoriaEvent> {
        Euphoria::events(before, action, after, viewer)
    }
    fn describe(&self, action: Action) -> engine::MoveText {
        self.move_text(action)
    }
}
