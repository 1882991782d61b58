//! The Icarite recruits (1 to 12), each ability whole: when it may be used and what it
//! does. (Josh pays at a built market, in `payment.rs`; Kaden opens tunnel ends, in
//! `placement.rs`: their abilities change a rule there rather than answer an offer.)

use super::{Ability, Effect};
use crate::cards::{Faction, Good, Recruit, SpaceKind};
use crate::rules::payment::COMMODITY_BITS;
use crate::state::{Boon, DieLoc, Euphoria, Step, Trigger};
use engine::Seat;

/// The Icarites' abilities.
pub(super) const ABILITIES: [Ability; 12] = [
    AMANDA,
    FLAVIO,
    GIDGET,
    Ability::new(Recruit::Josh),
    Ability::new(Recruit::Kaden),
    LEE,
    MATTHEW,
    MAXIME,
    REBECCA,
    SARINEE,
    SHEPPARD,
    ZONG,
];

/// Amanda the Broker, asked of the bumped worker's owner (the bump, in `placement.rs`):
/// 1 bliss sets the bumped die's value instead of a roll; in the 1st edition the bliss
/// goes to the player who bumped.
const AMANDA: Ability = Ability {
    usable: |g, seat, arg| {
        let p = &g.players[seat];
        p.count(Good::Bliss) >= 1
            && arg
                .die()
                .is_some_and(|d| matches!(p.dice[d.index()], DieLoc::Board(..)))
    },
    answer: Effect::Set(|g, seat, arg, v| {
        g.spend(seat, Good::Bliss, 1);
        if g.v1() {
            let cur = g.current as usize;
            g.players[cur].add(Good::Bliss, 1);
        }
        if let Some(d) = arg.die() {
            g.players[seat].dice[d.index()] = DieLoc::Ready(v);
        }
    }),
    ..Ability::new(Recruit::Amanda)
};

/// Flavio the Merchant, at a non-Icarite market after the star (1st edition: on bumping
/// there): +1 knowledge (1st ed.: −2 morale) to draw 1 artifact.
const FLAVIO: Ability = Ability {
    usable: |g, seat, _| {
        if g.v1() {
            g.morale_room(seat, 2)
        } else {
            g.knowledge_room(seat, 1)
        }
    },
    answer: Effect::Use(|g, seat, _| {
        if g.v1() {
            g.shift_morale(seat, -2);
        } else {
            g.shift_knowledge(seat, 1);
        }
        g.draw_artifact(seat);
    }),
    on_bump: |g| g.v1() && g.placed_kind().is_some_and(super::non_icarite_market),
    on_space: |g, _, space| !g.v1() && super::non_icarite_market(space.kind()),
    ..Ability::new(Recruit::Flavio)
};

/// Gidget the Hypnotist, on a retrieval paid with bliss: knowledge −2 instead of the
/// rule's morale +2. The retrieval's hook is hers, so without her (or declined) it gives
/// the rule's morale ([`Euphoria::bliss_retrieval_morale`]).
const GIDGET: Ability = Ability {
    usable: |_, _, _| true,
    answer: Effect::Use(|g, seat, _| g.shift_knowledge(seat, -2)),
    decline: Euphoria::bliss_retrieval_morale,
    unheld: Euphoria::bliss_retrieval_morale,
    ..Ability::new(Recruit::Gidget)
};

/// Lee the Gossip, on bumping another player: −1 morale, they +1 knowledge; choose 1
/// commodity.
const LEE: Ability = Ability {
    usable: |g, seat, _| g.morale_room(seat, 1) && g.victim().is_some(),
    answer: Effect::Use(|g, seat, _| {
        g.bump_gift(seat, -1);
        g.stack.push(Step::Choose {
            seat: seat as u8,
            menu: COMMODITY_BITS,
        });
    }),
    on_bump: |_| true,
    ..Ability::new(Recruit::Lee)
};

