//! What each move did, as one viewer may know it (the game log).
//!
//! Worked out from what every seat sees of the table before and after the move ([`Seen`],
//! borrowed from the state: the piles, the scored rounds, the totals, who acts) plus the
//! public part of the action: where a card went is public, the value of a banked card is
//! not (ruling S11: it stays face down even to its owner, unless `open_debt` shows the
//! owner their own). No hand, debt or deck is read here.
//!
//! Not from two whole views per viewer, as it once was: a view copies the viewer's hand,
//! every pile and every scored round, and the server tells each move to each viewer, so
//! those copies were about a sixth of its work a move.
use crate::action::{Action, Target};
use crate::cards::{Deck, UNMATCHED};
use crate::state::{DropSite, Pile, RoundEnd, RoundResult};
use engine::text::{and_list, seat, word};
use engine::{Event, Names, Seat, Viewer};
use serde::{Deserialize, Serialize};

/// What became of a card played on a drop site.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Landing {
    /// Lower than the top, on top.
    Top,
    /// A zero turned the site sideways (a new site may be started on it).
    Sideways,
    /// A new site started on the sideways zero (no new pile toward the round end, S6).
    Restarted,
    /// A second zero closed the site (S7).
    Closed,
}

/// One debt card at the end of a round: how often a site showed its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DebtMatch {
    pub card: u8,
    /// How many shown values it matched (0: it scores -2).
    pub matched: u32,
    pub points: i64,
}

/// One thing a move of Drop Site did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DropSiteEvent {
    /// A card went face down onto the seat's debt; its value only for its owner under
    /// `open_debt`.
    Banked { seat: Seat, card: Option<u8> },
    /// A new drop site (counted from 0) was made; a zero lies sideways at once (S5).
    Opened {
        seat: Seat,
        card: u8,
        site: usize,
        sideways: bool,
    },
    /// A card was played on a drop site (counted from 0).
    Played {
        seat: Seat,
        card: u8,
        site: usize,
        landing: Landing,
    },
    /// The round is over: what each site showed for matching.
    RoundOver {
        round: u32,
        ended_by: RoundEnd,
        shown: Vec<Vec<u8>>,
    },
    /// A seat's debt turned up and scored.
    DebtScored {
        seat: Seat,
        matches: Vec<DebtMatch>,
        score: i64,
        total: i64,
    },
    /// The next round was dealt.
    RoundStarted { round: u32, first: Seat, flip: u8 },
    /// The game is over.
    GameOver {
        winner: Option<Seat>,
        totals: Vec<i64>,
    },
}

/// "a 7", "an 8", "a zero".
fn a_card(card: u8) -> String {
    match card {
        0 => "a zero".into(),
        8 | 11 => format!("an {card}"),
        _ => format!("a {card}"),
    }
}

/// Words read as a list ("a, b and c"), "nothing" for none.
fn list(values: impl IntoIterator<Item = String>) -> String {
    let values: Vec<String> = values.into_iter().collect();
    and_list(&values, "nothing")
}

fn times(n: u32) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

impl Event for DropSiteEvent {
    fn text(&self, names: &Names) -> String {
        match self {
            DropSiteEvent::Banked {
                seat: who,
                card: None,
            } => names.say(
                "{who} played a card face down on {who's} debt",
                &[("who", seat(*who))],
            ),
            DropSiteEvent::Banked {
                seat: who,
                card: Some(c),
            } => names.say(
                "{who} played {card} on {who's} debt",
                &[("who", seat(*who)), ("card", word(a_card(*c)))],
            ),
            DropSiteEvent::Opened {
                seat: who,
                card,
                site,
                sideways,
            } => names.say(
                if *sideways {
                    "{who} started drop site {site} with {card}, lying sideways"
                } else {
                    "{who} started drop site {site} with {card}"
                },
                &[
                    ("who", seat(*who)),
                    ("site", word((site + 1).to_string())),
                    ("card", word(a_card(*card))),
                ],
            ),
            DropSiteEvent::Played {
                seat: who,
                card,
                site,
                landing,
            } => names.say(
                match landing {
                    Landing::Top => "{who} played {card} on drop site {site}",
                    Landing::Sideways => {
                        "{who} played {card} on drop site {site}, turning it sideways"
                    }
                    Landing::Restarted => {
                        "{who} started a new drop site with {card} on the sideways zero of \
                         drop site {site}"
                    }
                    Landing::Closed => {
                        "{who} closed drop site {site} with a second zero: nothing more goes on it"
                    }
                },
                &[
                    ("who", seat(*who)),
                    ("card", word(a_card(*card))),
                    ("site", word((site + 1).to_string())),
                ],
            ),
            DropSiteEvent::RoundOver {
                round,
                ended_by,
                shown,
            } => {
                let why = match ended_by {
                    RoundEnd::PileLimit => format!("drop site {} was started", shown.len()),
                    RoundEnd::DeckEmpty => "the last card of the deck was drawn".into(),
                };
                let sites = list(
                    shown
                        .iter()
                        .map(|s| list(s.iter().map(ToString::to_string))),
                );
                format!("round {round} is over ({why}): the drop sites showed {sites}")
            }
            DropSiteEvent::DebtScored {
                seat: who,
                matches,
                score,
                total,
            } => {
                let score = word(format!("{score:+}"));
                let total = word(total.to_string());
                if matches.is_empty() {
                    return names.say(
                        "{who's} debt was empty: {score}, {total} in all",
                        &[("who", seat(*who)), ("score", score), ("total", total)],
                    );
                }
                let cards = list(matches.iter().map(|m| m.card.to_string()));
                let each: Vec<String> = matches
                    .iter()
                    .map(|m| match m.matched {
                        0 => format!("the {} matched no drop site ({:+})", m.card, m.points),
                        n => format!("the {} matched {} ({:+})", m.card, times(n), m.points),
                    })
                    .collect();
                names.say(
                    "{who's} debt held {cards}: {each}; {score} this round, {total} in all",
                    &[
                        ("who", seat(*who)),
                        ("cards", word(cards)),
                        ("each", word(each.join(", "))),
                        ("score", score),
                        ("total", total),
                    ],
                )
            }
            DropSiteEvent::RoundStarted { round, first, flip } => names.say(
                "round {round} begins: {first} {first:play|plays} first; drop site 1 is {card}",
                &[
                    ("round", word(round.to_string())),
                    ("first", seat(*first)),
                    ("card", word(a_card(*flip))),
                ],
            ),
            DropSiteEvent::GameOver { winner, totals } => {
                let scores = list(totals.iter().enumerate().map(|(s, t)| {
                    names.say("{who} {t}", &[("who", seat(s)), ("t", word(t.to_string()))])
                }));
                match winner {
                    Some(w) => names.say(
                        "the game is over: {who} won ({scores})",
                        &[("who", seat(*w)), ("scores", word(scores))],
                    ),
                    None => format!("the game is over ({scores})"),
                }
            }
        }
    }
}

