/**
 * statusd's own eyes, once for both engines: the probe schedule claimed as a lease, the warning
 * memory, finished episodes and members' reports (domain/store/warnings.ts).
 * @module
 */
import {
  ACKNOWLEDGE_LOOKBACK_MS,
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
  type TargetAnswer,
  type WarningState,
  type WarningStore,
} from "../../domain/mod.ts";
import { DAY_MS } from "../../domain/mod.ts";
import type { ChangeLog } from "./change_feed.ts";
import { all, type Engine, first, type Query, type Row, run } from "./query.ts";
import { maintenanceSql } from "./sql.ts";

/** A stored state, or the quiet one when the row holds nothing readable. */
function stateOf(text: unknown): WarningState {
  try {
    const s = JSON.parse(String(text ?? "{}"));
    return s && typeof s === "object" && "episode" in s ? s as WarningState : QUIET;
  } catch {
    return QUIET;
  }
}

/**
 * The stored memory of a vendor's targets: `{"answered": {url: ms}, "last": {url: answer}}`
 * (rows written before the last answers were kept hold the `answered` map alone).
 */
function targetsOf(text: unknown): {
  answered: Record<string, number>;
  lastAnswers: Record<string, TargetAnswer>;
} {
  try {
    const a = JSON.parse(String(text ?? "{}"));
    if (!a || typeof a !== "object" || Array.isArray(a)) return { answered: {}, lastAnswers: {} };
    if (a.answered && typeof a.answered === "object") {
      return {
        answered: a.answered,
        lastAnswers: a.last && typeof a.last === "object" ? a.last : {},
      };
    }
    return { answered: a, lastAnswers: {} };
  } catch {
    return { answered: {}, lastAnswers: {} };
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
          `SELECT v.id, v.slug, v.domains, v.status_page_url, v.probes, w.targets, w.state,
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
          const targets = targetsOf(r.targets);
          claimed.push({
            vendorId: Number(r.id),
            slug: String(r.slug),
            domains: stringsOf(r.domains),
            statusPageUrl: String(r.status_page_url),
            probes: r.probes === null || r.probes === undefined ? null : stringsOf(r.probes),
            answered: targets.answered,
            lastAnswers: targets.lastAnswers,
            state: stateOf(r.state),
          });
        }
        return claimed;
      })());
    },

    recentReports(vendorId, since) {
      return engine.read((function* () {
        const r = yield* first(
          `SELECT COUNT(DISTINCT account_id) AS accounts, MIN(created_at) AS first_at,
             MAX(created_at) AS last_at
           FROM member_reports WHERE vendor_id = ? AND created_at >= ? AND counts = 1`,
          vendorId,
          since,
        );
        if (!r || Number(r.accounts) === 0) return null;
        return {
          accounts: Number(r.accounts),
          firstAt: Number(r.first_at),
          lastAt: Number(r.last_at),
        };
      })());
    },

    accountReports(since, only) {
      return engine.read((function* () {
        const rows = yield* all(
          `SELECT r.account_id, v.slug, COUNT(DISTINCT r.reporter) AS reporters,
             MIN(r.created_at) AS first_at, MAX(r.created_at) AS last_at
           FROM member_reports r JOIN vendors v ON v.id = r.vendor_id
           WHERE r.created_at >= ?${only ? " AND r.account_id = ? AND v.slug = ?" : ""}
           GROUP BY r.account_id, v.slug ORDER BY r.account_id, v.slug`,
          since,
          ...(only ? [only.accountId, only.slug] : []),
        );
        const out = [];
        for (const row of rows) {
          const latest = yield* first(
            `SELECT r.component FROM member_reports r JOIN vendors v ON v.id = r.vendor_id
             WHERE r.account_id = ? AND v.slug = ? AND r.created_at >= ?
             ORDER BY r.created_at DESC, r.id DESC LIMIT 1`,
            String(row.account_id),
            String(row.slug),
            since,
          );
          out.push({
            accountId: String(row.account_id),
            slug: String(row.slug),
            reporters: Number(row.reporters),
            firstAt: Number(row.first_at),
            lastAt: Number(row.last_at),
            component: latest?.component === null || latest?.component === undefined
              ? null
              : String(latest.component),
          });
        }
        return out;
      })());
    },

    reportsSince(accountId, since) {
      return engine.read((function* () {
        const rows = yield* all(
          `SELECT r.reporter, v.slug, r.created_at FROM member_reports r
           JOIN vendors v ON v.id = r.vendor_id
           WHERE r.account_id = ? AND r.created_at >= ? ORDER BY r.created_at, r.id`,
          accountId,
          since,
        );
        return rows.map((r) => ({
          reporter: String(r.reporter),
          slug: String(r.slug),
          at: Number(r.created_at),
        }));
      })());
    },

    acknowledgedAt(vendorId, firstEvidenceAt, until) {
      return engine.read((function* () {
        const times: { at: number; claimedStartAt: number | null }[] = [];
        // The vendor's level as statusd read it: already other than operational when the
        // evidence began (the vendor was first, from the reading that showed it), or the first
        // reading after that showed it so.
        const before = yield* first(
          `SELECT to_status, at FROM transitions WHERE vendor_id = ? AND component_id IS NULL
             AND at <= ? ORDER BY at DESC, id DESC LIMIT 1`,
          vendorId,
          firstEvidenceAt,
        );
        if (before && admits(before.to_status)) {
          // The reading that began the run of trouble it was in (after the last recovery).
          const run = yield* first(
            `SELECT MIN(t.at) AS at FROM transitions t WHERE t.vendor_id = ?
               AND t.component_id IS NULL AND t.at <= ? AND t.at > COALESCE((
                 SELECT MAX(r.at) FROM transitions r WHERE r.vendor_id = ?
                   AND r.component_id IS NULL AND r.at <= ?
                   AND r.to_status IN ('OPERATIONAL', 'UNKNOWN')), -1)`,
            vendorId,
            firstEvidenceAt,
            vendorId,
            firstEvidenceAt,
          );
          times.push({ at: Number(run!.at), claimedStartAt: null });
        } else {
          const after = yield* first(
            `SELECT MIN(at) AS at FROM transitions WHERE vendor_id = ? AND component_id IS NULL
               AND at > ? AND at <= ? AND to_status NOT IN ('OPERATIONAL', 'UNKNOWN')`,
            vendorId,
            firstEvidenceAt,
            until,
          );
          if (num(after?.at) !== null) times.push({ at: Number(after!.at), claimedStartAt: null });
          else if (!before) {
            // No transition kept from before the evidence: the vendor's row says since when.
            const v = yield* first(
              "SELECT current_status, last_changed_at FROM vendors WHERE id = ?",
              vendorId,
            );
            if (
              v && admits(v.current_status) && num(v.last_changed_at) !== null &&
              Number(v.last_changed_at) <= until
            ) times.push({ at: Number(v.last_changed_at), claimedStartAt: null });
          }
        }
        // An incident (not maintenance) statusd saw listed by \`until\`, not yet closed as statusd
        // saw it when the evidence began, and not claimed over before the evidence: dated by
        // when statusd first saw it listed, never by the start the vendor gives.
        const i = yield* first(
          `SELECT i.seen_at AS at, i.started_at FROM incidents i
           WHERE i.vendor_id = ? AND i.removed_at IS NULL AND NOT ${maintenanceSql("i")}
             AND i.seen_at IS NOT NULL AND i.seen_at <= ?
             AND (i.closed_seen_at IS NULL OR i.closed_seen_at >= ?)
             AND (i.resolved_at IS NULL OR i.resolved_at >= ?)
           ORDER BY i.seen_at, i.started_at, i.id LIMIT 1`,
          vendorId,
          until,
          firstEvidenceAt,
          firstEvidenceAt - ACKNOWLEDGE_LOOKBACK_MS,
        );
        if (num(i?.at) !== null) {
          times.push({ at: Number(i!.at), claimedStartAt: Number(i!.started_at) });
        }
        if (times.length === 0) return null;
        // The earliest sight; at the same moment, an incident says more than a level.
        return times.reduce((a, b) =>
          b.at < a.at || (b.at === a.at && b.claimedStartAt !== null) ? b : a
        );
      })());
    },

    async record(vendorId, record, now) {
      const committed = await engine.write((function* (): Query<Change[]> {
        const last = record.lastAnswers ?? targetsOf(
          (yield* first("SELECT targets FROM vendor_warnings WHERE vendor_id = ?", vendorId))
            ?.targets,
        ).lastAnswers;
        yield* run(
          `INSERT INTO vendor_warnings (vendor_id, targets, state, phase, updated_at)
           VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (vendor_id) DO UPDATE SET targets = excluded.targets,
             state = excluded.state, phase = excluded.phase, updated_at = excluded.updated_at`,
          vendorId,
          JSON.stringify({ answered: record.answered, last }),
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
          `SELECT v.id, v.slug, w.state, w.updated_at FROM vendor_warnings w
           JOIN vendors v ON v.id = w.vendor_id WHERE w.phase IS NOT NULL ORDER BY v.slug`,
        );
        return rows.map(stored);
      })());
    },

    of(slug) {
      return engine.read((function* () {
        const r = yield* first(
          `SELECT v.id, v.slug, w.state, w.updated_at FROM vendor_warnings w
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
        // It weighs in public when the account had monitored the vendor since `standingSince`.
        const standing = yield* first(
          `SELECT 1 AS yes FROM monitors WHERE account_id = ? AND service_slug = ?
             AND created_at <= ? LIMIT 1`,
          report.accountId,
          report.slug,
          report.standingSince,
        );
        yield* run(
          `INSERT INTO member_reports (id, account_id, reporter, vendor_id, component, note,
             created_at, counts) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          report.id,
          report.accountId,
          report.reporter,
          Number(v.id),
          report.component,
          report.note,
          report.at,
          standing ? 1 : 0,
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

    targets(slug) {
      return engine.read((function* () {
        const r = yield* first(
          `SELECT v.domains, v.status_page_url, v.probes, w.targets FROM vendors v
           LEFT JOIN vendor_warnings w ON w.vendor_id = v.id WHERE v.slug = ?`,
          slug,
        );
        if (!r) return null;
        return {
          domains: stringsOf(r.domains),
          statusPageUrl: String(r.status_page_url),
          probes: r.probes === null || r.probes === undefined ? null : stringsOf(r.probes),
          lastAnswers: targetsOf(r.targets).lastAnswers,
        };
      })());
    },

    backdated(slug, since, limit) {
      return engine.read((function* () {
        const where = `FROM incidents i JOIN vendors v ON v.id = i.vendor_id
          WHERE v.slug = ? AND i.seen_at >= ? AND i.prior_read_at IS NOT NULL
            AND i.started_at < i.prior_read_at AND NOT ${maintenanceSql("i")}`;
        const count = yield* first(`SELECT COUNT(*) AS n ${where}`, slug, since);
        const rows = yield* all(
          `SELECT i.title, i.started_at, i.seen_at, i.prior_read_at ${where}
           ORDER BY i.seen_at DESC, i.id DESC LIMIT ?`,
          slug,
          since,
          limit,
        );
        return {
          total: Number(count?.n ?? 0),
          latest: rows.map((r) => ({
            title: String(r.title),
            claimedStart: Number(r.started_at),
            firstListedAt: Number(r.seen_at),
            priorReadAt: Number(r.prior_read_at),
          })),
        };
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
  return {
    vendorId: Number(r.id),
    slug: String(r.slug),
    state: stateOf(r.state),
    updatedAt: num(r.updated_at) ?? 0,
  };
}

/** True for a level that admits trouble (anything but operational, and known). */
function admits(level: unknown): boolean {
  return typeof level === "string" && level !== "OPERATIONAL" && level !== "UNKNOWN";
}
