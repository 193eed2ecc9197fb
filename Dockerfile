# syntax=docker/dockerfile:1
# docops daemon image: keeps a documentation platform organization equal to the manifests in git.
#   docker build -t docops .
#   docker run --rm -p 8080:8080 -v "$PWD/manifests:/manifests:ro" -v "$PWD/docops.yaml:/config/docops.yaml:ro" \
#     -e DOCOPS_TOKEN docops
# See deploy/docker-run.md and deploy/kubernetes/.

ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: full dependencies, compile TypeScript to dist/ -------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `prepare` would build before the sources are copied; the build runs explicitly below.
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The build also generates the kind schemas' validators (src/build/precompile-validators.ts): it reads schemas/.
COPY schemas ./schemas
RUN npm run build

# ---- runtime: production dependencies only, non-root, read-only friendly -----------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY schemas ./schemas
COPY config.example ./config.example
# The journal of deletes is the only thing docops writes; mount a volume there (emptyDir or a PVC in Kubernetes).
RUN mkdir -p /config /manifests /var/lib/docops/journal && chown -R node:node /var/lib/docops
VOLUME ["/var/lib/docops"]
USER node
# Manifests are mounted read-only at /manifests (docker run -v …:/manifests:ro, or a git-sync volume);
# the config at /config/docops.yaml.
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + ((process.env.DOCOPS_LISTEN || '').split(':').pop() || '8080') + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/cli/docops.cjs"]
CMD ["daemon", "-c", "/config/docops.yaml"]
