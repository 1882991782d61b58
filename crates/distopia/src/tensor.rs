//! Distop-IA as numbers: action indices and the observation tensor (layout in
//! `docs/python.md`).
use crate::action::{Action, Letter};
use crate::cards::{Card, Character, Collaborator, Mission, CARDS, CONTRABAND};
use crate::rules::Listing;
use crate::state::{letter_of, Phase, DISTRICTS, HAND, WON};
use crate::view::{CardView, DistopiaView};
use crate::{Config, Distopia};
use engine::tensor::Writer;
use engine::{Seat, Tensor};

/// Index blocks: pick A-D, play 1-30, then the single actions, robot A-D, raid A-D, pass.
const PICK: usize = 0;
const PLAY: usize = PICK + 4;
const PLAY_GUARD: usize = PLAY + CONTRABAND;
const SKIP: usize = PLAY_GUARD + 1;
const CROSS: usize = SKIP + 1;
const GRANDMA: usize = CROSS + 1;
const ROBOT: usize = GRANDMA + 1;
const RAID: usize = ROBOT + 4;
const PASS: usize = RAID + 4;
const ACTIONS: usize = PASS + 1;

/// Where a contraband card can be seen: the 8 districts (the viewer's A-D, then the
/// other side's), the hand being played, the viewer's won pile, the other won pile.
const PLACES: usize = 8 + 3;
/// Features per district: limit, cards, contraband, guards, a guard on top.
const DISTRICT: usize = 5;
const PHASES: [Phase; 4] = [Phase::Pick, Phase::Play, Phase::Raid, Phase::Over];

/// Where each section of the observation starts (the layout in `docs/python.md`): the
/// characters, the districts, where each contraband card is and how deep, the guards in
/// the hand, the won piles, the deck, who is to act, who went first, the phase, the turn
/// (picked, next, visited districts), its direction and crossing, the collaborator and
/// who may use it, the mission and who claimed it, the scores and the turn count.
const CHARACTERS_AT: usize = 0;
const DISTRICTS_AT: usize = CHARACTERS_AT + 2 * 2;
const PLACES_AT: usize = DISTRICTS_AT + 8 * DISTRICT;
const DEPTHS_AT: usize = PLACES_AT + CONTRABAND * PLACES;
const HAND_GUARDS_AT: usize = DEPTHS_AT + CONTRABAND;
const WON_AT: usize = HAND_GUARDS_AT + 1;
const DECK_AT: usize = WON_AT + 2;
const TO_ACT_AT: usize = DECK_AT + 1;
const FIRST_AT: usize = TO_ACT_AT + 2;
const PHASE_AT: usize = FIRST_AT + 2;
const TURN_AT: usize = PHASE_AT + PHASES.len();
const CLOCKWISE_AT: usize = TURN_AT + 8 * 3;
const CROSSING_AT: usize = CLOCKWISE_AT + 1;
const COLLABORATOR_AT: usize = CROSSING_AT + 1;
const USABLE_BY_AT: usize = COLLABORATOR_AT + 4;
const MISSION_AT: usize = USABLE_BY_AT + 3;
const CLAIMED_AT: usize = MISSION_AT + 4;
const SCORES_AT: usize = CLAIMED_AT + 2;
const TURNS_AT: usize = SCORES_AT + 2;
/// The observation's length.
const OBSERVATION: usize = TURNS_AT + 1;

/// How deep a card lies in its district, as the observation holds it: `1 / (1 + k)` for
/// the card `k` below the top, worked out once (a division per card cost more than the
/// rest of its features). A district holds fewer cards than there are; the entries from
/// `CARDS` on are 0, the depth of a card in no district (any `u8` indexes the table).
const DEPTH: [f32; 256] = {
    let mut t = [0.0; 256];
    let mut k = 0;
    while k < CARDS {
        t[k] = 1.0 / (1.0 + k as f32);
        k += 1;
    }
    t
};

/// `n / d` for every `n` below `N`, worked out once as `DEPTH` is (the same numbers as
/// the division: it is made at compile time by the same rules).
const fn fractions<const N: usize>(d: f32) -> [f32; N] {
    let mut t = [0.0; N];
    let mut n = 0;
    while n < N {
        t[n] = n as f32 / d;
        n += 1;
    }
    t
}

