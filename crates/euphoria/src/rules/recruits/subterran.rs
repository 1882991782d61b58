//! The Subterran recruits (37 to 48), each ability whole: when it may be used and what it
//! does. (Andrew draws at a tunnel, [`Euphoria::andrew`]; Curtis costs knowledge as
//! morale drops, in `checks.rs`: their abilities change a rule there rather than answer
//! an offer.)

use super::{Ability, Effect};
use crate::cards::{tunnel_resource, Faction, Good, Recruit, Space, SpaceKind};
use crate::state::{Boon, DieLoc, Euphoria, Trigger};
use engine::Seat;

/// The Subterrans' abilities.
pub(super) const ABILITIES: [Ability; 12] = [
    Ability::new(Recruit::Andrew),
    BRETT,
    CHASE,
    Ability::new(Recruit::Curtis),
    DAVE,
    FAITH,
    GAMBLER,
    JOSIAH,
    MAGGIE,
    PHIL,
    SOULLESS,
    XANDER,
];

/// Brett the Lockpicker, at a non-Icarite market after the star: +1 knowledge (1st
/// edition: +2) to choose 1 resource.
const BRETT: Ability = Ability {
    usable: |g, seat, _| g.knowledge_room(seat, if g.v1() { 2 } else { 1 }),
    answer: Effect::Use(|g, seat, _| {
        g.shift_knowledge(seat, if g.v1() { 2 } else { 1 });
        g.choose_resource(seat);
    }),
    on_space: |_, _, space| super::non_icarite_market(space.kind()),
    ..Ability::new(Recruit::Brett)
};

/// Chase the Miner: on a tunnel, the worker there (not the last) sacrificed for 2 more of
/// its resource; on a new worker (asked by `placement.rs`), it may be placed this turn.
const CHASE: Ability = Ability {
    usable: |g, seat, arg| match arg {
        Trigger::NewWorker(d) => {
            matches!(g.players[seat].dice[d.index()], DieLoc::Ready(_))
        }
        _ => g.may_sacrifice(seat) && g.placed_die().is_some(),
    },
    answer: Effect::Use(|g, seat, arg| {
        if arg == Trigger::Plain {
            if let Some(d) = g.placed_die() {
                g.players[seat].dice[d.index()] = DieLoc::Reserve;
                if let Some(SpaceKind::Tunnel(f)) = g.turn.space.map(|s| s.kind()) {
                    g.players[seat].add(tunnel_resource(f), 2);
                }
            }
        } else if let Some(d) = arg.die() {
            g.turn.eligible[d.index()] = true;
        }
    }),
    on_space: |_, _, space| matches!(space.kind(), SpaceKind::Tunnel(_)),
    ..Ability::new(Recruit::Chase)
};

/// Major Dave the Demolitionist, on bumping an opponent from a tunnel: +1 knowledge (1st
/// edition: +2) for 1 more of its resource and 1 more miner space.
const DAVE: Ability = Ability {
    usable: |g, seat, _| g.knowledge_room(seat, if g.v1() { 2 } else { 1 }),
    answer: Effect::Use(|g, seat, _| {
        g.shift_knowledge(seat, if g.v1() { 2 } else { 1 });
        g.tunnel_extra(seat);
        g.extra_miner();
    }),
    on_bump: |g| matches!(g.placed_kind(), Some(SpaceKind::Tunnel(_))),
    ..Ability::new(Recruit::Dave)
};

/// Faith the Hydroelectrician, on the Aquifer with no artifacts: 1 energy.
const FAITH: Ability = Ability {
    fire: |g, seat, _, _| {
        if g.hand_empty(seat) {
            g.players[seat].add(Good::Energy, 1);
        }
    },
    on_space: |_, _, space| space.kind() == SpaceKind::Area(Faction::Subterran),
    ..Ability::new(Recruit::Faith)
};

/// Jonathan the Gambler, once per turn on drawing an artifact (offered by the draw,
/// [`Euphoria::after_draw`], with the card drawn): 1 more card, and if the hand then
/// holds a pair every other player draws 1. 1st edition: +1 knowledge to draw 2 more and
/// keep only the cards matching another of the three.
const GAMBLER: Ability = Ability {
    usable: |g, seat, _| !g.v1() || g.knowledge_room(seat, 1),
    answer: Effect::Use(Euphoria::gamble),
    ..Ability::new(Recruit::Gambler)
};

