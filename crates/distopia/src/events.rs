//! What each move did, as one viewer may know it (the game log).
//!
//! Everything on the table is public in Distop-IA: the districts, the hand being played,
//! the characters and the advanced cards. Only the deck's order and which cards lie in the
//! won piles are hidden (ruling D23). A move is told by replaying it on a copy of the
//! table whose deck is taken away, which gives the table just before the refill; the
//! refill card is then read from the table after the move, where it lies face up. Won
//! cards are named from the districts they were won from, where everyone saw them.
use crate::action::{letter_char, Action};
use crate::cards::{Collaborator, Mission};
use crate::state::{district, letter_of, owner, Distopia, Phase, DISTRICTS};
use crate::view::CardView;
use engine::ending::plural;
use engine::prelude::*;
use engine::text::{and_list, seat, word, Arg};
use engine::{Event, Names, Seat};
use serde::Serialize;

/// A district: whose side and its letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Place {
    pub seat: Seat,
    pub letter: char,
}

impl Place {
    fn of(i: usize) -> Place {
        Place {
            seat: owner(i),
            letter: letter_char(letter_of(i)),
        }
    }

    /// The district's letter, as a slot's words.
    fn letter(self) -> Arg<'static> {
        word(String::from(self.letter))
    }
}

/// One guard moved by a siren.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GuardMove {
    pub from: Place,
    pub to: Place,
}

/// One thing a move of Distop-IA did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DistopiaEvent {
    /// A district's cards became the hand (none when all four were empty, ruling D9).
    Picked {
        seat: Seat,
        from: Place,
        cards: Vec<CardView>,
    },
    /// A card (contraband or a guard) was played into a district.
    Played {
        seat: Seat,
        card: CardView,
        to: Place,
    },
    /// A guarded district was passed by a player holding no guard.
    Skipped { seat: Seat, at: Place },
    /// Spy Pets: the next card goes across the border.
    Crossed { seat: Seat },
    /// Grandma the Hacker: this turn goes clockwise.
    Clockwise { seat: Seat },
    /// Rebel Robot: the top card of a neighbouring district joined the hand.
    Robot {
        seat: Seat,
        from: Place,
        card: CardView,
    },
    /// Contraband above a district's border number was won (face down from now on).
    Won {
        seat: Seat,
        from: Place,
        cards: Vec<CardView>,
    },
    /// The Shelf Raider may take one more card.
    RaidOffered { seat: Seat },
    /// The Shelf Raider took one more card.
    Raided {
        seat: Seat,
        from: Place,
        card: CardView,
    },
    /// The Shelf Raider was not used.
    RaidDeclined { seat: Seat },
    /// A mission card was earned (+5 at the end).
    MissionEarned { seat: Seat, mission: Mission },
    /// The emptied district was refilled from the deck.
    Refilled { at: Place, card: CardView },
    /// A siren card came up: each top guard moves one district toward it (ruling D18).
    Siren { at: Place, moves: Vec<GuardMove> },
    /// The turn about to begin would start from a position that came up twice before
    /// since anything was drawn or won: the game ends as it stands (ruling X15).
    Repeated,
    /// The game is over: final scores.
    GameOver {
        scores: Vec<i64>,
        winners: Vec<Seat>,
    },
}

fn card_text(card: &CardView) -> String {
    match card.number {
        None => "a guard".into(),
        Some(n) => format!("{} ({n})", card.name),
    }
}

fn cards_text(cards: &[CardView]) -> String {
    let texts: Vec<String> = cards.iter().map(card_text).collect();
    and_list(&texts, "nothing")
}

fn cards_count(n: usize) -> String {
    plural(n as i64, "card", "cards")
}

