-- 0007_tenancy_cursor_keys: a secret per tenant that signs the cursors of its lists.
--
-- A cursor (the `after` of `entries`, `search`, `archive` and `people`) is a position in one list
-- followed by an HMAC-SHA-256 of it under the tenant's key (Sources/Storykeep/Core/Cursor.swift):
-- a client can hand back only a cursor the server gave, for the list it came from, and a cursor of
-- one tenant means nothing at another.
--
-- WHY THE KEY LIVES HERE
--
-- Every server reads the tenants table already, into its tenant cache (refreshed every
-- `tenants.refreshSeconds`). Kept beside the tenant, the key reaches each request with the tenant
-- itself: servers behind a load balancer share it, a restart keeps it, no operator has to set it,
-- and no request pays a round trip for it. storykeep_app reads it through the `tenants_directory`
-- policy of 0001_tenancy.sql, as it reads the rest of the row; it cannot write it.
--
-- ROTATING A KEY
--
--     update tenants set cursor_key = default where slug = '<slug>';   -- as storykeep_owner
--
-- Cursors given before then are refused (BAD_USER_INPUT on `after`: the app starts from the first
-- page again) once each server's cache has the new key, within `tenants.refreshSeconds`.

alter table tenants
    -- 32 bytes: the SHA-256 of two random UUIDs, i.e. 244 bits from PostgreSQL's strong random
    -- source (gen_random_uuid() is built in; pgcrypto is not needed). The default is volatile, so
    -- each existing tenant gets a key of its own when the column is added.
    add column cursor_key bytea not null
        default sha256(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()))
        constraint tenants_cursor_key_length check (length(cursor_key) = 32);
