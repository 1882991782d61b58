//! Validation: every invariant a position must keep (a loaded state, a built position).
use crate::cards::{
    self, Recruit, ARTIFACT_COPIES, DILEMMAS, MARKETS, RECRUITS, SPACES, STARS, TILES,
};
use crate::state::{DieLoc, DilemmaState, Euphoria, Step};
use crate::{Good, Space};

impl Euphoria {
    /// Every broken invariant.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let n = self.n();
        if !(2..=6).contains(&n) || n != self.config.players {
            out.push(format!(
                "{n} players for a {}-player config",
                self.config.players
            ));
            return out;
        }
        self.index_problems(&mut out);
        if !out.is_empty() {
            // The checks below look players and dice up by these numbers.
            return out;
        }
        self.player_problems(&mut out);
        self.card_problems(&mut out);
        self.board_problems(&mut out);
        out
    }

    /// The seats, dice, markets and recruits that the turn, the territories and the
    /// pending steps name: each one the table has (a state file may name any number, and
    /// the rules look each up).
    fn index_problems(&self, out: &mut Vec<String>) {
        let n = self.n();
        let mut seat = |s: u8, what: &str| {
            if usize::from(s) >= n {
                out.push(format!("{what} names seat {s} at a table of {n}"));
            }
        };
        seat(self.current, "the seat to play");
        seat(self.first_player, "the first player");
        if let Some((s, _)) = self.turn.victim {
            seat(s, "the bumped worker");
        }
        for t in &self.territory {
            for &s in t.iter() {
                seat(s, "a territory star");
            }
        }
        let mut markets = Vec::new();
        for step in &self.stack {
            match *step {
                Step::ChooseUp(s) | Step::ChooseDown(s) | Step::Discard(s) => {
                    seat(s, "a pending step");
                }
                Step::Lose { seat: s, .. }
                | Step::Choose { seat: s, .. }
                | Step::Shed { seat: s, .. } => seat(s, "a pending step"),
                Step::Bump { seat: s, .. } | Step::BumpRoll { seat: s, .. } => {
                    seat(s, "a pending bump");
                }
                Step::Hook { seat: s, .. } | Step::Ask { seat: s, .. } => {
                    seat(s, "a pending recruit ability");
                }
                Step::MarketStars { market, .. } => markets.push(market),
                _ => {}
            }
        }
        for m in markets.into_iter().filter(|&m| usize::from(m) >= MARKETS) {
            out.push(format!("a step names market {m}; the board has {MARKETS}"));
        }
    }

    /// Tracks, dice and the ten stars of each player.
    fn player_problems(&self, out: &mut Vec<String>) {
        for (s, p) in self.players.iter().enumerate() {
            if !(1..=6).contains(&p.knowledge) {
                out.push(format!("P{s} knowledge {} out of 1..6", p.knowledge));
            }
            if !(1..=6).contains(&p.morale) {
                out.push(format!("P{s} morale {} out of 1..6", p.morale));
            }
            for d in &p.dice {
                if let Some(v) = d.value() {
                    if !(1..=6).contains(&v) {
                        out.push(format!("P{s} has a die showing {v}"));
                    }
                }
            }
            if self.setup_done && p.owned_dice() == 0 {
                out.push(format!("P{s} owns no worker"));
            }
            let placed = self
                .territory
                .iter()
                .flatten()
                .filter(|&&x| x as usize == s)
                .count()
                + self.market_stars(s) as usize
                + p.recruits.iter().filter(|r| r.star).count()
                + usize::from(p.dilemma_state == DilemmaState::Conformed);
            if placed + p.stars_left as usize != STARS as usize {
                out.push(format!(
                    "P{s}: {placed} stars placed and {} left, not {STARS}",
                    p.stars_left
                ));
            }
            for r in &p.recruits {
                if r.star && !r.up {
                    out.push(format!("P{s}: a star on a face-down recruit"));
                }
            }
        }
    }

    /// Each artifact, recruit, dilemma and market tile where it belongs, once.
    fn card_problems(&self, out: &mut Vec<String>) {
        // Artifacts: 6 of each kind.
        for (k, &kind) in Good::ARTIFACT_KINDS.iter().enumerate() {
            let total = self.artifact_deck.iter().filter(|&&c| c == kind).count()
                + self.artifact_discard.iter().filter(|&&c| c == kind).count()
                + self
                    .players
                    .iter()
                    .map(|p| p.hand[k] as usize)
                    .sum::<usize>();
            if total != ARTIFACT_COPIES as usize {
                out.push(format!("{total} {kind} cards instead of {ARTIFACT_COPIES}"));
            }
        }
        if self
            .artifact_deck
            .iter()
            .chain(&self.artifact_discard)
            .any(|c| !c.is_artifact())
        {
            out.push("a non-artifact in the artifact deck".into());
        }
        // Recruits: each once (a number that is no recruit does not load).
        let mut seen = [0u8; RECRUITS + 1];
        let mut note = |id: Recruit| seen[usize::from(id.number())] += 1;
        self.recruit_deck.iter().for_each(|&r| note(r));
        self.recruit_discard.iter().for_each(|&r| note(r));
        self.recruit_box.iter().for_each(|&r| note(r));
        for p in &self.players {
            p.dealt.iter().for_each(|&r| note(r));
            p.recruits.iter().for_each(|r| note(r.id));
        }
        for st in &self.stack {
            if let Step::DilemmaKeep(ids) = st {
                ids.iter().for_each(|&r| note(r));
            }
        }
        for r in Recruit::ALL {
            let c = seen[usize::from(r.number())];
            if c != 1 {
                out.push(format!(
                    "recruit {} ({}) appears {c} times",
                    r.number(),
                    r.name()
                ));
            }
        }
        // Dilemmas and tiles: each once.
        // (A number past the last card is no card: it is reported, never wrapped round to
        // one that exists.)
        let held = self.players.iter().map(|p| p.dilemma);
        each_once::<{ DILEMMAS.len() }>(
            held.chain(self.dilemma_box.iter().copied()),
            ("dilemma card", "dilemma cards"),
            out,
        );
        let laid = self.markets.iter().map(|m| m.tile);
        each_once::<TILES>(
            laid.chain(self.box_tiles.iter().copied()),
            ("market tile", "market tiles"),
            out,
        );
    }

    /// Allegiance, miners, territories and the workers on the spaces.
    fn board_problems(&self, out: &mut Vec<String>) {
        let n = self.n();
        // Board.
        for (f, &a) in self.allegiance.iter().enumerate() {
            if a > cards::ALLEGIANCE_MAX {
                out.push(format!(
                    "the {} allegiance at {a}",
                    crate::cards::Faction::from_index(f).name()
                ));
            }
        }
        if self.miners.iter().any(|&m| m > cards::TUNNEL_END) {
            out.push("a miner beyond the tunnel end".into());
        }
        for (f, t) in self.territory.iter().enumerate() {
            if t.len() > n {
                out.push(format!(
                    "the territory of {} holds {} stars for {n} spots",
                    crate::cards::Faction::from_index(f).region(),
                    t.len()
                ));
            }
        }
        let bumping: Vec<(usize, usize)> = self
            .stack
            .iter()
            .filter_map(|s| match s {
                Step::Bump { seat, die } | Step::BumpRoll { seat, die } => {
                    Some((*seat as usize, die.index()))
                }
                _ => None,
            })
            .collect();
        // One pass over the dice: the workers on each space, and those of them staying
        // (a worker being bumped is leaving).
        let mut workers = [0u8; SPACES];
        let mut staying = [0u8; SPACES];
        for (s, p) in self.players.iter().enumerate() {
            for (i, d) in p.dice.iter().enumerate() {
                if let DieLoc::Board(space, _) = *d {
                    if let Some(w) = workers.get_mut(usize::from(space.0)) {
                        *w += 1;
                        if !bumping.contains(&(s, i)) {
                            staying[usize::from(space.0)] += 1;
                        }
                    }
                }
            }
        }
        for space in Space::all() {
            let k = usize::from(space.0);
            if workers[k] == 0 || space.is_multi() {
                continue;
            }
            if staying[k] > 1 {
                out.push(format!("{} workers on {space}", workers[k]));
            }
            if let cards::SpaceKind::Built(m) = space.kind() {
                if !self.markets[m].built {
                    out.push(format!("a worker on unbuilt market {space}"));
                }
            }
            if let cards::SpaceKind::Site(m, _) = space.kind() {
                if self.markets[m].built {
                    out.push(format!("a worker on a closed site {space}"));
                }
            }
            if let cards::SpaceKind::TunnelEnd(f) = space.kind() {
                if !self.tunnel_end_open(f) {
                    out.push(format!("a worker on closed {space}"));
                }
            }
        }
        if self.rolloff.len() != n {
            out.push("roll-off table of the wrong size".into());
        }
        if self.over != self.someone_won() {
            out.push("the game is over exactly when someone has placed all stars".into());
        }
    }
}

/// Reports the cards of a set of `N` numbered 0 to N − 1 (named `one` and, plural, `many`)
/// that are not there exactly once, and any number that is no card.
fn each_once<const N: usize>(
    cards: impl Iterator<Item = u8>,
    (one, many): (&str, &str),
    out: &mut Vec<String>,
) {
    let mut counts = [0u8; N];
    for card in cards {
        match counts.get_mut(usize::from(card)) {
            Some(c) => *c += 1,
            None => out.push(format!("{one} {card} is no {one} (0 to {})", N - 1)),
        }
    }
    if counts.iter().any(|&c| c != 1) {
        out.push(format!("{many} miscounted: {counts:?}"));
    }
}
