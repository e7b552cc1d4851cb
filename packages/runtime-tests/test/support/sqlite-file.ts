import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A path for a fresh SQLite file in its own temp directory, and a way to remove it. */
export function freshSqliteFile(tag: string): { path: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `lk-rt-${tag}-`));
  return { path: join(dir, "smoke.db"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
