//! What each move did, as one viewer may know it (the game log).
//!
//! Told from the viewer's views before and after the move plus the public part of the
//! action: which recruit a seat keeps and which artifact it draws stay hidden from the
//! others (the drawing seat's own log names its card, which its view shows); dice,
//! supplies, knowledge, morale, stars and markets are public.
use crate::action::{Action, RetrievePay};
use crate::cards::{market_code, market_name, Good, Space, MARKETS, MARKET_TILES};
use crate::state::{Boon, DieLoc, Euphoria, StarTarget};
use crate::view::{EuphoriaView, PlayerView};
use engine::prelude::*;
use engine::text::{seat, word, Arg};
use engine::{Event, Names, Seat, Viewer};
use serde::Serialize;

/// What a seat decided, as everyone may know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "what", rename_all = "snake_case")]
pub enum Decision {
    /// Kept a dealt or drawn recruit (which one shows only where the views show it).
    KeptRecruit,
    Placed {
        value: u8,
        space: Space,
    },
    PickedToRetrieve {
        value: u8,
        space: Space,
    },
    Retrieved {
        pay: String,
    },
    Paid {
        good: Good,
    },
    Took {
        good: Good,
    },
    /// Drew an artifact card: which one for the drawing seat itself (its view shows its
    /// hand), `None` for everyone else.
    DrewArtifact {
        card: Option<Good>,
    },
    Star {
        target: String,
    },
    StoppedDoubles,
    Discarded {
        good: Good,
    },
    Lost {
        good: Good,
    },
    Dilemma,
    Rebelled,
    Conformed,
    StartedTrade,
    OfferedTo {
        partner: Seat,
    },
    Gives {
        good: Good,
    },
    Asks {
        good: Good,
    },
    Proposed,
    Cancelled,
    Accepted,
    Declined,
    Passed,
    UsedRecruit {
        recruit: String,
        /// The ability for a new worker, of a recruit that has two.
        new_worker: bool,
    },
    SetDie {
        value: u8,
    },
    Chose {
        boon: String,
    },
}

/// One thing a move of Euphoria did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EuphoriaEvent {
    /// The acting seat's decision.
    Decided { seat: Seat, decision: Decision },
    /// A die left the board without its owner retrieving it: bumped and re-rolled.
    Bumped {
        seat: Seat,
        space: Space,
        rolled: u8,
    },
    /// A seat's dice came back from the board.
    DiceRetrieved { seat: Seat, values: Vec<u8> },
    /// A die was lost (the knowledge check).
    DieLost { seat: Seat },
    /// A new die joined a seat's workers.
    DieGained { seat: Seat, value: u8 },
    /// Goods, knowledge, morale and artifact cards that changed for one seat.
    Changed {
        seat: Seat,
        goods: Vec<(Good, i64)>,
        knowledge: i64,
        morale: i64,
        artifacts: i64,
    },
    /// A star left a seat's supply.
    StarPlaced { seat: Seat, target: String },
    /// A market was built: its tile, who earned stars on it, and the penalty everyone
    /// else suffers from now on.
    MarketBuilt {
        market: String,
        tile: u8,
        name: String,
        stars: Vec<Seat>,
        penalty: String,
    },
    /// A recruit joined a seat, or turned face up (named only where the view shows it).
    Recruit {
        seat: Seat,
        name: Option<String>,
        revealed: bool,
    },
    /// The game is over.
    GameOver {
        scores: Vec<i64>,
        winners: Vec<Seat>,
    },
}

