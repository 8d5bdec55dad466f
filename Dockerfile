# syntax=docker/dockerfile:1
# durable-agent worker image. Two stages: the first compiles TypeScript with the dev dependencies,
# the second carries only dist/ and the production node_modules.
#
#   docker build -t durable-agent .
#   docker run --rm -e TEMPORAL_ADDRESS=host.docker.internal:7233 -e ANTHROPIC_API_KEY durable-agent
#
# Both stages are Debian bookworm (glibc): the worker's native modules (@temporalio/core-bridge,
# @swc/core, used to bundle workflows at start-up) are built for glibc, so the prebuilt binaries
# installed in the build stage also load in the runtime stage. Do not switch one stage to Alpine.

############################ build ############################
FROM node:20-bookworm AS build
WORKDIR /app

# Dependencies first: this layer is reused until package*.json changes. (The package's `prepare`
# build does nothing here: tsconfig.json is not copied yet.)
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

COPY tsconfig.json ./
# Only the sources: the tests are not part of the image (tsconfig's test/ and scripts/ globs match nothing).
COPY src ./src
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund

########################### runtime ###########################
FROM node:20-bookworm-slim AS runtime

# Tools run these: Grep uses ripgrep (with a JavaScript fallback), Bash runs bash, the model runs git.
# Bash's OS sandbox (@anthropic-ai/sandbox-runtime) needs bubblewrap, socat and ripgrep. Inside a
# container bubblewrap needs user namespaces: run the worker with `--security-opt seccomp=unconfined
# --security-opt apparmor=unconfined` (or set sandbox.enableWeakerNestedSandbox); otherwise sessions
# say the sandbox is unavailable, and refuse to run Bash with sandbox.failIfUnavailable.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ripgrep bash git ca-certificates bubblewrap socat \
 && rm -rf /var/lib/apt/lists/* \
 # The workspace is usually a bind mount owned by another uid: let git work in it anyway.
 && git config --system --add safe.directory '*'

ENV NODE_ENV=production \
    DURABLE_AGENT_STORE_DIR=/data/store \
    DURABLE_AGENT_TASK_QUEUE=durable-agent

WORKDIR /app
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist

# Non-root: the image's `node` user (uid 1000). The store and workspace directories exist in the
# image and belong to it, so a fresh named volume mounted there inherits that ownership.
RUN mkdir -p /data/store /workspace \
 && chown -R node:node /data /workspace
USER node
VOLUME ["/data/store"]

ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["worker"]
