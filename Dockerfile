# The Partner Platform image: built with exactly the install CI runs (`npm ci`, which compiles
# src/ to dist/ in its prepare step), then pruned to production dependencies and copied into a
# small runtime stage that runs `node` directly as a non-root user.
# scripts/image-dry-run.mjs replays these steps without a Docker daemon (CI runs it).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund
RUN npm prune --omit=dev --no-audit --no-fund
RUN mkdir -p data

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json /app/package.json
COPY --from=build /app/node_modules /app/node_modules
COPY --from=build /app/packages/protocol/package.json /app/packages/protocol/package.json
COPY --from=build /app/packages/protocol/dist /app/packages/protocol/dist
COPY --from=build /app/dist /app/dist
COPY --from=build /app/migrations /app/migrations
# The dashboard's and the console's templates and static files are read from the source tree (tsc copies none).
COPY --from=build /app/src/web/dashboard/templates /app/src/web/dashboard/templates
COPY --from=build /app/src/web/console/templates /app/src/web/console/templates
COPY --from=build /app/src/web/static /app/src/web/static
COPY --from=build /app/src/modules/delivery/tracking/static /app/src/modules/delivery/tracking/static
COPY --from=build --chown=node:node /app/data /app/data
USER node
EXPOSE 8080
STOPSIGNAL SIGTERM
# node is PID 1 and handles SIGTERM itself (drain, then close storage); compose adds a tiny init.
CMD ["node", "dist/server.js"]
