//! The Wastelander recruits (25 to 36), each ability whole: when it may be used and what
//! it does. (Brian pays bliss with food, in `payment.rs`, and costs morale in Icarus, in
//! `placement.rs`; Flartner pays a construction site with an artifact, in `payment.rs`;
//! Nick gains morale as knowledge rises, in `checks.rs`: their abilities change a rule
//! there rather than answer an offer.)

use super::{Ability, Effect};
use crate::cards::{Faction, Good, Recruit, Space, SpaceKind};
use crate::refusal::Refusal;
use crate::rules::checks::StarSpot;
use crate::rules::payment::ANY_KIND;
use crate::state::{Boon, Euphoria, SetPayment, Step, Trigger};
use engine::Seat;

/// The Wastelanders' abilities.
pub(super) const ABILITIES: [Ability; 12] = [
    Ability::new(Recruit::Brian),
    Ability::new(Recruit::Flartner),
    GEEK,
    IAN,
    JACKO,
    ARTIST,
    KYLE,
    Ability::new(Recruit::Nick),
    PETE,
    REITZ,
    SCARBY,
    STEVEN,
];

/// Geek the Oracle, once per turn on drawing an artifact (offered by the draw,
/// [`Euphoria::after_draw`]): +1 knowledge to draw 2 more and discard 2 (1st edition: +2
/// knowledge, 1 more, discard 1).
const GEEK: Ability = Ability {
    usable: |g, seat, _| g.knowledge_room(seat, if g.v1() { 2 } else { 1 }),
    answer: Effect::Use(|g, seat, _| {
        g.turn.geek |= 1 << seat;
        let (cost, more) = if g.v1() { (2, 1) } else { (1, 2) };
        g.shift_knowledge(seat, cost);
        for _ in 0..more {
            g.draw_artifact(seat);
        }
        g.stack.push(Step::Shed {
            seat: seat as u8,
            n: more,
            mask: ANY_KIND,
        });
    }),
    ..Ability::new(Recruit::Geek)
};

/// Ian the Horticulturist, on the Farm with no resources: 1 water.
const IAN: Ability = Ability {
    fire: |g, seat, _, _| {
        if g.no_resources(seat) {
            g.players[seat].add(Good::Water, 1);
        }
    },
    on_space: |_, _, space| space.kind() == SpaceKind::Area(Faction::Wastelander),
    ..Ability::new(Recruit::Ian)
};

/// Jacko the Archivist, 1st edition, at a market after the star: 2 artifact cards for an
/// extra star in that faction's territory. (2nd edition: the Ark of Fractured Memories
/// may be paid with 1 card, [`Euphoria::jacko_single_card`].)
const JACKO: Ability = Ability {
    usable: |g, seat, _| {
        g.players[seat].hand_size() >= 2
            && g.players[seat].stars_left > 0
            && g.market_territory()
                .is_some_and(|f| g.territory_room(f) > 0)
    },
    answer: Effect::Use(|g, seat, _| {
        if let Some(f) = g.market_territory() {
            g.place_star(seat, StarSpot::Territory(f));
            g.stack.push(Step::Shed {
                seat: seat as u8,
                n: 2,
                mask: ANY_KIND,
            });
        }
    }),
    on_space: |g, _, space| {
        g.v1()
            && matches!(
                space.kind(),
                SpaceKind::Built(_) | SpaceKind::ArtifactMarket(_)
            )
    },
    ..Ability::new(Recruit::Jacko)
};

/// Jonathan the Artist, on a construction site where his owner's die is strictly the
/// highest on that market's sites: +2 knowledge to draw 1 artifact.
const ARTIST: Ability = Ability {
    usable: |g, seat, _| g.knowledge_room(seat, 2),
    answer: Effect::Use(|g, seat, _| g.knowledge_for_artifact(seat, 2)),
    on_space: |g, seat, space| {
        let SpaceKind::Site(m, _) = space.kind() else {
            return false;
        };
        let mine = g.placed_value();
        let die = g.turn.die.index();
        (0..4)
            .flat_map(|s| g.occupants(Space::site(m, s)))
            .filter(|o| !(o.0 == seat && o.1 == die))
            .all(|o| o.2 < mine)
    },
    ..Ability::new(Recruit::Artist)
};

