//! The Redis store (`redis://HOST:PORT/N`, `rediss://` for TLS): one Redis
//! database shared by processes on any machine.
//!
//! Keys of an API key's state all start `seozoom:{SCOPE}:` (the braces are
//! Redis Cluster's hash tag: all of a key's state lives in one slot, so the
//! scripts below may touch any of it):
//!
//! | key | type | what |
//! |---|---|---|
//! | `cache:KEY` | string, `PX` its keeping time | a cache entry |
//! | `ledger` | stream, `MAXLEN ~` | every call recorded |
//! | `recorded:ID` | string, `PX` a minute | a ledger row written, so that a call made again after a dropped connection writes it once |
//! | `day:DAY` | hash `METRIC␟GROUP␟ACTION` | a UTC day's totals per operation |
//! | `days` | sorted set | the days that have totals |
//! | `spent:DAY` | integer | units charged that day, for budget windows |
//! | `balance` | hash | the balance last reported, and when |
//! | `holds`, `hold:ID` | set, hash with `PX` its lease | live budget holds |
//! | `slots:OP` | sorted set, `PEXPIRE` its window | an operation's answered requests, scored by when each stops counting |
//! | `flight:OP` | sorted set, `PEXPIRE` in flight + window | an operation's requests in flight, scored likewise (a crashed holder's slot ends) |
//! | `drift:count`, `drift:rows`, `drift:first`, `drift:last`, `drift:types`, `drift:example` | hashes keyed by the thing observed (a JSON array: origin, group, action, record, member, kind) | the drift observed: counts summed, first and last times, JSON types joined (bits), the first example |
//!
//! What must be atomic across machines is a Lua script, and every script reads
//! the time from the Redis server (`TIME`), so machines whose clocks disagree
//! still share one rate window and one lease clock. A holder that crashes
//! leaves a hold whose key expires with its lease. Day totals use Redis's own
//! counters (`HINCRBY`, `INCRBY`); windows and `--since` start on a UTC day.
//!
//! One multiplexed connection serves every call of a store; it is opened on
//! the first call. A call that finds it closed (a restart, `CLIENT KILL`, a
//! proxy's idle timeout) is made once more on a new one.

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use futures_util::FutureExt;
use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, Client, RedisError, RedisResult, Script};

use super::backend::{duration_ms, shown_store_url};
use super::slots::{poll_interval, slot_id};
use super::{
    Admission, Backend, Balance, CacheEntry, Hold, LedgerEntry, Lookup, Scope, SharedSlots,
    StoreError, StoreFuture, Usage, fingerprint,
};
use crate::drift::{DriftKind, JsonTypeSet, Observation};

const DAY_MS: i64 = 86_400_000;

/// How long to wait for a connection, and for an answer.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(10);

/// About how many calls the ledger stream keeps per API key (day totals are
/// kept for good).
const LEDGER_KEPT: u32 = 100_000;

/// Separates the parts of a day-total field: in no wire name.
const SEPARATOR: char = '\u{1f}';

/// Take a slot. `KEYS[1]`: the answered requests' slots, `KEYS[2]`: the
/// slots of requests in flight, each scored by when it stops counting (ms).
/// ARGV: figure, window (ms), how long a slot may be in flight (ms), a member
/// unique to this request. Returns 0 when taken; else the milliseconds until
/// the first answered slot frees, or -1 when every slot is in flight.
const TAKE_SLOT: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local figure = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local in_flight = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) + redis.call('ZCARD', KEYS[2]) < figure then
  redis.call('ZADD', KEYS[2], now + in_flight + window, ARGV[4])
  redis.call('PEXPIRE', KEYS[2], in_flight + window)
  return 0
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if first[2] then
  return math.max(tonumber(first[2]) - now, 1)
end
return -1
";

/// Settle a slot: its request was answered. KEYS as for `TAKE_SLOT`. ARGV:
/// window (ms), the slot's member.
const SETTLE_SLOT: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
if redis.call('ZREM', KEYS[2], ARGV[2]) == 1 then
  redis.call('ZADD', KEYS[1], now + window, ARGV[2])
  redis.call('PEXPIRE', KEYS[1], window)
end
return 0
";

