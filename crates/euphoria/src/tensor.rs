//! Euphoria as numbers: action indices and the observation tensor (layout in
//! `docs/python.md`).
use crate::action::{Action, RetrievePay};
use crate::cards::{
    Good, Recruit, Space, ARTIFACTS, DICE, GOODS, MARKETS, RECRUITS, SPACES, SUPPLY, TILES,
};
use crate::config::Config;
use crate::state::{Boon, DieLoc, DilemmaState, StarTarget};
use crate::view::EuphoriaView;
use crate::Euphoria;
use engine::tensor::Writer;
use engine::{Seat, Tensor};
use std::collections::HashMap;
use std::sync::LazyLock;

/// Seats a table can have.
const MAX_SEATS: usize = 6;
/// Die faces.
const FACES: usize = 6;
/// Dilemma cards.
const DILEMMAS: usize = crate::cards::DILEMMAS.len();
/// Allegiance track length, miners track length.
const ALLEGIANCE: f32 = crate::cards::ALLEGIANCE_MAX as f32;
const MINERS: f32 = crate::cards::TUNNEL_END as f32;
const ARTIFACT_DECK: f32 = (ARTIFACTS * crate::cards::ARTIFACT_COPIES as usize) as f32;

/// Every action there is, in index order, and the way back.
struct ActionTable {
    actions: Vec<Action>,
    index: HashMap<Action, usize>,
}

fn recruits() -> impl Iterator<Item = Recruit> {
    Recruit::ALL.into_iter()
}

fn goods() -> impl Iterator<Item = Good> {
    Good::ALL.into_iter()
}

fn every_action() -> Vec<Action> {
    let mut all = Vec::new();
    all.extend(recruits().map(Action::KeepUp));
    all.extend(recruits().map(Action::KeepDown));
    for value in 1..=FACES as u8 {
        all.extend(Space::all().map(|space| Action::Place { value, space }));
    }
    for value in 1..=FACES as u8 {
        all.extend(Space::all().map(|space| Action::Retrieve { value, space }));
    }
    all.extend(
        [
            RetrievePay::Food,
            RetrievePay::Bliss,
            RetrievePay::Free,
            RetrievePay::Energy,
        ]
        .map(Action::FinishRetrieve),
    );
    all.extend(goods().map(Action::Pay));
    all.extend(goods().map(Action::Take));
    all.push(Action::Draw);
    all.push(Action::Star(StarTarget::Territory));
    all.extend((0..MARKETS as u8).map(|m| Action::Star(StarTarget::Market(m))));
    all.push(Action::End);
    all.extend(goods().map(Action::Discard));
    all.extend(goods().map(Action::Lose));
    all.extend([Action::Dilemma, Action::Rebel, Action::Conform]);
    all.extend(recruits().map(Action::Keep));
    all.push(Action::Trade);
    all.extend((0..MAX_SEATS as u8).map(Action::Offer));
    all.extend(goods().map(Action::Give));
    all.extend(goods().map(Action::Ask));
    all.extend([
        Action::Propose,
        Action::Cancel,
        Action::Accept,
        Action::Decline,
        Action::Pass,
    ]);
    all.extend(recruits().map(Action::Use));
    all.extend((1..=FACES as u8).map(Action::Set));
    all.extend(Boon::all().map(Action::Choose));
    // Added by issue 16 after the others, so that their indices stay.
    all.extend(crate::action::TWO_ABILITIES.map(Action::UseNew));
    all
}

static ACTIONS: LazyLock<ActionTable> = LazyLock::new(|| {
    let actions = every_action();
    let index = actions.iter().enumerate().map(|(i, &a)| (a, i)).collect();
    ActionTable { actions, index }
});

/// Features per player: see `docs/python.md`.
const PLAYER: usize = 1
    + FACES
    + 2 * SPACES
    + 2
    + SUPPLY
    + ARTIFACTS
    + 2
    + 3 * RECRUITS
    + 3
    + RECRUITS
    + 1
    + DILEMMAS
    + 3;

/// Features per market slot: built, its tile, a star per relative seat.
fn market_len(players: usize) -> usize {
    1 + TILES + players
}

fn flag(b: bool) -> f32 {
    f32::from(b)
}

impl Tensor for Euphoria {
    fn num_distinct_actions(_config: &Config) -> usize {
        ACTIONS.actions.len()
    }

    fn action_index(config: &Config, action: Action) -> Option<usize> {
        let i = *ACTIONS.index.get(&action)?;
        // Offers go to a seat at this table.
        match action {
            Action::Offer(s) if s as usize >= config.players => None,
            _ => Some(i),
        }
    }

    fn index_action(config: &Config, index: usize) -> Option<Action> {
        let action = *ACTIONS.actions.get(index)?;
        Self::action_index(config, action).map(|_| action)
    }

    fn observation_len(config: &Config) -> usize {
        let p = config.players;
        4 + 3
            + 4 * (p + 1)
            + MARKETS * market_len(p)
            + 1
            + ARTIFACTS
            + 1
            + RECRUITS
            + RECRUITS
            + 2 * p
            + 2
            + 2
            + 2 * GOODS
            + p * PLAYER
    }

    fn encode(config: &Config, view: &EuphoriaView, out: &mut [f32]) {
        encode_table(config.players, view, out);
    }

    /// Which recruits a player holds, and which were dealt or drawn, is a set: the order a
    /// determinization leaves them in tells nothing.
    fn same_information(a: &EuphoriaView, b: &EuphoriaView) -> bool {
        let sorted = |v: &EuphoriaView| {
            let mut v = v.clone();
            for p in &mut v.players {
                p.recruits.sort_by_key(|r| (r.id, r.up, r.star));
                if let Some(d) = &mut p.dealt {
                    d.sort_unstable();
                }
            }
            if let Some(d) = &mut v.drawn {
                d.sort_unstable();
            }
            v
        };
        sorted(a) == sorted(b)
    }
}

