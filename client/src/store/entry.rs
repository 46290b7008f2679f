//! A cached answer as the store keeps it: opaque bytes that carry their own
//! cache key and a checksum, so that a corrupt entry, or one found under
//! another key (a foreign entry), is recognised and never returned.
//!
//! Layout (integers little-endian): the magic, `SZC1` (or `SZU1` for an
//! answer that was paid for but could not be decoded: kept until it can be);
//! the key's length (u32)
//! and bytes; when it was fetched (i64 ms since the epoch); units it cost
//! (i64); the balance then (i64, `i64::MIN` when none was known); the body's length (u32) and bytes; then
//! FNV-1a (u64) of everything before it.

/// What the cache keeps of an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CachedAnswer {
    /// When the service answered, in milliseconds since the epoch.
    pub fetched_at_ms: i64,
    /// Units the answer cost: what a hit saves.
    pub units_used: i64,
    /// The balance the service reported with it (`None`: not known).
    pub units_remaining: Option<i64>,
    /// The body as the service sent it (or, for one item of a batched
    /// request, the envelope the client made of that item's rows).
    pub body: Vec<u8>,
    /// The answer could not be decoded when it came: it was kept so that a
    /// client built from a fixed spec decodes it at no cost, whatever its age.
    pub undelivered: bool,
}

const MAGIC: &[u8; 4] = b"SZC1";
/// The balance written for one that was not known: no account holds it.
const UNKNOWN_BALANCE: i64 = i64::MIN;
const MAGIC_UNDELIVERED: &[u8; 4] = b"SZU1";

/// 64-bit FNV-1a: enough to tell a damaged entry (not an adversary).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl CachedAnswer {
    /// The entry's bytes, for the store, under `key`.
    pub(crate) fn encode(&self, key: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + 4 + key.len() + 24 + 4 + self.body.len() + 8);
        out.extend_from_slice(if self.undelivered {
            MAGIC_UNDELIVERED
        } else {
            MAGIC
        });
        push_bytes(&mut out, key.as_bytes());
        out.extend_from_slice(&self.fetched_at_ms.to_le_bytes());
        out.extend_from_slice(&self.units_used.to_le_bytes());
        let balance = self.units_remaining.unwrap_or(UNKNOWN_BALANCE);
        out.extend_from_slice(&balance.to_le_bytes());
        push_bytes(&mut out, &self.body);
        let check = fnv1a(&out);
        out.extend_from_slice(&check.to_le_bytes());
        out
    }

    /// The entry in `bytes`, if they are whole and were written under `key`;
    /// otherwise why not.
    pub(crate) fn decode(bytes: &[u8], key: &str) -> Result<CachedAnswer, &'static str> {
        let (content, check) = bytes
            .split_last_chunk::<8>()
            .ok_or("shorter than an entry")?;
        if fnv1a(content) != u64::from_le_bytes(*check) {
            return Err("checksum mismatch (a damaged entry)");
        }
        let mut reader = Reader(content);
        let undelivered = match reader.take(4)? {
            magic if magic == MAGIC => false,
            magic if magic == MAGIC_UNDELIVERED => true,
            _ => return Err("not a seozoom cache entry (or another version)"),
        };
        if reader.bytes()? != key.as_bytes() {
            return Err("written under another key (a foreign entry)");
        }
        let fetched_at_ms = reader.i64()?;
        let units_used = reader.i64()?;
        let units_remaining = Some(reader.i64()?).filter(|&b| b != UNKNOWN_BALANCE);
        let body = reader.bytes()?.to_vec();
        if !reader.0.is_empty() {
            return Err("trailing bytes");
        }
        Ok(CachedAnswer {
            fetched_at_ms,
            units_used,
            units_remaining,
            body,
            undelivered,
        })
    }
}

fn push_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    // An entry over 4 GiB is not a page of this API; saturate rather than wrap,
    // so that such an entry fails its own decoding instead of misreading.
    let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(bytes);
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], &'static str> {
        if self.0.len() < n {
            return Err("truncated");
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn bytes(&mut self) -> Result<&'a [u8], &'static str> {
        let len = self.take(4)?;
        let len = u32::from_le_bytes(len.try_into().map_err(|_| "truncated")?);
        self.take(usize::try_from(len).map_err(|_| "truncated")?)
    }

    fn i64(&mut self) -> Result<i64, &'static str> {
        let bytes = self.take(8)?;
        Ok(i64::from_le_bytes(
            bytes.try_into().map_err(|_| "truncated")?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer() -> CachedAnswer {
        CachedAnswer {
            fetched_at_ms: 1_700_000_000_000,
            units_used: 40,
            units_remaining: Some(9_960),
            body: br#"{"ResultRows":1,"response":[]}"#.to_vec(),
            undelivered: false,
        }
    }

    #[test]
    fn an_entry_reads_back_under_its_own_key() {
        let bytes = answer().encode("domains metrics it domain=a.it");
        assert_eq!(
            CachedAnswer::decode(&bytes, "domains metrics it domain=a.it"),
            Ok(answer())
        );
    }

    #[test]
    fn an_undelivered_answer_reads_back_as_one() {
        let kept = CachedAnswer {
            undelivered: true,
            ..answer()
        };
        let bytes = kept.encode("k");
        assert_eq!(&bytes[..4], b"SZU1");
        assert_eq!(CachedAnswer::decode(&bytes, "k"), Ok(kept));
    }

    #[test]
    fn a_foreign_entry_is_refused() {
        let bytes = answer().encode("domains metrics it domain=a.it");
        let error = CachedAnswer::decode(&bytes, "domains metrics it domain=b.it").unwrap_err();
        assert!(error.contains("foreign"), "{error}");
    }

    #[test]
    fn every_damaged_or_cut_entry_is_refused() {
        let key = "k";
        let bytes = answer().encode(key);
        for cut in 0..bytes.len() {
            assert!(
                CachedAnswer::decode(&bytes[..cut], key).is_err(),
                "cut at {cut}"
            );
        }
        for i in 0..bytes.len() {
            let mut damaged = bytes.clone();
            damaged[i] ^= 0x20;
            assert!(CachedAnswer::decode(&damaged, key).is_err(), "byte {i}");
        }
        assert!(CachedAnswer::decode(b"not an entry at all", key).is_err());
    }
}
