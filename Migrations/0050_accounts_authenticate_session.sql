-- 0050_accounts_authenticate_session: a request's authentication and its person's context in one
-- statement (issue 19).
--
-- Every request with a bearer token starts in the AUTHENTICATION context (0002: the tenant, the
-- role AUTHENTICATION and the token's hash). It used to take three round trips more: find the
-- session, switch to the person's context, and (once a minute) slide the session's expiry.
-- authenticate_session() does all three in one call, which the server sends with BEGIN and the
-- AUTHENTICATION settings, in the same round trip.
--
-- It is SECURITY INVOKER like every function here (0002: "no SECURITY DEFINER function
-- anywhere"): the lookup runs under the same policies as the statement it replaces, so it is
-- exactly as strict. Only the live session with the token's hash is visible (sessions_visible:
-- the tenant's, not revoked, not expired), with its person (people_visible), who must not be
-- disabled. Found, the transaction switches to the person (every setting, as the server's
-- AccountContext.person sets them: the key of AUTHENTICATION is cleared) and the session is
-- slid in the person's own context (sessions_update), as before. Not found, the transaction
-- switches to the tenant alone (AccountContext.anonymous), which sees nothing of anyone.

-- The person whose live session has the token hash of the transaction's AUTHENTICATION context:
-- the session's id, the person's id and role; no row when there is none. Switches the transaction
-- to that person, or to the tenant alone. The session, if unused for more than
-- slide_after_seconds, is marked used now and expires idle_timeout_seconds from now (never past
-- its latest); a request that finds another one sliding it at the same moment leaves it to that
-- one (SKIP LOCKED) rather than wait for its row lock: at most one write a minute per session.
create function authenticate_session(slide_after_seconds integer, idle_timeout_seconds integer)
    returns table (viewer_session uuid, viewer_person uuid, viewer_role text)
    language plpgsql volatile
    set search_path = public, pg_temp
as $$
declare
    found_session record;
begin
    select s.id, s.person_id, p.role::text as role,
           s.last_used_at < now() - slide_after_seconds * interval '1 second' as due
      into found_session
      from sessions s
      join people p on p.tenant_id = s.tenant_id and p.id = s.person_id
     where s.tenant_id = current_tenant_id() and s.token_hash = current_secret_hash() and p.disabled_at is null;
    if not found then
        perform set_config('storykeep.person_id', '', true), set_config('storykeep.role', '', true),
                set_config('storykeep.login_name', '', true), set_config('storykeep.secret_hash', '', true);
        return;
    end if;
    perform set_config('storykeep.person_id', upper(found_session.person_id::text), true),
            set_config('storykeep.role', found_session.role, true),
            set_config('storykeep.login_name', '', true), set_config('storykeep.secret_hash', '', true);
    if found_session.due then
        update sessions set last_used_at = now(),
                            expires_at = least(now() + idle_timeout_seconds * interval '1 second', max_expires_at)
         where tenant_id = current_tenant_id() and id = (
             select id from sessions
              where tenant_id = current_tenant_id() and id = found_session.id
                and last_used_at < now() - slide_after_seconds * interval '1 second'
                for update skip locked);
    end if;
    viewer_session := found_session.id;
    viewer_person := found_session.person_id;
    viewer_role := found_session.role;
    return next;
end;
$$;

comment on function authenticate_session(integer, integer) is
    'A request''s authentication in one statement: the live session of the AUTHENTICATION context''s token hash and its person, the transaction switched to that person (or to the tenant alone), the session slid when due.';
