//! The rules written for people (`Present::rules`): the prose lives here, in our own words
//! from the English specification of the Korean rulebook; every table (spaces and their
//! costs, construction sites, market tiles, the commodity table, allegiance tiers,
//! recruits, dilemmas) is filled from the game's data in `cards/` and the rules'
//! own functions; the options from `About::options`.
use crate::cards::{
    market_name, market_threshold, site_cost, space_cost_text, tunnel_resource, Faction, Good,
    Recruit, Space, SpaceKind, ARTIFACTS, ARTIFACT_COPIES, DICE, DILEMMAS, KNOWLEDGE_LIMIT,
    MARKETS, MARKET_TILES, STARS, TIERS, TILES, TUNNEL_END, TUNNEL_REVEAL,
};
use crate::rules::placement::{commodity_reward, AreaEffect};
use crate::{Config, Euphoria, Rewards};
use engine::ending::plural;
use engine::guide::{self, Block, Rules, Section};
use engine::prelude::*;

/// What each option means in play, by the option's key (the label and help come from
/// `About::options`).
pub(crate) const EXPLAIN: &[(&str, &str)] = &[
    ("players", "The number of players sets how many spots of each territory are open and how many dice finish a market (see Markets)."),
    ("edition", "The game was printed twice and some recruits changed between the printings. The recruit table gives the second printing's abilities; the first-printing table says how the others read in the first."),
    ("knowledge_check", "The Korean rulebook checks your workers' knowledge at every moment and keeps taking dice until you are below the limit; the published English rules check only when you roll, and take one die at most each time."),
    ("tunnel_end_requires_faction", "Off, anybody may use an opened tunnel end. On (the published rules), only a player with a face-up recruit of the tunnel's faction may, except through Kaden the Infiltrator."),
    ("doubles_cost_morale", "A variant that makes doubles dearer: every worker after the first that you place as a double costs 1 morale."),
    ("starting_recruit_discards", "Only changes what the recruit deck holds later, when someone resolves a dilemma and draws recruits."),
    ("trading", "The rulebook lets the active player trade any goods, any number of times, at any moment of their turn. The other choice is the rule before it was reshaped, one offer of at most 4 goods a turn, before placing: a variant for a tighter game, and the rule the games recorded then were played under."),
    ("legacy_actions", "Leave this off: it only exists so that a few very old recorded games replay exactly."),
    ("rewards", "For studies of the game's balance: how many commodities a commodity area gives for each band of the dice total, and how many a tunnel end gives (the tables above show the printed amounts). Given as a card file, not in the table form."),
    ("offers_per_turn", "The rulebook sets no bound; a table may set one to keep turns short."),
];

/// A space's name as the rules page says it (a built market's space before it is built).
fn space_name(space: Space) -> String {
    match space.kind() {
        SpaceKind::Built(m) => format!("{} (once built)", market_name(m)),
        _ => space.name(),
    }
}

/// What placing on a space gives, in words (construction sites and built markets are in
/// their own sections).
fn space_gain(space: Space, rewards: &Rewards) -> String {
    match space.kind() {
        SpaceKind::Area(f) => format!(
            "{} by the total of all dice there (see Commodity areas)",
            f.commodity()
        ),
        SpaceKind::Site(..) => "helps build the market (see Markets)".into(),
        _ => space.gives(rewards),
    }
}

/// The spaces of the main table: every space but the construction sites and built
/// markets (which have their own tables).
fn main_spaces() -> impl Iterator<Item = Space> {
    Space::all().filter(|s| !matches!(s.kind(), SpaceKind::Site(..) | SpaceKind::Built(_)))
}

/// "First" to "Sixth" upper-cased words are not needed; a number with its capital.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    })
}

/// The rows of the commodity-area table, from the rules' own reward function.
fn commodity_rows(rewards: &Rewards) -> Vec<Vec<String>> {
    [(1, "1 to 4"), (5, "5 to 8"), (9, "9 or more")]
        .into_iter()
        .map(|(total, words)| {
            let (amount, effect) = commodity_reward(total, rewards);
            let effect = match effect {
                AreaEffect::Allegiance => "the faction's allegiance track moves up 1",
                AreaEffect::KnowledgeDown => "your knowledge goes down 1",
                AreaEffect::KnowledgeUp => "your knowledge goes up 1",
            };
            vec![words.to_string(), amount.to_string(), effect.to_string()]
        })
        .collect()
}