/// Matthew the Thief, on bumping another player from a tunnel: +1 knowledge instead of
/// paying the tunnel's commodity (asked by the placement, in `placement.rs`). Declined,
/// the commodity is paid, so it may be declined only by a player who has it.
const MATTHEW: Ability = Ability {
    usable: |g, seat, _| g.knowledge_room(seat, 1),
    answer: Effect::Use(|g, seat, _| g.shift_knowledge(seat, 1)),
    decline: |g, seat| {
        if let Some(SpaceKind::Tunnel(f)) = g.turn.space.map(|s| s.kind()) {
            g.spend(seat, f.commodity(), 1);
        }
    },
    refuse_decline: |g, seat| match g.turn.space.map(|s| s.kind()) {
        Some(SpaceKind::Tunnel(f)) if g.players[seat].count(f.commodity()) > 0 => Ok(()),
        _ => Err(crate::Refusal::MatthewCommodity),
    },
    ..Ability::new(Recruit::Matthew)
};

/// Maxime the Ambassador, on bumping another player: −2 morale, they +1 knowledge; draw 1
/// artifact.
const MAXIME: Ability = Ability {
    usable: |g, seat, _| g.morale_room(seat, 2) && g.victim().is_some(),
    answer: Effect::Use(|g, seat, _| {
        g.bump_gift(seat, -2);
        g.draw_artifact(seat);
    }),
    on_bump: |_| true,
    ..Ability::new(Recruit::Maxime)
};

/// Rebecca the Peddler, on bumping another player: −2 morale, they +1 knowledge; choose 1
/// resource.
const REBECCA: Ability = Ability {
    usable: |g, seat, _| g.morale_room(seat, 2) && g.victim().is_some(),
    answer: Effect::Use(|g, seat, _| {
        g.bump_gift(seat, -2);
        g.choose_resource(seat);
    }),
    on_bump: |_| true,
    ..Ability::new(Recruit::Rebecca)
};

/// Sarinee the Cloud Miner, alone on the Cloud Mine: choose knowledge −1 or 1 bliss.
const SARINEE: Ability = Ability {
    fire: |g, seat, _, _| {
        if g.other_values(seat).next().is_none() {
            g.offer_boons(seat, &[Boon::LessKnowledge, Boon::Good(Good::Bliss)]);
        }
    },
    on_space: |_, _, space| space.kind() == SpaceKind::Area(Faction::Icarite),
    ..Ability::new(Recruit::Sarinee)
};

/// Dr. Sheppard the Lobotomist: on a retrieval, before the roll, a retrieved worker (not
/// the last) sacrificed for 4 bliss and 1 resource (asked by `retrieve.rs`); on a new
/// worker, −2 morale to draw 1 artifact (asked by `placement.rs`).
const SHEPPARD: Ability = Ability {
    usable: |g, seat, arg| {
        if arg == Trigger::Plain {
            g.may_sacrifice(seat) && g.retrieving_die().is_some()
        } else {
            g.morale_room(seat, 2)
        }
    },
    answer: Effect::Use(|g, seat, arg| {
        if arg == Trigger::Plain {
            g.sacrifice_retrieved(seat, Good::Bliss);
        } else {
            g.shift_morale(seat, -2);
            g.draw_artifact(seat);
        }
    }),
    ..Ability::new(Recruit::Sheppard)
};

/// Zong the Astronomer, on the Cloud Mine: +1 knowledge to draw 1 artifact, and every
/// other player gains 1 bliss. 1st edition: with no resources and no artifacts, choose 1
/// water or 1 energy.
const ZONG: Ability = Ability {
    usable: |g, seat, _| g.knowledge_room(seat, 1),
    fire: |g, seat, id, arg| {
        if !g.v1() {
            g.offer(seat, id, arg);
        } else if g.hand_empty(seat) && g.no_resources(seat) {
            g.offer_boons(seat, &[Boon::Good(Good::Water), Boon::Good(Good::Energy)]);
        }
    },
    answer: Effect::Use(|g, seat, _| {
        g.shift_knowledge(seat, 1);
        g.draw_artifact(seat);
        for s in g.order_from_current() {
            if s != seat {
                g.players[s].add(Good::Bliss, 1);
            }
        }
    }),
    on_space: |_, _, space| space.kind() == SpaceKind::Area(Faction::Icarite),
    ..Ability::new(Recruit::Zong)
};

impl Euphoria {
    /// The cost shared by Lee, Maxime and Rebecca: `morale` for the bumper, +1 knowledge
    /// for the bumped player.
    fn bump_gift(&mut self, seat: Seat, morale: i32) {
        let victim = self.victim();
        self.shift_morale(seat, morale);
        if let Some(v) = victim {
            self.shift_knowledge(v, 1);
        }
    }
}
