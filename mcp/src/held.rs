//! Results cut to the row cap, held whole so that the `more` tool can hand out
//! the rest without sending (and paying for) the call again.
//!
//! Only the latest few are kept, so that a long session's memory stays
//! bounded; an agent that comes back for an older one is told to call again.
//! Each MCP session holds its own (over HTTP one process serves many), and an
//! id carries 122 random bits, so that no client reads what another holds by
//! guessing its id.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use seozoom::operation_table::Shape;
use serde_json::Value;

use super::fields::Fields;

/// Cut results kept at once; the oldest is dropped first.
pub const KEPT: usize = 8;

/// One held result.
#[derive(Debug, Clone)]
pub struct HeldResult {
    /// The tool that answered it.
    pub tool: String,
    /// The layout of `response`.
    pub shape: Shape,
    /// Units the call was charged.
    pub units: i64,
    /// Whether it is the whole answer (not what a job that stopped part-way
    /// received).
    pub complete: bool,
    /// The whole `response`.
    pub response: Arc<Value>,
    /// For what a stopped job received: the call's arguments that ask for
    /// exactly the part it did not get (the inputs not answered, or the
    /// offset where its rows stop), which a call with its handle sends; and
    /// how many inputs or rows that is. Never shown whole in an answer: a
    /// resource gives it.
    pub resume: Option<(Value, usize)>,
    /// The columns the call asked for (`fields`): `more` hands out rows cut
    /// to them; a resource read has every column.
    pub fields: Option<Fields>,
}

/// The held results of a session.
#[derive(Debug, Default)]
pub struct Held {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Results given so far: the next id's number. The list changes only
    /// when one is given (the oldest dropped then), so it also tells when
    /// the list changed.
    issued: u64,
    results: VecDeque<(String, HeldResult)>,
}

impl Held {
    /// Hold a result; its id: the count of results given (for a reader to
    /// tell their order) and a random part (so that it cannot be guessed).
    pub fn hold(&self, result: HeldResult) -> String {
        // A panic elsewhere while the lock was held leaves the list as it was
        // between two whole updates, so it is still usable.
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.issued += 1;
        let id = format!("r{}-{}", inner.issued, uuid::Uuid::new_v4().simple());
        if inner.results.len() == KEPT {
            inner.results.pop_front();
        }
        inner.results.push_back((id.clone(), result));
        id
    }

    /// A figure that changes whenever the list does (a result held, the
    /// oldest dropped): two readings that differ say a host's list of
    /// resources is out of date.
    pub fn version(&self) -> u64 {
        self.inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .issued
    }

    /// The results held, oldest first, with their ids.
    pub fn list(&self) -> Vec<(String, HeldResult)> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.results.iter().cloned().collect()
    }

    /// The result held under `id`, if it is still kept.
    pub fn get(&self, id: &str) -> Option<HeldResult> {
        let inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner
            .results
            .iter()
            .find(|(held, _)| held == id)
            .map(|(_, result)| result.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(n: i64) -> HeldResult {
        HeldResult {
            tool: "t".into(),
            shape: Shape::Array,
            units: 0,
            complete: true,
            response: Arc::new(Value::from(n)),
            fields: None,
            resume: None,
        }
    }

    #[test]
    fn the_oldest_is_dropped_past_the_limit() {
        let held = Held::default();
        let ids: Vec<String> = (0..=KEPT as i64).map(|n| held.hold(result(n))).collect();
        assert!(held.get(&ids[0]).is_none(), "the first is dropped");
        for (n, id) in ids.iter().enumerate().skip(1) {
            assert_eq!(*held.get(id).expect("kept").response, Value::from(n as i64));
        }
        assert!(held.get("r999").is_none());
    }

    #[test]
    fn an_id_is_not_its_neighbours_with_another_number() {
        let held = Held::default();
        let first = held.hold(result(1));
        let second = held.hold(result(2));
        let (_, first_random) = first.split_once('-').expect("a random part");
        let (_, second_random) = second.split_once('-').expect("a random part");
        assert_eq!(first_random.len(), 32, "{first}");
        assert_ne!(first_random, second_random);
        assert!(held.get(&format!("r2-{first_random}")).is_none());
        assert!(held.get("r1").is_none(), "the count alone reads nothing");
    }
}
