-- The tables of dev.baton.store.postgres.PostgresSessionStore, schema version 2.
--
-- The store runs this script itself, once, unless it is built with createSchema(false). Teams that
-- manage migrations run it themselves instead, in the schema the store is configured with:
--
--   SET search_path TO my_schema;   -- the schema(...) option of the store; "public" by default
--   \i schema.sql
--
-- It is idempotent, and upgrades a schema an earlier version created: run it again after upgrading
-- the library (version 2 added baton_sessions, for listing sessions). It names no schema, so it creates everything in the first schema of the
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

-- Each session once, for listing sessions newest first: how many snapshots it has, when its first
-- was created, and when it last changed (the greatest updated_at of its rows, or created_at for a
-- row without one). Triggers on baton_snapshots keep it, whoever writes the rows.
CREATE TABLE IF NOT EXISTS baton_sessions (
  tenant        text COLLATE "C" NOT NULL,
  session_id    text COLLATE "C" NOT NULL,
  created_at    timestamptz NOT NULL,
  created_at_ns smallint NOT NULL DEFAULT 0,
  updated_at    timestamptz NOT NULL,
  updated_at_ns smallint NOT NULL DEFAULT 0,
  turns         integer NOT NULL,
  PRIMARY KEY (tenant, session_id)
);
-- A page of a tenant's sessions: newest first, from a position (updated_at, session_id) on.
CREATE INDEX IF NOT EXISTS baton_sessions_recent
  ON baton_sessions (tenant, updated_at, updated_at_ns, session_id);

-- The function names the table as the script's search path resolves it (SET ... FROM CURRENT), so
-- writers whose search path is another schema's keep the sessions of this one.
CREATE OR REPLACE FUNCTION baton_track_session() RETURNS trigger LANGUAGE plpgsql
SET search_path FROM CURRENT AS $$
DECLARE
  changed_at    timestamptz;
  changed_at_ns smallint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE baton_sessions SET turns = turns - 1
      WHERE tenant = OLD.tenant AND session_id = OLD.session_id;
    DELETE FROM baton_sessions
      WHERE tenant = OLD.tenant AND session_id = OLD.session_id AND turns <= 0;
    RETURN NULL;
  END IF;
  changed_at := COALESCE(NEW.updated_at, NEW.created_at);
  changed_at_ns := CASE WHEN NEW.updated_at IS NULL THEN NEW.created_at_ns
                        ELSE NEW.updated_at_ns END;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO baton_sessions AS s
        (tenant, session_id, created_at, created_at_ns, updated_at, updated_at_ns, turns)
      VALUES (NEW.tenant, NEW.session_id, NEW.created_at, NEW.created_at_ns,
              changed_at, changed_at_ns, 1)
      ON CONFLICT (tenant, session_id) DO UPDATE SET
        turns = s.turns + 1,
        created_at = CASE WHEN (EXCLUDED.created_at, EXCLUDED.created_at_ns)
                               < (s.created_at, s.created_at_ns)
                          THEN EXCLUDED.created_at ELSE s.created_at END,
        created_at_ns = CASE WHEN (EXCLUDED.created_at, EXCLUDED.created_at_ns)
                                  < (s.created_at, s.created_at_ns)
                             THEN EXCLUDED.created_at_ns ELSE s.created_at_ns END,
        updated_at = CASE WHEN (EXCLUDED.updated_at, EXCLUDED.updated_at_ns)
                               > (s.updated_at, s.updated_at_ns)
                          THEN EXCLUDED.updated_at ELSE s.updated_at END,
        updated_at_ns = CASE WHEN (EXCLUDED.updated_at, EXCLUDED.updated_at_ns)
                                  > (s.updated_at, s.updated_at_ns)
                             THEN EXCLUDED.updated_at_ns ELSE s.updated_at_ns END;
  ELSE
    -- A row never changes session: only its time can move the session's.
    UPDATE baton_sessions s SET updated_at = changed_at, updated_at_ns = changed_at_ns
      WHERE s.tenant = NEW.tenant AND s.session_id = NEW.session_id
        AND (changed_at, changed_at_ns) > (s.updated_at, s.updated_at_ns);
  END IF;
  RETURN NULL;
END
$$;
-- The triggers, and the sessions of rows written before them (a schema of version 1), together,
-- with writers held off, so no row is counted twice or missed.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger
                 WHERE tgname = 'baton_snapshots_session_insert'
                   AND tgrelid = 'baton_snapshots'::regclass) THEN
    LOCK TABLE baton_snapshots IN SHARE MODE;
    CREATE TRIGGER baton_snapshots_session_insert
      AFTER INSERT ON baton_snapshots
      FOR EACH ROW EXECUTE FUNCTION baton_track_session();
    CREATE TRIGGER baton_snapshots_session_update
      AFTER UPDATE OF updated_at, updated_at_ns ON baton_snapshots
      FOR EACH ROW
      WHEN (OLD.updated_at IS DISTINCT FROM NEW.updated_at
            OR OLD.updated_at_ns IS DISTINCT FROM NEW.updated_at_ns)
      EXECUTE FUNCTION baton_track_session();
    CREATE TRIGGER baton_snapshots_session_delete
      AFTER DELETE ON baton_snapshots
      FOR EACH ROW EXECUTE FUNCTION baton_track_session();
    INSERT INTO baton_sessions
        (tenant, session_id, created_at, created_at_ns, updated_at, updated_at_ns, turns)
      SELECT tenant, session_id,
             (array_agg(created_at ORDER BY created_at, created_at_ns))[1],
             (array_agg(created_at_ns ORDER BY created_at, created_at_ns))[1],
             (array_agg(changed_at ORDER BY changed_at DESC, changed_at_ns DESC))[1],
             (array_agg(changed_at_ns ORDER BY changed_at DESC, changed_at_ns DESC))[1],
             count(*)
        FROM (SELECT tenant, session_id, created_at, created_at_ns,
                     COALESCE(updated_at, created_at) AS changed_at,
                     CASE WHEN updated_at IS NULL THEN created_at_ns
                          ELSE updated_at_ns END AS changed_at_ns
                FROM baton_snapshots) AS snapshot_rows
        GROUP BY tenant, session_id
      ON CONFLICT DO NOTHING;
  END IF;
END
$$;

-- Written last: a store that finds the latest version here knows the script ran to the end. A
-- schema upgraded from version 1 holds both.
CREATE TABLE IF NOT EXISTS baton_schema_version (version integer PRIMARY KEY);
INSERT INTO baton_schema_version (version) VALUES (2) ON CONFLICT DO NOTHING;
