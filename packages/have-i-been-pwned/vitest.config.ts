import { latchkeyProject } from "../../vitest.shared.ts";

export default latchkeyProject("have-i-been-pwned");
