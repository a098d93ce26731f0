import Foundation
import GraphQL
import Postgres
import StorykeepCore

/// A data export (`DataExport` in Schema/privacy.graphql): a ZIP of everything Storykeep holds
/// about a person, built in the background and downloaded once.
struct DataExport: Sendable, Equatable {
    enum Status: String, Sendable {
        case pending = "PENDING", building = "BUILDING", ready = "READY", downloaded = "DOWNLOADED", expired = "EXPIRED"
        case failed = "FAILED"
    }

    var id: UUID
    var personID: UUID
    var status: Status
    var progress: Int
    var requestedAt: Date
    var readyAt: Date?
    var expiresAt: Date?
    var byteSize: Int?

    /// A row of ``DataExportStatements/columns``.
    init(row: PostgresRow) throws {
        id = try row.decode(UUID.self, at: 0)
        personID = try row.decode(UUID.self, at: 1)
        status = Status(rawValue: try row.decode(String.self, at: 2)) ?? .failed
        progress = try row.decode(Int.self, at: 3)
        requestedAt = try row.decode(Date.self, at: 4)
        readyAt = try row.decode(Date?.self, at: 5)
        expiresAt = try row.decode(Date?.self, at: 6)
        byteSize = try row.decode(Int?.self, at: 7)
    }
}

/// `DataExport` as the schema reads it, with the link to download it while it is ready.
struct DataExportView: Sendable, GraphQLFieldReadable {
    var export: DataExport
    /// The signed link, while the export is ready.
    var downloadURL: String?

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": export.id.lowercased
        case "personId": export.personID.lowercased
        case "status": export.status.rawValue
        case "progress": export.progress
        case "requestedAt": DateTimeScalar.string(export.requestedAt)
        case "readyAt": export.readyAt.map(DateTimeScalar.string)
        case "expiresAt": export.expiresAt.map(DateTimeScalar.string)
        case "byteSize": export.byteSize
        case "downloadUrl": downloadURL
        default: nil
        }
    }
}
