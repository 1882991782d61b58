//! The full game state, the table geometry, setting up and invariants.
//!
//! The 8 districts form one counterclockwise ring: index 0-3 are seat 0's A-D, 4-7 are
//! seat 1's A-D. A step counterclockwise is +1 (mod 8), the district across the border
//! from `i` is `7 - i`, and its column (west to east) is `i` for seat 0, `7 - i` for seat 1.
use crate::cards::{Border, Card, Character, Collaborator, Mission, CARDS};
use crate::config::Config;
use engine::{GameRng, Seat};
use serde::{Deserialize, Serialize};

/// Districts on the table.
pub const DISTRICTS: usize = 8;

/// The ring index of `seat`'s district `letter` (0-3 = A-D).
pub fn district(seat: Seat, letter: u8) -> usize {
    seat * 4 + letter as usize
}

/// Whose side ring index `i` is on.
pub fn owner(i: usize) -> Seat {
    i / 4
}

/// The letter (0-3) of ring index `i` on its owner's side.
pub fn letter_of(i: usize) -> u8 {
    (i % 4) as u8
}

/// The district across the border card from `i`.
pub fn opposite(i: usize) -> usize {
    7 - i
}

/// The column (0 = west … 3 = east) of ring index `i`.
pub fn column(i: usize) -> usize {
    if i < 4 {
        i
    } else {
        7 - i
    }
}

/// The ring index in `seat`'s row at `column`.
pub fn at_column(seat: Seat, column: usize) -> usize {
    if seat == 0 {
        column
    } else {
        7 - column
    }
}

/// The next district counterclockwise (or clockwise) from `i`.
pub fn step(i: usize, clockwise: bool) -> usize {
    if clockwise {
        (i + DISTRICTS - 1) % DISTRICTS
    } else {
        (i + 1) % DISTRICTS
    }
}

/// Where the game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// The player to act picks one of their districts.
    Pick,
    /// The player plays their hand, one district at a time.
    Play,
    /// The Shelf Raider may take one more card after winning.
    Raid,
    /// The game is over.
    Over,
}

/// The turn in progress (meaningful in `Play` and `Raid`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct Turn {
    /// The ring index picked up.
    pub picked: usize,
    /// The district last played in or skipped (the picked one before the first card).
    pub pos: usize,
    /// Grandma the Hacker reversed the direction.
    pub clockwise: bool,
    /// Spy Pets: the next district is the one across from `pos`.
    pub crossing: bool,
    /// The cards picked up and not yet played, sorted.
    pub hand: Vec<Card>,
    /// Districts played in or skipped this turn (bit per ring index).
    pub visited: u8,
    /// Opponent districts where contraband was played this turn.
    pub smuggled: u8,
    /// Opponent districts cards were won from this turn.
    pub won_from: u8,
    /// Districts played in or skipped so far.
    pub steps: u32,
}

impl Turn {
    /// A fresh turn from ring index `picked`, keeping the (empty) hand's capacity.
    pub(crate) fn reset(&mut self, picked: usize) {
        self.hand.clear();
        *self = Turn {
            picked,
            pos: picked,
            hand: std::mem::take(&mut self.hand),
            ..Turn::default()
        };
    }
}

/// A collaborator card in play and who may use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct CollaboratorState {
    /// Which collaborator.
    pub card: Collaborator,
    /// `None` while either player may use it; then the opponent of its last user.
    pub holder: Option<Seat>,
}

/// A mission card in play and who earned it (Curfew and Save a Sibling go to one player).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub struct MissionState {
    /// Which mission.
    pub card: Mission,
    /// Who earned it (Curfew, Save a Sibling).
    pub claimed_by: Option<Seat>,
}

/// The whole game: everything on the table, the deck order and the random stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "Saved")]
pub struct Distopia {
    pub(crate) config: Config,
    pub(crate) characters: [Character; 2],
    /// District stacks, bottom first.
    pub(crate) districts: [Vec<Card>; DISTRICTS],
    /// The face-down deck; the top is the last card.
    pub(crate) deck: Vec<Card>,
    /// Cards won, face down under each character card.
    pub(crate) won: [Vec<Card>; 2],
    pub(crate) collaborator: Option<CollaboratorState>,
    pub(crate) mission: Option<MissionState>,
    pub(crate) first: Seat,
    pub(crate) current: Seat,
    pub(crate) phase: Phase,
    pub(crate) turn: Turn,
    /// Turns begun so far.
    pub(crate) turns: u32,
    pub(crate) rng: GameRng,
    /// The positions turns began at since a card last left the deck or was won (ruling
    /// X15). Written out only when any; older saved games read as none.
    #[serde(default, skip_serializing_if = "Repeats::is_none")]
    pub(crate) repeats: Repeats,
    /// Where every card lies (derived: not written out, rebuilt at load).
    #[serde(skip_serializing)]
    pub(crate) spots: Spots,
}

