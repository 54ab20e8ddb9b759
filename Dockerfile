# One image for both processes; docker-compose.yml runs it twice (api and worker).
# Node 24 LTS, as .nvmrc and package.json's engines say.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.sh scripts/build-page-scripts.ts ./scripts/
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY data ./data
RUN bash scripts/build.sh

# Production runs the compiled JavaScript with plain node: no tsx, no TypeScript, and no
# test-only package (embedded-postgres, @temporalio/testing are dev dependencies).
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY --from=build /app/build ./
USER node
EXPOSE 3000
CMD ["node", "src/server.js"]
