import { latchkeyProject } from "../../vitest.shared.ts";

/** The files whose reference instances count requests in the reference's module-scope memory store. */
export const ISOLATED = [
  "test/rate-limit*.test.ts",
  "test/encoded-paths.test.ts",
  "test/social-cross-flow.test.ts",
  "test/device-authorization.test.ts",
];

export default latchkeyProject("compat-tests-isolated", { include: ISOLATED, isolate: true });