/// Admit a hold. ARGV: key prefix, hold id, units, budget, the window's first
/// day, lease (ms). Returns {admitted (0/1), spent, held}.
const ADMIT: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local prefix = ARGV[1]
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local today = math.floor(now / 86400000)
local first = tonumber(ARGV[5])
local spent = 0
-- Up to tomorrow: a client whose clock runs ahead may have recorded there.
for day = first, math.min(today + 1, first + 400) do
  spent = spent + (tonumber(redis.call('GET', prefix .. 'spent:' .. day)) or 0)
end
local held = 0
local holds = prefix .. 'holds'
for _, id in ipairs(redis.call('SMEMBERS', holds)) do
  local units = redis.call('HGET', prefix .. 'hold:' .. id, 'units')
  if units then
    held = held + tonumber(units)
  else
    redis.call('SREM', holds, id)
  end
end
if spent + held + tonumber(ARGV[3]) > tonumber(ARGV[4]) then
  return {0, spent, held}
end
local hold = prefix .. 'hold:' .. ARGV[2]
redis.call('HSET', hold, 'units', ARGV[3], 'lease', ARGV[6])
redis.call('PEXPIRE', hold, ARGV[6])
redis.call('SADD', holds, ARGV[2])
return {1, spent, held}
";

/// Record a call, and shrink and renew its hold, in one step, once: a second
/// run with the same record id (made again after a dropped connection) does
/// nothing. ARGV: key prefix, at (ms), group, action, db, items, rows, units
/// used, balance ('' when none), cache hit (1/0), units saved, hold id (''
/// when none), units the call reserved, the operation's field suffix, ledger
/// length kept, record id.
const RECORD: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local prefix = ARGV[1]
if not redis.call('SET', prefix .. 'recorded:' .. ARGV[16], '1', 'NX', 'PX', 60000) then
  return 0
end
local day = math.floor(tonumber(ARGV[2]) / 86400000)
redis.call('XADD', prefix .. 'ledger', 'MAXLEN', '~', ARGV[15], '*',
  'at_ms', ARGV[2], 'group', ARGV[3], 'action', ARGV[4], 'db', ARGV[5],
  'items', ARGV[6], 'rows', ARGV[7], 'units_used', ARGV[8], 'balance', ARGV[9],
  'cache_hit', ARGV[10], 'units_saved', ARGV[11])
local totals = prefix .. 'day:' .. day
local op = ARGV[14]
if ARGV[10] == '1' then
  redis.call('HINCRBY', totals, 'cache_hits' .. op, 1)
  redis.call('HINCRBY', totals, 'units_saved' .. op, ARGV[11])
else
  redis.call('HINCRBY', totals, 'calls' .. op, 1)
  redis.call('HINCRBY', totals, 'units_used' .. op, ARGV[8])
  redis.call('HINCRBY', totals, 'rows' .. op, ARGV[7])
  redis.call('INCRBY', prefix .. 'spent:' .. day, ARGV[8])
end
redis.call('ZADD', prefix .. 'days', day, day)
if ARGV[9] ~= '' then
  redis.call('HSET', prefix .. 'balance', 'units_remaining', ARGV[9], 'at_ms', ARGV[2])
end
if ARGV[12] ~= '' then
  local hold = prefix .. 'hold:' .. ARGV[12]
  local units = redis.call('HGET', hold, 'units')
  if units then
    redis.call('HSET', hold, 'units', math.max(tonumber(units) - tonumber(ARGV[13]), 0))
    redis.call('PEXPIRE', hold, redis.call('HGET', hold, 'lease'))
  end
end
local at = tonumber(ARGV[2])
for i = 0, tonumber(ARGV[17] or '0') - 1 do
  local base = 18 + i * 5
  local thing = ARGV[base]
  redis.call('HINCRBY', prefix .. 'drift:count', thing, ARGV[base + 1])
  redis.call('HINCRBY', prefix .. 'drift:rows', thing, ARGV[base + 2])
  local first = tonumber(redis.call('HGET', prefix .. 'drift:first', thing) or at)
  if at <= first then
    redis.call('HSET', prefix .. 'drift:first', thing, at)
    redis.call('HSET', prefix .. 'drift:example', thing, ARGV[base + 4])
  end
  local last = tonumber(redis.call('HGET', prefix .. 'drift:last', thing) or at)
  redis.call('HSET', prefix .. 'drift:last', thing, math.max(last, at))
  local types = tonumber(redis.call('HGET', prefix .. 'drift:types', thing) or 0)
  redis.call('HSET', prefix .. 'drift:types', thing, bit.bor(types, tonumber(ARGV[base + 3])))
