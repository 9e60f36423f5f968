# syntax=docker/dockerfile:1
# seatflow: build with the dev toolchain, ship production dependencies and compiled JavaScript only.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY jobs ./jobs
RUN npm run build

FROM node:24-bookworm-slim AS runtime
# redis-server lets `seatflow run` use a private Redis when REDIS_URL is not set.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin/seatflow ./bin/seatflow
COPY config ./config
COPY assets ./assets
COPY jobs/examples ./jobs/examples
RUN mkdir -p /app/.seatflow && chown -R node:node /app/.seatflow
USER node
ENTRYPOINT ["node", "/app/bin/seatflow"]
CMD ["--help"]