/// A seat's decision as one sentence for the reader.
fn decision_text(who: Seat, d: &Decision, names: &Names) -> String {
    let good = |g: Good| word(good_name(g));
    let say = |template: &str, args: &[(&str, Arg<'_>)]| {
        let mut all = vec![("who", seat(who))];
        all.extend(args.iter().cloned());
        names.say(template, &all)
    };
    match d {
        Decision::KeptRecruit => say("{who} kept a recruit", &[]),
        Decision::Placed { value, space } => say(
            "{who} placed a die showing {value} on the {space}",
            &[
                ("value", word(value.to_string())),
                ("space", word(space.name())),
            ],
        ),
        Decision::PickedToRetrieve { value, space } => say(
            "{who} picked the die showing {value} on the {space} to retrieve",
            &[
                ("value", word(value.to_string())),
                ("space", word(space.name())),
            ],
        ),
        Decision::Retrieved { pay } => say(
            "{who} retrieved dice, paying {pay}",
            &[("pay", word(pay.as_str()))],
        ),
        Decision::Paid { good: g } => say("{who} paid 1 {good}", &[("good", good(*g))]),
        Decision::Took { good: g } => say("{who} took 1 {good}", &[("good", good(*g))]),
        Decision::DrewArtifact { card: None } => say("{who} drew an artifact card", &[]),
        Decision::DrewArtifact { card: Some(card) } => {
            say("{who} drew a {good} card", &[("good", good(*card))])
        }
        Decision::Star { target } => say(
            "{who} chose to put the star {target}",
            &[("target", word(target.as_str()))],
        ),
        Decision::StoppedDoubles => say("{who} placed no more dice", &[]),
        Decision::Discarded { good: g } => {
            say("{who} discarded a {good} card", &[("good", good(*g))])
        }
        Decision::Lost { good: g } => say("{who} lost 1 {good} to the roll", &[("good", good(*g))]),
        Decision::Dilemma => say("{who} turned up {who's} ethical dilemma", &[]),
        Decision::Rebelled => say(
            "{who} rebelled: {who} {who:draw|draws} two recruits and {who:keep|keeps} one",
            &[],
        ),
        Decision::Conformed => say("{who} conformed and put a star on the dilemma card", &[]),
        Decision::StartedTrade => say("{who} started a trade", &[]),
        Decision::OfferedTo { partner } => say(
            "{who} {who:offer|offers} a trade to {partner}",
            &[("partner", seat(*partner))],
        ),
        Decision::Gives { good: g } => say(
            "{who} {who:add|adds} 1 {good} to what {who} {who:give|gives}",
            &[("good", good(*g))],
        ),
        Decision::Asks { good: g } => {
            say("{who} {who:ask|asks} for 1 {good}", &[("good", good(*g))])
        }
        Decision::Proposed => say("{who} proposed the trade", &[]),
        Decision::Cancelled => say("{who} cancelled the trade", &[]),
        Decision::Accepted => say("{who} accepted the trade", &[]),
        Decision::Declined => say("{who} declined the trade", &[]),
        Decision::Passed => say("{who} passed", &[]),
        Decision::UsedRecruit {
            recruit,
            new_worker: false,
        } => say(
            "{who} used the ability of {recruit}",
            &[("recruit", word(recruit.as_str()))],
        ),
        Decision::UsedRecruit {
            recruit,
            new_worker: true,
        } => say(
            "{who} used the ability of {recruit} for a new worker",
            &[("recruit", word(recruit.as_str()))],
        ),
        Decision::SetDie { value } => say(
            "{who} set a die to {value}",
            &[("value", word(value.to_string()))],
        ),
        Decision::Chose { boon } => say("{who} chose {boon}", &[("boon", word(boon.as_str()))]),
    }
}

/// A good's English name.
pub fn good_name(good: Good) -> &'static str {
    match good {
        Good::Energy => "energy",
        Good::Water => "water",
        Good::Food => "food",
        Good::Bliss => "bliss",
        Good::Gold => "gold",
        Good::Stone => "stone",
        Good::Clay => "clay",
        Good::Book => "book",
        Good::Glasses => "glasses",
        Good::Game => "game",
        Good::Bear => "bear",
        Good::Balloon => "balloon",
        Good::Bat => "bat",
    }
}

