import { latchkeyProject } from "../../vitest.shared.ts";

export default latchkeyProject("one-time-token");
