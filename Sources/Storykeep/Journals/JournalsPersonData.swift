import Foundation
public import StorykeepCore

extension JournalsModule {
    /// The module's part of a person's data export: entries.json, check-ins.json, media.json.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        [
            try await subject.json("entries.json", about: "Everything you wrote or recorded in your journal, including entries you deleted that are still in your archive (they have a deletedAt time). Files (pictures, sounds, videos) are named by their id: see the media folder.", JournalsPersonData.entries),
            try await subject.json("check-ins.json", about: "Your daily check-ins: the mood you picked each day, and the days you chose to skip.", JournalsPersonData.checkIns),
            try await subject.json("media.json", about: "A list of your files (pictures, drawings, sounds, videos): what kind each is, how big, and when you added it. The files themselves are in the media folder, named by their id.", JournalsPersonData.media),
        ] + (try await JournalsPersonData.files(subject))
    }
}

/// The SQL of the module's part of a data export, in the person's own context; $1 the person.
enum JournalsPersonData {
    /// entries.json: the rows of the person $1, as JSON.
    static let entries = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x.day, x."createdAt"), '[]'::jsonb)) from (
            select e.id, e.day, e.kind, e.body as "text", e.mood, e.background, e.suggestion, e.tag_names as "tags",
                   e.created_at as "createdAt", e.updated_at as "updatedAt", e.archived_at as "deletedAt",
                   coalesce((select jsonb_agg(em.media_id order by em.position) from entry_media em
                             where em.tenant_id = e.tenant_id and em.entry_id = e.id), '[]'::jsonb) as "fileIds"
            from entries e where e.tenant_id = current_tenant_id() and e.author_id = $1 and e.kind <> 'MOOD'
        ) x
        """

    /// check-ins.json: the rows of the person $1, as JSON.
    static let checkIns = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x.day), '[]'::jsonb)) from (
            select e.day, e.mood, e.body as "text", e.created_at as "checkedInAt", e.archived_at as "deletedAt", false as skipped
            from entries e where e.tenant_id = current_tenant_id() and e.author_id = $1 and e.kind = 'MOOD'
            union all
            select s.day, null, null, s.skipped_at, null, true
            from check_in_skips s where s.tenant_id = current_tenant_id() and s.person_id = $1
        ) x
        """

    /// media.json: the rows of the person $1, as JSON.
    static let media = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x."addedAt", x.id), '[]'::jsonb)) from (
            select m.id, m.content_type as "type", m.byte_size as "bytes", encode(m.sha256, 'hex') as sha256, m.created_at as "addedAt"
            from media m where m.tenant_id = current_tenant_id() and m.owner_id = $1
        ) x
        """

    /// The person's files, as `media/<id><extension>`: id, content type, bytes.
    static let mediaFiles = """
        select m.id, m.content_type, m.bytes from media m
        where m.tenant_id = current_tenant_id() and m.owner_id = $1
        order by m.created_at, m.id
        """

    /// The bytes of each of the person's files, explained by media.json.
    static func files(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        try await subject.transaction.query(mediaFiles, subject.personID).map { row in
            let id = try row.decode(UUID.self, at: 0)
            let name = id.lowercased + FileExtensions.of(try row.decode(String.self, at: 1))
            return PersonDataFile(path: "media/" + name, bytes: try row.decode([UInt8].self, at: 2), about: nil)
        }
    }
}
