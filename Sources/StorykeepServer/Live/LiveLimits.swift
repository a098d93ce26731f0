import Foundation
public import Storykeep
import Synchronization

/// What one server lets live connections (graphql-ws) hold.
public struct LiveLimits: Sendable {
    /// Operations running at once on one connection; another gets an `error` (TOO_MANY_SUBSCRIPTIONS).
    public var subscriptionsPerConnection = 20
    /// Connections of one person at once (their phone, their laptop, a few tabs).
    public var connectionsPerPerson = 10
    /// Connections of one agency at once.
    public var connectionsPerTenant = 5_000
    /// The largest message a client may send; a larger one closes the connection (1009).
    public var maxMessageBytes = 64 * 1024
    /// How long a connection may wait before `connection_init` (then 4408).
    public var initTimeout = Duration.seconds(10)
    /// How long a connection with no operation running may stay without a message (then closed).
    public var idleTimeout = Duration.seconds(300)

    /// The defaults above, which `Config/storykeep.json` repeats.
    public init() {}

    /// As the server's configuration says (`live.*`).
    public init(_ config: StorykeepConfig.Live) {
        subscriptionsPerConnection = config.subscriptionsPerConnection
        connectionsPerPerson = config.connectionsPerPerson
        connectionsPerTenant = config.connectionsPerTenant
        maxMessageBytes = config.maxMessageBytes
        initTimeout = config.initTimeout
        idleTimeout = config.idleTimeout
    }
}

/// The live connections of this server by person and by agency, held to ``LiveLimits``.
public final class LiveConnections: Sendable {
    private struct Counts {
        var byPerson: [UUID: Int] = [:]
        var byTenant: [UUID: Int] = [:]
    }

    private let counts = Mutex(Counts())

    public init() {}

    /// Counts a connection of `personID` in `tenantID`, unless that is one too many: then false,
    /// and nothing is counted.
    func admit(person personID: UUID, tenant tenantID: UUID, limits: LiveLimits) -> Bool {
        counts.withLock { counts in
            guard counts.byPerson[personID, default: 0] < limits.connectionsPerPerson,
                counts.byTenant[tenantID, default: 0] < limits.connectionsPerTenant
            else { return false }
            counts.byPerson[personID, default: 0] += 1
            counts.byTenant[tenantID, default: 0] += 1
            return true
        }
    }

    /// Forgets a connection ``admit(person:tenant:limits:)`` counted.
    func release(person personID: UUID, tenant tenantID: UUID) {
        counts.withLock { counts in
            counts.byPerson[personID] = counts.byPerson[personID].flatMap { $0 > 1 ? $0 - 1 : nil }
            counts.byTenant[tenantID] = counts.byTenant[tenantID].flatMap { $0 > 1 ? $0 - 1 : nil }
        }
    }
}
