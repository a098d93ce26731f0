import Foundation
import GraphQL
import Postgres
import StorykeepCore

/// What a client pulls (`export { changes youngPeople }`), read in its own context, where the
/// database shows only what the tenant's export scope lets it hold (Migrations/0018_export_feed.sql).
struct ExportFeed {
    let tx: PostgresTransaction
    let tenant: Tenant
    let client: ServiceClient
    let links: any ResourceLinks
    let now: Date

    /// The most a page may ask for.
    static let maxFirst = 500

    /// Up to `first` changes after `after`, each with the entry as it is now (UPSERT) or, when
    /// it is no longer exportable, a TOMBSTONE (left out under `export.onRevoke: keep`); an
    /// entry changed more than once in the page is told once, at its last change.
    func changes(after: ExportPosition?, first: Int) async throws -> (items: [ExportChange], last: ExportPosition, hasMore: Bool) {
        let start = after ?? .start
        let rows = try await tx.query(ExportStatements.changes, String(start.xid), start.sequence, first + 1)
        var changes: [(position: ExportPosition, entryID: UUID)] = []
        for row in rows.prefix(first) {
            guard let xid = UInt64(try row.decode(String.self, at: 0)) else { throw GraphQLError.internal() }
            changes.append((ExportPosition(xid: xid, sequence: try row.decode(Int64.self, at: 1)), try row.decode(UUID.self, at: 2)))
        }
        let entries = try await self.entries(Array(Set(changes.map(\.entryID))))
        let lastIndex = Dictionary(changes.enumerated().map { ($1.entryID, $0) }) { _, later in later }
        let keep = tenant.file.export.onRevoke == .keep
        let items = changes.enumerated().compactMap { index, change -> ExportChange? in
            guard lastIndex[change.entryID] == index else { return nil }
            if let entry = entries[change.entryID] {
                return ExportChange(op: .upsert, sequence: change.position.sequence, entryID: change.entryID, entry: entry)
            }
            return keep ? nil : ExportChange(op: .tombstone, sequence: change.position.sequence, entryID: change.entryID, entry: nil)
        }
        return (items, changes.last?.position ?? start, rows.count > first)
    }

    /// The entries among `ids` the client may hold, whole: tags, shares, files with their links.
    func entries(_ ids: [UUID]) async throws -> [UUID: ExportEntry] {
        guard !ids.isEmpty else { return [:] }
        var entries: [UUID: ExportEntry] = [:]
        for row in try await tx.query(ExportStatements.entries, ids) {
            let id = try row.decode(UUID.self, at: 0)
            entries[id] = ExportEntry(
                id: id,
                youngPerson: ExportPerson(
                    id: try row.decode(UUID.self, at: 1), externalRef: try row.decode(String?.self, at: 9),
                    displayName: try row.decode(String.self, at: 10)),
                day: try row.decode(PostgresDate.self, at: 2), kind: try row.decode(String.self, at: 3),
                text: try row.decode(String?.self, at: 4), mood: try row.decode(String?.self, at: 5),
                background: try row.decode(String?.self, at: 6), createdAt: try row.decode(Date.self, at: 7),
                updatedAt: try row.decode(Date.self, at: 8))
        }
        let found = Array(entries.keys)
        guard !found.isEmpty else { return [:] }
        for row in try await tx.query(ExportStatements.tags, found) {
            entries[try row.decode(UUID.self, at: 0)]?.tags.append(try row.decode(String.self, at: 1))
        }
        for row in try await tx.query(ExportStatements.shares, found) {
            let share = ExportShare(
                person: ExportPerson(
                    id: try row.decode(UUID.self, at: 1), externalRef: try row.decode(String?.self, at: 2),
                    displayName: try row.decode(String.self, at: 3)),
                relationship: try row.decode(String.self, at: 4), sharedAt: try row.decode(Date.self, at: 5),
                message: try row.decode(String?.self, at: 6))
            entries[try row.decode(UUID.self, at: 0)]?.sharedWith.append(share)
        }
        let expires = now.addingTimeInterval(Double(tenant.file.export.mediaLinkMinutes * 60))
        for row in try await tx.query(ExportStatements.media, found) {
            let id = try row.decode(UUID.self, at: 1)
            let file = ExportFile(
                id: id, contentType: try row.decode(String.self, at: 2), byteSize: try row.decode(Int.self, at: 3),
                sha256Hex: Crypto.hex(try row.decode([UInt8].self, at: 4)),
                url: MediaLinks.url(file: id, client: client, tenant: tenant, expires: expires, links: links))
            entries[try row.decode(UUID.self, at: 0)]?.media.append(file)
        }
        return entries
    }

    /// The bytes of the pictures among `files`, by id.
    func images(_ files: [UUID]) async throws -> [UUID: [UInt8]] {
        guard !files.isEmpty else { return [:] }
        var images: [UUID: [UInt8]] = [:]
        for row in try await tx.query(ExportStatements.imageBytes, files) {
            images[try row.decode(UUID.self, at: 0)] = try row.decode([UInt8].self, at: 1)
        }
        return images
    }

    /// Up to `first` young people of the agency after the id `after`, by id.
    func youngPeople(after: UUID?, first: Int) async throws -> [ExportYoungPerson] {
        try await tx.query(ExportStatements.youngPeople, after, first).map { row in
            let person = ExportPerson(
                id: try row.decode(UUID.self, at: 0), externalRef: try row.decode(String?.self, at: 1),
                displayName: try row.decode(String.self, at: 2))
            let worker = try row.decode(UUID?.self, at: 3).map { id in
                ExportPerson(id: id, externalRef: try row.decode(String?.self, at: 4), displayName: try row.decode(String.self, at: 5))
            }
            return ExportYoungPerson(person: person, socialWorker: worker)
        }
    }
}