fn encode_table(players: usize, view: &EuphoriaView, out: &mut [f32]) {
    // Seats are counted from the viewer: 0 is the viewer (seat 0 for a spectator).
    let me = view.viewer.unwrap_or(0);
    let rel = |s: Seat| (s + players - me) % players;
    let mut w = Writer::new(out);
    let allegiance = w.section(4);
    for (x, &a) in allegiance.iter_mut().zip(&view.allegiance) {
        *x = f32::from(a) / ALLEGIANCE;
    }
    let miners = w.section(3);
    for (x, &m) in miners.iter_mut().zip(&view.miners) {
        *x = f32::from(m) / MINERS;
    }
    for territory in &view.territory {
        let t = w.section(players + 1);
        t[players] = territory.len() as f32 / view.territory_spots.max(1) as f32;
        for &s in territory {
            t[rel(s as usize) % players] += 1.0;
        }
    }
    for slot in 0..MARKETS {
        let m = w.section(market_len(players));
        let Some(market) = view.markets.get(slot) else {
            continue;
        };
        if let Some(tile) = market.tile {
            m[0] = 1.0;
            m[1 + (tile as usize).min(TILES - 1)] = 1.0;
        }
        for &s in &market.stars {
            m[1 + TILES + rel(s) % players] = 1.0;
        }
    }
    w.push(view.artifact_deck as f32 / ARTIFACT_DECK);
    let discard = w.section(ARTIFACTS);
    for g in &view.artifact_discard {
        if let Some(x) = g.artifact_index().and_then(|k| discard.get_mut(k)) {
            *x += 1.0 / ARTIFACT_DECK;
        }
    }
    w.push(view.recruit_deck as f32 / RECRUITS as f32);
    recruit_bits(w.section(RECRUITS), &view.recruit_discard);
    recruit_bits(
        w.section(RECRUITS),
        view.drawn.as_deref().unwrap_or_default(),
    );
    w.one_hot(players, Some(rel(view.current)));
    w.one_hot(players, view.to_act.map(rel));
    w.push(flag(view.setup_done));
    w.push(flag(view.over));
    let offer = w.section(2 + 2 * GOODS);
    if let Some(o) = &view.offer {
        offer[0] = 1.0;
        offer[1] = rel(o.partner as usize) as f32 / players as f32;
        for (k, (&give, &ask)) in o.give.iter().zip(&o.ask).enumerate() {
            offer[2 + k] = f32::from(give);
            offer[2 + GOODS + k] = f32::from(ask);
        }
    }
    for r in 0..players {
        let seat = (me + r) % players;
        match view.players.get(seat) {
            Some(p) => encode_player(p, w.section(PLAYER)),
            None => {
                w.section(PLAYER);
            }
        }
    }
}

fn recruit_bits(out: &mut [f32], ids: &[Recruit]) {
    for &id in ids {
        if let Some(x) = out.get_mut(id.index()) {
            *x = 1.0;
        }
    }
}

fn encode_player(p: &crate::view::PlayerView, out: &mut [f32]) {
    let mut w = Writer::new(out);
    let reserve = w.section(1);
    let mut ready = [0.0f32; FACES];
    let mut on = [0.0f32; SPACES];
    let mut values = [0.0f32; SPACES];
    for die in p.dice.iter().take(DICE) {
        match *die {
            DieLoc::Reserve => reserve[0] += 1.0,
            DieLoc::Ready(v) => {
                if let Some(x) = (v as usize).checked_sub(1).and_then(|i| ready.get_mut(i)) {
                    *x += 1.0;
                }
            }
            DieLoc::Board(space, v) => {
                if let Some(i) = Some(space.0 as usize).filter(|&i| i < SPACES) {
                    on[i] += 1.0;
                    values[i] += f32::from(v) / FACES as f32;
                }
            }
        }
    }
    w.section(FACES).copy_from_slice(&ready);
    w.section(SPACES).copy_from_slice(&on);
    w.section(SPACES).copy_from_slice(&values);
    w.push(f32::from(p.knowledge) / crate::cards::KNOWLEDGE_LIMIT as f32);
    w.push(f32::from(p.morale) / 6.0);
    let supply = w.section(SUPPLY);
    for (x, &n) in supply.iter_mut().zip(&p.supply) {
        *x = n as f32;
    }
    let hand = w.section(ARTIFACTS);
    for (x, &n) in hand.iter_mut().zip(p.hand.iter().flatten()) {
        *x = f32::from(n);
    }
    w.push(p.hand_size as f32);
    w.push(f32::from(p.stars_left) / f32::from(crate::cards::STARS));
    let known = w.section(3 * RECRUITS);
    let (mut count, mut up, mut starred) = (0.0, 0.0, 0.0);
    for r in &p.recruits {
        count += 1.0;
        up += flag(r.up);
        starred += flag(r.star);
        if let Some(i) = r.id.map(Recruit::index) {
            known[if r.up { i } else { RECRUITS + i }] = 1.0;
            known[2 * RECRUITS + i] = flag(r.star);
        }
    }
    let counts = w.section(3);
    counts.copy_from_slice(&[count, up, starred]);
    recruit_bits(w.section(RECRUITS), p.dealt.as_deref().unwrap_or_default());
    w.push(p.dealt_count as f32);
    w.one_hot(DILEMMAS, p.dilemma.map(usize::from));
    w.one_hot(
        3,
        Some(match p.dilemma_state {
            DilemmaState::Unresolved => 0,
            DilemmaState::Rebelled => 1,
            DilemmaState::Conformed => 2,
        }),
    );
}
