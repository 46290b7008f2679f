//! The [`Scope`] of an API key in a store that outlives the process: SHA-256
//! of a fixed prefix and the key, in hex.
//!
//! A persistent store is read by other processes, other machines and anyone
//! who can open the file, so the fingerprint must be one-way (the key cannot be
//! recovered from it) and the same in every process (unlike the in-memory
//! store's per-process random hash). The prefix separates this use of the key
//! from any other SHA-256 of it, so that a store's scope matches no hash of the
//! key published elsewhere; changing it starts every store afresh.

use sha2::{Digest, Sha256};

use super::Scope;

/// Domain separation: what the hash is of, and this scheme's version.
const PREFIX: &[u8] = b"seozoom store scope v1\0";

/// The scope of `api_key`: 64 lowercase hex digits.
pub(crate) fn scope(api_key: &str) -> Scope {
    let digest = Sha256::new()
        .chain_update(PREFIX)
        .chain_update(api_key.as_bytes())
        .finalize();
    let mut hex = String::with_capacity(64);
    for byte in digest.iter() {
        hex.push(char::from(HEX[usize::from(byte >> 4)]));
        hex.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    Scope(hex)
}

const HEX: &[u8; 16] = b"0123456789abcdef";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_is_the_prefixed_sha256_of_the_key() {
        // Fixed: a store written by one build must be found by the next.
        // (`printf 'seozoom store scope v1\0k' | sha256sum`)
        let scope = scope("k");
        assert_eq!(
            scope.0,
            "97b275e1ba2300cf21f536469e420a83dd51deb3817808277edc27f4641c0ccf"
        );
        assert_ne!(scope, super::scope("k "));
        // Not the plain hash of the key (`printf k | sha256sum`).
        assert_ne!(
            scope.0,
            "8254c329a92850f6d539dd376f4816ee2764517da5e0235514af433164480d7a"
        );
    }
}
