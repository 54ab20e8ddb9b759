# One image for both processes; docker-compose.yml runs it twice (api and worker).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# tsx runs the TypeScript directly (no build step), so dev dependencies stay out of the image.
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY data ./data
USER node
EXPOSE 3000
CMD ["node", "--import", "tsx", "src/server.ts"]
