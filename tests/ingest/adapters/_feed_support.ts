/** Small wrappers so tests can call the feed time helpers with ISO reference times. */
import { parseWallDate } from "../../../ingest/adapters/_feed_html.ts";
export { parseRfc822 } from "../../../ingest/adapters/_feed_time.ts";

/** `parseWallDate` with the reference given as ISO text. */
export function parseWallDateForTest(text: string, referenceIso: string): number | null {
  return parseWallDate(text, Date.parse(referenceIso));
}
