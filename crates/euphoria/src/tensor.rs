//! Euphoria as numbers: action indices and the observation tensor (layout in
//! `docs/python.md`).
use crate::action::{Action, RetrievePay};
use crate::cards::{
    Good, Recruit, Space, ARTIFACTS, DICE, GOODS, MARKETS, RECRUITS, SPACES, SUPPLY, TILES,
};
use crate::config::Config;
use crate::state::{Boon, DieLoc, DilemmaState, StarTarget, Step};
use crate::view::EuphoriaView;
use crate::Euphoria;
use engine::tensor::Writer;
use engine::{Seat, Tensor};
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

/// Every action there is, in index order: the way from an index back to its action.
struct ActionTable {
    actions: Vec<Action>,
}

fn recruits() -> impl Iterator<Item = Recruit> {
    Recruit::ALL.into_iter()
}

fn goods() -> impl Iterator<Item = Good> {
    Good::ALL.into_iter()
}

/// Every action in index order ([`index_of`] works the same order out by arithmetic; a
/// test holds the two together).
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

static ACTIONS: LazyLock<ActionTable> = LazyLock::new(|| ActionTable {
    actions: every_action(),
});

// Where each kind of action starts, in the order of `every_action`.
const KEEP_UP: usize = 0;
const KEEP_DOWN: usize = KEEP_UP + RECRUITS;
const PLACE: usize = KEEP_DOWN + RECRUITS;
const RETRIEVE: usize = PLACE + FACES * SPACES;
const FINISH: usize = RETRIEVE + FACES * SPACES;
const PAY: usize = FINISH + 4;
const TAKE: usize = PAY + GOODS;
const DRAW: usize = TAKE + GOODS;
const STAR_TERRITORY: usize = DRAW + 1;
const STAR_MARKET: usize = STAR_TERRITORY + 1;
const END: usize = STAR_MARKET + MARKETS;
const DISCARD: usize = END + 1;
const LOSE: usize = DISCARD + GOODS;
const DILEMMA: usize = LOSE + GOODS;
const KEEP: usize = DILEMMA + 3;
const TRADE: usize = KEEP + RECRUITS;
const OFFER: usize = TRADE + 1;
const GIVE: usize = OFFER + MAX_SEATS;
const ASK: usize = GIVE + GOODS;
const PROPOSE: usize = ASK + GOODS;
const USE: usize = PROPOSE + 5;
const SET: usize = USE + RECRUITS;
const CHOOSE: usize = SET + FACES;
const USE_NEW: usize = CHOOSE + GOODS + 2;

