/**
 * Entry of the playground UI.
 *
 * @module
 */

import { render } from "preact";
import { adoptToken } from "./api.ts";
import { App } from "./app.tsx";
import "./style.css";

adoptToken();
render(<App />, document.getElementById("app")!);
