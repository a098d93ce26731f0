/// The SQL of `MediaStore`: the person's files. Values only as the parameters listed above each
/// statement; a description is the columns `MediaRows.decode` reads.
enum MediaStatements {
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
}
