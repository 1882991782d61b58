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
