//! The rules: legal actions, applying them, and final scoring. Each step is named after
//! the rulebook section it implements.
use crate::action::{Action, Letter};
use crate::cards::{Card, Collaborator, Contraband, Kind, Mission, CONTRABAND};
use crate::config::Config;
use crate::ending::Score;
use crate::refusal::{Refusal, Where};
use crate::state::{
    at_column, column, district, letter_of, opposite, owner, step, Distopia, Phase, DISTRICTS,
    HAND, REPETITIONS,
};
use crate::view::{self, DistopiaView};
use engine::{ConfigError, GameRules, IllegalAction, Outcome, Seat, Viewer};

/// Whose collection a card at each of [`Spots`](crate::state::Spots)' places is in
/// (indexed by a place code masked to 4 bits): a side's districts and won pile are its
/// own; the hand being played and the deck are in neither (2).
const SIDE: [u8; 16] = [0, 0, 0, 0, 1, 1, 1, 1, 2, 0, 1, 2, 2, 2, 2, 2];

/// Bit for ring index `i`.
fn bit(i: usize) -> u8 {
    1 << i
}

/// Where the legal actions are listed: a list, or a list with the observation's mask
/// written beside it (`tensor.rs`).
pub(crate) trait Listing {
    fn clear(&mut self);
    fn push(&mut self, action: Action);
}

impl Listing for Vec<Action> {
    #[inline]
    fn clear(&mut self) {
        Vec::clear(self);
    }
    #[inline]
    fn push(&mut self, action: Action) {
        Vec::push(self, action);
    }
}

/// Own districts next to `letter` (Rebel Robot, ruling D27).
fn neighbours(letter: Letter) -> impl Iterator<Item = Letter> {
    [letter.wrapping_sub(1), letter + 1]
        .into_iter()
        .filter(|&l| l < 4)
}

impl Distopia {
    /// Whether the player to act may use collaborator `which` now.
    fn may_use(&self, which: Collaborator) -> bool {
        matches!(self.collaborator, Some(c) if c.card == which && c.holder.is_none_or(|h| h == self.current))
    }

    fn collaborator_check(&self, which: Collaborator) -> Result<(), Refusal> {
        match self.collaborator {
            None => Err(Refusal::NoCollaborator),
            Some(c) if c.card != which => Err(Refusal::OtherCollaborator {
                in_play: c.card,
                wanted: which,
            }),
            Some(c) if c.holder.is_some_and(|h| h != self.current) => {
                Err(Refusal::CollaboratorUsed(which))
            }
            Some(_) => Ok(()),
        }
    }

    /// Ring index `i` named from the side of the player to act.
    pub(crate) fn place_of(&self, i: usize) -> Where {
        Where {
            yours: owner(i) == self.current,
            letter: letter_of(i),
        }
    }

    /// The district the next card goes to (Turn Order, step 2).
    pub fn next_district(&self) -> usize {
        let t = &self.turn;
        if t.crossing {
            opposite(t.pos)
        } else {
            step(t.pos, t.clockwise)
        }
    }

    fn holds_guard(&self) -> bool {
        // The hand is sorted and guards have the highest ids.
        self.turn.hand.last().is_some_and(|c| c.is_guard())
    }

