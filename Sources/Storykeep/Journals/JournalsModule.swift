import Foundation
import GraphQL
import Postgres
public import StorykeepCore

/// The journal in the schema (Schema/journals.graphql): entries, media, the daily check-in,
/// suggestions, search and the calendar. Always on.
///
/// Every resolver runs in the request's transaction as the person logged in, and the stores'
/// statements name `current_person_id()` as the author, which the policies of
/// Migrations/0003_journals.sql and 0004 enforce whatever a statement says. Writes publish
/// ``EntryCreated``, ``EntryUpdated``, ``EntryArchived`` and ``CheckedIn`` in their transaction.
public struct JournalsModule: StorykeepModule {
    public init() {}

    public var name: String { "journals" }
    public var switchedBy: TenantModule? { nil }
    public var tenantSettings: [any TenantSettings.Type] { [JournalSettings.self] }
    public var endpoints: [ModuleEndpoint] { [.files(path: MediaFiles.path, source: MediaFiles())] }

    public func register(_ module: inout ModuleRegistry) {
        registerReads(&module)
        registerWrites(&module)
        registerCheckIn(&module)
        // An entry read without its media (a page's, so that they come with the page's tags,
        // in one round trip) has them loaded in the round's batch; one read with none, too.
        module.field(
            "Entry.media",
            .sync { source, _, _, info in
                guard let entry = source as? Entry else { return [MediaInfo]() }
                return entry.media.isEmpty ? Self.mediaOfEntries.load(entry.id, info) : entry.media
            })
        module.field(
            "Media.url",
            .sync { source, _, context, _ in
                guard let media = source as? MediaInfo, let context = context as? ResolverContext else { return nil }
                return context.links.url(media.path)
            })
    }

    /// The media of a round's entries, in one statement.
    static let mediaOfEntries = DataLoader<UUID, [MediaInfo]>.inTransaction("Entry.media") { entryIDs, _, tx in
        let media = try await EntryRows.media(ofEntries: entryIDs, on: tx)
        return entryIDs.map { media[$0] ?? [] }
    }

    private func registerReads(_ module: inout ModuleRegistry) {
        module.query("entry", access: .authenticated) { arguments, context in
            guard let id = arguments["id"]?.stringValue.flatMap(UUID.init(uuidString:)) else { return nil }
            return try await context.transaction { tx in try await JournalStore(tx).entry(id: id) }
        }
        module.query("entries", access: .authenticated) { arguments, context in
            let filter = try JournalValues.entryFilter(arguments["filter"]?.objectValue)
            let after = try context.cursors.position(after: arguments["after"]?.stringValue, of: EntryPosition.self)
            return try await context.transaction { tx in
                try await JournalStore(tx).entries(
                    first: arguments["first"]?.intValue ?? 20, after: after, filter: filter, withMedia: false)
            }.connection(cursors: context.cursors, node: { $0 })
        }
        module.query("search", access: .authenticated) { arguments, context in
            let after = try context.cursors.position(after: arguments["after"]?.stringValue, of: EntryPosition.self)
            return try await context.transaction { tx in
                try await JournalStore(tx).search(
                    arguments["query"]?.stringValue ?? "", first: arguments["first"]?.intValue ?? 20, after: after, withMedia: false)
            }.connection(cursors: context.cursors, node: { $0 })
        }
        module.query("calendar", access: .authenticated) { arguments, context in
            let days = try await context.transaction { tx in
                try await JournalStore(tx).calendar(month: arguments["month"]?.stringValue ?? "")
            }
            return GraphQLValue.list(
                days.map { day in
                    .object([
                        "date": .string(day.day.description), "entryCount": .int(day.entryCount),
                        "moods": .list(day.moods.map(GraphQLValue.string)),
                    ])
                })
        }
        module.query("suggestions", access: .authenticated) { arguments, context in
            let count = arguments["count"]?.intValue ?? 3
            guard (0...20).contains(count) else { throw GraphQLError.badUserInput(field: "count", "count: must be 0 to 20.") }
            let (recent, mood, language) = try await context.transaction { tx in
                let recent = try await Suggestions.recentlyAnswered(limit: max(count, 3), on: tx)
                let language = try await context.language(on: tx)
                // Without a mood given, today's check-in's.
                if let mood = arguments["mood"]?.stringValue { return (recent, Optional(mood), language) }
                guard case .done(_, let mood) = try await CheckInStore(tx).status(day: Self.today(context)) else {
                    return (recent, nil, language)
                }
                return (recent, mood, language)
            }
            var generator = SystemRandomNumberGenerator()
            return GraphQLValue.list(
                Suggestions.choose(count: count, from: context.tenant.file.prompts, mood: mood, recent: recent, using: &generator)
                    .map { .string($0.text.text(in: language)) })
        }
    }