/// A district's limit over 5, for every limit a `u8` holds.
const FIFTHS: [f32; 256] = fractions(5.0);
/// A won pile's cards over the contraband there is, and the deck's over all cards.
const OF_CONTRABAND: [f32; 256] = fractions(CONTRABAND as f32);
const OF_CARDS: [f32; 256] = fractions(CARDS as f32);

/// A district's cards, contraband and guards and whether a guard is on top, as the
/// observation holds them, for every count of cards (up to all of them), of guards (a
/// nibble) and top: `COUNTS[cards * 32 + guards * 2 + top]`.
static COUNTS: [[f32; 4]; (CARDS + 1) * 32] = {
    let mut t = [[0.0; 4]; (CARDS + 1) * 32];
    let mut k = 0;
    while k < t.len() {
        let (cards, guards, top) = ((k / 32) as u8, ((k / 2) % 16) as u8, k % 2);
        t[k] = [
            cards as f32 / 10.0,
            cards.wrapping_sub(guards) as f32 / 10.0,
            guards as f32,
            top as f32,
        ];
        k += 1;
    }
    t
};

/// An action's index ([`Tensor::action_index`]).
#[inline(always)]
fn index_of(action: Action) -> Option<usize> {
    let letter = |base: usize, l: Letter| ((l as usize) < 4).then_some(base + l as usize);
    match action {
        Action::Pick(l) => letter(PICK, l),
        Action::Play(card) => {
            (!card.is_guard() && card.is_valid()).then_some(PLAY + card.0 as usize)
        }
        Action::PlayGuard => Some(PLAY_GUARD),
        Action::Skip => Some(SKIP),
        Action::Cross => Some(CROSS),
        Action::Grandma => Some(GRANDMA),
        Action::Robot(l) => letter(ROBOT, l),
        Action::Raid(l) => letter(RAID, l),
        Action::Pass => Some(PASS),
    }
}

/// The legal list with the mask written beside it: where the rules push an action its
/// kind is known, so its index is worked out there without a `match` (a jump through a
/// table, which went wrong often when the mask was written from the list afterwards).
struct Masked<'a> {
    legal: &'a mut Vec<Action>,
    mask: &'a mut [i8],
}

impl Listing for Masked<'_> {
    fn clear(&mut self) {
        self.legal.clear();
        self.mask.fill(0);
    }
    #[inline(always)]
    fn push(&mut self, action: Action) {
        self.legal.push(action);
        if let Some(m) = index_of(action).and_then(|i| self.mask.get_mut(i)) {
            *m = 1;
        }
    }
}

fn letter_index(letter: char) -> usize {
    (letter as usize).saturating_sub('A' as usize).min(3)
}

/// The contraband index (0-29) of a face-up card, `None` for a guard.
fn contraband(card: &CardView) -> Option<usize> {
    card.number
        .and_then(Card::from_number)
        .map(|c| c.0 as usize)
}

impl Tensor for Distopia {
    fn num_distinct_actions(_config: &Config) -> usize {
        ACTIONS
    }

    fn action_index(_config: &Config, action: Action) -> Option<usize> {
        index_of(action)
    }

    fn legal_mask(&self, scratch: &mut Vec<Action>, mask: &mut [i8]) {
        self.legal(&mut Masked {
            legal: scratch,
            mask,
        });
    }

    fn index_action(_config: &Config, index: usize) -> Option<Action> {
        let l = |base: usize| (index - base) as Letter;
        Some(match index {
            i if i < PLAY => Action::Pick(l(PICK)),
            i if i < PLAY_GUARD => Action::Play(Card((i - PLAY) as u8)),
            PLAY_GUARD => Action::PlayGuard,
            SKIP => Action::Skip,
            CROSS => Action::Cross,
            GRANDMA => Action::Grandma,
            i if i < RAID => Action::Robot(l(ROBOT)),
            i if i < PASS => Action::Raid(l(RAID)),
            PASS => Action::Pass,
            _ => return None,
        })
    }

    fn observation_len(_config: &Config) -> usize {
        OBSERVATION
    }

