//! The Euphorian recruits (13 to 24), each ability whole: when it may be used and what it
//! does. (Jefferson pays a retrieval with energy, in `retrieve.rs`; Michael pays a
//! construction site with any resource, in `payment.rs`: their abilities change a rule
//! there rather than answer an offer.)

use super::{Ability, Effect};
use crate::cards::{Faction, Good, Recruit, SpaceKind};
use crate::rules::checks::StarSpot;
use crate::state::{Boon, DieLoc, Step, Trigger};

/// The Euphorians' abilities.
pub(super) const ABILITIES: [Ability; 12] = [
    BEN,
    BRADLEY,
    ESME,
    GARY,
    Ability::new(Recruit::Jefferson),
    JULIA,
    KATY,
    LAURA,
    Ability::new(Recruit::Michael),
    NAKAGAWA,
    RAY,
    YORDY,
];

/// Ben the Ludologist, when another player's roll leaves them a pair (asked of Ben's
/// owner by the roll, in `checks.rs`): −2 morale to choose 1 resource.
const BEN: Ability = Ability {
    usable: |g, seat, _| g.morale_room(seat, 2),
    answer: Effect::Use(|g, seat, _| {
        g.shift_morale(seat, -2);
        g.choose_resource(seat);
    }),
    ..Ability::new(Recruit::Ben)
};

/// Bradley the Futurist, at a non-Icarite market after the star: +2 knowledge to draw 2
/// artifacts and keep 1.
const BRADLEY: Ability = Ability {
    usable: |g, seat, _| g.knowledge_room(seat, 2),
    answer: Effect::Use(|g, seat, _| {
        g.shift_knowledge(seat, 2);
        let mut mask = 0u8;
        for _ in 0..2 {
            if let Some(k) = g.draw_artifact(seat).and_then(|g| g.artifact_index()) {
                mask |= 1 << k;
            }
        }
        if mask != 0 {
            g.stack.push(Step::Shed {
                seat: seat as u8,
                n: 1,
                mask,
            });
        }
    }),
    on_space: |_, _, space| super::non_icarite_market(space.kind()),
    ..Ability::new(Recruit::Bradley)
};

/// Esme the Fireman, on placing a star (asked by `checks.rs`): the artifact card
/// discarded decides the reward, 1 energy and a choice of knowledge −1 or morale +1; a
/// Book (not in the 1st edition) 2 energy, knowledge −2 and morale +2.
const ESME: Ability = Ability {
    usable: |g, seat, _| g.players[seat].hand_size() >= 1,
    answer: Effect::Discard(|g, seat, k| {
        g.spend(seat, k, 1);
        if k == Good::Book && !g.v1() {
            g.players[seat].add(Good::Energy, 2);
            g.shift_knowledge(seat, -2);
            g.shift_morale(seat, 2);
        } else {
            g.players[seat].add(Good::Energy, 1);
            g.offer_boons(seat, &[Boon::LessKnowledge, Boon::Morale]);
        }
    }),
    ..Ability::new(Recruit::Esme)
};

/// Gary the Electrician, on the Generator with a die equal to another there: choose 1
/// morale or 1 energy.
const GARY: Ability = Ability {
    fire: |g, seat, _, _| {
        let mine = g.placed_value();
        if g.other_values(seat).any(|v| v == mine) {
            g.offer_boons(seat, &[Boon::Morale, Boon::Good(Good::Energy)]);
        }
    },
    on_space: |_, _, space| space.kind() == SpaceKind::Area(Faction::Euphorian),
    ..Ability::new(Recruit::Gary)
};

/// Julia the Thought Inspector, on bumping an opponent (asked by the bump, in
/// `placement.rs`): −1 morale to choose 1 resource, and the bumped die takes her owner's
/// value instead of a roll. 1st edition: on equal values only, −2 morale, the die rolls.
const JULIA: Ability = Ability {
    usable: |g, seat, arg| {
        if g.v1() {
            return g.morale_room(seat, 2);
        }
        g.morale_room(seat, 1)
            && g.victim().is_some_and(|v| {
                arg.die()
                    .is_some_and(|d| matches!(g.players[v].dice[d.index()], DieLoc::Board(..)))
            })
    },
    answer: Effect::Use(|g, seat, arg| {
        let victim = g.victim();
        if g.v1() {
            g.shift_morale(seat, -2);
        } else {
            g.shift_morale(seat, -1);
            let value = g.placed_value();
            if let (Some(v), Some(d)) = (victim, arg.die()) {
                if matches!(g.players[v].dice[d.index()], DieLoc::Board(..)) {
                    g.players[v].dice[d.index()] = DieLoc::Ready(value);
                }
            }
        }
        g.choose_resource(seat);
    }),
    on_bump: |g| g.v1() && g.bumped_value() == g.placed_value(),
    ..Ability::new(Recruit::Julia)
};

