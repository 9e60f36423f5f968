# syntax=docker/dockerfile:1
# seatflow: build with the dev toolchain, ship production dependencies and compiled JavaScript only.
# test/deploy/dockerfile.test.ts reproduces these steps in a temporary folder (no container engine needed).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The npm cache lives in a build cache, never in a layer.
RUN --mount=type=cache,target=/root/.npm npm ci
COPY tsconfig.json ./
COPY src ./src
COPY jobs ./jobs
COPY scripts/bundle-cli.mjs ./scripts/
RUN npm run build

FROM node:24-bookworm-slim AS runtime
# redis-server lets `seatflow run` use a private Redis when REDIS_URL is not set.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev
COPY --from=build /app/dist/cli ./dist/cli
COPY bin/seatflow bin/seatflow-healthcheck ./bin/
COPY config ./config
COPY assets ./assets
COPY jobs/examples ./jobs/examples
# The seatflow home (reports, logs, the private Redis when REDIS_URL is unset): mount a volume here to keep it.
ENV SEATFLOW_HOME=/var/lib/seatflow
RUN mkdir -p /var/lib/seatflow && chown node:node /var/lib/seatflow
USER node
# Docker's own probe (compose's and Kubernetes' probes replace it): /readyz of `serve` (its --port) or of a worker
# started with --metrics-port; any other command is healthy while it runs.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["node", "/app/bin/seatflow-healthcheck"]
ENTRYPOINT ["node", "/app/bin/seatflow"]
CMD ["--help"]
