//! What one viewer may see, and a text rendering of it.

use crate::cards::{
    market_code, market_faction, recruit, Faction, Good, Space, DILEMMAS, MARKET_TILES,
};
use crate::state::{DieLoc, DilemmaState, Euphoria, Offer, Step};
use engine::{Seat, Viewer};
use serde::Serialize;
use std::fmt;

/// A recruit as a viewer sees it: the number only when visible to them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecruitView {
    pub id: Option<u8>,
    pub up: bool,
    pub star: bool,
}

/// A player as a viewer sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    pub dice: Vec<DieLoc>,
    pub knowledge: u8,
    pub morale: u8,
    /// Commodities and resources (public).
    pub supply: [u32; 7],
    /// Artifact cards by kind, for the owner only.
    pub hand: Option<[u8; 6]>,
    pub hand_size: u32,
    pub stars_left: u8,
    pub recruits: Vec<RecruitView>,
    /// Dealt recruits during setup, for the owner only.
    pub dealt: Option<Vec<u8>>,
    pub dealt_count: usize,
    /// Dilemma card, for the owner, or once it is revealed.
    pub dilemma: Option<u8>,
    pub dilemma_state: DilemmaState,
}

/// A market slot as a viewer sees it: the tile only once built.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MarketView {
    pub tile: Option<u8>,
    pub stars: Vec<Seat>,
}

/// Everything a viewer may see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EuphoriaView {
    pub viewer: Option<Seat>,
    pub players: Vec<PlayerView>,
    pub current: Seat,
    pub to_act: Option<Seat>,
    pub prompt: String,
    pub setup_done: bool,
    pub over: bool,
    pub allegiance: [u8; 4],
    pub miners: [u8; 3],
    pub territory: [Vec<u8>; 4],
    pub territory_spots: usize,
    pub markets: Vec<MarketView>,
    pub artifact_deck: usize,
    pub artifact_discard: Vec<Good>,
    pub recruit_deck: usize,
    pub recruit_discard: Vec<u8>,
    /// The two recruits drawn for a dilemma, for the drawer only.
    pub drawn: Option<Vec<u8>>,
    pub offer: Option<Offer>,
    pub rolloff: Vec<Vec<u8>>,
}

impl Euphoria {
    /// Whether `seat`'s dilemma is being resolved right now (so it is face up).
    fn dilemma_in_progress(&self, seat: Seat) -> bool {
        seat == self.current as usize
            && self.stack.iter().any(|s| {
                matches!(
                    s,
                    Step::DilemmaPay { .. } | Step::DilemmaChoice | Step::DilemmaKeep(_)
                )
            })
    }

    /// Whether `viewer` may see `seat`'s dilemma card.
    pub fn dilemma_visible(&self, seat: Seat, viewer: Option<Seat>) -> bool {
        viewer == Some(seat)
            || self.players[seat].dilemma_state != DilemmaState::Unresolved
            || self.dilemma_in_progress(seat)
    }

    /// The view of `viewer`.
    pub fn make_view(&self, viewer: Viewer) -> EuphoriaView {
        let me = viewer.seat();
        let players = self
            .players
            .iter()
            .enumerate()
            .map(|(s, p)| {
                let own = me == Some(s);
                PlayerView {
                    dice: p.dice.to_vec(),
                    knowledge: p.knowledge,
                    morale: p.morale,
                    supply: p.supply,
                    hand: own.then_some(p.hand),
                    hand_size: p.hand_size(),
                    stars_left: p.stars_left,
                    recruits: p
                        .recruits
                        .iter()
                        .map(|r| {
                            let public = self.setup_done && r.up;
                            RecruitView {
                                id: (own || public).then_some(r.id),
                                up: (own || self.setup_done) && r.up,
                                star: r.star,
                            }
                        })
                        .collect(),
                    dealt: own.then(|| p.dealt.clone()),
                    dealt_count: p.dealt.len(),
                    dilemma: self.dilemma_visible(s, me).then_some(p.dilemma),
                    dilemma_state: p.dilemma_state,
                }
            })
            .collect();
        let drawn = match self.stack.last() {
            Some(Step::DilemmaKeep(ids)) if me == Some(self.current as usize) => Some(ids.clone()),
            _ => None,
        };
        let offer = match self.stack.last() {
            Some(Step::TradeBuild(o)) | Some(Step::TradeAnswer(o)) => Some(*o),
            _ => None,
        };
        EuphoriaView {
            viewer: me,
            players,
            current: self.current as usize,
            to_act: self.actor(),
            prompt: if self.over {
                "the game is over".into()
            } else {
                crate::rules::describe(self.stack.last())
            },
            setup_done: self.setup_done,
            over: self.over,
            allegiance: self.allegiance,
            miners: self.miners,
            territory: self.territory.clone(),
            territory_spots: self.n(),
            markets: self
                .markets
                .iter()
                .map(|m| MarketView {
                    tile: m.built.then_some(m.tile),
                    stars: (0..self.n()).filter(|s| m.stars & (1 << s) != 0).collect(),
                })
                .collect(),
            artifact_deck: self.artifact_deck.len(),
            artifact_discard: self.artifact_discard.clone(),
            recruit_deck: self.recruit_deck.len(),
            recruit_discard: self.recruit_discard.clone(),
            drawn,
            offer,
            rolloff: self.rolloff.clone(),
        }
    }
}

