//! What one viewer may see, and a text rendering of it.

use crate::cards::{
    market_name, market_threshold, space_cost_text, Faction, Good, Recruit, Space, DILEMMAS,
    MARKET_TILES,
};
use crate::config::{Edition, Rewards};
use crate::refusal::Prompt;
use crate::state::{DieLoc, DilemmaState, Euphoria, Offer, Step};
use engine::{Seat, Viewer};
use serde::Serialize;
use std::fmt;

/// A recruit as a viewer sees it: the number only when visible to them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecruitView {
    pub id: Option<Recruit>,
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
    pub dealt: Option<Vec<Recruit>>,
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
    /// Workers on its construction sites.
    pub workers: usize,
    /// Workers its construction needs (by the player count).
    pub needed: usize,
}

/// Everything a viewer may see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EuphoriaView {
    pub viewer: Option<Seat>,
    /// The recruit texts in use.
    pub edition: Edition,
    /// The amounts the commodity areas and tunnel ends give at this table.
    pub rewards: Rewards,
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
    pub recruit_discard: Vec<Recruit>,
    /// The two recruits drawn for a dilemma, for the drawer only.
    pub drawn: Option<Vec<Recruit>>,
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
                    dealt: own.then(|| p.dealt.to_vec()),
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
            edition: self.config.edition,
            rewards: self.config.rewards,
            players,
            current: self.current as usize,
            to_act: self.actor(),
            prompt: if self.over {
                "the game is over".into()
            } else {
                // What the decision on top asks, in words (the legal moves say how to answer).
                Prompt::of(self.stack.last()).to_string()
            },
            setup_done: self.setup_done,
            over: self.over,
            allegiance: self.allegiance,
            miners: self.miners,
            territory: self.territory.each_ref().map(|t| t.to_vec()),
            territory_spots: self.n(),
            markets: self
                .markets
                .iter()
                .enumerate()
                .map(|(k, m)| MarketView {
                    tile: m.built.then_some(m.tile),
                    stars: (0..self.n()).filter(|s| m.stars & (1 << s) != 0).collect(),
                    workers: (0..4)
                        .map(|slot| self.occupants(Space::site(k, slot)).count())
                        .sum(),
                    needed: market_threshold(self.n()),
                })
                .collect(),
            artifact_deck: self.artifact_deck.len(),
            artifact_discard: self.artifact_discard.to_vec(),
            recruit_deck: self.recruit_deck.len(),
            recruit_discard: self.recruit_discard.to_vec(),
            drawn,
            offer,
            rolloff: self.rolloff.to_vec(),
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

