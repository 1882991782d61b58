//! Determinization: what a seat cannot see, dealt again at random and consistently.
use crate::cards::{self, Recruit, ARTIFACTS, ARTIFACT_COPIES, DILEMMAS, RECRUITS, TILES};
use crate::state::{Euphoria, Step};
use crate::Good;
use engine::{rng_from_seed, shuffle, Seat};

impl Euphoria {
    /// A copy where everything `seat` cannot see is reshuffled consistently.
    pub fn resample<R: rand::Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Euphoria {
        let mut g = self.clone();
        // (Face-down recruits resampled may be of an unlocked faction: the checks look again.)
        g.checks = Default::default();
        g.resample_recruits(seat, rng);
        g.resample_artifacts(seat, rng);
        g.resample_dilemmas(self, seat, rng);
        g.resample_tiles(rng);
        g.rng = rng_from_seed(rng.random());
        g
    }

    /// Recruits: the deck, the box, the others' hidden cards, a drawn pair `seat` cannot
    /// see. Resampled in place: the hidden cards are gathered on the stack, shuffled, and
    /// dealt back where they came from (the deck last, then the box, from the end).
    fn resample_recruits<R: rand::Rng + ?Sized>(&mut self, seat: Seat, rng: &mut R) {
        let hidden_draw = self.current as usize != seat;
        let setup_done = self.setup_done;
        let mut pool = [Recruit::default(); RECRUITS];
        let mut len = 0;
        let mut gather = |id: Recruit| {
            if let Some(slot) = pool.get_mut(len) {
                *slot = id;
                len += 1;
            }
        };
        self.recruit_deck.iter().for_each(|&id| gather(id));
        self.recruit_box.iter().for_each(|&id| gather(id));
        for (s, p) in self.players.iter().enumerate() {
            if s == seat {
                continue;
            }
            p.dealt.iter().for_each(|&id| gather(id));
            p.recruits
                .iter()
                .filter(|r| !(setup_done && r.up))
                .for_each(|r| gather(r.id));
        }
        if hidden_draw {
            if let Some(Step::DilemmaKeep(ids)) = self.stack.last() {
                ids.iter().for_each(|&id| gather(id));
            }
        }
        let pool = &mut pool[..len];
        // Sorted first (each recruit is there once: by marking the numbers), so the sample
        // depends only on what the seat sees, not on where the hidden cards happen to lie.
        let mut present = [false; RECRUITS + 1];
        for &id in pool.iter() {
            present[usize::from(id.number())] = true;
        }
        let mut sorted = Recruit::ALL
            .into_iter()
            .filter(|id| present[usize::from(id.number())]);
        for slot in pool.iter_mut() {
            *slot = sorted.next().unwrap_or(*slot);
        }
        shuffle(&mut pool[..], rng);
        // A face-down recruit is never of an unlocked faction (those are turned face up):
        // the others' face-down recruits are dealt from the cards that may lie face down,
        // gathered at the end of the pool; the rest is shuffled again for the other places.
        let unlocked = cards::Faction::ALL.map(|f| self.unlocked(f));
        let may_hide = |id: Recruit| !unlocked[id.faction().index()];
        let face_down = (self.players.iter().enumerate())
            .filter(|(s, _)| *s != seat)
            .map(|(_, p)| {
                (p.recruits.iter())
                    .filter(|r| !(setup_done && r.up))
                    .count()
            })
            .sum::<usize>();
        let mut rest = len;
        for _ in 0..face_down.min(len) {
            if let Some(j) = (0..rest).rev().find(|&j| may_hide(pool[j])) {
                pool.swap(j, rest - 1);
            }
            rest -= 1;
        }
        shuffle(&mut pool[..rest], rng);
        let mut hidden_end = len;
        for (s, p) in self.players.iter_mut().enumerate() {
            if s == seat {
                continue;
            }
            for r in p.recruits.iter_mut() {
                if !(setup_done && r.up) && hidden_end > rest {
                    hidden_end -= 1;
                    r.id = pool[hidden_end];
                }
            }
        }
        let mut end = rest;
        let mut take_last = |dest: &mut [Recruit]| {
            if let Some(start) = end.checked_sub(dest.len()) {
                dest.copy_from_slice(&pool[start..end]);
                end = start;
            }
        };
        take_last(&mut self.recruit_deck);
        take_last(&mut self.recruit_box);
        let mut pop = || {
            end = end.checked_sub(1)?;
            Some(pool[end])
        };
        for (s, p) in self.players.iter_mut().enumerate() {
            if s == seat {
                continue;
            }
            for d in p.dealt.iter_mut() {
                *d = pop().unwrap_or(*d);
            }
        }
        if hidden_draw {
            if let Some(Step::DilemmaKeep(ids)) = self.stack.last_mut() {
                for id in ids.iter_mut() {
                    *id = pop().unwrap_or(*id);
                }
            }
        }
    }

