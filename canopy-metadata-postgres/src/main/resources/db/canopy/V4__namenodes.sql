-- Group membership and leader election through the database (DESIGN s.7, paper 000 s.4.1.8). One descriptor per
-- live (or not yet evicted) namenode; each namenode increments its counter every round in a transaction, the
-- smallest id whose counter keeps advancing is the leader. Leader state (term, round time, evictions for
-- slowness) lives in the variables table under the names 'leader.*'.
CREATE TABLE namenodes (
  id                  bigint   PRIMARY KEY,
  counter             bigint   NOT NULL,
  rpc_address         text     NOT NULL,
  http_address        text     NOT NULL,
  location_domain_id  integer  NOT NULL,
  started_at_ms       bigint   NOT NULL,
  last_round_ms       bigint   NOT NULL
);

-- Namenode ids come from their own sequence, like inode and block ids. Namespaces formatted before this
-- migration get the sequence here; format creates it for new ones.
INSERT INTO variables (name, long_value, text_value)
SELECT 'next_id.namenode', 1, NULL WHERE EXISTS (SELECT 1 FROM variables WHERE name = 'namespace_id')
ON CONFLICT (name) DO NOTHING;