/// Where the card went, as everyone may know it: a banked card's value is hidden.
#[derive(Clone, Copy)]
enum Public {
    Debt,
    New(u8),
    On(u8, usize),
}

fn public(action: Action) -> Public {
    match action.target {
        Target::Debt => Public::Debt,
        Target::New => Public::New(action.card),
        Target::Site(i) => Public::On(action.card, i as usize),
    }
}

fn landing(pile: Option<&Pile>, card: u8) -> Landing {
    match pile {
        Some(p) if p.sideways && !p.restarted => Landing::Restarted,
        Some(p) if card == 0 && p.sideways => Landing::Closed,
        _ if card == 0 => Landing::Sideways,
        _ => Landing::Top,
    }
}

/// The debt cards of one seat against the shown values.
fn matches(deck: &Deck, debt: &[u8], shown: &[Vec<u8>]) -> Vec<DebtMatch> {
    debt.iter()
        .map(|&card| {
            let matched = shown.iter().flatten().filter(|&&v| v == card).count() as u32;
            let points = if matched == 0 {
                UNMATCHED
            } else {
                deck.points(card) * i64::from(matched)
            };
            DebtMatch {
                card,
                matched,
                points,
            }
        })
        .collect()
}

/// What every seat sees of a table: the part of a view the events are told from.
struct Seen<'a> {
    to_act: Option<Seat>,
    round: u32,
    piles: &'a [Pile],
    history: &'a [RoundResult],
    totals: &'a [i64],
    /// The winner, once the game is over.
    winner: Option<Seat>,
}

impl DropSite {
    fn seen(&self) -> Seen<'_> {
        Seen {
            to_act: self.to_act,
            round: self.round,
            piles: &self.piles,
            history: &self.history,
            totals: &self.totals,
            winner: self.winner(),
        }
    }
}

/// The move told from what every seat saw before and after it, the public part of the
/// action, and the banked card where its owner may see it.
fn describe(
    deck: &Deck,
    before: &Seen,
    action: Public,
    own_card: Option<u8>,
    after: &Seen,
) -> Vec<DropSiteEvent> {
    let mut out = Vec::new();
    let Some(seat) = before.to_act else {
        return out;
    };
    out.push(match action {
        Public::Debt => DropSiteEvent::Banked {
            seat,
            card: own_card,
        },
        Public::New(card) => DropSiteEvent::Opened {
            seat,
            card,
            site: before.piles.len(),
            sideways: card == 0,
        },
        Public::On(card, site) => DropSiteEvent::Played {
            seat,
            card,
            site,
            landing: landing(before.piles.get(site), card),
        },
    });
    if after.history.len() > before.history.len() {
        if let Some(round) = after.history.last() {
            out.push(DropSiteEvent::RoundOver {
                round: round.round,
                ended_by: round.ended_by,
                shown: round.shown.clone(),
            });
            for (s, debt) in round.debts.iter().enumerate() {
                out.push(DropSiteEvent::DebtScored {
                    seat: s,
                    matches: matches(deck, debt, &round.shown),
                    score: round.scores.get(s).copied().unwrap_or(0),
                    total: after.totals.get(s).copied().unwrap_or(0),
                });
            }
        }
        match after.to_act {
            Some(first) => out.push(DropSiteEvent::RoundStarted {
                round: after.round,
                first,
                flip: after
                    .piles
                    .first()
                    .and_then(|p| p.cards.first())
                    .copied()
                    .unwrap_or(0),
            }),
            None => out.push(DropSiteEvent::GameOver {
                winner: after.winner,
                totals: after.totals.to_vec(),
            }),
        }
    }
    out
}

impl DropSite {
    /// The body of `Present::events`.
    pub(crate) fn events(
        before: &DropSite,
        action: Action,
        after: &DropSite,
        viewer: Viewer,
    ) -> Vec<DropSiteEvent> {
        // The owner sees a banked card only when its open debt shows it anyway.
        let own_card = before.sees_own_bank(viewer).then_some(action.card);
        describe(
            &after.config.deck,
            &before.seen(),
            public(action),
            own_card,
            &after.seen(),
        )
    }
}
