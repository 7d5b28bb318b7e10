-- The retry cache (DESIGN s.6): the outcome of committed non-idempotent client calls, keyed by Hadoop RPC's
-- (client id, call id) and partitioned by client id. A retried call finds its first outcome here, on any namenode.
CREATE TABLE retry_cache (
  client_id      text     NOT NULL,
  call_id        integer  NOT NULL,
  operation      text     NOT NULL,
  result         bytea    NOT NULL,
  expires_at_ms  bigint   NOT NULL,
  PRIMARY KEY (client_id, call_id)
);
-- Housekeeping only: expired entries are purged in expiry order.
CREATE INDEX retry_cache_by_expiry ON retry_cache (expires_at_ms);
