// ESLint for the widgets' ES modules. Python puts widgets/_common.js in front of each widget's
// module (widgets/_base.py esm()), so its top-level functions are globals of every widget file.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import js from "@eslint/js";
import globals from "globals";

const widgets = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../widgets");
const common = fs.readFileSync(path.join(widgets, "_common.js"), "utf8");
const shared = Object.fromEntries(
  [...common.matchAll(/^function\s+([A-Za-z_$][\w$]*)/gm)].map((m) => [m[1], "readonly"]));

// a widget module that declares one of them again fails once concatenated (a SyntaxError)
const names = `/^(${Object.keys(shared).join("|")})$/`;
const redeclared = ["FunctionDeclaration", "ClassDeclaration", "VariableDeclaration > VariableDeclarator"]
  .map((kind) => ({
    selector: `Program > ${kind}[id.name=${names}]`,
    message: "widgets/_common.js already declares this name (it is put in front of this module)",
  }));

export default [
  { ignores: ["**/node_modules/**"] },
  js.configs.recommended,
  {
    files: ["**/*.js"],
    ignores: ["**/_common.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser, ...shared },
    },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: { "no-restricted-syntax": ["error", ...redeclared] },
  },
  {
    // a script that other modules are concatenated after: its functions are used there
    files: ["**/_common.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser } },
  },
];