end
return 0
";

/// A Redis store.
pub(crate) struct Redis {
    /// The URL, any password hidden.
    name: String,
    /// The password, to hide should the driver ever repeat it in a message.
    password: Option<String>,
    client: Client,
    /// The connection, once opened; `None` again after one is lost.
    connection: Mutex<Option<MultiplexedConnection>>,
    take_slot: Script,
    settle_slot: Script,
    admit: Script,
    record: Script,
}

impl Redis {
    /// The store at `url`: checked now, connected to on the first call.
    pub(crate) fn open(url: &str) -> Result<Redis, StoreError> {
        let name = shown_store_url(url);
        let password = url_password(url);
        let client = Client::open(url).map_err(|e| {
            StoreError::new(
                name.clone(),
                hidden(format!("not a usable Redis URL: {e}"), password.as_deref()),
            )
        })?;
        Ok(Redis {
            name,
            password,
            client,
            connection: Mutex::new(None),
            take_slot: Script::new(TAKE_SLOT),
            settle_slot: Script::new(SETTLE_SLOT),
            admit: Script::new(ADMIT),
            record: Script::new(RECORD),
        })
    }

    /// The shared connection, opened if there is none.
    async fn connection(&self) -> Result<MultiplexedConnection, StoreError> {
        if let Some(connection) = self.slot().as_ref() {
            return Ok(connection.clone());
        }
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(RESPONSE_TIMEOUT));
        let connection = self
            .client
            .get_multiplexed_async_connection_with_config(&config)
            .await
            .map_err(|e| self.failure("connecting", e))?;
        // Two calls may both have connected: either connection serves.
        *self.slot() = Some(connection.clone());
        Ok(connection)
    }

    fn slot(&self) -> std::sync::MutexGuard<'_, Option<MultiplexedConnection>> {
        self.connection
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Make `call` on the shared connection. When Redis turns out to have
    /// closed it (a restart, `CLIENT KILL`, a proxy's idle timeout), the call
    /// is made once more on a new connection, so that a blip fails no job.
    /// A write that reached Redis before its connection dropped is so made
    /// twice, which changes nothing: each sets what it sets, a slot and a
    /// hold keep their ids, and a ledger row carries an id its script records
    /// once. A connection lost otherwise (a timeout) is forgotten, so that
    /// the next call connects again; any failure names the store.
    async fn run<T, F, Fut>(&self, what: &str, call: F) -> Result<T, StoreError>
    where
        F: Fn(MultiplexedConnection) -> Fut,
        Fut: Future<Output = RedisResult<T>>,
    {
        let result = match call(self.connection().await?).await {
            Err(error) if dropped(&error) => {
                tracing::debug!(store = %self.name, %error, "Redis closed the connection: the call is made again on a new one");
                *self.slot() = None;
                call(self.connection().await?).await
            }
            result => result,
        };
        result.map_err(|e| {
            if dropped(&e) || e.is_io_error() || e.is_timeout() {
                *self.slot() = None;
            }
            self.failure(what, e)
        })
    }

    fn failure(&self, what: &str, error: RedisError) -> StoreError {
        let message = if error.is_connection_refusal()
            || error.is_io_error()
            || error.is_connection_dropped()
            || error.is_timeout()
        {
            format!("{what}: Redis cannot be reached ({error})")
        } else {
            format!("{what}: Redis answered with an error ({error})")
        };
        StoreError::new(self.name.clone(), hidden(message, self.password.as_deref()))
            .caused_by(error)
    }
}

impl Redis {
    /// The `RECORD` script's call for `entry`, recorded once under `id`.
    fn record_invocation(
        &self,
        scope: &Scope,
        entry: &LedgerEntry,
        id: &str,
    ) -> redis::ScriptInvocation<'_> {
        let (hold_id, reserved) = entry.hold.clone().unwrap_or_default();
        let mut invocation = self.record.prepare_invoke();
        invocation
            .arg(prefix(scope))
            .arg(entry.at_ms)
            .arg(&entry.group)
            .arg(&entry.action)
            .arg(&entry.db)
            .arg(entry.items)
            .arg(entry.rows.max(0))
            .arg(entry.units_used.max(0))
            .arg(entry.balance.map(|b| b.to_string()).unwrap_or_default())
            .arg(i64::from(entry.cache_hit))
            .arg(entry.units_saved)
            .arg(hold_id)
            .arg(reserved)
            .arg(format!(
                "{SEPARATOR}{}{SEPARATOR}{}",
                entry.group, entry.action
            ))
            .arg(LEDGER_KEPT)
            .arg(id)
            .arg(entry.drift.len());
        for observed in &entry.drift {
            invocation
                .arg(drift_field(observed))
                .arg(observed.count)
                .arg(observed.rows)
                .arg(observed.types.bits())
                .arg(&observed.example);
        }
        invocation
    }
}

