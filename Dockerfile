# Multi-stage build: compile TypeScript with the dev dependencies, ship only runtime ones.
#
# The build stage compiles only what the image runs: the service (tsconfig.server.json: gateway/,
# engine/, shared/) and the workbench (gateway/ui, type-checked by tsconfig.ui.json and bundled by
# esbuild). Tests, benchmarks, the client library and the CLI are not in the image, so they are
# neither copied nor compiled here. test/packaging/docker-context.test.ts assembles this stage's
# context from these COPY lines and runs its RUN lines, so a missing folder fails `npm test`.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.server.json tsconfig.ui.json ./
COPY shared ./shared
COPY engine ./engine
COPY gateway ./gateway
RUN npm run build:server

FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
# Large column buffers on 2 MiB pages: first touch of fresh memory is most of a scan's cost
# otherwise (README, "Memory and huge pages").
ENV GLIBC_TUNABLES=glibc.malloc.hugetlb=1
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && mkdir -p /data && chown node:node /data
COPY --from=build /app/dist ./dist
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:8080/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "dist/gateway/server.js"]
