//! Setup (spec 5.1) and turn changes.

use crate::cards::{Good, Recruit, ARTIFACT_COPIES, DICE, MARKETS, STARS, TILES};
use crate::config::{Config, StartingRecruitDiscards};
use crate::state::{DieLoc, DilemmaState, Euphoria, Market, Player, Rolloff, Step, Turn, DEALT};
use engine::shuffle;
use engine::{rng_from_seed, ConfigError};
use rand::Rng;

impl Euphoria {
    /// A new game: board, decks, dealt recruits and dilemmas; the recruit choice is next.
    ///
    /// # Errors
    /// Every problem with the config.
    pub fn setup(config: &Config, seed: u64) -> Result<Euphoria, ConfigError> {
        config.validate()?;
        let n = config.players;
        let mut rng = rng_from_seed(seed);
        let mut tiles: Vec<u8> = (0..TILES as u8).collect();
        shuffle(&mut tiles[..], &mut rng);
        let markets = std::array::from_fn(|m| Market {
            tile: tiles[m],
            built: false,
            stars: 0,
        });
        let box_tiles = tiles[MARKETS..].to_vec();
        let mut artifact_deck: Vec<Good> = Good::ARTIFACT_KINDS
            .iter()
            .flat_map(|&g| std::iter::repeat_n(g, ARTIFACT_COPIES as usize))
            .collect();
        shuffle(&mut artifact_deck[..], &mut rng);
        let mut recruit_deck: Vec<Recruit> = Recruit::ALL.to_vec();
        shuffle(&mut recruit_deck[..], &mut rng);
        let mut dilemmas: Vec<u8> = (0..6).collect();
        shuffle(&mut dilemmas[..], &mut rng);
        let mut players = Vec::with_capacity(n);
        for _ in 0..n {
            let dealt = recruit_deck.split_off(recruit_deck.len() - DEALT);
            let dilemma = dilemmas.pop().unwrap_or(0);
            players.push(Player {
                dice: [DieLoc::Reserve; DICE],
                knowledge: 3,
                morale: 1,
                supply: [0; 7],
                hand: [0; 6],
                stars_left: STARS,
                recruits: Default::default(),
                dealt: dealt.into_iter().collect(),
                dilemma,
                dilemma_state: DilemmaState::Unresolved,
            });
        }
        let mut stack = vec![Step::FinishSetup];
        for s in (0..n as u8).rev() {
            stack.push(Step::ChooseDown(s));
            stack.push(Step::ChooseUp(s));
        }
        let mut game = Euphoria {
            config: config.clone(),
            players: players.into_iter().collect(),
            current: 0,
            first_player: 0,
            turn: Turn::default(),
            turns: 0,
            stack,
            setup_done: false,
            allegiance: [0; 4],
            miners: [0; 3],
            territory: Default::default(),
            markets,
            box_tiles: box_tiles.into_iter().collect(),
            artifact_deck: artifact_deck.into_iter().collect(),
            artifact_discard: Default::default(),
            recruit_deck: recruit_deck.into_iter().collect(),
            recruit_discard: Default::default(),
            recruit_box: Default::default(),
            dilemma_box: dilemmas.into_iter().collect(),
            over: false,
            rolloff: Rolloff::new(n),
            rng,
            checks: Default::default(),
        };
        game.run();
        Ok(game)
    }

    /// After every recruit choice: unchosen recruits leave, dice are rolled, the highest
    /// total starts (ties: random among the tied, D-14).
    pub(crate) fn finish_setup(&mut self) {
        for s in 0..self.n() {
            let rest = std::mem::take(&mut self.players[s].dealt);
            match self.config.starting_recruit_discards {
                StartingRecruitDiscards::ReturnToDeck => self.recruit_deck.extend(rest),
                StartingRecruitDiscards::Discard => self.recruit_box.extend(rest),
            }
        }
        shuffle(&mut self.recruit_deck[..], &mut self.rng);
        let mut best = Vec::new();
        let mut best_total = 0;
        for s in 0..self.n() {
            let a = self.rng.random_range(1..=6u8);
            let b = self.rng.random_range(1..=6u8);
            self.players[s].dice[0] = DieLoc::Ready(a);
            self.players[s].dice[1] = DieLoc::Ready(b);
            let total = a + b;
            if total > best_total {
                best_total = total;
                best.clear();
            }
            if total == best_total {
                best.push(s);
            }
        }
        let first = best[self.rng.random_range(0..best.len())];
        self.first_player = first as u8;
        self.current = first as u8;
        self.setup_done = true;
        self.start_turn();
    }

    /// Resets the turn bookkeeping for the current player.
    pub(crate) fn start_turn(&mut self) {
        let p = &self.players[self.current as usize];
        let at_start = std::array::from_fn(|i| matches!(p.dice[i], DieLoc::Ready(_)));
        self.turn = Turn {
            eligible: at_start,
            at_start,
            placed: 0,
            offers: 0,
            ..Turn::default()
        };
    }

    /// Passes the turn clockwise.
    pub(crate) fn end_turn(&mut self) {
        self.current = ((self.current as usize + 1) % self.n()) as u8;
        self.turns += 1;
        self.start_turn();
    }
}
