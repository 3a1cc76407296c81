/**
 * Shared polling: an instance claims the due vendors it will poll for a while
 * (`lease_owner`, `lease_until`, epoch ms); the others skip them until the lease ends or the poll
 * is recorded. A dead instance's vendors are taken by the others once its leases end.
 */
export default {
  version: 2,
  name: "leases",
  sql: `
ALTER TABLE vendors ADD COLUMN lease_owner TEXT;
ALTER TABLE vendors ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;
`,
};
