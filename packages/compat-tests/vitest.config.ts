import { configDefaults } from "vitest/config";
import { latchkeyProject } from "../../vitest.shared.ts";
import { ISOLATED } from "./vitest.isolated.config.ts";

// Files share one module graph per worker, like the other projects, except the few that turn on
// the reference's in-memory rate limits: those counters live in module scope (better-auth
// dist/api/rate-limiter), so they run in `compat-tests-isolated` (vitest.isolated.config.ts),
// a fresh graph per file, where no other file's requests reach their windows.
export default latchkeyProject("compat-tests", { exclude: [...configDefaults.exclude, ...ISOLATED] });
