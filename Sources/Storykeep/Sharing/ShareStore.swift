public import Foundation
import GraphQL
public import Postgres
public import StorykeepCore
import StorykeepJournals

/// Shares, in the transaction it is given, for the person that transaction runs as: an author
/// shares and unshares their entries and reads whom they shared them with; a sharee reads what
/// was shared with them, marks it seen and replies. The policies of Migrations/0012_sharing.sql
/// hold each to that whatever a statement says.
///
/// Input is checked before anything is written: a refusal throws a coded `GraphQLError` naming
/// the argument as the API spells it (`withPersonIds`, `personIds`, `message`, `text`,
/// `youngPersonId`, `first`) or NOT_FOUND, and changes nothing.
public struct ShareStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    // MARK: The author

    /// What sharing did: with whom the entry is newly shared, and the author's name as they read it.
    public struct Shared: Sendable {
        public var shareeIDs: [UUID]
        public var authorName: String
    }

    /// Shares the person's live entry `entryID` with `people` (adults of their current team, not
    /// switched off), with `message` (trimmed; blank is none). Those it is shared with already are
    /// left as they are. Refused when the entry is not the person's live one (NOT_FOUND),
    /// `people` is empty or names someone outside the team (BAD_USER_INPUT on `withPersonIds`,
    /// naming them), or the message is too long (on `message`). A share made in an assignment
    /// since ended is closed and made anew. Four statements.
    public func share(entryID: UUID, with people: [UUID], message: String?) async throws -> Shared {
        let people = people.uniqued()
        guard !people.isEmpty else {
            throw GraphQLError.badUserInput(field: "withPersonIds", "withPersonIds: name at least one person of your team.")
        }
        let message = message.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        if let message, !TextLimit.shareMessage.admits(message) {
            throw GraphQLError.badUserInput(field: "message", "message: must have \(TextLimit.shareMessage).")
        }
        let check = try await database.query(ShareStatements.shareCheck, entryID, people)[0]
        guard try check.decode(Bool.self, at: 0) else { throw GraphQLError.notFound() }
        if let outsider = try check.decode([UUID].self, at: 1).first {
            throw Self.notInTeam(outsider)
        }
        let authorName = try check.decode(String.self, at: 2)
        try await database.execute(ShareStatements.closeSuspended, entryID, people)
        do {
            let rows = try await database.query(ShareStatements.share, entryID, people, message)
            return Shared(shareeIDs: try rows.map { try $0.decode(UUID.self, at: 0) }, authorName: authorName)
        } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.insufficientPrivilege {
            // Someone's assignment ended, or they were switched off, since the check.
            throw Self.notInTeam(nil)
        }
    }

    /// Stops sharing the person's live entry `entryID` with `people`, or with everyone when nil:
    /// the sharees it was unshared with. Refused when the entry is not the person's live one
    /// (NOT_FOUND), or `people` is empty or names someone it is not shared with (BAD_USER_INPUT
    /// on `personIds`, naming them). Two statements.
    public func unshare(entryID: UUID, from people: [UUID]?) async throws -> [UUID] {
        let people = people?.uniqued()
        if people?.isEmpty == true {
            throw GraphQLError.badUserInput(field: "personIds", "personIds: name at least one person, or leave it out to unshare with everyone.")
        }
        let check = try await database.query(ShareStatements.unshareCheck, entryID, people ?? [])[0]
        guard try check.decode(Bool.self, at: 0) else { throw GraphQLError.notFound() }
        if let stranger = try check.decode([UUID].self, at: 1).first {
            throw GraphQLError.badUserInput(field: "personIds", "personIds: this entry is not shared with \(stranger.lowercased).")
        }
        return try await database.query(ShareStatements.unshare, entryID, people).map { try $0.decode(UUID.self, at: 0) }
    }

    /// Whom each of the person's entries among `entryIDs` is shared with now (empty for others'
    /// entries): one statement, whatever their number (what the `Entry.sharedWith` loader calls).
    public func shares(ofEntries entryIDs: [UUID]) async throws -> [UUID: [EntryShare]] {
        var shares: [UUID: [EntryShare]] = [:]
        for row in try await database.query(ShareStatements.sharesOfEntries, entryIDs) {
            let (entryID, share) = try ShareRows.decodeEntryShare(row)
            shares[entryID, default: []].append(share)
        }
        return shares
    }

    /// The person's standing share `id` of one of their entries; nil when there is none.
    public func shareOfMine(id: UUID) async throws -> EntryShare? {
        try await database.query(ShareStatements.shareOfMine, id).first.map { try ShareRows.decodeEntryShare($0).share }
    }

    // MARK: The sharee

    /// A page of what the young person `youngPersonID` shared with the person, newest first;
    /// with `unseenOnly`, what they have not seen yet. Three statements whatever `first` is
    /// (whether they look after the young person, the shares with their entries, the entries'
    /// files); refused (BAD_USER_INPUT on `youngPersonId`) for a young person they do not look
    /// after now, and on `first` outside 0 to ``PageSize/max``.
    public func sharedWithMe(
        youngPersonID: UUID, first: Int, after: SharePosition? = nil, unseenOnly: Bool = false
    ) async throws -> Page<Share, SharePosition> {
        try PageSize.check(first)
        guard try await database.query(ShareStatements.looksAfter, youngPersonID)[0].decode(Bool.self, at: 0) else {
            throw GraphQLError.badUserInput(field: "youngPersonId", "youngPersonId: you do not look after this young person now.")
        }
        let position = after ?? .pastNewest
        let rows = try await database.query(
            unseenOnly ? ShareStatements.sharedUnseenPage : ShareStatements.sharedPage,
            youngPersonID, position.moment, position.id, first + 1)
        let items = try await Self.withMedia(try rows.prefix(first).map(ShareRows.decodeShare), on: database)
        return Page(items: items, hasNextPage: rows.count > first)
    }

    /// The person's standing share `id` with its entry, or nil (absent, not theirs, unshared, or
    /// no longer theirs to read): two statements.
    public func share(id: UUID) async throws -> Share? {
        let rows = try await database.query(ShareStatements.sharedByID, id)
        return try await Self.withMedia(try rows.map(ShareRows.decodeShare), on: database).first?.item
    }

    /// How many shares of each of `youngPeople` the person has not seen, for those with any: one
    /// statement (what the `CaseloadYoungPerson.unreadShares` loader calls).
    public func unseenCounts(of youngPeople: [UUID]) async throws -> [UUID: Int] {
        var counts: [UUID: Int] = [:]
        for row in try await database.query(ShareStatements.unseenCounts, youngPeople) {
            counts[try row.decode(UUID.self, at: 0)] = try row.decode(Int.self, at: 1)
        }
        return counts
    }

    /// What marking seen or replying did to a share.
    public struct Acted: Sendable {
        public var entryID: UUID
        public var authorID: UUID
        /// It was not seen before.
        public var newlySeen: Bool
        /// The sharee's name as the author reads it.
        public var shareeName: String
    }

    /// Marks the person's standing share `id` seen (the first time counts). NOT_FOUND when they
    /// have no such share to read.
    public func markSeen(id: UUID) async throws -> Acted {
        guard let row = try await database.query(ShareStatements.markSeen, id).first else { throw GraphQLError.notFound() }
        return try Self.acted(row)
    }

    /// Makes `text` (trimmed) the person's reply to their standing share `id`, and marks it seen.
    /// Refused when blank or too long (BAD_USER_INPUT on `text`), NOT_FOUND when they have no
    /// such share to read.
    public func reply(id: UUID, text: String) async throws -> Acted {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextLimit.shareReply.admits(text) else {
            throw GraphQLError.badUserInput(field: "text", "text: a reply has \(TextLimit.shareReply).")
        }
        guard let row = try await database.query(ShareStatements.reply, id, text).first else { throw GraphQLError.notFound() }
        return try Self.acted(row)
    }

    private static func acted(_ row: PostgresRow) throws -> Acted {
        Acted(
            entryID: try row.decode(UUID.self, at: 0), authorID: try row.decode(UUID.self, at: 1),
            newlySeen: try row.decode(Bool.self, at: 2), shareeName: try row.decode(String.self, at: 3))
    }

    /// `items` with their entries' files: one statement, whatever their number.
    private static func withMedia(
        _ items: [(share: Share, position: SharePosition)], on database: Database
    ) async throws -> [(item: Share, position: SharePosition)] {
        var entries = items.map(\.share.entry)
        try await EntryRows.attach(to: &entries, on: database)
        return zip(items, entries).map { item, entry in
            var share = item.share
            share.entry = entry
            return (share, item.position)
        }
    }

    /// BAD_USER_INPUT on `withPersonIds`, naming `person` when known.
    private static func notInTeam(_ person: UUID?) -> GraphQLError {
        .badUserInput(
            field: "withPersonIds",
            "withPersonIds: \(person.map { "\($0.lowercased) is" } ?? "someone here is") not one of the adults who look after you now.")
    }
}
