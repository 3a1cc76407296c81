/**
 * statusd's own eyes, once for both engines: the probe schedule claimed as a lease, the warning
 * memory, finished episodes and members' reports (domain/store/warnings.ts).
 * @module
 */
import {
  type Change,
  type EarlyWarningChange,
  EPISODES_KEPT_PER_VENDOR,
  type EpochMs,
  type FinishedEpisode,
  GRADE_WINDOW_DAYS,
  type GradedEpisode,
  phaseOf,
  QUIET,
  REPORT_WINDOW_MS,
  REPORTS_KEPT_PER_ACCOUNT,
  type WarningState,
  type WarningStore,
} from "../../domain/mod.ts";
import { DAY_MS } from "../../domain/mod.ts";
import type { ChangeLog } from "./change_feed.ts";
import { all, type Engine, first, type Query, type Row, run } from "./query.ts";
import { openSql } from "./sql.ts";

/** A stored state, or the quiet one when the row holds nothing readable. */
function stateOf(text: unknown): WarningState {
  try {
    const s = JSON.parse(String(text ?? "{}"));
    return s && typeof s === "object" && "episode" in s ? s as WarningState : QUIET;
  } catch {
    return QUIET;
  }
}

function answeredOf(text: unknown): Record<string, number> {
  try {
    const a = JSON.parse(String(text ?? "{}"));
    return a && typeof a === "object" && !Array.isArray(a) ? a : {};
  } catch {
    return {};
  }
}

