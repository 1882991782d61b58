use rand::SeedableRng;

/// The random stream kept inside every game state (serialized with it).
pub type GameRng = rand_chacha::ChaCha8Rng;

/// A stream from a seed.
pub fn rng_from_seed(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// A well-mixed seed for item `index` of a batch started from `seed` (SplitMix64), so that
/// game `i` of a simulation is the same game whatever the thread count.
pub fn derive_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed
        ^ index
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0x6A09_E667_F3BC_C909);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Shuffles `items` into the very permutation `rand`'s `SliceRandom::shuffle` makes from
/// the same stream (rand 0.9: Durstenfeld's shuffle, the indices drawn a chunk at a time
/// by its increasing uniform chooser), taking the same numbers from `rng`. It is faster
/// for the short lists games shuffle: a chunk is split up by multiplying with the
/// reciprocals of the bounds, not by dividing. A test keeps it equal to `shuffle`.
pub fn shuffle<T, R: rand::Rng + ?Sized>(items: &mut [T], rng: &mut R) {
    if items.len() > MAX_FAST_SHUFFLE {
        rand::seq::SliceRandom::shuffle(items, rng);
        return;
    }
    if items.len() <= 1 {
        return;
    }
    // The chooser's state: the bound below which the next index lies is `n + 1`, and
    // `chunk` holds `left` more indices (when `left` is 1, `chunk` itself is the index).
    let mut n = 0u32;
    let mut chunk = 0u32;
    let mut left = 1u8;
    for i in 0..items.len() {
        let bound = n + 1;
        let rest = match left.checked_sub(1) {
            Some(rest) => rest,
            None => {
                let (product, count) = CHUNKS[bound as usize];
                chunk = rng.random_range(..product);
                count - 1
            }
        };
        let index = if rest == 0 {
            chunk
        } else {
            let (q, r) = div_rem(chunk, bound);
            chunk = q;
            r
        };
        left = rest;
        n = bound;
        items.swap(i, index as usize);
    }
}

/// The longest list [`shuffle`] shuffles itself (longer ones go to `rand`).
const MAX_FAST_SHUFFLE: usize = 64;

/// `x / d` and `x % d` for `1 <= d <= MAX_FAST_SHUFFLE`: with `m = floor(2^64 / d) + 1`
/// (`RECIPROCALS`), `floor(x * m / 2^64)` is `floor(x / d)` exactly for every 32-bit `x`,
/// the error `x * (m * d - 2^64) / (d * 2^64)` staying under `2^-32`.
fn div_rem(x: u32, d: u32) -> (u32, u32) {
    let q = match RECIPROCALS.get(d as usize) {
        Some(&0) | None => x / d.max(1),
        Some(&m) => ((u128::from(x) * u128::from(m)) >> 64) as u32,
    };
    (q, x - q * d)
}

/// `floor((2^64 - 1) / d) + 1` by `d` (equal to `floor(2^64 / d) + 1` but for powers of two,
/// where it is `2^64 / d` itself: exact too); 0 for `d` 0 and 1, divided directly.
const RECIPROCALS: [u64; MAX_FAST_SHUFFLE + 1] = {
    let mut table = [0u64; MAX_FAST_SHUFFLE + 1];
    let mut d = 2;
    while d <= MAX_FAST_SHUFFLE {
        table[d] = u64::MAX / d as u64 + 1;
        d += 1;
    }
    table
};

/// rand's chunk for the bound `m`: the product `m * (m + 1) * ...` of as many bounds as fit
/// in 32 bits, and how many they are.
const CHUNKS: [(u32, u8); MAX_FAST_SHUFFLE + 1] = {
    let mut table = [(0u32, 1u8); MAX_FAST_SHUFFLE + 1];
    let mut m = 1;
    while m <= MAX_FAST_SHUFFLE {
        let mut product = m as u32;
        let mut current = m as u32 + 1;
        while let Some(p) = product.checked_mul(current) {
            product = p;
            current += 1;
        }
        table[m] = (product, (current - m as u32) as u8);
        m += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_is_rands_shuffle() {
        for len in 0..=MAX_FAST_SHUFFLE + 3 {
            for seed in 0..200 {
                let mut ours: Vec<usize> = (0..len).collect();
                let mut theirs = ours.clone();
                let mut a = rng_from_seed(seed);
                let mut b = rng_from_seed(seed);
                shuffle(&mut ours, &mut a);
                rand::seq::SliceRandom::shuffle(theirs.as_mut_slice(), &mut b);
                assert_eq!(ours, theirs, "length {len}, seed {seed}");
                // The same numbers were taken from the stream.
                assert_eq!(
                    rand::Rng::random::<u64>(&mut a),
                    rand::Rng::random::<u64>(&mut b)
                );
            }
        }
    }

    #[test]
    fn div_rem_is_exact() {
        for d in 1..=MAX_FAST_SHUFFLE as u32 {
            for x in (0..4096)
                .chain(u32::MAX - 4096..=u32::MAX)
                .chain((0..64).map(|k| 1u32 << (k % 32)))
            {
                assert_eq!(div_rem(x, d), (x / d, x % d), "{x} / {d}");
            }
        }
    }
}