    /// Opponent districts The Shelf Raider could take one more card from.
    fn raid_targets(&self) -> impl Iterator<Item = Letter> + '_ {
        let opp = 1 - self.current;
        (0..4).filter(move |&l| {
            let i = district(opp, l);
            self.turn.won_from & bit(i) != 0
                && self.districts[i].last().is_some_and(|c| !c.is_guard())
        })
    }

    /// Lists the legal actions into `out` (a list, or the list and the observation's mask
    /// beside it: `tensor.rs`).
    #[inline]
    pub(crate) fn legal<L: Listing>(&self, out: &mut L) {
        out.clear();
        let seat = self.current;
        match self.phase {
            Phase::Over => {}
            Phase::Pick => {
                let all_empty = (0..4).all(|l| self.districts[district(seat, l)].is_empty());
                for l in 0..4 {
                    if all_empty || !self.districts[district(seat, l)].is_empty() {
                        out.push(Action::Pick(l));
                    }
                }
            }
            Phase::Play => {
                let t = &self.turn;
                let target = self.next_district();
                let guard = self.holds_guard();
                if self.guarded(target) {
                    out.push(if guard {
                        Action::PlayGuard
                    } else {
                        Action::Skip
                    });
                } else {
                    for &c in t.hand.iter().filter(|c| !c.is_guard()) {
                        out.push(Action::Play(c));
                    }
                    if guard {
                        out.push(Action::PlayGuard);
                    }
                }
                if !t.crossing && self.may_use(Collaborator::SpyPets) {
                    out.push(Action::Cross);
                }
                if t.steps == 0 {
                    if self.may_use(Collaborator::GrandmaTheHacker) {
                        out.push(Action::Grandma);
                    }
                    if self.may_use(Collaborator::RebelRobot) {
                        for l in neighbours(letter_of(t.picked))
                            .filter(|&l| !self.districts[district(seat, l)].is_empty())
                        {
                            out.push(Action::Robot(l));
                        }
                    }
                }
            }
            Phase::Raid => {
                for l in self.raid_targets() {
                    out.push(Action::Raid(l));
                }
                out.push(Action::Pass);
            }
        }
    }

    /// Why `action` is not legal now, if it is not.
    pub(crate) fn legality(&self, action: Action) -> Result<(), Refusal> {
        let seat = self.current;
        match self.phase {
            Phase::Over => Err(Refusal::GameOver),
            Phase::Pick => match action {
                Action::Pick(l) if l < 4 => {
                    let i = district(seat, l);
                    let all_empty = (0..4).all(|l| self.districts[district(seat, l)].is_empty());
                    if self.districts[i].is_empty() && !all_empty {
                        Err(Refusal::EmptyDistrict(self.place_of(i)))
                    } else {
                        Ok(())
                    }
                }
                Action::Pick(_) => Err(Refusal::NoSuchDistrict),
                _ => Err(Refusal::PickFirst),
            },
            Phase::Play => self.play_legality(action),
            Phase::Raid => match action {
                Action::Pass => Ok(()),
                Action::Raid(l) if self.raid_targets().any(|t| t == l) => Ok(()),
                Action::Raid(l) => Err(Refusal::NotRaidable(l.min(3))),
                _ => Err(Refusal::RaidFirst),
            },
        }
    }

    fn play_legality(&self, action: Action) -> Result<(), Refusal> {
        let t = &self.turn;
        let target = self.next_district();
        let here = || self.place_of(target);
        match action {
            Action::Play(card) => {
                if card.is_guard() || !card.is_valid() {
                    return Err(Refusal::NotContraband);
                }
                if !t.hand.contains(&card) {
                    return Err(Refusal::NotInHand(card));
                }
                if self.guarded(target) {
                    return Err(Refusal::Guarded {
                        at: here(),
                        holds_guard: self.holds_guard(),
                    });
                }
                Ok(())
            }
            Action::PlayGuard => {
                if self.holds_guard() {
                    Ok(())
                } else {
                    Err(Refusal::NoGuard)
                }
            }
            Action::Skip => {
                if !self.guarded(target) {
                    Err(Refusal::NotGuarded(here()))
                } else if self.holds_guard() {
                    Err(Refusal::MustPlayGuard(here()))
                } else {
                    Ok(())
                }
            }
            Action::Cross => {
                self.collaborator_check(Collaborator::SpyPets)?;
                if t.crossing {
                    return Err(Refusal::AlreadyCrossing);
                }
                Ok(())
            }
            Action::Grandma => {
                self.collaborator_check(Collaborator::GrandmaTheHacker)?;
                if t.steps > 0 {
                    return Err(Refusal::GrandmaTooLate);
                }
                Ok(())
            }
            Action::Robot(l) => {
                self.collaborator_check(Collaborator::RebelRobot)?;
                if t.steps > 0 {
                    return Err(Refusal::RobotTooLate);
                }
                let picked = letter_of(t.picked);
                if !neighbours(picked).any(|n| n == l) {
                    return Err(Refusal::RobotNotNext {
                        picked,
                        letter: l.min(3),
                    });
                }
                if self.districts[district(self.current, l)].is_empty() {
                    return Err(Refusal::RobotEmpty(l));
                }
                Ok(())
            }
            Action::Pick(_) => Err(Refusal::AlreadyPicked),
            Action::Raid(_) | Action::Pass => Err(Refusal::RaidTooEarly),
        }
    }

    /// Whether `action` may be taken back (undo, ruling X14): it must leave the turn with
    /// the same player and draw nothing. Everything a turn shows before its end is public
    /// (districts, hand, collaborator), so a pick, a play, a skip and a collaborator used
    /// mid-turn qualify; the move that ends the turn does not (the picked district is
    /// refilled from the deck, a siren may sound, and the other player's turn begins), nor
    /// does anything once the game is over.
    pub(crate) fn may_take_back_action(&self, action: Action) -> bool {
        if self.phase == Phase::Over || self.legality(action).is_err() {
            return false;
        }
        // The Shelf Raider's raid or pass always ends the turn.
        if matches!(action, Action::Raid(_) | Action::Pass) {
            return false;
        }
        // Whether a play ends the turn depends only on the public hand and districts.
        let mut after = self.clone();
        if after.play(action).is_err() {
            return false;
        }
        after.phase != Phase::Over
            && after.current == self.current
            && after.deck == self.deck
            && after.rng == self.rng
    }

    /// Applies a checked action.
    pub(crate) fn play(&mut self, action: Action) -> Result<(), IllegalAction<Refusal>> {
        self.legality(action)
            .map_err(|reason| IllegalAction::new(action, reason))?;
        match action {
            Action::Pick(l) => self.pick(l),
            Action::Play(card) => {
                if let Some(k) = self.turn.hand.iter().position(|&c| c == card) {
                    self.turn.hand.remove(k);
                }
                self.play_card(Some(card));
            }
            Action::PlayGuard => {
                let guard = self.turn.hand.pop();
                self.play_card(guard);
            }
            Action::Skip => self.play_card(None),
            Action::Cross => {
                self.used_collaborator();
                self.turn.crossing = true;
            }
            Action::Grandma => {
                self.used_collaborator();
                self.turn.clockwise = true;
            }
            Action::Robot(l) => {
                self.used_collaborator();
                if let Some(card) = self.districts[district(self.current, l)].pop() {
                    let at = self.turn.hand.partition_point(|&c| c < card);
                    self.turn.hand.insert(at, card);
                    self.spots.put(card, HAND, 0);
                }
            }
            Action::Raid(l) => {
                self.used_collaborator();
                let i = district(1 - self.current, l);
                if let Some(card) = self.districts[i].pop() {
                    self.win_card(self.current, card);
                }
                self.finish_turn();
            }
            Action::Pass => self.finish_turn(),
        }
        Ok(())
    }

    /// A collaborator passes to the opponent of whoever used it.
    fn used_collaborator(&mut self) {
        if let Some(c) = &mut self.collaborator {
            c.holder = Some(1 - self.current);
        }
    }

    /// Whether a turn that picks up district `picked` may end with it filled, so that
    /// nothing is drawn (ruling X15). Without Spy Pets, a card reaches it again only after
    /// a walk once round the ring of 8 (either way round): 8 steps, each a card played
    /// (the hand, one more with Rebel Robot) or a guarded district skipped (at most one
    /// step a district on the way, counted from those guarded now, since a guard played
    /// this turn lies behind). Anything else refills it from the deck.
    pub(crate) fn may_come_back(&self, picked: usize) -> bool {
        if self.may_use(Collaborator::SpyPets) {
            return true;
        }
        let robot = usize::from(self.may_use(Collaborator::RebelRobot));
        let guarded = (0..DISTRICTS).filter(|&i| self.guarded(i)).count();
        self.districts[picked].len() + robot + guarded >= DISTRICTS
    }

    /// Turn Order, step 1: the district's cards become the hand.
    fn pick(&mut self, letter: Letter) {
        let i = district(self.current, letter);
        self.note_turn_start(i);
        // Swapping keeps both vectors' capacity: no allocation in steady state.
        self.turn.reset(i);
        std::mem::swap(&mut self.turn.hand, &mut self.districts[i]);
        self.turn.hand.sort_unstable();
        for &card in &self.turn.hand {
            self.spots.put(card, HAND, 0);
        }
        if self.turn.hand.is_empty() {
            // All four districts were empty (ruling D9): nothing to play.
            self.end_play();
        } else {
            self.phase = Phase::Play;
        }
    }

    /// Turn Order, step 2: one card (or a skip) in the next district.
    fn play_card(&mut self, card: Option<Card>) {
        let target = self.next_district();
        if let Some(card) = card {
            self.stack_card(target, card);
            if !card.is_guard() && owner(target) != self.current {
                self.turn.smuggled |= bit(target);
            }
        }
        let t = &mut self.turn;
        t.visited |= bit(target);
        t.pos = target;
        t.crossing = false;
        t.steps += 1;
        if t.hand.is_empty() {
            self.end_play();
        }
    }

    /// Turn Order, step 3: win contraband over the border number, then The Shelf Raider.
    fn end_play(&mut self) {
        let seat = self.current;
        if let Some(m) = &mut self.mission {
            // Save a Sibling: this turn's path touched all 8 districts (ruling D33).
            if m.card == Mission::SaveASibling
                && m.claimed_by.is_none()
                && self.turn.visited == u8::MAX
            {
                m.claimed_by = Some(seat);
            }
        }
        let opp = 1 - seat;
        for l in 0..4 {
            let i = district(opp, l);
            if self.turn.smuggled & bit(i) == 0 {
                continue;
            }
            let limit = self.limit(i);
            let mut count = self.districts[i].iter().filter(|c| !c.is_guard()).count();
            // Cards under a guard can never be won (ruling D15).
            while count > limit && self.districts[i].last().is_some_and(|c| !c.is_guard()) {
                if let Some(card) = self.districts[i].pop() {
                    self.win_card(seat, card);
                    self.turn.won_from |= bit(i);
                }
                count -= 1;
            }
        }
        if self.may_use(Collaborator::ShelfRaider) && self.raid_targets().next().is_some() {
            self.phase = Phase::Raid;
        } else {
            self.finish_turn();
        }
    }

    /// Setting Up the Next Turn: refill, the siren, and the end of the game (the
    /// rulebook's two endings, and a position come up a third time: ruling X15).
    fn finish_turn(&mut self) {
        let seat = self.current;
        if let Some(m) = &mut self.mission {
            // Curfew: the first to have won 6 contraband cards (ruling D32).
            if m.card == Mission::Curfew && m.claimed_by.is_none() && self.won[seat].len() >= 6 {
                m.claimed_by = Some(seat);
            }
        }
        let picked = self.turn.picked;
        self.turn.reset(picked);
        let mut over = false;
        if self.districts[picked].is_empty() {
            if let Some(card) = self.deck.pop() {
                self.stack_card(picked, card);
                if self.contraband(card).siren {
                    self.siren(picked);
                }
                over = self.deck.is_empty();
            }
        }
        // End of the Game: a side with a guard in every district.
        over |= (0..2).any(|s| (0..4).all(|l| self.guarded(district(s, l))));
        // The next turn's position, a third time since anything was drawn or won: the game
        // ends as it stands (ruling X15).
        over = over || self.note_turn_end(1 - seat) >= REPETITIONS;
        if over {
            self.phase = Phase::Over;
        } else {
            self.current = 1 - seat;
            self.turns += 1;
            self.phase = Phase::Pick;
        }
    }

    /// The siren: every top guard moves one district along its own row toward the siren's
    /// column, nearest first; the one across the border from the siren stays (ruling D18).
    fn siren(&mut self, siren_at: usize) {
        let (moves, n) = self.siren_moves(siren_at);
        for &(from, to) in &moves[..n] {
            if let Some(guard) = self.districts[from].pop() {
                self.stack_card(to, guard);
            }
        }
    }

    /// The guard moves a siren at `siren_at` makes now, as (from, to) ring indices in the
    /// order they happen: the first `n` of the array.
    pub(crate) fn siren_moves(&self, siren_at: usize) -> ([(usize, usize); DISTRICTS], usize) {
        let target_col = column(siren_at);
        let mut movers = [(0usize, 0usize); DISTRICTS];
        let mut n = 0;
        for i in 0..DISTRICTS {
            if i != siren_at && i != opposite(siren_at) && self.guarded(i) {
                movers[n] = (column(i).abs_diff(target_col), i);
                n += 1;
            }
        }
        movers[..n].sort_unstable();
        for mover in &mut movers[..n] {
            let i = mover.1;
            let col = column(i);
            let to_col = if col < target_col { col + 1 } else { col - 1 };
            *mover = (i, at_column(owner(i), to_col));
        }
        (movers, n)
    }

    /// The score `seat` would have if the game ended now (End of the Game).
    pub fn score(&self, seat: Seat) -> Score {
        let seat = seat % 2;
        let collection: Vec<Card> = self.won[seat]
            .iter()
            .chain((0..4).flat_map(|l| self.districts[district(seat, l)].iter()))
            .copied()
            .collect();
        let sting = self.mission.is_some_and(|m| m.card == Mission::PoliceSting);
        let character = self.characters[seat];
        let guards = collection.iter().filter(|c| c.is_guard()).count();
        let survival = self.count_survival(&collection);
        let (mut scorable, discarded): (Vec<Card>, Vec<Card>) = collection
            .iter()
            .filter(|c| !c.is_guard())
            .partition(|&&c| {
                let kind = self.contraband(c).kind;
                character.scores(kind) && !(sting && kind == Kind::Survival)
            });
        scorable.sort_by_key(|&c| (self.contraband(c).points, c.0));
        let removed: Vec<Card> = scorable.drain(..guards.min(scorable.len())).collect();
        let card_points = scorable
            .iter()
            .map(|&c| i64::from(self.contraband(c).points))
            .sum();
        let mission_points = match self.mission {
            None => 0,
            Some(m) => match m.card {
                Mission::PoliceSting => -(survival as i64),
                Mission::Catastrophe => {
                    let theirs =
                        self.count_survival(self.won[1 - seat].iter().chain(
                            (0..4).flat_map(|l| self.districts[district(1 - seat, l)].iter()),
                        ));
                    if survival > theirs {
                        5
                    } else {
                        0
                    }
                }
                Mission::Curfew | Mission::SaveASibling => {
                    if m.claimed_by == Some(seat) {
                        5
                    } else {
                        0
                    }
                }
            },
        };
        Score {
            guards,
            survival,
            discarded,
            removed,
            card_points,
            mission_points,
            total: card_points + mission_points,
            scored: scorable,
            collection,
        }
    }
}

