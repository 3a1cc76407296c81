/**
 * The latency summary: per vendor and UTC day (`day`, epoch ms of its start), how
 * many answered fetches fell in each latency bucket. Bucket 0 is under 1 ms, bucket k ≥ 1 is
 * [1.1^(k−1), 1.1^k) ms, bucket 123 is open-ended (domain/latency.ts). The fetch log rows
 * already stored (answered ones: `ok`, `not_modified`) are counted in, so SLA reports read the
 * same figures before and after. The bucket bounds are written out here, not imported, so this
 * migration never changes once shipped.
 */
const GROWTH = 1.1;
const BUCKETS = 124;

/** `CASE WHEN ms < 1 THEN 0 WHEN ms < 1.1^0… THEN 1 … ELSE 123 END`, over `column`. */
function bucketOf(column: string): string {
  const whens = Array.from(
    { length: BUCKETS - 1 },
    (_, k) => `WHEN ${column} < ${String(GROWTH ** k)} THEN ${k}`,
  );
  return `CASE ${whens.join(" ")} ELSE ${BUCKETS - 1} END`;
}

export default {
  version: 9,
  name: "latency_days",
  sql: `
CREATE TABLE fetch_latency_days (
  vendor_id INTEGER NOT NULL REFERENCES vendors (id),
  day INTEGER NOT NULL,
  bucket INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (vendor_id, day, bucket)
) WITHOUT ROWID;
CREATE INDEX fetch_latency_days_day ON fetch_latency_days (day);
INSERT INTO fetch_latency_days (vendor_id, day, bucket, count)
  SELECT vendor_id, at - (at % 86400000), ${bucketOf("latency_ms")}, COUNT(*) FROM fetches
  WHERE outcome IN ('ok', 'not_modified') GROUP BY 1, 2, 3;
`,
};