    /// Artifacts: the deck and the others' hands, resampled in place; a pending "keep 1
    /// of the 2 drawn" of another seat names kinds only its owner saw.
    fn resample_artifacts<R: rand::Rng + ?Sized>(&mut self, seat: Seat, rng: &mut R) {
        const CARDS: usize = ARTIFACTS * ARTIFACT_COPIES as usize;
        let mut cards = [Good::Book; CARDS];
        let mut len = 0;
        let mut gather = |card: Good| {
            if let Some(slot) = cards.get_mut(len) {
                *slot = card;
                len += 1;
            }
        };
        self.artifact_deck.iter().for_each(|&c| gather(c));
        for (s, p) in self.players.iter().enumerate() {
            if s == seat {
                continue;
            }
            for (k, &kind) in Good::ARTIFACT_KINDS.iter().enumerate() {
                (0..p.hand[k]).for_each(|_| gather(kind));
            }
        }
        let cards = &mut cards[..len];
        // Sorted first, as above (by counting the kinds).
        let mut counts = [0usize; ARTIFACTS];
        for c in cards.iter() {
            if let Some(k) = c.artifact_index() {
                counts[k] += 1;
            }
        }
        let mut i = 0;
        for (k, &n) in counts.iter().enumerate() {
            for slot in cards.iter_mut().skip(i).take(n) {
                *slot = Good::ARTIFACT_KINDS[k];
            }
            i += n;
        }
        shuffle(&mut cards[..], rng);
        let mut end = len;
        for (s, p) in self.players.iter_mut().enumerate() {
            if s == seat {
                continue;
            }
            let size = p.hand_size();
            p.hand = [0; ARTIFACTS];
            for _ in 0..size {
                if let Some(e) = end.checked_sub(1) {
                    end = e;
                    p.add(cards[e], 1);
                }
            }
        }
        self.artifact_deck.clear();
        self.artifact_deck.extend_from_slice(&cards[..end]);
        for st in self.stack.iter_mut() {
            if let Step::Shed { seat: s, mask, .. } = st {
                if *s as usize != seat {
                    *mask = crate::rules::payment::ANY_KIND;
                }
            }
        }
    }

    /// Dilemmas nobody but their holder can see yet (`before`: the state sampled from).
    fn resample_dilemmas<R: rand::Rng + ?Sized>(
        &mut self,
        before: &Euphoria,
        seat: Seat,
        rng: &mut R,
    ) {
        let hidden = |s: Seat| s != seat && !before.dilemma_visible(s, Some(seat));
        // Gathered on the stack (the box, then the hidden cards), without allocating.
        let mut dilemmas = [0u8; DILEMMAS.len()];
        let held = (self.players.iter().enumerate())
            .filter(|&(s, _)| hidden(s))
            .map(|(_, p)| p.dilemma);
        let mut end = sorted_shuffle(
            &mut dilemmas,
            self.dilemma_box.iter().copied().chain(held),
            rng,
        );
        for (s, p) in self.players.iter_mut().enumerate() {
            if hidden(s) {
                p.dilemma = match end.checked_sub(1) {
                    Some(e) => {
                        end = e;
                        dilemmas[e]
                    }
                    None => 0,
                };
            }
        }
        self.dilemma_box.clear();
        self.dilemma_box.extend_from_slice(&dilemmas[..end]);
    }

    /// The face-down market tiles.
    fn resample_tiles<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) {
        // Gathered on the stack (the box, then the unbuilt slots), without allocating.
        let mut tiles = [0u8; TILES];
        let unbuilt = self.markets.iter().filter(|m| !m.built).map(|m| m.tile);
        let mut end = sorted_shuffle(
            &mut tiles,
            self.box_tiles.iter().copied().chain(unbuilt),
            rng,
        );
        for m in self.markets.iter_mut() {
            if !m.built {
                if let Some(e) = end.checked_sub(1) {
                    end = e;
                    m.tile = tiles[e];
                }
            }
        }
        self.box_tiles.clear();
        self.box_tiles.extend_from_slice(&tiles[..end]);
    }
}

/// Gathers `cards` into `buf` (as many as fit), sorts them (as above: the sample then
/// depends only on what the seat sees, not on where the hidden cards happen to lie) and
/// shuffles them; returns how many were gathered.
fn sorted_shuffle<R: rand::Rng + ?Sized>(
    buf: &mut [u8],
    cards: impl Iterator<Item = u8>,
    rng: &mut R,
) -> usize {
    let mut len = 0;
    for (slot, card) in buf.iter_mut().zip(cards) {
        *slot = card;
        len += 1;
    }
    let gathered = &mut buf[..len];
    gathered.sort_unstable();
    shuffle(gathered, rng);
    len
}
