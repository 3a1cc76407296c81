import { alertOutbox, POSTGRES_TYPES } from "../../shared/schema.ts";

/** Alerting, as SQLite's migration 13. */
export default {
  version: 7,
  name: "alerting",
  sql: `
ALTER TABLE account_docs DROP CONSTRAINT account_docs_kind_check;
ALTER TABLE account_docs ADD CONSTRAINT account_docs_kind_check
  CHECK (kind IN ('group', 'board', 'route', 'rule', 'escalation', 'subscription'));

${alertOutbox(POSTGRES_TYPES)}
`,
};
