-- 0029_audit_request_id: the request each audit event was made by (issue 14: "who, what, on
-- whom/what, when, request id").
--
-- The id is the HTTP request's `X-Request-Id` as the server answered it (a proxy's or an app's
-- own when it was a valid token, else one the server made; RequestIDMiddleware), the same id as
-- in every log line of that request, so that an admin who reads an event in `auditLog` can find
-- the request in the logs, and support can find a client's request in the trail. At most 128
-- characters, as the middleware admits. Null for what no HTTP request did: the command line
-- (`storykeep tenant apply`, `storykeep user create`) and the server's background work.
--
-- A new nullable column with no default: PostgreSQL adds it without rewriting the table, and
-- the rows from before it read null. The table's policies and its append-only trigger (0019)
-- cover the column as they cover the others.

alter table audit_events add column request_id text
    constraint audit_events_request_id check (length(request_id) between 1 and 128);