fn signed(n: i64, what: &str) -> String {
    format!("{n:+} {what}")
}

/// A seat's changes of goods, artifact cards, knowledge and morale, in words.
fn changes_text(goods: &[(Good, i64)], knowledge: i64, morale: i64, artifacts: i64) -> String {
    let mut parts: Vec<String> = goods
        .iter()
        .map(|&(g, n)| signed(n, good_name(g)))
        .collect();
    if artifacts != 0 {
        let noun = if artifacts.abs() == 1 {
            "artifact card"
        } else {
            "artifact cards"
        };
        parts.push(signed(artifacts, noun));
    }
    if knowledge != 0 {
        parts.push(signed(knowledge, "knowledge"));
    }
    if morale != 0 {
        parts.push(signed(morale, "morale"));
    }
    parts.join(", ")
}

/// The end of the game: winners and every seat's stars placed.
fn game_over_text(scores: &[i64], winners: &[Seat], names: &Names) -> String {
    let each: Vec<String> = scores
        .iter()
        .enumerate()
        .map(|(s, p)| format!("{} {p}", names.seat(s)))
        .collect();
    format!(
        "the game is over: {} won (stars placed: {})",
        names.list(winners),
        each.join(", ")
    )
}

impl Event for EuphoriaEvent {
    fn text(&self, names: &Names) -> String {
        match self {
            EuphoriaEvent::Decided { seat, decision } => decision_text(*seat, decision, names),
            EuphoriaEvent::Bumped {
                seat,
                space,
                rolled,
            } => format!(
                "{} die on the {} was bumped and re-rolled: {rolled}",
                names.of(*seat),
                space.name()
            ),
            EuphoriaEvent::DiceRetrieved { seat, values } => format!(
                "{} got back dice showing {}",
                names.seat(*seat),
                values
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            EuphoriaEvent::DieLost { seat } => format!(
                "{} lost a die: the dice's knowledge was too high",
                names.seat(*seat)
            ),
            EuphoriaEvent::DieGained { seat, value } => {
                format!("{} gained a new die, showing {value}", names.seat(*seat))
            }
            EuphoriaEvent::Changed {
                seat,
                goods,
                knowledge,
                morale,
                artifacts,
            } => format!(
                "{}: {}",
                names.seat(*seat),
                changes_text(goods, *knowledge, *morale, *artifacts)
            ),
            EuphoriaEvent::StarPlaced { seat, target } => {
                format!("{} placed a star {target}", names.seat(*seat))
            }
            EuphoriaEvent::MarketBuilt {
                market,
                name,
                stars,
                penalty,
                ..
            } => format!(
                "{} is built, the {name}: stars for {}; from now on the others: {penalty}",
                (0..MARKETS)
                    .find(|&m| market_code(m).eq_ignore_ascii_case(market))
                    .map_or_else(|| format!("market {market}"), market_name),
                names.list(stars)
            ),
            EuphoriaEvent::Recruit {
                seat,
                name,
                revealed,
            } => match (name, revealed) {
                (Some(n), true) => format!("{} turned up the recruit {n}", names.seat(*seat)),
                (None, true) => format!("{} turned up a recruit", names.seat(*seat)),
                (Some(n), false) => format!("{} gained the recruit {n}", names.seat(*seat)),
                (None, false) => format!("{} gained a recruit face down", names.seat(*seat)),
            },
            EuphoriaEvent::GameOver { scores, winners } => game_over_text(scores, winners, names),
        }
    }
}

fn star_target(t: StarTarget) -> String {
    match t {
        StarTarget::Territory => "in the territory".into(),
        StarTarget::Market(m) => {
            format!("on {}", market_name(m as usize % MARKETS))
        }
    }
}

fn decision(action: Action) -> Decision {
    match action {
        Action::KeepUp(_) | Action::KeepDown(_) | Action::Keep(_) => Decision::KeptRecruit,
        Action::Place { value, space } => Decision::Placed { value, space },
        Action::Retrieve { value, space } => Decision::PickedToRetrieve { value, space },
        Action::FinishRetrieve(p) => Decision::Retrieved {
            pay: match p {
                RetrievePay::Food => "1 food",
                RetrievePay::Bliss => "1 bliss",
                RetrievePay::Free => "nothing",
                RetrievePay::Energy => "1 energy",
            }
            .into(),
        },
        Action::Pay(good) => Decision::Paid { good },
        Action::Take(good) => Decision::Took { good },
        Action::Draw => Decision::DrewArtifact { card: None },
        Action::Star(t) => Decision::Star {
            target: star_target(t),
        },
        Action::End => Decision::StoppedDoubles,
        Action::Discard(good) => Decision::Discarded { good },
        Action::Lose(good) => Decision::Lost { good },
        Action::Dilemma => Decision::Dilemma,
        Action::Rebel => Decision::Rebelled,
        Action::Conform => Decision::Conformed,
        Action::Trade => Decision::StartedTrade,
        Action::Offer(p) => Decision::OfferedTo {
            partner: usize::from(p),
        },
        Action::Give(good) => Decision::Gives { good },
        Action::Ask(good) => Decision::Asks { good },
        Action::Propose => Decision::Proposed,
        Action::Cancel => Decision::Cancelled,
        Action::Accept => Decision::Accepted,
        Action::Decline => Decision::Declined,
        Action::Pass => Decision::Passed,
        Action::Use(key) => Decision::UsedRecruit {
            recruit: key.name().to_string(),
            new_worker: false,
        },
        Action::UseNew(key) => Decision::UsedRecruit {
            recruit: key.name().to_string(),
            new_worker: true,
        },
        Action::Set(value) => Decision::SetDie { value },
        Action::Choose(b) => Decision::Chose {
            boon: match b {
                Boon::Good(g) => format!("1 {}", good_name(g)),
                Boon::Morale => "+1 morale".into(),
                Boon::LessKnowledge => "-1 knowledge".into(),
            },
        },
    }
}

/// Seat `s`'s dice that moved: bumped, retrieved (`retrieving`: the seat's own finished
/// retrieval, not a bump), gained or lost.
fn dice_events(
    out: &mut Vec<EuphoriaEvent>,
    s: Seat,
    b: &PlayerView,
    a: &PlayerView,
    retrieving: bool,
) {
    let mut back = Vec::new();
    for (&db, &da) in b.dice.iter().zip(&a.dice) {
        match (db, da) {
            (DieLoc::Board(space, _), DieLoc::Ready(v)) if !retrieving => {
                out.push(EuphoriaEvent::Bumped {
                    seat: s,
                    space,
                    rolled: v,
                })
            }
            (DieLoc::Board(..), DieLoc::Ready(v)) => back.push(v),
            (DieLoc::Reserve, DieLoc::Ready(v)) => {
                out.push(EuphoriaEvent::DieGained { seat: s, value: v })
            }
            (DieLoc::Ready(_) | DieLoc::Board(..), DieLoc::Reserve) => {
                out.push(EuphoriaEvent::DieLost { seat: s })
            }
            _ => {}
        }
    }
    if !back.is_empty() {
        out.push(EuphoriaEvent::DiceRetrieved {
            seat: s,
            values: back,
        });
    }
}

/// Seat `s`'s recruits gained, or turned up (`same_phase`: not by the end of setup).
fn recruit_events(
    out: &mut Vec<EuphoriaEvent>,
    s: Seat,
    b: &PlayerView,
    a: &PlayerView,
    same_phase: bool,
) {
    for (k, ra) in a.recruits.iter().enumerate() {
        let name = ra.id.map(|id| id.name().to_string());
        match b.recruits.get(k) {
            None => out.push(EuphoriaEvent::Recruit {
                seat: s,
                name,
                revealed: false,
            }),
            Some(rb) if ra.up && !rb.up && same_phase => out.push(EuphoriaEvent::Recruit {
                seat: s,
                name,
                revealed: true,
            }),
            _ => {}
        }
    }
}

/// The artifact card a draw added to a hand, where the views show that hand (the
/// drawing seat's own): the one kind it holds one more of.
fn drawn_card(before: &PlayerView, after: &PlayerView) -> Option<Good> {
    let (b, a) = (before.hand?, after.hand?);
    let mut more = (Good::ARTIFACT_KINDS.iter().zip(b.iter().zip(&a))).filter(|(_, (x, y))| y > x);
    match (more.next(), more.next()) {
        (Some((&card, (&x, &y))), None) if y == x + 1 => Some(card),
        _ => None,
    }
}

/// What changed between two views of the table.
fn describe(
    seat: Seat,
    action: Action,
    before: &EuphoriaView,
    after: &EuphoriaView,
) -> Vec<EuphoriaEvent> {
    let decision = match decision(action) {
        Decision::DrewArtifact { .. } => Decision::DrewArtifact {
            card: before
                .players
                .get(seat)
                .zip(after.players.get(seat))
                .and_then(|(b, a)| drawn_card(b, a)),
        },
        other => other,
    };
    let mut out = vec![EuphoriaEvent::Decided { seat, decision }];
    let retrieving = matches!(action, Action::FinishRetrieve(_));
    for (s, (b, a)) in before.players.iter().zip(&after.players).enumerate() {
        dice_events(&mut out, s, b, a, retrieving && s == seat);
        let goods: Vec<(Good, i64)> = Good::ALL
            .iter()
            .zip(b.supply.iter().zip(&a.supply))
            .filter(|(_, (x, y))| x != y)
            .map(|(&g, (&x, &y))| (g, i64::from(y) - i64::from(x)))
            .collect();
        let knowledge = i64::from(a.knowledge) - i64::from(b.knowledge);
        let morale = i64::from(a.morale) - i64::from(b.morale);
        let artifacts = i64::from(a.hand_size) - i64::from(b.hand_size);
        if !goods.is_empty() || knowledge != 0 || morale != 0 || artifacts != 0 {
            out.push(EuphoriaEvent::Changed {
                seat: s,
                goods,
                knowledge,
                morale,
                artifacts,
            });
        }
        for _ in a.stars_left..b.stars_left {
            let target = match action {
                Action::Star(t) if s == seat => star_target(t),
                Action::Conform if s == seat => "on the dilemma card".into(),
                _ => "on the board".into(),
            };
            out.push(EuphoriaEvent::StarPlaced { seat: s, target });
        }
        recruit_events(&mut out, s, b, a, after.setup_done == before.setup_done);
    }
    for (m, (b, a)) in before.markets.iter().zip(&after.markets).enumerate() {
        if let (None, Some(tile)) = (b.tile, a.tile) {
            let card = &MARKET_TILES[tile as usize % MARKET_TILES.len()];
            out.push(EuphoriaEvent::MarketBuilt {
                market: market_code(m).to_uppercase(),
                tile,
                name: card.name.to_string(),
                stars: a.stars.clone(),
                penalty: card.penalty.text(),
            });
        }
    }
    out
}

impl Euphoria {
    /// The body of `Present::events`.
    pub(crate) fn events(
        before: &Euphoria,
        action: Action,
        after: &Euphoria,
        viewer: Viewer,
    ) -> Vec<EuphoriaEvent> {
        let Some(seat) = before.to_act() else {
            return Vec::new();
        };
        let mut out = describe(seat, action, &before.view(viewer), &after.view(viewer));
        if let Some(outcome) = after.outcome() {
            out.push(EuphoriaEvent::GameOver {
                winners: outcome.winners(),
                scores: outcome.scores,
            });
        }
        out
    }
}