/// The index of `action` at any table (offers to any of six seats), `None` for an action
/// outside the list: worked out rather than looked up, since masks ask it of every legal
/// action at every step.
fn index_of(action: Action) -> Option<usize> {
    // A die value 1-6 on a space, as `base + (value - 1) * SPACES + space`.
    let on = |base: usize, value: u8, space: Space| {
        let v = usize::from(value).checked_sub(1).filter(|&v| v < FACES)?;
        let s = usize::from(space.0);
        (s < SPACES).then_some(base + v * SPACES + s)
    };
    let below = |base: usize, i: usize, n: usize| (i < n).then_some(base + i);
    match action {
        Action::KeepUp(r) => Some(KEEP_UP + r.index()),
        Action::KeepDown(r) => Some(KEEP_DOWN + r.index()),
        Action::Place { value, space } => on(PLACE, value, space),
        Action::Retrieve { value, space } => on(RETRIEVE, value, space),
        Action::FinishRetrieve(pay) => Some(
            FINISH
                + match pay {
                    RetrievePay::Food => 0,
                    RetrievePay::Bliss => 1,
                    RetrievePay::Free => 2,
                    RetrievePay::Energy => 3,
                },
        ),
        Action::Pay(g) => Some(PAY + g.index()),
        Action::Take(g) => Some(TAKE + g.index()),
        Action::Draw => Some(DRAW),
        Action::Star(StarTarget::Territory) => Some(STAR_TERRITORY),
        Action::Star(StarTarget::Market(m)) => below(STAR_MARKET, usize::from(m), MARKETS),
        Action::End => Some(END),
        Action::Discard(g) => Some(DISCARD + g.index()),
        Action::Lose(g) => Some(LOSE + g.index()),
        Action::Dilemma => Some(DILEMMA),
        Action::Rebel => Some(DILEMMA + 1),
        Action::Conform => Some(DILEMMA + 2),
        Action::Keep(r) => Some(KEEP + r.index()),
        Action::Trade => Some(TRADE),
        Action::Offer(s) => below(OFFER, usize::from(s), MAX_SEATS),
        Action::Give(g) => Some(GIVE + g.index()),
        Action::Ask(g) => Some(ASK + g.index()),
        Action::Propose => Some(PROPOSE),
        Action::Cancel => Some(PROPOSE + 1),
        Action::Accept => Some(PROPOSE + 2),
        Action::Decline => Some(PROPOSE + 3),
        Action::Pass => Some(PROPOSE + 4),
        Action::Use(r) => Some(USE + r.index()),
        Action::Set(v) => {
            let v = usize::from(v).checked_sub(1)?;
            below(SET, v, FACES)
        }
        Action::Choose(Boon::Good(g)) => Some(CHOOSE + g.index()),
        Action::Choose(Boon::Morale) => Some(CHOOSE + GOODS),
        Action::Choose(Boon::LessKnowledge) => Some(CHOOSE + GOODS + 1),
        Action::UseNew(r) => crate::action::TWO_ABILITIES
            .iter()
            .position(|&t| t == r)
            .map(|k| USE_NEW + k),
    }
}

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
        let i = index_of(action)?;
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

    /// The same numbers as `encode` of the viewer's view (the tensor check holds them
    /// equal), read from the state: a view copies every player's dice and recruits into
    /// vectors and words its prompt, several times what the rest of a step costs.
    fn observe(&self, viewer: engine::Viewer, out: &mut [f32]) {
        let game = self;
        let players = game.config.players;
        let viewer = viewer.seat();
        let me = viewer.unwrap_or(0);
        let rel = |s: Seat| (s + players - me) % players;
        let mut w = Writer::new(out);
        let drawn = match game.stack.last() {
            Some(Step::DilemmaKeep(ids)) if viewer == Some(game.current as usize) => &ids[..],
            _ => &[],
        };
        let offer = match game.stack.last() {
            Some(Step::TradeBuild(o) | Step::TradeAnswer(o)) => Some(o),
            _ => None,
        };
        table_features(
            &TableSeen {
                allegiance: &game.allegiance,
                miners: &game.miners,
                territory: game.territory.each_ref().map(|t| &t[..]),
                territory_spots: game.n(),
                markets: std::array::from_fn(|m| {
                    let market = &game.markets[m];
                    let seats = (0..game.n()).filter(|s| market.stars & (1 << s) != 0);
                    Some((market.built.then_some(market.tile), seats))
                }),
                artifact_deck: game.artifact_deck.len(),
                artifact_discard: &game.artifact_discard,
                recruit_deck: game.recruit_deck.len(),
                recruit_discard: &game.recruit_discard,
                drawn,
                current: game.current as usize,
                to_act: game.actor(),
                setup_done: game.setup_done,
                over: game.over,
                offer,
            },
            players,
            rel,
            &mut w,
        );
        let setup_done = game.setup_done;
        for r in 0..players {
            let seat = (me + r) % players;
            let Some(p) = game.players.get(seat) else {
                w.section(PLAYER);
                continue;
            };
            let own = viewer == Some(seat);
            // As the view shows them: a recruit's number to its owner, and to everyone
            // once it is face up after the setup.
            let recruits = p.recruits.iter().map(|r| {
                let public = setup_done && r.up;
                (
                    (own || public).then_some(r.id),
                    (own || setup_done) && r.up,
                    r.star,
                )
            });
            player_features(
                &PlayerSeen {
                    dice: &p.dice,
                    knowledge: p.knowledge,
                    morale: p.morale,
                    supply: &p.supply,
                    hand: own.then_some(&p.hand),
                    hand_size: p.hand_size(),
                    stars_left: p.stars_left,
                    dealt: if own { &p.dealt } else { &[] },
                    dealt_count: p.dealt.len(),
                    dilemma: game.dilemma_visible(seat, viewer).then_some(p.dilemma),
                    dilemma_state: p.dilemma_state,
                },
                recruits,
                &mut w,
            );
        }
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
    table_features(
        &TableSeen {
            allegiance: &view.allegiance,
            miners: &view.miners,
            territory: view.territory.each_ref().map(|t| &t[..]),
            territory_spots: view.territory_spots,
            markets: std::array::from_fn(|m| {
                (view.markets.get(m)).map(|market| (market.tile, market.stars.iter().copied()))
            }),
            artifact_deck: view.artifact_deck,
            artifact_discard: &view.artifact_discard,
            recruit_deck: view.recruit_deck,
            recruit_discard: &view.recruit_discard,
            drawn: view.drawn.as_deref().unwrap_or_default(),
            current: view.current,
            to_act: view.to_act,
            setup_done: view.setup_done,
            over: view.over,
            offer: view.offer.as_ref(),
        },
        players,
        rel,
        &mut w,
    );
    for r in 0..players {
        let seat = (me + r) % players;
        let Some(p) = view.players.get(seat) else {
            w.section(PLAYER);
            continue;
        };
        player_features(
            &PlayerSeen {
                dice: &p.dice,
                knowledge: p.knowledge,
                morale: p.morale,
                supply: &p.supply,
                hand: p.hand.as_ref(),
                hand_size: p.hand_size,
                stars_left: p.stars_left,
                dealt: p.dealt.as_deref().unwrap_or_default(),
                dealt_count: p.dealt_count,
                dilemma: p.dilemma,
                dilemma_state: p.dilemma_state,
            },
            p.recruits.iter().map(|r| (r.id, r.up, r.star)),
            &mut w,
        );
    }
}

