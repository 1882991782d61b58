//! The 48 recruit cards (spec 4.5): one [`Recruit`] per card and one table of what each
//! card prints. What each one does is in `rules::recruits`, a file per faction.

use super::faction::Faction;
use crate::config::Edition;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::hash::{Hash, Hasher};

/// Number of recruits.
pub const RECRUITS: usize = 48;

/// A recruit card, by its number 1 to 48 (Icarites 1 to 12, Euphorians 13 to 24,
/// Wastelanders 25 to 36, Subterrans 37 to 48). States, records and views hold the
/// number, so it serializes, prints in `Debug` and hashes as that number.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Recruit {
    /// Amanda the Broker (also the default, which only fills the unused slots of a
    /// fixed-size list).
    #[default]
    Amanda = 1,
    /// Flavio the Merchant.
    Flavio,
    /// Gidget the Hypnotist.
    Gidget,
    /// Josh the Negotiator.
    Josh,
    /// Kaden the Infiltrator.
    Kaden,
    /// Lee the Gossip.
    Lee,
    /// Matthew the Thief.
    Matthew,
    /// Maxime the Ambassador.
    Maxime,
    /// Rebecca the Peddler.
    Rebecca,
    /// Sarinee the Cloud Miner.
    Sarinee,
    /// Dr. Sheppard the Lobotomist.
    Sheppard,
    /// Zong the Astronomer.
    Zong,
    /// Ben the Ludologist.
    Ben,
    /// Bradley the Futurist.
    Bradley,
    /// Esme the Fireman.
    Esme,
    /// Gary the Electrician.
    Gary,
    /// Jefferson the Shock Artist.
    Jefferson,
    /// Julia the Thought Inspector.
    Julia,
    /// Katy the Dietician.
    Katy,
    /// Laura the Philanthropist.
    Laura,
    /// Michael the Engineer.
    Michael,
    /// Dr. Nakagawa the Tribute.
    Nakagawa,
    /// Ray the Foreman.
    Ray,
    /// Yordy the Demotivator.
    Yordy,
    /// Brian the Viticulturist.
    Brian,
    /// Flartner the Luddite.
    Flartner,
    /// Geek the Oracle.
    Geek,
    /// Ian the Horticulturist.
    Ian,
    /// Jacko the Archivist.
    Jacko,
    /// Jonathan the Artist.
    Artist,
    /// Kyle the Scavenger.
    Kyle,
    /// Nick the Understudy.
    Nick,
    /// Pete the Cannibal.
    Pete,
    /// Professor Reitz the Archaeologist.
    Reitz,
    /// Sir Scarby the Harvester.
    Scarby,
    /// Steven the Scholar.
    Steven,
    /// Andrew the Spelunker.
    Andrew,
    /// Brett the Lockpicker.
    Brett,
    /// Chase the Miner.
    Chase,
    /// Curtis the Propagandist.
    Curtis,
    /// Major Dave the Demolitionist.
    Dave,
    /// Faith the Hydroelectrician.
    Faith,
    /// Jonathan the Gambler.
    Gambler,
    /// Josiah the Hacker.
    Josiah,
    /// Maggie the Outlaw.
    Maggie,
    /// Phil the Spy.
    Phil,
    /// Soulless the Plumber.
    Soulless,
    /// Xander the Excavator.
    Xander,
}

/// What a recruit card prints.
struct Card {
    name: &'static str,
    faction: Faction,
    /// The notation key (`use KEY`): the name before "the", except the two Jonathans,
    /// keyed by their trade.
    key: &'static str,
    /// The ability, 2nd edition.
    text: &'static str,
    /// How the 1st edition differs, if it does.
    v1: Option<&'static str>,
}