    fn encode(_config: &Config, view: &DistopiaView, out: &mut [f32]) {
        // Sides are counted from the viewer: the viewer's first (seat 0's for a spectator).
        let me = view.viewer.seat().unwrap_or(0) % 2;
        let rel = |s: Seat| (s + 2 - me) % 2;
        let slot = |s: Seat, letter: char| rel(s) * 4 + letter_index(letter);
        let mut w = Writer::new(out);
        let characters = w.section(4);
        for side in &view.sides {
            let c = match side.character {
                Character::Teacher => 0,
                Character::Collector => 1,
            };
            characters[rel(side.seat) * 2 + c] = 1.0;
        }
        let districts = w.section(8 * DISTRICT);
        let mut places = [[0.0f32; PLACES]; CONTRABAND];
        let mut depth = [0.0f32; CONTRABAND];
        for side in &view.sides {
            for d in &side.districts {
                let at = slot(side.seat, d.letter);
                let f = &mut districts[at * DISTRICT..(at + 1) * DISTRICT];
                let guards = d.cards.iter().filter(|c| c.number.is_none()).count();
                f[0] = f32::from(d.limit) / 5.0;
                f[1] = d.cards.len() as f32 / 10.0;
                f[2] = (d.cards.len() - guards) as f32 / 10.0;
                f[3] = guards as f32;
                f[4] = f32::from(d.cards.last().is_some_and(|c| c.number.is_none()));
                for (k, card) in d.cards.iter().rev().enumerate() {
                    if let Some(i) = contraband(card) {
                        places[i][at] = 1.0;
                        depth[i] = 1.0 / (1.0 + k as f32);
                    }
                }
            }
            for card in side.won.iter().flatten() {
                if let Some(i) = contraband(card) {
                    places[i][9 + rel(side.seat)] = 1.0;
                }
            }
        }
        let hand = view
            .turn
            .as_ref()
            .map(|t| t.hand.as_slice())
            .unwrap_or_default();
        for card in hand {
            if let Some(i) = contraband(card) {
                places[i][8] = 1.0;
            }
        }
        w.section(CONTRABAND * PLACES)
            .copy_from_slice(places.as_flattened());
        w.section(CONTRABAND).copy_from_slice(&depth);
        w.push(hand.iter().filter(|c| c.number.is_none()).count() as f32);
        let won = w.section(2);
        for side in &view.sides {
            won[rel(side.seat)] = side.won_count as f32 / CONTRABAND as f32;
        }
        w.push(view.deck_count as f32 / CARDS as f32);
        w.one_hot(2, view.to_act.map(rel));
        w.one_hot(2, Some(rel(view.first_player)));
        w.one_hot(PHASES.len(), PHASES.iter().position(|&p| p == view.phase));
        let turn = w.section(8 * 3);
        if let Some(t) = &view.turn {
            turn[slot(me, t.picked)] = 1.0;
            if let Some((s, l)) = t.next {
                turn[8 + slot(s, l)] = 1.0;
            }
            for &(s, l) in &t.passed {
                turn[16 + slot(s, l)] = 1.0;
            }
        }
        let t = view.turn.as_ref();
        w.push(f32::from(t.is_some_and(|t| t.clockwise)));
        w.push(f32::from(t.is_some_and(|t| t.crossing)));
        let c = view.collaborator;
        w.one_hot(
            4,
            c.and_then(|c| Collaborator::all().iter().position(|&k| k == c.card)),
        );
        // Who may use it: either player, the viewer's side, the other side.
        w.one_hot(3, c.map(|c| c.usable_by.map_or(0, |s| 1 + rel(s))));
        let m = view.mission;
        w.one_hot(
            4,
            m.and_then(|m| Mission::all().iter().position(|&k| k == m.card)),
        );
        w.one_hot(2, m.and_then(|m| m.claimed_by).map(rel));
        let scores = w.section(2);
        for (s, score) in view.scores.iter().flatten().enumerate() {
            scores[rel(s)] = score.total as f32 / 30.0;
        }
        w.push(view.turn_number as f32 / 100.0);
    }

    /// The same numbers as `encode` of the viewer's view (the tensor check holds them
    /// equal), read from the state without building the view: a view is a dozen small
    /// vectors, more than the rest of a step costs.
    fn observe(&self, viewer: engine::Viewer, out: &mut [f32]) {
        if let Ok(out) = <&mut [f32; OBSERVATION]>::try_from(&mut *out) {
            return self.observe_into(viewer, out);
        }
        // Not the observation's length: the view's encoding says how it fails.
        Self::encode(&self.config, &engine::GameRules::view(self, viewer), out);
    }

