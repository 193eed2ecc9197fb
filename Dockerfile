# syntax=docker/dockerfile:1
# docops daemon image: keeps a documentation platform organization equal to the manifests in git.
#   docker build -t docops .
#   docker run --rm -p 8080:8080 -v "$PWD/manifests:/manifests:ro" -v "$PWD/docops.yaml:/config/docops.yaml:ro" \
#     -e DOCOPS_TOKEN docops
# See docs/install.md, deploy/docker-run.md and deploy/kubernetes/. CI builds and runs it (test/image/).

ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: full dependencies, compile to dist/, make the release tarball, install it -----------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspace packages' manifests (package.json `workspaces`), which the install links into node_modules.
COPY packages/api-shared/package.json ./packages/api-shared/
COPY packages/sandbox/package.json ./packages/sandbox/
# devDependencies link the checkout's own `docops` command ("docops": "file:.", for `npx docops` in a checkout).
# npm 10, which the node:22 images ship, runs that link's `prepare` (the build) even with --ignore-scripts, before
# the sources are copied (TS5058). The image needs no such link: it stays out of this install.
RUN --mount=type=cache,target=/root/.npm \
  npm pkg delete devDependencies.docops && npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
# The sandbox (bundled into the CLI: `docops sandbox`, `--sandbox`) and what it shares with docops.
COPY packages ./packages
# The build scripts (tools/build), compiled and run by `npm run build`; the benchmark comes along (one tsconfig).
COPY tools ./tools
# The build generates the kinds' spec types from schemas/ (tools/build/spec-types.ts), lists the kinds in them
# (tools/build/kind-schemas.ts) and generates their validators (tools/build/precompile-validators.ts).
COPY schemas ./schemas
COPY config.example ./config.example
# What `docops init` writes besides the export: the workflows, and the Action they use (its committed bundle).
COPY examples ./examples
COPY action.yml ./
COPY action/dist ./action/dist
RUN npm run build
# The release tarball `npm run tarball` makes (tools/build/release-tarball.ts; test/pack/pack.test.ts installs it),
# installed in /out as `npm install` installs it: the production dependencies its npm-shrinkwrap.json pins.
RUN node dist-tools/build/release-tarball.js /tmp/release \
  && mkdir /out && tar -xzf /tmp/release/docops-*.tgz --strip-components=1 -C /out
WORKDIR /out
RUN --mount=type=cache,target=/root/.npm \
  npm ci --omit=dev --ignore-scripts --no-audit --no-fund
# The HA client: optional elsewhere (`ha: {mode: kubernetes}` needs it), always in the image. Installed with the
# checkout's lockfile in place, so it and its own dependencies are the versions CI tested.
RUN --mount=type=cache,target=/root/.npm \
  mv npm-shrinkwrap.json /tmp/ && cp /app/package-lock.json . \
  && npm install --no-save --omit=dev --ignore-scripts --no-audit --no-fund \
    "@kubernetes/client-node@$(node -p "require('./package-lock.json').packages['node_modules/@kubernetes/client-node'].version")" \
  && rm package-lock.json && mv /tmp/npm-shrinkwrap.json .
# Type declarations and source maps of the dependencies never load at run time: 65 of their 113 MB.
RUN find node_modules -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \) -delete

# ---- runtime: the installed package only (no build tools, no npm cache), non-root, read-only friendly ----------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /out /app
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