impl Event for DistopiaEvent {
    fn text(&self, names: &Names) -> String {
        // What a collaborator did for `who`: with the card it moved, and from where.
        let used =
            |template: &str, who: Seat, c: Collaborator, moved: Option<(&CardView, &Place)>| {
                let mut args = vec![("who", seat(who)), ("c", word(c.to_string()))];
                if let Some((card, from)) = moved {
                    args.extend([
                        ("card", word(card_text(card))),
                        ("owner", seat(from.seat)),
                        ("d", from.letter()),
                    ]);
                }
                names.say(template, &args)
            };
        match self {
            DistopiaEvent::Picked {
                seat: who, from, ..
            } if self.picked_nothing() => names.say(
                "{who} picked up {owner's} district {d}: all four districts were empty, so \
                 the turn ends",
                &[
                    ("who", seat(*who)),
                    ("owner", seat(from.seat)),
                    ("d", from.letter()),
                ],
            ),
            DistopiaEvent::Picked {
                seat: who,
                from,
                cards,
            } => names.say(
                "{who} picked up {owner's} district {d} ({n}): {cards}",
                &[
                    ("who", seat(*who)),
                    ("owner", seat(from.seat)),
                    ("d", from.letter()),
                    ("n", word(cards_count(cards.len()))),
                    ("cards", word(cards_text(cards))),
                ],
            ),
            DistopiaEvent::Played {
                seat: who,
                card,
                to,
            } => names.say(
                "{who} played {card} into {owner's} district {d}",
                &[
                    ("who", seat(*who)),
                    ("card", word(card_text(card))),
                    ("owner", seat(to.seat)),
                    ("d", to.letter()),
                ],
            ),
            DistopiaEvent::Skipped { seat: who, at } => names.say(
                "{who} passed {owner's} district {d}: it is guarded and {who} {who:have|has} \
                 no guard to play",
                &[
                    ("who", seat(*who)),
                    ("owner", seat(at.seat)),
                    ("d", at.letter()),
                ],
            ),
            DistopiaEvent::Crossed { seat: who } => used(
                "{who} used {c}: the next card goes across the border",
                *who,
                Collaborator::SpyPets,
                None,
            ),
            DistopiaEvent::Clockwise { seat: who } => used(
                "{who} used {c}: this turn goes clockwise",
                *who,
                Collaborator::GrandmaTheHacker,
                None,
            ),
            DistopiaEvent::Robot {
                seat: who,
                from,
                card,
            } => used(
                "{who} used {c} and took {card} from {owner's} district {d} into the hand",
                *who,
                Collaborator::RebelRobot,
                Some((card, from)),
            ),
            DistopiaEvent::Won {
                seat: who,
                from,
                cards,
            } => names.say(
                "{who} won {n} from {owner's} district {d}: {cards}",
                &[
                    ("who", seat(*who)),
                    ("n", word(cards_count(cards.len()))),
                    ("owner", seat(from.seat)),
                    ("d", from.letter()),
                    ("cards", word(cards_text(cards))),
                ],
            ),
            DistopiaEvent::RaidOffered { seat: who } => used(
                "{who} may take one more card with {c}",
                *who,
                Collaborator::ShelfRaider,
                None,
            ),
            DistopiaEvent::Raided {
                seat: who,
                from,
                card,
            } => used(
                "{who} used {c} and won {card} from {owner's} district {d} too",
                *who,
                Collaborator::ShelfRaider,
                Some((card, from)),
            ),
            DistopiaEvent::RaidDeclined { seat: who } => used(
                "{who} did not use {c}",
                *who,
                Collaborator::ShelfRaider,
                None,
            ),
            DistopiaEvent::MissionEarned { seat: who, mission } => names.say(
                "{who} earned the mission {m}: 5 points at the end",
                &[("who", seat(*who)), ("m", word(mission.to_string()))],
            ),
            DistopiaEvent::Refilled { at, card } => names.say(
                "{owner's} district {d} was refilled from the deck: {card}",
                &[
                    ("owner", seat(at.seat)),
                    ("d", at.letter()),
                    ("card", word(card_text(card))),
                ],
            ),
            DistopiaEvent::Siren { at, moves } if moves.is_empty() => names.say(
                "a siren came up in {owner's} district {d}: no guard moves",
                &[("owner", seat(at.seat)), ("d", at.letter())],
            ),
            DistopiaEvent::Siren { at, moves } => {
                let each: Vec<String> = moves
                    .iter()
                    .map(|m| {
                        names.say(
                            "the guard in {owner's} district {from} moves to {to}",
                            &[
                                ("owner", seat(m.from.seat)),
                                ("from", m.from.letter()),
                                ("to", m.to.letter()),
                            ],
                        )
                    })
                    .collect();
                names.say(
                    "a siren came up in {owner's} district {d}: {moves}",
                    &[
                        ("owner", seat(at.seat)),
                        ("d", at.letter()),
                        ("moves", word(and_list(&each, "no guard moves"))),
                    ],
                )
            }
            DistopiaEvent::Repeated => "the same position came up a third time since a card was \
                                         drawn or won: the game ends as it stands"
                .into(),
            DistopiaEvent::GameOver { scores, winners } => match winners.as_slice() {
                [w] => {
                    let others: Vec<String> = (0..scores.len())
                        .filter(|s| s != w)
                        .map(|s| {
                            names.say(
                                "{points} for {who}",
                                &[("who", seat(s)), ("points", word(scores[s].to_string()))],
                            )
                        })
                        .collect();
                    names.say(
                        "the game is over: {who} won with {points}, against {others}",
                        &[
                            ("who", seat(*w)),
                            ("points", word(engine::ending::points(scores[*w]))),
                            ("others", word(and_list(&others, "nobody"))),
                        ],
                    )
                }
                _ => {
                    let each: Vec<String> = scores
                        .iter()
                        .enumerate()
                        .map(|(s, p)| {
                            names.say(
                                "{points} for {who}",
                                &[
                                    ("who", seat(s)),
                                    ("points", word(engine::ending::points(*p))),
                                ],
                            )
                        })
                        .collect();
                    names.say(
                        "the game is over: a draw, {each}",
                        &[("each", word(and_list(&each, "no scores")))],
                    )
                }
            },
        }
    }
}

