public import Foundation
public import Postgres
import StorykeepCore

/// What a notification is about, by id, for the app to open: a person, an entry, a share, ...
public struct NotificationSubject: Sendable, Hashable {
    /// What `id` names: a lowercase letter, then letters (`person`, `entry`, `safetyAlert`).
    public var kind: String
    public var id: UUID

    public init(kind: String, id: UUID) {
        self.kind = kind
        self.id = id
    }
}

/// Telling people what happened: how every module writes notifications
/// (Migrations/0011_notifications.sql).
///
/// A module notifies inside the transaction of the change it tells of, so the notification
/// commits or rolls back with it:
///
/// ```swift
/// try await Notifications.notify(
///     [youngPersonID], kind: "assignmentStarted", title: "Jo is now your social worker",
///     subject: NotificationSubject(kind: "person", id: adultID), in: tx)
/// ```
///
/// The module owns its kinds and their wording: `kind` is a lowercase letter then letters
/// (`shareReceived`), a name the apps switch on; `title` is the text shown, which the module
/// builds from names it may read and fixed words. A title is shown on lock screens: it says who
/// and what, never an entry's text or a message's.
public enum Notifications {
    /// The most characters (Unicode code points) a title keeps (``TextLimit/notificationTitle``).
    /// A longer one is cut at a character boundary, with "…".
    public static let maxTitleLength = TextLimit.notificationTitle.range.upperBound

    /// Notifies each of `recipients` (each once, however often listed) of `kind`, in the
    /// transaction `tx` and in the name of the person it runs as, who is recorded as the actor
    /// (none when it runs as the tenant's operator: the server's own work). One statement for all
    /// the recipients; none when there are none.
    ///
    /// The database refuses a recipient of another tenant, a kind or subject kind not of the
    /// form above, and a context that is neither a person nor an admin's.
    public static func notify(
        _ recipients: [UUID], kind: String, title: String, subject: NotificationSubject? = nil, in tx: some PostgresQueryable
    ) async throws {
        let recipients = Array(Set(recipients))
        guard !recipients.isEmpty else { return }
        try await tx.execute(NotificationStatements.notify, recipients, kind, clipped(title), subject?.kind, subject?.id)
    }

    /// `title` trimmed and, past ``maxTitleLength`` code points, cut after the last whole
    /// character that leaves room for "…". Never empty.
    static func clipped(_ title: String) -> String {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "…" }
        guard trimmed.unicodeScalars.count > maxTitleLength else { return trimmed }
        var kept = ""
        var length = 0
        for character in trimmed {
            let size = character.unicodeScalars.count
            guard length + size <= maxTitleLength - 1 else { break }
            kept.append(character)
            length += size
        }
        return kept + "…"
    }
}
