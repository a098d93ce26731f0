/// The SQL of data exports (`data_exports`, Migrations/0030_privacy.sql): requested by a person or
/// an admin, built and downloaded in the tenant's operator context. Values only as the
/// parameters listed above each statement.
enum DataExportStatements {
    /// The columns ``DataExport`` reads, in its order.
    static let columns = "id, person_id, status, progress, requested_at, ready_at, expires_at, byte_size"

    /// A new export of the person $1's data, asked by the context's person (null: the operator).
    static let request = """
        insert into data_exports (tenant_id, person_id, requested_by)
        values (current_tenant_id(), $1, current_person_id())
        returning \(columns)
        """

    /// The export $1, as the one who asked (or the operator) sees it.
    static let find = "select \(columns) from data_exports where tenant_id = current_tenant_id() and id = $1"

    /// Claims the oldest export waiting (PENDING, or BUILDING by a builder whose claim is older
    /// than $1, which stopped), skipping those another builder holds: its id and person, their role.
    static let claim = """
        update data_exports d set status = 'BUILDING', claimed_at = clock_timestamp(), progress = 0
        from people p
        where d.tenant_id = current_tenant_id() and p.tenant_id = d.tenant_id and p.id = d.person_id
          and d.id = (select w.id from data_exports w
                      where w.tenant_id = current_tenant_id()
                        and (w.status = 'PENDING' or (w.status = 'BUILDING' and w.claimed_at < $1))
                      order by w.requested_at limit 1 for update skip locked)
        returning d.id, d.person_id, p.role::text
        """

    /// Progress $2 (0–100) of the export $1 still being built.
    static let progress = "update data_exports set progress = $2 where tenant_id = current_tenant_id() and id = $1 and status = 'BUILDING'"

    /// The export $1 is built: its ZIP $2, downloadable until $3.
    static let ready = """
        update data_exports set status = 'READY', progress = 100, zip = $2, ready_at = clock_timestamp(), expires_at = $3
        where tenant_id = current_tenant_id() and id = $1 and status = 'BUILDING'
        """

    /// The export $1 could not be built.
    static let failed = "update data_exports set status = 'FAILED' where tenant_id = current_tenant_id() and id = $1 and status = 'BUILDING'"

    /// Removes the files of the exports not downloaded by $1: how many.
    static let expire = """
        update data_exports set status = 'EXPIRED', zip = null
        where tenant_id = current_tenant_id() and status = 'READY' and expires_at <= $1
        """

    /// The file of the export $1, while it waits to be downloaded (its link says until when):
    /// size and SHA-256.
    static let file = """
        select byte_size, sha256 from data_exports
        where tenant_id = current_tenant_id() and id = $1 and status = 'READY'
        """

    /// Takes the file of the export $1 (it is downloaded once): its bytes from $2 (0-based), $3 of
    /// them (all when null); no row when it has gone.
    static let take = """
        with taken as (
            select zip from data_exports
            where tenant_id = current_tenant_id() and id = $1 and status = 'READY'
            for update
        ), spent as (
            update data_exports set status = 'DOWNLOADED', downloaded_at = clock_timestamp(), zip = null
            where tenant_id = current_tenant_id() and id = $1 and status = 'READY'
        )
        select case when $3::integer is null then substring(zip from $2::integer + 1)
                    else substring(zip from $2::integer + 1 for $3::integer) end
        from taken
        """
}