impl DistopiaEvent {
    /// A pick-up of four empty districts (ruling D9).
    fn picked_nothing(&self) -> bool {
        matches!(self, DistopiaEvent::Picked { cards, .. } if cards.is_empty())
    }
}

fn cards_of(game: &Distopia, stack: &[crate::cards::Card]) -> Vec<CardView> {
    stack.iter().map(|&c| CardView::of(game, c)).collect()
}

impl Distopia {
    /// The body of `Present::events`; the same for every viewer, since all it tells is public.
    pub(crate) fn events(
        before: &Distopia,
        action: Action,
        after: &Distopia,
    ) -> Vec<DistopiaEvent> {
        let mut out = Vec::new();
        let seat = before.current;
        // The move on a table without its deck: everything up to the refill, and nothing
        // hidden to read.
        let mut mid = before.clone();
        mid.deck.clear();
        if mid.play(action).is_err() {
            return out;
        }
        let target = before.next_district();
        let mut placed = None;
        match action {
            Action::Pick(l) => {
                let i = district(seat, l);
                out.push(DistopiaEvent::Picked {
                    seat,
                    from: Place::of(i),
                    cards: cards_of(before, &before.districts[i]),
                });
            }
            Action::Play(card) => {
                placed = Some((target, card));
                out.push(DistopiaEvent::Played {
                    seat,
                    card: CardView::of(before, card),
                    to: Place::of(target),
                });
            }
            Action::PlayGuard => {
                if let Some(&guard) = before.turn.hand.last() {
                    placed = Some((target, guard));
                    out.push(DistopiaEvent::Played {
                        seat,
                        card: CardView::of(before, guard),
                        to: Place::of(target),
                    });
                }
            }
            Action::Skip => out.push(DistopiaEvent::Skipped {
                seat,
                at: Place::of(target),
            }),
            Action::Cross => out.push(DistopiaEvent::Crossed { seat }),
            Action::Grandma => out.push(DistopiaEvent::Clockwise { seat }),
            Action::Robot(l) => {
                let i = district(seat, l);
                if let Some(&card) = before.districts[i].last() {
                    out.push(DistopiaEvent::Robot {
                        seat,
                        from: Place::of(i),
                        card: CardView::of(before, card),
                    });
                }
            }
            Action::Raid(l) => {
                let i = district(1 - seat, l);
                if let Some(&card) = before.districts[i].last() {
                    out.push(DistopiaEvent::Raided {
                        seat,
                        from: Place::of(i),
                        card: CardView::of(before, card),
                    });
                }
            }
            Action::Pass => out.push(DistopiaEvent::RaidDeclined { seat }),
        }
        // Cards won at the end of the play: what left the opponent's districts.
        if !matches!(action, Action::Raid(_)) {
            for i in (0..DISTRICTS).filter(|&i| owner(i) != seat) {
                let mut stack = before.districts[i].clone();
                if let Some((_, card)) = placed.filter(|&(at, _)| at == i) {
                    stack.push(card);
                }
                let kept = mid.districts[i].len();
                if kept < stack.len() {
                    out.push(DistopiaEvent::Won {
                        seat,
                        from: Place::of(i),
                        cards: cards_of(before, &stack[kept..]).into_iter().rev().collect(),
                    });
                }
            }
        }
        if mid.phase == Phase::Raid && before.phase != Phase::Raid {
            out.push(DistopiaEvent::RaidOffered { seat });
        }
        if let (Some(b), Some(m)) = (before.mission, mid.mission) {
            if let (None, Some(by)) = (b.claimed_by, m.claimed_by) {
                out.push(DistopiaEvent::MissionEarned {
                    seat: by,
                    mission: m.card,
                });
            }
        }
        // The refill: the picked district was emptied and the deck gave a card.
        let picked = mid.turn.picked;
        if mid.phase != Phase::Play
            && mid.phase != Phase::Raid
            && mid.districts[picked].is_empty()
            && after.deck.len() < before.deck.len()
        {
            if let Some(&card) = after.districts[picked].first() {
                out.push(DistopiaEvent::Refilled {
                    at: Place::of(picked),
                    card: CardView::of(before, card),
                });
                if before.contraband(card).siren {
                    let (moves, n) = mid.siren_moves(picked);
                    out.push(DistopiaEvent::Siren {
                        at: Place::of(picked),
                        moves: moves[..n]
                            .iter()
                            .map(|&(from, to)| GuardMove {
                                from: Place::of(from),
                                to: Place::of(to),
                            })
                            .collect(),
                    });
                }
            }
        }
        if after.ended_by_repetition() {
            out.push(DistopiaEvent::Repeated);
        }
        if after.phase == Phase::Over {
            if let Some(outcome) = GameRules::outcome(after) {
                out.push(DistopiaEvent::GameOver {
                    winners: outcome.winners(),
                    scores: outcome.scores,
                });
            }
        }
        out
    }
}