impl Distopia {
    /// `score(seat).total` without allocating.
    pub fn total(&self, seat: Seat) -> i64 {
        self.totals()[seat % 2]
    }

    /// Both seats' `score(seat).total` in one pass over the cards, without allocating (for
    /// the outcome and bots' evaluation).
    pub fn totals(&self) -> [i64; 2] {
        let sting = self.mission.is_some_and(|m| m.card == Mission::PoliceSting);
        // Per side (the third entry: in neither collection), the survival cards, the
        // guards and how many scorable cards of each point value (card data allows 1-20).
        let mut survival = [0usize; 3];
        let mut guards = [0usize; 3];
        let mut by_points = [[0usize; 21]; 3];
        // Whether each side scores a card of each kind (in `Kind`'s order), looked up
        // rather than matched per card; cards in neither collection score for nobody.
        let scoring = |seat: Seat| {
            [Kind::Hobby, Kind::Education, Kind::Survival, Kind::Guard]
                .map(|k| self.characters[seat].scores(k) && !(sting && k == Kind::Survival))
        };
        let scoring = [scoring(0), scoring(1), [false; 4]];
        // Every card once, from the table of where cards lie (`Spots`), counted without a
        // branch on where it lies or what it is: walking the stacks instead, whose lengths
        // and cards differ from game to game, mispredicted often.
        for (card, &place) in Card::all().zip(&self.spots.place) {
            let side = usize::from(SIDE[usize::from(place & 15)]);
            let Contraband { kind, points, .. } = self.contraband(card);
            survival[side] += usize::from(kind == Kind::Survival);
            guards[side] += usize::from(kind == Kind::Guard);
            by_points[side][usize::from(points).min(20)] +=
                usize::from(scoring[side][kind as usize]);
        }
        [0, 1].map(|seat| {
            // One scorable card removed per guard held, lowest first (step 2, ruling D21).
            let mut card_points = 0i64;
            let mut to_remove = guards[seat];
            for (points, &n) in by_points[seat].iter().enumerate() {
                let removed = n.min(to_remove);
                to_remove -= removed;
                card_points += (points * (n - removed)) as i64;
            }
            let mission_points = match self.mission {
                None => 0,
                Some(m) => match m.card {
                    Mission::PoliceSting => -(survival[seat] as i64),
                    Mission::Catastrophe => {
                        if survival[seat] > survival[1 - seat] {
                            5
                        } else {
                            0
                        }
                    }
                    Mission::Curfew | Mission::SaveASibling => {
                        if m.claimed_by == Some(seat) {
                            5
                        } else {
                            0
                        }
                    }
                },
            };
            card_points + mission_points
        })
    }