/// Whether `error` says the connection is gone (closed by the server, reset,
/// cut): a new one may well work.
fn dropped(error: &RedisError) -> bool {
    error.is_connection_dropped() || error.is_unrecoverable_error()
}

/// The password in a URL's user part (`redis://user:PASSWORD@host`), as
/// [`shown_store_url`] finds it.
fn url_password(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let (userinfo, _) = rest.split_once('@')?;
    let password = userinfo.split_once(':').map_or(userinfo, |(_, p)| p);
    Some(password.to_owned()).filter(|p| !p.is_empty())
}

/// `message` with `password` hidden, should the driver ever repeat it.
fn hidden(message: String, password: Option<&str>) -> String {
    match password {
        Some(password) => message.replace(password, "<hidden>"),
        None => message,
    }
}

/// Where the keys of a scope start.
fn prefix(scope: &Scope) -> String {
    format!("seozoom:{{{}}}:", scope.0)
}

fn day(at_ms: i64) -> i64 {
    at_ms.div_euclid(DAY_MS)
}

/// The balance hash's two fields (`HMGET ... units_remaining at_ms`), if
/// both are there.
fn balance_of(fields: &[Option<i64>]) -> Option<Balance> {
    match fields {
        [Some(units_remaining), Some(at_ms)] => Some(Balance {
            units_remaining: *units_remaining,
            at_ms: *at_ms,
        }),
        _ => None,
    }
}

impl Backend for Redis {
    fn name(&self) -> &str {
        &self.name
    }

    fn scope(&self, api_key: &str) -> Scope {
        fingerprint::scope(api_key)
    }

    fn shared_slots(&self) -> Option<&dyn SharedSlots> {
        Some(self)
    }

