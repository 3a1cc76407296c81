import { pulseMemory, SQLITE_TYPES } from "../../shared/schema.ts";

/**
 * What the next pulse of a vendor compares with, kept with the vendor so another
 * instance or a restarted process goes on pulsing it: the pulse fingerprint its last successful
 * full read went with, and when that read was (epoch ms).
 */
export default {
  version: 14,
  name: "pulse_memory",
  sql: pulseMemory(SQLITE_TYPES),
};
