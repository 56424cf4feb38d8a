import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// Next's recommended rules (React, hooks, a11y, core web vitals) plus
// typescript-eslint's recommended set, over the whole repository.

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores([
    ".next/**",
    "node_modules/**",
    ".data/**",
    "db/migrations/**",
    "test-results/**",
    "playwright-report/**",
    "bench/results/**",
    "sdk/dist/**",
    "next-env.d.ts",
  ]),
  {
    rules: {
      // `_name` marks a deliberately unused argument or destructured value.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/no-unused-expressions": "error",
      "no-console": "off",
      eqeqeq: ["error", "smart"],
      "prefer-const": "error",
    },
  },
  {
    // Scripts, tests and benchmarks are Node programs, not pages.
    files: ["scripts/**", "tests/**", "bench/**", "e2e/**", "db/**", "*.config.*"],
    rules: { "import/no-anonymous-default-export": "off" },
  },
  {
    // The SDK is a package of its own: it carries its own signer and never reaches into the app.
    files: ["sdk/src/**"],
    rules: { "no-restricted-imports": ["error", { patterns: ["@/*", "../../*", "next", "next/*"] }] },
  },
]);
