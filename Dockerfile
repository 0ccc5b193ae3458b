# svc in a container: MCP over HTTP on 0.0.0.0:7331, a bearer token required, run as the non-root
# `node` user. svc.yaml and the API descriptions are mounted read-only at /etc/svc; secrets come in
# as environment variables (the token named by serve.tokenEnv, and the APIs' credentials).
#
#   docker build -t svc-mcp .
#   docker run --rm -p 7331:7331 -e SVC_TOKEN -e BOOKSHELF_TOKEN \
#     -v "$PWD/deploy/svc.yaml:/etc/svc/svc.yaml:ro" -v "$PWD/specs:/etc/svc/specs:ro" svc-mcp
#
# Stage 1 builds the npm package (bundled JavaScript) exactly as `npm pack` does for the registry.
FROM node:24-alpine AS build
WORKDIR /build
COPY package.json package-lock.json .npmrc tsconfig.json ./
RUN npm ci --no-audit --no-fund
COPY bin ./bin
COPY scripts ./scripts
COPY src ./src
COPY specs ./specs
COPY docs ./docs
COPY README.md svc.yaml.example ./
RUN npm pack --pack-destination /tmp && mv /tmp/svc-mcp-*.tgz /tmp/svc-mcp.tgz

# Stage 2: Node and the installed package only (its runtime dependencies, no dev tools, no sources).
FROM node:24-alpine
ENV NODE_ENV=production
COPY --from=build /tmp/svc-mcp.tgz /tmp/svc-mcp.tgz
RUN npm install -g --no-audit --no-fund /tmp/svc-mcp.tgz && rm /tmp/svc-mcp.tgz && npm cache clean --force

USER node
WORKDIR /home/node
# The config the mount provides; caches and the IPC socket (svc status / svc update through
# `docker exec`) in folders the node user owns, so the root filesystem may be read-only.
ENV SVC_CONFIG=/etc/svc/svc.yaml \
    XDG_CACHE_HOME=/tmp/svc/cache \
    XDG_STATE_HOME=/tmp/svc/state \
    XDG_RUNTIME_DIR=/tmp/svc/run
EXPOSE 7331
# /healthz answers while the process serves HTTP; /readyz once the catalogue is loaded.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD node -e "fetch('http://127.0.0.1:7331/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
ENTRYPOINT ["svc"]
# --host 0.0.0.0 needs a token: svc refuses to start unless svc.yaml names one with serve.tokenEnv
# and that variable is set (see deploy/svc.yaml).
CMD ["serve", "--transport", "http", "--host", "0.0.0.0", "--port", "7331"]
