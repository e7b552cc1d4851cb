import { latchkeyProject } from "../../vitest.shared.ts";

// Isolated, unlike the other projects: the reference keeps its in-memory rate-limit counters in
// module scope (better-auth dist/api/rate-limiter), so files sharing one module graph would
// share its sign-in windows and the burst comparisons would see each other's requests.
export default latchkeyProject("compat-tests", { isolate: true });
