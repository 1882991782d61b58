//! Sharded studies: shard K of N plays its own range of game indices; [`merge`] checks
//! that the shards belong to one study and puts their results back in game order.
use crate::GameResult;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use thiserror::Error;

/// Shard `index` (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The game indices this shard plays: `games * (index - 1) / count` up to
    /// `games * index / count`, so the shards cover every game exactly once.
    pub fn range(self, games: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(games) * u128::from(k) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("--shard takes K/N with 1 <= K <= N (like 2/8), not `{s}`");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse::<u64>().map_err(|_| bad())?,
            n.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// One study's inputs and its games' results in game order (of one shard, or all).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Part {
    pub game: String,
    pub config: serde_json::Value,
    pub seed: u64,
    /// Games in the whole study, over all shards.
    pub games: u64,
    /// The bot at each seat.
    pub seats: Vec<String>,
    pub results: Vec<GameResult>,
}

impl Part {
    /// The inputs without the results.
    pub fn header(&self) -> Part {
        Part {
            game: self.game.clone(),
            config: self.config.clone(),
            seed: self.seed,
            games: self.games,
            seats: self.seats.clone(),
            results: Vec::new(),
        }
    }
}

/// What `--shard K/N --json` writes: the shard and its part of each study (one, or two
/// for a report `--vs` another variant).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    pub shard: Shard,
    pub parts: Vec<Part>,
}

/// Shards that do not make one whole study; every problem is listed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("the shards do not make one study:\n  {}", .problems.join("\n  "))]
pub struct MergeError {
    pub problems: Vec<String>,
}

/// Puts shards back together into the study one machine would have played.
///
/// # Errors
/// No shards; shards of different studies (game, options, seed, games, bots or shard
/// count differ); a shard given twice or missing; a shard holding the wrong number of
/// games.
pub fn merge(mut files: Vec<ShardFile>) -> Result<Vec<Part>, MergeError> {
    let mut problems = Vec::new();
    files.sort_by_key(|f| f.shard.index);
    let Some(first) = files.first() else {
        return Err(MergeError {
            problems: vec!["no shard files given".into()],
        });
    };
    let count = first.shard.count;
    let headers: Vec<Part> = first.parts.iter().map(Part::header).collect();
    for f in &files {
        let shard = f.shard;
        if shard.count != count {
            problems.push(format!(
                "shard {shard} is one of {} shards, shard {} one of {count}",
                shard.count, first.shard
            ));
        }
        if f.parts.len() != headers.len() {
            problems.push(format!(
                "shard {shard} holds {} studies, shard {} holds {}",
                f.parts.len(),
                first.shard,
                headers.len()
            ));
        }
        for (p, (part, header)) in f.parts.iter().zip(&headers).enumerate() {
            if part.header() != *header {
                problems.push(format!(
                    "shard {shard} study {} differs from shard {} (game, options, seed, games or bots)",
                    p + 1,
                    first.shard
                ));
            }
            let want = shard.range(part.games);
            if part.results.len() as u64 != want.end - want.start {
                problems.push(format!(
                    "shard {shard} study {} holds {} games instead of {}",
                    p + 1,
                    part.results.len(),
                    want.end - want.start
                ));
            }
        }
    }
    for k in 1..=count {
        match files.iter().filter(|f| f.shard.index == k).count() {
            0 => problems.push(format!("shard {k}/{count} is missing")),
            1 => {}
            n => problems.push(format!("shard {k}/{count} is given {n} times")),
        }
    }
    if !problems.is_empty() {
        return Err(MergeError { problems });
    }
    let mut parts = headers;
    for f in files {
        for (whole, part) in parts.iter_mut().zip(f.parts) {
            whole.results.extend(part.results);
        }
    }
    Ok(parts)
}