/// Every recruit's card, by number − 1.
static CARDS: [Card; RECRUITS] = [
    Card {
        name: "Amanda the Broker",
        faction: Faction::Icarite,
        key: "amanda",
        text: "Any player bumps your worker: may pay 1 bliss to set the die's value instead of rolling (asked of the owner)",
        v1: Some("only an opponent's bump; the bliss goes to that player"),
    },
    Card {
        name: "Flavio the Merchant",
        faction: Faction::Icarite,
        key: "flavio",
        text: "Placement on a non-Icarite market (built or artifact), after the star: may take +1 knowledge to draw 1 artifact",
        v1: Some("on bumping an opponent there, lose 2 morale to draw 1"),
    },
    Card {
        name: "Gidget the Hypnotist",
        faction: Faction::Icarite,
        key: "gidget",
        text: "Retrieval paid with bliss: may take knowledge −2 instead of morale +2",
        v1: None,
    },
    Card {
        name: "Josh the Negotiator",
        faction: Faction::Icarite,
        key: "josh",
        text: "Payment of a built market's resource: may pay 1 bliss instead",
        v1: None,
    },
    Card {
        name: "Kaden the Infiltrator",
        faction: Faction::Icarite,
        key: "kaden",
        text: "Open tunnel end without a matching active recruit: usable for +2 knowledge (automatic cost)",
        v1: None,
    },
    Card {
        name: "Lee the Gossip",
        faction: Faction::Icarite,
        key: "lee",
        text: "Bumping another player: may lose 1 morale; they gain 1 knowledge, you choose 1 commodity",
        v1: None,
    },
    Card {
        name: "Matthew the Thief",
        faction: Faction::Icarite,
        key: "matthew",
        text: "Bumping another player from a tunnel: may take +1 knowledge instead of paying the commodity",
        v1: None,
    },
    Card {
        name: "Maxime the Ambassador",
        faction: Faction::Icarite,
        key: "maxime",
        text: "Bumping another player: may lose 2 morale; they gain 1 knowledge, you draw 1 artifact",
        v1: None,
    },
    Card {
        name: "Rebecca the Peddler",
        faction: Faction::Icarite,
        key: "rebecca",
        text: "Bumping another player: may lose 2 morale; they gain 1 knowledge, you choose 1 resource",
        v1: None,
    },
    Card {
        name: "Sarinee the Cloud Miner",
        faction: Faction::Icarite,
        key: "sarinee",
        text: "Cloud Mine, alone there: choose knowledge −1 or +1 bliss (automatic)",
        v1: None,
    },
    Card {
        name: "Dr. Sheppard the Lobotomist",
        faction: Faction::Icarite,
        key: "sheppard",
        text: "Retrieval, before the roll: may sacrifice a retrieved worker (not the last) for 4 bliss + 1 resource; new worker: may lose 2 morale to draw 1 artifact",
        v1: None,
    },
    Card {
        name: "Zong the Astronomer",
        faction: Faction::Icarite,
        key: "zong",
        text: "Cloud Mine: may take +1 knowledge to draw 1 artifact; each opponent gains 1 bliss",
        v1: Some("Cloud Mine with no resources and no artifacts: choose 1 water or 1 energy"),
    },
    Card {
        name: "Ben the Ludologist",
        faction: Faction::Euphorian,
        key: "ben",
        text: "Another player's roll leaves them a pair of available dice: may lose 2 morale to choose 1 resource (asked of Ben's owner)",
        v1: None,
    },
    Card {
        name: "Bradley the Futurist",
        faction: Faction::Euphorian,
        key: "bradley",
        text: "Non-Icarite market, after the star: may take +2 knowledge to draw 2 artifacts, keep 1",
        v1: None,
    },
    Card {
        name: "Esme the Fireman",
        faction: Faction::Euphorian,
        key: "esme",
        text: "Placing a star (not a tier-4 recruit star): may discard 1 artifact for 1 energy and choose knowledge −1 or morale +1; a Book gives 2 energy, knowledge −2 and morale +2",
        v1: Some("no Book bonus"),
    },
    Card {
        name: "Gary the Electrician",
        faction: Faction::Euphorian,
        key: "gary",
        text: "Generator, your die equals another die there: choose 1 morale or 1 energy (automatic)",
        v1: None,
    },
    Card {
        name: "Jefferson the Shock Artist",
        faction: Faction::Euphorian,
        key: "jefferson",
        text: "Retrieval: may pay 1 energy: knowledge −1, morale +1",
        v1: None,
    },
    Card {
        name: "Julia the Thought Inspector",
        faction: Faction::Euphorian,
        key: "julia",
        text: "Bumping an opponent: may lose 1 morale to choose 1 resource; the bumped die takes your value instead of rolling",
        v1: Some("only on equal values; 2 morale; the bumped die rolls"),
    },
    Card {
        name: "Katy the Dietician",
        faction: Faction::Euphorian,
        key: "katy",
        text: "Generator, no artifacts: +1 food (automatic)",
        v1: None,
    },
    Card {
        name: "Laura the Philanthropist",
        faction: Faction::Euphorian,
        key: "laura",
        text: "Bumping an opponent from a tunnel or worker activation: may give them 1 gold to draw 2 artifacts",
        v1: None,
    },
    Card {
        name: "Michael the Engineer",
        faction: Faction::Euphorian,
        key: "michael",
        text: "Construction site: may pay any resource; gold instead of the printed one gives +1 morale and +1 knowledge",
        v1: None,
    },
    Card {
        name: "Dr. Nakagawa the Tribute",
        faction: Faction::Euphorian,
        key: "nakagawa",
        text: "Construction site: may advance the Euphorian allegiance 1",
        v1: Some("built or artifact market: may sacrifice that worker (not the last) for 1 extra star in that faction's territory"),
    },
    Card {
        name: "Ray the Foreman",
        faction: Faction::Euphorian,
        key: "ray",
        text: "Any market completed: contributors morale +2, others knowledge −2 (automatic)",
        v1: None,
    },
    Card {
        name: "Yordy the Demotivator",
        faction: Faction::Euphorian,
        key: "yordy",
        text: "Free retrieval: may pay 1 energy to set one retrieved die",
        v1: Some("owning exactly 2 workers, free retrieval costs no morale"),
    },
    Card {
        name: "Brian the Viticulturist",
        faction: Faction::Wastelander,
        key: "brian",
        text: "Any bliss payment may be made in food; doing so at a built market gives +1 knowledge and Wastelander allegiance +1 (once per placement); a worker in Icarus costs 1 morale",
        v1: Some("no Icarus morale cost"),
    },
    Card {
        name: "Flartner the Luddite",
        faction: Faction::Wastelander,
        key: "flartner",
        text: "Construction site: may pay 1 artifact instead of the resource, then +1 morale",
        v1: None,
    },
    Card {
        name: "Geek the Oracle",
        faction: Faction::Wastelander,
        key: "geek",
        text: "Once per turn, on drawing an artifact: may take +1 knowledge to draw 2 more, then discard 2",
        v1: Some("+2 knowledge, draw 1 more, discard 1"),
    },
    Card {
        name: "Ian the Horticulturist",
        faction: Faction::Wastelander,
        key: "ian",
        text: "Farm, no resources: +1 water (automatic)",
        v1: None,
    },
    Card {
        name: "Jacko the Archivist",
        faction: Faction::Wastelander,
        key: "jacko",
        text: "Ark of Fractured Memories: may stop paying after 1 card; each opponent draws 1 artifact",
        v1: Some("after a market star, may pay 2 artifacts for 1 extra star in that territory"),
    },
    Card {
        name: "Jonathan the Artist",
        faction: Faction::Wastelander,
        key: "artist",
        text: "Construction site, your die strictly highest on that market's sites: may take +2 knowledge to draw 1 artifact",
        v1: None,
    },
    Card {
        name: "Kyle the Scavenger",
        faction: Faction::Wastelander,
        key: "kyle",
        text: "Generator, Aquifer or Farm, alone there: may take +2 knowledge to draw 1 artifact",
        v1: None,
    },
    Card {
        name: "Nick the Understudy",
        faction: Faction::Wastelander,
        key: "nick",
        text: "Knowledge rises: +1 morale (automatic)",
        v1: None,
    },
    Card {
        name: "Pete the Cannibal",
        faction: Faction::Wastelander,
        key: "pete",
        text: "Retrieval, before the roll: may sacrifice a retrieved worker (not the last) for 4 food + 1 resource; new worker: may take +2 knowledge to draw 1 artifact",
        v1: None,
    },
    Card {
        name: "Professor Reitz the Archaeologist",
        faction: Faction::Wastelander,
        key: "reitz",
        text: "Tunnel without bumping: may take +2 knowledge to draw 1 artifact and move the miner 1 more",
        v1: None,
    },
    Card {
        name: "Sir Scarby the Harvester",
        faction: Faction::Wastelander,
        key: "scarby",
        text: "Farm, your die strictly highest (or alone): choose knowledge −1 or +1 food (automatic)",
        v1: None,
    },
    Card {
        name: "Steven the Scholar",
        faction: Faction::Wastelander,
        key: "steven",
        text: "A roll makes you lose a worker to the knowledge limit: choose 1 resource and draw 1 artifact (automatic)",
        v1: Some("any knowledge-check loss"),
    },
    Card {
        name: "Andrew the Spelunker",
        faction: Faction::Subterran,
        key: "andrew",
        text: "Euphorian or Wastelander tunnel, taking the resource with no artifacts in hand: also draw 1 artifact (automatic)",
        v1: None,
    },
    Card {
        name: "Brett the Lockpicker",
        faction: Faction::Subterran,
        key: "brett",
        text: "Non-Icarite market, after the star: may take +1 knowledge to choose 1 resource",
        v1: Some("+2 knowledge"),
    },
    Card {
        name: "Chase the Miner",
        faction: Faction::Subterran,
        key: "chase",
        text: "Tunnel: may sacrifice that worker (not the last) for 2 more of the tunnel's resource; new worker: may place it this turn",
        v1: None,
    },
    Card {
        name: "Curtis the Propagandist",
        faction: Faction::Subterran,
        key: "curtis",
        text: "Morale drops: also knowledge −1 (automatic)",
        v1: None,
    },
    Card {
        name: "Major Dave the Demolitionist",
        faction: Faction::Subterran,
        key: "dave",
        text: "Bumping an opponent from a tunnel: may take +1 knowledge for 1 more of its resource and 1 more miner space",
        v1: Some("+2 knowledge"),
    },
    Card {
        name: "Faith the Hydroelectrician",
        faction: Faction::Subterran,
        key: "faith",
        text: "Aquifer, no artifacts: +1 energy (automatic)",
        v1: None,
    },
    Card {
        name: "Jonathan the Gambler",
        faction: Faction::Subterran,
        key: "gambler",
        text: "Once per turn, on drawing an artifact: may draw 1 more; if the hand then holds a pair, each opponent draws 1",
        v1: Some("+1 knowledge, draw 2 more, keep only cards matching another of the three"),
    },
    Card {
        name: "Josiah the Hacker",
        faction: Faction::Subterran,
        key: "josiah",
        text: "Generator, Farm or Cloud Mine: every other player there +1 knowledge, you +1 morale (automatic)",
        v1: None,
    },
    Card {
        name: "Maggie the Outlaw",
        faction: Faction::Subterran,
        key: "maggie",
        text: "Retrieval of workers all in Subterra: choose 1 water or 1 stone (automatic)",
        v1: None,
    },
    Card {
        name: "Phil the Spy",
        faction: Faction::Subterran,
        key: "phil",
        text: "Bumping an opponent with no active Subterran: may take +1 knowledge to draw 1 artifact",
        v1: Some("+2 knowledge"),
    },
    Card {
        name: "Soulless the Plumber",
        faction: Faction::Subterran,
        key: "soulless",
        text: "Aquifer, your die the unique lowest (or alone): choose 1 morale or 1 water (automatic)",
        v1: None,
    },
    Card {
        name: "Xander the Excavator",
        faction: Faction::Subterran,
        key: "xander",
        text: "Bumping another player's higher worker from a tunnel: may take +1 knowledge for 1 more of its resource",
        v1: None,
    },
];

