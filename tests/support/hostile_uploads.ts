/**
 * The dependency files that once froze the server (issue #27): each a worst case for the
 * regular expressions the readers used to run over the whole text (`\s*` eating newlines,
 * nested `[`…`]`, unclosed quotes), at the largest size one file may have.
 * @module
 */
import { MAX_FILE_BYTES } from "../../lib/mod.ts";

const size = Math.floor(MAX_FILE_BYTES / 2) - 64;

/** File name → content, each about half the per-file limit (two fit in one 4 MiB body). */
export const WORST_CASE_FILES: readonly { name: string; content: string }[] = [
  { name: "go.mod", content: "\n".repeat(size) + "x" },
  { name: ".terraform.lock.hcl", content: " \n".repeat(size / 2) + "provider" },
  { name: "main.tf", content: "provider " + "\n".repeat(size) },
  { name: "pyproject.toml", content: "[".repeat(size) },
  { name: "main.tf", content: 'source = "' + "a/".repeat(size / 2) },
  { name: "requirements.txt", content: " ".repeat(size) + "#" },
  { name: "main.tf", content: 'region = "' + "eastwest".repeat(size / 8) + '"' },
];

/** Request bodies of two worst-case files each, every kind in turn. */
export function worstCaseBodies(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      files: [
        WORST_CASE_FILES[i % WORST_CASE_FILES.length]!,
        WORST_CASE_FILES[(i + 1) % WORST_CASE_FILES.length]!,
      ],
    }));
}