/// Katy the Dietician, on the Generator with no artifacts: 1 food.
const KATY: Ability = Ability {
    fire: |g, seat, _, _| {
        if g.hand_empty(seat) {
            g.players[seat].add(Good::Food, 1);
        }
    },
    on_space: |_, _, space| space.kind() == SpaceKind::Area(Faction::Euphorian),
    ..Ability::new(Recruit::Katy)
};

/// Laura the Philanthropist, on bumping an opponent from a tunnel or worker activation: 1
/// gold to them to draw 2 artifacts.
const LAURA: Ability = Ability {
    usable: |g, seat, _| g.players[seat].count(Good::Gold) >= 1 && g.victim().is_some(),
    answer: Effect::Use(|g, seat, _| {
        if let Some(v) = g.victim() {
            g.players[seat].remove(Good::Gold, 1);
            g.players[v].add(Good::Gold, 1);
            g.draw_artifact(seat);
            g.draw_artifact(seat);
        }
    }),
    on_bump: |g| {
        matches!(
            g.placed_kind(),
            Some(SpaceKind::Tunnel(_) | SpaceKind::ActivateEnergy | SpaceKind::ActivateWater)
        )
    },
    ..Ability::new(Recruit::Laura)
};

/// Dr. Nakagawa the Tribute, on a construction site: the Euphorian allegiance advances 1.
/// 1st edition, at a market: the worker there (not the last) sacrificed for an extra star
/// in that faction's territory.
const NAKAGAWA: Ability = Ability {
    usable: |g, seat, _| {
        !g.v1()
            || (g.may_sacrifice(seat)
                && g.placed_die().is_some()
                && g.players[seat].stars_left > 0
                && g.market_territory()
                    .is_some_and(|f| g.territory_room(f) > 0))
    },
    answer: Effect::Use(|g, seat, _| {
        if !g.v1() {
            g.advance(Faction::Euphorian);
        } else if let (Some(d), Some(f)) = (g.placed_die(), g.market_territory()) {
            g.players[seat].dice[d.index()] = DieLoc::Reserve;
            g.place_star(seat, StarSpot::Territory(f));
        }
    }),
    on_space: |g, _, space| match space.kind() {
        SpaceKind::Site(..) => !g.v1(),
        SpaceKind::Built(_) | SpaceKind::ArtifactMarket(_) => g.v1(),
        _ => false,
    },
    ..Ability::new(Recruit::Nakagawa)
};

/// Ray the Foreman, on any market completed (triggered by `placement.rs` for every seat
/// holding him): morale +2 for its builders, knowledge −2 for the others.
const RAY: Ability = Ability {
    fire: |g, seat, _, arg| {
        if matches!(arg, Trigger::Builders(seats) if seats & (1 << seat) != 0) {
            g.shift_morale(seat, 2);
        } else {
            g.shift_knowledge(seat, -2);
        }
    },
    ..Ability::new(Recruit::Ray)
};

/// Yordy the Demotivator, on a free retrieval, before the roll (asked by `retrieve.rs`):
/// 1 energy sets one retrieved die's value. (1st edition: a free retrieval of the last
/// two workers costs no morale, in `retrieve.rs`.)
const YORDY: Ability = Ability {
    usable: |g, seat, _| g.players[seat].count(Good::Energy) >= 1 && g.retrieving_die().is_some(),
    answer: Effect::Set(|g, seat, _, v| {
        if let Some(d) = g.retrieving_die() {
            g.spend(seat, Good::Energy, 1);
            g.players[seat].dice[d.index()] = DieLoc::Ready(v);
        }
    }),
    ..Ability::new(Recruit::Yordy)
};
