/// The SQL of `TenantStore`: the `tenants` table, written as the owner role and read by any.
/// Values only as the parameters listed above each statement.
enum TenantStatements {
    /// Serialises applies: two racing applies would both see a slug as new.
    static let lock = "LOCK TABLE tenants IN SHARE ROW EXCLUSIVE MODE"

    /// A tenant other than the slug $1 that answers on one of the hosts $2 (text[]): its slug
    /// and that host.
    static let hostClash = """
        SELECT slug, host FROM tenants, unnest(hosts) AS host
        WHERE slug <> $1 AND host = ANY($2)
        LIMIT 1
        """

    /// The stored tenant file of the slug $1, as JSON text, and the tenant's id.
    static let config = "SELECT config::text, tenant_id FROM tenants WHERE slug = $1"

    /// A new tenant, enabled: $1 its id, $2 slug, $3 display name, $4 hosts (text[]), $5 its
    /// tenant file as JSON text.
    static let insert = """
        INSERT INTO tenants (tenant_id, slug, display_name, hosts, config, enabled)
        VALUES ($1, $2, $3, $4, $5::jsonb, true)
        """

    /// A new version of the tenant $1's file: $2 display name, $3 hosts (text[]), $4 the file
    /// as JSON text. `enabled` is left as it is.
    static let update = """
        UPDATE tenants SET display_name = $2, hosts = $3, config = $4::jsonb, updated_at = now()
        WHERE slug = $1
        """

    /// Every tenant by slug: id, enabled, slug, file (JSON text), cursor key and trusted
    /// documents (JSON text).
    static let all = "SELECT tenant_id, enabled, slug, config::text, cursor_key, trusted_documents::text FROM tenants ORDER BY slug"

    /// Adds the documents $2 (a JSON object of id -> text) to the tenant $1's trusted documents,
    /// or, when $3, replaces them; returns how many it then has, or no row if there is no tenant.
    static let registerDocuments = """
        UPDATE tenants
        SET trusted_documents = CASE WHEN $3 THEN '{}'::jsonb ELSE trusted_documents END || $2::jsonb, updated_at = now()
        WHERE slug = $1
        RETURNING (SELECT count(*) FROM jsonb_object_keys(trusted_documents))
        """

    /// Turns serving the tenant $1 on or off ($2); returns its id, or no row if there is none.
    static let setEnabled = "UPDATE tenants SET enabled = $2, updated_at = now() WHERE slug = $1 RETURNING tenant_id"
}
