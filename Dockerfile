# The Partner Platform image. The build stage installs the dependencies from the manifests alone, in
# a layer of its own that a source change leaves cached, with exactly the install CI runs; then it
# copies the sources, builds (`npm run prepare`: the SDK's types, the packages, src/ to dist/) and
# prunes to production dependencies. The runtime stage copies what runs into a small image that
# starts `node` directly, as a non-root user.
# scripts/image-dry-run.mjs replays these steps without a Docker daemon (CI runs it).
#
# The base image is pinned by the digest of its multi-platform index: a rebuild gets the same Node.js
# and Debian until the digest is changed on purpose (the tag only says which line it is). To move to
# the newest node:24-bookworm-slim, take the "Digest:" line of
#   docker buildx imagetools inspect node:24-bookworm-slim
# put it here, and let CI and the image dry run pass.
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:a9f5f7c91a432850b2a8a7797adf5eadb6c733ceed61167806cee7ea7fbc29df

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The manifests (and the install's own script, which waits for the sources): this layer and the
# install below are rebuilt only when one of them changes.
COPY package.json package-lock.json .npmrc ./
COPY packages/protocol/package.json packages/protocol/package.json
COPY packages/sdk/package.json packages/sdk/package.json
COPY scripts/prepare.mjs scripts/prepare.mjs
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run prepare
RUN npm prune --omit=dev --no-audit --no-fund
RUN mkdir -p data

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# V8's young generation bounded on every host (docs/operations.md, "Memory"): the same flags as the
# systemd units and the bench's servers (bench/lib/node-options.ts reads them from this line).
ENV NODE_OPTIONS=--max-semi-space-size=16
WORKDIR /app
COPY --from=build /app/package.json /app/package.json
COPY --from=build /app/node_modules /app/node_modules
COPY --from=build /app/packages/protocol/package.json /app/packages/protocol/package.json
COPY --from=build /app/packages/protocol/dist /app/packages/protocol/dist
COPY --from=build /app/dist /app/dist
COPY --from=build /app/migrations /app/migrations
# The web pages' templates and static files are read from the source tree (tsc copies none);
# scripts/image-dry-run.mjs opens a page of each to prove none is missing.
COPY --from=build /app/src/web/dashboard/templates /app/src/web/dashboard/templates
COPY --from=build /app/src/web/console/templates /app/src/web/console/templates
COPY --from=build /app/src/web/courier/templates /app/src/web/courier/templates
COPY --from=build /app/src/web/static /app/src/web/static
COPY --from=build /app/src/modules/delivery/tracking/templates /app/src/modules/delivery/tracking/templates
COPY --from=build /app/src/modules/delivery/tracking/static /app/src/modules/delivery/tracking/static
COPY --from=build --chown=node:node /app/data /app/data
USER node
EXPOSE 8080
STOPSIGNAL SIGTERM
# The API is healthy when it is ready (database and Redis answer). The slim image has no curl, so
# node asks. A worker container (no HTTP) turns this off (compose.yaml).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 8080}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM itself (drain, then close storage); compose adds a tiny init.
CMD ["node", "dist/server.js"]
