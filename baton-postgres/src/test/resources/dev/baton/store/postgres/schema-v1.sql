-- The tables of dev.baton.store.postgres.PostgresSessionStore as schema version 1 created them,
-- kept for the test that upgrades such a schema.
--
-- The store runs this script itself, once, unless it is built with createSchema(false). Teams that
-- manage migrations run it themselves instead, in the schema the store is configured with:
--
--   SET search_path TO my_schema;   -- the schema(...) option of the store; "public" by default
--   \i schema.sql
--
-- It is idempotent. It names no schema, so it creates everything in the first schema of the
-- search path. IDs and tenants compare in code-point order (COLLATE "C"), whatever the collation
-- of the database.

-- A history branch: an append-only run of messages. Its messages below base_length are those of
-- its parent branch; its own rows in baton_messages hold positions base_length .. length - 1.
-- A branch with no parent starts at position 0. Rows are never rewritten, only appended, and a
-- branch is deleted only when no snapshot and no other branch needs it.
CREATE TABLE IF NOT EXISTS baton_branches (
  branch_id        uuid PRIMARY KEY,
  tenant           text COLLATE "C" NOT NULL,
  session_id       text COLLATE "C" NOT NULL,
  parent_branch_id uuid REFERENCES baton_branches (branch_id),
  base_length      integer NOT NULL,
  length           integer NOT NULL
);
CREATE INDEX IF NOT EXISTS baton_branches_session ON baton_branches (tenant, session_id);
CREATE INDEX IF NOT EXISTS baton_branches_parent ON baton_branches (parent_branch_id)
  WHERE parent_branch_id IS NOT NULL;

-- Each message once: position seq of its branch, as the JSON Genkit writes (json keeps the text
-- exactly as written, including \u0000 escapes, which jsonb refuses). Messages are written in the
-- statement that writes their branch and deleted in the one that deletes it, so they need no
-- foreign key, whose check would cost every message of every commit.
CREATE TABLE IF NOT EXISTS baton_messages (
  branch_id uuid    NOT NULL,
  seq       integer NOT NULL,
  message   json    NOT NULL,
  PRIMARY KEY (branch_id, seq)
);

-- One row per snapshot. Times are kept to the nanosecond: the timestamptz column holds the
-- microseconds and the _ns column the nanoseconds beyond them (0-999). state is the session
-- state without its messages (sessionId, custom, artifacts, usage), or null for a row without a
-- state (a pending row); its messages are the first history_length messages of branch_id.
CREATE TABLE IF NOT EXISTS baton_snapshots (
  tenant          text COLLATE "C" NOT NULL,
  snapshot_id     text COLLATE "C" NOT NULL,
  session_id      text COLLATE "C" NOT NULL,
  parent_id       text COLLATE "C",
  created_at      timestamptz NOT NULL,
  created_at_ns   smallint NOT NULL DEFAULT 0,
  updated_at      timestamptz,
  updated_at_ns   smallint NOT NULL DEFAULT 0,
  heartbeat_at    timestamptz,
  heartbeat_at_ns smallint NOT NULL DEFAULT 0,
  status          text NOT NULL,
  finish_reason   text,
  error           json,
  state           json,
  branch_id       uuid REFERENCES baton_branches (branch_id),
  history_length  integer NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, snapshot_id)
);
-- The latest snapshot of a session: greatest created_at, then greatest snapshot_id.
CREATE INDEX IF NOT EXISTS baton_snapshots_latest
  ON baton_snapshots (tenant, session_id, created_at DESC, created_at_ns DESC, snapshot_id DESC);
CREATE INDEX IF NOT EXISTS baton_snapshots_branch ON baton_snapshots (branch_id)
  WHERE branch_id IS NOT NULL;

-- A status change notifies channel baton_status_<schema> with {"tenant", "snapshotId"}, in the
-- transaction that makes it, whoever writes the row: every store instance listening on the
-- channel, in any JVM, re-reads the status.
CREATE OR REPLACE FUNCTION baton_notify_status() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('baton_status_' || TG_TABLE_SCHEMA,
                    json_build_object('tenant', NEW.tenant, 'snapshotId', NEW.snapshot_id)::text);
  RETURN NULL;
END
$$;
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger
                 WHERE tgname = 'baton_snapshots_status'
                   AND tgrelid = 'baton_snapshots'::regclass) THEN
    CREATE TRIGGER baton_snapshots_status
      AFTER UPDATE OF status ON baton_snapshots
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION baton_notify_status();
  END IF;
END
$$;

-- Written last: a store that finds this table knows the script ran to the end.
CREATE TABLE IF NOT EXISTS baton_schema_version (version integer PRIMARY KEY);
INSERT INTO baton_schema_version (version) VALUES (1) ON CONFLICT DO NOTHING;
