/**
 * Bounded history (#9): deleting a component (a vendor churning ids, or retention) checks the
 * foreign key from `transitions.component_id`, which needs an index on that column, or every
 * deleted component scans the whole transitions table.
 */
export default {
  version: 6,
  name: "bounded_history",
  sql: `
CREATE INDEX transitions_component ON transitions (component_id) WHERE component_id IS NOT NULL;
`,
};
