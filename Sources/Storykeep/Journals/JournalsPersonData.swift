import Foundation
public import StorykeepCore

extension JournalsModule {
    /// The module's part of a person's data export: its JSON files and the person's own files.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        try await subject.files(personDataFiles) + JournalsPersonData.files(subject)
    }

    /// entries.json, check-ins.json, media.json of a person's data export, read in their own
    /// context ($1 the person); the files themselves follow them, under `media/`.
    public var personDataFiles: [PersonDataQuery] {
        [
            .array("entries.json", about: "Everything you wrote or recorded in your journal, including entries you deleted that are still in your archive (they have a deletedAt time). Files (pictures, sounds, videos) are named by their id: see the media folder.", orderedBy: #"x.day, x."createdAt""#, rows: """
                select e.id, e.day, e.kind, e.body as "text", e.mood, e.background, e.suggestion, e.tag_names as "tags",
                       e.created_at as "createdAt", e.updated_at as "updatedAt", e.archived_at as "deletedAt",
                       coalesce((select jsonb_agg(em.media_id order by em.position) from entry_media em
                                 where em.tenant_id = e.tenant_id and em.entry_id = e.id), '[]'::jsonb) as "fileIds"
                from entries e where e.tenant_id = current_tenant_id() and e.author_id = $1 and e.kind <> 'MOOD'
                """),
            .array("check-ins.json", about: "Your daily check-ins: the mood you picked each day, and the days you chose to skip.", orderedBy: "x.day", rows: """
                select e.day, e.mood, e.body as "text", e.created_at as "checkedInAt", e.archived_at as "deletedAt", false as skipped
                from entries e where e.tenant_id = current_tenant_id() and e.author_id = $1 and e.kind = 'MOOD'
                union all
                select s.day, null, null, s.skipped_at, null, true
                from check_in_skips s where s.tenant_id = current_tenant_id() and s.person_id = $1
                """),
            .array("media.json", about: "A list of your files (pictures, drawings, sounds, videos): what kind each is, how big, and when you added it. The files themselves are in the media folder, named by their id.", orderedBy: #"x."addedAt", x.id"#, rows: """
                select m.id, m.content_type as "type", m.byte_size as "bytes", encode(m.sha256, 'hex') as sha256, m.created_at as "addedAt"
                from media m where m.tenant_id = current_tenant_id() and m.owner_id = $1
                """)
        ]
    }
}

/// The person's own files in their data export, each as `media/<id><extension>`, explained by
/// media.json.
enum JournalsPersonData {
    /// The person $1's files: id, content type, bytes.
    static let mediaFiles = """
        select m.id, m.content_type, m.bytes from media m
        where m.tenant_id = current_tenant_id() and m.owner_id = $1
        order by m.created_at, m.id
        """

    static func files(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        try await subject.transaction.query(mediaFiles, subject.personID).map { row in
            let id = try row.decode(UUID.self, at: 0)
            let name = id.lowercased + FileExtensions.of(try row.decode(String.self, at: 1))
            return PersonDataFile(path: "media/" + name, bytes: try row.decode([UInt8].self, at: 2), about: nil)
        }
    }
}