function stringsOf(text: unknown): string[] {
  try {
    const a = JSON.parse(String(text ?? "[]"));
    return Array.isArray(a) ? a.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

/** Appends `changes` to the change log in the writer's transaction; returns them with ids. */
function* appendChanges(
  log: ChangeLog,
  at: EpochMs,
  changes: readonly EarlyWarningChange[],
): Query<Change[]> {
  if (changes.length === 0) return [];
  if (log.lockSql !== null) yield* all(log.lockSql);
  const out: Change[] = [];
  for (const c of changes) {
    const [row] = yield* all(
      "INSERT INTO changes (at, kind, vendor_slug, data) VALUES (?, ?, ?, ?) RETURNING id",
      at,
      c.kind,
      c.slug,
      JSON.stringify(c),
    );
    out.push({ ...c, id: Number(row!.id), at });
  }
  if (log.notifySql !== null) yield* all(log.notifySql);
  return out;
}

const num = (v: unknown): number | null => v === null || v === undefined ? null : Number(v);

function* insertEpisode(vendorId: number, e: FinishedEpisode): Query<void> {
  yield* run(
    `INSERT INTO warning_episodes (vendor_id, first_evidence_at, suspected_at, acknowledged_at,
       cleared_at, delay_ms, evidence, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    vendorId,
    e.firstEvidenceAt,
    e.suspectedAt,
    e.acknowledgedAt,
    e.clearedAt,
    e.delayMs,
    e.evidence,
    JSON.stringify({
      failed: e.failed,
      total: e.total,
      hosts: e.hosts,
      reporters: e.reporters,
      component: e.component,
    }),
  );
}

/** The warnings noun over `engine`, appending its changes through `log`. */
export function warningStore(engine: Engine, log: ChangeLog): WarningStore {
  return {
    claimDue(now, limit, scope, intervalMs) {
      return engine.write((function* () {
        // Monitored: by an unpaused monitor, or reported lately by a member; and a vendor whose
        // episode is open, until it ends.
        const watched = scope === "monitored"
          ? `AND (w.phase IS NOT NULL OR EXISTS (SELECT 1 FROM monitors m WHERE m.service_slug = v.slug AND m.paused = 0)
               OR EXISTS (SELECT 1 FROM member_reports r
                 WHERE r.vendor_id = v.id AND r.created_at >= ?))`
          : "";
        const rows = yield* all(
          `SELECT v.id, v.slug, v.domains, v.status_page_url, w.targets, w.state,
             COALESCE(w.next_probe_at, 0) AS due
           FROM vendors v LEFT JOIN vendor_warnings w ON w.vendor_id = v.id
           WHERE v.in_catalog = 1 AND COALESCE(w.next_probe_at, 0) <= ? ${watched}
           ORDER BY due, v.id LIMIT ?`,
          now,
          ...(scope === "monitored" ? [now - REPORT_WINDOW_MS] : []),
          limit,
        );
        const claimed = [];
        for (const r of rows) {
          // The claim is the schedule itself: of two instances claiming at once, the second's
          // update finds the round already moved past `now` and touches nothing.
          const won = yield* run(
            `INSERT INTO vendor_warnings (vendor_id, next_probe_at) VALUES (?, ?)
             ON CONFLICT (vendor_id) DO UPDATE SET next_probe_at = excluded.next_probe_at
             WHERE vendor_warnings.next_probe_at <= ?`,
            Number(r.id),
            now + intervalMs,
            now,
          );
          if (won === 0) continue;
          claimed.push({
            vendorId: Number(r.id),
            slug: String(r.slug),
            domains: stringsOf(r.domains),
            statusPageUrl: String(r.status_page_url),
            answered: answeredOf(r.targets),
            state: stateOf(r.state),
          });
        }
        return claimed;
      })());
    },

    recentReports(vendorId, since) {
      return engine.read((function* () {
        const r = yield* first(
          `SELECT COUNT(DISTINCT reporter) AS reporters, MIN(created_at) AS first_at,
             MAX(created_at) AS last_at
           FROM member_reports WHERE vendor_id = ? AND created_at >= ?`,
          vendorId,
          since,
        );
        if (!r || Number(r.reporters) === 0) return null;
        const latest = yield* first(
          `SELECT component FROM member_reports WHERE vendor_id = ? AND created_at >= ?
           ORDER BY created_at DESC, id DESC LIMIT 1`,
          vendorId,
          since,
        );
        return {
          reporters: Number(r.reporters),
          firstAt: Number(r.first_at),
          lastAt: Number(r.last_at),
          component: latest?.component === null || latest?.component === undefined
            ? null
            : String(latest.component),
        };
      })());
    },

    acknowledgedAt(vendorId, from, until) {
      return engine.read((function* () {
        const times: number[] = [];
        const v = yield* first(
          "SELECT current_status, last_changed_at FROM vendors WHERE id = ?",
          vendorId,
        );
        if (
          v && v.current_status !== "OPERATIONAL" && v.current_status !== "UNKNOWN" &&
          v.last_changed_at !== null
        ) {
          times.push(Number(v.last_changed_at));
        }
        const t = yield* first(
          `SELECT MIN(at) AS at FROM transitions WHERE vendor_id = ? AND component_id IS NULL
             AND at >= ? AND to_status NOT IN ('OPERATIONAL', 'UNKNOWN')`,
          vendorId,
          from,
        );
        if (t?.at !== null && t?.at !== undefined) times.push(Number(t.at));
        // An incident live at or after `from` that started by `until`, dated by when the vendor
        // first wrote about it (its start when it has no update).
        const i = yield* first(
          `SELECT MIN(COALESCE(
               (SELECT MIN(u.at) FROM incident_updates u WHERE u.incident_id = i.id), i.started_at
             )) AS at
           FROM incidents i
           WHERE i.vendor_id = ? AND i.started_at <= ? AND i.removed_at IS NULL
             AND (${openSql("i")} OR i.resolved_at >= ? OR i.updated_at >= ?)`,
          vendorId,
          until,
          from,
          from,
        );
        if (i?.at !== null && i?.at !== undefined) times.push(Number(i.at));
        return times.length === 0 ? null : Math.min(...times);
      })());
    },

    async record(vendorId, record, now) {
      const committed = await engine.write((function* (): Query<Change[]> {
        yield* run(
          `INSERT INTO vendor_warnings (vendor_id, targets, state, phase, updated_at)
           VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (vendor_id) DO UPDATE SET targets = excluded.targets,
             state = excluded.state, phase = excluded.phase, updated_at = excluded.updated_at`,
          vendorId,
          JSON.stringify(record.answered),
          JSON.stringify(record.state),
          phaseOf(record.state),
          now,
        );
        if (record.finished.length > 0) {
          for (const e of record.finished) yield* insertEpisode(vendorId, e);
          yield* run(
            "DELETE FROM warning_episodes WHERE vendor_id = ? AND first_evidence_at < ?",
            vendorId,
            now - GRADE_WINDOW_DAYS * DAY_MS,
          );
          yield* run(
            `DELETE FROM warning_episodes WHERE vendor_id = ? AND id NOT IN (
               SELECT id FROM warning_episodes WHERE vendor_id = ?
               ORDER BY first_evidence_at DESC, id DESC LIMIT ?)`,
            vendorId,
            vendorId,
            EPISODES_KEPT_PER_VENDOR,
          );
        }
        // Last: on PostgreSQL the change log's turn is held from here until the commit.
        return yield* appendChanges(log, now, record.changes ?? []);
      })());
      if (committed.length > 0) await log.published(committed);
    },

    open() {
      return engine.read((function* () {
        const rows = yield* all(
          `SELECT v.slug, w.state, w.updated_at FROM vendor_warnings w
           JOIN vendors v ON v.id = w.vendor_id WHERE w.phase IS NOT NULL ORDER BY v.slug`,
        );
        return rows.map(stored);
      })());
    },

    of(slug) {
      return engine.read((function* () {
        const r = yield* first(
          `SELECT v.slug, w.state, w.updated_at FROM vendor_warnings w
           JOIN vendors v ON v.id = w.vendor_id WHERE v.slug = ?`,
          slug,
        );
        return r ? stored(r) : null;
      })());
    },

    episodes(slug, since) {
      return engine.read((function* () {
        const rows = yield* all(
          `SELECT e.first_evidence_at, e.acknowledged_at, e.delay_ms FROM warning_episodes e
           JOIN vendors v ON v.id = e.vendor_id
           WHERE v.slug = ? AND e.first_evidence_at >= ? ORDER BY e.first_evidence_at, e.id`,
          slug,
          since,
        );
        return rows.map((r): GradedEpisode => ({
          firstEvidenceAt: Number(r.first_evidence_at),
          delayMs: Number(r.delay_ms),
          acknowledged: r.acknowledged_at !== null,
        }));
      })());
    },

    addReport(report, before) {
      return engine.write((function* () {
        const v = yield* first("SELECT id FROM vendors WHERE slug = ?", report.slug);
        if (!v) return false;
        yield* run(
          `INSERT INTO member_reports (id, account_id, reporter, vendor_id, component, note,
             created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
          report.id,
          report.accountId,
          report.reporter,
          Number(v.id),
          report.component,
          report.note,
          report.at,
        );
        yield* run(
          "DELETE FROM member_reports WHERE vendor_id = ? AND created_at < ?",
          Number(v.id),
          before,
        );
        yield* run(
          `DELETE FROM member_reports WHERE account_id = ? AND id NOT IN (
             SELECT id FROM member_reports WHERE account_id = ?
             ORDER BY created_at DESC, id DESC LIMIT ?)`,
          report.accountId,
          report.accountId,
          REPORTS_KEPT_PER_ACCOUNT,
        );
        return true;
      })());
    },

    reportsOf(accountId, limit) {
      return engine.read((function* () {
        const rows = yield* all(
          `SELECT r.id, r.reporter, v.slug, r.component, r.note, r.created_at
           FROM member_reports r JOIN vendors v ON v.id = r.vendor_id
           WHERE r.account_id = ? ORDER BY r.created_at DESC, r.id DESC LIMIT ?`,
          accountId,
          limit,
        );
        return rows.map((r) => ({
          id: String(r.id),
          reporter: String(r.reporter),
          slug: String(r.slug),
          component: r.component === null ? null : String(r.component),
          note: String(r.note),
          at: Number(r.created_at),
        }));
      })());
    },
  };
}

function stored(r: Row) {
  return { slug: String(r.slug), state: stateOf(r.state), updatedAt: num(r.updated_at) ?? 0 };
}
