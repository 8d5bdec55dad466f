-- The durable-agent workers' shared store (DURABLE_AGENT_STORE=postgres://…/durable_agent).
-- Run by the postgres image on the volume's first start; on an existing volume run it once:
--   docker-compose exec postgresql psql -U temporal -c 'CREATE DATABASE durable_agent'
-- The table (durable_agent_blobs) is created by the first worker that uses it.
CREATE DATABASE durable_agent;
