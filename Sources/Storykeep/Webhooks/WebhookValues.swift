import Foundation
import GraphQL
import Postgres
import StorykeepCore

/// Where a delivery stands (the GraphQL enum `WebhookDeliveryStatus`, the column `status`).
enum WebhookDeliveryStatus: String, Sendable, CaseIterable {
    /// Not tried yet.
    case pending = "PENDING"
    case delivered = "DELIVERED"
    /// Tried and failed; tried again at its next attempt.
    case failed = "FAILED"
    /// Failed for 24 hours: given up, kept for the admins to see.
    case dead = "DEAD"
}

/// A delivery as agency admins list it (the GraphQL type `WebhookDelivery`): never its body's
/// secret, which is nowhere in the database, and the body itself holds ids only.
struct WebhookDeliveryRecord: Sendable, GraphQLFieldReadable {
    var id: UUID
    var event: String
    var url: String
    var status: String
    var attempts: Int
    var lastStatusCode: Int?
    var lastError: String?
    var lastAttemptAt: Date?
    var nextAttemptAt: Date?
    /// Exactly, for the cursor; and as a date, for the client.
    var createdAt: PostgresTimestamp
    var createdAtDate: Date
    var deliveredAt: Date?

    /// A row of ``WebhookStatements/page``.
    init(row: PostgresRow) throws {
        id = try row.decode(UUID.self, at: 0)
        event = try row.decode(String.self, at: 1)
        url = try row.decode(String.self, at: 2)
        status = try row.decode(String.self, at: 3)
        attempts = try row.decode(Int.self, at: 4)
        lastStatusCode = try row.decode(Int?.self, at: 5)
        lastError = try row.decode(String?.self, at: 6)
        lastAttemptAt = try row.decode(Date?.self, at: 7)
        nextAttemptAt = try row.decode(Date?.self, at: 8)
        createdAt = try row.decode(PostgresTimestamp.self, at: 9)
        createdAtDate = try row.decode(Date.self, at: 9)
        deliveredAt = try row.decode(Date?.self, at: 10)
    }

    var position: WebhookDeliveryPosition { WebhookDeliveryPosition(moment: createdAt, id: id) }

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "event": event
        case "url": url
        case "status": status
        case "attempts": attempts
        case "lastStatusCode": lastStatusCode
        case "lastError": lastError
        case "lastAttemptAt": lastAttemptAt.map(DateTimeScalar.string)
        case "nextAttemptAt": nextAttemptAt.map(DateTimeScalar.string)
        case "createdAt": DateTimeScalar.string(createdAtDate)
        case "deliveredAt": deliveredAt.map(DateTimeScalar.string)
        default: nil
        }
    }
}

/// The deliveries, newest first: `(created_at, id)` descending.
enum WebhookDeliveryList: MomentOrderedList {
    static var name: String { "webhookDeliveries" }
}

typealias WebhookDeliveryPosition = MomentPosition<WebhookDeliveryList>
