# syntax=docker/dockerfile:1
# The production image: one build's standalone output and nothing else of the
# repository (no sources, no dev dependencies). Its three commands are exactly
# those CI runs from its own build in tests/deploy/two-instances.test.ts:
#   node migrate.mjs   once per release, before the new web and worker start
#   node web.mjs       the web server (default command); any number of instances
#   node worker.mjs    webhook delivery and the scheduled chores; any number
# README "Operate it" lists the settings; compose.yaml wires them up.

FROM node:20-bookworm-slim AS build
WORKDIR /src
ENV NEXT_TELEMETRY_DISABLED=1
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# The build reads no secret: settings are read when each command starts, and no
# page reads them while prerendering (CI's e2e build runs without SECRET_KEY).
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production APP_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000
WORKDIR /app
# Owned by root, run as node: the code is read-only to the process. Next's cache
# folder is the one place it writes (search writes its WordNet cache under /tmp).
COPY --from=build /src/.next/standalone ./
RUN mkdir -p .next/cache && chown node:node .next/cache
USER node
EXPOSE 3000
CMD ["node", "web.mjs"]
