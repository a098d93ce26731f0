public import Foundation
public import GraphQL
public import StorykeepCaseload
import StorykeepCore

/// Where an alert stands (the `safety_alert_status` of Migrations/0014_safety.sql).
public enum SafetyAlertStatus: String, Sendable, Hashable, CaseIterable {
    case open = "OPEN"
    case acknowledged = "ACKNOWLEDGED"
    case resolved = "RESOLVED"
}

/// A step a member of staff took on an alert (the `safety_alert_action` type).
public enum SafetyAlertAction: String, Sendable, Hashable {
    case acknowledged = "ACKNOWLEDGED"
    case resolved = "RESOLVED"
}

/// Who acted on an alert, by the name they went by then (the GraphQL type `SafetyAlertStaff`).
public struct SafetyAlertStaff: Sendable, Hashable {
    public var id: UUID
    public var displayName: String
}

/// A row of `safety_alert_notes` (the GraphQL type `SafetyAlertNote`): staff only.
public struct SafetyAlertNote: Sendable, Hashable {
    public var action: SafetyAlertAction
    public var by: SafetyAlertStaff
    public var note: String?
    public var at: Date
}

/// A safety alert as its reader may see it: the source of `SafetyAlert` (staff, with the notes)
/// and of `MySafetyAlert` (its young person, whose read leaves `notes` empty: the database
/// shows them none).
public struct SafetyAlert: Sendable, Hashable {
    public var id: UUID
    public var youngPerson: CaseloadPerson
    public var message: String?
    public var raisedAt: Date
    public var status: SafetyAlertStatus
    public var acknowledgedAt: Date?
    public var resolvedAt: Date?
    public var escalatedAt: Date?
    public var notes: [SafetyAlertNote]

    /// Who acknowledged it (their note of it), as far as the reader sees notes.
    public var acknowledgedBy: SafetyAlertStaff? { notes.first { $0.action == .acknowledged }?.by }
    /// Who resolved it.
    public var resolvedBy: SafetyAlertStaff? { notes.first { $0.action == .resolved }?.by }
}

extension SafetyAlert: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "youngPerson": youngPerson
        case "message": message
        case "raisedAt": DateTimeScalar.string(raisedAt)
        case "status": status.rawValue
        case "acknowledgedAt": acknowledgedAt.map(DateTimeScalar.string)
        case "acknowledgedBy": acknowledgedBy
        case "resolvedAt": resolvedAt.map(DateTimeScalar.string)
        case "resolvedBy": resolvedBy
        case "escalatedAt": escalatedAt.map(DateTimeScalar.string)
        case "notes": notes
        default: nil
        }
    }
}

extension SafetyAlertStaff: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "displayName": displayName
        default: nil
        }
    }
}

extension SafetyAlertNote: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "action": action.rawValue
        case "by": by
        case "note": note
        case "at": DateTimeScalar.string(at)
        default: nil
        }
    }
}

extension Helpline: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "name": self.name
        case "phone": phone
        case "hours": hours
        case "url": url
        default: nil
        }
    }
}
