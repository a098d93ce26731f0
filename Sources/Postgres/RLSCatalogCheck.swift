/// Reads PostgreSQL's catalog and lists every way the schemas of a multi-tenant database stray
/// from "each tenant sees only its own rows", so that a test can hold every migration to it.
///
/// It knows no application: the schemas, the application's role and the tenant column are
/// parameters. It reports, for the given schemas:
/// - a table without row-level security both enabled and forced;
/// - a table whose primary key does not lead with the tenant column;
/// - a write (INSERT, UPDATE, DELETE) granted to the application role with no permissive policy
///   for that command applying to it;
/// - TRUNCATE (which ignores row-level security), TRIGGER or REFERENCES granted to it;
/// - a foreign key not led by the tenant column on both sides (foreign-key checks run without
///   row-level security, so a key on `author_id` alone accepts another tenant's row);
/// - a unique index without the tenant column (its violations reveal other tenants' values),
///   except on a table holding one row per tenant (primary key = the tenant column alone);
/// - a table owned by a role that bypasses row-level security (superuser or BYPASSRLS);
/// - a view without `security_invoker`, any materialized view, any SECURITY DEFINER function:
///   all read with their owner's rights;
/// and, anywhere in the database: an application role that is superuser or has BYPASSRLS, or
/// that owns anything (besides its session's temporary tables).
///
/// `exemptTables` (e.g. the migrator's history table) are not tenant data: they are only
/// required not to be writable by the application role. `exemptFunctions` are SECURITY DEFINER
/// functions allowed by name and signature as `pg_get_function_identity_arguments` writes it
/// (`privacy_erase_person(person uuid, confirm text)`): a reviewed exception each, any other fails.
public enum RLSCatalogCheck {
    /// One problem: the object concerned and what is wrong with it.
    public struct Violation: Sendable, Hashable, CustomStringConvertible {
        public let object: String
        public let problem: String
        public var description: String { "\(object): \(problem)" }
    }

    public static func violations(
        on database: some PostgresQueryable,
        schemas: [String] = ["public"],
        appRole: String,
        tenantColumn: String = "tenant_id",
        exemptTables: [String] = [],
        exemptFunctions: [String] = []
    ) async throws -> [Violation] {
        try await database.query(sql, schemas, appRole, tenantColumn, exemptTables, exemptFunctions).map { row in
            Violation(object: try row.decode(String.self, at: 0), problem: try row.decode(String.self, at: 1))
        }
    }

    /// $1 schemas, $2 application role, $3 tenant column, $4 exempt table names, $5 exempt
    /// SECURITY DEFINER functions.
    static let sql = """
        with tables as (
            select c.oid, n.nspname || '.' || c.relname as name, c.relrowsecurity, c.relforcerowsecurity,
                   c.relowner, c.relname = any($4::text[]) as exempt
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = any($1::text[]) and c.relkind in ('r', 'p', 'f')
        ),
        tenant_tables as (select * from tables where not exempt),
        -- The primary key's columns, in order, per table.
        primary_keys as (
            select i.indrelid as oid, array_agg(a.attname order by k.position) as columns
            from pg_index i
            cross join lateral unnest(i.indkey::int2[]) with ordinality as k(attnum, position)
            join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
            where i.indisprimary and k.position <= i.indnkeyatts
            group by i.indrelid
        ),
        app as (select oid, rolsuper, rolbypassrls from pg_roles where rolname = $2)

        select object, problem from (
        select name, 'row-level security is not enabled and forced'
        from tenant_tables where not (relrowsecurity and relforcerowsecurity)

        union all
        select t.name, 'primary key does not lead with ' || $3
        from tenant_tables t left join primary_keys k on k.oid = t.oid
        where k.columns[1] is distinct from $3::name

        union all
        select t.name, $2 || ' may ' || c.command || ' without a policy for ' || c.command
        from tenant_tables t
        cross join (values ('INSERT', 'a'), ('UPDATE', 'w'), ('DELETE', 'd')) as c(command, code)
        where has_table_privilege($2, t.oid, c.command)
          and not exists (
              select from pg_policy p
              where p.polrelid = t.oid and p.polpermissive and p.polcmd in (c.code::"char", '*')
                and (0::oid = any(p.polroles)
                     or exists (select from unnest(p.polroles) r where pg_has_role($2, r, 'member'))))

        union all
        select t.name, 'exempt from tenancy, yet ' || $2 || ' may ' || c.command
        from tables t cross join (values ('INSERT'), ('UPDATE'), ('DELETE')) as c(command)
        where t.exempt and has_table_privilege($2, t.oid, c.command)

        union all
        select t.name, $2 || ' has the ' || p.privilege || ' privilege'
        from tables t cross join (values ('TRUNCATE'), ('TRIGGER'), ('REFERENCES')) as p(privilege)
        where has_table_privilege($2, t.oid, p.privilege)

        union all
        select t.name || ' (' || con.conname || ')', 'foreign key does not lead with ' || $3 || ' on both sides'
        from tenant_tables t join pg_constraint con on con.conrelid = t.oid and con.contype = 'f'
        where (select attname from pg_attribute where attrelid = con.conrelid and attnum = con.conkey[1]) <> $3
           or (select attname from pg_attribute where attrelid = con.confrelid and attnum = con.confkey[1]) <> $3

        union all
        select t.name || ' (' || ic.relname || ')', 'unique index does not include ' || $3
        from tenant_tables t
        join pg_index i on i.indrelid = t.oid and i.indisunique and not i.indisprimary
        join pg_class ic on ic.oid = i.indexrelid
        left join primary_keys k on k.oid = t.oid
        where not exists (
                  select from pg_attribute a
                  where a.attrelid = t.oid and a.attname = $3 and a.attnum = any(i.indkey::int2[]))
          and k.columns is distinct from array[$3::name]

        union all
        select t.name, 'owned by ' || r.rolname || ', which bypasses row-level security'
        from tables t join pg_roles r on r.oid = t.relowner
        where r.rolsuper or r.rolbypassrls

        union all
        select n.nspname || '.' || c.relname,
               case c.relkind when 'm' then 'materialized view: its rows are computed with its owner''s rights'
                              else 'view without security_invoker = true: it reads with its owner''s rights' end
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = any($1::text[])
          and (c.relkind = 'm'
               or (c.relkind = 'v' and not exists (
                       select from unnest(c.reloptions) o where o ~* '^security_invoker=(true|on|yes|1|t|y)$')))

        union all
        select n.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')',
               'SECURITY DEFINER function: it runs with its owner''s rights'
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = any($1::text[]) and p.prosecdef
          and not p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' = any($5::text[])

        union all
        select 'role ' || $2, 'is superuser or has BYPASSRLS'
        from app where rolsuper or rolbypassrls

        union all
        select n.nspname || '.' || c.relname, 'owned by ' || $2 || ', which must own nothing'
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relowner = (select oid from app) and n.nspname !~ '^pg_(toast_)?temp_'

        union all
        select n.nspname || '.' || p.proname, 'owned by ' || $2 || ', which must own nothing'
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where p.proowner = (select oid from app) and n.nspname !~ '^pg_(toast_)?temp_'

        union all
        select 'schema ' || nspname, 'owned by ' || $2 || ', which must own nothing'
        from pg_namespace where nspowner = (select oid from app)

        ) as found (object, problem)
        order by object collate "C", problem collate "C"
        """
}