    /// The guard cards in `seat`'s collection (`score(seat).guards`, without allocating),
    /// read from the table of where cards lie as `total` reads it.
    pub(crate) fn guards_held(&self, seat: Seat) -> usize {
        let seat = seat % 2;
        self.spots.place[CONTRABAND..]
            .iter()
            .filter(|&&place| usize::from(SIDE[usize::from(place & 15)]) == seat)
            .count()
    }

    /// What `seat` would score for `card` in its collection (0 for guards and for the
    /// kinds its character does not score; Police Sting's survival penalty aside).
    fn card_value(&self, seat: Seat, card: Card) -> i64 {
        let seat = seat % 2;
        let Contraband { kind, points, .. } = self.contraband(card);
        let sting = self.mission.is_some_and(|m| m.card == Mission::PoliceSting);
        if kind == Kind::Guard
            || !self.characters[seat].scores(kind)
            || (sting && kind == Kind::Survival)
        {
            0
        } else {
            i64::from(points)
        }
    }

    /// Cards the other player can take from `side`'s districts with one card on its
    /// next turn: in an unguarded district holding more contraband than its limit, a card
    /// played there wins itself back and then every card above the limit. Returns the
    /// points those cards are worth to `side` and to the other player.
    pub fn exposed(&self, side: Seat) -> [i64; 2] {
        let side = side % 2;
        let mut at_stake = [0i64; 2];
        for l in 0..4 {
            let i = district(side, l);
            let stack = &self.districts[i];
            if self.guarded(i) || stack.len() <= self.limit(i) {
                continue;
            }
            // No guard on top means no guard at all (ruling D16).
            for &card in &stack[self.limit(i)..] {
                at_stake[0] += self.card_value(side, card);
                at_stake[1] += self.card_value(1 - side, card);
            }
        }
        at_stake
    }
}

