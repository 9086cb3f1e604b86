//! Zobrist keys, generated from a fixed seed so hashes are the same in every run.

/// FNV-1a, 64 bits: a stable hash of bytes (the same in every Rust version, unlike the
/// standard hasher), for seeds, checksums and keys that must not change between builds.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SplitMix64: a tiny, well-mixed generator; fixed seeds make every table reproducible.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Keys for every (piece code, cell), the side to move, castling rights and en passant cells.
#[derive(Clone, Debug)]
pub struct Zobrist {
    nsq: usize,
    pieces: Vec<u64>,
    /// XORed in when Black is to move.
    pub side: u64,
    castling: [u64; 16],
    ep: Vec<u64>,
    /// Per piece code, one key per count in hand from 1 to [`MAX_HAND`] (none for 0); empty
    /// until [`Zobrist::with_hands`].
    hand: Vec<u64>,
    /// Per cell, the key of a promoted piece there (the `~` mark); empty until
    /// [`Zobrist::with_hands`].
    promoted: Vec<u64>,
}

/// Most pieces of one kind a hand may hold (a position text with more is refused; captures
/// cannot pass it, the boards here having at most 128 cells).
pub const MAX_HAND: usize = 128;

impl Zobrist {
    /// Keys for `nsq` cells and piece codes below `ncodes`; `seed` separates variants.
    pub fn new(nsq: usize, ncodes: usize, seed: u64) -> Zobrist {
        let mut rng = SplitMix64(seed);
        let pieces = (0..nsq * ncodes).map(|_| rng.next()).collect();
        let side = rng.next();
        let mut castling = [0; 16];
        for c in castling.iter_mut() {
            *c = rng.next();
        }
        let ep = (0..nsq).map(|_| rng.next()).collect();
        Zobrist {
            nsq,
            pieces,
            side,
            castling,
            ep,
            hand: Vec::new(),
            promoted: Vec::new(),
        }
    }

    /// Adds the keys of pieces in hand and of promoted pieces, for a variant with drops. They
    /// come from their own generator, so the other keys, and the hashes of variants without
    /// drops, stay as they were.
    pub fn with_hands(mut self, ncodes: usize, seed: u64) -> Zobrist {
        let mut rng = SplitMix64(seed ^ 0x68a4_d5d0_7c0f_fe11);
        self.hand = (0..ncodes * MAX_HAND).map(|_| rng.next()).collect();
        self.promoted = (0..self.nsq).map(|_| rng.next()).collect();
        self
    }

    /// Key of `n` pieces of a piece code in hand (0 for none).
    #[inline]
    pub fn hand(&self, code: u8, n: u8) -> u64 {
        match n {
            0 => 0,
            n => self.hand[code as usize * MAX_HAND + n as usize - 1],
        }
    }

    /// Key of a promoted piece on a cell.
    #[inline]
    pub fn promoted(&self, sq: crate::Square) -> u64 {
        self.promoted[sq.index()]
    }

    /// Key of a piece code on a cell.
    #[inline]
    pub fn piece(&self, code: u8, sq: crate::Square) -> u64 {
        self.pieces[code as usize * self.nsq + sq.index()]
    }

    /// Key of a set of castling rights (4 bits).
    #[inline]
    pub fn castling(&self, rights: u8) -> u64 {
        self.castling[rights as usize & 15]
    }

    /// Key of an en passant cell.
    #[inline]
    pub fn ep(&self, sq: crate::Square) -> u64 {
        self.ep[sq.index()]
    }
}