fn goods_line(supply: &[u32; 7]) -> String {
    Good::ALL[..7]
        .iter()
        .zip(supply)
        .filter(|(_, &n)| n > 0)
        .map(|(g, n)| format!("{n} {g}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for EuphoriaView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "== Euphoria ==")?;
        let tracks: Vec<String> = Faction::ALL
            .iter()
            .map(|&fa| format!("{fa} {}/11", self.allegiance[fa.index()]))
            .collect();
        writeln!(f, "Allegiance: {}", tracks.join("  "))?;
        writeln!(
            f,
            "Miners: EUP {}/9  SUB {}/9  WAS {}/9",
            self.miners[0], self.miners[1], self.miners[2]
        )?;
        for fa in Faction::ALL {
            let t = &self.territory[fa.index()];
            let stars: Vec<String> = t.iter().map(|s| format!("P{s}")).collect();
            writeln!(
                f,
                "{fa} territory ({}/{}): {}",
                t.len(),
                self.territory_spots,
                stars.join(" ")
            )?;
        }
        for (m, mk) in self.markets.iter().enumerate() {
            match mk.tile {
                Some(tile) => {
                    let stars: Vec<String> = mk.stars.iter().map(|s| format!("P{s}")).collect();
                    writeln!(
                        f,
                        "Market {} ({}): {} [stars {}]",
                        market_code(m).to_uppercase(),
                        market_faction(m),
                        MARKET_TILES[tile as usize].name,
                        stars.join(" ")
                    )?;
                }
                None => writeln!(
                    f,
                    "Market {} ({}): under construction",
                    market_code(m).to_uppercase(),
                    market_faction(m)
                )?,
            }
        }
        let mut board: Vec<String> = Vec::new();
        for space in Space::all() {
            let here: Vec<String> = self
                .players
                .iter()
                .enumerate()
                .flat_map(|(s, p)| {
                    p.dice.iter().filter_map(move |d| match d {
                        DieLoc::Board(sp, v) if *sp == space => Some(format!("P{s}:{v}")),
                        _ => None,
                    })
                })
                .collect();
            if !here.is_empty() {
                board.push(format!("{space} [{}]", here.join(" ")));
            }
        }
        writeln!(f, "Workers on the board: {}", board.join("  "))?;
        writeln!(
            f,
            "Artifact deck {}  discards {}  recruit deck {}",
            self.artifact_deck,
            self.artifact_discard.len(),
            self.recruit_deck
        )?;
        for (s, p) in self.players.iter().enumerate() {
            let marker = if Some(s) == self.to_act { ">" } else { " " };
            let ready: Vec<String> = p
                .dice
                .iter()
                .filter_map(|d| match d {
                    DieLoc::Ready(v) => Some(v.to_string()),
                    _ => None,
                })
                .collect();
            writeln!(
                f,
                "{marker}P{s}: stars left {}  knowledge {}  morale {}  dice ready [{}]  goods: {}  cards: {}",
                p.stars_left,
                p.knowledge,
                p.morale,
                ready.join(" "),
                goods_line(&p.supply),
                match p.hand {
                    Some(h) => Good::ARTIFACT_KINDS
                        .iter()
                        .zip(h)
                        .filter(|(_, n)| *n > 0)
                        .map(|(g, n)| format!("{n} {g}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    None => format!("{} hidden", p.hand_size),
                }
            )?;
            let recruits: Vec<String> = p
                .recruits
                .iter()
                .map(|r| match r.id {
                    Some(id) => format!(
                        "{}{} ({}){}",
                        if r.up { "" } else { "hidden: " },
                        recruit(id).name,
                        recruit(id).faction,
                        if r.star { " *" } else { "" }
                    ),
                    None => "a face-down recruit".into(),
                })
                .collect();
            writeln!(f, "    recruits: {}", recruits.join("; "))?;
            if let Some(d) = p.dilemma {
                let card = DILEMMAS[d as usize];
                writeln!(
                    f,
                    "    dilemma: {} / {} (pays 1 {}) {:?}",
                    card.rebel, card.conform, card.pictured, p.dilemma_state
                )?;
            }
            if let Some(dealt) = &p.dealt {
                if !dealt.is_empty() {
                    let names: Vec<String> = dealt
                        .iter()
                        .map(|&r| format!("{r} {} ({})", recruit(r).name, recruit(r).faction))
                        .collect();
                    writeln!(f, "    dealt: {}", names.join("; "))?;
                }
            }
        }
        if let Some(o) = &self.offer {
            writeln!(
                f,
                "Offer to P{}: give {:?} ask {:?}",
                o.partner, o.give, o.ask
            )?;
        }
        if let Some(d) = &self.drawn {
            writeln!(f, "Drawn recruits: {d:?}")?;
        }
        write!(f, "{}", self.prompt)
    }
}
