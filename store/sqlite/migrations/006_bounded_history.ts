/**
 * Bounded history: deleting a component (a vendor churning ids, or retention) checks the
 * foreign key from `transitions.component_id`, which needs an index on that column, or every
 * deleted component scans the whole transitions table; and retention finds expired
 * component-level transitions by time without scanning the table.
 */
export default {
  version: 6,
  name: "bounded_history",
  sql: `
CREATE INDEX transitions_component ON transitions (component_id) WHERE component_id IS NOT NULL;
CREATE INDEX transitions_component_at ON transitions (at) WHERE component_id IS NOT NULL;
`,
};
