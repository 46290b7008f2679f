//! The drift a SQLite store keeps: one row per key and thing observed
//! (origin, operation, record, member, kind), summed as calls record more.

use rusqlite::{Connection, Transaction, params};

use crate::drift::{DriftKind, JsonTypeSet, Observation};
use crate::store::Scope;

/// The table, created when a file is opened (added to schema 1 before any
/// release, as `balance` was: a file without it gets it).
pub(super) const TABLE: &str = "CREATE TABLE IF NOT EXISTS drift (
    scope TEXT NOT NULL,
    origin TEXT NOT NULL,
    grp TEXT NOT NULL,
    action TEXT NOT NULL,
    record TEXT NOT NULL,
    member TEXT NOT NULL,
    kind TEXT NOT NULL,
    count INTEGER NOT NULL,
    rows INTEGER NOT NULL,
    first_ms INTEGER NOT NULL,
    last_ms INTEGER NOT NULL,
    types INTEGER NOT NULL,
    example TEXT NOT NULL,
    PRIMARY KEY (scope, origin, grp, action, record, member, kind)
) WITHOUT ROWID;";

/// A call's observations added to what the store has, in the call's
/// transaction: counts summed, first and last times widened, types joined,
/// the earliest example kept. Nothing is done for a call that saw none.
pub(super) fn record(
    transaction: &Transaction<'_>,
    scope: &Scope,
    drift: &[Observation],
) -> rusqlite::Result<()> {
    if drift.is_empty() {
        return Ok(());
    }
    // In SET, a column names the row as it was before the update.
    let mut statement = transaction.prepare_cached(
        "INSERT INTO drift (scope, origin, grp, action, record, member, kind, count, rows, \
         first_ms, last_ms, types, example) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13) \
         ON CONFLICT (scope, origin, grp, action, record, member, kind) DO UPDATE SET \
         count = count + excluded.count, rows = rows + excluded.rows, \
         example = CASE WHEN excluded.first_ms < first_ms THEN excluded.example ELSE example END, \
         first_ms = min(first_ms, excluded.first_ms), last_ms = max(last_ms, excluded.last_ms), \
         types = types | excluded.types",
    )?;
    for o in drift {
        statement.execute(params![
            scope.0,
            o.origin,
            o.group,
            o.action,
            o.record,
            o.member,
            o.kind.as_str(),
            o.count,
            o.rows,
            o.first_ms,
            o.last_ms,
            o.types.bits(),
            o.example,
        ])?;
    }
    Ok(())
}

/// Every observation of the key, in report order (a kind this build does
/// not know, written by a newer one, is left out).
pub(super) fn read(connection: &Connection, scope: &str) -> rusqlite::Result<Vec<Observation>> {
    let mut statement = connection.prepare_cached(
        "SELECT origin, grp, action, record, member, kind, count, rows, first_ms, last_ms, \
         types, example FROM drift WHERE scope = ?1 \
         ORDER BY origin, grp, action, record, member, kind",
    )?;
    let rows = statement.query_map(params![scope], |row| {
        let kind: String = row.get(5)?;
        let Some(kind) = DriftKind::from_name(&kind) else {
            return Ok(None);
        };
        Ok(Some(Observation {
            origin: row.get(0)?,
            group: row.get(1)?,
            action: row.get(2)?,
            record: row.get(3)?,
            member: row.get(4)?,
            kind,
            count: row.get(6)?,
            rows: row.get(7)?,
            first_ms: row.get(8)?,
            last_ms: row.get(9)?,
            types: JsonTypeSet::from_bits(row.get(10)?),
            example: row.get(11)?,
        }))
    })?;
    let mut observed: Vec<Observation> = rows
        .filter_map(|row| row.transpose())
        .collect::<rusqlite::Result<_>>()?;
    // The kinds' order is the report's, not their names'.
    observed.sort_by_key(Observation::key);
    Ok(observed)
}