    fn cache_get<'a>(&'a self, scope: &'a Scope, keys: &'a [String]) -> StoreFuture<'a, Lookup> {
        async move {
            let prefix = prefix(scope);
            // One round trip: the entries and the balance, pipelined.
            let mut pipe = redis::pipe();
            pipe.cmd("HMGET")
                .arg(format!("{prefix}balance"))
                .arg("units_remaining")
                .arg("at_ms");
            if !keys.is_empty() {
                let get = pipe.cmd("MGET");
                for key in keys {
                    get.arg(format!("{prefix}cache:{key}"));
                }
            }
            let pipe = &pipe;
            let (balance, entries): (Vec<Option<i64>>, Vec<Option<Vec<u8>>>) = if keys.is_empty() {
                let (balance,): (Vec<Option<i64>>,) = self
                    .run("reading the cache", |mut c| async move {
                        pipe.query_async(&mut c).await
                    })
                    .await?;
                (balance, Vec::new())
            } else {
                self.run("reading the cache", |mut c| async move {
                    pipe.query_async(&mut c).await
                })
                .await?
            };
            Ok(Lookup {
                entries,
                balance: balance_of(&balance),
            })
        }
        .boxed()
    }

    fn cache_put<'a>(&'a self, scope: &'a Scope, entries: Vec<CacheEntry>) -> StoreFuture<'a, ()> {
        async move {
            if entries.is_empty() {
                return Ok(());
            }
            let prefix = prefix(scope);
            let mut pipe = redis::pipe();
            for (key, bytes, keep) in &entries {
                let set = pipe
                    .cmd("SET")
                    .arg(format!("{prefix}cache:{key}"))
                    .arg(bytes);
                if let Some(keep) = keep {
                    set.arg("PX").arg(duration_ms(*keep).max(1));
                }
                set.ignore();
            }
            let pipe = &pipe;
            self.run("writing the cache", |mut c| async move {
                pipe.query_async::<()>(&mut c).await
            })
            .await
        }
        .boxed()
    }

    fn record<'a>(&'a self, scope: &'a Scope, entry: LedgerEntry) -> StoreFuture<'a, ()> {
        async move {
            // Made again on a new connection, the call is recorded once.
            let invocation = &self.record_invocation(scope, &entry, &slot_id());
            self.run("recording the call", |mut c| async move {
                invocation.invoke_async::<()>(&mut c).await
            })
            .await
        }
        .boxed()
    }

    fn usage<'a>(&'a self, scope: &'a Scope, since_ms: i64) -> StoreFuture<'a, Vec<Usage>> {
        async move {
            let prefix = prefix(scope);
            let days = redis::cmd("ZRANGEBYSCORE")
                .arg(format!("{prefix}days"))
                .arg(day(since_ms))
                .arg("+inf")
                .clone();
            let (days, prefix) = (&days, &prefix);
            let totals = self
                .run("reading the ledger", |mut c| async move {
                    let days: Vec<i64> = days.query_async(&mut c).await?;
                    if days.is_empty() {
                        return Ok(Vec::new());
                    }
                    let mut pipe = redis::pipe();
                    for day in &days {
                        pipe.cmd("HGETALL").arg(format!("{prefix}day:{day}"));
                    }
                    pipe.query_async::<Vec<Vec<(String, i64)>>>(&mut c).await
                })
                .await?;
            Ok(sum_days(totals))
        }
        .boxed()
    }

    fn last_balance<'a>(&'a self, scope: &'a Scope) -> StoreFuture<'a, Option<Balance>> {
        async move {
            let read = redis::cmd("HMGET")
                .arg(format!("{}balance", prefix(scope)))
                .arg("units_remaining")
                .arg("at_ms")
                .clone();
            let read = &read;
            let fields: Vec<Option<i64>> = self
                .run("reading the ledger", |mut c| async move {
                    read.query_async(&mut c).await
                })
                .await?;
            Ok(balance_of(&fields))
        }
        .boxed()
    }

    fn drift<'a>(&'a self, scope: &'a Scope) -> StoreFuture<'a, Vec<Observation>> {
        async move {
            let prefix = prefix(scope);
            let mut pipe = redis::pipe();
            for hash in DRIFT_HASHES {
                pipe.cmd("HGETALL").arg(format!("{prefix}drift:{hash}"));
            }
            let pipe = &pipe;
            let hashes: Vec<BTreeMap<String, String>> = self
                .run("reading the drift", |mut c| async move {
                    pipe.query_async(&mut c).await
                })
                .await?;
            Ok(drift_of(&hashes))
        }
        .boxed()
    }

    fn admit<'a>(&'a self, scope: &'a Scope, hold: Hold) -> StoreFuture<'a, Admission> {
        async move {
            let mut invocation = self.admit.prepare_invoke();
            invocation
                .arg(prefix(scope))
                .arg(&hold.id)
                .arg(hold.units)
                .arg(hold.budget)
                .arg(day(hold.window_start_ms))
                .arg(duration_ms(hold.lease).max(1));
            let invocation = &invocation;
            let (admitted, spent, held): (i64, i64, i64) = self
                .run("holding budget units", |mut c| async move {
                    invocation.invoke_async(&mut c).await
                })
                .await?;
            Ok(if admitted == 1 {
                Admission::Admitted
            } else {
                Admission::Refused { spent, held }
            })
        }
        .boxed()
    }

    fn release<'a>(&'a self, scope: &'a Scope, hold_id: &'a str) -> StoreFuture<'a, ()> {
        async move {
            let prefix = prefix(scope);
            let mut pipe = redis::pipe();
            pipe.atomic()
                .cmd("DEL")
                .arg(format!("{prefix}hold:{hold_id}"))
                .ignore()
                .cmd("SREM")
                .arg(format!("{prefix}holds"))
                .arg(hold_id)
                .ignore();
            let pipe = &pipe;
            self.run("releasing budget units", |mut c| async move {
                pipe.query_async::<()>(&mut c).await
            })
            .await
        }
        .boxed()
    }
}

