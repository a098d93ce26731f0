-- 0055_export_client_authentication: a case-management client's bearer token recognised in one
-- round trip instead of three (issue 14: an empty poll of the export feed cost some nine round
-- trips while its statement takes 0.09 ms).
--
-- cms_client_authenticate() does, in one call, what the export module did in three statements:
-- enter the AUTHENTICATION context of the token's hash (as AccountContext.authentication sets
-- it), find the live token of a client not revoked, and enter that client's context (role CMS,
-- its id as the login name: AccountContext.client), or the tenant's anonymous context when the
-- token is none. It runs as its caller (not SECURITY DEFINER): it sees exactly what those three
-- statements saw through the policies of cms_tokens and cms_clients (0017), and the settings it
-- makes are the transaction's, as theirs were.

create function cms_client_authenticate(tenant text, token_hash text, at timestamptz) returns uuid
    language plpgsql volatile
    set search_path = public, pg_temp
as $$
declare
    found uuid;
begin
    perform set_config('storykeep.tenant_id', tenant, true), set_config('storykeep.person_id', '', true),
            set_config('storykeep.role', 'AUTHENTICATION', true), set_config('storykeep.login_name', '', true),
            set_config('storykeep.secret_hash', token_hash, true);
    select t.client_id into found
    from cms_tokens t
    join cms_clients c on c.tenant_id = t.tenant_id and c.id = t.client_id
    where t.tenant_id = current_tenant_id() and t.token_hash = current_secret_hash()
      and t.expires_at > at and c.revoked_at is null;
    perform set_config('storykeep.tenant_id', tenant, true), set_config('storykeep.person_id', '', true),
            set_config('storykeep.role', case when found is null then '' else 'CMS' end, true),
            set_config('storykeep.login_name', coalesce(found::text, ''), true),
            set_config('storykeep.secret_hash', '', true);
    return found;
end;
$$;

comment on function cms_client_authenticate(text, text, timestamptz) is
    'The client whose live bearer token has this hash (hex), in the transaction''s context from then on; null, in the tenant''s anonymous context, for none.';

revoke all on function cms_client_authenticate(text, text, timestamptz) from public;
grant execute on function cms_client_authenticate(text, text, timestamptz) to storykeep_app;