fn recruit_bits(out: &mut [f32], ids: &[Recruit]) {
    for &id in ids {
        if let Some(x) = out.get_mut(id.index()) {
            *x = 1.0;
        }
    }
}

/// What a viewer sees of the table, borrowed from a view or from the state; `S` lists
/// the seats with a star on a market.
struct TableSeen<'a, S> {
    allegiance: &'a [u8; 4],
    miners: &'a [u8; 3],
    territory: [&'a [u8]; 4],
    territory_spots: usize,
    /// Each market slot: its tile once built, and the seats with a star there.
    markets: [Option<(Option<u8>, S)>; MARKETS],
    artifact_deck: usize,
    artifact_discard: &'a [Good],
    recruit_deck: usize,
    recruit_discard: &'a [Recruit],
    /// The recruits drawn for a dilemma, for the drawer only (empty for the others).
    drawn: &'a [Recruit],
    current: Seat,
    to_act: Option<Seat>,
    setup_done: bool,
    over: bool,
    offer: Option<&'a crate::state::Offer>,
}

/// The table's features, the entries before the players' in `w`; `rel` counts a seat
/// from the viewer.
fn table_features<S: Iterator<Item = Seat> + Clone>(
    t: &TableSeen<'_, S>,
    players: usize,
    rel: impl Fn(Seat) -> Seat,
    w: &mut Writer<'_>,
) {
    let allegiance = w.section(4);
    for (x, &a) in allegiance.iter_mut().zip(t.allegiance) {
        *x = f32::from(a) / ALLEGIANCE;
    }
    let miners = w.section(3);
    for (x, &m) in miners.iter_mut().zip(t.miners) {
        *x = f32::from(m) / MINERS;
    }
    for territory in t.territory {
        let section = w.section(players + 1);
        section[players] = territory.len() as f32 / t.territory_spots.max(1) as f32;
        for &s in territory {
            section[rel(s as usize) % players] += 1.0;
        }
    }
    for slot in &t.markets {
        let m = w.section(market_len(players));
        let Some((tile, stars)) = slot else {
            continue;
        };
        if let Some(tile) = tile {
            m[0] = 1.0;
            m[1 + (*tile as usize).min(TILES - 1)] = 1.0;
        }
        for s in stars.clone() {
            m[1 + TILES + rel(s) % players] = 1.0;
        }
    }
    w.push(t.artifact_deck as f32 / ARTIFACT_DECK);
    let discard = w.section(ARTIFACTS);
    for g in t.artifact_discard {
        if let Some(x) = g.artifact_index().and_then(|k| discard.get_mut(k)) {
            *x += 1.0 / ARTIFACT_DECK;
        }
    }
    w.push(t.recruit_deck as f32 / RECRUITS as f32);
    recruit_bits(w.section(RECRUITS), t.recruit_discard);
    recruit_bits(w.section(RECRUITS), t.drawn);
    w.one_hot(players, Some(rel(t.current)));
    w.one_hot(players, t.to_act.map(&rel));
    w.push(flag(t.setup_done));
    w.push(flag(t.over));
    let offer = w.section(2 + 2 * GOODS);
    if let Some(o) = t.offer {
        offer[0] = 1.0;
        offer[1] = rel(o.partner as usize) as f32 / players as f32;
        for (k, (&give, &ask)) in o.give.iter().zip(&o.ask).enumerate() {
            offer[2 + k] = f32::from(give);
            offer[2 + GOODS + k] = f32::from(ask);
        }
    }
}

