import Foundation
import GraphQL
import Postgres
import StorykeepAccounts
import StorykeepCaseload
public import StorykeepCore
import StorykeepJournals

/// The audit trail in the schema (Schema/audit.graphql): `auditLog` for agency admins, and on a
/// young person's entries who read them (`Entry.readBy`) and when they went to the case record
/// (`Entry.exportedAt`). It records the logins and the admin actions of other modules from their
/// events; other modules record what they alone see (a client's pull, an adult's read) with the
/// core's `AuditTrail`. Always on.
public struct AuditModule: StorykeepModule {
    public init() {}

    public var name: String { "audit" }
    public var switchedBy: TenantModule? { nil }

    /// The most events a page may have.
    static let maxPage = 100

    static let readers = DataLoader<UUID, [EntryRead]>.inTransaction("Entry.readBy") { entryIDs, _, tx in
        var reads: [UUID: [EntryRead]] = [:]
        for row in try await tx.query(AuditStatements.readers, entryIDs) {
            reads[try row.decode(UUID.self, at: 0), default: []].append(
                EntryRead(
                    reader: try row.decode(UUID.self, at: 1), readerName: try row.decode(String?.self, at: 2),
                    firstReadAt: try row.decode(Date.self, at: 3), lastReadAt: try row.decode(Date.self, at: 4)))
        }
        return entryIDs.map { reads[$0] ?? [] }
    }

    static let exported = DataLoader<UUID, String?>.inTransaction("Entry.exportedAt") { entryIDs, _, tx in
        var moments: [UUID: Date] = [:]
        for row in try await tx.query(AuditStatements.exported, entryIDs) {
            moments[try row.decode(UUID.self, at: 0)] = try row.decode(Date.self, at: 1)
        }
        return entryIDs.map { moments[$0].map(DateTimeScalar.string) }
    }

    public func register(_ module: inout ModuleRegistry) {
        module.query("auditLog", access: .roles([.agencyAdmin])) { arguments, context in
            let filter = try AuditFilter(arguments["filter"]?.objectValue)
            let first = arguments["first"]?.intValue ?? 50
            guard (0...Self.maxPage).contains(first) else {
                throw GraphQLError.badUserInput(field: "first", "first: ask for 0 to \(Self.maxPage) at a time.")
            }
            let position = try context.cursors.position(after: arguments["after"]?.stringValue, of: AuditPosition.self) ?? .pastNewest
            let events = try await context.transaction { tx in
                try await tx.query(
                    AuditStatements.page, filter.actor, filter.subjectPerson, filter.action, filter.from, filter.to, position.moment,
                    position.id, first + 1
                ).map(AuditEvent.init(row:))
            }
            let page = Page(items: events.prefix(first).map { ($0, $0.position) }, hasNextPage: events.count > first)
            return page.connection(cursors: context.cursors, node: { $0 })
        }
        module.field(
            "Entry.readBy",
            .sync { source, _, _, info in
                guard let entry = source as? Entry else { return [EntryRead]() }
                return Self.readers.load(entry.id, info)
            })
        module.field(
            "Entry.exportedAt",
            .sync { source, _, _, info in
                guard let entry = source as? Entry else { return nil }
                return Self.exported.load(entry.id, info)
            })
        recordEvents(&module)
    }

    /// The other modules' events the trail records.
    private func recordEvents(_ module: inout ModuleRegistry) {
        module.on(LoggedIn.self) { event, context in
            try await context.audit(.loginSucceeded, by: .person(event.personID), person: event.personID)
        }
        module.on(LoginFailed.self) { event, context in
            try await context.audit(.loginFailed, by: .nobody, person: event.personID)
        }
        module.on(PersonCreated.self) { event, context in
            try await context.audit(.personCreated, person: event.personID)
        }
        module.on(AssignmentStarted.self) { event, context in
            try await context.audit(.assignmentStarted, person: event.youngPersonID, subject: event.assignmentID)
        }
        module.on(AssignmentEnded.self) { event, context in
            try await context.audit(.assignmentEnded, person: event.youngPersonID, subject: event.assignmentID)
        }
    }
}