/// Goods counted by [`Good::index`], in words ("2 water, 1 bear"), or "nothing".
fn goods_text(counts: &[u8; 13]) -> String {
    let parts: Vec<String> = Good::ALL
        .iter()
        .zip(counts)
        .filter(|(_, &n)| n > 0)
        .map(|(g, n)| format!("{n} {g}"))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

/// Seats as people count them: "seat 1, seat 3" ("none" for no seat).
fn seats_text(seats: &[Seat]) -> String {
    let named: Vec<String> = seats.iter().map(|s| format!("seat {}", s + 1)).collect();
    if named.is_empty() {
        "none".into()
    } else {
        named.join(", ")
    }
}

impl EuphoriaView {
    fn fmt_board(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tracks: Vec<String> = Faction::ALL
            .iter()
            .map(|&fa| format!("{} {}/11", fa.name(), self.allegiance[fa.index()]))
            .collect();
        writeln!(f, "Allegiance: {}", tracks.join("  "))?;
        let miners: Vec<String> = Faction::ALL[..3]
            .iter()
            .map(|&fa| format!("{} {}/9", fa.adjective(), self.miners[fa.index()]))
            .collect();
        writeln!(
            f,
            "Miners: {} (recruits revealed at 6, tunnel end open at 9)",
            miners.join("  ")
        )?;
        for fa in Faction::ALL {
            let t: Vec<Seat> = self.territory[fa.index()]
                .iter()
                .map(|&s| s as Seat)
                .collect();
            writeln!(
                f,
                "Territory of {} ({}/{}): {}",
                fa.region(),
                t.len(),
                self.territory_spots,
                seats_text(&t)
            )?;
        }
        self.fmt_markets(f)?;
        // Every space but the markets' (told above): the word to type, what it costs and
        // gives, and the workers on it.
        writeln!(
            f,
            "Spaces (type the word in brackets to place a die there):"
        )?;
        for space in Space::all() {
            if matches!(
                space.kind(),
                crate::cards::SpaceKind::Site(..) | crate::cards::SpaceKind::Built(_)
            ) {
                continue;
            }
            let cost = space_cost_text(space);
            let (pay, cost) = if cost == "nothing" {
                ("", "free")
            } else {
                ("pay ", cost.as_str())
            };
            writeln!(
                f,
                "  {} [{space}]: {pay}{cost}; get {}{}",
                space.name(),
                space.gives(&self.rewards),
                self.workers_on(space, "  workers ")
            )?;
        }
        writeln!(
            f,
            "Artifact deck {}  discards {}  recruit deck {}",
            self.artifact_deck,
            self.artifact_discard.len(),
            self.recruit_deck
        )
    }

    /// The workers on `space` after `lead` ("  workers seat 1 (3), seat 2 (5)"), or nothing when there
    /// are none; written straight into the board's text.
    fn workers_on(&self, space: Space, lead: &'static str) -> WorkersOn<'_> {
        WorkersOn {
            view: self,
            space,
            lead,
        }
    }

    /// One line per market: the built tile, or the construction sites.
    fn fmt_markets(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (m, mk) in self.markets.iter().enumerate() {
            let name = market_name(m);
            match mk.tile {
                Some(tile) => {
                    let t = MARKET_TILES[tile as usize];
                    let built = Space::built(m);
                    writeln!(
                        f,
                        "{name}: {} [{built}] stars {}; pay {}; get {}; without a star: {}{}",
                        t.name,
                        seats_text(&mk.stars),
                        t.cost.text(),
                        built.gives(&self.rewards),
                        t.penalty.text(),
                        self.workers_on(built, "  workers ")
                    )?;
                }
                None => {
                    let sites: Vec<String> = (0..4)
                        .map(|k| {
                            let sp = Space::site(m, k);
                            format!(
                                "[{sp}] pay {}{}",
                                space_cost_text(sp),
                                self.workers_on(sp, " workers ")
                            )
                        })
                        .collect();
                    writeln!(
                        f,
                        "{name}: being built, {} of {}; sites {}",
                        mk.workers,
                        engine::ending::plural(mk.needed as i64, "worker", "workers"),
                        sites.join(", ")
                    )?;
                }
            }
        }
        Ok(())
    }

    fn fmt_player(&self, f: &mut fmt::Formatter<'_>, s: Seat, p: &PlayerView) -> fmt::Result {
        let marker = if Some(s) == self.to_act { ">" } else { " " };
        let ready: Vec<String> = p
            .dice
            .iter()
            .filter_map(|d| match d {
                DieLoc::Ready(v) => Some(v.to_string()),
                _ => None,
            })
            .collect();
        let cards = match p.hand {
            Some(h) => Good::ARTIFACT_KINDS
                .iter()
                .zip(h)
                .filter(|(_, n)| *n > 0)
                .map(|(g, n)| format!("{n} {g}"))
                .collect::<Vec<_>>()
                .join(", "),
            None => format!("{} hidden", p.hand_size),
        };
        writeln!(
            f,
            "{marker}seat {}: stars left {}  knowledge {}  morale {}  dice ready [{}]  goods: {}  cards: {}",
            s + 1,
            p.stars_left,
            p.knowledge,
            p.morale,
            ready.join(" "),
            goods_line(&p.supply),
            cards
        )?;
        for r in &p.recruits {
            match r.id {
                Some(id) => writeln!(
                    f,
                    "    {}{} ({}){}: {}",
                    if r.up { "" } else { "hidden: " },
                    id.name(),
                    id.faction().adjective(),
                    if r.star { " *" } else { "" },
                    id.text(self.edition)
                )?,
                None => writeln!(f, "    a face-down recruit")?,
            }
        }
        if let Some(d) = p.dilemma {
            let card = DILEMMAS[d as usize];
            let state = match p.dilemma_state {
                DilemmaState::Unresolved => "not faced yet",
                DilemmaState::Rebelled => "faced: rebelled",
                DilemmaState::Conformed => "faced: conformed, a star on it",
            };
            writeln!(
                f,
                "    dilemma ({state}): rebel \"{}\" / conform \"{}\" (paid with 1 {} card or any 2 artifact cards)",
                card.rebel, card.conform, card.pictured
            )?;
        }
        if let Some(dealt) = &p.dealt {
            for &r in dealt {
                writeln!(
                    f,
                    "    dealt {}: {} ({}): {}",
                    r.number(),
                    r.name(),
                    r.faction().adjective(),
                    r.text(self.edition)
                )?;
            }
        }
        Ok(())
    }
}

/// What [`EuphoriaView::workers_on`] writes.
struct WorkersOn<'a> {
    view: &'a EuphoriaView,
    space: Space,
    lead: &'static str,
}

impl fmt::Display for WorkersOn<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lead = self.lead;
        for (s, p) in self.view.players.iter().enumerate() {
            for die in &p.dice {
                if let DieLoc::Board(space, value) = die {
                    if *space == self.space {
                        write!(f, "{lead}seat {} ({value})", s + 1)?;
                        lead = ", ";
                    }
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for EuphoriaView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "== Euphoria ==")?;
        self.fmt_board(f)?;
        for (s, p) in self.players.iter().enumerate() {
            self.fmt_player(f, s, p)?;
        }
        if let Some(o) = &self.offer {
            writeln!(
                f,
                "Offer from seat {} to seat {}: gives {} for {}",
                self.current + 1,
                o.partner as usize + 1,
                goods_text(&o.give),
                goods_text(&o.ask)
            )?;
        }
        if let Some(d) = &self.drawn {
            let names: Vec<String> = d
                .iter()
                .map(|&r| format!("{} {}: {}", r.number(), r.name(), r.text(self.edition)))
                .collect();
            writeln!(f, "Drawn recruits: {}", names.join("; "))?;
        }
        // The prompt speaks to the seat that decides, named first as the pages name it.
        match self.to_act {
            Some(s) => write!(f, "seat {} to act: {}", s + 1, self.prompt),
            None => write!(f, "{}", self.prompt),
        }
    }
}