impl Recruit {
    /// All 48, by number.
    pub const ALL: [Recruit; RECRUITS] = [
        Recruit::Amanda,
        Recruit::Flavio,
        Recruit::Gidget,
        Recruit::Josh,
        Recruit::Kaden,
        Recruit::Lee,
        Recruit::Matthew,
        Recruit::Maxime,
        Recruit::Rebecca,
        Recruit::Sarinee,
        Recruit::Sheppard,
        Recruit::Zong,
        Recruit::Ben,
        Recruit::Bradley,
        Recruit::Esme,
        Recruit::Gary,
        Recruit::Jefferson,
        Recruit::Julia,
        Recruit::Katy,
        Recruit::Laura,
        Recruit::Michael,
        Recruit::Nakagawa,
        Recruit::Ray,
        Recruit::Yordy,
        Recruit::Brian,
        Recruit::Flartner,
        Recruit::Geek,
        Recruit::Ian,
        Recruit::Jacko,
        Recruit::Artist,
        Recruit::Kyle,
        Recruit::Nick,
        Recruit::Pete,
        Recruit::Reitz,
        Recruit::Scarby,
        Recruit::Steven,
        Recruit::Andrew,
        Recruit::Brett,
        Recruit::Chase,
        Recruit::Curtis,
        Recruit::Dave,
        Recruit::Faith,
        Recruit::Gambler,
        Recruit::Josiah,
        Recruit::Maggie,
        Recruit::Phil,
        Recruit::Soulless,
        Recruit::Xander,
    ];