impl SharedSlots for Redis {
    fn take_slot<'a>(
        &'a self,
        scope: &'a Scope,
        operation: &'a str,
        figure: i64,
        window: Duration,
        in_flight: Duration,
    ) -> StoreFuture<'a, Result<String, Duration>> {
        async move {
            let id = slot_id();
            let mut invocation = self.take_slot.prepare_invoke();
            invocation
                .key(format!("{}slots:{operation}", prefix(scope)))
                .key(format!("{}flight:{operation}", prefix(scope)))
                .arg(figure)
                .arg(duration_ms(window).max(1))
                .arg(duration_ms(in_flight))
                .arg(&id);
            let invocation = &invocation;
            let wait: i64 = self
                .run("taking a rate-limit slot", |mut c| async move {
                    invocation.invoke_async(&mut c).await
                })
                .await?;
            Ok(match wait {
                0 => Ok(id),
                w if w < 0 => Err(poll_interval(window)),
                w => Err(Duration::from_millis(u64::try_from(w).unwrap_or(1)).min(window)),
            })
        }
        .boxed()
    }

    fn settle_slot<'a>(
        &'a self,
        scope: &'a Scope,
        operation: &'a str,
        id: &'a str,
        window: Duration,
    ) -> StoreFuture<'a, ()> {
        async move {
            let mut invocation = self.settle_slot.prepare_invoke();
            invocation
                .key(format!("{}slots:{operation}", prefix(scope)))
                .key(format!("{}flight:{operation}", prefix(scope)))
                .arg(duration_ms(window).max(1))
                .arg(id);
            let invocation = &invocation;
            let _: i64 = self
                .run("settling a rate-limit slot", |mut c| async move {
                    invocation.invoke_async(&mut c).await
                })
                .await?;
            Ok(())
        }
        .boxed()
    }
}

/// The drift hashes, in the order [`drift_of`] reads them.
const DRIFT_HASHES: [&str; 6] = ["count", "rows", "first", "last", "types", "example"];

/// The hash field of the thing `observed` is: a JSON array of what identifies
/// it (any text may be in a member's name, so no separator would do).
fn drift_field(observed: &Observation) -> String {
    let (origin, group, action, record, member, kind) = observed.key();
    serde_json::json!([origin, group, action, record, member, kind.as_str()]).to_string()
}

/// The observations in the drift hashes ([`DRIFT_HASHES`]' order), in
/// report order; a field that does not read is left out.
fn drift_of(hashes: &[BTreeMap<String, String>]) -> Vec<Observation> {
    let [count, rows, first, last, types, example] = hashes else {
        return Vec::new();
    };
    let number = |hash: &BTreeMap<String, String>, field: &str| -> i64 {
        hash.get(field).and_then(|v| v.parse().ok()).unwrap_or(0)
    };
    let mut observed: Vec<Observation> = count
        .keys()
        .filter_map(|field| {
            let parts: Vec<String> = serde_json::from_str(field).ok()?;
            let [origin, group, action, record, member, kind] =
                <[String; 6]>::try_from(parts).ok()?;
            Some(Observation {
                origin,
                group,
                action,
                record,
                member,
                kind: DriftKind::from_name(&kind)?,
                count: number(count, field),
                rows: number(rows, field),
                first_ms: number(first, field),
                last_ms: number(last, field),
                types: JsonTypeSet::from_bits(u8::try_from(number(types, field)).unwrap_or(0)),
                example: example.get(field).cloned().unwrap_or_default(),
            })
        })
        .collect();
    observed.sort_by_key(Observation::key);
    observed
}

/// Totals per operation from days' `METRIC␟GROUP␟ACTION` fields, ordered by
/// group and action.
fn sum_days(days: Vec<Vec<(String, i64)>>) -> Vec<Usage> {
    let mut totals: BTreeMap<(String, String), Usage> = BTreeMap::new();
    for (field, value) in days.into_iter().flatten() {
        let mut parts = field.splitn(3, SEPARATOR);
        let (Some(metric), Some(group), Some(action)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let usage = totals
            .entry((group.to_owned(), action.to_owned()))
            .or_insert_with(|| Usage {
                group: group.to_owned(),
                action: action.to_owned(),
                calls: 0,
                cache_hits: 0,
                units_used: 0,
                units_saved: 0,
                rows: 0,
            });
        let total = match metric {
            "calls" => &mut usage.calls,
            "cache_hits" => &mut usage.cache_hits,
            "units_used" => &mut usage.units_used,
            "units_saved" => &mut usage.units_saved,
            "rows" => &mut usage.rows,
            _ => continue,
        };
        *total = total.saturating_add(value);
    }
    totals.into_values().collect()
}

#[cfg(test)]
mod tests;
