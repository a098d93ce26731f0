import Foundation
import GraphQL
import Postgres
public import StorykeepCore
import StorykeepJournals
import StorykeepNotifications

/// Prompts from adults in the schema (Schema/prompts.graphql): an adult who looks after a young
/// person sends them prompts (`sendPrompt`, `sentPrompts`); the young person lists them
/// (`prompts`), dismisses one (`dismissPrompt`), or answers one by writing an entry with
/// `input.promptId`, a field this module adds to the journal's `EntryInput`. Always on.
///
/// Answering happens in the journal's request: this module handles ``EntryCreated`` and
/// ``EntryUpdated`` (which carry the coerced input) in their transaction, and a `promptId` that
/// is no open prompt of the writer's fails the request, entry and all. Notifications: the young
/// person is told of a prompt received (``promptReceivedKind``), the adult of a prompt answered
/// (``promptAnsweredKind``); neither names what the prompt or the entry says.
public struct PromptsModule: StorykeepModule {
    public init() {}

    public var name: String { "prompts" }
    public var switchedBy: TenantModule? { nil }
    public var tenantSettings: [any TenantSettings.Type] { [TenantSection<AdultPromptPolicy>.self] }

    /// The notification a young person gets for a prompt; its subject is the prompt (`prompt`).
    public static let promptReceivedKind = "promptReceived"
    /// The notification an adult gets when their prompt is answered; its subject is the prompt.
    public static let promptAnsweredKind = "promptAnswered"

    /// The entries prompts were answered with, live and the young person's own, by id.
    static let entries = DataLoader<UUID, Entry?>.inTransaction("Prompt.entry") { ids, _, tx in
        let found = Dictionary(uniqueKeysWithValues: try await JournalStore(tx).entries(ids: ids).map { ($0.id, $0) })
        return ids.map { found[$0] }
    }

    public func register(_ module: inout ModuleRegistry) {
        let adults = FieldAccess.roles([.socialWorker, .carer])
        let youngPeople = FieldAccess.roles([.youngPerson])

        module.query("prompts", access: youngPeople) { arguments, context in
            try await context.transaction { tx in
                try await PromptStore(tx).received(open: arguments["open"]?.boolValue, first: arguments["first"]?.intValue ?? 50)
            }
        }
        module.query("sentPrompts", access: adults) { arguments, context in
            let youngPersonID = try Self.youngPersonID(arguments)
            return try await context.transaction { tx in
                try await PromptStore(tx).sent(to: youngPersonID, first: arguments["first"]?.intValue ?? 50)
            }
        }
        module.field(
            "Prompt.entry",
            .sync { source, _, _, info in
                guard let id = (source as? AdultPrompt)?.answeredEntryID else { return nil }
                return Self.entries.load(id, info)
            })

        module.mutation("sendPrompt", access: adults) { arguments, context in
            let youngPersonID = try Self.youngPersonID(arguments)
            return try await context.transaction { tx in
                let prompt = try await PromptStore(tx).send(
                    to: youngPersonID, text: arguments["text"]?.stringValue ?? "",
                    limit: context.tenant.file.adultPrompts.maxOpenPerYoungPerson)
                try await Notifications.notify(
                    [youngPersonID], kind: Self.promptReceivedKind, title: "\(prompt.adult?.displayName ?? "Someone") sent you a prompt",
                    subject: NotificationSubject(kind: "prompt", id: prompt.id), in: tx)
                return prompt
            }
        }
        module.mutation("dismissPrompt", access: youngPeople) { arguments, context in
            let id = try arguments.id("id")
            return try await context.transaction { tx in try await PromptStore(tx).dismiss(id: id) }
        }

        module.on(EntryCreated.self) { event, context in
            try await Self.answer(with: event.entryID, input: event.input, context)
        }
        module.on(EntryUpdated.self) { event, context in
            try await Self.answer(with: event.entryID, input: event.input, context)
        }
    }

    /// Marks the prompt of `input.promptId`, if any, answered with the entry `entryID`, and tells
    /// its adult, in the transaction of the entry.
    static func answer(with entryID: UUID, input: GraphQLObject, _ context: EventContext) async throws {
        guard let value = input["promptId"], value != .null else { return }
        guard let promptID = value.stringValue.flatMap(UUID.init(uuidString:)) else {
            throw GraphQLError.badUserInput(field: "input.promptId", "input.promptId: this is not one of your open prompts.")
        }
        let tx = context.transaction
        guard let answer = try await PromptStore(tx).answer(id: promptID, with: entryID), answer.adultLooksAfter else { return }
        try await Notifications.notify(
            [answer.adultID], kind: promptAnsweredKind, title: "\(answer.youngPersonName) answered your prompt",
            subject: NotificationSubject(kind: "prompt", id: promptID), in: tx)
    }

    /// The argument `youngPersonId` as an id: BAD_USER_INPUT naming it when it is no UUID, as
    /// for one that names nobody the adult looks after.
    private static func youngPersonID(_ arguments: GraphQLObject) throws -> UUID {
        guard let id = arguments["youngPersonId"]?.stringValue.flatMap(UUID.init(uuidString:)) else {
            throw GraphQLError.badUserInput(field: "youngPersonId", "You can send prompts only to the young people you look after now.")
        }
        return id
    }
}