    /// A won pile lies face down in no meaningful order: the tensor holds which cards.
    fn same_information(a: &DistopiaView, b: &DistopiaView) -> bool {
        let sorted = |v: &DistopiaView| {
            let mut v = v.clone();
            for side in &mut v.sides {
                if let Some(won) = &mut side.won {
                    won.sort_by_key(|c| c.number);
                }
            }
            v
        };
        sorted(a) == sorted(b)
    }
}

impl Distopia {
    /// [`Tensor::observe`] into an observation of the right length, every section at a
    /// fixed place (no bounds to check, no writer to move along).
    fn observe_into(&self, viewer: engine::Viewer, out: &mut [f32; OBSERVATION]) {
        let game = self;
        let over = game.phase() == Phase::Over;
        let me = viewer.seat().unwrap_or(0) % 2;
        let rel = |s: Seat| (s + 2 - me) % 2;
        // A ring index's district as the viewer's sides order them: the viewer's A-D
        // first (`rel(owner(i)) * 4 + letter_of(i)`, which is `i` with its side flipped
        // for the second seat).
        let ring_slot = |i: usize| (i ^ (me << 2)) & 7;
        out.fill(0.0);
        for seat in 0..2 {
            let c = match game.character(seat) {
                Character::Teacher => 0,
                Character::Collector => 1,
            };
            out[CHARACTERS_AT + rel(seat) * 2 + c] = 1.0;
        }
        // Where each contraband card is and how deep in its district, read from the
        // state's table of where every card lies (`Spots`), in one pass over the cards
        // with no branch on where they lie. (Walking the stacks instead, whose lengths
        // differ at every step, mispredicted the end of nearly every loop.)
        let turn = matches!(game.phase(), Phase::Play | Phase::Raid).then(|| game.turn());
        // For each of the state's places (16 entries, so that a place code masked to 4
        // bits needs no bounds check), in one word (one load a card, not three): the mark
        // its cards get (bits 0-31: 1.0, or 0 where the viewer cannot see them, written
        // then to column 0, a district the card is not in, whose 0 it leaves as it was: no
        // branch on which cards are hidden, which differs at every step), the column they
        // show in (bits 32-35) and the position of a district's top card (bits 40-47;
        // `u8::MAX` elsewhere, so that `top - under` lands past the depths, on a 0). The
        // mark in the low half is stored as it is; the column and top come out with a
        // shift and a mask (with the column low and the mark high, a card took more
        // instructions).
        const SEEN: u64 = 0x3f80_0000;
        const NO_TOP: u64 = 0xff << 40;
        let mut code = [NO_TOP; 16];
        let top = |code: u64| (code >> 40) as u8;
        let mut lens = [0usize; DISTRICTS];
        for (d, len) in lens.iter_mut().enumerate() {
            *len = game.stack(d).len();
            let top = (*len as u8).wrapping_sub(1);
            code[d] = SEEN | u64::from(top) << 40 | (ring_slot(d) as u64) << 32;
        }
        if turn.is_some() {
            code[usize::from(HAND)] = SEEN | NO_TOP | 8 << 32;
        }
        for seat in 0..2 {
            if over || viewer == engine::Viewer::Seat(seat) {
                code[usize::from(WON) + seat] = SEEN | NO_TOP | (9 + rel(seat) as u64) << 32;
            }
        }
        let spots = &game.spots;
        let mut card = |i: usize| {
            let c = code[usize::from(spots.place[i] & 15)];
            // The card's row seen through a window of 16 entries (past the last row it
            // reaches into the depths), so that a column masked to 4 bits needs no bounds
            // check: columns are below `PLACES`.
            let at = PLACES_AT + i * PLACES;
            if let Ok(row) = <&mut [f32; 16]>::try_from(&mut out[at..at + 16]) {
                row[((c >> 32) & 15) as usize] = f32::from_bits(c as u32);
            }
            out[DEPTHS_AT + i] = DEPTH[usize::from(top(c).wrapping_sub(spots.under[i]))];
        };
        // Two cards a round of the loop: a card is a dozen instructions, the loop's own
        // count and test a third as many again.
        for j in 0..CONTRABAND / 2 {
            card(2 * j);
            card(2 * j + 1);
        }
        // The guards in each place, four bits a place (there are five guards), and the
        // places whose top card is a guard, a bit each: two words, not arrays (no store
        // and reload per guard).
        let (mut guards, mut on_top) = (0u64, 0u32);
        for g in CONTRABAND..CARDS {
            let p = u32::from(spots.place[g] & 15);
            guards += 1 << (4 * p);
            on_top |= u32::from(spots.under[g] == top(code[p as usize])) << p;
        }
        let guards_in = |p: usize| ((guards >> (4 * p)) & 15) as u8;
        let limits = game.config.limits().map(|l| FIFTHS[usize::from(l)]);
        for (d, &len) in lens.iter().enumerate() {
            let at = DISTRICTS_AT + ring_slot(d) * DISTRICT;
            out[at] = limits[usize::from(letter_of(d))];
            // The other four features in one look-up and one 16-byte copy (a division,
            // two look-ups and two conversions cost twice the instructions).
            let key =
                len.min(CARDS) * 32 + usize::from(guards_in(d)) * 2 + ((on_top >> d) & 1) as usize;
            if let Ok(f) = <&mut [f32; 4]>::try_from(&mut out[at + 1..at + 5]) {
                *f = COUNTS[key];
            }
        }
        if turn.is_some() {
            out[HAND_GUARDS_AT] = f32::from(guards_in(usize::from(HAND)));
        }
        for seat in 0..2 {
            out[WON_AT + rel(seat)] = OF_CONTRABAND[usize::from(game.won(seat).len() as u8)];
        }
        out[DECK_AT] = OF_CARDS[usize::from(game.deck().len() as u8)];
        if !over {
            out[TO_ACT_AT + rel(game.current())] = 1.0;
        }
        out[FIRST_AT + rel(game.first_player())] = 1.0;
        let phase = match game.phase() {
            Phase::Pick => 0,
            Phase::Play => 1,
            Phase::Raid => 2,
            Phase::Over => 3,
        };
        out[PHASE_AT + phase] = 1.0;
        if let Some(t) = turn {
            out[TURN_AT + usize::from(letter_of(t.picked))] = 1.0;
            if game.phase() == Phase::Play {
                out[TURN_AT + 8 + ring_slot(game.next_district())] = 1.0;
            }
            for i in 0..8 {
                out[TURN_AT + 16 + ring_slot(i)] = f32::from((t.visited >> i) & 1);
            }
            out[CLOCKWISE_AT] = f32::from(u8::from(t.clockwise));
            out[CROSSING_AT] = f32::from(u8::from(t.crossing));
        }
        if let Some(c) = game.collaborator() {
            if let Some(k) = Collaborator::all().iter().position(|&k| k == c.card) {
                out[COLLABORATOR_AT + k.min(3)] = 1.0;
            }
            // Who may use it: either player, the viewer's side, the other side.
            out[USABLE_BY_AT + c.holder.map_or(0, |s| 1 + rel(s))] = 1.0;
        }
        if let Some(m) = game.mission() {
            if let Some(k) = Mission::all().iter().position(|&k| k == m.card) {
                out[MISSION_AT + k.min(3)] = 1.0;
            }
            if let Some(s) = m.claimed_by {
                out[CLAIMED_AT + rel(s)] = 1.0;
            }
        }
        if over {
            for seat in 0..2 {
                out[SCORES_AT + rel(seat)] = game.score(seat).total as f32 / 30.0;
            }
        }
        out[TURNS_AT] = game.turns as f32 / 100.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_cover_every_action_once() {
        let config = Config::default();
        let all = Action::universe();
        assert_eq!(all.len(), ACTIONS);
        for a in all {
            let i = Distopia::action_index(&config, a).expect("every action has an index");
            assert_eq!(Distopia::index_action(&config, i), Some(a), "{a}");
        }
        assert_eq!(Distopia::index_action(&config, ACTIONS), None);
        assert_eq!(
            Distopia::action_index(&config, Action::Play(Card::guard(0))),
            None
        );
    }
}