/// Euphoria's rules page.
pub(crate) fn rules() -> Rules {
    let config = Config::default();
    let about = Euphoria::about().defaults(&serde_json::to_value(&config).unwrap_or_default());
    let rewards = config.rewards;
    let space_rows = main_spaces()
        .map(|s| {
            vec![
                space_name(s),
                s.region().map_or("none", |f| f.region()).to_string(),
                space_cost_text(s),
                space_gain(s, &rewards),
            ]
        })
        .collect();
    let site_rows = (0..MARKETS)
        .map(|m| {
            let mut row = vec![market_name(m)];
            row.extend((0..4).map(|s| format!("1 {}", site_cost(m, s))));
            row
        })
        .collect();
    let threshold_rows = (about.players.min..=about.players.max)
        .map(|n| {
            vec![
                plural(n as i64, "player", "players"),
                plural(market_threshold(n) as i64, "die", "dice"),
            ]
        })
        .collect();
    let tile_rows = MARKET_TILES
        .iter()
        .map(|t| {
            vec![
                t.name.to_string(),
                t.cost.text(),
                capitalized(&t.penalty.text()),
            ]
        })
        .collect();
    let tier_words = [
        "The faction's commodity area gives them 1 more commodity each time.",
        "Euphorian, Subterran and Wastelander: their tunnel gives the resource and the artifact card. Icarite: 1 more artifact card whenever they place a star in the Icarite territory.",
        "Every hidden recruit of the faction, everyone's, turns face up, and recruits of the faction gained later come face up.",
        "Each of them puts 1 of their stars on every face-up recruit of the faction they own, and on any that turns face up later.",
    ];
    let tier_rows = TIERS
        .iter()
        .zip(tier_words)
        .enumerate()
        .map(|(i, (at, words))| vec![(i + 1).to_string(), at.to_string(), words.to_string()])
        .collect();
    let recruit_rows = Recruit::ALL
        .into_iter()
        .map(|r| {
            vec![
                r.number().to_string(),
                r.name().to_string(),
                r.faction().adjective().to_string(),
                r.ability().to_string(),
            ]
        })
        .collect();
    let first_edition_rows = Recruit::ALL
        .into_iter()
        .filter_map(|r| {
            r.first_edition()
                .map(|v1| vec![r.name().to_string(), capitalized(v1)])
        })
        .collect();
    let dilemma_rows = DILEMMAS
        .iter()
        .map(|d| {
            vec![
                capitalized(&d.pictured.to_string()),
                d.rebel.to_string(),
                d.conform.to_string(),
            ]
        })
        .collect();
    let faction_rows = Faction::ALL
        .into_iter()
        .map(|f| {
            vec![
                f.name().to_string(),
                f.region().to_string(),
                f.commodity().to_string(),
                if f == Faction::Icarite {
                    "none (no tunnel)".to_string()
                } else {
                    tunnel_resource(f).to_string()
                },
            ]
        })
        .collect();
    let artifacts: Vec<String> = Good::ARTIFACT_KINDS
        .iter()
        .map(ToString::to_string)
        .collect();
    let limit = KNOWLEDGE_LIMIT;
    Rules {
        title: "How to play Euphoria".into(),
        sections: vec![
            Section::new(
                "The game",
                vec![
                    Block::text(format!(
                        "Euphoria is a worker-placement game for {} to {} players, set in a dystopia run by four factions. Your workers are dice: the number showing is how much the worker knows, and in a dystopia you want workers who know little and stay cheerful. You place workers on the board to gather goods, dig tunnels, build markets and win the factions' favour, and take them back when you need them again.",
                        about.players.min, about.players.max
                    )),
                    Block::text(format!(
                        "Each player has {STARS} authority stars. The first player to place all {STARS} wins at once. Stars go into the factions' territories, onto market tiles, onto your recruits and onto your dilemma card."
                    )),
                ],
            ),
            Section::new(
                "Components",
                vec![
                    Block::text("The four factions each rule a region of the board and produce a commodity; three of them also dig a tunnel that yields a resource:"),
                    Block::table(&["Faction", "Region", "Commodity", "Resource"], faction_rows),
                    Block::list([
                        format!("Worker dice: {DICE} for each player."),
                        "Two tracks for each player, knowledge and morale, each from 1 to 6.".to_string(),
                        format!("{STARS} authority stars for each player."),
                        "Goods: the commodities (energy, water, food, bliss) and resources (gold, stone, clay); the supply never runs out.".to_string(),
                        format!(
                            "Artifact cards: {ARTIFACTS} kinds ({}), {ARTIFACT_COPIES} of each, in one deck; when it runs out the discards are shuffled into a new deck.",
                            artifacts.join(", ")
                        ),
                        format!("{} recruit cards, {} of each faction (see Recruits).", Recruit::ALL.len(), Recruit::ALL.len() / 4),
                        format!("{TILES} market tiles, of which {MARKETS} are used in a game (see Markets)."),
                        format!("{} ethical dilemma cards (see Ethical dilemmas).", DILEMMAS.len()),
                        "A shared allegiance track for each faction and a miner for each of the three tunnels.".to_string(),
                    ]),
                ],
            ),
            Section::new(
                "Set-up",
                vec![Block::list([
                    "In each faction's territory, leave as many star spots open as there are players and block the rest.".to_string(),
                    format!("Shuffle the market tiles and put {MARKETS} face down on the market places (two in each of Euphoria, Subterra and the Wastelands); the rest are not used."),
                    "Put every allegiance marker at the start of its track, the three miners at the start of their tunnels, and close the three tunnel ends.".to_string(),
                    "Shuffle the artifact deck and the recruit deck.".to_string(),
                    "Deal 4 recruits to each player. Everyone keeps 2 of them, one face up (its ability works) and one face down (hidden until its faction reveals it); the other 2 go back into the deck, unseen.".to_string(),
                    "Deal each player one ethical dilemma card, kept secret.".to_string(),
                    format!("Each player starts with knowledge 3, morale 1, {STARS} stars, no goods and no cards, and 2 worker dice (the other {} wait in reserve).", DICE - 2),
                    "Everyone rolls their 2 dice and keeps the numbers. The highest total starts (a tie is settled by lot); turns then go round in seat order.".to_string(),
                ])],
            ),
            Section::new(
                "A turn",
                vec![
                    Block::text("On your turn you do one of three things:"),
                    Block::list([
                        "Place a worker: put one of your dice that is in front of you on an action space, pay its cost and take its reward at once.",
                        "Retrieve workers: take back as many of your dice from the board as you like (see Retrieving workers).",
                        "Resolve your ethical dilemma, once in the game (see Ethical dilemmas).",
                    ]),
                    Block::text("If you have no dice in front of you, you must retrieve; if none is on the board, you must place."),
                    Block::text("Doubles: if at the start of your turn two or more of your dice in front of you show the same number, and you place one of them, you may go on to place the others of that number, one after the other, each fully resolved. Dice you roll or gain during the turn never join them."),
                    Block::text("Trading: during your turn you may trade commodities, resources and artifact cards with other players, in any amounts, whenever you like between your steps. Nothing promised is binding, and workers, stars, recruits and dilemmas cannot be traded."),
                ],
            ),
            Section::new(
                "Placing workers",
                vec![Block::list([
                    "Commodity areas hold any number of dice.",
                    "Construction sites hold one die, which stays until the market is finished or its owner retrieves it: nobody can push it out.",
                    "Every other space holds one die. Placing there when a die is already there bumps it: the bumped die goes back to its owner, who rolls it again. You may bump your own dice.",
                    "You always pay the cost first, then take the reward. Costs may be paid with goods gained earlier in the same turn.",
                ])],
            ),
            Section::new(
                "Knowledge and morale",
                vec![
                    Block::text(format!(
                        "Knowledge check: if the numbers on the dice in front of you (not those on the board) plus your knowledge add up to {limit} or more, your smartest worker sees through the lies and runs away: the highest die in front of you goes back to your reserve. With the standard option this is checked at every moment and repeated until you are below {limit}. You can hire a worker back later at worker activation."
                    )),
                    Block::text("Morale is also your hand limit: you may never hold more artifact cards than your morale. Whenever you hold more (after drawing, or after losing morale), discard the extra cards of your choice. You may gain cards and spend them in the same step before discarding."),
                    Block::text("Both tracks run from 1 to 6. A gain beyond the track is simply lost, but a cost in knowledge or morale (as some recruits ask) can only be paid if the track can move the whole way."),
                ],
            ),
            Section::new(
                "Action spaces",
                vec![
                    Block::text("Every space of the board but the markets, with what it costs and what it gives:"),
                    Block::table(&["Space", "Region", "Cost", "You get"], space_rows),
                    Block::text("Artifact markets are paid with any 3 artifact cards or 2 cards of the same kind. A star granted when no spot is free is lost, but the allegiance still moves."),
                ],
            ),
            Section::new(
                "Commodity areas",
                vec![
                    Block::text("When you place a die in a commodity area, add up all the dice there, yours included (anyone's), and look up the total:"),
                    Block::table(&["Total of the dice", "Commodities", "And then"], commodity_rows(&rewards)),
                    Block::text("A player with a face-up recruit of that faction gets 1 more once the faction's allegiance has reached tier 1 (see Allegiance)."),
                ],
            ),
            Section::new(
                "Tunnels",
                vec![Block::text(format!(
                    "Each placement on a tunnel moves its miner one step along it (never past the end). When the miner reaches step {TUNNEL_REVEAL}, every hidden recruit of that faction, whoever owns it, turns face up, and recruits of the faction gained later come face up. At step {TUNNEL_END} the tunnel end opens and may be used like any other space. The Icarites have no tunnel: their recruits are revealed only by their allegiance."
                ))],
            ),
            Section::new(
                "Markets",
                vec![
                    Block::text("Each of Euphoria, Subterra and the Wastelands has two market places, each with a face-down tile and four construction sites. To help build a market, place a die on one of its empty sites and pay the resource printed there:"),
                    Block::table(&["Market", "Site 1", "Site 2", "Site 3", "Site 4"], site_rows),
                    Block::text("A market is finished as soon as enough of its sites hold dice:"),
                    Block::table(&["Players", "Dice to finish a market"], threshold_rows),
                    Block::list([
                        "Its tile is turned face up and its built-market space opens, costing what the tile shows.",
                        "Every die on its sites goes back to its owner and is rolled again; the sites are never used again.",
                        "Each player who had a die there puts exactly 1 star on the tile, however many dice they had.",
                        "From then on, the tile's penalty hits every player without a star on it.",
                    ]),
                    Block::text("The market tiles, their cost once built and their penalty:"),
                    Block::table(&["Tile", "Cost to use once built", "Penalty for players without a star on it"], tile_rows),
                    Block::text("A roll penalty counts each die of one roll showing that number; you choose which commodities or resources to lose, and lose only what you have."),
                ],
            ),
            Section::new(
                "Allegiance",
                vec![
                    Block::text("Each faction has an allegiance track shared by everyone. It moves up 1 when someone places in the faction's commodity area with a low total, and with each artifact market, built market and Icarite space that says so. As it climbs, the players with a face-up recruit of that faction are rewarded (tier 3 turns every recruit face up):"),
                    Block::table(&["Tier", "From track step", "Reward"], tier_rows),
                    Block::text(format!("The track stops at step {}.", TIERS[3])),
                ],
            ),
            Section::new(
                "Recruits",
                vec![
                    Block::text(format!("A face-up recruit's ability works for its owner, and counts for its faction's allegiance rewards and tunnel ends; a hidden one does nothing until its faction's miner reaches the reveal step or its allegiance reaches tier 3. Abilities with \"may\" are your choice; the others simply happen. Each faction has {} recruits (second printing):",
                        Recruit::ALL.len() / Faction::ALL.len()
                    )),
                    Block::table(&["Number", "Recruit", "Faction", "Ability"], recruit_rows),
                    Block::text("With the first printing's texts (the Recruit card printing option), these recruits read differently:"),
                    Block::table(&["Recruit", "First printing"], first_edition_rows),
                    Block::text("Sacrificing a worker sends it to your reserve; you may never sacrifice your last one."),
                ],
            ),
            Section::new(
                "Retrieving workers",
                vec![
                    Block::text("Take back one or more of your dice from the board (construction sites included; what you paid there is lost), then either:"),
                    Block::list([
                        "pay 1 food or 1 bliss, and your morale goes up 2; or",
                        "pay nothing, and your morale goes down 1 (free at morale 1).",
                    ]),
                    Block::text("Then roll the dice you took back and put them in front of you, and check knowledge."),
                ],
            ),
            Section::new(
                "Ethical dilemmas",
                vec![
                    Block::text("Once in the game, as your whole turn, reveal your dilemma card and pay either the 1 artifact card pictured on it or any 2 artifact cards. Then choose one side:"),
                    Block::list([
                        "Rebel: draw 2 recruits, keep 1 and discard the other. It comes face down, unless its faction's recruits are already revealed.",
                        "Conform: put 1 of your stars on the dilemma card.",
                    ]),
                    Block::table(&["Pictured artifact", "Rebel side", "Conform side"], dilemma_rows),
                ],
            ),
            Section::new(
                "The end",
                vec![
                    Block::text(format!(
                        "The game ends the moment a player places their last ({}) star, even outside their own turn; that player wins. If several do so in the same moment, the tie is broken in this order:",
                        guide::ordinal(u64::from(STARS))
                    )),
                    Block::list([
                        "higher morale;",
                        "then lower knowledge;",
                        "then more stars on market tiles;",
                        "then each still tied rolls the dice in front of them, and the lower total wins.",
                    ]),
                ],
            ),
            guide::options(
                &about,
                "A table can change these before the game starts. The standard game follows the Korean rulebook where it speaks and the published rules where it is silent.",
                EXPLAIN,
            ),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table<'a>(
        rules: &'a Rules,
        heading: &str,
        index: usize,
    ) -> (&'a [String], &'a [Vec<String>]) {
        rules
            .section(heading)
            .and_then(|s| s.tables().nth(index))
            .unwrap_or_else(|| panic!("table {index} of {heading}"))
    }

    #[test]
    fn the_page_is_whole_and_in_plain_words() {
        assert_eq!(rules().problems(), Vec::<String>::new());
    }

    /// Every space with the cost the rules charge for it in a new game.
    #[test]
    fn spaces_and_sites_cost_what_the_rules_charge() {
        let rules = rules();
        let game = Euphoria::new(&Config::default(), 3).expect("the standard game");
        let (_, spaces) = table(&rules, "Action spaces", 0);
        assert_eq!(spaces.len(), main_spaces().count());
        for space in main_spaces() {
            let row = spaces
                .iter()
                .find(|r| r[0] == space_name(space))
                .unwrap_or_else(|| panic!("{} is missing", space.name()));
            let charged = game.cost_of(space).text();
            if !matches!(space.kind(), SpaceKind::ArtifactMarket(_)) {
                assert_eq!(row[2], charged, "{}", space.name());
            }
        }
        let (_, sites) = table(&rules, "Markets", 0);
        for m in 0..MARKETS {
            let row = sites
                .iter()
                .find(|r| r[0] == market_name(m))
                .expect("every market");
            for s in 0..4 {
                assert_eq!(row[s + 1], game.cost_of(Space::site(m, s)).text());
            }
        }
    }

    /// Every tile with the cost its built market charges, for the tiles a game deals.
    #[test]
    fn tiles_cost_what_their_built_market_charges() {
        let rules = rules();
        let (_, tiles) = table(&rules, "Markets", 2);
        assert_eq!(tiles.len(), TILES);
        for seed in 0..6 {
            let game = Euphoria::new(&Config::default(), seed).expect("the standard game");
            for m in 0..MARKETS {
                let tile = MARKET_TILES[game.markets[m].tile as usize];
                let row = tiles
                    .iter()
                    .find(|r| r[0] == tile.name)
                    .expect("every tile");
                assert_eq!(row[1], game.cost_of(Space::built(m)).text());
            }
        }
        let (_, thresholds) = table(&rules, "Markets", 1);
        for n in 2..=6 {
            assert!(thresholds.iter().any(|r| r[0] == format!("{n} players")
                && r[1] == plural(market_threshold(n) as i64, "die", "dice")));
        }
    }

    #[test]
    fn the_commodity_table_is_the_rules_reward() {
        let rules = rules();
        let (_, rows) = table(&rules, "Commodity areas", 0);
        let rewards = Rewards::default();
        for total in 1..=18 {
            let (amount, _) = commodity_reward(total, &rewards);
            let band = match total {
                1..=4 => 0,
                5..=8 => 1,
                _ => 2,
            };
            assert_eq!(rows[band][1], amount.to_string(), "total {total}");
        }
    }

    #[test]
    fn every_recruit_and_dilemma_is_listed() {
        let rules = rules();
        let (_, recruits) = table(&rules, "Recruits", 0);
        assert_eq!(recruits.len(), Recruit::ALL.len());
        for r in Recruit::ALL {
            let row = recruits
                .iter()
                .find(|row| row[1] == r.name())
                .expect("every recruit");
            assert_eq!(row[2], r.faction().adjective());
            assert_eq!(row[3], r.ability());
        }
        let (_, v1) = table(&rules, "Recruits", 1);
        assert_eq!(
            v1.len(),
            Recruit::ALL
                .iter()
                .filter(|r| r.first_edition().is_some())
                .count()
        );
        let (_, dilemmas) = table(&rules, "Ethical dilemmas", 0);
        for d in DILEMMAS {
            assert!(dilemmas
                .iter()
                .any(|r| r[1] == d.rebel && r[2] == d.conform));
        }
        let (_, tiers) = table(&rules, "Allegiance", 0);
        for (i, at) in TIERS.iter().enumerate() {
            assert_eq!(tiers[i][1], at.to_string());
        }
    }

    #[test]
    fn every_option_is_explained() {
        let about = Euphoria::about();
        assert_eq!(guide::unexplained(&about, EXPLAIN), Vec::<&str>::new());
        let text = rules().lowercase();
        for option in &about.options {
            assert!(
                text.contains(&format!("{}:", option.label.to_lowercase())),
                "{}",
                option.label
            );
        }
    }
}