/// Josiah the Hacker, on the Generator, Farm or Cloud Mine: every other player there +1
/// knowledge, his owner +1 morale.
const JOSIAH: Ability = Ability {
    fire: |g, seat, _, _| {
        let space = g.turn.space.unwrap_or(Space(0));
        let mut seen = 0u8;
        let here: Vec<Seat> = g.occupants(space).map(|o| o.0).collect();
        for s in here {
            if s != seat && seen & (1 << s) == 0 {
                seen |= 1 << s;
                g.shift_knowledge(s, 1);
            }
        }
        g.shift_morale(seat, 1);
    },
    on_space: |_, _, space| {
        matches!(
            space.kind(),
            SpaceKind::Area(Faction::Euphorian | Faction::Wastelander | Faction::Icarite)
        )
    },
    ..Ability::new(Recruit::Josiah)
};

/// Maggie the Outlaw, on retrieving workers all in Subterra (triggered by
/// `retrieve.rs`): choose 1 water or 1 stone.
const MAGGIE: Ability = Ability {
    fire: |g, seat, _, _| {
        g.offer_boons(seat, &[Boon::Good(Good::Water), Boon::Good(Good::Stone)]);
    },
    ..Ability::new(Recruit::Maggie)
};

/// Phil the Spy, on bumping an opponent with no active Subterran: +1 knowledge (1st
/// edition: +2) to draw 1 artifact.
const PHIL: Ability = Ability {
    usable: |g, seat, _| g.knowledge_room(seat, if g.v1() { 2 } else { 1 }),
    answer: Effect::Use(|g, seat, _| {
        g.knowledge_for_artifact(seat, if g.v1() { 2 } else { 1 });
    }),
    on_bump: |g| {
        g.victim()
            .is_some_and(|v| !g.players[v].has_active(Faction::Subterran))
    },
    ..Ability::new(Recruit::Phil)
};

/// Soulless the Plumber, on the Aquifer with his owner's die the unique lowest (or
/// alone): choose 1 morale or 1 water.
const SOULLESS: Ability = Ability {
    fire: |g, seat, _, _| {
        let mine = g.placed_value();
        if g.other_values(seat).all(|v| v > mine) {
            g.offer_boons(seat, &[Boon::Morale, Boon::Good(Good::Water)]);
        }
    },
    on_space: |_, _, space| space.kind() == SpaceKind::Area(Faction::Subterran),
    ..Ability::new(Recruit::Soulless)
};

/// Xander the Excavator, on bumping another player's higher worker from a tunnel: +1
/// knowledge for 1 more of its resource.
const XANDER: Ability = Ability {
    usable: |g, seat, _| g.knowledge_room(seat, 1),
    answer: Effect::Use(|g, seat, _| {
        g.shift_knowledge(seat, 1);
        g.tunnel_extra(seat);
    }),
    on_bump: |g| {
        matches!(g.placed_kind(), Some(SpaceKind::Tunnel(_))) && g.bumped_value() > g.placed_value()
    },
    ..Ability::new(Recruit::Xander)
};

impl Euphoria {
    /// Andrew the Spelunker, on taking a non-Subterran tunnel's resource with an empty
    /// hand (the tunnel, in `rules/mod.rs`): 1 artifact card as well.
    pub(crate) fn andrew(&mut self, seat: Seat, f: Faction) {
        if f != Faction::Subterran
            && self.has(seat, Recruit::Andrew)
            && self.players[seat].hand_size() == 0
        {
            self.draw_artifact(seat);
        }
    }

    /// Jonathan the Gambler; `arg` names the card that triggered it.
    fn gamble(&mut self, seat: Seat, arg: Trigger) {
        self.turn.gambler |= 1 << seat;
        if !self.v1() {
            self.draw_artifact(seat);
            if self.players[seat].hand.iter().any(|&c| c >= 2) {
                for s in self.order_from_current() {
                    if s != seat {
                        self.draw_artifact(s);
                    }
                }
            }
            return;
        }
        self.shift_knowledge(seat, 1);
        let Trigger::Drawn(first) = arg else {
            return;
        };
        let mut three = vec![first];
        for _ in 0..2 {
            if let Some(g) = self.draw_artifact(seat) {
                three.push(g);
            }
        }
        let matched = |g: Good| three.iter().filter(|&&x| x == g).count() >= 2;
        let any = three.iter().any(|&g| matched(g));
        let lose: Vec<Good> = three
            .iter()
            .copied()
            .filter(|&g| !any || !matched(g))
            .collect();
        for g in lose {
            if self.players[seat].count(g) > 0 {
                self.spend(seat, g, 1);
            }
        }
    }
}