    /// The printed number, 1 to 48.
    pub const fn number(self) -> u8 {
        self as u8
    }

    /// Index 0..48 (the number − 1), for lists by recruit.
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// The recruit numbered `n`, if 1 to 48.
    pub const fn from_number(n: u8) -> Option<Recruit> {
        match (n as usize).checked_sub(1) {
            Some(i) if i < RECRUITS => Some(Recruit::ALL[i]),
            _ => None,
        }
    }

    /// The recruit with notation key `key` (`amanda`).
    pub fn from_key(key: &str) -> Option<Recruit> {
        Recruit::ALL.into_iter().find(|r| r.key() == key)
    }

    fn card(self) -> &'static Card {
        &CARDS[self.index()]
    }

    /// The card's name ("Amanda the Broker").
    pub fn name(self) -> &'static str {
        self.card().name
    }

    /// The card's faction.
    pub fn faction(self) -> Faction {
        self.card().faction
    }

    /// The notation key (`use KEY`).
    pub fn key(self) -> &'static str {
        self.card().key
    }

    /// The ability as the 2nd edition prints it.
    pub fn ability(self) -> &'static str {
        self.card().text
    }

    /// How the 1st edition's ability differs, if it does.
    pub fn first_edition(self) -> Option<&'static str> {
        self.card().v1
    }

    /// The ability in `edition`: the 2nd-edition text, and for the 1st edition how it
    /// differs.
    pub fn text(self, edition: Edition) -> String {
        match (edition, self.first_edition()) {
            (Edition::V1, Some(diff)) => format!("{} (1st edition: {diff})", self.ability()),
            _ => self.ability().to_string(),
        }
    }

    /// The recruit's bit in a set of recruits held as bits by number (see
    /// [`Recruit::of_faction`]).
    pub const fn bit(self) -> u64 {
        1 << self as u8
    }

    /// The recruits of faction `f`, as bits by number (the checks at all times test every
    /// held recruit against the unlocked factions).
    pub fn of_faction(f: Faction) -> u64 {
        FACTION_BITS[f.index()]
    }
}

