import Foundation
import GraphQL
import Postgres
import StorykeepCore

/// A row of the audit trail (the GraphQL type `AuditEvent`).
struct AuditEvent: Sendable, GraphQLFieldReadable {
    var id: UUID
    /// Exactly, for the cursor; and as a date, for the client.
    var occurredAt: PostgresTimestamp
    var occurredAtDate: Date
    var actorPerson: UUID?
    var actorClient: UUID?
    var action: String
    var subjectPerson: UUID?
    var subject: UUID?
    /// The HTTP request's id; nil for the command line and background work.
    var requestID: String?

    /// A row of ``AuditStatements/page``.
    init(row: PostgresRow) throws {
        id = try row.decode(UUID.self, at: 0)
        occurredAt = try row.decode(PostgresTimestamp.self, at: 1)
        occurredAtDate = try row.decode(Date.self, at: 1)
        actorPerson = try row.decode(UUID?.self, at: 2)
        actorClient = try row.decode(UUID?.self, at: 3)
        action = try row.decode(String.self, at: 4)
        subjectPerson = try row.decode(UUID?.self, at: 5)
        subject = try row.decode(UUID?.self, at: 6)
        requestID = try row.decode(String?.self, at: 7)
    }

    var position: AuditPosition { AuditPosition(moment: occurredAt, id: id) }

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "occurredAt": DateTimeScalar.string(occurredAtDate)
        case "actorPersonId": actorPerson?.lowercased
        case "actorClientId": actorClient?.lowercased
        case "action": action
        case "subjectPersonId": subjectPerson?.lowercased
        case "subjectId": subject?.lowercased
        case "requestId": requestID
        default: nil
        }
    }
}

/// The audit trail, newest first: `(occurred_at, id)` descending.
enum AuditList: MomentOrderedList {
    static var name: String { "auditLog" }
}

typealias AuditPosition = MomentPosition<AuditList>

/// An adult who read an entry (the GraphQL type `EntryRead`).
struct EntryRead: Sendable, GraphQLFieldReadable {
    var reader: UUID
    var readerName: String?
    var firstReadAt: Date
    var lastReadAt: Date

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "readerId": reader.lowercased
        case "readerName": readerName
        case "firstReadAt": DateTimeScalar.string(firstReadAt)
        case "lastReadAt": DateTimeScalar.string(lastReadAt)
        default: nil
        }
    }
}

/// `auditLog(filter:)`, checked.
struct AuditFilter: Sendable {
    var actor: UUID?
    var subjectPerson: UUID?
    var action: String?
    var from: Date?
    var to: Date?

    init(_ filter: GraphQLObject?) throws {
        func id(_ name: String) throws -> UUID? {
            guard let text = filter?[name]?.stringValue else { return nil }
            guard let id = UUID(uuidString: text) else {
                throw GraphQLError.badUserInput(field: "filter.\(name)", "filter.\(name): that is not an id.")
            }
            return id
        }
        func instant(_ name: String) throws -> Date? {
            guard let text = filter?[name]?.stringValue else { return nil }
            let formats = [Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle()]
            guard let date = formats.lazy.compactMap({ try? $0.parse(text) }).first else {
                throw GraphQLError.badUserInput(field: "filter.\(name)", "filter.\(name): write an instant as 2026-11-24T09:30:00Z.")
            }
            return date
        }
        actor = try id("actorId")
        subjectPerson = try id("subjectPersonId")
        action = filter?["action"]?.stringValue
        from = try instant("from")
        to = try instant("to")
    }
}
