import { latchkeyProject } from "../../vitest.shared.ts";

export default latchkeyProject("last-login-method");
