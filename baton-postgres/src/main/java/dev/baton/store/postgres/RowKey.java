package dev.baton.store.postgres;

/** A snapshot row's primary key: its tenant and its ID. */
record RowKey(String tenant, String snapshotId) {}
