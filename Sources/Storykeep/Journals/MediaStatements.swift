/// The SQL of `MediaStore`: the person's files. Values only as the parameters listed above each
/// statement; a description is the columns `MediaRows.decode` reads.
package enum MediaStatements {
    /// Stores the bytes $2 as a file of the person's, of the type $1; returns its description
    /// (the size and SHA-256 computed by the database).
    static let upload = """
        insert into media (tenant_id, owner_id, content_type, bytes)
        values (current_tenant_id(), current_person_id(), $1, $2)
        returning id, content_type, byte_size, sha256, created_at
        """

    /// The descriptions of the files among $1 (uuid[]) that the person may read.
    static let mediaByID = """
        select m.id, m.content_type, m.byte_size, m.sha256, m.created_at
        from media m where m.tenant_id = current_tenant_id() and m.id = any($1::uuid[])
        """

    /// The bytes of the file $1 from the offset $2, $3 of them (all up to its end when null), if
    /// the person may read it. The bytes are stored uncompressed, so PostgreSQL reads only the
    /// chunks the range covers.
    static let bytes = """
        select case when $3::int8 is null then substring(m.bytes from $2::int8::int4 + 1)
                    else substring(m.bytes from $2::int8::int4 + 1 for $3::int8::int4) end
        from media m where m.tenant_id = current_tenant_id() and m.id = $1
        """

    // MARK: Files attached in order

    /// Attaches the person's files $2 (uuid[]), in that order, to the thing $1 of theirs that the
    /// link table `table` holds files of: its columns `tenant_id`, `owner` (the thing's id),
    /// `media_id`, `person` (the person attaching) and `position`. A post's files, a message's.
    package static func attach(to table: String, owner: String, person: String) -> String {
        """
        insert into \(table) (tenant_id, \(owner), media_id, \(person), position)
        select current_tenant_id(), $1, x.id, current_person_id(), x.ord - 1
        from unnest($2::uuid[]) with ordinality as x (id, ord)
        """
    }

    /// The files of the things among $1 (uuid[]) that the person reads, in each thing's order,
    /// through the link table `table` of ``attach(to:owner:person:)``: the thing's id (`owner`),
    /// then the columns `MediaRows.decode` reads. What ``MediaRows/byOwner(_:_:on:)`` reads.
    package static func attached(in table: String, owner: String) -> String {
        """
        select l.\(owner), m.id, m.content_type, m.byte_size, m.sha256, m.created_at
        from \(table) l
        join media m on m.tenant_id = l.tenant_id and m.id = l.media_id
        where l.tenant_id = current_tenant_id() and l.\(owner) = any($1::uuid[])
        order by l.\(owner), l.position
        """
    }
}
