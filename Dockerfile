FROM node:20-bookworm-slim
# bubblewrap runs repository code; passt (pasta) and iproute2 give it egress without the host (R-H3).
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates bubblewrap passt iproute2 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY src ./src
COPY handlers ./handlers
COPY prompts ./prompts
COPY skills ./skills
COPY roles ./roles
COPY crews ./crews
COPY workflows ./workflows
COPY tsconfig.json ./
# `npm run doctor` in the container (docker compose exec bot npm run doctor).
COPY scripts/doctor.ts ./scripts/doctor.ts
ENV NODE_ENV=production PORT=3000 WORKSPACE_DIR=/data/workspaces
RUN useradd --create-home --uid 10001 bot && mkdir -p /data/workspaces && chown -R bot /data
USER bot
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["npm", "start"]