/// What a viewer sees of one player, borrowed from a view or from the state.
struct PlayerSeen<'a> {
    dice: &'a [DieLoc],
    knowledge: u8,
    morale: u8,
    supply: &'a [u32; SUPPLY],
    /// The artifact cards by kind, for the owner only.
    hand: Option<&'a [u8; ARTIFACTS]>,
    hand_size: u32,
    stars_left: u8,
    /// The recruits dealt at setup, for the owner only (empty for the others).
    dealt: &'a [Recruit],
    dealt_count: usize,
    dilemma: Option<u8>,
    dilemma_state: DilemmaState,
}

/// One player's features, the next [`PLAYER`] entries of `w`; `recruits` are the held
/// recruits as the viewer sees them: the id when visible, face up, starred.
fn player_features(
    p: &PlayerSeen<'_>,
    recruits: impl Iterator<Item = (Option<Recruit>, bool, bool)>,
    w: &mut Writer<'_>,
) {
    // The dice: in reserve, ready by value, on the board by space (how many, and their
    // values), counted straight into the zeroed entries.
    let dice = w.section(1 + FACES + 2 * SPACES);
    let (reserve, rest) = dice.split_at_mut(1);
    let (ready, rest) = rest.split_at_mut(FACES);
    let (on, values) = rest.split_at_mut(SPACES);
    for die in p.dice.iter().take(DICE) {
        match *die {
            DieLoc::Reserve => reserve[0] += 1.0,
            DieLoc::Ready(v) => {
                if let Some(x) = (v as usize).checked_sub(1).and_then(|i| ready.get_mut(i)) {
                    *x += 1.0;
                }
            }
            DieLoc::Board(space, v) => {
                let i = usize::from(space.0);
                if let (Some(n), Some(x)) = (on.get_mut(i), values.get_mut(i)) {
                    *n += 1.0;
                    *x += f32::from(v) / FACES as f32;
                }
            }
        }
    }
    w.push(f32::from(p.knowledge) / crate::cards::KNOWLEDGE_LIMIT as f32);
    w.push(f32::from(p.morale) / 6.0);
    let supply = w.section(SUPPLY);
    for (x, &n) in supply.iter_mut().zip(p.supply) {
        *x = n as f32;
    }
    let hand = w.section(ARTIFACTS);
    for (x, &n) in hand.iter_mut().zip(p.hand.into_iter().flatten()) {
        *x = f32::from(n);
    }
    w.push(p.hand_size as f32);
    w.push(f32::from(p.stars_left) / f32::from(crate::cards::STARS));
    let known = w.section(3 * RECRUITS);
    let (mut count, mut up, mut starred) = (0.0, 0.0, 0.0);
    for (id, is_up, star) in recruits {
        count += 1.0;
        up += flag(is_up);
        starred += flag(star);
        if let Some(i) = id.map(Recruit::index) {
            known[if is_up { i } else { RECRUITS + i }] = 1.0;
            known[2 * RECRUITS + i] = flag(star);
        }
    }
    let counts = w.section(3);
    counts.copy_from_slice(&[count, up, starred]);
    recruit_bits(w.section(RECRUITS), p.dealt);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_out_indices_follow_the_list() {
        let all = every_action();
        assert_eq!(all.len(), USE_NEW + crate::action::TWO_ABILITIES.len());
        for (i, &a) in all.iter().enumerate() {
            assert_eq!(index_of(a), Some(i), "{a}");
        }
        let outside = [
            Action::Place {
                value: 0,
                space: Space(0),
            },
            Action::Place {
                value: 7,
                space: Space(0),
            },
            Action::Retrieve {
                value: 1,
                space: Space(SPACES as u8),
            },
            Action::Star(StarTarget::Market(MARKETS as u8)),
            Action::Offer(MAX_SEATS as u8),
            Action::Set(0),
            Action::Set(FACES as u8 + 1),
            Action::UseNew(Recruit::Amanda),
        ];
        for a in outside {
            assert_eq!(index_of(a), None, "{a:?}");
        }
        let two = Config::players(2);
        assert_eq!(Euphoria::action_index(&two, Action::Offer(2)), None);
        assert_eq!(
            Euphoria::index_action(&two, OFFER + 1),
            Some(Action::Offer(1))
        );
        assert_eq!(Euphoria::index_action(&two, OFFER + 2), None);
    }
}