/// Kyle the Scavenger, alone on the Generator, Aquifer or Farm: +2 knowledge to draw 1
/// artifact.
const KYLE: Ability = Ability {
    usable: |g, seat, _| g.knowledge_room(seat, 2),
    answer: Effect::Use(|g, seat, _| g.knowledge_for_artifact(seat, 2)),
    on_space: |g, _, space| {
        matches!(space.kind(), SpaceKind::Area(f) if f != Faction::Icarite)
            && g.occupants(space).count() == 1
    },
    ..Ability::new(Recruit::Kyle)
};

/// Pete the Cannibal: on a retrieval, before the roll, a retrieved worker (not the last)
/// sacrificed for 4 food and 1 resource (asked by `retrieve.rs`); on a new worker, +2
/// knowledge to draw 1 artifact (asked by `placement.rs`).
const PETE: Ability = Ability {
    usable: |g, seat, arg| {
        if arg == Trigger::Plain {
            g.may_sacrifice(seat) && g.retrieving_die().is_some()
        } else {
            g.knowledge_room(seat, 2)
        }
    },
    answer: Effect::Use(|g, seat, arg| {
        if arg == Trigger::Plain {
            g.sacrifice_retrieved(seat, Good::Food);
        } else {
            g.knowledge_for_artifact(seat, 2);
        }
    }),
    ..Ability::new(Recruit::Pete)
};

/// Professor Reitz the Archaeologist, on a tunnel without bumping: +2 knowledge to draw 1
/// artifact and move the miner 1 more.
const REITZ: Ability = Ability {
    usable: |g, seat, _| g.knowledge_room(seat, 2),
    answer: Effect::Use(|g, seat, _| {
        g.shift_knowledge(seat, 2);
        g.draw_artifact(seat);
        g.extra_miner();
    }),
    on_space: |g, _, space| matches!(space.kind(), SpaceKind::Tunnel(_)) && g.turn.victim.is_none(),
    ..Ability::new(Recruit::Reitz)
};

/// Sir Scarby the Harvester, on the Farm with his owner's die strictly the highest (or
/// alone): choose knowledge −1 or 1 food.
const SCARBY: Ability = Ability {
    fire: |g, seat, _, _| {
        let mine = g.placed_value();
        if g.other_values(seat).all(|v| v < mine) {
            g.offer_boons(seat, &[Boon::LessKnowledge, Boon::Good(Good::Food)]);
        }
    },
    on_space: |_, _, space| space.kind() == SpaceKind::Area(Faction::Wastelander),
    ..Ability::new(Recruit::Scarby)
};

/// Steven the Scholar, when a roll loses his owner a worker to the knowledge limit
/// (triggered by `checks.rs`): 1 artifact drawn and 1 resource chosen.
const STEVEN: Ability = Ability {
    fire: |g, seat, _, _| {
        g.draw_artifact(seat);
        g.choose_resource(seat);
    },
    ..Ability::new(Recruit::Steven)
};

impl Euphoria {
    /// Whether Jacko the Archivist (2nd ed.) lets one card pay `space`, the Ark of
    /// Fractured Memories (the payment notes it: [`SetPayment::single`]).
    pub(crate) fn jacko_at(&self, seat: Seat, space: Space) -> bool {
        !self.v1()
            && space == Space::artifact_market(Faction::Wastelander)
            && self.has(seat, Recruit::Jacko)
    }

    /// Why `use jacko` does not end the Ark's payment `p`: only after its first card.
    pub(crate) fn check_jacko_ark(&self, p: SetPayment) -> Result<(), Refusal> {
        if p.single && p.paid == 1 {
            Ok(())
        } else {
            Err(Refusal::JackoArk)
        }
    }

    /// Jacko the Archivist (2nd ed.): one card paid the Ark; every other player draws.
    pub(crate) fn jacko_single_card(&mut self, seat: Seat) {
        for s in self.order_from_current() {
            if s != seat {
                self.draw_artifact(s);
            }
        }
    }
}