    private func registerWrites(_ module: inout ModuleRegistry) {
        module.mutation("createEntry", access: .authenticated) { arguments, context in
            var input = try JournalValues.entryInput(arguments["input"]?.objectValue ?? [:])
            let files = try (arguments["files"]?.listValue ?? []).map { try GraphQLUpload($0) }
            return try await context.transaction { tx in
                // The mood first: a refusal then costs no file stored and rolled back.
                try await Self.checkMood(input.mood, field: "input.mood", context: context, on: tx)
                for (index, file) in files.enumerated() {
                    let stored = try await JournalError.renamingFields({ _ in "files.\(index)" }) {
                        try await MediaStore(tx).upload(
                            file.bytes, declaredType: file.contentType, maxBytes: context.tenant.file.uploads.maxBytes)
                    }
                    input.mediaIDs.append(stored.id)
                }
                let entry = try await JournalError.renamingFields({ "input.\($0)" }) {
                    try await JournalStore(tx).createEntry(input)
                }
                try await context.publish(
                    EntryCreated(
                        entryID: entry.id, authorID: try context.requireViewer().personID, day: entry.day, kind: entry.kind,
                        input: arguments["input"]?.objectValue ?? [:]),
                    in: tx)
                return entry
            }
        }
        module.mutation("updateEntry", access: .authenticated) { arguments, context in
            let id = try arguments.id("id")
            let input = try JournalValues.entryInput(arguments["input"]?.objectValue ?? [:])
            return try await context.transaction { tx in
                try await Self.checkMood(input.mood, field: "input.mood", context: context, on: tx)
                let entry = try await JournalError.renamingFields({ "input.\($0)" }) {
                    try await JournalStore(tx).updateEntry(id: id, input)
                }
                try await context.publish(
                    EntryUpdated(
                        entryID: entry.id, authorID: try context.requireViewer().personID, input: arguments["input"]?.objectValue ?? [:]),
                    in: tx)
                return entry
            }
        }
        module.mutation("deleteEntry", access: .authenticated) { arguments, context in
            let id = try arguments.id("id")
            try await context.transaction { tx in
                try await JournalStore(tx).deleteEntry(id: id, now: context.services.now())
                try await context.publish(EntryArchived(entryID: id, authorID: try context.requireViewer().personID), in: tx)
            }
            return true
        }
        module.mutation("uploadMedia", access: .authenticated) { arguments, context in
            let file = try GraphQLUpload(arguments["file"])
            return try await context.transaction { tx in
                try await MediaStore(tx).upload(file.bytes, declaredType: file.contentType, maxBytes: context.tenant.file.uploads.maxBytes)
            }
        }
    }

    private func registerCheckIn(_ module: inout ModuleRegistry) {
        module.query("greeting", access: .authenticated) { _, context in
            try await context.transaction { tx in try await Self.greeting(context, on: tx) }
        }
        module.mutation("checkIn", access: .authenticated) { arguments, context in
            let mood = arguments["mood"]?.stringValue ?? ""
            return try await context.transaction { tx in
                try await Self.checkMood(mood, field: "mood", context: context, on: tx)
                let day = Self.today(context)
                let entry = try await CheckInStore(tx).checkIn(day: day, mood: mood, note: arguments["note"]?.stringValue)
                try await context.publish(
                    CheckedIn(entryID: entry.id, personID: try context.requireViewer().personID, day: day, mood: mood), in: tx)
                return entry
            }
        }
        module.mutation("skipCheckIn", access: .authenticated) { _, context in
            try await context.transaction { tx in
                try await CheckInStore(tx).skip(day: Self.today(context))
                return try await Self.greeting(context, on: tx)
            }
        }
    }

    /// Today in the tenant's time zone, by the server's clock.
    static func today(_ context: ResolverContext) -> PostgresDate {
        PostgresDate(context.services.now(), in: TimeZone(identifier: context.tenant.file.timeZone) ?? .gmt)
    }

    /// The `Greeting`: three statements (the person's mood icons, the check-in's status, and,
    /// when done, its entry).
    static func greeting(_ context: ResolverContext, on tx: PostgresTransaction) async throws -> [String: any Sendable] {
        let today = today(context)
        let icons = try await MoodIcons.current(defaults: context.tenant.file.moodIcons, on: tx)
        let language = try await context.language(on: tx)
        let status = try await CheckInStore(tx).status(day: today)
        var entry: Entry?
        let name: String
        switch status {
        case .pending: name = "PENDING"
        case .skipped: name = "SKIPPED"
        case .done(let id, _):
            name = "DONE"
            entry = try await JournalStore(tx).entry(id: id)
        }
        return [
            "question": context.tenant.file.checkInQuestion.text(in: language),
            "moodIcons": icons.map { $0.graphQLValue(in: language) },
            "today": today,
            "checkIn": name,
            "checkInEntry": entry,
        ]
    }

    /// Refuses a mood that is not a label of the person's mood icons (their own, or the
    /// tenant's): the apps offer only those, and the calendar shows them.
    static func checkMood(_ mood: String?, field: String, context: ResolverContext, on tx: PostgresTransaction) async throws {
        guard let mood else { return }
        let icons = try await MoodIcons.current(defaults: context.tenant.file.moodIcons, on: tx)
        guard icons.contains(where: { $0.label == mood }) else {
            throw GraphQLError.badUserInput(
                field: field, "\(field): \"\(mood)\" is not one of your moods (\(icons.map(\.label).joined(separator: ", "))).")
        }
    }
}