/// [`Recruit::of_faction`] by faction index.
static FACTION_BITS: [u64; 4] = {
    let mut masks = [0u64; 4];
    let mut i = 0;
    while i < RECRUITS {
        masks[CARDS[i].faction as usize] |= Recruit::ALL[i].bit();
        i += 1;
    }
    masks
};

// `ALL` lists the recruits in the order of their numbers, which index `CARDS`.
const _: () = {
    let mut i = 0;
    while i < RECRUITS {
        assert!(Recruit::ALL[i] as usize == i + 1);
        i += 1;
    }
};

/// The number, as the states and records printed before the type.
impl fmt::Debug for Recruit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.number(), f)
    }
}

/// The number, as the notation writes it (`up 12`, `keep 17`).
impl fmt::Display for Recruit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.number(), f)
    }
}

/// The number, as `u8` hashes it (so position keys stay as they were).
impl Hash for Recruit {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.number().hash(state);
    }

    fn hash_slice<H: Hasher>(data: &[Recruit], state: &mut H) {
        // A slice of `u8` hashes as its bytes in one write: the same in blocks whose
        // length is a multiple of eight, as the position key reads bytes eight at a time.
        for block in data.chunks(64) {
            let mut bytes = [0u8; 64];
            for (b, r) in bytes.iter_mut().zip(block) {
                *b = r.number();
            }
            state.write(&bytes[..block.len()]);
        }
    }
}

impl Serialize for Recruit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self.number())
    }
}

impl<'de> Deserialize<'de> for Recruit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Recruit, D::Error> {
        let n = u8::deserialize(d)?;
        Recruit::from_number(n).ok_or_else(|| {
            serde::de::Error::custom(format_args!(
                "recruit number {n} is no recruit (1 to {RECRUITS})"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recruit_is_its_number_in_every_form() {
        for r in Recruit::ALL {
            let n = r.number();
            assert_eq!(Recruit::from_number(n), Some(r));
            assert_eq!(Recruit::from_key(r.key()), Some(r));
            assert_eq!(format!("{r:?}"), format!("{n:?}"));
            assert_eq!(
                serde_json::to_string(&r).ok(),
                serde_json::to_string(&n).ok()
            );
        }
        // Position keys hash recruits as they hashed the numbers, one or a list.
        let key = |h: &dyn Fn(&mut engine::KeyHasher)| {
            let mut k = engine::KeyHasher::default();
            h(&mut k);
            k.finish()
        };
        let all: Vec<u8> = Recruit::ALL.iter().map(|r| r.number()).collect();
        assert_eq!(
            key(&|k| Recruit::ALL[..].hash(k)),
            key(&|k| all[..].hash(k))
        );
        assert_eq!(key(&|k| Recruit::Jacko.hash(k)), key(&|k| 29u8.hash(k)));
    }

    #[test]
    fn a_number_that_is_no_recruit_does_not_load() {
        for n in [0u8, 49, 255] {
            let err = serde_json::from_str::<Recruit>(&n.to_string()).expect_err("no recruit");
            assert!(
                err.to_string()
                    .contains(&format!("recruit number {n} is no recruit (1 to 48)")),
                "{err}"
            );
        }
        assert_eq!(
            serde_json::from_str::<Recruit>("29").ok(),
            Some(Recruit::Jacko)
        );
    }
}