/// A state as written out: every field of [`Distopia`] but the derived [`Spots`], which
/// are worked out again when it is read.
#[derive(Deserialize)]
struct Saved {
    config: Config,
    characters: [Character; 2],
    districts: [Vec<Card>; DISTRICTS],
    deck: Vec<Card>,
    won: [Vec<Card>; 2],
    collaborator: Option<CollaboratorState>,
    mission: Option<MissionState>,
    first: Seat,
    current: Seat,
    phase: Phase,
    turn: Turn,
    turns: u32,
    rng: GameRng,
    #[serde(default)]
    repeats: Repeats,
}

impl From<Saved> for Distopia {
    fn from(s: Saved) -> Distopia {
        let mut game = Distopia {
            config: s.config,
            characters: s.characters,
            districts: s.districts,
            deck: s.deck,
            won: s.won,
            collaborator: s.collaborator,
            mission: s.mission,
            first: s.first,
            current: s.current,
            phase: s.phase,
            turn: s.turn,
            turns: s.turns,
            rng: s.rng,
            repeats: s.repeats,
            spots: Spots::default(),
        };
        game.locate_cards();
        game
    }
}

/// [`Spots`]' places that are not districts (ring indices 0-7 are): the hand being
/// played, the won piles (`WON + seat`) and the deck.
pub(crate) const HAND: u8 = 8;
pub(crate) const WON: u8 = 9;
pub(crate) const DECK: u8 = 11;

/// Where every card lies: its place, and in a district how many cards lie under it. It is
/// derived from the districts, the hand, the won piles and the deck, and the rules keep
/// it up to date at every card they move, so that the observation reads it in one pass of
/// fixed length (`tensor.rs`) instead of walking stacks whose lengths change at every
/// step. Left out of equality: it follows from what is compared.
#[derive(Clone, Debug)]
pub(crate) struct Spots {
    /// Each card's place: a ring index (0-7), [`HAND`], [`WON`] + seat or [`DECK`].
    pub(crate) place: [u8; CARDS],
    /// A card in a district: how many cards lie under it (left as it was elsewhere).
    pub(crate) under: [u8; CARDS],
}

impl Default for Spots {
    /// Every card in the deck.
    fn default() -> Spots {
        Spots {
            place: [DECK; CARDS],
            under: [0; CARDS],
        }
    }
}

impl PartialEq for Spots {
    fn eq(&self, _: &Spots) -> bool {
        true
    }
}

impl Spots {
    /// `card` is now at `place`, with `under` cards under it. A card id that does not
    /// exist is not noted (a loaded state's check reports it).
    #[inline]
    pub(crate) fn put(&mut self, card: Card, place: u8, under: usize) {
        let i = usize::from(card.0);
        if let (Some(p), Some(u)) = (self.place.get_mut(i), self.under.get_mut(i)) {
            *p = place;
            *u = u8::try_from(under).unwrap_or(u8::MAX);
        }
    }

    /// Whether both say the same of every card: the place, and how many cards lie under
    /// it in a district.
    #[cfg(test)]
    pub(crate) fn same(&self, other: &Spots) -> bool {
        (0..CARDS).all(|i| {
            self.place[i] == other.place[i]
                && (self.place[i] >= HAND || self.under[i] == other.under[i])
        })
    }
}

impl Distopia {
    /// Works out [`Spots`] again from the cards' places.
    pub(crate) fn locate_cards(&mut self) {
        let mut spots = Spots::default();
        for (i, stack) in self.districts.iter().enumerate() {
            for (k, &card) in stack.iter().enumerate() {
                spots.put(card, i as u8, k);
            }
        }
        for &card in &self.turn.hand {
            spots.put(card, HAND, 0);
        }
        for (seat, pile) in self.won.iter().enumerate() {
            for &card in pile {
                spots.put(card, WON + seat as u8, 0);
            }
        }
        self.spots = spots;
    }

