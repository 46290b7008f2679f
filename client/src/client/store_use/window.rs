//! A budget per UTC day or month: the hold a call or job takes in the store
//! before it is sent, and gives back when it ends.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::client::Client;
use crate::error::{Error, ErrorKind};
use crate::store::{Admission, Hold, Scope, Store, now_ms};
use crate::units::Estimate;

/// How long a hold of a budget window lives unless its job renews it (each
/// recorded call does): a crashed job's hold is free again after this.
const HOLD_LEASE: Duration = Duration::from_secs(15 * 60);

/// A hold on the budget window: released by its holder when the call or job
/// ends ([`release`](Self::release)); else when dropped, in the background;
/// else, if the process dies first, by its lease.
pub(crate) struct WindowHold {
    store: Store,
    scope: Scope,
    pub(crate) id: String,
    released: AtomicBool,
}

impl WindowHold {
    /// Give the hold back, waiting for the store (a process about to exit
    /// would otherwise leave it held until its lease ends).
    pub(crate) async fn release(&self) {
        if self.released.swap(true, Ordering::SeqCst) {
            return;
        }
        if let Err(error) = self.store.backend().release(&self.scope, &self.id).await {
            tracing::warn!(store = %error.store, error = %error.message, "cannot release a budget hold; its lease will");
        }
    }
}

impl Drop for WindowHold {
    fn drop(&mut self) {
        if self.released.load(Ordering::SeqCst) {
            return;
        }
        let (store, scope, id) = (self.store.clone(), self.scope.clone(), self.id.clone());
        // Outside a runtime (a client dropped after its runtime), the lease
        // frees the hold instead.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                if let Err(error) = store.backend().release(&scope, &id).await {
                    tracing::warn!(store = %error.store, error = %error.message, "cannot release a budget hold; its lease will");
                }
            });
        }
    }
}

impl Client {
    /// Hold the maximum of `estimate` in the budget window, if there is one,
    /// or refuse.
    pub(crate) async fn hold_window(
        &self,
        what: &str,
        estimate: Estimate,
    ) -> Result<Option<WindowHold>, Error> {
        let memory = &self.inner.memory;
        let Some((budget, window)) = memory.window else {
            return Ok(None);
        };
        if estimate.unknown {
            return Err(Error::new(what, ErrorKind::UnknownCost { budget }));
        }
        let units = estimate.max;
        let id = format!("{:016x}{:016x}", fastrand::u64(..), fastrand::u64(..));
        let hold = Hold {
            id: id.clone(),
            units,
            budget,
            window_start_ms: window.start_ms(now_ms()),
            lease: HOLD_LEASE,
        };
        let admission = memory
            .store
            .backend()
            .admit(&memory.scope, hold)
            .await
            .map_err(|e| self.store_error(what, e))?;
        match admission {
            Admission::Admitted => Ok(Some(WindowHold {
                store: memory.store.clone(),
                scope: memory.scope.clone(),
                id,
                released: AtomicBool::new(false),
            })),
            Admission::Refused { spent, held } => Err(Error::new(
                what,
                ErrorKind::OverWindowBudget {
                    estimate_max: units,
                    spent,
                    held,
                    budget,
                    window,
                },
            )),
        }
    }
}
