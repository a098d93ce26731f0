import Foundation
public import GraphQL
import Postgres

/// The journal in the schema (Schema/journals.graphql): entries, media, the daily check-in,
/// suggestions, search and the calendar. Always on.
///
/// Every resolver runs in the request's transaction as the person logged in, and the stores'
/// statements name `current_person_id()` as the author, which the policies of
/// Migrations/0003_journals.sql and 0004 enforce whatever a statement says.
public struct JournalsModule: StorykeepModule {
    public init() {}

    public var name: String { "journals" }
    public var switchedBy: TenantModule? { nil }

    public func configure(_ schema: GraphQLSchema) {
        DateScalar.configure(in: schema)
        GraphQLUpload.configureScalar(in: schema)
    }

    public func register(_ resolvers: inout ResolverRegistry) {
        registerReads(&resolvers)
        registerWrites(&resolvers)
        registerCheckIn(&resolvers)
    }

    private func registerReads(_ resolvers: inout ResolverRegistry) {
        resolvers.query("entry", access: .authenticated) { arguments, context in
            guard let id = arguments["id"]?.stringValue.flatMap(UUID.init(uuidString:)) else { return nil }
            return try await context.transaction { tx in
                try await JournalStore(tx).entry(id: id).map { JournalValues.entry($0, tenant: context.tenant) }
            }
        }
        resolvers.query("entries", access: .authenticated) { arguments, context in
            let filter = try JournalValues.entryFilter(arguments["filter"]?.objectValue)
            let cursors = Cursors(tenant: context.tenant)
            let after = try cursors.position(after: arguments["after"]?.stringValue, of: EntryPosition.self)
            let page = try await context.transaction { tx in
                try await JournalStore(tx).entries(first: arguments["first"]?.intValue ?? 20, after: after, filter: filter)
            }
            return JournalValues.connection(page, cursors: cursors, node: { JournalValues.entry($0, tenant: context.tenant) })
        }
        resolvers.query("search", access: .authenticated) { arguments, context in
            let cursors = Cursors(tenant: context.tenant)
            let after = try cursors.position(after: arguments["after"]?.stringValue, of: EntryPosition.self)
            let page = try await context.transaction { tx in
                try await JournalStore(tx).search(
                    arguments["query"]?.stringValue ?? "", first: arguments["first"]?.intValue ?? 20, after: after)
            }
            return JournalValues.connection(page, cursors: cursors, node: { JournalValues.entry($0, tenant: context.tenant) })
        }
        resolvers.query("calendar", access: .authenticated) { arguments, context in
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
        resolvers.query("suggestions", access: .authenticated) { arguments, context in
            let count = arguments["count"]?.intValue ?? 3
            guard (0...20).contains(count) else { throw GraphQLError.badUserInput(field: "count", "count: must be 0 to 20.") }
            let (recent, mood) = try await context.transaction { tx in
                let recent = try await Suggestions.recentlyAnswered(limit: max(count, 3), on: tx)
                // Without a mood given, today's check-in's.
                if let mood = arguments["mood"]?.stringValue { return (recent, Optional(mood)) }
                guard case .done(_, let mood) = try await CheckInStore(tx).status(day: Self.today(context)) else {
                    return (recent, nil)
                }
                return (recent, mood)
            }
            var generator = SystemRandomNumberGenerator()
            return GraphQLValue.list(
                Suggestions.choose(count: count, from: context.tenant.file.prompts, mood: mood, recent: recent, using: &generator)
                    .map { .string($0.text) })
        }
    }

    private func registerWrites(_ resolvers: inout ResolverRegistry) {
        resolvers.mutation("createEntry", access: .authenticated) { arguments, context in
            var input = try JournalValues.entryInput(arguments["input"]?.objectValue ?? [:])
            let files = try (arguments["files"]?.listValue ?? []).map { try GraphQLUpload($0) }
            return try await context.transaction { tx in
                // The mood first: a refusal then costs no file stored and rolled back.
                try await Self.checkMood(input.mood, field: "input.mood", context: context, on: tx)
                for (index, file) in files.enumerated() {
                    let stored = try await JournalValues.renamingFields({ _ in "files.\(index)" }) {
                        try await MediaStore(tx).upload(
                            file.bytes, declaredType: file.contentType, maxBytes: context.tenant.file.uploads.maxBytes)
                    }
                    input.mediaIDs.append(stored.id)
                }
                let entry = try await JournalValues.renamingFields({ "input.\($0)" }) {
                    try await JournalStore(tx).createEntry(input)
                }
                return JournalValues.entry(entry, tenant: context.tenant)
            }
        }
        resolvers.mutation("updateEntry", access: .authenticated) { arguments, context in
            let id = try JournalValues.id(arguments, "id")
            let input = try JournalValues.entryInput(arguments["input"]?.objectValue ?? [:])
            return try await context.transaction { tx in
                try await Self.checkMood(input.mood, field: "input.mood", context: context, on: tx)
                let entry = try await JournalValues.renamingFields({ "input.\($0)" }) {
                    try await JournalStore(tx).updateEntry(id: id, input)
                }
                return JournalValues.entry(entry, tenant: context.tenant)
            }
        }
        resolvers.mutation("deleteEntry", access: .authenticated) { arguments, context in
            let id = try JournalValues.id(arguments, "id")
            try await context.transaction { tx in try await ArchiveStore(tx).deleteEntry(id: id, now: context.services.now()) }
            return true
        }
        resolvers.mutation("uploadMedia", access: .authenticated) { arguments, context in
            let file = try GraphQLUpload(arguments["file"])
            let media = try await context.transaction { tx in
                try await MediaStore(tx).upload(file.bytes, declaredType: file.contentType, maxBytes: context.tenant.file.uploads.maxBytes)
            }
            return JournalValues.media(media, tenant: context.tenant)
        }
    }

    private func registerCheckIn(_ resolvers: inout ResolverRegistry) {
        resolvers.query("greeting", access: .authenticated) { _, context in
            try await context.transaction { tx in try await Self.greeting(context, on: tx) }
        }
        resolvers.mutation("checkIn", access: .authenticated) { arguments, context in
            let mood = arguments["mood"]?.stringValue ?? ""
            return try await context.transaction { tx in
                try await Self.checkMood(mood, field: "mood", context: context, on: tx)
                let entry = try await CheckInStore(tx).checkIn(
                    day: Self.today(context), mood: mood, note: arguments["note"]?.stringValue)
                return JournalValues.entry(entry, tenant: context.tenant)
            }
        }
        resolvers.mutation("skipCheckIn", access: .authenticated) { _, context in
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
    static func greeting(_ context: ResolverContext, on tx: PostgresTransaction) async throws -> GraphQLValue {
        let today = today(context)
        let icons = try await ProfileStore(tx).profile(defaultMoodIcons: context.tenant.file.moodIcons).moodIcons
        let status = try await CheckInStore(tx).status(day: today)
        var entry: GraphQLValue = .null
        let name: String
        switch status {
        case .pending: name = "PENDING"
        case .skipped: name = "SKIPPED"
        case .done(let id, _):
            name = "DONE"
            entry = try await JournalStore(tx).entry(id: id).map { JournalValues.entry($0, tenant: context.tenant) } ?? .null
        }
        return .object([
            "question": .string(context.tenant.file.checkInQuestion),
            "moodIcons": .list(icons.map(JournalValues.moodIcon)),
            "today": .string(today.description),
            "checkIn": .string(name),
            "checkInEntry": entry,
        ])
    }

    /// Refuses a mood that is not a label of the person's mood icons (their own, or the
    /// tenant's): the apps offer only those, and the calendar shows them.
    static func checkMood(_ mood: String?, field: String, context: ResolverContext, on tx: PostgresTransaction) async throws {
        guard let mood else { return }
        let icons = try await ProfileStore(tx).profile(defaultMoodIcons: context.tenant.file.moodIcons).moodIcons
        guard icons.contains(where: { $0.label == mood }) else {
            throw GraphQLError.badUserInput(
                field: field, "\(field): \"\(mood)\" is not one of your moods (\(icons.map(\.label).joined(separator: ", "))).")
        }
    }
}

/// The `Date` scalar: a calendar day, `YYYY-MM-DD`, a real one (no 31 June).
enum DateScalar {
    static func configure(in schema: GraphQLSchema) {
        guard case .scalar(let scalar) = schema.type(named: "Date") else { return }
        scalar.parseValue = { value in
            guard case .string(let text) = value, PostgresDate(text) != nil else {
                throw GraphQLError(message: "Date must be a day written YYYY-MM-DD, e.g. 2026-11-24.")
            }
            return value
        }
        scalar.parseLiteral = { literal in
            guard case .string(let text) = literal, PostgresDate(text.value) != nil else {
                throw GraphQLError(message: "Date must be a day written YYYY-MM-DD, e.g. 2026-11-24.")
            }
            return .string(text.value)
        }
        scalar.serialize = { value in
            switch value {
            case let value as GraphQLValue: return value
            case let date as PostgresDate: return .string(date.description)
            default: throw GraphQLError(message: "Date cannot represent \(value).")
            }
        }
    }
}
