import Foundation
import Postgres
import StorykeepArchive
import StorykeepCaseload
import StorykeepCore
import StorykeepJournals
import StorykeepSharing

/// The export's change log (`export_changes`, Migrations/0018_export_feed.sql), written by the
/// handlers of the changes that may alter what a client holds of an entry, in their transaction.
/// A row names the entry only; the feed decides, when it is read, what the client is told.
enum ChangeLog {
    /// Registers the handlers: shared and unshared always; edited, archived and restored when the
    /// entry has a standing share; an ended assignment for each entry shared in it.
    static func register(_ module: inout ModuleRegistry) {
        module.on(EntryShared.self) { event, context in try await note(event.entryID, in: context.transaction) }
        module.on(EntryUnshared.self) { event, context in try await note(event.entryID, in: context.transaction) }
        module.on(EntryUpdated.self) { event, context in try await noteIfShared(event.entryID, in: context.transaction) }
        module.on(EntryArchived.self) { event, context in try await noteIfShared(event.entryID, in: context.transaction) }
        module.on(EntryRestored.self) { event, context in try await noteIfShared(event.entryID, in: context.transaction) }
        module.on(AssignmentEnded.self) { event, context in try await assignmentEnded(event.assignmentID, context: context) }
    }

    private static func note(_ entryID: UUID, in tx: PostgresTransaction) async throws {
        try await tx.execute(ExportStatements.logChange, entryID)
    }

    /// In the author's transaction, who sees their own shares.
    private static func noteIfShared(_ entryID: UUID, in tx: PostgresTransaction) async throws {
        guard try await tx.query(ExportStatements.isShared, entryID).first?.decode(Bool.self, at: 0) == true else { return }
        try await note(entryID, in: tx)
    }

    /// In the admin's transaction, who reads no shares: for one statement as EXPORT_LOG, which
    /// sees the tenant's standing shares, then as the admin again.
    private static func assignmentEnded(_ assignmentID: UUID, context: EventContext) async throws {
        let tx = context.transaction
        try await AccountContext.exportLog(tenantID: context.tenant.id).enter(on: tx)
        try await tx.execute(ExportStatements.logAssignmentEnded, assignmentID)
        let acting = context.viewer.map { AccountContext.person(tenantID: context.tenant.id, personID: $0.personID, role: $0.role) }
        try await (acting ?? .tenantOperator(tenantID: context.tenant.id)).enter(on: tx)
    }
}