    /// Puts `card` on top of district `i`.
    #[inline]
    pub(crate) fn stack_card(&mut self, i: usize, card: Card) {
        if let Some(stack) = self.districts.get_mut(i) {
            self.spots.put(card, i as u8, stack.len());
            stack.push(card);
        }
    }

    /// Adds `card` to `seat`'s won pile.
    #[inline]
    pub(crate) fn win_card(&mut self, seat: Seat, card: Card) {
        if let Some(pile) = self.won.get_mut(seat) {
            self.spots.put(card, WON + seat as u8, 0);
            pile.push(card);
        }
    }
}

/// How often a position must come up at the start of a turn to end the game (ruling X15).
pub const REPETITIONS: usize = 3;

/// The positions turns began at over a stretch in which nothing left the deck and nothing
/// was won (ruling X15). None from before a stretch can come back, since the deck only
/// shrinks and the won piles only grow.
///
/// A stretch begins at the pick of a turn that may leave the picked district filled (see
/// `may_come_back`): any other turn refills it from the deck, so its position cannot come
/// back and is not noted. Each turn that then draws and wins nothing notes the position it
/// hands on. So nothing is worked out in the turns of an ordinary game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Repeats {
    /// Cards in the deck and in each won pile during the stretch.
    progress: [u8; 3],
    /// The positions, as hashes (see `position_key`): the stretch's first here (nearly
    /// every stretch is one turn long, so a copy of the game allocates nothing for it),
    /// the later ones in `more`.
    first: Option<u64>,
    more: Vec<u64>,
}

impl Repeats {
    /// No stretch at all: what a game without one holds, left out of the state file.
    /// Anything else is written out, so that a loaded state saves back as it was (a
    /// `progress` with no `first` would otherwise be dropped, and the state read back
    /// would differ from the one saved).
    fn is_none(&self) -> bool {
        *self == Repeats::default()
    }

    /// Whether this stretch is the one at `progress`.
    fn goes_on(&self, progress: [u8; 3]) -> bool {
        self.first.is_some() && self.progress == progress
    }

    /// How often `key` was noted in this stretch.
    fn count(&self, key: u64) -> usize {
        usize::from(self.first == Some(key)) + self.more.iter().filter(|&&k| k == key).count()
    }
}

/// One step of the position hash: a word mixed in (a multiply and a rotation, our own and
/// the same in every build and every saved game).
fn mix(h: u64, word: u64) -> u64 {
    (h ^ word)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .rotate_left(29)
}

impl Distopia {
    /// Cards in the deck and in each won pile: what only a draw or a win changes.
    pub(crate) fn progress(&self) -> [u8; 3] {
        let count = |n: usize| u8::try_from(n).unwrap_or(u8::MAX);
        [
            count(self.deck.len()),
            count(self.won[0].len()),
            count(self.won[1].len()),
        ]
    }

    /// At the pick of district `picked`, before its cards are taken: a turn that may leave
    /// it filled begins a stretch with its starting position, unless the stretch already
    /// goes on (ruling X15).
    pub(crate) fn note_turn_start(&mut self, picked: usize) {
        let progress = self.progress();
        if !self.repeats.goes_on(progress) && self.may_come_back(picked) {
            self.repeats.progress = progress;
            self.repeats.first = Some(self.position_key(self.current));
            self.repeats.more.clear();
        }
    }

    /// At the end of a turn, `next` to pick: if nothing was drawn or won since the stretch
    /// began, notes the position handed on and returns how often it has come up (ruling
    /// X15); otherwise 1.
    pub(crate) fn note_turn_end(&mut self, next: Seat) -> usize {
        if !self.repeats.goes_on(self.progress()) {
            return 1;
        }
        let key = self.position_key(next);
        self.repeats.more.push(key);
        self.repeats.count(key)
    }

