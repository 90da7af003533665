# Node 24: the Active LTS line (Node 20 reached end of life on 2026-04-30). Issue 16.
ARG NODE_IMAGE=node:24-bookworm-slim

# Compiles the TypeScript once (`npm run build`): the image runs JavaScript, not tsx.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY handlers ./handlers
COPY prompts ./prompts
COPY skills ./skills
COPY roles ./roles
COPY crews ./crews
COPY workflows ./workflows
# The eval tasks: the panel's Evaluate runs them (scripts/build.ts copies them beside dist/src).
COPY eval/tasks ./eval/tasks
RUN npm run build

FROM ${NODE_IMAGE}
# bubblewrap runs repository code; passt (pasta) and iproute2 give it egress without the host (R-H3).
# chromium-headless-shell and fonts: the screenshot tool's browser, run inside the sandbox (issue
# 15; the headless shell draws a page for about half the full browser's CPU), with Chinese glyphs
# from fonts-wqy-zenhei (issue 16; 16 MB, against 91 MB for fonts-noto-cjk).
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates bubblewrap passt iproute2 chromium-headless-shell fonts-dejavu-core fonts-wqy-zenhei && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# dist/ holds the compiled code and, next to it, prompts/, skills/, roles/, crews/, workflows/ and
# the panel's assets (scripts/build.ts copies what the code reads at run time).
COPY --from=build /app/dist ./dist
# HEALTH_PORT: a ROLE=worker container serves /healthz and /readyz there (it opens no PORT).
ENV NODE_ENV=production PORT=3000 HEALTH_PORT=3000 WORKSPACE_DIR=/data/workspaces
RUN useradd --create-home --uid 10001 bot && mkdir -p /data/workspaces && chown -R bot /data
USER bot
EXPOSE 3000
# Fits every role: PORT for all/web, HEALTH_PORT for worker (scripts/healthcheck.ts).
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s CMD ["node", "dist/scripts/healthcheck.js"]
# Run it with an init (compose: `init: true`; `docker run --init`) so sandbox children are reaped.
# `docker compose exec bot node dist/scripts/doctor.js` runs the doctor.
CMD ["node", "dist/src/main.js"]
