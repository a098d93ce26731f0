import Storykeep
import Synchronization

/// A module of a test's own that only handles other modules' events, in every tenant (no SDL, not
/// switched by a tenant module), and keeps a line for each event in `heard`, in the order its
/// handlers ran.
protocol ListenerModule: StorykeepModule {
    var heard: HeardEvents { get }
}

extension ListenerModule {
    var switchedBy: TenantModule? { nil }
    var sdl: [String] { [] }

    /// Keeps, for each `Event` published, the line `line` makes of it (in the handler's
    /// transaction, the change's).
    func keep<Event: DomainEvent>(
        _ type: Event.Type, in module: inout ModuleRegistry,
        _ line: @escaping @Sendable (Event, EventContext) async throws -> String
    ) {
        let heard = heard
        module.on(type) { event, context in heard.append(try await line(event, context)) }
    }
}

/// The lines a `ListenerModule`'s handlers kept.
final class HeardEvents: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }
}
