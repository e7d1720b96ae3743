# syntax=docker/dockerfile:1
# Barterhood's production image (docs/deploy.md): build the web app and compile the server (ADR 071),
# keep the runtime dependencies, run the compiled server as an unprivileged user with its data under /data.
#
#   docker build -t barterhood .
#   docker run -p 5000:5000 -v barterhood-data:/data \
#     -e SESSION_SECRET=... -e SITE_PASSWORD=... -e PUBLIC_URL=https://... barterhood

ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

COPY package.json package-lock.json ./
# --ignore-scripts: the project's npm (11) runs no dependency install script that package.json's
# `allowScripts` does not approve, and it approves none; this image's npm (10) would run them all
# (esbuild's binary check, core-js's and tesseract.js's messages). Every native piece (sharp, esbuild,
# rolldown, lightningcss, Tailwind's oxide, @node-rs/argon2) ships prebuilt as an optional package.
RUN npm ci --ignore-scripts --no-audit --no-fund

COPY . .
# The web app (dist/web), its server render (dist/server) and the server and its tools compiled to
# JavaScript (dist/node); then the test and benchmark tools can go.
RUN npm run build
RUN npm prune --omit=dev --ignore-scripts --no-audit --no-fund

# ---------------------------------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime

# DejaVu draws the text of the demo neighbourhood's photos (SEED_DEMO=true on an empty database).
RUN apt-get update \
  && apt-get install -y --no-install-recommends fonts-dejavu-core \
  && rm -rf /var/lib/apt/lists/*

ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=5000 \
  DATA_DIR=/data \
  MALLOC_ARENA_MAX=2

WORKDIR /app
# Owned by root and read-only to the server: only /data is written.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/web ./dist/web
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/node ./dist/node
# The message catalogues the server writes e-mail from (ADR 060).
COPY --from=build /app/web/locales ./web/locales
COPY --from=build /app/drizzle ./drizzle
# `npm run admin -- grant EMAIL` makes the first moderator (docker compose exec app-1 npm run admin ...):
# scripts/run.mjs runs the compiled dist/node/admin.mjs (so do backup, restore and circles).
COPY --from=build /app/scripts/run.mjs /app/scripts/build-state.mjs ./scripts/

# The embedded database (without DATABASE_URL), stored photos and the mail outbox live here.
# photos/ made here so a new volume starts with it (photos live there unless STORAGE_URL names a bucket).
RUN mkdir -p /data/photos && chown -R node:node /data
USER node
VOLUME ["/data"]

EXPOSE 5000
# The server closes gracefully on SIGTERM (and gives up after 10 s): allow it that long to stop.
STOPSIGNAL SIGTERM
# No curl in the slim image: Node's fetch. /healthz answers 200 while the process is up (503 while it
# closes); the database's state is /readyz's.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# What `npm start` runs once everything is built (scripts/run.mjs), without npm in between, so the
# server is PID 1 and gets SIGTERM itself. Migrations run at start, under an advisory lock.
CMD ["node", "dist/node/main.mjs"]