impl Distopia {
    /// A card's values in play (the config's card data, or the printed values).
    #[inline]
    pub fn contraband(&self, card: Card) -> Contraband {
        self.config.contraband(card)
    }

    fn count_survival<'a>(&self, cards: impl IntoIterator<Item = &'a Card>) -> usize {
        cards
            .into_iter()
            .filter(|&&c| self.contraband(c).kind == Kind::Survival)
            .count()
    }
}

impl GameRules for Distopia {
    type Config = Config;
    type Action = Action;
    type View = DistopiaView;
    type Refusal = Refusal;
    const NAME: &'static str = "distopia";
    fn new(config: &Config, seed: u64) -> Result<Self, ConfigError> {
        Distopia::setup(config, engine::rng_from_seed(seed))
    }
    fn config(&self) -> &Config {
        &self.config
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_act(&self) -> Option<Seat> {
        (self.phase != Phase::Over).then_some(self.current)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal(out);
    }
    fn apply(&mut self, action: Action) -> Result<(), IllegalAction<Refusal>> {
        self.play(action)
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        // `score`'s total and guards, counted without its lists of cards (a batch of games
        // asks at every game's end).
        let totals = self.totals();
        // The rulebook's tie-break: fewer guard cards wins; still tied is a draw (D22).
        let keys = [0, 1].map(|s| (totals[s], -(self.guards_held(s) as i64)));
        Some(Outcome::ranked(totals.to_vec(), &keys))
    }
    fn view(&self, viewer: Viewer) -> DistopiaView {
        view::build(self, viewer)
    }
    fn is_legal(&self, action: Action) -> bool {
        self.legality(action).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Border, Config};
    use engine::prelude::*;
    use rand::{Rng, SeedableRng};

    /// An advanced game for `seed` (its border and collaborator going round with the seed)
    /// and a random stream to play it with.
    fn advanced_game(seed: u64) -> (Distopia, rand::rngs::StdRng) {
        let k = seed as usize % 4;
        let config = Config {
            collaborator: Some(Collaborator::all()[k].key().into()),
            ..Config::advanced(Border::all()[k])
        };
        let g = Distopia::new(&config, seed).expect("valid");
        (g, rand::rngs::StdRng::seed_from_u64(seed))
    }

    /// `may_come_back` is what lets ordinary turns skip the repetition count (ruling X15):
    /// every turn that draws and wins nothing must have been one it said may.
    #[test]
    fn a_turn_that_draws_and_wins_nothing_was_foreseen_at_its_pick() {
        let mut quiet_turns = 0;
        let mut legal = Vec::new();
        for seed in 0..600u64 {
            let (mut g, mut rng) = advanced_game(seed);
            let mut start = None;
            while g.to_act().is_some() {
                g.legal_actions(&mut legal);
                let action = legal[rng.random_range(0..legal.len())];
                if let Action::Pick(l) = action {
                    let i = district(g.current, l);
                    start = Some((g.current, g.progress(), g.may_come_back(i)));
                }
                g.apply(action).expect("legal");
                if let Some((seat, progress, foreseen)) = start {
                    if g.current != seat && g.phase != Phase::Over {
                        if g.progress() == progress {
                            quiet_turns += 1;
                            assert!(foreseen, "seed {seed}: a quiet turn not foreseen");
                        }
                        start = None;
                    }
                }
            }
        }
        assert!(
            quiet_turns > 0,
            "the random games had no quiet turn to check"
        );
        eprintln!("{quiet_turns} turns drew and won nothing, each foreseen at its pick");
    }

    /// The table of where every card lies is kept by the rules card by card: after every
    /// move it must say what working it out again from the stacks says, and so must a
    /// determinized copy and a state read back from its JSON.
    #[test]
    fn the_cards_places_are_kept_at_every_move() {
        let mut legal = Vec::new();
        for seed in 0..300u64 {
            let (mut g, mut rng) = advanced_game(seed);
            let same = |g: &Distopia, what: &str| {
                let mut fresh = g.clone();
                fresh.locate_cards();
                assert!(g.spots.same(&fresh.spots), "seed {seed}: {what}");
            };
            while g.to_act().is_some() {
                g.legal_actions(&mut legal);
                let action = legal[rng.random_range(0..legal.len())];
                g.apply(action).expect("legal");
                same(&g, &format!("after {action}"));
                same(&g.determinize(g.current, &mut rng), "determinized");
            }
            // The outcome counts without `score`'s lists: the same totals and guards.
            for seat in 0..2 {
                let score = g.score(seat);
                assert_eq!(g.total(seat), score.total, "seed {seed}");
                assert_eq!(g.guards_held(seat), score.guards, "seed {seed}");
            }
            let text = serde_json::to_string(&g).expect("serializes");
            let back: Distopia = serde_json::from_str(&text).expect("reads back");
            assert!(back.spots.same(&g.spots), "seed {seed}: read back");
            assert_eq!(back, g);
        }
    }
}