    /// The position a turn starts from, as a hash: `to_pick`, every district's
    /// stack, who may use the collaborator and who earned the mission. The deck and the
    /// won piles are the same all through a stretch (see [`Repeats`]), so they are left
    /// out, and with them everything hidden.
    fn position_key(&self, to_pick: Seat) -> u64 {
        let seat = |s: Option<Seat>| s.map_or(2, |s| s as u64);
        let mut h = mix(
            0x243f_6a88_85a3_08d3,
            to_pick as u64
                | seat(self.collaborator.and_then(|c| c.holder)) << 2
                | seat(self.mission.and_then(|m| m.claimed_by)) << 4,
        );
        // Each stack: its cards, then its length (above any card's byte) to close it.
        for stack in &self.districts {
            for c in stack {
                h = mix(h, u64::from(c.0));
            }
            h = mix(h, 0x100 | stack.len() as u64);
        }
        h
    }

    /// How often the position this turn started from has come up at the start of a turn
    /// since a card last left the deck or was won, this time included (ruling X15): the
    /// game ends when it reaches [`REPETITIONS`].
    pub fn repetitions(&self) -> usize {
        let r = &self.repeats;
        match r.more.last().copied().or(r.first) {
            Some(key) if r.goes_on(self.progress()) => r.count(key),
            _ => 1,
        }
    }

    /// Whether the game ended because a position came up for the third time (ruling X15)
    /// rather than by the rulebook's two endings.
    pub fn ended_by_repetition(&self) -> bool {
        self.phase == Phase::Over && self.repetitions() >= REPETITIONS
    }

    /// The seat whose turn it is (also after the game ends: the last player).
    pub fn current(&self) -> Seat {
        self.current
    }

    /// The seat that took the first turn.
    pub fn first_player(&self) -> Seat {
        self.first
    }

    /// Where the game is.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The turn in progress.
    pub fn turn(&self) -> &Turn {
        &self.turn
    }

    /// The stack in ring index `i` (bottom first).
    pub fn stack(&self, i: usize) -> &[Card] {
        self.districts.get(i).map_or(&[], Vec::as_slice)
    }

    /// `seat`'s district `letter` (0-3).
    pub fn district(&self, seat: Seat, letter: u8) -> &[Card] {
        self.stack(district(seat, letter))
    }

    /// The cards `seat` has won (face down).
    pub fn won(&self, seat: Seat) -> &[Card] {
        self.won.get(seat).map_or(&[], Vec::as_slice)
    }

    /// The deck, top last.
    pub fn deck(&self) -> &[Card] {
        &self.deck
    }

    /// `seat`'s character card.
    pub fn character(&self, seat: Seat) -> Character {
        self.characters[seat % 2]
    }

    /// The collaborator in play and who may use it.
    pub fn collaborator(&self) -> Option<CollaboratorState> {
        self.collaborator
    }

    /// The mission in play and who earned it.
    pub fn mission(&self) -> Option<MissionState> {
        self.mission
    }

    /// The border set in play.
    pub fn border(&self) -> Border {
        self.config.border
    }

    /// The border number of ring index `i`.
    pub fn limit(&self, i: usize) -> usize {
        usize::from(self.config.limits()[i % 4])
    }

    /// Whether district `i` has a guard (a guard is always on top, ruling D16).
    pub fn guarded(&self, i: usize) -> bool {
        self.districts[i].last().is_some_and(|c| c.is_guard())
    }
}

/// Guard cards on `seat`'s side of the border.
pub(crate) fn guards_on_side(districts: &[Vec<Card>; DISTRICTS], seat: Seat) -> usize {
    (0..4)
        .map(|l| {
            districts[district(seat, l)]
                .iter()
                .filter(|c| c.is_guard())
                .count()
        })
        .sum()
}

/// The position key (see [`engine::PositionKey`]): what the player to act sees: the
/// districts, the turn in progress with the cards picked up, their own won pile and the
/// size of the other's, the deck's size, the collaborator and the mission.
impl Distopia {
    pub(crate) fn key(&self) -> Option<engine::PositionKey> {
        use std::hash::Hash;
        if self.phase == Phase::Over {
            return None;
        }
        let me = self.current;
        let mut h = engine::KeyHasher::default();
        (me, self.phase, &self.turn, &self.districts).hash(&mut h);
        (self.collaborator, self.mission).hash(&mut h);
        self.won[me % 2].hash(&mut h);
        (self.won[1 - me % 2].len(), self.deck.len()).hash(&mut h);
        Some(engine::PositionKey {
            turn: u64::from(self.turns),
            owner: me,
            position: h.finish(),
        })
    }
}
