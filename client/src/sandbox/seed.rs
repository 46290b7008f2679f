//! Determinism: a tiny FNV-1a hash (with a 64-bit finaliser for well-mixed low
//! bits) from which every generated value is drawn. The same inputs give the
//! same seed, so the same query gives the same rows.

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a over `bytes`, continuing from `state`.
fn fnv1a(state: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(state, |h, b| (h ^ u64::from(*b)).wrapping_mul(FNV_PRIME))
}

/// The murmur3 64-bit finaliser: FNV-1a mixes its low bits poorly, and values
/// are drawn with `%`.
fn finalise(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// A point in the tree of generated values: each child is named by a string or
/// a number, so `root / "domains" / "it" / "example.it" / 3 / "za"` always gives
/// the same value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Seed(u64);

impl Seed {
    /// The root of every tree.
    pub(super) fn root() -> Seed {
        Seed(FNV_OFFSET)
    }

    /// The child named `part`. A separator byte keeps `("ab", "c")` apart from
    /// `("a", "bc")`.
    pub(super) fn child(self, part: &str) -> Seed {
        Seed(fnv1a(fnv1a(self.0, part.as_bytes()), &[0xff]))
    }

    /// The child numbered `index` (a row, a position).
    pub(super) fn nth(self, index: u64) -> Seed {
        Seed(fnv1a(fnv1a(self.0, &index.to_le_bytes()), &[0xfe]))
    }

    /// The value of this seed.
    pub(super) fn value(self) -> u64 {
        finalise(self.0)
    }

    /// A value in `0..n` (0 when `n` is 0).
    pub(super) fn below(self, n: u64) -> u64 {
        self.value().checked_rem(n).unwrap_or(0)
    }

    /// A value in `lo..=hi` (`lo` when the range is empty).
    pub(super) fn between(self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = hi.abs_diff(lo).saturating_add(1);
        lo.saturating_add_unsigned(self.below(span))
    }

    /// True about once in `n` draws.
    pub(super) fn one_in(self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// One element of `items` (`fallback` when there is none).
    pub(super) fn pick<'a>(self, items: &[&'a str], fallback: &'a str) -> &'a str {
        let index = usize::try_from(self.below(items.len() as u64)).unwrap_or(0);
        items.get(index).copied().unwrap_or(fallback)
    }
}

#[cfg(test)]
mod tests {
    use super::Seed;

    #[test]
    fn stable_and_distinct() {
        let a = Seed::root().child("domains").child("it").nth(3);
        assert_eq!(a, Seed::root().child("domains").child("it").nth(3));
        assert_ne!(a, Seed::root().child("domains").child("it").nth(4));
        assert_ne!(
            Seed::root().child("ab").child("c"),
            Seed::root().child("a").child("bc")
        );
    }

    #[test]
    fn ranges_hold() {
        for i in 0..1000 {
            let s = Seed::root().nth(i);
            assert!((20..=500).contains(&s.between(20, 500)));
            assert!((-5..=5).contains(&s.between(-5, 5)));
            assert!(s.below(7) < 7);
        }
        assert_eq!(Seed::root().below(0), 0);
        assert_eq!(Seed::root().between(9, 3), 9);
        assert_eq!(Seed::root().pick(&[], "none"), "none");
    }
}
